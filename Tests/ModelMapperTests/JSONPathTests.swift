import Foundation
import XCTest
import ModelMapper

// Issue 39, point 3: `MappingError.jsonPath` names the place as the document spells it (keys after key
// strategies and mapped keys, the alternative that was present, key paths), where `path` names Swift
// properties; `description` shows it where the two differ.

private struct JPRepo: JSONMappable {
    var fullName = ""
    var stargazersCount = 0
    var ownerID = 0
    var license = ""
    var watchers: Int? = nil
    static let mapping = ModelMapping(keys: ["ownerID": ["owner_id", "ownerId"], "license": "meta.license.spdx_id"],
                                      keyStrategy: .snakeCase)
}

private struct JPPage: JSONMappable {
    var items: [JPRepo] = []
    var byName: [String: JPRepo] = [:]
}

private struct JPRequired: JSONMappable {
    var userID = 0
    static let mapping = ModelMapping(keys: ["userID": ["user_id", "uid"]], required: ["userID"])
}

private struct JPEncoded: JSONMappable {
    var ratio = 0.0
    static let mapping = ModelMapping(encodingKeys: ["ratio": "stats.ratio"])
}

final class JSONPathTests: XCTestCase {
    func testThrownErrorsNameTheDocumentsKeys() throws {
        let cases: [(String, String, String)] = [
            (#"{"items":[{},{"stargazers_count":"x"}]}"#, "items[1].stargazersCount", "items[1].stargazers_count"),
            (#"{"items":[{"ownerId":"x"}]}"#, "items[0].ownerID", "items[0].ownerId"),
            (#"{"items":[{"owner_id":[1]}]}"#, "items[0].ownerID", "items[0].owner_id"),
            (#"{"items":[{"meta":{"license":{"spdx_id":5}}}]}"#, "items[0].license", "items[0].meta.license.spdx_id"),
            (#"{"byName":{"a.b":{"full_name":1}}}"#, "byName.a.b.fullName", "byName.a.b.full_name"),
            (#"{"items":[{"watchers":"many"}]}"#, "items[0].watchers", "items[0].watchers"),
        ]
        for (json, path, jsonPath) in cases {
            let error = mappingError { try JPPage(json: json, options: .strict) }
            XCTAssertEqual(error?.path, path, json)
            XCTAssertEqual(error?.jsonPath, jsonPath, json)
            if path != jsonPath {
                XCTAssertEqual(error?.description.contains("at \(path) (JSON \(jsonPath)):"), true, error?.description ?? "")
            } else {
                XCTAssertEqual(error?.description.contains("JSON"), false, error?.description ?? "")
            }
        }
    }

    func testReportedErrorsAndJSONLinesRecords() throws {
        let collector = ReportCollector()
        _ = try JPPage(json: #"{"items":[{"full_name":"ok","stargazers_count":"x","ownerId":true}]}"#, options: collector.options())
        XCTAssertEqual(collector.errors.map(\.path), ["items[0].stargazersCount", "items[0].ownerID"])
        XCTAssertEqual(collector.errors.map(\.jsonPath), ["items[0].stargazers_count", "items[0].ownerId"])

        let lines = Data((#"{"full_name":"a"}"# + "\n" + #"{"stargazers_count":{}}"#).utf8)
        let error = mappingError { try JSONLines<JPRepo>.decodeAll(lines, options: .strict, workers: 1) }
        XCTAssertEqual(error?.path, "[1].stargazersCount")
        XCTAssertEqual(error?.jsonPath, "[1].stargazers_count")
    }

    func testMissingKeysNameTheKeyLookedFor() throws {
        let missing = mappingError { try JPRequired(json: "{}") }
        XCTAssertEqual(missing?.path, "userID")
        XCTAssertEqual(missing?.jsonPath, "user_id", "the first alternative")
        let null = mappingError { try JPRequired(json: #"{"uid":null}"#) }
        XCTAssertEqual(null?.kind, .missingKey)
        XCTAssertEqual(null?.jsonPath, "uid", "the alternative that was present")
        var options = DecodingOptions.lenient
        options.requiresAllKeys = true
        let all = mappingError { try JPPage(json: #"{"items":[{"full_name":"a"}],"byName":{}}"#, options: options) }
        XCTAssertEqual(all?.path, "items[0].stargazersCount")
        XCTAssertEqual(all?.jsonPath, "items[0].stargazers_count")
    }

    func testEncodingErrorsNameTheKeyWritten() throws {
        var model = JPEncoded()
        model.ratio = .nan
        let error = mappingError { try model.jsonData() }
        XCTAssertEqual(error?.path, "ratio")
        XCTAssertEqual(error?.jsonPath, "stats.ratio")
    }

    func testAnErrorMadeByHandHasItsPathAsJSONPath() {
        let error = MappingError(.validation, "over limit", path: "orders[3].total")
        XCTAssertEqual(error.jsonPath, "orders[3].total")
        XCTAssertEqual(error.description, "validation at orders[3].total: over limit")
    }
}
