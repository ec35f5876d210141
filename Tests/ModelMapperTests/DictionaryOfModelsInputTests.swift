import Foundation
import XCTest
import ModelMapper

// `[String: M](jsonObject:)` and `ModelDecoder().decode([String: M].self, fromJSONObject:)` (issue 27,
// point 7; DESIGN 2d).

private struct DMUser: JSONMappable, Equatable {
    var name = ""
    var age = 0
}

final class DictionaryOfModelsInputTests: XCTestCase {
    func testDictionaryOfModelsFromAFoundationObject() throws {
        let json = #"{"a":{"name":"Ann","age":"41"},"b":{"name":"Bo"}}"#
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let expected = ["a": DMUser(name: "Ann", age: 41), "b": DMUser(name: "Bo")]
        XCTAssertEqual(try [String: DMUser](jsonObject: object), expected)
        XCTAssertEqual(try ModelDecoder().decode([String: DMUser].self, fromJSONObject: object), expected)
        XCTAssertEqual(try [String: DMUser](jsonObject: object), try [String: DMUser](json: json), "the same as from the JSON text")
        XCTAssertEqual(try [String: DMUser](jsonObject: JSONValue(json: json)), expected)

        let error = mappingError { try [String: DMUser](jsonObject: ["a": ["age": "x"]], options: .strict) }
        XCTAssertEqual(error?.path, "a.age")
        XCTAssertEqual(mappingError { try [String: DMUser](jsonObject: [1, 2]) }?.kind, .typeMismatch)

        var lossy = DecodingOptions.lenient
        lossy.lossyCollections = true
        XCTAssertEqual(try [String: DMUser](jsonObject: ["a": ["name": "Ann"], "b": 5], options: lossy), ["a": DMUser(name: "Ann")])
    }
}
