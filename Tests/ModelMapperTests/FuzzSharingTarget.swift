// The sharing fuzz targets (issue 36, points 1 and 7): nested class models and concurrent decodes of the
// same types from two threads in one process.
//
// Compiled like FuzzRegressionTests.swift, which calls `sharing(_:_:)` from its mapping target and
// `codableSharing(_:_:)` from its Codable target: into the test target as is, and into the fuzzer with
// `-D FUZZING` (scripts/fuzz lists this file).
//
// What they check, for every input:
// - Mapping (`FZProfile`: a final class model nested in a struct, class defaults shared by every value
//   through `static let` — `FZSettings.standard`, and `FZPrefs.shared`, a class whose own default is
//   `FZSettings.standard` — arrays, dictionaries and optionals of class models): decoding never writes into
//   a shared default (their contents are checked after every phase); decoding the same input twice gives
//   equal results whose nested class instances are distinct objects (a shared default is kept only where
//   the key is absent); `update(json:)` merges into the instances the value holds (same objects after it).
// - Concurrency: the same input decoded on two threads at once (this one and a long-lived partner thread,
//   started together) gives, on both, the result of the single-threaded decode (the same value or the same
//   error kind, path and offset): `FZProfile`, `FZAll` and `FZCanvas` (polymorphic classes) with the
//   lenient options, and for every 4th input `JSONLines.decodeAll(workers: 2)` from both threads (two
//   callers sharing `DecodingThreads`).
// - Codable (`FZCProfile`, a Codable struct holding class instances; `FZCHolder`, a `JSONCodable` struct
//   whose class default is shared): ModelDecoder on two threads at once agrees with itself single-threaded,
//   and the shared default is never written. `FZCProfile` is also compared with JSONDecoder by the Codable
//   target (FuzzCodableTarget.swift).

#if !FUZZING
@testable import ModelMapper
#endif
import Foundation

// MARK: - Mapping models with class defaults

/// A class model whose default instance is shared by every value holding it.
final class FZSettings: JSONMappable {
    var theme = "light"
    var user = ""
    var level = 0
    var tags: [String] = []
    required init() {}
    nonisolated(unsafe) static let standard = FZSettings()   // only read: that is what the target checks
}

/// A class model whose own default (`settings`) is a shared class instance, itself shared as a default.
final class FZPrefs: JSONMappable {
    var lang = "en"
    var settings = FZSettings.standard
    var extra: FZSettings? = nil
    required init() {}
    nonisolated(unsafe) static let shared = FZPrefs()
}

struct FZProfile: JSONMappable {
    var name = ""
    var settings = FZSettings.standard
    var prefs = FZPrefs.shared
    /// A final class model nested in a struct: one instance per value.
    var own = FZSettings()
    var list: [FZSettings] = []
    var byKey: [String: FZPrefs] = [:]
    var maybe: FZPrefs? = nil
}

// MARK: - Codable models holding classes

final class FZCSettings: Codable {
    var theme: String
    var level: Int?
    var tags: [String]?
    var inner: FZCInner?
}

/// A Codable struct holding class instances.
struct FZCProfile: Codable {
    var name: String?
    var settings: FZCSettings?
    var list: [FZCSettings]?
    var byKey: [String: FZCSettings]?
}

/// A `JSONCodable` class model whose default instance is shared.
final class FZCShared: JSONCodable {
    var theme = "dark"
    var level = 0
    required init() {}
    nonisolated(unsafe) static let standard = FZCShared()
}

/// A `JSONCodable` struct holding the shared default (decoded through the Codable bridge).
struct FZCHolder: JSONCodable {
    var name = ""
    var shared = FZCShared.standard
    var list: [FZCShared] = []
}

/// A plain Codable struct holding a `JSONCodable` model.
struct FZCWrapper: Codable {
    var id: Int?
    var holder: FZCHolder?
}

// MARK: - Two threads

/// A long-lived second thread: `both(_:)` runs a body on it and on the calling thread at the same time.
final class FZPartnerThread: @unchecked Sendable {
    static let shared = FZPartnerThread()

    // `job` is written before `go` is signalled and read after it is waited for; `finished` orders the
    // partner's writes before the caller's reads.
    private let go = DispatchSemaphore(value: 0)
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var job: (() -> Void)?

    private init() {
        let thread = Thread { [self] in
            while true {
                go.wait()
                started.signal()
                job?()
                job = nil
                finished.signal()
            }
        }
        thread.name = "fuzz.partner"
        thread.stackSize = 64 << 20   // as deep as the main thread's decodes (ASan frames are large)
        thread.start()
    }

    /// `body()` on the partner thread and on this one, started together; (this thread's, the partner's).
    func both<R>(_ body: @escaping () -> R) -> (R, R) {
        let theirs = FuzzTargets.Box<R?>(nil)
        job = { theirs.value = body() }
        go.signal()
        started.wait()
        let mine = body()
        finished.wait()
        return (mine, theirs.value!)
    }
}

// MARK: - The targets

extension FuzzTargets {
    /// The shared defaults' contents, rendered (they must never change).
    static func sharedDefaults() -> String {
        let s = FZSettings.standard, p = FZPrefs.shared, c = FZCShared.standard
        return "standard \(s.theme)|\(s.user)|\(s.level)|\(s.tags); shared \(p.lang)|\(p.settings === s)|"
            + "\(p.extra.map { ObjectIdentifier($0) } as Any); FZCShared \(c.theme)|\(c.level)"
    }

    static let pristineDefaults = sharedDefaults()

    static func checkDefaults(_ name: String) throws(FuzzFailure) {
        let now = sharedDefaults()
        if now != pristineDefaults {
            throw FuzzFailure("\(name) wrote into a shared class default: \(now), was \(pristineDefaults)")
        }
    }

    /// A decode's outcome, comparable across threads: the value, or the error's kind, path and offset.
    enum Decoded<T> {
        case value(T)
        case error(String)
    }

    static func decoded<T>(_ body: () throws -> T) -> Decoded<T> {
        do {
            return .value(try body())
        } catch let error as MappingError {
            return .error("MappingError \(error.kind) at \(error.path.debugDescription) offset \(error.offset as Any)")
        } catch let error as DecodingError {
            return .error("DecodingError \(caseName(error)) at \(renderedPath(error).debugDescription)")
        } catch {
            return .error("\(type(of: error)): \(error)")
        }
    }

    /// `a` and `b` are the same outcome (nil), or how they differ.
    static func outcomeDiff<T>(_ a: Decoded<T>, _ b: Decoded<T>, largeStack: Bool = false) -> String? {
        switch (a, b) {
        case (.value(let x), .value(let y)):
            // The Codable types nest deeper than the reflection-based comparison can walk on a normal stack.
            return largeStack ? onLargeStack { deepDiff(x, y, "", 0) } : deepDiff(x, y, "", 0)
        case (.error(let x), .error(let y)): return x == y ? nil : "\(x) vs \(y)"
        case (.value, .error(let y)): return "decoded vs \(y)"
        case (.error(let x), .value): return "\(x) vs decoded"
        }
    }

    /// Decodes with `body` single-threaded, then on two threads at once: both must give the first outcome.
    static func concurrently<T>(_ name: String, largeStack: Bool = false,
                                _ body: @escaping () -> Decoded<T>) throws(FuzzFailure) -> Decoded<T> {
        let single = body()
        let (mine, theirs) = FZPartnerThread.shared.both(body)
        if let diff = outcomeDiff(single, mine, largeStack: largeStack) {
            throw FuzzFailure("\(name): two threads at once, this one: \(diff)")
        }
        if let diff = outcomeDiff(single, theirs, largeStack: largeStack) {
            throw FuzzFailure("\(name): two threads at once, the other one: \(diff)")
        }
        return single
    }

    /// The nested-class and two-thread checks of the mapping target.
    static func sharing(_ bytes: [UInt8], seed: UInt64, _ outcomes: inout [String: String]) throws(FuzzFailure) {
        for (optionsName, options) in [("lenient", DecodingOptions.lenient), ("strict", .strict)] {
            let name = "FZProfile.\(optionsName)"
            let first = decoded { try FZProfile(json: bytes, options: options) }
            try checkDefaults(name)
            let second = decoded { try FZProfile(json: bytes, options: options) }
            try checkDefaults(name)
            if let diff = outcomeDiff(first, second) { throw FuzzFailure("\(name): decoded twice, differently: \(diff)") }
            guard case .value(let a) = first, case .value(let b) = second else {
                if case .error(let e) = first { outcomes[name] = e }
                continue
            }
            outcomes[name] = "ok"
            try distinctInstances(a, b, name)
            if optionsName == "lenient" { try updateMerges(bytes, name) }
        }

        // Two threads at once.
        _ = try concurrently("FZProfile.lenient") { decoded { try FZProfile(json: bytes) } }
        try checkDefaults("FZProfile on two threads")
        _ = try concurrently("FZAll.lenient") { decoded { try FZAll(json: bytes) } }
        _ = try concurrently("FZCanvas.lenient") { decoded { try FZCanvas(json: bytes) } }
        _ = try concurrently("[FZProfile].lenient") { decoded { try [FZProfile](json: bytes) } }
        try checkDefaults("[FZProfile] on two threads")
        if seed % 4 == 1 {
            _ = try concurrently("decodeAll(workers: 2)") { () -> Decoded<String> in
                decoded {
                    let rejected = Box<[String]>([])
                    let records = try JSONLines<FZRecord>.decodeAll(bytes, workers: 2,
                                                                    onError: .skip { rejected.value.append("\($0)") })
                    return "\(records) rejected \(rejected.value)"
                }
            }
        }
    }

    /// Two decodes of one document share no class instance, except a default kept where the key is absent.
    private static func distinctInstances(_ a: FZProfile, _ b: FZProfile, _ name: String) throws(FuzzFailure) {
        func check(_ x: AnyObject, _ y: AnyObject, _ what: String, sharedDefault: AnyObject?) throws(FuzzFailure) {
            if x === y && x !== sharedDefault {
                throw FuzzFailure("\(name): two decodes share the instance at \(what)")
            }
        }
        try check(a.settings, b.settings, "settings", sharedDefault: FZSettings.standard)
        try check(a.prefs, b.prefs, "prefs", sharedDefault: FZPrefs.shared)
        try check(a.prefs.settings, b.prefs.settings, "prefs.settings", sharedDefault: FZSettings.standard)
        try check(a.own, b.own, "own", sharedDefault: nil)
        for (x, y) in zip(a.list, b.list) { try check(x, y, "list[]", sharedDefault: nil) }
        for (key, x) in a.byKey {
            if let y = b.byKey[key] {
                try check(x, y, "byKey.\(key)", sharedDefault: nil)
                try check(x.settings, y.settings, "byKey.\(key).settings", sharedDefault: FZSettings.standard)
            }
        }
        if let x = a.maybe, let y = b.maybe { try check(x, y, "maybe", sharedDefault: nil) }
    }

    /// `update(json:)` merges into the instances the value holds (its own, not the shared defaults).
    private static func updateMerges(_ bytes: [UInt8], _ name: String) throws(FuzzFailure) {
        var value = FZProfile()
        let settings = FZSettings(), prefs = FZPrefs(), prefsSettings = FZSettings(), own = value.own
        prefs.settings = prefsSettings
        value.settings = settings
        value.prefs = prefs
        do {
            try value.update(json: bytes)
        } catch {
            try checkDefaults("update \(name)")
            return
        }
        try checkDefaults("update \(name)")
        if value.settings !== settings || value.prefs !== prefs || value.prefs.settings !== prefsSettings || value.own !== own {
            throw FuzzFailure("update \(name): replaced an instance the value held instead of merging into it")
        }
    }

    /// The nested-class and two-thread checks of the Codable target.
    static func codableSharing(_ bytes: [UInt8], _ outcomes: inout [String: String]) throws(FuzzFailure) {
        let profile = try concurrently("Codable FZCProfile on two threads", largeStack: true) {
            decoded { try ModelDecoder().decode(FZCProfile.self, from: bytes) }
        }
        if case .value(let a) = profile,
           case .value(let b) = decoded({ try ModelDecoder().decode(FZCProfile.self, from: bytes) }) {
            if let x = a.settings, let y = b.settings, x === y {
                throw FuzzFailure("Codable FZCProfile: two decodes share settings")
            }
        }
        let wrapper = try concurrently("Codable FZCWrapper on two threads", largeStack: true) {
            decoded { try ModelDecoder().decode(FZCWrapper.self, from: bytes) }
        }
        try checkDefaults("Codable FZCWrapper")
        switch wrapper {
        case .value: outcomes["Codable FZCWrapper"] = "ok"
        case .error(let e): outcomes["Codable FZCWrapper"] = e
        }
        // JSONDecoder through FZCHolder's Codable conformance (from its mapping): the same value when both decode.
        if case .value(let ours) = wrapper, foundationComparable(bytes), !hasDuplicateKeys(bytes),
           let theirs = try? JSONDecoder().decode(FZCWrapper.self, from: Data(bytes)) {
            try checkDefaults("JSONDecoder FZCWrapper")
            if let diff = onLargeStack({ deepDiff(ours, theirs, "", 0) }) {
                throw FuzzFailure("Codable FZCWrapper: ModelDecoder and JSONDecoder decode differently: \(diff)")
            }
        }
        try checkDefaults("JSONDecoder FZCWrapper")
    }
}
