// Test support shared by every test file: the one helper that expects a `MappingError`, the one place
// that finds the shared data folder, and the locked values that threads and tasks of a test share.
//
// The data folder is `$MODELMAPPER_DATA` when that is set (and not empty), else `../shared/data` next to the
// package. The benchmarks (Benchmarks/Runner/main.swift, with `--data DIR` on top) and `scripts/fuzz` look
// it up by the same rule, with the same variable.

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

/// The shared data folder (benchmark files, YYModel's samples, JSONTestSuite, NDJSON files), read in place.
enum SharedData {
    /// The environment variable naming the data folder.
    static let variable = "MODELMAPPER_DATA"

    /// Where the data folder is looked for when the variable is not set: `../shared/data` next to the
    /// package (this file is Tests/ModelMapperTests/TestSupport.swift).
    static let defaultDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Tests/ModelMapperTests
        .deletingLastPathComponent()   // Tests
        .deletingLastPathComponent()   // the package
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data").standardizedFileURL

    /// `$MODELMAPPER_DATA` if set, else ``defaultDirectory``.
    static var directory: URL {
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty {
            return URL(fileURLWithPath: path).standardizedFileURL
        }
        return defaultDirectory
    }

    /// The file or folder at `relativePath` in the data folder (e.g. "bench/twitter.json"); throws `XCTSkip`
    /// naming the path looked at and the variable when it is absent.
    static func url(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws -> URL {
        let url = directory.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw XCTSkip(absence(of: url), file: file, line: line)
        }
        return url
    }

    /// The bytes of the file at `relativePath` in the data folder; throws `XCTSkip` when it is absent.
    static func data(_ relativePath: String, file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        try Data(contentsOf: url(relativePath, file: file, line: line))
    }

    /// Why a test skips: the path, where it came from and how to point the tests elsewhere.
    static func absence(of url: URL) -> String {
        let source: String
        if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty {
            source = "the data folder is $\(variable) = \(path)"
        } else {
            source = "the data folder is the default ../shared/data next to the package; set \(variable) to use another"
        }
        return "shared data not found: \(url.path) is absent (\(source))"
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
