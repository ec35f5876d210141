import Foundation
import XCTest
import ModelMapper

// Issue 36, point 1: a decode writes only into objects it made. A class model held by a property's default
// (here one instance shared by every value, as `static let standard` makes it) is replaced by a new instance
// when the document has the property, and never written: on every entry point, and from many threads.

private final class SharedSettings: JSONMappable, @unchecked Sendable {
    var theme = ""
    var user = ""
    required init() {}
    static let standard = SharedSettings()
}

private struct SharedProfile: JSONCodable {
    var name = ""
    var settings = SharedSettings.standard
    var optionalSettings: SharedSettings? = SharedSettings.standard
}

/// A Codable type holding a mapped model: the bridge decodes the model with the mapping codecs.
private struct SharedEnvelope: Codable {
    var profile: SharedProfile
    var profiles: [SharedProfile]
}

final class SharedDefaultInstanceTests: XCTestCase {
    private static func document(_ user: String) -> String {
        #"{"name":"\#(user)","settings":{"theme":"dark-\#(user)","user":"\#(user)"},"optionalSettings":{"user":"\#(user)"}}"#
    }

    private func assertDefaultUntouched(_ message: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(SharedSettings.standard.user, "", "the shared default was written: \(message)", file: file, line: line)
        XCTAssertEqual(SharedSettings.standard.theme, "", "the shared default was written: \(message)", file: file, line: line)
    }

    private func assertOwnData(_ profile: SharedProfile, _ user: String, _ entry: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(profile.name, user, entry, file: file, line: line)
        XCTAssertEqual(profile.settings.user, user, entry, file: file, line: line)
        XCTAssertEqual(profile.settings.theme, "dark-\(user)", entry, file: file, line: line)
        XCTAssertEqual(profile.optionalSettings?.user, user, entry, file: file, line: line)
        XCTAssertFalse(profile.settings === SharedSettings.standard, entry, file: file, line: line)
        XCTAssertFalse(profile.optionalSettings === SharedSettings.standard, entry, file: file, line: line)
    }

    /// The issue's reproduction: alice's, then bob's document, then one without `settings`.
    func testDecodingTwoDocumentsLeavesEachItsOwnSettings() throws {
        let alice = try SharedProfile(json: Self.document("alice"))
        let bob = try SharedProfile(json: Self.document("bob"))
        assertOwnData(alice, "alice", "alice after bob")
        assertOwnData(bob, "bob", "bob")
        XCTAssertFalse(alice.settings === bob.settings)
        assertDefaultUntouched("after two decodes")
        let third = try SharedProfile(json: #"{"name":"carol"}"#)
        XCTAssertTrue(third.settings === SharedSettings.standard, "an absent key keeps the initial value")
        XCTAssertEqual(third.settings.user, "")
    }

    /// Every entry point that reads a model from JSON: bytes, dictionary input, JSONValue, arrays and
    /// dictionaries of models, root paths, JSON Lines, and a Codable type holding the model.
    func testEveryEntryPointMakesItsOwnInstances() throws {
        let users = ["u0", "u1", "u2"]
        let documents = users.map(Self.document)
        var decoded: [(String, [SharedProfile])] = []
        decoded.append(("init(json:)", try documents.map { try SharedProfile(json: $0) }))
        decoded.append(("ModelDecoder", try documents.map { try ModelDecoder().decode(SharedProfile.self, from: Data($0.utf8)) }))
        decoded.append(("init(jsonObject:)", try documents.map {
            try SharedProfile(jsonObject: try JSONSerialization.jsonObject(with: Data($0.utf8)))
        }))
        decoded.append(("JSONValue", try documents.map { try SharedProfile(jsonObject: try JSONValue(json: $0)) }))
        let array = "[" + documents.joined(separator: ",") + "]"
        decoded.append(("[T](json:)", try [SharedProfile](json: array)))
        let dictionary = try [String: SharedProfile](json: "{" + zip(users, documents).map { #""\#($0)":\#($1)"# }.joined(separator: ",") + "}")
        decoded.append(("[String: T](json:)", users.map { dictionary[$0]! }))
        decoded.append(("root path", try documents.map { try SharedProfile(json: #"{"data":\#($0)}"#, at: "data") }))
        let lines = Data(documents.joined(separator: "\n").utf8)
        decoded.append(("JSON Lines, 1 worker", try JSONLines<SharedProfile>.decodeAll(lines, workers: 1)))
        decoded.append(("JSON Lines, 2 workers", try JSONLines<SharedProfile>.decodeAll(lines, workers: 2)))
        let envelope = try ModelDecoder().decode(SharedEnvelope.self, from: Data(#"{"profile":\#(documents[0]),"profiles":\#(array)}"#.utf8))
        decoded.append(("Codable bridge", [envelope.profile] + envelope.profiles.dropFirst()))
        XCTAssertFalse(envelope.profile.settings === envelope.profiles[0].settings)
        decoded.append(("Codable bridge, array", envelope.profiles))
        decoded.append(("JSONDecoder", try documents.map { try JSONDecoder().decode(SharedProfile.self, from: Data($0.utf8)) }))
        for (entry, profiles) in decoded {
            XCTAssertEqual(profiles.count, users.count, entry)
            for (profile, user) in zip(profiles, users) { assertOwnData(profile, user, entry) }
            assertDefaultUntouched(entry)
        }
    }

    /// A forgiven bad value leaves the initial value untouched: the shared default stays in place, unwritten.
    func testAForgivenBadNestedValueLeavesTheDefault() throws {
        let collector = ReportCollector()
        let profile = try SharedProfile(json: #"{"name":"dave","settings":{"theme":"x","user":["not","a","string"]}}"#,
                                        options: collector.options())
        XCTAssertEqual(collector.errors.map(\.path), ["settings.user"])
        XCTAssertFalse(profile.settings === SharedSettings.standard)
        XCTAssertEqual(profile.settings.theme, "x")
        XCTAssertEqual(profile.settings.user, "", "the new instance keeps init()'s value for the skipped one")
        let mismatched = try SharedProfile(json: #"{"name":"erin","settings":7}"#, options: ReportCollector().options())
        XCTAssertTrue(mismatched.settings === SharedSettings.standard, "skipped: the initial value, untouched")
        assertDefaultUntouched("after forgiven values")
    }

    /// Eight threads decode distinct documents of the same types at once: each result holds its own data
    /// (run under `--sanitize=thread`, which reported races on the shared instance's Strings before).
    func testConcurrentDecodesOfDistinctDocumentsKeepTheirOwnData() {
        let threads = 8, rounds = 200
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            for r in 0..<rounds {
                let user = "t\(t)-r\(r)"
                do {
                    let profile = try SharedProfile(json: Self.document(user))
                    if profile.settings.user != user || profile.settings.theme != "dark-\(user)"
                        || profile.optionalSettings?.user != user || profile.settings === SharedSettings.standard {
                        failures.withValue { $0.append("\(user): got \(profile.settings.user)") }
                    }
                } catch {
                    failures.withValue { $0.append("\(user): \(error)") }
                }
            }
        }
        XCTAssertEqual(failures.current, [])
        assertDefaultUntouched("after concurrent decodes")
    }

    /// `update` is the one entry point that merges into the instances a value holds (YYModel's update).
    func testUpdateMergesIntoTheHeldInstance() throws {
        var profile = SharedProfile()
        let own = SharedSettings()
        own.theme = "light"
        profile.settings = own
        try profile.update(json: #"{"settings":{"user":"frank"}}"#)
        XCTAssertTrue(profile.settings === own, "update merges into the instance the value holds")
        XCTAssertEqual(own.user, "frank")
        XCTAssertEqual(own.theme, "light", "absent keys keep their values")
        try profile.update(jsonObject: ["settings": ["theme": "blue"]])
        XCTAssertTrue(profile.settings === own)
        XCTAssertEqual(own.theme, "blue")
        XCTAssertEqual(own.user, "frank")
        assertDefaultUntouched("after updates of an own instance")
    }
}
