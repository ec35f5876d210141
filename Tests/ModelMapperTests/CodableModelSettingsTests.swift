import Foundation
import XCTest
import ModelMapper

// Issue 39, point 1: a `JSONCodable` model through `ModelDecoder`/`ModelEncoder` gets the settings JSONDecoder
// and JSONEncoder apply to a Codable type. Each case decodes or encodes the model with our coder and its
// plain Codable twin (same properties, synthesized Codable) with Foundation's, on the same bytes and the
// same settings, and compares the results.

private struct SettingsRepo: JSONCodable, Equatable {
    var fullName = ""
    var stargazersCount = 0
    var htmlUrl = ""
    var pushedAt = Date(timeIntervalSince1970: 0)
    var owner = SettingsOwner()
}

private struct SettingsOwner: JSONCodable, Equatable {
    var login = ""
    var siteAdmin = false
}

/// The same shape with synthesized Codable: what JSONDecoder and JSONEncoder do with the settings.
private struct TwinRepo: Codable, Equatable {
    var fullName = ""
    var stargazersCount = 0
    var htmlUrl = ""
    var pushedAt = Date(timeIntervalSince1970: 0)
    var owner = TwinOwner()
}

private struct TwinOwner: Codable, Equatable {
    var login = ""
    var siteAdmin = false
}

private extension SettingsRepo {
    var twin: TwinRepo {
        TwinRepo(fullName: fullName, stargazersCount: stargazersCount, htmlUrl: htmlUrl, pushedAt: pushedAt,
                 owner: TwinOwner(login: owner.login, siteAdmin: owner.siteAdmin))
    }
}

final class CodableModelSettingsTests: XCTestCase {
    private let snakeJSON = #"{"full_name":"octocat/Hello-World","stargazers_count":80,"html_url":"https://github.com/octocat","pushed_at":1712491290,"owner":{"login":"octocat","site_admin":true}}"#

    func testKeyAndDateDecodingStrategiesReachTheModel() throws {
        let strategies: [(String, JSONDecoder.DateDecodingStrategy, String)] = [
            ("seconds", .secondsSince1970, "1712491290"),
            ("milliseconds", .millisecondsSince1970, "1712491290500"),
            ("iso8601", .iso8601, #""2024-04-07T12:01:30Z""#),
        ]
        for (name, dates, pushedAt) in strategies {
            let json = Data(snakeJSON.replacingOccurrences(of: "1712491290", with: pushedAt).utf8)
            let foundation = JSONDecoder()
            foundation.keyDecodingStrategy = .convertFromSnakeCase
            foundation.dateDecodingStrategy = dates
            var ours = ModelDecoder()
            ours.keyDecodingStrategy = .convertFromSnakeCase
            ours.dateDecodingStrategy = dates
            let expected = try foundation.decode(TwinRepo.self, from: json)
            XCTAssertEqual(expected.fullName, "octocat/Hello-World", name)
            XCTAssertEqual(try ours.decode(SettingsRepo.self, from: json).twin, expected, name)
            XCTAssertEqual(try ours.decode([SettingsRepo].self, from: Data("[\(String(decoding: json, as: UTF8.self))]".utf8)).map(\.twin),
                           [expected], name)
        }
        // Without the setting, snake_case keys match nothing (as JSONDecoder without it): defaults stay.
        XCTAssertEqual(try ModelDecoder().decode(SettingsRepo.self, from: Data(snakeJSON.utf8)).fullName, "")
        // A deliberate difference: the mapping's .snakeCase derives the key from the property ("htmlURL" ->
        // "html_url") where convertFromSnakeCase derives a name from the key ("html_url" -> "htmlUrl"), so
        // an acronym property is found where JSONDecoder finds none (Foundation's word split, documented).
        var ours = ModelDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        XCTAssertEqual(try ours.decode(SettingsAcronym.self, from: Data(#"{"html_url":"u"}"#.utf8)).htmlURL, "u")
    }

    func testACustomKeyStrategyIsAppliedAsJSONDecoderAppliesIt() throws {
        let json = Data(#"{"FULLNAME":"a/b","STARGAZERSCOUNT":3,"HTMLURL":"u","PUSHEDAT":5,"OWNER":{"LOGIN":"x","SITEADMIN":true}}"#.utf8)
        let lowerCamel: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            let upper = path.last!.stringValue
            let names = ["FULLNAME": "fullName", "STARGAZERSCOUNT": "stargazersCount", "HTMLURL": "htmlUrl", "PUSHEDAT": "pushedAt",
                         "OWNER": "owner", "LOGIN": "login", "SITEADMIN": "siteAdmin"]
            return SettingsKey(names[upper] ?? upper)
        }
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .custom(lowerCamel)
        foundation.dateDecodingStrategy = .secondsSince1970
        var ours = ModelDecoder()
        ours.keyDecodingStrategy = .custom(lowerCamel)
        ours.dateDecodingStrategy = .secondsSince1970
        let expected = try foundation.decode(TwinRepo.self, from: json)
        XCTAssertEqual(expected.fullName, "a/b")
        XCTAssertEqual(try ours.decode(SettingsRepo.self, from: json).twin, expected)
        // The same model through JSONDecoder itself.
        XCTAssertEqual(try foundation.decode(SettingsRepo.self, from: json).twin, expected)
    }

    func testEncodingSettingsReachTheModel() throws {
        var model = SettingsRepo()
        model.fullName = "octocat/Hello-World"
        model.stargazersCount = 80
        model.htmlUrl = "https://github.com/octocat"
        model.pushedAt = Date(timeIntervalSince1970: 1712491290)
        model.owner = SettingsOwner(login: "octocat", siteAdmin: true)
        let cases: [(String, JSONEncoder.KeyEncodingStrategy, JSONEncoder.DateEncodingStrategy, JSONEncoder.OutputFormatting)] = [
            ("snake, seconds", .convertToSnakeCase, .secondsSince1970, [.sortedKeys]),
            ("snake, milliseconds, no slash escaping", .convertToSnakeCase, .millisecondsSince1970, [.sortedKeys, .withoutEscapingSlashes]),
            ("default keys, iso8601, pretty", .useDefaultKeys, .iso8601, [.sortedKeys, .prettyPrinted]),
        ]
        for (name, keys, dates, formatting) in cases {
            let foundation = JSONEncoder()
            foundation.keyEncodingStrategy = keys
            foundation.dateEncodingStrategy = dates
            foundation.outputFormatting = formatting
            var ours = ModelEncoder()
            ours.keyEncodingStrategy = keys
            ours.dateEncodingStrategy = dates
            ours.outputFormatting = formatting
            let expected = String(decoding: try foundation.encode(model.twin), as: UTF8.self)
            XCTAssertEqual(String(decoding: try ours.encode(model), as: UTF8.self), expected, name)
            XCTAssertEqual(String(decoding: try ours.encode([model]), as: UTF8.self),
                           String(decoding: try foundation.encode([model.twin]), as: UTF8.self), name)
        }
        // The options' own settings still win, and the mapping API is unchanged.
        XCTAssertEqual(try model.owner.jsonString(options: .sortedKeys), #"{"login":"octocat","siteAdmin":true}"#)
        XCTAssertTrue(try model.jsonString().contains("https://github.com/octocat"), "jsonString() does not escape slashes")
    }

    func testUserInfoReachesTheModelsHooks() throws {
        var ours = ModelDecoder()
        ours.userInfo = [CodingUserInfoKey(rawValue: "tenant")!: "a"]
        let hooked = try ours.decode(SettingsHooked.self, from: Data(#"{"name":"n"}"#.utf8))
        XCTAssertEqual(hooked.tenant, "a")
    }
}

private struct SettingsAcronym: JSONCodable {
    var htmlURL = ""
}

private struct SettingsHooked: JSONCodable, JSONDecodingHooks {
    var name = ""
    var tenant = ""
    mutating func didDecode(from object: JSONObject, context: MappingContext) throws {
        tenant = context.userInfo["tenant"] as? String ?? "none"
    }
}

private struct SettingsKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
