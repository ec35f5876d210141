import Foundation
import XCTest
import ModelMapper

// A mapped key whose dots leave an empty component is a literal key (YYModel reads ".ext" so), and the
// empty root path is the whole document (issue 27, point 6).

private struct LKModel: JSONMappable, Equatable {
    var leading = ""
    var doubled = 0
    var trailing = 0
    var path = 0
    static var mapping: ModelMapping {
        ModelMapping(keys: ["leading": ".ext", "doubled": "a..b", "trailing": "a.", "path": "a.b"])
    }
}

final class LiteralKeyTests: XCTestCase {
    private let json = #"{".ext":"Apple","a..b":1,"a.":3,"a":{"b":2}}"#

    func testKeysWithEmptyComponentsAreLiteral() throws {
        let expected = LKModel(leading: "Apple", doubled: 1, trailing: 3, path: 2)
        XCTAssertEqual(try LKModel(json: json), expected)
        XCTAssertEqual(try LKModel(jsonObject: try JSONSerialization.jsonObject(with: Data(json.utf8))), expected)
        XCTAssertEqual(try JSONLines<LKModel>.decodeAll(Data((json + "\n").utf8), workers: 1), [expected])
        // Written under the same literal keys.
        let written = try JSONSerialization.jsonObject(with: expected.jsonData()) as? [String: Any]
        XCTAssertEqual(written?[".ext"] as? String, "Apple")
        XCTAssertEqual(written?["a..b"] as? Int, 1)
        XCTAssertEqual(written?["a."] as? Int, 3)
        XCTAssertEqual((written?["a"] as? [String: Any])?["b"] as? Int, 2)
        XCTAssertEqual(try LKModel(json: expected.jsonData()), expected)
    }

    func testTheEmptyRootPathIsTheWholeDocument() throws {
        let object = #"{"name":"x","age":5}"#
        XCTAssertEqual(try LKUser(json: object, at: ""), LKUser(name: "x", age: 5))
        XCTAssertEqual(try [LKUser](json: "[\(object)]", at: ""), [LKUser(name: "x", age: 5)])
        XCTAssertEqual(try [String: LKUser](json: #"{"k":\#(object)}"#, at: ""), ["k": LKUser(name: "x", age: 5)])
        XCTAssertEqual(try ModelDecoder().decode(LKUser.self, from: object, at: ""), LKUser(name: "x", age: 5))
        // As one alternative of several: the first present wins, and the document is always present.
        XCTAssertEqual(try LKUser(json: #"{"name":"outer","data":{"name":"inner"}}"#, at: ["data", ""]).name, "inner")
        XCTAssertEqual(try LKUser(json: #"{"name":"outer"}"#, at: ["data", ""]).name, "outer")
        // Errors inside have no root path in front.
        let error = mappingError { try LKUser(json: #"{"age":"x"}"#, at: "") }
        XCTAssertEqual(error?.path, "age")
        XCTAssertEqual(error?.column, 8)
    }
}

private struct LKUser: JSONMappable, Equatable {
    var name = ""
    var age = 0
}
