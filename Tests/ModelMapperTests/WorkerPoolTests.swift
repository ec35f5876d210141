import Foundation
@testable import ModelMapper
import XCTest

// The worker pool behind every parallel reader (Streaming/WorkerPool.swift): outputs in submission order,
// every job run and every output and error delivered exactly once, a bounded queue, early stop, and a
// clean shutdown when the consumer stops or its task is cancelled.

/// Hands a non-Sendable value to a task in tests that use it from one place at a time.
private final class Carrier<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: Value) { self.value = value }
}

private struct Boom: Error, Equatable {}

private struct Item: JSONMappable, Equatable {
    var id = 0
    var name = ""
}

/// Waits (up to a few seconds) until no pool thread runs any more.
private func waitForPoolThreads(toReach count: Int, file: StaticString = #filePath, line: UInt = #line) {
    let deadline = Date().addingTimeInterval(10)
    while WorkerPoolThreads.alive > count && Date() < deadline { usleep(1000) }
    XCTAssertEqual(WorkerPoolThreads.alive, count, "pool threads still running", file: file, line: line)
}

/// `count` JSON Lines records of about 100 bytes, every `badEvery`th one with a wrong type.
private func itemLines(_ count: Int, badEvery: Int = 0) -> [UInt8] {
    var text = ""
    for i in 0..<count {
        let padding = String(repeating: "x", count: 80)
        if badEvery > 0 && i % badEvery == badEvery - 1 {
            text += #"{"id":"not a number \#(i)","name":"\#(padding)"}"# + "\n"
        } else {
            text += #"{"id":\#(i),"name":"\#(padding)"}"# + "\n"
        }
    }
    return Array(text.utf8)
}

final class WorkerPoolTests: XCTestCase {
    // MARK: The pool

    func testOutputsInSubmissionOrderEachJobRunOnce() throws {
        let baseline = WorkerPoolThreads.alive
        let runs = Locked([Int](repeating: 0, count: 2000))
        let pool = WorkerPool<Int, Int>(workers: 3, queueLimit: 5, name: "test") { job, context in
            XCTAssertEqual(job, context.sequence)
            XCTAssert((0..<3).contains(context.worker))
            // Uneven durations, so jobs finish out of order.
            if job % 7 == 0 { usleep(UInt32(job % 5) * 100) }
            runs.withValue { $0[job] += 1 }
            return job * 2
        }
        pool.startFeeder(name: "test.feeder") { feeder in
            for job in 0..<2000 { XCTAssertTrue(feeder.submit(job)) }
        }
        var outputs: [Int] = []
        while let output = try pool.next() { outputs.append(output) }
        XCTAssertEqual(outputs, (0..<2000).map { $0 * 2 })
        XCTAssertEqual(runs.current, [Int](repeating: 1, count: 2000))
        XCTAssertNil(try pool.next())
        waitForPoolThreads(toReach: baseline)
    }

    func testMapKeepsOrderAndUsesDistinctWorkers() {
        let workersSeen = Locked(Set<Int>())
        let outputs = WorkerPool<Int, String>.map(300, workers: 4) { job, context in
            workersSeen.withValue { _ = $0.insert(context.worker) }
            if job % 3 == 0 { usleep(50) }
            return "\(job)"
        }
        XCTAssertEqual(outputs, (0..<300).map { "\($0)" })
        XCTAssert(workersSeen.current.isSubset(of: Set(0..<4)))
        XCTAssertEqual(WorkerPool<Int, Int>.map(0, workers: 4) { job, _ in job }, [])
        // One worker: the calling thread alone.
        let caller = Thread.current
        XCTAssertEqual(WorkerPool<Int, Int>.map(5, workers: 1) { job, _ in
            XCTAssert(Thread.current == caller)
            return job
        }, [0, 1, 2, 3, 4])
    }

    func testQueueBoundsJobsNotYetConsumed() throws {
        let baseline = WorkerPoolThreads.alive
        let submitted = Locked(0)
        let pool = WorkerPool<Int, Int>(workers: 2, queueLimit: 4, name: "test") { job, _ in job }
        pool.startFeeder(name: "test.feeder") { feeder in
            for job in 0..<100 {
                guard feeder.submit(job) else { return }
                submitted.withValue { $0 += 1 }
            }
        }
        // Nobody consumes: the feeder stops at the limit.
        usleep(100_000)
        XCTAssertEqual(submitted.current, 4)
        var outputs: [Int] = []
        while let output = try pool.next() {
            outputs.append(output)
            XCTAssertLessThanOrEqual(submitted.current - outputs.count, 4)
        }
        XCTAssertEqual(outputs, Array(0..<100))
        waitForPoolThreads(toReach: baseline)
    }

    func testFeederErrorDeliveredOnceAfterEarlierOutputs() throws {
        let pool = WorkerPool<Int, Int>(workers: 2, queueLimit: 3, name: "test") { job, _ in
            usleep(UInt32((10 - job) * 200))
            return job
        }
        pool.startFeeder(name: "test.feeder") { feeder in
            for job in 0..<10 { _ = feeder.submit(job) }
            throw Boom()
        }
        var outputs: [Int] = []
        var errors: [Error] = []
        for _ in 0..<15 {
            do {
                if let output = try pool.next() { outputs.append(output) }
            } catch {
                XCTAssertEqual(outputs.count, 10, "the error comes after every earlier output")
                errors.append(error)
            }
        }
        XCTAssertEqual(outputs, Array(0..<10))
        XCTAssertEqual(errors.count, 1)
        XCTAssert(errors.first is Boom)
    }

    func testStopAfterJobEndsOutputsAtEarliestStoppingJob() {
        let abandoned = Locked(0)
        let laterStarted = Locked(0)
        let laterFinished = Locked(0)
        let overlapped = Locked(false)
        let outputs = WorkerPool<Int, Int>.map(200, workers: 3) { job, context in
            if job == 120 { context.stopAfterThisJob() }  // an early stop…
            if job == 37 {
                // Stop only once a later job is running (worker threads may start late on a loaded machine;
                // the waits below end as soon as their condition holds, and allow 30 s on a starved one).
                var waits = 0
                while laterStarted.current == 0 && waits < 150_000 { usleep(200); waits += 1 }
                overlapped.withValue { $0 = laterStarted.current > 0 }
                context.stopAfterThisJob()  // …superseded by an earlier job's
            }
            if job > 37 {
                laterStarted.withValue { $0 += 1 }
                var waits = 0  // until job 37 stops (a `for … where` would not end the loop early)
                while !context.isAbandoned && waits < 150_000 { usleep(200); waits += 1 }
                if context.isAbandoned { abandoned.withValue { $0 += 1 } }
                laterFinished.withValue { $0 += 1 }
            }
            return job
        }
        XCTAssertEqual(outputs, Array(0...37))
        // `map` returns once job 37's output is in; abandoned jobs may still be finishing on their threads.
        var waits = 0
        while laterFinished.current < laterStarted.current && waits < 150_000 { usleep(200); waits += 1 }
        if overlapped.current {
            XCTAssertGreaterThan(abandoned.current, 0, "jobs after the stopping one see that they are abandoned")
        }
    }

    func testDroppingThePoolStopsFeederAndWorkers() throws {
        let baseline = WorkerPoolThreads.alive
        let feederStopped = Locked(false)
        var pool: WorkerPool<Int, Int>? = WorkerPool(workers: 2, queueLimit: 4, name: "test") { job, _ in job }
        pool!.startFeeder(name: "test.feeder") { feeder in
            var job = 0
            while feeder.submit(job) { job += 1 }  // endless, until the consumer goes away
            feederStopped.withValue { $0 = true }
        }
        for expected in 0..<3 { XCTAssertEqual(try pool!.next(), expected) }
        XCTAssertEqual(WorkerPoolThreads.alive, baseline + 3)
        pool = nil
        waitForPoolThreads(toReach: baseline)
        XCTAssertTrue(feederStopped.current)
    }

    func testCancelledTaskEndsWaitWithCancellationError() async throws {
        let baseline = WorkerPoolThreads.alive
        let release = DispatchSemaphore(value: 0)
        let pool = WorkerPool<Int, Int>(workers: 1, queueLimit: 2, name: "test") { job, _ in
            release.wait()  // the consumer waits for this job until the test releases it
            return job
        }
        pool.submit(0)
        pool.finish()
        let carrier = Carrier(pool)
        let task = Task.detached { () -> Error? in
            do {
                _ = try await carrier.value!.next(isolation: nil)
                return nil
            } catch {
                return error
            }
        }
        usleep(50_000)
        task.cancel()
        let error = await task.value
        XCTAssert(error is CancellationError, "\(String(describing: error))")
        XCTAssertThrowsError(try { () throws -> Int? in try pool.next() }()) { XCTAssert($0 is CancellationError) }
        release.signal()
        carrier.value = nil
        waitForPoolThreads(toReach: baseline)
    }

    // MARK: Through the public API

    func testDroppedIteratorStopsReaderThreads() throws {
        let baseline = WorkerPoolThreads.alive
        let input = itemLines(30_000)  // ~3 MB: more groups than the queue holds
        for source in ["bytes", "file"] {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("WorkerPoolTests-\(UUID()).jsonl")
            try Data(input).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            do {
                let lines = source == "bytes"
                    ? JSONLines<Item>(bytes: input, workers: 2)
                    : JSONLines<Item>(url: url, workers: 2, chunkSize: 1 << 16)
                var iterator = lines.makeSyncIterator()
                for expected in 0..<5 { XCTAssertEqual(try iterator.next()?.id, expected, source) }
                XCTAssertGreaterThan(WorkerPoolThreads.alive, baseline, source)
            }
            waitForPoolThreads(toReach: baseline)
        }
    }

    func testCancellingTheTaskEndsAsyncIteration() async throws {
        let baseline = WorkerPoolThreads.alive
        let input = itemLines(30_000)
        let task = Task.detached { () -> (count: Int, error: Error?) in
            var count = 0
            do {
                for try await item in JSONLines<Item>(bytes: input, workers: 2) {
                    XCTAssertEqual(item.id, count)
                    count += 1
                    if count == 10 { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return (count, nil)
            } catch {
                return (count, error)
            }
        }
        let (count, error) = await task.value
        XCTAssert(error is CancellationError, "\(String(describing: error))")
        XCTAssertGreaterThanOrEqual(count, 10)
        XCTAssertLessThan(count, 30_000)
        waitForPoolThreads(toReach: baseline)
    }

    func testEveryRejectedRecordDeliveredOnceInOrder() throws {
        let input = itemLines(20_000, badEvery: 97)
        let expected = (0..<20_000).filter { $0 % 97 == 96 }
        for workers in 1...3 {
            let rejected = Collected<Int>()
            var ids: [Int] = []
            try JSONLines<Item>(bytes: input, workers: workers, onError: .skip { rejected.append($0.index) })
                .forEach { ids.append($0.id) }
            XCTAssertEqual(rejected.items, expected, "stream, \(workers) workers")
            XCTAssertEqual(ids.count + rejected.count, 20_000)
            rejected.removeAll()
            ids = try JSONLines<Item>.decodeAll(input, workers: workers, onError: .skip { rejected.append($0.index) })
                .map(\.id)
            XCTAssertEqual(rejected.items, expected, "decodeAll, \(workers) workers")
            XCTAssertEqual(ids.count + rejected.count, 20_000)
        }
    }

    func testStopErrorThrownOnceThenEnd() throws {
        let input = itemLines(20_000, badEvery: 5_000)
        for workers in 1...3 {
            var iterator = JSONLines<Item>(bytes: input, workers: workers).makeSyncIterator()
            var count = 0
            var errors = 0
            for _ in 0..<20_001 {
                do {
                    guard try iterator.next() != nil else { break }
                    count += 1
                } catch {
                    errors += 1
                    XCTAssert((error as? MappingError)?.path.hasPrefix("[4999]") == true, "\(error)")
                }
            }
            XCTAssertEqual(count, 4999, "\(workers) workers")
            XCTAssertEqual(errors, 1, "\(workers) workers")
            XCTAssertNil(try iterator.next())
        }
    }
}
