import Foundation
import ModelMapper
import XCTest

/// The code of MigratingFromCodable.md.
final class MigratingFromCodableSnippets: XCTestCase {
    func testSideBySide() throws {
        struct Repo: JSONCodable {
            var id = 0
            var fullName = ""
            var stars = 0
            var topics: [String] = []
            static let mapping = ModelMapping(
                keys: ["stars": "stargazers_count"],
                keyStrategy: .snakeCase,
                required: ["id", "fullName"])
        }

        let repo = try Repo(json: #"{"id": 1, "full_name": "apple/swift"}"#)
        let sameRepo = try JSONDecoder().decode(Repo.self, from: Data(#"{"id": 1, "full_name": "apple/swift"}"#.utf8))
        // repo.fullName == "apple/swift", repo.stars == 0, repo.topics == [], sameRepo.fullName == "apple/swift"
        XCTAssertEqual(repo.fullName, "apple/swift")
        XCTAssertEqual(repo.stars, 0)
        XCTAssertEqual(repo.topics, [])
        XCTAssertEqual(sameRepo.fullName, "apple/swift")
        XCTAssertEqual(try Repo(json: #"{"id": 1, "full_name": "a", "stargazers_count": 5}"#).stars, 5)
    }
}
