import Foundation
import ModelMapper
import XCTest

/// The code of MigratingFromObjectMapper.md.
final class MigratingFromObjectMapperSnippets: XCTestCase {
    func testSideBySide() throws {
        struct User: JSONMappable {
            var username: String? = nil
            var age: Int? = nil
            var bio: String? = nil
            var joined: Date? = nil
            static let mapping = ModelMapping(keys: ["bio": "profile.bio"])
        }

        let user = try User(json: #"{"username": "ada", "age": 36, "profile": {"bio": "Analyst"}, "joined": 1390220688}"#)
        // user.username == "ada", user.bio == "Analyst", user.joined == 2014-01-20T12:24:48Z
        XCTAssertEqual(user.username, "ada")
        XCTAssertEqual(user.age, 36)
        XCTAssertEqual(user.bio, "Analyst")
        XCTAssertEqual(user.joined, Date(timeIntervalSince1970: 1390220688))
    }
}
