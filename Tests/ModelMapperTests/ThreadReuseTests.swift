import Foundation
@testable import ModelMapper
import XCTest

// Parallel decoding reuses a bounded set of long-lived threads instead of starting threads per call, and
// what a thread keeps between decodings is capped and can be released (`DecodingBuffers.releaseIdle()`).

/// A number per thread, never reused (unlike kernel thread ids or `pthread_t` values, which are).
private enum ThreadSerial {
    nonisolated(unsafe) private static var next = 1
    private static let lock = NSLock()
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0)
        return key
    }()

    static var current: Int {
        if let value = pthread_getspecific(key) { return Int(bitPattern: value) }
        lock.lock()
        let serial = next
        next += 1
        lock.unlock()
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: serial))
        return serial
    }
}

/// The threads that decoded a `ThreadLogged` record.
private let decodingThreads = ThreadLog()

private final class ThreadLog: @unchecked Sendable {
    private let lock = NSLock()
    private var serials = Set<Int>()

    func record() {
        let serial = ThreadSerial.current
        lock.lock()
        serials.insert(serial)
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return serials.count
    }
}

private struct ThreadLogged: JSONMappable, JSONDecodingHooks {
    var id = 0
    var name = ""

    mutating func didDecode(from object: JSONObject) throws {
        decodingThreads.record()
    }
}

private struct Numbers: JSONMappable {
    var values: [Int] = []
}

/// What a test thread saw, written before it signals a semaphore and read after the wait.
private final class Observed: @unchecked Sendable {
    var values: [String: Any] = [:]
    subscript(key: String) -> Any? {
        get { values[key] }
        set { values[key] = newValue }
    }
}

/// The threads of this process, from /proc/self/task.
private func processThreadCount() throws -> Int {
    try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
}

final class ThreadReuseTests: XCTestCase {
    func testRepeatedDecodeAllReusesBoundedThreads() throws {
        // ~300 KB: 5 ranges of 64 KB, so every call has work for a helper.
        let padding = String(repeating: "x", count: 80)
        let input = Data((0..<3_000).map { #"{"id":\#($0),"name":"\#(padding)"}"# + "\n" }.joined().utf8)
        let threadsBefore = try processThreadCount()
        let calls = 12
        for _ in 0..<calls {
            let models = try JSONLines<ThreadLogged>.decodeAll(input, workers: 2)
            XCTAssertEqual(models.count, 3_000)
            XCTAssertEqual(models.last?.id, 2_999)
        }
        let limit = DecodingThreads.shared.limit
        // The calling thread and the shared threads; starting threads per call would show about `calls` more.
        XCTAssertLessThanOrEqual(decodingThreads.count, 1 + limit, "threads that decoded in \(calls) calls")
        XCTAssertLessThanOrEqual(DecodingThreads.shared.started, limit)
        XCTAssertLessThanOrEqual(try processThreadCount(), threadsBefore + limit)
    }

    /// Workers go idle and are woken again and again, with a body queued while others are still running:
    /// each body runs exactly once, and `shutDown()` ends the threads. (The path of the "Fatal access conflict
    /// detected" a fuzz build hit: a worker's own read of the queue left open across its idle wait;
    /// DecodingThreadsExclusivityTests rebuilds the file as the fuzzer does to show it.)
    func testThreadsGoingIdleAndWokenRunEveryBodyOnce() {
        let threads = DecodingThreads(limit: 2)
        let runs = Locked([Int](repeating: 0, count: 600))
        let done = DispatchSemaphore(value: 0)
        for round in 0..<300 {
            for body in [2 * round, 2 * round + 1] {
                threads.run(UnsafeSendable {
                    runs.withValue { $0[body] += 1 }
                    done.signal()
                })
            }
            done.wait()
            done.wait()
            if round % 3 == 0 { usleep(200) }  // let both workers reach the idle wait before the next round
        }
        XCTAssertEqual(runs.current, [Int](repeating: 1, count: 600))
        XCTAssertLessThanOrEqual(threads.started, 2)
        threads.shutDown()
    }

    func testAThreadKeepsACappedTokenizerUntilReleased() throws {
        // A tape above the cap: 700,000 numbers take 11 MB of tokens alone.
        let huge = #"{"values":["# + (0..<700_000).map(String.init).joined(separator: ",") + "]}"
        let small = #"{"values":[1,2,3]}"#
        let decoded = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let checked = DispatchSemaphore(value: 0)
        let observed = Observed()
        let thread = Thread {
            do {
                let numbers = try Numbers(json: huge)
                observed["hugeCount"] = numbers.values.count
                observed["afterHuge"] = TokenizerCache.retainedBytesOnThisThread
                _ = try Numbers(json: small)
                observed["afterSmall"] = TokenizerCache.retainedBytesOnThisThread
            } catch {
                observed["error"] = "\(error)"
            }
            decoded.signal()
            released.wait()
            observed["afterRelease"] = TokenizerCache.retainedBytesOnThisThread
            checked.signal()
        }
        thread.start()
        XCTAssertEqual(decoded.wait(timeout: .now() + 120), .success)
        XCTAssertNil(observed["error"])
        XCTAssertEqual(observed["hugeCount"] as? Int, 700_000)
        XCTAssertEqual(observed["afterHuge"] as? Int, 0, "a tokenizer above the cap is not kept")
        let kept = try XCTUnwrap(observed["afterSmall"] as? Int)
        XCTAssertGreaterThan(kept, 0, "a small tokenizer is kept for the next decoding")
        XCTAssertLessThanOrEqual(kept, TokenizerCache.maximumRetainedBytes)
        let keeping = TokenizerCache.threadsKeepingOne
        XCTAssertGreaterThan(keeping, 0)

        XCTAssertGreaterThan(DecodingBuffers.releaseIdle(), 0)
        XCTAssertEqual(TokenizerCache.threadsKeepingOne, 0, "every idle thread's tokenizer is released")
        released.signal()
        XCTAssertEqual(checked.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(observed["afterRelease"] as? Int, 0)

        // Decoding goes on as before, and keeps a spare again.
        XCTAssertEqual(try Numbers(json: small).values, [1, 2, 3])
        XCTAssertGreaterThan(TokenizerCache.retainedBytesOnThisThread, 0)
    }
}
