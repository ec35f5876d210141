import Foundation
import XCTest
@testable import ModelMapper

// Key styles (issue #13 item 6): the new `KeyStrategy` cases, the options' default strategy for models whose
// mapping sets none (decoding and encoding, nested models, streaming), and case-insensitive key matching
// (exact match wins, key paths and alternatives, bad input).

fileprivate struct KSProfile: JSONMappable, Equatable {
    var avatarURL = ""
    var followerCount = 0
}

fileprivate struct KSUser: JSONMappable, Equatable {
    var userID = 0
    var displayName = ""
    var profile = KSProfile()
    var nickName: String? = nil
    static let mapping = ModelMapping(keys: ["nickName": "nick"])
}

fileprivate struct KSOwnStrategy: JSONMappable, Equatable {
    var userID = 0
    static let mapping = ModelMapping(keyStrategy: .identity)
}

fileprivate struct KSPaths: JSONMappable, Equatable {
    var city = ""
    var id = 0
    static let mapping = ModelMapping(keys: ["city": "place.city", "id": ["id", "ident"]], required: ["id"])
}

fileprivate struct KSTwins: JSONMappable, Equatable {
    var userId = ""
    var userID = ""
}

final class KeyStyleTests: XCTestCase {
    func testStylesSplitWordsLikeSnakeCase() {
        let names = ["userID", "addressLine1", "urlString", "simple", "htmlURL", "a", "isHTTPSEnabled"]
        XCTAssertEqual(names.map { KeyStrategy.snakeCase.key(for: $0) },
                       ["user_id", "address_line1", "url_string", "simple", "html_url", "a", "is_https_enabled"])
        XCTAssertEqual(names.map { KeyStrategy.kebabCase.key(for: $0) },
                       ["user-id", "address-line1", "url-string", "simple", "html-url", "a", "is-https-enabled"])
        XCTAssertEqual(names.map { KeyStrategy.screamingSnakeCase.key(for: $0) },
                       ["USER_ID", "ADDRESS_LINE1", "URL_STRING", "SIMPLE", "HTML_URL", "A", "IS_HTTPS_ENABLED"])
        XCTAssertEqual(names.map { KeyStrategy.pascalCase.key(for: $0) },
                       ["UserID", "AddressLine1", "UrlString", "Simple", "HtmlURL", "A", "IsHTTPSEnabled"])
    }

    /// SmartCodable's `.firstLetterUpper` (decoding) reads `name` into a property `Name`: the model-side
    /// equivalent lowercases only the first letter, where `.pascalCase` runs the other way (issue 27.9).
    func testFirstLetterLowercased() throws {
        XCTAssertEqual(["UserName", "ID", "URLString", "name", "Ärger", ""].map { KeyStrategy.firstLetterLowercased.key(for: $0) },
                       ["userName", "iD", "uRLString", "name", "ärger", ""])
        struct Capitalized: JSONMappable, Equatable {
            var Name = ""
            var Age = 0
            var Sub = KSProfile()
        }
        let json = #"{"name":"Mccc","age":10,"sub":{"avatarURL":"u"},"Name":"ignored"}"#
        var options = DecodingOptions.lenient
        options.keyStrategy = .firstLetterLowercased
        let expected = Capitalized(Name: "Mccc", Age: 10, Sub: KSProfile(avatarURL: "u"))
        XCTAssertEqual(try Capitalized(json: json, options: options), expected)
        XCTAssertEqual(try Capitalized(jsonObject: JSONValue(json: json), options: options), expected)
        XCTAssertEqual(try JSONLines<Capitalized>.decodeAll(Data((json + "\n").utf8), options: options, workers: 1), [expected])
        XCTAssertEqual(try expected.jsonString(options: [.sortedKeys, .keys(.firstLetterLowercased)]),
                       #"{"age":10,"name":"Mccc","sub":{"avatarURL":"u","followerCount":0}}"#)
        XCTAssertEqual(try Capitalized(json: json).Name, "ignored", "without the strategy the property name is the key")
    }

    func testOptionsStrategyAppliesToModelsWithoutTheirOwn() throws {
        var options = DecodingOptions.lenient
        options.keyStrategy = .snakeCase
        let json = #"{"user_id":7,"display_name":"Ann","profile":{"avatar_url":"u","follower_count":3},"nick":"A","userID":99}"#
        let expected = KSUser(userID: 7, displayName: "Ann", profile: KSProfile(avatarURL: "u", followerCount: 3), nickName: "A")
        XCTAssertEqual(try KSUser(json: json, options: options), expected)
        XCTAssertEqual(try [KSUser](json: "[\(json)]", options: options), [expected])
        XCTAssertEqual(try KSUser(jsonObject: try JSONSerialization.jsonObject(with: Data(json.utf8)), options: options), expected)
        // The same type without the option keeps property names (its metadata is separate).
        XCTAssertEqual(try KSUser(json: json).userID, 99)
        XCTAssertEqual(try KSUser(json: json).displayName, "")
        // A mapping's own strategy wins, even `.identity`.
        XCTAssertEqual(try KSOwnStrategy(json: #"{"user_id":1,"userID":2}"#, options: options).userID, 2)

        options.keyStrategy = .screamingSnakeCase
        XCTAssertEqual(try KSProfile(json: #"{"AVATAR_URL":"x","FOLLOWER_COUNT":1}"#, options: options),
                       KSProfile(avatarURL: "x", followerCount: 1))
        options.keyStrategy = .custom { "x_" + $0 }
        XCTAssertEqual(try KSProfile(json: #"{"x_avatarURL":"y"}"#, options: options).avatarURL, "y")
        XCTAssertEqual(try KSProfile(json: #"{"x_avatarURL":"z"}"#, options: options).avatarURL, "z")
    }

    func testOptionsStrategyErrorsHavePathsAndPositions() throws {
        var options = DecodingOptions.strict
        options.keyStrategy = .kebabCase
        guard let error = mappingError({ try KSUser(json: "{\"user-id\":1,\n\"profile\":{\"follower-count\":\"3\"}}", options: options) }) else { return }
        XCTAssertEqual(error.kind, .typeMismatch)
        XCTAssertEqual(error.path, "profile.followerCount")
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 29)
        XCTAssertEqual(mappingError({ try KSUser(json: #"{"display-name":[]}"#, options: options) })?.path, "displayName")
    }

    func testEncodingOptionsStrategy() throws {
        let user = KSUser(userID: 7, displayName: "Ann", profile: KSProfile(avatarURL: "u", followerCount: 3), nickName: "A")
        XCTAssertEqual(try user.jsonString(options: [.sortedKeys, .keys(.pascalCase)]),
                       #"{"DisplayName":"Ann","Profile":{"AvatarURL":"u","FollowerCount":3},"UserID":7,"nick":"A"}"#)
        var options = EncodingOptions.sortedKeys
        options.keyStrategy = .kebabCase
        let text = try user.jsonString(options: options)
        XCTAssertEqual(text, #"{"display-name":"Ann","nick":"A","profile":{"avatar-url":"u","follower-count":3},"user-id":7}"#)
        var decoding = DecodingOptions.lenient
        decoding.keyStrategy = .kebabCase
        XCTAssertEqual(try KSUser(json: text, options: decoding), user)
        XCTAssertEqual(try user.jsonString(options: [.sortedKeys]),
                       #"{"displayName":"Ann","nick":"A","profile":{"avatarURL":"u","followerCount":3},"userID":7}"#)
    }

    func testCaseInsensitiveKeys() throws {
        var options = DecodingOptions.lenient
        options.caseInsensitiveKeys = true
        XCTAssertEqual(try KSProfile(json: #"{"AVATARURL":"a","FollowerCount":2}"#, options: options),
                       KSProfile(avatarURL: "a", followerCount: 2))
        // Off by default.
        XCTAssertEqual(try KSProfile(json: #"{"AVATARURL":"a"}"#), KSProfile())
        // An exact match wins, before or after the other spelling.
        XCTAssertEqual(try KSProfile(json: #"{"AVATARURL":"no","avatarURL":"yes"}"#, options: options).avatarURL, "yes")
        XCTAssertEqual(try KSProfile(json: #"{"avatarURL":"yes","AVATARURL":"no"}"#, options: options).avatarURL, "yes")
        // Two properties differing only in case each keep their exact key; another spelling sets both.
        XCTAssertEqual(try KSTwins(json: #"{"userId":"a","userID":"b"}"#, options: options), KSTwins(userId: "a", userID: "b"))
        XCTAssertEqual(try KSTwins(json: #"{"USERID":"c","userID":"b"}"#, options: options), KSTwins(userId: "c", userID: "b"))
        // Key paths and alternatives; required is satisfied by a case-insensitive match.
        XCTAssertEqual(try KSPaths(json: #"{"Place":{"CITY":"Rome"},"IDENT":4}"#, options: options), KSPaths(city: "Rome", id: 4))
        XCTAssertEqual(try KSPaths(json: #"{"ID":1,"ident":2}"#, options: options).id, 2)
        XCTAssertEqual(mappingError({ try KSPaths(json: #"{"ID":1}"#) })?.kind, .missingKey)
        // Nested models and combination with a key strategy.
        options.keyStrategy = .snakeCase
        XCTAssertEqual(try KSUser(json: #"{"User_ID":5,"PROFILE":{"Avatar_Url":"v"}}"#, options: options).profile.avatarURL, "v")
    }

    func testCaseInsensitiveBadInput() throws {
        var options = DecodingOptions.strict
        options.caseInsensitiveKeys = true
        guard let error = mappingError({ try KSUser(json: "{\"USERID\":1,\n \"Profile\":{\"FOLLOWERCOUNT\":true}}", options: options) }) else { return }
        XCTAssertEqual(error.kind, .typeMismatch)
        XCTAssertEqual(error.path, "profile.followerCount")
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 29)
        XCTAssertEqual(mappingError({ try KSPaths(json: #"{"PLACE":{"City":[]},"Id":1}"#, options: options) })?.path, "city")
        XCTAssertEqual(mappingError({ try KSPaths(json: #"{"PLACE":{"City":"x"}}"#, options: options) })?.kind, .missingKey)
    }

    func testStreamingRecordsFollowKeyOptions() throws {
        var options = DecodingOptions.lenient
        options.keyStrategy = .snakeCase
        options.caseInsensitiveKeys = true
        let lines = """
        {"USER_ID":1,"display_name":"a"}
        {"user_id":"x"}
        {"user_id":3,"Profile":{"FOLLOWER_COUNT":9}}
        """
        let rejected = Collected<RejectedRecord>()
        let models = try JSONLines<KSUser>(bytes: Array(lines.utf8), options: options, onError: .skip { rejected.append($0) })
            .records().map { try $0.get() }
        XCTAssertEqual(models.map(\.userID), [1, 3])
        XCTAssertEqual(models.map(\.profile.followerCount), [0, 9])
        XCTAssertEqual(rejected.map(\.index), [1])
        XCTAssertEqual(rejected.first?.error.path, "[1].userID")
        let all = try JSONLines<KSUser>.decodeAll(Data(lines.utf8), options: options, workers: 2, onError: .skip { _ in })
        XCTAssertEqual(all.map(\.userID), [1, 3])
    }
}
