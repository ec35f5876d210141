// Unsafe code: a pthread mutex and condition variables allocated by hand (they must not move), shared by
// the pool's threads.
//
// Invariants: the mutex and conditions are initialized in `PoolMonitor.init` and destroyed in its `deinit`,
// which runs only when no thread can use them any more (every pool thread, and every helper body queued on
// `DecodingThreads`, holds the core, which holds the monitor, until it returns); every field of
// `WorkerPool.Core` marked "guarded" is read and written only while the mutex is held; the asynchronous
// consumer's continuation is stored and taken under the mutex and resumed exactly once (by the consumer
// itself when what it waits for is already there, otherwise by the first change after it was stored); a
// slot's job is taken by exactly one worker (`nextToRun` only moves forward under the lock), that worker
// writes the slot's output once, and the consumer moves it out once; slots are dropped (compacted) only
// once consumed, so a running job's slot stays at `sequence - firstSequence`.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with condition variables, so each kind of waiter (workers, the consumer, the feeder, threads
/// waiting for exits) is woken only when what it waits for may have changed.
final class PoolMonitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// A job was submitted, submission ended, or the pool stopped.
    let work = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The consumer's next output is ready, submission ended, or the pool stopped.
    let ready = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Room in the queue, or the pool stopped.
    let space = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// A worker thread exited.
    let exited = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        for variable in [work, ready, space, exited] { pthread_cond_init(variable, nil) }
    }

    deinit {
        for variable in [work, ready, space, exited] {
            pthread_cond_destroy(variable)
            variable.deallocate()
        }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits on `variable` (the mutex must be held).
    @inline(__always) func wait(_ variable: UnsafeMutablePointer<pthread_cond_t>) { pthread_cond_wait(variable, mutex) }
    @inline(__always) func signal(_ variable: UnsafeMutablePointer<pthread_cond_t>) { pthread_cond_signal(variable) }
    @inline(__always) func broadcast(_ variable: UnsafeMutablePointer<pthread_cond_t>) { pthread_cond_broadcast(variable) }

    func broadcastAll() {
        for variable in [work, ready, space, exited] { broadcast(variable) }
    }
}

/// The threads every ``WorkerPool`` has started and that have not returned yet (for tests and
/// diagnostics: after a reader is dropped or cancelled, its threads wind down).
enum WorkerPoolThreads {
    private static let monitor = PoolMonitor()
    nonisolated(unsafe) private static var count = 0

    static var alive: Int {
        monitor.lock()
        defer { monitor.unlock() }
        return count
    }

    fileprivate static func add(_ n: Int) {
        monitor.lock()
        count += n
        monitor.unlock()
    }
}

/// The one mechanism for running decoding work on several threads.
///
/// A fixed number of worker threads take jobs in submission order from a bounded queue and run
/// `perform(job, context)`; the consumer takes the outputs in submission order with ``next()`` (blocking)
/// or ``next(isolation:)`` (suspending: an asynchronous consumer never blocks a thread of Swift's
/// cooperative pool). At most `queueLimit` jobs are submitted and not yet consumed (queued, running or
/// waiting for the consumer), so a fast producer cannot run ahead: memory stays bounded. Jobs are
/// submitted either by the consumer itself (``map(_:workers:_:)``, all jobs known up front, run by the
/// caller and the shared ``DecodingThreads``) or by a feeder thread the pool starts
/// (``startFeeder(name:_:)``), whose thrown error reaches the consumer once, after the outputs of every
/// job submitted before it.
///
/// Stopping:
/// - ``WorkerPool/Context/stopAfterThisJob()`` (an early failure): later jobs are not started, polling
///   jobs give up (``WorkerPool/Context/isAbandoned``), and the consumer's ``next()`` returns nil after
///   this job's output.
/// - ``cancel()`` (the consumer stops early, or its task is cancelled), also when the pool is dropped:
///   workers exit after their current job, the feeder's next `submit` returns false, and ``next()``
///   throws `CancellationError`.
///
/// `perform` runs concurrently on the worker threads: it may touch only read-only state and state
/// belonging to its worker (`context.worker`, in `0..<workers`) or to its job.
final class WorkerPool<Job, Output> {
    /// What a running job knows about itself.
    struct Context {
        /// The worker running the job, in `0..<workers`: an index for per-worker state.
        let worker: Int
        /// The job's position in submission order (0 for the first job).
        let sequence: Int
        fileprivate let core: Core

        /// Whether the job's output will never be delivered (the pool was cancelled, or an earlier job
        /// stopped it): a long job may poll this and return early.
        var isAbandoned: Bool { core.isAbandoned(sequence) }

        /// Ends the work after this job: later jobs are not started and their outputs not delivered.
        func stopAfterThisJob() { core.stop(after: sequence) }
    }

    /// The submitting side, handed to a feeder.
    struct Feeder {
        fileprivate let core: Core

        /// Queues a job, waiting while the queue is full; false if the pool was cancelled or stopped (the
        /// feeder should return).
        func submit(_ job: Job) -> Bool { core.submit(job) }

        /// Ends submission and waits until no worker runs a job any more (every job has run, or the pool
        /// was cancelled): for jobs that point into memory valid only during the feeder's call.
        func finishAndWaitForWorkers() {
            core.finish(throwing: nil)
            core.waitForWorkers()
        }
    }

    private let core: Core

    /// Starts `workers` threads (at least 1) named `name`.
    init(workers: Int, queueLimit: Int, name: String, perform: @escaping (Job, Context) -> Output) {
        core = Core(queueLimit: queueLimit, perform: perform)
        core.startWorkers(Swift.max(1, workers), first: 0, name: name)
    }

    deinit {
        core.cancel()
    }

    /// Runs `body` on a thread of its own. When it returns, submission
    /// ends; an error it throws is delivered by ``next()`` after the outputs of the jobs submitted before.
    func startFeeder(name: String, _ body: @escaping (Feeder) throws -> Void) {
        let core = self.core
        let feeder = Feeder(core: core)
        core.startThread(name: name, isWorker: false, UnsafeSendable {
            do {
                try body(feeder)
                core.finish(throwing: nil)
            } catch {
                core.finish(throwing: error)
            }
        })
    }

    /// Queues a job (from the consumer's thread when there is no feeder); see ``Feeder/submit(_:)``.
    @discardableResult
    func submit(_ job: Job) -> Bool { core.submit(job) }

    /// Ends submission (when there is no feeder).
    func finish() { core.finish(throwing: nil) }

    /// The next output in submission order, waiting for it; nil after the last one (or after the job that
    /// stopped the pool). Throws the feeder's error once, after the outputs before it, and
    /// `CancellationError` once the pool is cancelled.
    func next() throws -> Output? { try core.next() }

    /// ``next()`` for an asynchronous consumer: the task suspends until the output is ready (no thread
    /// waits); cancelling the task cancels the pool, which ends the wait with `CancellationError`.
    func next(isolation: isolated (any Actor)? = #isolation) async throws -> Output? {
        let core = self.core
        if Task.isCancelled {
            core.cancel()
            throw CancellationError()
        }
        return try await withTaskCancellationHandler {
            try await core.next(isolation: isolation)
        } onCancel: {
            core.cancel()
        }
    }

    /// Stops the pool: see the type's documentation. Returns at once (workers exit after their current
    /// job, a feeder at its next submission, after the read it may be blocked in).
    func cancel() { core.cancel() }

    /// Runs `perform` for jobs `0..<count` on up to `workers` threads — the calling thread (worker 0) and
    /// up to `min(workers, count) - 1` of the shared ``DecodingThreads`` (no thread is started per call) —
    /// and returns the outputs in job order: all of them, or, if a job called `stopAfterThisJob()`, those up
    /// to the earliest such job. Returns only once no job runs any more, so jobs may point into memory
    /// that is valid only during the call.
    static func map(_ count: Int, workers: Int, _ perform: @escaping (Int, Context) -> Output) -> [Output]
    where Job == Int {
        guard count > 0 else { return [] }
        let threads = Swift.max(1, Swift.min(workers, count))
        let core = Core.all(count, perform: perform)
        core.startHelpers(1..<threads)
        core.runWorker(0)
        var outputs: [Output] = []
        outputs.reserveCapacity(count)
        // Cannot throw: there is no feeder, and nothing else cancels this core before `close`.
        while let output = try? core.next() { outputs.append(output) }
        core.closeAndWaitForHelpers()
        return outputs
    }

    /// ``map(_:workers:_:)`` for an asynchronous caller: every job runs on the shared ``DecodingThreads``
    /// (workers `0..<min(workers, count)`) while the caller's task is suspended.
    static func map(_ count: Int, workers: Int, isolation: isolated (any Actor)? = #isolation,
                    _ perform: @escaping (Int, Context) -> Output) async -> [Output] where Job == Int {
        guard count > 0 else { return [] }
        let core = Core.all(count, perform: perform)
        core.startHelpers(0..<Swift.max(1, Swift.min(workers, count)))
        var outputs: [Output] = []
        outputs.reserveCapacity(count)
        while let output = try? await core.next(isolation: isolation) { outputs.append(output) }
        await core.closeAndAwaitHelpers(isolation: isolation)
        return outputs
    }

    /// A ``map(_:workers:isolation:_:)`` started now and awaited later: the jobs start on the shared
    /// ``DecodingThreads`` at once, and ``outputs(isolation:)`` collects them (so the caller can do other
    /// work, such as handing out the previous batch's models, while they run). The jobs keep what they
    /// point into alive themselves: the caller may drop the map without awaiting it.
    final class StartedMap: @unchecked Sendable {
        private let core: Core?
        private let count: Int

        fileprivate init(core: Core?, count: Int) {
            self.core = core
            self.count = count
        }

        /// The outputs in job order (as ``map(_:workers:isolation:_:)`` returns them), once no job runs.
        func outputs(isolation: isolated (any Actor)? = #isolation) async -> [Output] {
            guard let core else { return [] }
            var outputs: [Output] = []
            outputs.reserveCapacity(count)
            while let output = try? await core.next(isolation: isolation) { outputs.append(output) }
            await core.closeAndAwaitHelpers(isolation: isolation)
            return outputs
        }
    }

    /// Starts ``map(_:workers:isolation:_:)``'s jobs on the shared ``DecodingThreads`` and returns at once.
    static func start(_ count: Int, workers: Int, _ perform: @escaping (Int, Context) -> Output) -> StartedMap
    where Job == Int {
        guard count > 0 else { return StartedMap(core: nil, count: 0) }
        let core = Core.all(count, perform: perform)
        core.startHelpers(0..<Swift.max(1, Swift.min(workers, count)))
        return StartedMap(core: core, count: count)
    }

    // MARK: Shared state

    fileprivate final class Core: @unchecked Sendable {
        private struct Slot {
            var job: Job?
            var output: Output?
            var isDone = false
        }

        private let monitor = PoolMonitor()
        private let perform: (Job, Context) -> Output
        private let queueLimit: Int

        // Guarded. `slots[i]` is job `firstSequence + i`; slots before `head` are consumed, slots before
        // `nextToRun` taken by a worker.
        private var slots: [Slot] = []
        private var firstSequence = 0
        private var head = 0
        private var nextToRun = 0
        private var isSubmitting = true
        /// The feeder's error, until delivered.
        private var failure: Error?
        /// Jobs after this one are abandoned.
        private var stopAfter = Int.max
        private var isCancelled = false
        private var liveWorkers = 0
        /// Helper bodies (``startHelpers(_:)``) running jobs right now.
        private var helpersInside = 0
        /// The asynchronous consumer, suspended until something it may wait for changes.
        private var consumerWaiter: UnsafeContinuation<Void, Never>?

        init(queueLimit: Int, perform: @escaping (Job, Context) -> Output) {
            self.queueLimit = Swift.max(1, queueLimit)
            self.perform = perform
        }

        /// A core holding jobs `0..<count`, submission ended (for `map`).
        static func all(_ count: Int, perform: @escaping (Job, Context) -> Output) -> Core where Job == Int {
            let core = Core(queueLimit: count, perform: perform)
            for job in 0..<count {
                // Room for every job and nobody can cancel a core not yet returned: each one is queued.
                let queued = core.submit(job)
                assert(queued, "a new core with room for every job refused one")
            }
            core.finish(throwing: nil)
            return core
        }

        /// Wakes the consumer waiting in ``next()`` or ``next(isolation:)`` (the mutex must be held).
        private func wakeConsumer(all: Bool = false) {
            if all { monitor.broadcast(monitor.ready) } else { monitor.signal(monitor.ready) }
            if let waiter = consumerWaiter {
                consumerWaiter = nil
                waiter.resume()
            }
        }

        // MARK: Threads

        func startWorkers(_ count: Int, first: Int, name: String) {
            for worker in first..<(first + Swift.max(0, count)) {
                startThread(name: name, isWorker: true, UnsafeSendable { [self] in runWorker(worker) })
            }
        }

        /// Starts a thread running `body`; the thread keeps the core alive until `body` returns.
        func startThread(name: String, isWorker: Bool, _ body: UnsafeSendable<() -> Void>) {
            if isWorker {
                monitor.lock()
                liveWorkers += 1
                monitor.unlock()
            }
            WorkerPoolThreads.add(1)
            let thread = Thread { [self] in
                body.value()
                if isWorker {
                    monitor.lock()
                    liveWorkers -= 1
                    monitor.broadcast(monitor.exited)
                    monitor.unlock()
                }
                WorkerPoolThreads.add(-1)
            }
            thread.name = name
            thread.start()
        }

        /// Waits until every worker thread has returned.
        func waitForWorkers() {
            monitor.lock()
            while liveWorkers > 0 { monitor.wait(monitor.exited) }
            monitor.unlock()
        }

        /// Runs `runWorker(w)` for each worker index `w` on the shared ``DecodingThreads``, unless the core
        /// was closed before the body starts.
        func startHelpers(_ workers: Range<Int>) {
            for worker in workers {
                DecodingThreads.shared.run(UnsafeSendable { [self] in
                    monitor.lock()
                    if isCancelled {
                        monitor.unlock()
                        return
                    }
                    helpersInside += 1
                    monitor.unlock()
                    runWorker(worker)
                    monitor.lock()
                    helpersInside -= 1
                    monitor.broadcast(monitor.exited)
                    wakeConsumer()
                    monitor.unlock()
                })
            }
        }

        /// Ends the core (helpers that have not started yet will run nothing) and waits until no helper
        /// runs a job any more.
        func closeAndWaitForHelpers() {
            cancel()
            monitor.lock()
            while helpersInside > 0 { monitor.wait(monitor.exited) }
            monitor.unlock()
        }

        /// ``closeAndWaitForHelpers()`` for an asynchronous caller (suspends instead of waiting).
        func closeAndAwaitHelpers(isolation: isolated (any Actor)?) async {
            cancel()
            _ = try? await awaitConsumer(isolation: isolation) { () -> Bool? in helpersInside == 0 ? true : nil }
        }

        // MARK: Workers

        /// Takes and runs jobs until there are none left to run (or the pool stops).
        func runWorker(_ worker: Int) {
            monitor.lock()
            defer { monitor.unlock() }
            while true {
                if isCancelled { return }
                if nextToRun < slots.count {
                    let sequence = firstSequence + nextToRun
                    if sequence > stopAfter { return }
                    let index = nextToRun
                    nextToRun += 1
                    assert(slots[index].job != nil && !slots[index].isDone, "a job is taken once")
                    let job = slots[index].job.unsafelyUnwrapped
                    slots[index].job = nil
                    monitor.unlock()
                    let output = perform(job, Context(worker: worker, sequence: sequence, core: self))
                    monitor.lock()
                    // Slots are compacted only once consumed, and this one is not done yet.
                    let at = sequence - firstSequence
                    assert(at >= head && at < slots.count && !slots[at].isDone, "a job's output is written once")
                    slots[at].output = output
                    slots[at].isDone = true
                    if at == head { wakeConsumer() }
                    continue
                }
                if !isSubmitting { return }
                monitor.wait(monitor.work)
            }
        }

        // MARK: Submitting

        func submit(_ job: Job) -> Bool {
            monitor.lock()
            defer { monitor.unlock() }
            while slots.count - head >= queueLimit && !isCancelled && firstSequence + slots.count <= stopAfter {
                monitor.wait(monitor.space)
            }
            assert(isSubmitting, "no job is submitted after submission ended")
            if isCancelled || firstSequence + slots.count > stopAfter || !isSubmitting { return false }
            slots.append(Slot(job: job))
            monitor.signal(monitor.work)
            return true
        }

        /// Ends submission; the first error given is delivered after the outputs submitted before it.
        func finish(throwing error: Error?) {
            monitor.lock()
            if isSubmitting {
                isSubmitting = false
                failure = error
            }
            monitor.broadcast(monitor.work)
            wakeConsumer(all: true)
            monitor.unlock()
        }

        // MARK: Consuming

        /// What the consumer gets next.
        enum Taken {
            case output(Output)
            case end
        }

        func next() throws -> Output? {
            monitor.lock()
            defer { monitor.unlock() }
            while true {
                if let taken = try take() {
                    if case .output(let output) = taken { return output }
                    return nil
                }
                monitor.wait(monitor.ready)
            }
        }

        /// ``next()``, suspending the task instead of blocking the thread.
        func next(isolation: isolated (any Actor)?) async throws -> Output? {
            if case .output(let output) = try await awaitConsumer(isolation: isolation, { try take() }) {
                return output
            }
            return nil
        }

        /// Suspends the calling task until `check` (called with the mutex held) returns a value, and returns
        /// it; every change a consumer may wait for resumes the task to check again.
        private func awaitConsumer<R>(isolation: isolated (any Actor)?, _ check: () throws -> R?) async throws -> R {
            while true {
                var outcome: Result<R, any Error>? = nil
                await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Void, Never>) in
                    // Once the continuation is stored and the mutex released, a worker may resume the task,
                    // which goes on (and writes `outcome` of its next round) on another thread while this
                    // closure is still returning: after `unlock()` the closure reads only its own locals.
                    var resumesItself = true
                    monitor.lock()
                    do {
                        if let value = try check() {
                            outcome = .success(value)
                        } else {
                            assert(consumerWaiter == nil, "one consumer at a time")
                            consumerWaiter = continuation
                            resumesItself = false
                        }
                    } catch {
                        outcome = .failure(error)
                    }
                    monitor.unlock()
                    if resumesItself { continuation.resume() }
                }
                if let outcome { return try outcome.get() }
            }
        }

        /// The next output or the end, nil if the consumer must wait; throws `CancellationError` or the
        /// feeder's error (the mutex must be held).
        private func take() throws -> Taken? {
            if isCancelled { throw CancellationError() }
            if firstSequence + head > stopAfter { return .end }
            if head < slots.count {
                if slots[head].isDone {
                    let output = slots[head].output
                    slots[head].output = nil
                    head += 1
                    // Drop consumed slots now and then (amortized O(1) per job).
                    if head == slots.count || (head >= 16 && head * 2 >= slots.count) {
                        assert(nextToRun >= head, "consumed jobs were taken")
                        slots.removeFirst(head)
                        firstSequence += head
                        nextToRun -= head
                        head = 0
                    }
                    monitor.signal(monitor.space)
                    assert(output != nil, "a done slot holds its output")
                    return .output(output.unsafelyUnwrapped)
                }
            } else if !isSubmitting {
                if let error = failure {
                    failure = nil  // delivered once; later calls return nil
                    throw error
                }
                return .end
            }
            return nil
        }

        // MARK: Stopping

        func stop(after sequence: Int) {
            monitor.lock()
            if sequence < stopAfter {
                stopAfter = sequence
                monitor.broadcastAll()
                wakeConsumer()
            }
            monitor.unlock()
        }

        func isAbandoned(_ sequence: Int) -> Bool {
            monitor.lock()
            defer { monitor.unlock() }
            return isCancelled || sequence > stopAfter
        }

        func cancel() {
            monitor.lock()
            if !isCancelled {
                isCancelled = true
                // Queued jobs will not run: release what they hold now.
                for index in nextToRun..<slots.count { slots[index].job = nil }
                monitor.broadcastAll()
                wakeConsumer()
            }
            monitor.unlock()
        }
    }
}

/// A value handed to another thread whose safety the code around it guarantees (see the invariants of
/// the file that uses it).
struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
