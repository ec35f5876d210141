import Foundation
import XCTest
@testable import ModelMapper

// Keyed containers alive at once each read their own object: these tests hold several containers at once,
// drop some while others are read, hold dozens, and compare every value read with JSONDecoder on the same
// input. They guard any reuse of container state (a pool, a spare reader) against lending one container's
// state to another while both live: tried on 2026-11-28 with a pool of readers lent when uniquely
// referenced, which these tests caught when the check was dropped (the pool was not kept: see
// TapeDecodingState.keyedContainer).

private enum PairKeys: String, CodingKey { case a, b, list }
private enum PointKeys: String, CodingKey { case x, y, z }

/// Reads two sibling objects of one key type in turns, out of member order.
private struct Interleaved: Decodable, Equatable {
    var values: [Int]
    init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: PairKeys.self)
        let a = try outer.nestedContainer(keyedBy: PointKeys.self, forKey: .a)
        let b = try outer.nestedContainer(keyedBy: PointKeys.self, forKey: .b)
        values = [
            try a.decode(Int.self, forKey: .x), try b.decode(Int.self, forKey: .x),
            try a.decode(Int.self, forKey: .z), try b.decode(Int.self, forKey: .y),
            try a.decode(Int.self, forKey: .y), try b.decode(Int.self, forKey: .z),
        ]
    }
}

/// Holds the first element's container while each next element's container is made, read and dropped,
/// then reads the first again.
private struct FirstHeld: Decodable, Equatable {
    var values: [Int]
    init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: PairKeys.self)
        var list = try outer.nestedUnkeyedContainer(forKey: .list)
        let first = try list.nestedContainer(keyedBy: PointKeys.self)
        values = [try first.decode(Int.self, forKey: .y)]
        while !list.isAtEnd {
            let next = try list.nestedContainer(keyedBy: PointKeys.self)
            values.append(try next.decode(Int.self, forKey: .z))
            values.append(try first.decode(Int.self, forKey: .x))
        }
        values.append(try first.decode(Int.self, forKey: .z))
    }
}

/// Holds a container for every element of its array, then reads them last to first.
private struct AllHeld: Decodable, Equatable {
    var values: [Int]
    init(from decoder: any Decoder) throws {
        var list = try decoder.unkeyedContainer()
        var held: [KeyedDecodingContainer<PointKeys>] = []
        while !list.isAtEnd { held.append(try list.nestedContainer(keyedBy: PointKeys.self)) }
        values = try held.reversed().flatMap { [try $0.decode(Int.self, forKey: .z), try $0.decode(Int.self, forKey: .x)] }
    }
}

final class CodableContainersAliveTests: XCTestCase {
    private func point(_ n: Int) -> String { #"{"x":\#(n),"y":\#(n + 1000),"z":\#(n + 2000)}"# }

    private func assertSameAsJSONDecoder<T: Decodable & Equatable>(_ type: T.Type, _ json: String,
                                                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let theirs = try JSONDecoder().decode(T.self, from: Data(json.utf8))
        // Twice: the second decoding runs on the thread's spare decoding state, which the first one left.
        for _ in 0..<2 {
            XCTAssertEqual(try ModelDecoder().decode(T.self, from: Data(json.utf8)), theirs, file: file, line: line)
        }
    }

    func testSiblingContainersReadInTurns() throws {
        try assertSameAsJSONDecoder([Interleaved].self, "[" + (0..<5).map {
            #"{"a":\#(point($0)),"b":\#(point(100 + $0))}"#
        }.joined(separator: ",") + "]")
    }

    func testHeldContainerWhileOthersComeAndGo() throws {
        try assertSameAsJSONDecoder(FirstHeld.self, #"{"list":["# + (0..<20).map(point).joined(separator: ",") + "]}")
    }

    func testDozensOfContainersAlive() throws {
        let count = 67
        try assertSameAsJSONDecoder(AllHeld.self, "[" + (0..<count).map(point).joined(separator: ",") + "]")
        // And nested in an array of such: each element's containers go before the next element's come.
        try assertSameAsJSONDecoder([AllHeld].self, "[" + (0..<3).map { k in
            "[" + (0..<count).map { point(k * 1000 + $0) }.joined(separator: ",") + "]"
        }.joined(separator: ",") + "]")
    }
}
