import Foundation
import XCTest

/// The `DecodingThreads` crash (issue 36.5): a fuzz build stopped a worker thread with "Fatal access
/// conflict detected". The conflict was the worker with itself: its loop never returned, so every block of
/// it was a dead end, and the optimized build (`-O -assert-config Debug`, as `scripts/fuzz` builds) left the
/// loop test's tracked read of `queue` open on the idle path; after the wait, the same thread's write of
/// `queue` (taking the next body) found its own stale read. No other thread's access is visible to the
/// exclusivity checker, and none was involved.
///
/// A debug build of the test target does not show it (nothing is left open at `-Onone`), so this test builds
/// the two source files as the fuzzer does, with a small driver, and runs the program: workers go idle and
/// are woken, bodies queue more bodies from a worker (a nested `map`), and `map` nests in a job. Before the
/// fix the program stopped at the first wake-up.
final class DecodingThreadsExclusivityTests: XCTestCase {
    private static let driver = #"""
        import Foundation

        @main
        struct Driver {
            static func main() {
                let threads = DecodingThreads(limit: 2)
                let done = DispatchSemaphore(value: 0)
                for round in 0..<2_000 {
                    // Both workers go idle between rounds and are woken by the next ones.
                    threads.run(UnsafeSendable { done.signal() })
                    threads.run(UnsafeSendable { done.signal() })
                    done.wait()
                    done.wait()
                    if round % 3 == 0 { usleep(100) }
                    // A body that queues another from a worker thread (what a nested `map` does).
                    threads.run(UnsafeSendable {
                        threads.run(UnsafeSendable { done.signal() })
                        done.signal()
                    })
                    done.wait()
                    done.wait()
                }
                for _ in 0..<300 {
                    // `map` on the shared threads, one job running a nested `map`.
                    let outputs = WorkerPool<Int, Int>.map(4, workers: 2) { job, _ in
                        job == 1 ? WorkerPool<Int, Int>.map(3, workers: 2) { nested, _ in nested }.reduce(0, +) : job
                    }
                    precondition(outputs == [0, 3, 2, 3], "map returned \(outputs)")
                }
                print("driver ok")
            }
        }
        """#

    func testWorkerLoopBuiltAsTheFuzzerBuildsItRunsWithoutAccessConflict() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/ModelMapper/Streaming").standardizedFileURL
        let files = ["DecodingThreads.swift", "WorkerPool.swift"].map { sources.appendingPathComponent($0).path }
        for file in files { XCTAssertTrue(FileManager.default.fileExists(atPath: file), file) }
        guard let swiftc = Self.findSwiftc() else { throw XCTSkip("no swiftc on PATH") }

        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("DecodingThreadsExclusivity-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let driver = scratch.appendingPathComponent("main.swift")
        try Self.driver.write(to: driver, atomically: true, encoding: .utf8)
        let program = scratch.appendingPathComponent("probe").path

        // The fuzzer's optimization and assertion settings (scripts/fuzz), without its sanitizers.
        let build = try Self.run(swiftc, ["-O", "-assert-config", "Debug", "-D", "DEBUG", "-parse-as-library",
                                          "-swift-version", "6", "-module-name", "Probe", "-suppress-warnings"]
                                 + files + [driver.path, "-o", program])
        guard build.status == 0 else {
            return XCTFail("building DecodingThreads.swift and WorkerPool.swift alone failed (they must stay buildable "
                           + "on their own for this test):\n\(build.output)")
        }
        let result = try Self.run(program, [], environment: ["SWIFT_BACKTRACE": "enable=no"])
        XCTAssertEqual(result.status, 0, "the workers stopped:\n\(result.output)")
        XCTAssertFalse(result.output.contains("access conflict"), result.output)
        XCTAssertTrue(result.output.contains("driver ok"), result.output)
    }

    private static func findSwiftc() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    private static func run(_ executable: String, _ arguments: [String],
                            environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
