import Foundation
import XCTest
import ModelMapper

// Property-wrapper-backed properties map to their own name, through the wrapper; a plain property named
// with an underscore keeps its key (issue 27, point 1). A wrapper with its own Codable conformance is
// tested with the article's `Trimmed` (DocSnippetTests/MigratingFromHandyJSON.swift), through the same
// paths; these tests cover wrappers without one.

/// A wrapper without a Codable conformance: its stored `wrappedValue` is read and written.
@propertyWrapper
private struct Clamped<Value> {
    var wrappedValue: Value
}

/// A class wrapper without a conformance: its value lies in its own instance, so it cannot be mapped.
@propertyWrapper
private final class Boxed<Value> {
    var wrappedValue: Value
    init(wrappedValue: Value) { self.wrappedValue = wrappedValue }
}

private struct PWUser: JSONMappable, Equatable {
    static func == (a: PWUser, b: PWUser) -> Bool { a.name == b.name && a.age == b.age }
    var name = ""
    @Clamped var age = 0
}

private struct PWMapped: JSONMappable {
    @Clamped var age = 0
    static var mapping: ModelMapping { ModelMapping(keys: ["age": "user.age"]) }
}

/// MongoDB's shape: plain properties whose names start with an underscore, one of a Codable struct type.
private struct PWObjectID: Codable, Equatable {
    var raw = ""
    init(raw: String = "") { self.raw = raw }
    init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(String.self) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(raw)
    }
}

private struct PWDocument: JSONMappable {
    var _id = PWObjectID()
    var _rev = 0
    var name = ""
    /// `_id` of a Codable struct type could be a wrapper's storage (a computed `wrappedValue`): mapped
    /// explicitly (issue 36.8). `_rev`, an Int, is a plain property by its type.
    static let mapping = ModelMapping(keys: ["_id": "_id"])
}

private struct PWUnmappedDocument: JSONMappable {
    var _id = PWObjectID()
}

private struct PWBoxed: JSONMappable {
    @Boxed var count = 0
}

final class PropertyWrapperTests: XCTestCase {
    private let json = #"{"name":"Ann","age":41,"_age":7}"#

    private func check(_ user: PWUser, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(user.name, "Ann", file: file, line: line)
        XCTAssertEqual(user.age, 41, "read from \"age\", not the storage's \"_age\"", file: file, line: line)
    }

    func testWrappedPropertiesReadTheirOwnNameThroughTheWrapper() throws {
        check(try PWUser(json: json))
        // The plain value path keeps lenient conversions.
        XCTAssertEqual(try PWUser(json: #"{"age":"12"}"#).age, 12)
    }

    func testDictionaryInputAndJSONLinesRecord() throws {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        check(try PWUser(jsonObject: object))
        let lines = json + "\n" + #"{"name":"Ann","age":41}"# + "\n"
        let records = try JSONLines<PWUser>.decodeAll(Data(lines.utf8), workers: 1)
        XCTAssertEqual(records.count, 2)
        records.forEach { check($0) }
    }

    func testEncodingWritesThePropertyNames() throws {
        var user = PWUser()
        user.name = "Bo"
        user.age = 3
        let ours = try JSONSerialization.jsonObject(with: user.jsonData()) as? NSDictionary
        XCTAssertEqual(ours, ["name": "Bo", "age": 3] as NSDictionary)
        XCTAssertEqual(try PWUser(json: user.jsonData()), user)
    }

    func testMappingNamesTheWrappedProperty() throws {
        XCTAssertEqual(try PWMapped(json: #"{"user":{"age":5},"age":9}"#).age, 5)
    }

    func testAnUnderscoredNonScalarWithoutMappingIsRefused() {
        let error = mappingError { try PWUnmappedDocument(json: #"{"_id":"65f0c1"}"#) }
        XCTAssertEqual(error?.kind, .unsupportedType)
        XCTAssertEqual(error?.message.contains(#"keys ["_id": "id"] or ["_id": "_id"]"#), true, error?.message ?? "")
    }

    func testPlainUnderscorePropertiesKeepTheirKeys() throws {
        let json = #"{"_id":"65f0c1","_rev":3,"id":"wrong","rev":9,"name":"n"}"#
        let document = try PWDocument(json: json)
        XCTAssertEqual(document._id, PWObjectID(raw: "65f0c1"))
        XCTAssertEqual(document._rev, 3)
        let fromObject = try PWDocument(jsonObject: try JSONSerialization.jsonObject(with: Data(json.utf8)))
        XCTAssertEqual(fromObject._id.raw, "65f0c1")
        let record = try JSONLines<PWDocument>.decodeAll(Data((json + "\n").utf8), workers: 1)
        XCTAssertEqual(record.first?._rev, 3)
        let written = try JSONSerialization.jsonObject(with: document.jsonData()) as? [String: Any]
        XCTAssertEqual(Set(written?.keys.map { $0 } ?? []), ["_id", "_rev", "name"])
    }

    func testAWrapperThatCannotBeReadIsAnErrorNamingTheProperty() {
        let error = mappingError { try PWBoxed(json: #"{"count":1}"#) }
        XCTAssertEqual(error?.kind, .unsupportedType)
        XCTAssertTrue(error?.message.contains("property count of") ?? false, error?.message ?? "")
        XCTAssertTrue(error?.message.contains("Boxed") ?? false, error?.message ?? "")
        let fromObject = mappingError { try PWBoxed(jsonObject: ["count": 1]) }
        XCTAssertEqual(fromObject?.kind, .unsupportedType)
    }
}
