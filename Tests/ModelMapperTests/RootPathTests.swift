import Foundation
import XCTest
@testable import ModelMapper

// Root paths (issue #13 item 3): decoding a model, an array or a dictionary of models found at a key path,
// through the mapper (`init(json:at:)`, `ModelDecoder.decode(_:from:at:)`, MappingError) and through the
// Codable decoder (DecodingError with coding paths); what the parse records; bad input everywhere.

fileprivate struct RPUser: JSONMappable, Equatable {
    var id = 0
    var name = ""
    static let mapping = ModelMapping(required: ["id"])
}

fileprivate struct RPCodableUser: Codable, Equatable {
    var id: Int
    var name: String
}

fileprivate struct RPMappedCodable: JSONCodable, Equatable {
    var id = 0
    var name = ""
}

final class RootPathTests: XCTestCase {
    let envelope = """
    {"meta":{"count":2,"skip":[1,{"x":2}]},
     "data":{"user":{"id":1,"name":"Ann","extra":[1,2,3]},
             "items":[{"id":2,"name":"Bo"},{"id":3,"name":"Cy"}]},
     "result":{"a":{"id":4,"name":"Di"}},
     "list":[1,2]}
    """

    func testModelArrayAndDictionaryAtPaths() throws {
        XCTAssertEqual(try RPUser(json: envelope, at: "data.user"), RPUser(id: 1, name: "Ann"))
        XCTAssertEqual(try [RPUser](json: envelope, at: "data.items"), [RPUser(id: 2, name: "Bo"), RPUser(id: 3, name: "Cy")])
        XCTAssertEqual(try [String: RPUser](json: envelope, at: "result"), ["a": RPUser(id: 4, name: "Di")])
        XCTAssertEqual(try ModelDecoder(options: .strict).decode(RPUser.self, from: Data(envelope.utf8), at: "data.user").name, "Ann")
        // Alternatives: the first present wins; a literal key with a dot.
        XCTAssertEqual(try RPUser(json: envelope, at: ["data.person", "data.user"]).id, 1)
        XCTAssertEqual(try RPUser(json: #"{"a.b":{"id":9}}"#, at: .literal("a.b")).id, 9)
        // Duplicate keys on the way: the last one counts, as for key paths.
        XCTAssertEqual(try RPUser(json: #"{"d":{"id":1},"d":{"id":2}}"#, at: "d").id, 2)
    }

    func testMissingPathAndNonObjectOnTheWay() throws {
        let missing = mappingError({ try RPUser(json: envelope, at: "data.admin") })
        XCTAssertEqual(missing?.kind, .missingKey)
        XCTAssertEqual(missing?.path, "data.admin")
        XCTAssertEqual(missing?.line, 2)
        let throughArray = mappingError({ try RPUser(json: envelope, at: "list.first") })
        XCTAssertEqual(throughArray?.kind, .typeMismatch)
        XCTAssertEqual(throughArray?.path, "list")
        XCTAssertEqual(throughArray?.line, 5)
        XCTAssertEqual(throughArray?.column, 9)
        let throughNumber = mappingError({ try RPUser(json: envelope, at: "meta.count.value") })
        XCTAssertEqual(throughNumber?.kind, .typeMismatch)
        XCTAssertEqual(throughNumber?.path, "meta.count")
        let rootArray = mappingError({ try RPUser(json: "[1]", at: "data") })
        XCTAssertEqual(rootArray?.kind, .typeMismatch)
        XCTAssertEqual(rootArray?.path, "")
        XCTAssertEqual(mappingError({ try RPUser(json: "{}", at: .path(["a", ""])) })?.kind, .unsupportedType)
        // The value at the path has the wrong shape.
        let notArray = mappingError({ try [RPUser](json: envelope, at: "data.user") })
        XCTAssertEqual(notArray?.kind, .typeMismatch)
        XCTAssertEqual(notArray?.path, "data.user")
    }

    func testErrorsInsideCarryTheRootPath() throws {
        let json = "{\"data\":{\"items\":[{\"id\":1},\n{\"id\":\"x\"}]}}"
        guard let error = mappingError({ try [RPUser](json: json, at: "data.items") }) else { return }
        XCTAssertEqual(error.kind, .invalidValue)
        XCTAssertEqual(error.path, "data.items[1].id")
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 7)
        XCTAssertEqual(mappingError({ try RPUser(json: #"{"u":{"name":"x"}}"#, at: "u") })?.path, "u.id")
        // Strict mode, wrong types in every member read.
        for bad in [#"{"u":{"id":"1"}}"#, #"{"u":{"id":1,"name":2}}"#] {
            XCTAssertEqual(mappingError({ try RPUser(json: bad, at: "u", options: .strict) })?.kind, .typeMismatch, bad)
        }
        // Reported (forgiven) errors also name the document path.
        final class Box: @unchecked Sendable { var paths: [String] = [] }
        let box = Box()
        let options = DecodingOptions.lenient.skippingInvalidValues { box.paths.append($0.path) }
        let users = try [RPUser](json: json, at: "data.items", options: options)
        XCTAssertEqual(users.map(\.id), [1, 0])
        XCTAssertEqual(box.paths, ["data.items[1].id"])
    }

    func testSyntaxErrorsOutsideThePathStillFail() throws {
        let error = mappingError({ try RPUser(json: #"{"skip":[1,2,,],"u":{"id":1}}"#, at: "u") })
        XCTAssertEqual(error?.kind, .syntax)
        XCTAssertEqual(mappingError({ try RPUser(json: #"{"u":{"id":1}}  x"#, at: "u") })?.kind, .syntax)
    }

    func testParseRecordsOnlyThePath() throws {
        // The filter keeps the way to the value and what the model reads; the rest records nothing.
        let codec = try MetaCache.shared.codec(for: RPUser.self)
        let root = try RootPath("data.user")
        let filter = root.filter(leaf: codec.tapeFilter)
        let tokens = try withExtendedLifetime(filter) {
            try Array(envelope.utf8).withUnsafeBytes { bytes in
                try withParsedDocument(bytes, depthLimit: 64, filter: filter) { tape in
                    (0..<tape.count).map { tape[$0].kind }
                }
            }
        }
        // { "data" { "user" { "id" 1 "name" "Ann" } } }
        XCTAssertEqual(tokens.count, 12, "\(tokens)")
    }

    func testCodableDecoderAtPath() throws {
        let decoder = ModelDecoder()
        let data = Data(envelope.utf8)
        XCTAssertEqual(try decoder.decode(RPCodableUser.self, from: data, at: "data.user"), RPCodableUser(id: 1, name: "Ann"))
        XCTAssertEqual(try decoder.decode([RPCodableUser].self, from: data, at: "data.items").map(\.id), [2, 3])
        XCTAssertEqual(try decoder.decode(RPMappedCodable.self, from: data, at: "data.user"), RPMappedCodable(id: 1, name: "Ann"))
        XCTAssertEqual(try decoder.decode([RPMappedCodable].self, from: data, at: "data.items").count, 2)
        XCTAssertEqual(try decoder.decode([String: RPMappedCodable].self, from: data, at: "result")["a"]?.id, 4)

        do {
            _ = try decoder.decode(RPCodableUser.self, from: data, at: "data.admin")
            XCTFail("expected keyNotFound")
        } catch DecodingError.keyNotFound(let key, let context) {
            XCTAssertEqual(key.stringValue, "admin")
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["data"])
            XCTAssertTrue(context.debugDescription.contains("line 2"), context.debugDescription)
        }
        do {
            _ = try decoder.decode(RPCodableUser.self, from: data, at: "list.x")
            XCTFail("expected typeMismatch")
        } catch DecodingError.typeMismatch(_, let context) {
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["list"])
        }
        do {
            _ = try decoder.decode([RPCodableUser].self, from: Data(#"{"d":{"i":[{"id":1,"name":"a"},{"id":"2","name":"b"}]}}"#.utf8), at: "d.i")
            XCTFail("expected typeMismatch")
        } catch DecodingError.typeMismatch(_, let context) {
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["d", "i", "Index 1", "id"])
            XCTAssertTrue(context.debugDescription.hasSuffix("(line 1, column 38)"), context.debugDescription)
        }
        do {
            _ = try decoder.decode(RPCodableUser.self, from: Data(#"{"u":{"id":1}}"#.utf8), at: "u")
            XCTFail("expected keyNotFound")
        } catch DecodingError.keyNotFound(let key, let context) {
            XCTAssertEqual(key.stringValue, "name")
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["u"])
        }
    }

    func testKeyOptionsApplyBelowThePath() throws {
        var options = DecodingOptions.lenient
        options.caseInsensitiveKeys = true
        options.keyStrategy = .snakeCase
        struct Inner: JSONMappable, Equatable { var userID = 0 }
        XCTAssertEqual(try Inner(json: #"{"Data":{"x":1},"data":{"USER_ID":5}}"#, at: "data", options: options).userID, 5)
    }
}
