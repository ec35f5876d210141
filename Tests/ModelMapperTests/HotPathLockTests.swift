import CModelMapperLockCounter
import Foundation
import XCTest
@testable import ModelMapper

// After a type's first use, decoding and encoding take no lock: every process-wide cache on the way (model
// metas, key-strategy variants, the Codable path's type facts and key names) is read without one, and
// every per-decoding state (the tokenizer, the Codable decoding state) is the thread's spare (issue #36).
//
// Counted two ways: `CacheLock.acquisitions` (every cache lock of the library increments it), and every
// mutex the process takes, by the CLockCounter target, which interposes the pthread lock functions (NSLock,
// NSCondition, the Swift runtime's locks and the library's own pthread mutexes all go through them). It
// cannot see Synchronization.Mutex (futexes, no pthread call): `testTheLibraryUsesNoLockTheCounterMisses`
// keeps such locks out of the library. Also counted: decoding states and tokenizers made.

private struct Counts: Equatable, CustomStringConvertible {
    var cacheLocks = 0
    var mutexes = 0
    var decodingStates = 0
    var tokenizers = 0

    static func now() -> Counts {
        Counts(cacheLocks: CacheLock.acquisitions, mutexes: clock_counter_process_total(),
               decodingStates: TapeDecodingState.made, tokenizers: Tokenizer.made)
    }

    static func - (a: Counts, b: Counts) -> Counts {
        Counts(cacheLocks: a.cacheLocks - b.cacheLocks, mutexes: a.mutexes - b.mutexes,
               decodingStates: a.decodingStates - b.decodingStates, tokenizers: a.tokenizers - b.tokenizers)
    }

    var description: String {
        "cache locks \(cacheLocks), mutexes \(mutexes), decoding states \(decodingStates), tokenizers \(tokenizers)"
    }
}

private struct HotUser: JSONMappable, Codable, Equatable {
    var userID = 0
    var displayName = ""
    var tags: [String] = []
    var address = HotAddress()
}

private struct HotAddress: JSONMappable, Codable, Equatable {
    var streetName = ""
    var zip = ""
}

/// Plain Codable types (not mapped) for the Codable decoder's key strategy.
private struct HotSnakeUser: Codable {
    var displayName: String
    var tags: [String]
    var address: HotSnakeAddress
}

private struct HotSnakeAddress: Codable {
    var streetName: String
    var zip: String
}

/// A mapped model with a `Decodable` (not mapped) field, and a Codable value holding it.
private struct HotPoint: Codable, Equatable {
    var x = 0
    var y = 0
}

private struct HotMixedModel: JSONMappable, Codable {
    var name = ""
    var point = HotPoint()
}

private struct HotMixedOuter: Codable {
    var id = 0
    var model = HotMixedModel()
    var models: [HotMixedModel] = []
}

/// A Codable document with more distinct types than the Codable path's 32-slot per-decoding memo holds:
/// some types miss it on every decode and go to the process-wide table.
private struct ManyTypes: Codable {
    var f0 = Leaf0()
    var f1 = Leaf1()
    var f2 = Leaf2()
    var f3 = Leaf3()
    var f4 = Leaf4()
    var f5 = Leaf5()
    var f6 = Leaf6()
    var f7 = Leaf7()
    var f8 = Leaf8()
    var f9 = Leaf9()
    var f10 = Leaf10()
    var f11 = Leaf11()
    var f12 = Leaf12()
    var f13 = Leaf13()
    var f14 = Leaf14()
    var f15 = Leaf15()
    var f16 = Leaf16()
    var f17 = Leaf17()
    var f18 = Leaf18()
    var f19 = Leaf19()
    var f20 = Leaf20()
    var f21 = Leaf21()
    var f22 = Leaf22()
    var f23 = Leaf23()
    var f24 = Leaf24()
    var f25 = Leaf25()
    var f26 = Leaf26()
    var f27 = Leaf27()
    var f28 = Leaf28()
    var f29 = Leaf29()
    var f30 = Leaf30()
    var f31 = Leaf31()
    var f32 = Leaf32()
    var f33 = Leaf33()
    var f34 = Leaf34()
    var f35 = Leaf35()
    var f36 = Leaf36()
    var f37 = Leaf37()
    var f38 = Leaf38()
    var f39 = Leaf39()
    var user = HotUser()
}
private struct Leaf0: Codable { var v0 = 0 }
private struct Leaf1: Codable { var v1 = 0 }
private struct Leaf2: Codable { var v2 = 0 }
private struct Leaf3: Codable { var v3 = 0 }
private struct Leaf4: Codable { var v4 = 0 }
private struct Leaf5: Codable { var v5 = 0 }
private struct Leaf6: Codable { var v6 = 0 }
private struct Leaf7: Codable { var v7 = 0 }
private struct Leaf8: Codable { var v8 = 0 }
private struct Leaf9: Codable { var v9 = 0 }
private struct Leaf10: Codable { var v10 = 0 }
private struct Leaf11: Codable { var v11 = 0 }
private struct Leaf12: Codable { var v12 = 0 }
private struct Leaf13: Codable { var v13 = 0 }
private struct Leaf14: Codable { var v14 = 0 }
private struct Leaf15: Codable { var v15 = 0 }
private struct Leaf16: Codable { var v16 = 0 }
private struct Leaf17: Codable { var v17 = 0 }
private struct Leaf18: Codable { var v18 = 0 }
private struct Leaf19: Codable { var v19 = 0 }
private struct Leaf20: Codable { var v20 = 0 }
private struct Leaf21: Codable { var v21 = 0 }
private struct Leaf22: Codable { var v22 = 0 }
private struct Leaf23: Codable { var v23 = 0 }
private struct Leaf24: Codable { var v24 = 0 }
private struct Leaf25: Codable { var v25 = 0 }
private struct Leaf26: Codable { var v26 = 0 }
private struct Leaf27: Codable { var v27 = 0 }
private struct Leaf28: Codable { var v28 = 0 }
private struct Leaf29: Codable { var v29 = 0 }
private struct Leaf30: Codable { var v30 = 0 }
private struct Leaf31: Codable { var v31 = 0 }
private struct Leaf32: Codable { var v32 = 0 }
private struct Leaf33: Codable { var v33 = 0 }
private struct Leaf34: Codable { var v34 = 0 }
private struct Leaf35: Codable { var v35 = 0 }
private struct Leaf36: Codable { var v36 = 0 }
private struct Leaf37: Codable { var v37 = 0 }
private struct Leaf38: Codable { var v38 = 0 }
private struct Leaf39: Codable { var v39 = 0 }

final class HotPathLockTests: XCTestCase {
    private let snakeJSON = #"{"user_id":7,"display_name":"Ann","tags":["a","b"],"address":{"street_name":"Main","zip":"1"}}"#
    private let plainJSON = #"{"userID":7,"displayName":"Ann","tags":["a"],"address":{"streetName":"Main","zip":"1"}}"#
    private let mixedModelJSON = #"{"name":"a","point":{"x":1,"y":2}}"#
    private let mixedOuterJSON = #"{"id":1,"model":{"name":"a","point":{"x":1,"y":2}},"# +
        #""models":[{"name":"b","point":{"x":3,"y":4}},{"name":"c","point":{"x":5,"y":6}}]}"#
    private let manyTypesJSON = "{\"f0\":{\"v0\":0},\"f1\":{\"v1\":1},\"f2\":{\"v2\":2},\"f3\":{\"v3\":3},\"f4\":{\"v4\":4},\"f5\":{\"v5\":5},\"f6\":{\"v6\":6},\"f7\":{\"v7\":7},\"f8\":{\"v8\":8},\"f9\":{\"v9\":9},\"f10\":{\"v10\":10},\"f11\":{\"v11\":11},\"f12\":{\"v12\":12},\"f13\":{\"v13\":13},\"f14\":{\"v14\":14},\"f15\":{\"v15\":15},\"f16\":{\"v16\":16},\"f17\":{\"v17\":17},\"f18\":{\"v18\":18},\"f19\":{\"v19\":19},\"f20\":{\"v20\":20},\"f21\":{\"v21\":21},\"f22\":{\"v22\":22},\"f23\":{\"v23\":23},\"f24\":{\"v24\":24},\"f25\":{\"v25\":25},\"f26\":{\"v26\":26},\"f27\":{\"v27\":27},\"f28\":{\"v28\":28},\"f29\":{\"v29\":29},\"f30\":{\"v30\":30},\"f31\":{\"v31\":31},\"f32\":{\"v32\":32},\"f33\":{\"v33\":33},\"f34\":{\"v34\":34},\"f35\":{\"v35\":35},\"f36\":{\"v36\":36},\"f37\":{\"v37\":37},\"f38\":{\"v38\":38},\"f39\":{\"v39\":39},\"user\":{\"userID\":3,\"address\":{\"zip\":\"9\"}}}"

    /// Runs `body` three times to build what it needs, then counts what `runs` more runs take. (The first
    /// runs on a thread fill its spares: a nested decoding's new state may first go back to the outer
    /// level and the levels settle a run later; and a key type's first container instantiates generic
    /// metadata, under the Swift runtime's lock, once per key type.)
    private func countsAfterFirstUse(runs: Int = 20, _ body: () throws -> Void) rethrows -> Counts {
        for _ in 0..<3 { try body() }
        let tracing = ProcessInfo.processInfo.environment["MODELMAPPER_TRACE_LOCKS"] != nil
        let before = Counts.now()
        if tracing { clock_counter_trace(1) }
        defer { if tracing { clock_counter_trace(0) } }
        for _ in 0..<runs { try body() }
        return Counts.now() - before
    }

    /// `countsAfterFirstUse` expecting nothing taken or made (mutexes only where the counter works).
    private func assertNothingTakenAfterFirstUse(_ name: String, file: StaticString = #filePath, line: UInt = #line,
                                                 _ body: () throws -> Void) throws {
        let counts = try countsAfterFirstUse(body)
        XCTAssertEqual(counts.cacheLocks, 0, "\(name): \(counts)", file: file, line: line)
        if clock_counter_available() != 0 {
            XCTAssertEqual(counts.mutexes, 0, "\(name): \(counts)", file: file, line: line)
        }
        XCTAssertEqual(counts.decodingStates, 0, "\(name): \(counts)", file: file, line: line)
        XCTAssertEqual(counts.tokenizers, 0, "\(name): \(counts)", file: file, line: line)
    }

    func testModelDecodeAndEncodeTakeNoLockAfterFirstUse() throws {
        try assertNothingTakenAfterFirstUse("mapped") {
            let user = try HotUser(json: plainJSON)
            XCTAssertEqual(user.address.streetName, "Main")
            _ = try user.jsonData()
            _ = try [HotUser](json: "[\(plainJSON)]")
        }
    }

    /// A mapped model with a `Decodable` field decodes the field with the Codable decoder (a decoding state
    /// per decode, the thread's spare).
    func testMappedModelWithDecodableFieldTakesNoLockAfterFirstUse() throws {
        try assertNothingTakenAfterFirstUse("mapped with a Decodable field") {
            let model = try HotMixedModel(json: mixedModelJSON)
            XCTAssertEqual(model.point, HotPoint(x: 1, y: 2))
        }
    }

    func testKeyStrategyVariantsTakeNoLockAfterFirstUse() throws {
        var snake = DecodingOptions.lenient
        snake.keyStrategy = .snakeCase
        var folded = DecodingOptions.lenient
        folded.caseInsensitiveKeys = true
        try assertNothingTakenAfterFirstUse("key strategies") {
            let user = try HotUser(json: snakeJSON, options: snake)
            XCTAssertEqual(user.displayName, "Ann")
            _ = try HotUser(json: plainJSON.lowercased(), options: folded)
            _ = try user.jsonData(options: [.sortedKeys, .keys(.kebabCase)])
        }
    }

    /// A `.custom` key strategy made once and reused finds its variant without a lock (it took the
    /// variants' lock on every decode and encode).
    func testCustomKeyStrategyTakesNoLockAfterFirstUse() throws {
        let prefix = "x_"
        var custom = DecodingOptions.lenient
        custom.keyStrategy = .custom { prefix + $0 }
        var encoding = EncodingOptions()
        encoding.keyStrategy = .custom { prefix + $0 }
        let json = #"{"x_userID":7,"x_displayName":"Ann","x_tags":[],"x_address":{"x_streetName":"Main","x_zip":"1"}}"#
        try assertNothingTakenAfterFirstUse("custom key strategy") {
            let user = try HotUser(json: json, options: custom)
            XCTAssertEqual(user.address.streetName, "Main")
            _ = try user.jsonData(options: encoding)
        }
    }

    func testCodablePathTakesNoLockAfterFirstUse() throws {
        try assertNothingTakenAfterFirstUse("Codable") {
            let value = try ModelDecoder().decode(ManyTypes.self, from: manyTypesJSON)
            XCTAssertEqual(value.f39.v39, 39)
            XCTAssertEqual(value.user.userID, 3)
            _ = try ModelEncoder().encode(value)
        }
    }

    /// The Codable decoder's key strategy (JSONDecoder's `keyDecodingStrategy`).
    func testCodableKeyStrategyTakesNoLockAfterFirstUse() throws {
        var decoder = ModelDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        try assertNothingTakenAfterFirstUse("Codable key strategy") {
            let user = try decoder.decode(HotSnakeUser.self, from: snakeJSON)
            XCTAssertEqual(user.address.streetName, "Main")
        }
    }

    /// A Codable value holding a mapped model that has a `Decodable` field: the field's decoding is nested
    /// in the outer one on the same thread, and reuses the thread's second spare decoding state (it took
    /// the kept states' lock and made a new state on every decode: issue #36, point 2).
    func testCodableHoldingMappedHoldingDecodableTakesNoLockAfterFirstUse() throws {
        try assertNothingTakenAfterFirstUse("mixed") {
            let value = try ModelDecoder().decode(HotMixedOuter.self, from: mixedOuterJSON)
            XCTAssertEqual(value.model.point, HotPoint(x: 1, y: 2))
            XCTAssertEqual(value.models.last?.point, HotPoint(x: 5, y: 6))
        }
    }

    func testJSONLinesTakeNoLockAfterFirstUse() throws {
        let lines = Array((0..<8).map { _ in plainJSON }.joined(separator: "\n").utf8)
        try assertNothingTakenAfterFirstUse("JSON Lines, sequential") {
            var count = 0
            try JSONLines<HotUser>(bytes: lines).forEach { user in
                XCTAssertEqual(user.userID, 7)
                count += 1
            }
            XCTAssertEqual(count, 8)
        }
        try assertNothingTakenAfterFirstUse("JSON Lines, decodeAll on one worker") {
            XCTAssertEqual(try JSONLines<HotUser>.decodeAll(lines, workers: 1).count, 8)
        }
        // A document decoded in the reader's loop takes the thread's second spare tokenizer (the reader's
        // record decoder holds the first).
        try assertNothingTakenAfterFirstUse("JSON Lines with a document decoded per record") {
            try JSONLines<HotUser>(bytes: lines).forEach { user in
                XCTAssertEqual(try HotUser(json: plainJSON).userID, user.userID)
            }
        }
        // Two workers on a small input: one group per pass (counting lines, then decoding), which the
        // calling thread runs itself, handed over through the pool's monitor (a pthread mutex): per pass
        // submit, finish, runWorker ×2, next ×2, cancel and close, 8 locks. (Larger inputs hand groups to
        // the shared decoding threads through the same monitor: a few locks per group, and waits.) The
        // record decoders of both workers take the calling thread's two spare tokenizers.
        let twoWorkers = try countsAfterFirstUse {
            XCTAssertEqual(try JSONLines<HotUser>.decodeAll(lines, workers: 2).count, 8)
        }
        let counted = clock_counter_available() != 0
        XCTAssertEqual(twoWorkers, Counts(mutexes: counted ? 2 * 8 * 20 : 0), "JSON Lines, decodeAll on two workers")
    }

    func testTheCounterSeesAFirstUse() throws {
        struct NeverUsedBefore: JSONMappable { var a = 0 }
        let before = CacheLock.acquisitions
        _ = try NeverUsedBefore(json: #"{"a":1}"#)
        XCTAssertGreaterThan(CacheLock.acquisitions, before, "a first use publishes under a cache lock")
    }

    /// The interposed counter sees Foundation's locks (NSLock is a pthread mutex on Linux).
    func testTheMutexCounterSeesNSLock() throws {
        guard clock_counter_available() != 0 else {
            throw XCTSkip("the pthread lock functions are not interposed here (not glibc, or under a sanitizer)")
        }
        let lock = NSLock()
        let before = clock_counter_thread_total()
        for _ in 0..<3 {
            lock.lock()
            lock.unlock()
        }
        XCTAssertEqual(clock_counter_thread_total() - before, 3)
    }

    /// Synchronization.Mutex and libdispatch's locks wait on futexes without a pthread call, so the mutex
    /// counter would not see them: the library's sources use neither (its locks are NSLock, CacheLock and
    /// the worker pool's pthread mutex).
    func testTheLibraryUsesNoLockTheCounterMisses() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ModelMapper")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        XCTAssertGreaterThan(files.count, 50)
        for file in files {
            let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
            for unseen in ["Mutex<", "Mutex(", "os_unfair_lock", "DispatchQueue", "DispatchSemaphore", "import Dispatch"] {
                XCTAssertFalse(code.contains(unseen),
                               "\(file.lastPathComponent) uses \(unseen), which the mutex counter does not see")
            }
        }
    }
}
