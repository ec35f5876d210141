import Foundation
import ModelMapper
import XCTest

/// The code of GettingStarted.md.
final class GettingStartedSnippets: XCTestCase {
    func testGettingStarted() throws {
        struct User: JSONMappable {
            var id = 0
            var name = ""
            var email: String? = nil
            var tags: [String] = []
        }

        let user = try User(json: #"{"id": 42, "name": "Ada", "tags": ["admin"], "unused": [1, 2, 3]}"#)
        // user.id == 42, user.name == "Ada", user.email == nil, user.tags == ["admin"]
        XCTAssertEqual(user.id, 42)
        XCTAssertEqual(user.name, "Ada")
        XCTAssertNil(user.email)
        XCTAssertEqual(user.tags, ["admin"])

        let users = try [User](json: #"[{"id": 1}, {"id": 2}]"#)
        let byName = try [String: User](json: #"{"ada": {"id": 1}}"#)
        let fromDictionary = try User(jsonObject: ["id": 7, "name": "Grace"] as [String: Any])
        // users.map(\.id) == [1, 2], byName["ada"]?.id == 1, fromDictionary.name == "Grace"
        XCTAssertEqual(users.map(\.id), [1, 2])
        XCTAssertEqual(byName["ada"]?.id, 1)
        XCTAssertEqual(fromDictionary.name, "Grace")

        var profile = try User(json: #"{"id": 1, "name": "Ada", "email": "ada@example.com"}"#)
        try profile.update(json: #"{"name": "Ada Lovelace"}"#)
        // profile.id == 1, profile.name == "Ada Lovelace", profile.email == "ada@example.com"
        XCTAssertEqual(profile.id, 1)
        XCTAssertEqual(profile.name, "Ada Lovelace")
        XCTAssertEqual(profile.email, "ada@example.com")

        let text = try user.jsonString(options: [.sortedKeys])
        // {"id":42,"name":"Ada","tags":["admin"]}
        XCTAssertEqual(text, #"{"id":42,"name":"Ada","tags":["admin"]}"#)

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try User(json: #"{"id": "forty-two"}"#)
        } catch let error as MappingError {
            print(error)  // line 1, column 8: invalidValue at id: the string "forty-two" is not a number
        }
        XCTAssertEqual(printed, #"line 1, column 8: invalidValue at id: the string "forty-two" is not a number"#)

        let value = try JSONValue(json: #"{"price": 12345678901234567890.123, "tags": ["a", "b"]}"#)
        // value["price"]?.numberValue?.text == "12345678901234567890.123", value["tags"]?[1]?.stringValue == "b"
        XCTAssertEqual(value["price"]?.numberValue?.text, "12345678901234567890.123")
        XCTAssertEqual(value["tags"]?[1]?.stringValue, "b")
    }
}
