import Foundation
import XCTest
@testable import ModelMapper

// The engine's path for generated models (GeneratedJSONModel, what `@JSONModel` conforms a type to),
// with models written out as the macro expands them (Tests/ModelMapperMacrosPluginTests pins that
// expansion). Here, in the target every sanitizer pass and valgrind run builds, so the slots code is
// exercised under ASan, TSan and leak checking without compiling swift-syntax there; the macro itself is
// tested in Tests/ModelMapperMacrosTests. GeneratedOwner leaves out `makeJSONModel(decodingSlots:)`, so
// the protocol's generic default is exercised too.

struct GeneratedOwner: Equatable {
    let login: String
    var id: Int = 0

    struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        var login: Swift.Optional<String> = nil
        var id: Swift.Optional<Int> = nil
        init() {
        }
    }

    static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("login", \JSONModelSlots.login, hasInitialValue: false, isLet: true),
            .init("id", \JSONModelSlots.id, hasInitialValue: true, isLet: false),
        ]
    }

    func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.login = self.login
        slots.id = self.id
        return slots
    }

    mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}

extension GeneratedOwner: ModelMapper.GeneratedJSONModel {
    init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _login = try slots.login.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("login", of: Self.self)
        self.login = _login
        self.id = slots.id.take() ?? 0
    }
}

struct GeneratedRepo: Equatable {
    let name: String
    let owners: [GeneratedOwner]
    let note: String?
    let kind = "repo"
    static let mapping = ModelMapping(keys: ["name": ["full_name", "name"]], lossy: ["owners"])

    struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        var name: Swift.Optional<String> = nil
        var owners: Swift.Optional<[GeneratedOwner]> = nil
        var note: String? = nil
        var kind: Swift.Optional<String> = nil
        init() {
        }
    }

    static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("name", \JSONModelSlots.name, hasInitialValue: false, isLet: true),
            .init("owners", \JSONModelSlots.owners, hasInitialValue: false, isLet: true),
            .init(optional: "note", \JSONModelSlots.note, isLet: true),
            .init("kind", \JSONModelSlots.kind, hasInitialValue: true, isLet: true),
        ]
    }

    static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
        var slots = JSONModelSlots()
        try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
            try decode(Swift.UnsafeMutableRawPointer(slots))
        }
        return try Self(jsonModelSlots: &slots)
    }

    func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.name = self.name
        slots.owners = self.owners
        slots.note = self.note
        slots.kind = self.kind
        return slots
    }

    mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}

extension GeneratedRepo: ModelMapper.GeneratedJSONModel {
    init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _name = try slots.name.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("name", of: Self.self)
        let _owners = try slots.owners.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("owners", of: Self.self)
        self.name = _name
        self.owners = _owners
        self.note = slots.note.take()
    }
}

final class GeneratedAccount {
    let name: String
    var plan = "free"

    struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        var name: Swift.Optional<String> = nil
        var plan: Swift.Optional<String> = nil
        init() {
        }
    }

    static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("name", \JSONModelSlots.name, hasInitialValue: false, isLet: true),
            .init("plan", \JSONModelSlots.plan, hasInitialValue: true, isLet: false),
        ]
    }

    static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
        var slots = JSONModelSlots()
        try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
            try decode(Swift.UnsafeMutableRawPointer(slots))
        }
        return try Self(jsonModelSlots: &slots)
    }

    func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.name = self.name
        slots.plan = self.plan
        return slots
    }

    func updateJSONModel(from slots: inout JSONModelSlots) throws {
        if let value = slots.plan.take() {
            self.plan = value
        }
    }

    init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _name = try slots.name.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("name", of: Self.self)
        self.name = _name
        self.plan = slots.plan.take() ?? "free"
    }
}

extension GeneratedAccount: ModelMapper.GeneratedJSONModel {
}

/// A generated model with a generated struct in a slot (a slot whose codec merges in place).
struct GeneratedTeam: Equatable {
    let lead: GeneratedOwner

    struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        var lead: Swift.Optional<GeneratedOwner> = nil
        init() {
        }
    }

    static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [.init("lead", \JSONModelSlots.lead, hasInitialValue: false, isLet: true)]
    }

    func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.lead = self.lead
        return slots
    }

    mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}

extension GeneratedTeam: ModelMapper.GeneratedJSONModel {
    init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _lead = try slots.lead.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("lead", of: Self.self)
        self.lead = _lead
    }
}

/// GeneratedTeam's reflected twin.
private struct ReflectedTeam: JSONMappable {
    struct Owner: JSONMappable, Equatable {
        var login = ""
        var id = 0
        static let mapping = ModelMapping(required: ["login"])
    }
    var lead = Owner()
}

/// A reflected model holding generated ones.
private struct GeneratedHolder: JSONMappable {
    var repos: [GeneratedRepo] = []
    var account: GeneratedAccount? = nil
    var byKey: [String: GeneratedOwner] = [:]
}

final class GeneratedModelTests: XCTestCase {
    private static let repoJSON = #"{"full_name": "a/b", "owners": [{"login": "ann", "id": 1}, {"id": 2}, {"login": "bob"}], "note": null, "kind": "x"}"#

    func testDecodesThroughSlotsAndEncodesBack() throws {
        let repo = try GeneratedRepo(json: Self.repoJSON)
        XCTAssertEqual(repo.name, "a/b")
        XCTAssertEqual(repo.owners, [GeneratedOwner(login: "ann", id: 1), GeneratedOwner(login: "bob")], "lossy: the element missing login is dropped")
        XCTAssertNil(repo.note)
        XCTAssertEqual(repo.kind, "repo")
        XCTAssertEqual(try repo.jsonString(options: [.sortedKeys]),
                       #"{"full_name":"a/b","kind":"repo","owners":[{"id":1,"login":"ann"},{"id":0,"login":"bob"}]}"#)
        let missing = try XCTUnwrap(catching { try GeneratedRepo(json: #"{"owners": []}"#) })
        XCTAssertEqual(missing.kind, .missingKey)
        XCTAssertEqual(missing.path, "name")
        XCTAssertEqual(missing.offset, 0)
    }

    func testForgivenRequiredValueIsAnErrorNotADefault() throws {
        // With an invalid-value handler the bad `login` is reported and the slot stays empty: the model
        // cannot be built, which is an error at the object, not a silent default.
        var options = DecodingOptions.lenient
        options.invalidValueHandler = { _ in }
        let error = try XCTUnwrap(catching { try GeneratedOwner(json: #"{"login": [1]}"#, options: options) })
        XCTAssertEqual(error.kind, .missingKey)
        XCTAssertEqual(error.path, "login")
    }

    func testClassUpdateKeepsTheInstanceAndItsLet() throws {
        let account = try GeneratedAccount(json: #"{"name": "ann"}"#)
        var same = account
        try same.update(json: #"{"name": "other", "plan": "pro"}"#)
        XCTAssertTrue(same === account)
        XCTAssertEqual(account.name, "ann")
        XCTAssertEqual(account.plan, "pro")
    }

    func testNestedInReflectedModels() throws {
        let holder = try GeneratedHolder(json: #"{"repos": [\#(Self.repoJSON)], "account": {"name": "n"}, "byKey": {"k": {"login": "z"}}}"#)
        XCTAssertEqual(holder.repos.first?.owners.count, 2)
        XCTAssertEqual(holder.account?.name, "n")
        XCTAssertEqual(holder.byKey["k"], GeneratedOwner(login: "z"))
        let again = try GeneratedHolder(json: try holder.jsonData())
        XCTAssertEqual(again.repos, holder.repos)
    }

    func testKeyGivenTwiceMergesIntoTheSlotAsReflectionMerges() throws {
        // The second `lead` finds its slot filled (the slot's own nil check says so) and merges into it, as a
        // reflected struct property merges into the value it holds: `id`, absent the second time, keeps 1
        // (replaced, it would be its initial value 0). The merged object still needs its required keys.
        let json = #"{"lead": {"login": "ann", "id": 1}, "lead": {"login": "bob"}}"#
        let team = try GeneratedTeam(json: json)
        let twin = try ReflectedTeam(json: json)
        XCTAssertEqual(team.lead, GeneratedOwner(login: "bob", id: 1))
        XCTAssertEqual(twin.lead, ReflectedTeam.Owner(login: "bob", id: 1))
        let partial = #"{"lead": {"login": "ann", "id": 1}, "lead": {"id": 2}}"#
        let missing = try XCTUnwrap(catching { try GeneratedTeam(json: partial) })
        let twinMissing = try XCTUnwrap(catching { try ReflectedTeam(json: partial) })
        XCTAssertEqual(missing.kind, .missingKey)
        XCTAssertEqual(missing.path, "lead.login")
        XCTAssertEqual(missing.kind, twinMissing.kind)
        XCTAssertEqual(missing.path, twinMissing.path)
        XCTAssertEqual(missing.offset, twinMissing.offset)
        var updated = team
        try updated.update(json: #"{"lead": {"login": "cy"}}"#)
        XCTAssertEqual(updated.lead, GeneratedOwner(login: "cy", id: 1))
    }

    func testConcurrentFirstUse() {
        // A fresh cache per round (a custom key strategy), so every round builds the metas concurrently.
        for round in 0..<4 {
            var custom = DecodingOptions()
            custom.keyStrategy = .custom { $0 == "name" ? "full_name" : $0 + String(repeating: "", count: round) }
            let options = custom
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                XCTAssertEqual(try? GeneratedRepo(json: Self.repoJSON, options: options).owners.count, 2)
                XCTAssertEqual(try? GeneratedAccount(json: #"{"full_name": "a"}"#, options: options).name, "a")
            }
        }
    }

    #if DEBUG
    /// Metadata built by threads racing to first use models (generated ones, and a reflected one holding
    /// them) under a custom key strategy, decoding and encoding, goes with the strategy: the winners' metas
    /// with its caches, the losers' with their build sessions, each with its raw buffers (key tables,
    /// property slots, encoding plans). Before: the metas went but their buffers stayed allocated, a leak
    /// per strategy made (one per request on a server making one per request) that valgrind reported
    /// as "definitely lost" and no weak reference could show. Debug builds count those buffers.
    func testMetadataOfConcurrentFirstUsesIsFreedWithTheStrategy() throws {
        let holderJSON = #"{"repos": [\#(Self.repoJSON)], "account": {"full_name": "n"}, "byKey": {"k": {"login": "z"}}}"#
        // The shared cache's metas of these types are built first: they stay, as they should.
        _ = try GeneratedHolder(json: holderJSON.replacingOccurrences(of: #"{"full_name": "n"}"#, with: #"{"name": "n"}"#)).jsonData()
        let before = MetadataBuffers.alive
        var built = 0
        for round in 0..<12 {
            let strategy = KeyStrategy.custom { $0 == "name" ? "full_name" : $0 + String(repeating: "", count: round) }
            var options = DecodingOptions()
            options.keyStrategy = strategy
            let decoding = options
            let counts = LockedCounter()
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                guard let holder = try? GeneratedHolder(json: holderJSON, options: decoding),
                      let again = try? GeneratedHolder(json: holder.jsonData(options: .keys(strategy)), options: decoding),
                      again.repos == holder.repos, again.account?.name == "n", again.byKey["k"]?.login == "z"
                else { return }
                counts.increment()
            }
            XCTAssertEqual(counts.value, 6, "round \(round): a decode or a round trip failed")
            built = max(built, MetadataBuffers.alive - before)
        }
        XCTAssertGreaterThan(built, 0, "the rounds built metadata of their own")
        XCTAssertEqual(MetadataBuffers.alive, before, "metadata buffers of freed strategies still allocated")
    }
    #endif
}

private func catching(_ body: () throws -> Any) -> MappingError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? MappingError
    }
}
