import Foundation
import XCTest
@_spi(Benchmarks) @testable import ModelMapper

// Issue 26, point 1: where JSONDecoder/JSONEncoder keep data, so do we; where JSONEncoder refuses a call
// sequence (it stops on a precondition, which a test cannot run), ModelEncoder throws an EncodingError
// rather than write only the last value.

class StaffPerson: Codable {
    var name: String
    init(name: String) { self.name = name }
}

final class StaffEmployee: StaffPerson {
    var company: String
    private enum CodingKeys: String, CodingKey { case company }
    init(name: String, company: String) {
        self.company = company
        super.init(name: name)
    }
    required init(from decoder: any Decoder) throws {
        company = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .company)
        try super.init(from: decoder)
    }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(company, forKey: .company)
        try super.encode(to: encoder)
    }
}

/// Decodes its `member` as the type named by `kind` (a metatype value, as polymorphic code does).
private struct Staff: Decodable {
    let member: StaffPerson
    private enum CodingKeys: String, CodingKey { case kind, member }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind: StaffPerson.Type = try c.decode(String.self, forKey: .kind) == "employee" ? StaffEmployee.self : StaffPerson.self
        member = try c.decode(kind, forKey: .member)
    }
}

/// `Staff` from an array: `["employee", {...}]` (an unkeyed container is called directly, not through a box).
private struct StaffInArray: Decodable {
    let member: StaffPerson
    init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        let kind: StaffPerson.Type = try c.decode(String.self) == "employee" ? StaffEmployee.self : StaffPerson.self
        member = try c.decode(kind)
    }
}

private enum Keys: String, CodingKey { case top, first, second, box, foo, x, list, value }

private struct Foo: Encodable { var foo = "Test" }

/// `encode(to:)` bodies from the call sequences of issue 26, as values.
private struct Calls: Encodable {
    let body: (any Encoder) throws -> Void
    func encode(to encoder: any Encoder) throws { try body(encoder) }
}

final class CodableNoSilentLossTests: XCTestCase {
    private let employee = Data(#"{"name":"Ada","company":"ACME"}"#.utf8)

    func testClassMetatypeOfASubclassDecodesTheSubclass() throws {
        let type: StaffPerson.Type = StaffEmployee.self
        let ours = try ModelDecoder().decode(type, from: employee)
        let theirs = try JSONDecoder().decode(type, from: employee)
        XCTAssertTrue(Swift.type(of: ours) == Swift.type(of: theirs))
        XCTAssertEqual((ours as? StaffEmployee)?.company, (theirs as? StaffEmployee)?.company)
        XCTAssertEqual((ours as? StaffEmployee)?.company, "ACME")
        XCTAssertEqual(ours.name, theirs.name)
        // The Codable-only entry point too.
        XCTAssertEqual((try ModelDecoder().decodeUsingCodable(type, from: employee) as? StaffEmployee)?.company, "ACME")
    }

    func testNestedClassMetatypeOfASubclassDecodesTheSubclass() throws {
        let json = Data(#"[{"kind":"employee","member":{"name":"Ada","company":"ACME"}},{"kind":"person","member":{"name":"Bo"}}]"#.utf8)
        let ours = try ModelDecoder().decode([Staff].self, from: json)
        let theirs = try JSONDecoder().decode([Staff].self, from: json)
        XCTAssertEqual(ours.map { "\(Swift.type(of: $0.member))" }, theirs.map { "\(Swift.type(of: $0.member))" })
        XCTAssertEqual(ours.map { ($0.member as? StaffEmployee)?.company }, theirs.map { ($0.member as? StaffEmployee)?.company })
        // The standard library's `KeyedDecodingContainer` passes the static type on (`T.self`): both give
        // the declared class there.
        let unkeyed = Data(#"[["employee",{"name":"Ada","company":"ACME"}],["person",{"name":"Bo"}]]"#.utf8)
        let ours2 = try ModelDecoder().decode([StaffInArray].self, from: unkeyed)
        let theirs2 = try JSONDecoder().decode([StaffInArray].self, from: unkeyed)
        XCTAssertEqual(ours2.map { "\(Swift.type(of: $0.member))" }, theirs2.map { "\(Swift.type(of: $0.member))" })
        XCTAssertEqual(ours2.map { ($0.member as? StaffEmployee)?.company }, theirs2.map { ($0.member as? StaffEmployee)?.company })
    }

    // MARK: Encoder: a second container for a key adds to the first

    /// Both coders' output, with and without sorted keys (our stream and our tree), as objects.
    private func assertSameAsJSONEncoder(_ body: @escaping (any Encoder) throws -> Void, expected: String,
                                         file: StaticString = #filePath, line: UInt = #line) throws {
        for formatting in [[], [.sortedKeys]] as [JSONEncoder.OutputFormatting] {
            var ours = ModelEncoder()
            ours.outputFormatting = formatting
            let theirs = JSONEncoder()
            theirs.outputFormatting = formatting
            let a = try ours.encode(Calls(body: body))
            let b = try theirs.encode(Calls(body: body))
            let objectA = try JSONSerialization.jsonObject(with: a) as? NSDictionary
            let objectB = try JSONSerialization.jsonObject(with: b) as? NSDictionary
            XCTAssertEqual(objectA, objectB, "\(formatting): \(String(decoding: a, as: UTF8.self))", file: file, line: line)
            XCTAssertEqual(objectA, try JSONSerialization.jsonObject(with: Data(expected.utf8)) as? NSDictionary, file: file, line: line)
            if formatting.contains(.sortedKeys) { XCTAssertEqual(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self), file: file, line: line) }
        }
    }

    func testSecondNestedKeyedContainerForAKeyAddsToTheFirst() throws {
        try assertSameAsJSONEncoder({ encoder in
            var c = encoder.container(keyedBy: Keys.self)
            var first = c.nestedContainer(keyedBy: Keys.self, forKey: .top)
            try first.encode("A", forKey: .first)
            var second = c.nestedContainer(keyedBy: Keys.self, forKey: .top)
            try second.encode("B", forKey: .second)
        }, expected: #"{"top":{"first":"A","second":"B"}}"#)
    }

    func testNestedContainerAfterAnEncodedObjectAddsToIt() throws {
        try assertSameAsJSONEncoder({ encoder in
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(Foo(), forKey: .box)
            var nested = c.nestedContainer(keyedBy: Keys.self, forKey: .box)
            try nested.encode("more", forKey: .x)
        }, expected: #"{"box":{"foo":"Test","x":"more"}}"#)
    }

    func testSecondNestedUnkeyedContainerForAKeyAddsToTheFirst() throws {
        try assertSameAsJSONEncoder({ encoder in
            var c = encoder.container(keyedBy: Keys.self)
            var first = c.nestedUnkeyedContainer(forKey: .list)
            try first.encode(1)
            var second = c.nestedUnkeyedContainer(forKey: .list)
            try second.encode(2)
        }, expected: #"{"list":[1,2]}"#)
    }

    func testNestedUnkeyedContainerAfterAnEncodedArrayAddsToIt() throws {
        try assertSameAsJSONEncoder({ encoder in
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode([1], forKey: .list)
            var nested = c.nestedUnkeyedContainer(forKey: .list)
            try nested.encode(2)
        }, expected: #"{"list":[1,2]}"#)
    }

    // MARK: Encoder: what JSONEncoder refuses (its precondition) is an EncodingError

    /// `existing`: the value already encoded where the refused container was asked for, as the error shows
    /// it (a Foundation value, never an internal type of ours).
    private func assertRefused(existing: String, _ body: @escaping (any Encoder) throws -> Void,
                               file: StaticString = #filePath, line: UInt = #line) {
        for formatting in [[], [.sortedKeys]] as [JSONEncoder.OutputFormatting] {
            var ours = ModelEncoder()
            ours.outputFormatting = formatting
            do {
                let data = try ours.encode(Calls(body: body))
                XCTFail("\(formatting): encoded \(String(decoding: data, as: UTF8.self))", file: file, line: line)
            } catch let error as EncodingError {
                guard case .invalidValue(let value, _) = error else { return XCTFail("\(error)", file: file, line: line) }
                XCTAssertEqual(String(describing: value), existing, "\(formatting)", file: file, line: line)
                XCTAssertFalse(String(reflecting: type(of: value)).contains("ModelMapper."),
                               "the error shows an internal type: \(type(of: value))", file: file, line: line)
            } catch {
                XCTFail("not an EncodingError: \(error)", file: file, line: line)
            }
        }
    }

    func testKeyedContainerForAKeyHoldingAScalarIsRefused() {
        assertRefused(existing: "scalar") { encoder in
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode("scalar", forKey: .top)
            var nested = c.nestedContainer(keyedBy: Keys.self, forKey: .top)
            try nested.encode("lost", forKey: .first)
        }
    }

    func testKeyedContainerForAKeyHoldingAnArrayIsRefused() {
        assertRefused(existing: "[1]") { encoder in
            var c = encoder.container(keyedBy: Keys.self)
            var list = c.nestedUnkeyedContainer(forKey: .top)
            try list.encode(1)
            var nested = c.nestedContainer(keyedBy: Keys.self, forKey: .top)
            try nested.encode("lost", forKey: .first)
        }
    }

    func testUnkeyedContainerForAKeyHoldingAnObjectIsRefused() {
        assertRefused(existing: #"["first": "kept"]"#) { encoder in
            var c = encoder.container(keyedBy: Keys.self)
            var nested = c.nestedContainer(keyedBy: Keys.self, forKey: .top)
            try nested.encode("kept", forKey: .first)
            var list = c.nestedUnkeyedContainer(forKey: .top)
            try list.encode(1)
        }
    }

    func testUnkeyedContainerAfterAKeyedOneOnTheSameEncoderIsRefused() {
        assertRefused(existing: #"["value": 1]"#) { encoder in
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(1, forKey: .value)
            var list = encoder.unkeyedContainer()
            try list.encode(2)
        }
    }

    func testSecondSingleValueIsRefused() {
        assertRefused(existing: "1") { encoder in
            var c = encoder.singleValueContainer()
            try c.encode(1)
            try c.encode(2)
        }
    }

    /// The benchmark route (`decodeUsingCodable`, SPI) falls back to a `JSONUnknownCaseRepresentable`
    /// enum's unknown case too: the fallback belongs to the enum, not to a mapping (was in the Codable
    /// article while the method was public).
    func testDecodeUsingCodableFallsBackToTheUnknownCase() throws {
        enum Status: String, Codable, JSONUnknownCaseRepresentable {
            case active, unknown
            static var unknownCase: Status { .unknown }
        }
        struct Order: Codable { var status: Status; var history: [Status] }
        let order = try ModelDecoder().decodeUsingCodable(Order.self, from: #"{"status": "archived", "history": ["active", "merged"]}"#)
        XCTAssertEqual(order.status, .unknown)
        XCTAssertEqual(order.history, [.active, .unknown])
    }
}
