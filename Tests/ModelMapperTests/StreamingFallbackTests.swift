import Foundation
import ModelMapper
import XCTest

// Issue 29.9: when the streaming Codable encoder gives up on a value, the value is encoded again by the
// tree encoder, so its `encode(to:)` runs twice. Listed in the Codable differences table (CodableSupport.md);
// these tests pin exactly what the table says, against JSONEncoder on the same value.

private final class EncodeCounter: @unchecked Sendable {
    var calls = 0
}

/// Writes key "a" twice, which the stream cannot express (JSONEncoder keeps the second value).
private struct KeyTwice: Encodable {
    let counter: EncodeCounter
    enum CodingKeys: String, CodingKey { case a }
    func encode(to encoder: any Encoder) throws {
        counter.calls += 1
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(1, forKey: .a)
        try c.encode(2, forKey: .a)
    }
}

/// Writes in order: the stream follows it.
private struct InOrder: Encodable {
    let counter: EncodeCounter
    enum CodingKeys: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
        counter.calls += 1
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(1, forKey: .a)
        try c.encode(2, forKey: .b)
    }
}

private struct Parent<Child: Encodable>: Encodable {
    let counter: EncodeCounter
    let child: Child
    enum CodingKeys: String, CodingKey { case child }
    func encode(to encoder: any Encoder) throws {
        counter.calls += 1
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(child, forKey: .child)
    }
}

final class StreamingFallbackTests: XCTestCase {
    func testAValueTheStreamFollowsIsEncodedOnce() throws {
        let counter = EncodeCounter()
        let data = try ModelEncoder().encode(InOrder(counter: counter))
        XCTAssertEqual(counter.calls, 1)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"a":1,"b":2}"#)
        // JSONEncoder's member order is not fixed without `.sortedKeys`: compare the values.
        let foundation = try JSONEncoder().encode(InOrder(counter: EncodeCounter()))
        XCTAssertEqual(try JSONDecoder().decode([String: Int].self, from: data),
                       try JSONDecoder().decode([String: Int].self, from: foundation))
    }

    func testAValueTheStreamGivesUpOnIsEncodedTwiceWithTheSameBytes() throws {
        let ours = EncodeCounter()
        let parentCalls = EncodeCounter()
        let data = try ModelEncoder().encode(Parent(counter: parentCalls, child: KeyTwice(counter: ours)))
        let theirs = EncodeCounter()
        let foundationParent = EncodeCounter()
        let expected = try JSONEncoder().encode(Parent(counter: foundationParent, child: KeyTwice(counter: theirs)))
        XCTAssertEqual(data, expected)
        XCTAssertEqual(theirs.calls, 1)
        XCTAssertEqual(foundationParent.calls, 1)
        // The documented difference: the whole value again, the enclosing value's encode(to:) included.
        XCTAssertEqual(ours.calls, 2)
        XCTAssertEqual(parentCalls.calls, 2)
    }

    func testSortedKeysEncodesOnce() throws {
        let counter = EncodeCounter()
        var encoder = ModelEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(KeyTwice(counter: counter))
        XCTAssertEqual(counter.calls, 1)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"a":2}"#)
    }
}
