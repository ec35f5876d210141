// The snippets of Sources/ModelMapper/ModelMapper.docc/JSONModelMacro.md (scripts/check-doc-snippets),
// here because they need the ModelMapperMacros product.

// Package.swift: .product(name: "ModelMapperMacros", package: "ModelMapper")
import ModelMapperMacros

@JSONModel
struct Owner: Equatable {
    let login: String
}

@JSONModel
struct Repo: Equatable {
    let id: Int                     // required: absent -> .missingKey, null -> an error
    let fullName: String
    var stars: Int = 0              // the initial value is used only when the key is absent
    let owner: Owner
    let license: String?            // nil when absent or null
    let kind = "repo"               // a constant: encoded, never decoded
    static let mapping = ModelMapping(keys: ["fullName": "full_name", "stars": ["stargazers_count", "stars"]])
}

@JSONModel
final class Account {
    let name: String
    var plan = "free"
}

import XCTest

final class JSONModelMacroArticleTests: XCTestCase {
    func testRepo() throws {
        let repo = try Repo(json: #"{"id": 1, "full_name": "a/b", "stars": 5, "owner": {"login": "ann"}}"#)
        // repo.stars == 5, repo.license == nil, repo.kind == "repo"
        let same = Repo(id: 1, fullName: "a/b", stars: 5, owner: Owner(login: "ann"), license: nil)   // memberwise init
        XCTAssertEqual(repo, same)
        XCTAssertEqual(repo.stars, 5)
        XCTAssertNil(repo.license)
        XCTAssertEqual(repo.kind, "repo")
        XCTAssertThrowsError(try Repo(json: #"{"full_name": "a/b", "owner": {"login": "ann"}}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .missingKey)
        }
    }

    func testAccount() throws {
        let account = Account(name: "ann")
        let text = try account.jsonString()   // {"name":"ann","plan":"free"}
        XCTAssertEqual(text, #"{"name":"ann","plan":"free"}"#)
    }
}
