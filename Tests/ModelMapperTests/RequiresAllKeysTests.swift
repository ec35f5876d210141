import Foundation
import XCTest
import ModelMapper

// Issue 39, point 4: `DecodingOptions.requiresAllKeys` makes an absent key of a non-Optional property an
// error naming every such key, where by default (YYModel's rule) the property silently keeps its value.

private struct RARepo: JSONMappable {
    var fullName = ""
    var stargazersCount = 0
    var description: String? = nil
    let kind = "repo"
    var owner = RAOwner()
    var checksum = ""
    static let mapping = ModelMapping(ignoredWhenDecoding: ["checksum"])
}

private struct RAOwner: JSONMappable {
    var login = ""
    var siteAdmin = false
}

private struct RAOwnStrategy: JSONMappable {
    var fullName = ""
    static let mapping = ModelMapping(keyStrategy: .snakeCase)
}

final class RequiresAllKeysTests: XCTestCase {
    private let snakeDocument = #"{"full_name":"octocat/Hello-World","stargazers_count":80,"owner":{"login":"octocat","site_admin":false}}"#
    private let repoOnly = #"{"full_name":"octocat/Hello-World","stargazers_count":80}"#

    private func options(_ base: DecodingOptions = .lenient, keys: KeyStrategy? = nil) -> DecodingOptions {
        var options = base
        options.requiresAllKeys = true
        options.keyStrategy = keys
        return options
    }

    func testAForgottenKeyStrategyIsAnErrorNamingEveryMissingKey() throws {
        // The default: every property silently keeps its default.
        let silent = try RARepo(json: repoOnly, options: .strict)
        XCTAssertEqual(silent.fullName, "")
        XCTAssertEqual(silent.stargazersCount, 0)

        for base in [DecodingOptions.lenient, .strict] {
            let error = mappingError { try RARepo(json: repoOnly, options: options(base)) }
            XCTAssertEqual(error?.kind, .missingKey)
            XCTAssertEqual(error?.missingProperties, ["fullName", "stargazersCount", "owner"],
                           "non-Optional, decoded, var properties only: not description, kind, checksum")
            XCTAssertEqual(error?.path, "fullName")
            // A nested model is checked as it is decoded (document order): its error comes first.
            XCTAssertEqual(mappingError { try RARepo(json: snakeDocument, options: options(base)) }?.path, "owner.siteAdmin")
        }
    }

    func testWithTheRightStrategyEveryKeyIsFoundAndNestedModelsAreCheckedToo() throws {
        let repo = try RARepo(json: snakeDocument, options: options(keys: .snakeCase))
        XCTAssertEqual(repo.fullName, "octocat/Hello-World")
        XCTAssertEqual(repo.owner.siteAdmin, false)
        // A nested object missing a key: the error is the nested model's, with its path.
        let error = mappingError {
            try RARepo(json: #"{"full_name":"a","stargazers_count":1,"owner":{"login":"x"}}"#, options: options(keys: .snakeCase))
        }
        XCTAssertEqual(error?.kind, .missingKey)
        XCTAssertEqual(error?.path, "owner.siteAdmin")
        XCTAssertEqual(error?.missingProperties, ["siteAdmin"])
        // A null for a non-Optional is refused as for `required`.
        XCTAssertEqual(mappingError {
            try RAOwner(json: #"{"login":null,"siteAdmin":true}"#, options: options())
        }?.kind, .missingKey)
        // An Optional may be absent or null.
        XCTAssertNil(try RARepo(json: #"{"full_name":"a","stargazers_count":1,"description":null,"owner":{"login":"x","site_admin":true}}"#,
                                options: options(keys: .snakeCase)).description)
    }

    func testAModelsOwnStrategyAppliesToThatModelOnly() throws {
        // RAOwnStrategy's mapping sets .snakeCase; the options' strategy (none) applies to the others.
        XCTAssertEqual(try RAOwnStrategy(json: #"{"full_name":"x"}"#, options: options()).fullName, "x")
        XCTAssertEqual(mappingError { try RAOwnStrategy(json: #"{"fullName":"x"}"#, options: options()) }?.missingProperties, ["fullName"])
    }

    func testEveryEntryPointAndUpdate() throws {
        let lines = Data((#"{"login":"a","siteAdmin":true}"# + "\n" + #"{"login":"b"}"#).utf8)
        let error = mappingError { try JSONLines<RAOwner>.decodeAll(lines, options: options(), workers: 1) }
        XCTAssertEqual(error?.kind, .missingKey)
        XCTAssertEqual(mappingError { try [RAOwner](json: #"[{"login":"a"}]"#, options: options()) }?.path, "[0].siteAdmin")
        XCTAssertEqual(mappingError { try RAOwner(jsonObject: ["login": "a"], options: options()) }?.missingProperties, ["siteAdmin"])
        // An update checks only what it carries.
        var owner = RAOwner()
        try owner.update(json: #"{"login":"z"}"#, options: options())
        XCTAssertEqual(owner.login, "z")
        // The option off again: the same types decode leniently (separate metadata).
        XCTAssertEqual(try RAOwner(json: #"{"login":"a"}"#).login, "a")
    }
}
