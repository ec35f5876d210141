// Test support shared by every test file: the one helper that expects a `MappingError`, the one place
// that finds the test data, and the locked values that threads and tasks of a test share.
//
// The test data, by the rule the benchmarks (Benchmarks/Runner/main.swift), scripts/fuzz, scripts/counts and
// scripts/gen-jsonl follow too: the default data sets (bench/{twitter,citm_catalog,canada,github_events}.json,
// yymodel/{user,weibo}.json, JSONTestSuite/test_parsing/) are in the repository's `data/` folder; the optional
// large corpora (the other simdjson files, ndjson/) are read from `$MODELMAPPER_DATA` only, and what needs them
// skips, naming the variable.

import Foundation
import ModelMapper
import XCTest

/// The `MappingError` that `body` throws. Fails the test (and returns nil) when `body` throws nothing or
/// throws another kind of error.
func mappingError<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> MappingError? {
    do {
        let value = try body()
        XCTFail("expected a MappingError, got no error (\(value))", file: file, line: line)
    } catch let error as MappingError {
        return error
    } catch {
        XCTFail("expected a MappingError, got \(type(of: error)): \(error)", file: file, line: line)
    }
    return nil
}

/// A value shared by the threads and tasks of a test, guarded by a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withValue<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withValue { $0 } }
}

/// A count kept by the threads of a test.
final class LockedCounter: Sendable {
    private let count = Locked(0)
    func increment() { count.withValue { $0 += 1 } }
    var value: Int { count.current }
}

/// The test data: the default data sets in the repository's `data/` folder (see each folder's SOURCES.md), and
/// the optional large corpora in `$MODELMAPPER_DATA`.
enum TestData {
    /// The repository's `data/` folder (this file is Tests/ModelMapperTests/TestSupport.swift).
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Tests/ModelMapperTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // the package
        .appendingPathComponent("data").standardizedFileURL

    /// The file or folder at `relativePath` in the repository's data folder (e.g. "bench/twitter.json"). These
    /// files are committed like the sources, so one that is absent is a broken checkout: the test fails (throws
    /// ``Missing``) rather than skipping.
    static func url(_ relativePath: String) throws -> URL {
        let url = directory.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else { throw Missing(url: url) }
        return url
    }

    /// The bytes of the file at `relativePath` in the repository's data folder; throws ``Missing`` when absent.
    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }

    /// A default data file absent from the repository.
    struct Missing: Error, CustomStringConvertible {
        let url: URL
        var description: String {
            "test data not found: \(url.path) is absent, but data/ is part of the repository (its SOURCES.md files " +
                "list every file with its sha256): restore it with git checkout -- data"
        }
    }

    /// The environment variable naming the folder of the optional large corpora (laid out as data/: bench/,
    /// ndjson/, ...).
    static let optionalVariable = "MODELMAPPER_DATA"

    /// The file or folder at `relativePath` among the optional corpora in `$MODELMAPPER_DATA` (e.g.
    /// "ndjson/gsm8k_train.jsonl"); throws `XCTSkip` naming the variable when it is not set or the file is absent.
    static func optionalURL(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        guard let path = ProcessInfo.processInfo.environment[optionalVariable], !path.isEmpty else {
            throw XCTSkip("optional data \(relativePath) is not in the repository; set \(optionalVariable) to the " +
                          "folder that holds it", file: file, line: line)
        }
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath).standardizedFileURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip("optional data not found: \(url.path) is absent ($\(optionalVariable) = \(path))",
                          file: file, line: line)
        }
        return url
    }
}

/// What hooks and transformers saw of their ``MappingContext``, in call order ("event path tenant"), from
/// any thread (JSON Lines workers).
final class ContextLog: @unchecked Sendable {
    static let shared = ContextLog()
    private let lock = NSLock()
    private var stored: [String] = []

    func add(_ event: String, _ context: MappingContext) {
        let tenant = context.userInfo["tenant"].map { "\($0)" } ?? "-"
        lock.lock(); stored.append("\(event) \(context.path) \(tenant)"); lock.unlock()
    }

    /// The events logged while `body` ran.
    func events(_ body: () throws -> Void) rethrows -> [String] {
        lock.lock(); stored = []; lock.unlock()
        try body()
        lock.lock(); defer { lock.unlock() }
        return stored
    }
}

/// Whether this test process runs under AddressSanitizer (scripts/sanitize, the CI's optimized ASan suite):
/// its runtime is then linked in. ASan keeps freed memory in a quarantine (256 MiB by default) before reusing
/// it, so a test's resident-memory bound does not hold there; such bounds are asserted in the plain runs.
let runsUnderAddressSanitizer: Bool = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil
