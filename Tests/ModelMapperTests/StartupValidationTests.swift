import Foundation
import XCTest
import ModelMapper

// Issue 36, points 4 and 8: `ModelMapping.validate` reports at start-up what a first decode would, and a
// `_name` field that may be a property wrapper's storage with a computed `wrappedValue` is refused until
// it is mapped explicitly (it decoded nothing and encoded `_age`, silently).

private struct VBook: JSONMappable {
    var title = ""
    var author = VAuthor()
}

private struct VAuthor: JSONMappable {
    var name = ""
}

private struct VUnknownKey: JSONMappable {
    var name = ""
    static let mapping = ModelMapping(keys: ["nmae": "n"])
}

private struct VReachesUnknownRequired: JSONMappable {
    var inner = VUnknownRequired()
}

private struct VUnknownRequired: JSONMappable {
    var id = 0
    static let mapping = ModelMapping(required: ["ID"])
}

private final class VWeakHolder: JSONMappable {
    weak var delegate: VWeakHolder?
    required init() {}
}

private struct VUnsupported: JSONMappable {
    var callback: () -> Void = {}
}

/// A wrapper whose `wrappedValue` is computed from other storage (the issue's example), coded as its value.
@propertyWrapper
private struct ComputedClamped: Codable, Sendable {
    var value: Int
    var wrappedValue: Int {
        get { value }
        set { value = max(0, newValue) }
    }
    init(wrappedValue: Int) { value = max(0, wrappedValue) }
    init(from decoder: any Decoder) throws { value = max(0, try decoder.singleValueContainer().decode(Int.self)) }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

private struct VClampedUser: JSONMappable {
    var name = ""
    @ComputedClamped var age = 0
}

private struct VClampedMappedAsName: JSONMappable {
    var name = ""
    @ComputedClamped var age = 0
    static let mapping = ModelMapping(keys: ["_age": "age"])
}

private struct VClampedMappedAsStorage: JSONMappable {
    @ComputedClamped var age = 0
    static let mapping = ModelMapping(keys: ["_age": "_age"])
}

/// `_id` of a scalar type is a plain property (MongoDB's `_id`), not ambiguous.
private struct VMongoDocument: JSONMappable {
    var _id = ""
    var _rev = 0
    var _tags: [String] = []
}

final class StartupValidationTests: XCTestCase {
    func testValidateAcceptsGoodMappings() throws {
        try ModelMapping.validate(VBook.self, VAuthor.self, VMongoDocument.self, VClampedMappedAsName.self)
        try ModelMapping.validate([VBook.self], decoding: {
            var options = DecodingOptions.strict
            options.keyStrategy = .snakeCase
            options.requiresAllKeys = true
            return options
        }())
    }

    private func validationError(_ types: any JSONMappable.Type..., file: StaticString = #filePath,
                                 line: UInt = #line) -> MappingError? {
        do {
            try ModelMapping.validate(types, decoding: .lenient)
            XCTFail("validate accepted \(types)", file: file, line: line)
        } catch let error as MappingError {
            return error
        } catch {
            XCTFail("not a MappingError: \(error)", file: file, line: line)
        }
        return nil
    }

    func testValidateThrowsWhatAFirstDecodeWouldThrow() throws {
        let cases: [(any JSONMappable.Type, [String], () throws -> Void)] = [
            (VUnknownKey.self, ["VUnknownKey", "keys", "nmae"], { _ = try VUnknownKey(json: "{}") }),
            (VReachesUnknownRequired.self, ["VUnknownRequired", "required", "ID"], { _ = try VReachesUnknownRequired(json: "{}") }),
            (VWeakHolder.self, ["delegate", "weak"], { _ = try VWeakHolder(json: "{}") }),
            (VUnsupported.self, ["callback", "not supported"], { _ = try VUnsupported(json: "{}") }),
            (VClampedUser.self, ["_age", #"keys ["_age": "age"] or ["_age": "_age"]"#], { _ = try VClampedUser(json: #"{"age":42}"#) }),
        ]
        for (type, fragments, firstUse) in cases {
            guard let error = validationError(type) else { continue }
            XCTAssertEqual(error.kind, .unsupportedType, "\(type)")
            for fragment in fragments {
                XCTAssertTrue(error.message.contains(fragment), "\(type): \(error.message) lacks \(fragment)")
            }
            // The same error as at the first decode, which still throws it (nothing was published).
            XCTAssertEqual(mappingError(firstUse)?.message, error.message, "\(type)")
        }
        // The first error of the list is thrown; good types before it are built.
        XCTAssertEqual(validationError(VBook.self, VUnknownKey.self, VWeakHolder.self)?.message.contains("nmae"), true)
    }

    func testAComputedWrappedValueIsRefusedUntilMappedExplicitly() throws {
        XCTAssertEqual(mappingError { try VClampedUser().jsonString() }?.kind, .unsupportedType, "encoding is refused too")

        let byName = try VClampedMappedAsName(json: #"{"name":"Ann","age":42}"#)
        XCTAssertEqual(byName.age, 42, "read from \"age\" through the wrapper's Codable conformance")
        let negative = try VClampedMappedAsName(json: #"{"age":-5}"#)
        XCTAssertEqual(negative.age, 0, "the wrapper's own init(from:) ran")
        XCTAssertEqual(try byName.jsonString(options: .sortedKeys), #"{"age":42,"name":"Ann"}"#)

        let byStorage = try VClampedMappedAsStorage(json: #"{"_age":7}"#)
        XCTAssertEqual(byStorage.age, 7)
        XCTAssertEqual(try byStorage.jsonString(), #"{"_age":7}"#)
    }

    func testUnderscoredScalarsModelsAndCollectionsKeepTheirKeys() throws {
        let document = try VMongoDocument(json: #"{"_id":"a1","_rev":3,"_tags":["x"]}"#)
        XCTAssertEqual(document._id, "a1")
        XCTAssertEqual(document._rev, 3)
        XCTAssertEqual(document._tags, ["x"])
        XCTAssertEqual(try document.jsonString(options: .sortedKeys), #"{"_id":"a1","_rev":3,"_tags":["x"]}"#)
    }
}
