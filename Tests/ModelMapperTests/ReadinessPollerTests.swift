import Foundation
@testable import ModelMapper
import XCTest
#if canImport(Glibc)
import Glibc
#endif

// The one poll(2) thread behind asynchronous stream reads (issue #36.3), on its own: a poller of the test's
// (short idle time) and real pipes.

final class ReadinessPollerTests: XCTestCase {
    private func makePipe() -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&ends), 0)
        return (ends[0], ends[1])
    }

    /// Many tasks wait on their own pipes through one thread; each is resumed when its pipe gets a byte, in
    /// any order; after the idle time the thread ends, and the next wait starts one again.
    func testManyWaitsShareOneThreadThatEndsWhenIdle() throws {
        let poller = ReadinessPoller(idleMilliseconds: 50)
        let pipes = (0..<16).map { _ in makePipe() }
        let resumed = Locked<[Int]>([])
        let done = DispatchGroup()
        for (index, ends) in pipes.enumerated() {
            done.enter()
            Task.detached {
                do {
                    try await poller.waitUntilReadable(ends.read)
                    resumed.withValue { $0.append(index) }
                } catch {
                    resumed.withValue { $0.append(-1) }
                }
                done.leave()
            }
        }
        usleep(100_000)
        XCTAssertEqual(resumed.current, [], "nothing to read yet")
        XCTAssertEqual(poller.startedThreads, 1)
        for index in stride(from: 15, through: 0, by: -1) {
            var byte: UInt8 = 1
            XCTAssertEqual(write(pipes[index].write, &byte, 1), 1)
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(resumed.current.sorted(), Array(0..<16))
        let deadline = Date().addingTimeInterval(5)
        while poller.isThreadRunning && Date() < deadline { usleep(5_000) }
        XCTAssertFalse(poller.isThreadRunning, "the thread ends after its idle time")

        // A descriptor already readable (a byte is still in pipe 0): the next wait starts a thread again.
        let again = DispatchSemaphore(value: 0)
        Task.detached {
            try? await poller.waitUntilReadable(pipes[0].read)
            again.signal()
        }
        XCTAssertEqual(again.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(poller.startedThreads, 2)
        for ends in pipes {
            close(ends.read)
            close(ends.write)
        }
    }

    /// A cancelled task's wait ends at once with `CancellationError`, whether it was cancelled before it
    /// began to wait or while waiting; the other waits go on.
    func testCancellationEndsTheWaitAtOnce() throws {
        let poller = ReadinessPoller(idleMilliseconds: 50)
        let silent = makePipe()
        let other = makePipe()
        let outcomes = Locked<[String]>([])
        let finished = DispatchGroup()
        finished.enter()
        let early = Task.detached {
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await poller.waitUntilReadable(silent.read)
                outcomes.withValue { $0.append("early: resumed") }
            } catch {
                outcomes.withValue { $0.append("early: \(error is CancellationError ? "cancelled" : "\(error)")") }
            }
            finished.leave()
        }
        finished.enter()
        let waiting = Task.detached {
            do {
                try await poller.waitUntilReadable(silent.read)
                outcomes.withValue { $0.append("waiting: resumed") }
            } catch {
                outcomes.withValue { $0.append("waiting: \(error is CancellationError ? "cancelled" : "\(error)")") }
            }
            finished.leave()
        }
        let kept = DispatchSemaphore(value: 0)
        Task.detached {
            try? await poller.waitUntilReadable(other.read)
            kept.signal()
        }
        usleep(100_000)
        waiting.cancel()
        XCTAssertEqual(finished.wait(timeout: .now() + 5), .success, "cancelled waits ended")
        XCTAssertEqual(outcomes.current.sorted(), ["early: cancelled", "waiting: cancelled"])
        XCTAssertEqual(kept.wait(timeout: .now() + 0.1), .timedOut, "the other wait goes on")
        var byte: UInt8 = 1
        XCTAssertEqual(write(other.write, &byte, 1), 1)
        XCTAssertEqual(kept.wait(timeout: .now() + 5), .success)
        _ = early
        for fd in [silent.read, silent.write, other.read, other.write] { close(fd) }
    }

    /// The end of the input (the writer closed) counts as readable: the read then returns 0.
    func testAClosedWriterWakesTheWait() throws {
        let poller = ReadinessPoller(idleMilliseconds: 50)
        let ends = makePipe()
        let woke = DispatchSemaphore(value: 0)
        Task.detached {
            try? await poller.waitUntilReadable(ends.read)
            woke.signal()
        }
        usleep(50_000)
        close(ends.write)
        XCTAssertEqual(woke.wait(timeout: .now() + 5), .success)
        close(ends.read)
    }
}
