import Foundation
@testable import ModelMapper
import XCTest

// Issue 29.7: one result whatever the call site. The same bytes decoded through ModelDecoder give the same
// value or the same error whether the call names the type, sees it only as `Decodable`, or only as
// `JSONMappable`; and every DecodingError carries a positioned MappingError as its underlying error.

private struct CallSiteUser: JSONCodable, Equatable {
    var id = 0
    var name = ""
    var tags: [String] = []
    static let mapping = ModelMapping(keys: ["name": "full_name"])
}

private struct CallSitePlain: Codable {
    var id: Int
    var name: String
}

private struct MappableOnly: JSONMappable { var id = 0 }

private func viaDecodable<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try ModelDecoder().decode(type, from: json)
}

private func viaMappable<T: JSONMappable>(_ type: T.Type, _ json: String) throws -> T {
    try ModelDecoder().decode(type, from: json)
}

private func viaMappableArray<T: JSONMappable>(_ type: T.Type, _ json: String) throws -> [T] {
    try ModelDecoder().decode([T].self, from: json)
}

private func viaDecodable<T: Decodable>(_ type: T.Type, _ json: String, at path: MappingKey) throws -> T {
    try ModelDecoder().decode(type, from: json, at: path)
}

/// What is compared between two routes: the error's case, coding path, description and underlying error.
private struct Outcome: Equatable {
    var kind: String
    var codingPath: [String]
    var description: String
    var underlying: MappingError?

    init(_ error: any Error, file: StaticString = #filePath, line: UInt = #line) {
        guard let decoding = error as? DecodingError else {
            XCTFail("not a DecodingError: \(type(of: error)) \(error)", file: file, line: line)
            self.init(kind: "\(type(of: error))", codingPath: [], description: "\(error)", underlying: nil)
            return
        }
        let kind: String
        let context: DecodingError.Context
        switch decoding {
        case .typeMismatch(_, let c): kind = "typeMismatch"; context = c
        case .valueNotFound(_, let c): kind = "valueNotFound"; context = c
        case .keyNotFound(let key, let c): kind = "keyNotFound(\(key.stringValue))"; context = c
        case .dataCorrupted(let c): kind = "dataCorrupted"; context = c
        @unknown default: XCTFail("unknown case"); kind = ""; context = .init(codingPath: [], debugDescription: "")
        }
        self.init(kind: kind, codingPath: context.codingPath.map(\.stringValue), description: context.debugDescription,
                  underlying: context.underlyingError as? MappingError)
    }

    private init(kind: String, codingPath: [String], description: String, underlying: MappingError?) {
        self.kind = kind
        self.codingPath = codingPath
        self.description = description
        self.underlying = underlying
    }
}

private func outcome(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) -> Outcome? {
    do {
        _ = try body()
        XCTFail("no error", file: file, line: line)
        return nil
    } catch {
        return Outcome(error, file: file, line: line)
    }
}

final class CallSiteErrorTests: XCTestCase {
    private let badModel = "{\"id\": 1,\n \"full_name\": \"Ada\", \"tags\": [\"a\", {}]}"

    func testNamedAndGenericCallsThrowTheSameDecodingError() throws {
        let named = outcome { try ModelDecoder().decode(CallSiteUser.self, from: self.badModel) }
        let generic = outcome { try viaDecodable(CallSiteUser.self, self.badModel) }
        let mappable = outcome { try viaMappable(CallSiteUser.self, self.badModel) }
        XCTAssertNotNil(named)
        XCTAssertEqual(named, generic)
        XCTAssertEqual(named, mappable)
        XCTAssertEqual(named?.codingPath, ["tags", "Index 1"])
        XCTAssertEqual(named?.underlying?.path, "tags[1]")
        XCTAssertEqual(named?.underlying?.line, 2)
        XCTAssertEqual(named?.underlying?.column, 36)
    }

    func testArraysAndNestedArraysThrowTheSameErrorOnEveryRoute() throws {
        let array = #"[{"id": 1}, {"id": 2, "tags": [3, null]}]"#
        let named = outcome { try ModelDecoder().decode([CallSiteUser].self, from: array) }
        let generic = outcome { try viaDecodable([CallSiteUser].self, array) }
        let mappable = outcome { try viaMappableArray(CallSiteUser.self, array) }
        XCTAssertNotNil(named)
        XCTAssertEqual(named, generic)
        XCTAssertEqual(named, mappable)
        XCTAssertEqual(named?.underlying?.path, "[1].tags[1]")

        let nested = "[[], [{\"id\": 1}, {\"id\": \"x\"}]]"
        let nestedNamed = outcome { try ModelDecoder().decode([[CallSiteUser]].self, from: nested) }
        let nestedGeneric = outcome { try viaDecodable([[CallSiteUser]].self, nested) }
        XCTAssertEqual(nestedNamed, nestedGeneric)
        XCTAssertEqual(nestedNamed?.codingPath, ["Index 1", "Index 1", "id"])
        XCTAssertEqual(nestedNamed?.underlying?.path, "[1][1].id")
        XCTAssertEqual(nestedNamed?.underlying?.offset, nested.utf8.count - 6)  // the `"x"`

        // `[U]` (an overload of its own) and `[[U]]` (the Decodable route) agree on the element's error.
        let single = "[{\"id\": 1}, {\"id\": \"x\"}]"
        let flat = outcome { try ModelDecoder().decode([CallSiteUser].self, from: single) }
        XCTAssertEqual(flat?.kind, nestedNamed?.kind)
        XCTAssertEqual(flat?.description.prefix(while: { $0 != "(" }), nestedNamed?.description.prefix(while: { $0 != "(" }))
        XCTAssertEqual(flat?.underlying?.kind, nestedNamed?.underlying?.kind)
    }

    func testDictionariesAndRootPathsThrowTheSameErrorOnEveryRoute() throws {
        let byID = #"{"a": {"id": 1}, "b": {"id": [1]}}"#
        XCTAssertEqual(outcome { try ModelDecoder().decode([String: CallSiteUser].self, from: byID) },
                       outcome { try viaDecodable([String: CallSiteUser].self, byID) })
        let wrapped = #"{"data": {"user": {"id": "x"}}}"#
        let named = outcome { try ModelDecoder().decode(CallSiteUser.self, from: wrapped, at: "data.user") }
        XCTAssertEqual(named, outcome { try viaDecodable(CallSiteUser.self, wrapped, at: "data.user") })
        XCTAssertEqual(named?.underlying?.path, "data.user.id")
        let missing = outcome { try ModelDecoder().decode(CallSiteUser.self, from: wrapped, at: "data.member") }
        XCTAssertEqual(missing, outcome { try viaDecodable(CallSiteUser.self, wrapped, at: "data.member") })
        XCTAssertEqual(missing?.kind, "keyNotFound(member)")
    }

    func testNamedAndGenericCallsDecodeTheSameValue() throws {
        // Lenient conversions of the model's mapping apply on every route.
        let json = #"[{"id": "12", "full_name": 7, "tags": ["a"]}]"#
        let named = try ModelDecoder().decode([CallSiteUser].self, from: json)
        XCTAssertEqual(named, try viaDecodable([CallSiteUser].self, json))
        XCTAssertEqual(named, try viaMappableArray(CallSiteUser.self, json))
        XCTAssertEqual(named.first?.id, 12)
    }

    func testTheUnderlyingErrorIsWhatTheMapperReports() throws {
        // `init(json:)` (MappingError) and ModelDecoder (DecodingError) on the same bytes: the same kind,
        // path and position.
        let mapped: MappingError
        do {
            _ = try CallSiteUser(json: badModel)
            return XCTFail("no error")
        } catch let error as MappingError {
            mapped = error
        }
        let decoded = try XCTUnwrap(outcome { try ModelDecoder().decode(CallSiteUser.self, from: self.badModel) })
        XCTAssertEqual(decoded.underlying?.kind, mapped.kind)
        XCTAssertEqual(decoded.underlying?.path, mapped.path)
        XCTAssertEqual(decoded.underlying?.line, mapped.line)
        XCTAssertEqual(decoded.underlying?.column, mapped.column)
        XCTAssertEqual(decoded.underlying?.offset, mapped.offset)
    }

    func testMappableOnlyTypesAndTheInitializersStillThrowMappingError() {
        XCTAssertThrowsError(try ModelDecoder().decode(MappableOnly.self, from: #"{"id": []}"#)) { error in
            XCTAssertTrue(error is MappingError, "\(error)")
        }
        XCTAssertThrowsError(try viaMappable(MappableOnly.self, #"{"id": []}"#)) { error in
            XCTAssertTrue(error is MappingError, "\(error)")
        }
        XCTAssertThrowsError(try CallSiteUser(json: badModel)) { error in
            XCTAssertTrue(error is MappingError, "\(error)")
        }
        XCTAssertThrowsError(try [CallSiteUser](json: "[1]")) { error in
            XCTAssertTrue(error is MappingError, "\(error)")
        }
    }

    /// A skipping handler in the options: neither route skips (both throw the same error, as JSONDecoder
    /// would); `init(json:)` skips and reports.
    func testASkippingHandlerActsTheSameOnBothRoutes() throws {
        let json = #"{"id": "x", "full_name": "Ada"}"#
        let collector = ReportCollector()
        let decoder = ModelDecoder(options: collector.options())
        func generic<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type, from: json) }
        let named = outcome { try decoder.decode(CallSiteUser.self, from: json) }
        XCTAssertEqual(named, outcome { try generic(CallSiteUser.self) })
        XCTAssertEqual(named?.underlying?.path, "id")
        XCTAssertEqual(collector.errors.count, 0)
        let skipped = try CallSiteUser(json: json, options: collector.options())
        XCTAssertEqual(skipped.name, "Ada")
        XCTAssertEqual(collector.summary, ["id invalidValue 1:8"])
    }

    // MARK: Positions

    /// The underlying MappingError of a Codable type's errors: the failing value's line, column and byte
    /// offset.
    func testDecodingErrorsCarryAStructuredPosition() throws {
        let json = "{\"id\": 1,\n  \"name\": false}"
        let mismatch = try XCTUnwrap(outcome { try ModelDecoder().decode(CallSitePlain.self, from: json) })
        XCTAssertEqual(mismatch.kind, "typeMismatch")
        let position = try XCTUnwrap(mismatch.underlying)
        XCTAssertEqual(position.kind, .typeMismatch)
        XCTAssertEqual(position.path, "name")
        XCTAssertEqual(position.line, 2)
        XCTAssertEqual(position.column, 11)
        XCTAssertEqual(position.offset, Array(json.utf8).firstIndex(of: UInt8(ascii: "f")))

        let missing = try XCTUnwrap(outcome { try ModelDecoder().decode(CallSitePlain.self, from: #"{"id": 1}"#) })
        XCTAssertEqual(missing.kind, "keyNotFound(name)")
        XCTAssertEqual(missing.underlying?.kind, .missingKey)
        XCTAssertEqual(missing.underlying?.path, "name")
        XCTAssertEqual(missing.underlying?.offset, 0)

        let null = try XCTUnwrap(outcome { try ModelDecoder().decode([Int].self, from: "[1,\n null]") })
        XCTAssertEqual(null.kind, "valueNotFound")
        XCTAssertEqual(null.underlying?.path, "[1]")
        XCTAssertEqual(null.underlying?.line, 2)
        XCTAssertEqual(null.underlying?.column, 2)
        XCTAssertEqual(null.underlying?.offset, 5)

        let overflow = try XCTUnwrap(outcome { try ModelDecoder().decode([UInt8].self, from: "[1, 300]") })
        XCTAssertEqual(overflow.kind, "dataCorrupted")
        XCTAssertEqual(overflow.underlying?.offset, 4)

        let syntax = try XCTUnwrap(outcome { try ModelDecoder().decode([Int].self, from: "[1,\n 2,]x") })
        XCTAssertEqual(syntax.kind, "dataCorrupted")
        XCTAssertEqual(syntax.underlying?.kind, .syntax)
        XCTAssertEqual(syntax.underlying?.line, 2)
        XCTAssertNotNil(syntax.underlying?.offset)
    }

    /// A DecodingError that a user's `init(from:)` throws with no underlying error gets the position too;
    /// one with an underlying error of its own keeps it.
    func testUserErrorsGetAPositionUnlessTheyCarryTheirOwn() throws {
        struct Checked: Decodable {
            init(from decoder: any Decoder) throws {
                let c = try decoder.singleValueContainer()
                let text = try c.decode(String.self)
                if text == "own" {
                    throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "own",
                                                            underlyingError: CocoaError(.fileNoSuchFile)))
                }
                throw DecodingError.dataCorruptedError(in: c, debugDescription: "rejected")
            }
        }
        let json = #"{"a": "x", "b": "own"}"#
        let rejected = try XCTUnwrap(outcome { try ModelDecoder().decode([String: Checked].self, from: json) })
        XCTAssertEqual(rejected.underlying?.kind, .invalidValue)
        XCTAssertEqual(rejected.underlying?.path, "a")
        XCTAssertEqual(rejected.underlying?.offset, 6)
        do {
            _ = try ModelDecoder().decode([String: Checked].self, from: #"{"b": "own"}"#)
            XCTFail("no error")
        } catch DecodingError.dataCorrupted(let context) {
            XCTAssertTrue(context.underlyingError is CocoaError, "\(String(describing: context.underlyingError))")
        }
    }
}
