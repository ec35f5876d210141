import Foundation
import XCTest
@testable import ModelMapper

// JSONDecoder lets a `Decodable` keep its decoder or a container and read it after `decode` returned (its
// decoders own their JSON values). ModelDecoder's decoders read a tape that refers to the caller's bytes
// and to the thread's reused buffers: a kept one must read a copy, and the thread's spare state must not be
// reused under it. Each test reads the kept handle after the input is freed and after another decoding on
// the same thread, and compares with JSONDecoder on the same input (run under --sanitize=address too).

/// Keeps the decoder it was given.
private struct KeptDecoder: Decodable {
    let decoder: any Decoder
    init(from decoder: any Decoder) throws { self.decoder = decoder }
}

/// Keeps its unkeyed container and reads it later (also used by ForeignValueInputTests).
struct LazyList: Decodable {
    var container: any UnkeyedDecodingContainer
    init(from decoder: any Decoder) throws { container = try decoder.unkeyedContainer() }

    mutating func read() throws -> [String] {
        var values: [String] = []
        while !container.isAtEnd { values.append(try container.decode(String.self)) }
        return values
    }
}

private enum ItemKeys: String, CodingKey { case id, name, tags, child, noteText }

/// Keeps its keyed container.
private struct KeptKeyed: Decodable {
    let container: KeyedDecodingContainer<ItemKeys>
    init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: ItemKeys.self) }
}

/// What the tests read from a kept keyed container.
private struct Item: Equatable {
    var id: Int
    var name: String
    var tags: [String]
    var childID: Int?

    init(_ c: KeyedDecodingContainer<ItemKeys>) throws {
        id = try c.decode(Int.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        var list = try c.nestedUnkeyedContainer(forKey: .tags)
        tags = []
        while !list.isAtEnd { tags.append(try list.decode(String.self)) }
        childID = try c.decodeIfPresent(Int.self, forKey: .child)
    }
}

private struct Other: Codable, Equatable { var id: Int; var name: String; var tags: [String] }

final class CodableKeptDecoderTests: XCTestCase {
    /// Strings with escapes (copied into the tape's arena) and without (read from the input in place).
    private let items = #"[{"id":1,"name":"plain","tags":["a","b"]},{"id":2,"name":"esc\"aped\u00e9","tags":[],"child":7}]"#

    /// Decodes `json` from a `Data` that is freed when this returns.
    private func decode<T: Decodable>(_ type: T.Type, _ json: String, with decoder: ModelDecoder = ModelDecoder()) throws -> T {
        try decoder.decode(T.self, from: Data(json.utf8))
    }

    /// Another decoding on the same thread, of other bytes and the same key type: it would reuse the
    /// thread's state and tokenizer under a kept handle.
    private func decodeSomethingElse() throws {
        let json = #"[{"id":99,"name":"other","tags":["x","y","z"]},{"id":98,"name":"more","tags":[]}]"#
        XCTAssertEqual(try decode([Other].self, json), try JSONDecoder().decode([Other].self, from: Data(json.utf8)))
        _ = try decode([KeptKeyed].self, json).map { try Item($0.container) }
    }

    func testKeptUnkeyedContainerReadAfterItsDecoding() throws {
        let json = #"["one","tw\no","three"]"#
        var ours = try decode(LazyList.self, json)
        var theirs = try JSONDecoder().decode(LazyList.self, from: Data(json.utf8))
        try decodeSomethingElse()
        XCTAssertEqual(try ours.read(), try theirs.read())
        XCTAssertEqual(try ours.read(), [])
    }

    func testKeptDecoderReadAfterAnotherDecodingOnTheThread() throws {
        let json = #"{"id":2,"name":"esc\"aped\u00e9","tags":["p\/q"],"child":7}"#
        let ours = try decode(KeptDecoder.self, json)
        let theirs = try JSONDecoder().decode(KeptDecoder.self, from: Data(json.utf8))
        try decodeSomethingElse()
        let read = { (kept: KeptDecoder) throws -> Item in try Item(kept.decoder.container(keyedBy: ItemKeys.self)) }
        XCTAssertEqual(try read(ours), try read(theirs))
        XCTAssertEqual(try read(ours).name, "esc\"aped\u{e9}")
        // Read twice: a kept decoder hands out fresh containers each time.
        XCTAssertEqual(try read(ours), try read(theirs))
    }

    /// Kept decoders of array elements each read their own element. (JSONDecoder's decoder for an element
    /// is its one decoder, which reads the document's root once the element's `init(from:)` returned: not
    /// something to compare with; the elements are compared with JSONDecoder's reading of them instead.)
    func testKeptElementDecodersReadTheirOwnElements() throws {
        struct Read: Decodable, Equatable {
            let item: Item
            init(from decoder: any Decoder) throws { item = try Item(decoder.container(keyedBy: ItemKeys.self)) }
        }
        let ours = try decode([KeptDecoder].self, items)
        try decodeSomethingElse()
        XCTAssertEqual(try ours.map { try Item($0.decoder.container(keyedBy: ItemKeys.self)) },
                       try JSONDecoder().decode([Read].self, from: Data(items.utf8)).map(\.item))
    }

    func testKeptKeyedContainerReadAfterAnotherDecodingOnTheThread() throws {
        let ours = try decode([KeptKeyed].self, items)
        let theirs = try JSONDecoder().decode([KeptKeyed].self, from: Data(items.utf8))
        try decodeSomethingElse()
        XCTAssertEqual(try ours.map { try Item($0.container) }, try theirs.map { try Item($0.container) })
        // allKeys: JSONDecoder's order is its dictionary's.
        XCTAssertEqual(ours.map { $0.container.allKeys.map(\.stringValue).sorted() },
                       theirs.map { $0.container.allKeys.map(\.stringValue).sorted() })
        XCTAssertEqual(ours.map { $0.container.contains(.child) }, [false, true])
    }

    /// Errors from a kept container are JSONDecoder's cases.
    func testKeptContainerThrowsTheSameErrors() throws {
        let ours = try decode([KeptKeyed].self, items)
        let theirs = try JSONDecoder().decode([KeptKeyed].self, from: Data(items.utf8))
        try decodeSomethingElse()
        func outcome(_ body: () throws -> Any) -> String {
            do { return "\(try body())" } catch let error as DecodingError {
                switch error {
                case .keyNotFound(let key, _): return "keyNotFound \(key.stringValue)"
                case .typeMismatch(let type, _): return "typeMismatch \(type)"
                default: return "\(error)"
                }
            } catch { return "\(error)" }
        }
        XCTAssertEqual(outcome { try ours[0].container.decode(Int.self, forKey: .child) },
                       outcome { try theirs[0].container.decode(Int.self, forKey: .child) })
        XCTAssertEqual(outcome { try ours[0].container.decode(Int.self, forKey: .name) },
                       outcome { try theirs[0].container.decode(Int.self, forKey: .name) })
    }

    /// A kept container under a key strategy (the converted keys are the container's).
    func testKeptContainerWithKeyStrategy() throws {
        var ours = ModelDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        let theirs = JSONDecoder()
        theirs.keyDecodingStrategy = .convertFromSnakeCase
        let a = try decode(KeptKeyed.self, #"{"id":3,"name":"n","tags":["t"],"note_text":"hello"}"#, with: ours)
        let b = try theirs.decode(KeptKeyed.self, from: Data(#"{"id":3,"name":"n","tags":["t"],"note_text":"hello"}"#.utf8))
        try decodeSomethingElse()
        XCTAssertEqual(try Item(a.container), try Item(b.container))
        XCTAssertEqual(try a.container.decode(String.self, forKey: .noteText), try b.container.decode(String.self, forKey: .noteText))
    }

    /// What a kept handle keeps alive goes once the handle goes (the setting's userInfo is held by the
    /// detached state): the thread's next decoding sweeps the states whose kept containers were let go.
    func testStateOfAKeptContainerIsFreedOnceTheContainerGoes() throws {
        final class Marker: Sendable {}
        weak var weakToken: Marker?
        var kept: [KeptKeyed]? = try {
            let token = Marker()
            weakToken = token
            var decoder = ModelDecoder()
            decoder.userInfo = [CodingUserInfoKey(rawValue: "token")!: token]
            return try decode([KeptKeyed].self, items, with: decoder)
        }()
        try decodeSomethingElse()
        XCTAssertNotNil(weakToken, "the state of a kept container was freed under it")
        XCTAssertEqual(try kept?.map { try Item($0.container).id }, [1, 2])
        kept = nil
        try decodeSomethingElse()
        XCTAssertNil(weakToken, "the state of a kept container outlived the container")
    }

    /// The same for a kept decoder (it holds its state itself).
    func testStateOfAKeptDecoderIsFreedWithTheDecoder() throws {
        final class Marker: Sendable {}
        weak var weakToken: Marker?
        var kept: KeptDecoder? = try {
            let token = Marker()
            weakToken = token
            var decoder = ModelDecoder()
            decoder.userInfo = [CodingUserInfoKey(rawValue: "token")!: token]
            return try decode(KeptDecoder.self, #"{"id":5,"name":"x","tags":[]}"#, with: decoder)
        }()
        try decodeSomethingElse()
        XCTAssertEqual(try kept.map { try Item($0.decoder.container(keyedBy: ItemKeys.self)).id }, 5)
        XCTAssertNotNil(weakToken)
        kept = nil
        XCTAssertNil(weakToken, "the state of a kept decoder outlived the decoder")
    }

    /// A `Decodable` field of a mapped model (the mapping mode's decoding) that keeps its decoder.
    func testKeptDecoderInsideAMappedModel() throws {
        struct Holder: JSONMappable {
            var kept: KeptDecoder?
            init() {}
        }
        let holder = try Holder(json: Data(#"{"kept":{"id":8,"name":"inner","tags":["q"]}}"#.utf8))
        try decodeSomethingElse()
        let expected = try JSONDecoder().decode(KeptDecoder.self, from: Data(#"{"id":8,"name":"inner","tags":["q"]}"#.utf8))
        XCTAssertEqual(try holder.kept.map { try Item($0.decoder.container(keyedBy: ItemKeys.self)) },
                       try Item(expected.decoder.container(keyedBy: ItemKeys.self)))
    }
}
