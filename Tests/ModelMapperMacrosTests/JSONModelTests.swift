import Foundation
import ModelMapperMacros
import XCTest

// `@JSONModel` models (issue 45) through every entry point, each beside a `JSONMappable` twin with the
// same fields (`var`s with defaults, the macro model's required properties in `required`): the same
// values, and the same error kind, path, JSON path and position.

@JSONModel
struct MacroOwner: Equatable {
    let login: String
    var id: Int = 0
}

@JSONModel
struct MacroRepo: Equatable {
    let id: Int
    let fullName: String
    var stars: Int = 0
    let owner: MacroOwner
    let license: String?
    let kind = "repo"
    static let mapping = ModelMapping(keys: ["fullName": "full_name", "stars": ["stargazers_count", "stars"]])
}

struct OwnerTwin: JSONMappable, Equatable {
    var login = ""
    var id = 0
    static let mapping = ModelMapping(required: ["login"])
}

struct RepoTwin: JSONMappable, Equatable {
    var id = 0
    var fullName = ""
    var stars = 0
    var owner = OwnerTwin()
    var license: String? = nil
    let kind = "repo"
    static let mapping = ModelMapping(keys: ["fullName": "full_name", "stars": ["stargazers_count", "stars"]],
                                      required: ["id", "fullName", "owner"])
}

@JSONModel
final class MacroAccount {
    let name: String
    var plan = "free"
    var tags: [String] = []
}

/// A JSONMappable model holding macro models, and a macro model holding JSONMappable ones.
struct Catalog: JSONMappable, Equatable {
    var repos: [MacroRepo] = []
    var byName: [String: MacroRepo] = [:]
    var featured: MacroRepo? = nil
}

@JSONModel
struct Shelf: Equatable {
    let twins: [RepoTwin]
    let best: RepoTwin?
    let inner: Catalog
}

private let repoJSON = #"{"id": 7, "full_name": "a/b", "stargazers_count": 12, "owner": {"login": "ann", "id": 3}, "license": "MIT", "kind": "other"}"#

private func twin(_ repo: MacroRepo) -> RepoTwin {
    RepoTwin(id: repo.id, fullName: repo.fullName, stars: repo.stars, owner: OwnerTwin(login: repo.owner.login, id: repo.owner.id),
             license: repo.license)
}

private func error(_ body: () throws -> Any) -> MappingError? {
    do {
        _ = try body()
        return nil
    } catch let error as MappingError {
        return error
    } catch {
        XCTFail("not a MappingError: \(error)")
        return nil
    }
}

final class JSONModelTests: XCTestCase {
    func testDecodesLetsRequiredOptionalsAndInitialValues() throws {
        let repo = try MacroRepo(json: repoJSON)
        XCTAssertEqual(repo, MacroRepo(id: 7, fullName: "a/b", stars: 12, owner: MacroOwner(login: "ann", id: 3), license: "MIT"))
        XCTAssertEqual(repo.kind, "repo", "a let with an initial value is a constant, never decoded")
        XCTAssertEqual(twin(repo), try RepoTwin(json: repoJSON))

        let sparse = try MacroRepo(json: #"{"id": 1, "full_name": "x", "owner": {"login": "o"}, "license": null}"#)
        XCTAssertEqual(sparse.stars, 0, "absent: the initial value")
        XCTAssertEqual(sparse.owner.id, 0)
        XCTAssertNil(sparse.license, "Optional without a value: nil when null")
        XCTAssertNil(try MacroRepo(json: #"{"id": 1, "full_name": "x", "owner": {"login": "o"}}"#).license, "nil when absent")
        XCTAssertEqual(try MacroRepo(json: #"{"id": 1, "full_name": "x", "owner": {"login": "o"}, "stars": 5}"#).stars, 5, "second alternative key")
    }

    func testErrorsMatchTheJSONMappableTwin() {
        let inputs = [
            #"{"full_name": "a", "owner": {"login": "o"}}"#,                      // required id absent
            #"{"id": null, "full_name": "a", "owner": {"login": "o"}}"#,          // required id null
            #"{"id": 1, "full_name": "a", "owner": {"id": 2}}"#,                  // nested required absent
            #"{"id": 1, "full_name": "a", "owner": {"login": "o"}, "stars": "many"}"#,  // conversion
            #"{"id": 1, "full_name": [1], "owner": {"login": "o"}}"#,              // type mismatch
            #"{"id": 1, "full_name": "a", "owner": 5}"#,                            // nested not an object
            "[1, 2]",                                                               // root not an object
            #"{"id": 1,, }"#,                                                       // syntax
        ]
        for input in inputs {
            let macro = error { try MacroRepo(json: input) }
            let mapped = error { try RepoTwin(json: input) }
            XCTAssertNotNil(macro, input)
            XCTAssertEqual(macro?.kind, mapped?.kind, input)
            XCTAssertEqual(macro?.path, mapped?.path, input)
            XCTAssertEqual(macro?.jsonPath, mapped?.jsonPath, input)
            XCTAssertEqual(macro?.offset, mapped?.offset, input)
            XCTAssertEqual(macro?.line, mapped?.line, input)
            XCTAssertEqual(macro?.column, mapped?.column, input)
            XCTAssertEqual(macro?.missingProperties, mapped?.missingProperties, input)
        }
        XCTAssertEqual(error { try MacroRepo(json: #"{"full_name": "a", "owner": {"login": "o"}}"#) }?.kind, .missingKey)
        XCTAssertEqual(error { try MacroRepo(json: #"{"full_name": "a", "owner": {"login": "o"}}"#) }?.path, "id")
    }

    func testFinalClass() throws {
        let account = try MacroAccount(json: #"{"name": "ann", "tags": ["a"]}"#)
        XCTAssertEqual(account.name, "ann")
        XCTAssertEqual(account.plan, "free")
        XCTAssertEqual(account.tags, ["a"])
        let made = MacroAccount(name: "bob", plan: "pro")
        XCTAssertEqual(try made.jsonString(options: [.sortedKeys]), #"{"name":"bob","plan":"pro","tags":[]}"#)
        XCTAssertEqual(error { try MacroAccount(json: #"{"plan": "pro"}"#) }?.kind, .missingKey)

        // An update sets the class's vars in place; its let cannot change and keeps its value.
        var same = account
        try same.update(json: #"{"name": "changed", "plan": "pro"}"#)
        XCTAssertTrue(same === account)
        XCTAssertEqual(account.plan, "pro")
        XCTAssertEqual(account.name, "ann")
    }

    func testEveryDecodingEntryPoint() async throws {
        let expected = try MacroRepo(json: repoJSON)
        XCTAssertEqual(try MacroRepo(json: Data(repoJSON.utf8), options: .strict), expected)
        XCTAssertEqual(try MacroRepo(json: Array(repoJSON.utf8)), expected)
        XCTAssertEqual(try MacroRepo(json: #"{"data": {"repo": \#(repoJSON)}}"#, at: "data.repo"), expected)
        let object = try JSONSerialization.jsonObject(with: Data(repoJSON.utf8))
        XCTAssertEqual(try MacroRepo(jsonObject: object), expected)
        XCTAssertEqual(try [MacroRepo](json: "[\(repoJSON), \(repoJSON)]"), [expected, expected])
        XCTAssertEqual(try [MacroRepo](json: #"{"x": [\#(repoJSON)]}"#, at: "x"), [expected])
        XCTAssertEqual(try [String: MacroRepo](json: #"{"a": \#(repoJSON)}"#), ["a": expected])
        XCTAssertEqual(try [MacroRepo](jsonObject: [object]), [expected])
        XCTAssertEqual(try ModelDecoder().decode(MacroRepo.self, from: Data(repoJSON.utf8)), expected)
        XCTAssertEqual(try ModelDecoder().decode([MacroRepo].self, from: "[\(repoJSON)]"), [expected])
        XCTAssertEqual(try JSONDecoder().decode(MacroRepo.self, from: Data(repoJSON.utf8)), expected)
        XCTAssertEqual(try JSONDecoder().decode([String: MacroRepo].self, from: Data(#"{"k": \#(repoJSON)}"#.utf8)), ["k": expected])

        let lines = Array((0..<5).map { #"{"id": \#($0), "full_name": "r\#($0)", "owner": {"login": "o"}}"# }.joined(separator: "\n").utf8)
        var syncIDs: [Int] = []
        try JSONLines<MacroRepo>(bytes: lines).forEach { syncIDs.append($0.id) }
        XCTAssertEqual(syncIDs, [0, 1, 2, 3, 4])
        var asyncIDs: [Int] = []
        for try await repo in JSONLines<MacroRepo>(bytes: lines, workers: 2) { asyncIDs.append(repo.id) }
        XCTAssertEqual(asyncIDs, [0, 1, 2, 3, 4])
        XCTAssertEqual(try JSONLines<MacroRepo>.decodeAll(lines, workers: 2).map(\.fullName), ["r0", "r1", "r2", "r3", "r4"])
        let bad = Array((#"{"id": 1, "full_name": "r", "owner": {"login": "o"}}"# + "\n" + #"{"full_name": "r", "owner": {"login": "o"}}"#).utf8)
        XCTAssertThrowsError(try JSONLines<MacroRepo>.decodeAll(bad, workers: 1)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .missingKey)
        }
    }

    func testUpdateRebuildsTheStruct() throws {
        var repo = try MacroRepo(json: repoJSON)
        try repo.update(json: #"{"full_name": "new/name", "owner": {"login": "bob"}}"#)
        XCTAssertEqual(repo.fullName, "new/name", "a struct's let changes: the value is rebuilt")
        XCTAssertEqual(repo.owner, MacroOwner(login: "bob", id: 3), "a nested struct merges: absent keys keep their values")
        XCTAssertEqual(repo.stars, 12)
        var twinRepo = try RepoTwin(json: repoJSON)
        try twinRepo.update(json: #"{"full_name": "new/name", "owner": {"login": "bob"}}"#)
        XCTAssertEqual(twin(repo), twinRepo)
        // A nested model checks its own required keys, below an update too, as the twin's does.
        let nested = error { try repo.update(json: #"{"owner": {"id": 9}}"#) }
        var twinAgain = twinRepo
        XCTAssertEqual(nested?.kind, .missingKey)
        XCTAssertEqual(nested?.path, error { try twinAgain.update(json: #"{"owner": {"id": 9}}"#) }?.path)

        // All or nothing: a failing update leaves the value as it was.
        let before = repo
        XCTAssertThrowsError(try repo.update(json: #"{"full_name": "z", "stars": "many"}"#))
        XCTAssertEqual(repo, before)
        try repo.update(jsonObject: ["stars": 40])
        XCTAssertEqual(repo.stars, 40)
    }

    func testEncodingEntryPointsAndRoundTrip() throws {
        let repo = try MacroRepo(json: repoJSON)
        let text = try repo.jsonString(options: [.sortedKeys])
        XCTAssertEqual(text, try twin(repo).jsonString(options: [.sortedKeys]))
        XCTAssertEqual(text, #"{"full_name":"a/b","id":7,"kind":"repo","license":"MIT","owner":{"id":3,"login":"ann"},"stargazers_count":12}"#)
        XCTAssertEqual(try MacroRepo(json: try repo.jsonData()), repo)
        XCTAssertEqual(try MacroRepo(jsonObject: try repo.jsonObject()), repo)
        XCTAssertEqual(try repo.jsonValue()["owner"]?["login"], "ann")
        XCTAssertEqual(try [repo].jsonString(options: [.sortedKeys]), "[\(text)]")
        XCTAssertEqual(try ["k": repo].jsonString(options: [.sortedKeys]), #"{"k":\#(text)}"#)
        XCTAssertEqual(try JSONDecoder().decode(MacroRepo.self, from: try JSONEncoder().encode(repo)), repo)
        // A macro model is Encodable, so ModelEncoder applies JSONEncoder's settings (slashes escaped), as
        // for a JSONCodable model, and the output reads back the same.
        XCTAssertTrue(String(decoding: try ModelEncoder().encode(repo), as: UTF8.self).contains(#""a\/b""#))
        XCTAssertEqual(try MacroRepo(json: try ModelEncoder().encode(repo)), repo)
        let noLicense = MacroRepo(id: 1, fullName: "f", owner: MacroOwner(login: "o"), license: nil)
        XCTAssertEqual(try noLicense.jsonString(options: [.sortedKeys]), try twin(noLicense).jsonString(options: [.sortedKeys]))
    }

    func testNestingBothWays() throws {
        let json = #"{"repos": [\#(repoJSON)], "byName": {"b": \#(repoJSON)}, "featured": \#(repoJSON)}"#
        let catalog = try Catalog(json: json)
        let expected = try MacroRepo(json: repoJSON)
        XCTAssertEqual(catalog, Catalog(repos: [expected], byName: ["b": expected], featured: expected))
        XCTAssertEqual(try Catalog(json: try catalog.jsonData()), catalog)
        XCTAssertNil(try Catalog(json: #"{"featured": null}"#).featured)
        let inner = error { try Catalog(json: #"{"repos": [\#(repoJSON), {"id": 2}]}"#) }
        XCTAssertEqual(inner?.kind, .missingKey)
        XCTAssertEqual(inner?.path, "repos[1].fullName")

        let shelf = try Shelf(json: #"{"twins": [\#(repoJSON)], "best": null, "inner": \#(json)}"#)
        XCTAssertEqual(shelf.twins, [twin(expected)])
        XCTAssertNil(shelf.best)
        XCTAssertEqual(shelf.inner, catalog)
        XCTAssertEqual(try Shelf(json: try shelf.jsonData()), shelf)
        XCTAssertNil(try Shelf(json: #"{"twins": [], "inner": {}}"#).best, "best is Optional: absent is nil")
        XCTAssertEqual(error { try Shelf(json: #"{"best": null, "inner": {}}"#) }?.missingProperties, ["twins"])
    }

    func testValidate() throws {
        try ModelMapping.validate(MacroRepo.self, MacroAccount.self, Shelf.self, Catalog.self)
        XCTAssertThrowsError(try ModelMapping.validate(BadMapping.self)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
        }
    }
}

/// Compiles (the names are not literals the macro can check) and fails at first use.
@JSONModel
struct BadMapping {
    var a: Int = 0
    static let mapping = ModelMapping(ignored: [String("b")])
}

// Hooks, transformers, key strategies and lossy collections: the same ModelMapping rules.

@JSONModel
struct Event: JSONDecodingHooks, Equatable {
    let eventName: String
    let when: Date
    let counts: [Int]
    var label: String = ""
    static let mapping = ModelMapping(keyStrategy: .snakeCase, transformers: ["when": .date(format: "yyyy-MM-dd'T'HH:mm:ss'Z'")], lossy: ["counts"])

    static func willDecode(_ object: JSONObject) throws -> JSONObject {
        var object = object
        if object["event_name"] == nil { object["event_name"] = "unnamed" }
        return object
    }

    mutating func didDecode(from object: JSONObject) throws {
        // The lets are set when didDecode runs.
        guard !eventName.isEmpty else { throw HookFailure() }
        label = eventName + "#\(counts.count)"
    }
}

struct HookFailure: Error {}

final class JSONModelRulesTests: XCTestCase {
    func testHooksTransformersStrategiesAndLossy() throws {
        let event = try Event(json: #"{"event_name": "push", "when": "2024-01-02T03:04:05Z", "counts": [1, "x", 3]}"#)
        XCTAssertEqual(event.eventName, "push")
        XCTAssertEqual(event.when, Date(timeIntervalSince1970: 1_704_164_645))
        XCTAssertEqual(event.counts, [1, 3], "lossy: the bad element is dropped")
        XCTAssertEqual(event.label, "push#2", "didDecode ran after the lets were set")
        XCTAssertEqual(try Event(json: #"{"when": "2024-01-02T03:04:05Z", "counts": []}"#).eventName, "unnamed", "willDecode's object is decoded")
        let failed = error { try Event(json: #"{"event_name": "", "when": "2024-01-02T03:04:05Z", "counts": []}"#) }
        XCTAssertEqual(failed?.kind, .validation)
        let text = try event.jsonString(options: [.sortedKeys])
        XCTAssertEqual(text, #"{"counts":[1,3],"event_name":"push","label":"push#2","when":"2024-01-02T03:04:05Z"}"#)
        XCTAssertEqual(try Event(json: text), event)
    }
}

final class JSONModelConcurrencyTests: XCTestCase {
    /// Threads racing to first use macro models (a fresh cache per round: a custom key strategy), nested in
    /// a JSONMappable model and holding one: every thread gets the same values as a decode after the race.
    func testConcurrentFirstUse() throws {
        let json = #"{"repos": [{"id": 1, "full_name": "a/b", "owner": {"login": "ann"}, "license": null}], "featured": {"id": 2, "full_name": "c/d", "owner": {"login": "bob", "id": 7}}}"#
        let expected = try Catalog(json: json)
        XCTAssertEqual(expected.featured?.owner, MacroOwner(login: "bob", id: 7))
        for round in 0..<4 {
            var custom = DecodingOptions()
            custom.keyStrategy = .custom { $0 + String(repeating: "", count: round) }
            let options = custom
            let failures = LockedFailures()
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                if (try? Catalog(json: json, options: options)) != expected { failures.add() }
                if (try? MacroAccount(json: #"{"name": "n", "tags": ["t"]}"#, options: options))?.tags != ["t"] { failures.add() }
            }
            XCTAssertEqual(failures.count, 0, "round \(round)")
        }
    }
}

/// A failure count shared by the threads of one test.
final class LockedFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.withLock { value } }
    func add() { lock.withLock { value += 1 } }
}
