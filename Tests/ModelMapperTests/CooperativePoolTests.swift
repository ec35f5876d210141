import Foundation
@testable import ModelMapper
import XCTest

// `for try await` over JSON Lines must never block a thread of Swift's cooperative pool: while records are
// awaited (input not there yet), other tasks keep running. Real pipes fed slowly by threads of their own,
// real tasks counting their progress.

private struct Numbered: JSONMappable, Equatable {
    var id = 0
}

final class CooperativePoolTests: XCTestCase {
    func testAwaitingASlowFileLeavesTheCooperativePoolToOtherTasks() throws {
        try checkOtherTasksProgressWhileIterationsWait(workers: 1)
    }

    func testAwaitingASlowFileWithWorkersLeavesTheCooperativePoolToOtherTasks() throws {
        try checkOtherTasksProgressWhileIterationsWait(workers: 2)
    }

    /// As many iterations as the machine has cores (the cooperative pool's width) each wait for a pipe whose
    /// writer holds back the rest of its records; meanwhile tasks that sleep and count must go on counting.
    /// A blocking read or a blocking wait for the workers would take every cooperative thread and freeze
    /// the counters until the writers go on.
    private func checkOtherTasksProgressWhileIterationsWait(workers: Int,
                                                            file: StaticString = #filePath, line: UInt = #line) throws {
        let iterations = ProcessInfo.processInfo.activeProcessorCount
        let gate = DispatchSemaphore(value: 0)
        let started = Locked(0)
        let results = Locked([[Int]]())
        let finished = DispatchGroup()
        for _ in 0..<iterations {
            let pipe = Pipe()
            let writer = pipe.fileHandleForWriting
            Thread.detachNewThread {
                writer.write(Data("{\"id\":0}\n".utf8))
                gate.wait()
                writer.write(Data("{\"id\":1}\n{\"id\":2}\n".utf8))
                try? writer.close()
            }
            let reader = pipe.fileHandleForReading
            finished.enter()
            Task.detached {
                started.withValue { $0 += 1 }
                var ids: [Int] = []
                do {
                    for try await record in JSONLines<Numbered>(fileHandle: reader, workers: workers, chunkSize: 64) {
                        ids.append(record.id)
                    }
                } catch {
                    ids.append(-1)
                }
                let got = ids
                results.withValue { $0.append(got) }
                finished.leave()
            }
        }
        let progress = Locked(0)
        let stop = Locked(false)
        for _ in 0..<(iterations + 2) {
            Task.detached {
                while !stop.current {
                    progress.withValue { $0 += 1 }
                    try? await Task.sleep(nanoseconds: 1_000_000)
                }
            }
        }
        defer { stop.withValue { $0 = true } }
        // Wait (on this thread, which is not a cooperative one) until every iteration has started, then a
        // little more: by then each waits for the records its writer holds back.
        let deadline = Date().addingTimeInterval(30)
        while started.current < iterations && Date() < deadline { usleep(1000) }
        XCTAssertEqual(started.current, iterations, "iterations did not start", file: file, line: line)
        usleep(200_000)
        let before = progress.current
        usleep(500_000)
        let during = progress.current - before
        for _ in 0..<iterations { gate.signal() }
        XCTAssertEqual(finished.wait(timeout: .now() + 60), .success, "iterations did not finish", file: file, line: line)
        XCTAssertGreaterThan(during, 0, "no other task ran while \(iterations) iterations (\(workers) workers) waited",
                             file: file, line: line)
        XCTAssertEqual(results.current, [[Int]](repeating: [0, 1, 2], count: iterations), file: file, line: line)
    }

    /// Cancelling a task whose iteration waits for a file read (one worker: the read runs on the reader's
    /// own thread) ends the iteration with `CancellationError`, without waiting for the input.
    func testCancellingAnIterationWaitingForAReadEndsIt() async throws {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        writer.write(Data("{\"id\":7}\n".utf8))
        let reader = pipe.fileHandleForReading
        let firstRecord = Locked<Int?>(nil)
        let task = Task.detached { () -> Error? in
            do {
                for try await record in JSONLines<Numbered>(fileHandle: reader, chunkSize: 64) {
                    firstRecord.withValue { $0 = record.id }
                }
                return nil
            } catch {
                return error
            }
        }
        while firstRecord.current == nil { try await Task.sleep(nanoseconds: 1_000_000) }
        try await Task.sleep(nanoseconds: 50_000_000)  // the iteration now waits for the next read
        task.cancel()
        let error = await task.value
        XCTAssert(error is CancellationError, "\(String(describing: error))")
        XCTAssertEqual(firstRecord.current, 7)
        try writer.close()  // the read still pending returns at the end of the input; its thread ends
    }
}
