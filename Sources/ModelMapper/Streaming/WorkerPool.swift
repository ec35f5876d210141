// Unsafe code: a pthread mutex and condition variables allocated by hand (they must not move), shared by
// the pool's threads.
//
// Invariants: the mutex and conditions are initialized in `PoolMonitor.init` and destroyed in its `deinit`,
// which runs only when no thread can use them any more (every pool thread holds the core, which holds the
// monitor, until it returns); every field of `WorkerPool.Core` marked "guarded" is read and written only
// while the mutex is held; a slot's job is taken by exactly one worker (`nextToRun` only moves forward
// under the lock), that worker writes the slot's output once, and the consumer moves it out once; slots
// are dropped (compacted) only once consumed, so a running job's slot stays at `sequence - firstSequence`.
import Foundation
#if canImport(Glibc)
import Glibc
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
/// `perform(job, context)`; the consumer takes the outputs in submission order with ``next()``. At most
/// `queueLimit` jobs are submitted and not yet consumed (queued, running or waiting for the consumer), so
/// a fast producer cannot run ahead: memory stays bounded. Jobs are submitted either by the consumer
/// itself (``map(_:workers:name:_:)``, all jobs known up front) or by a feeder thread the pool starts
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

    /// ``next()`` for an asynchronous consumer: cancelling the task cancels the pool, which ends the wait
    /// with `CancellationError`. (The wait itself blocks the calling thread until the output is ready.)
    func next(isolation: isolated (any Actor)? = #isolation) async throws -> Output? {
        let core = self.core
        if Task.isCancelled {
            core.cancel()
            throw CancellationError()
        }
        return try await withTaskCancellationHandler {
            try core.next()
        } onCancel: {
            core.cancel()
        }
    }

    /// Stops the pool: see the type's documentation. Returns at once (workers exit after their current
    /// job, a feeder at its next submission, after the read it may be blocked in).
    func cancel() { core.cancel() }

    /// Runs `perform` for jobs `0..<count` on up to `workers` threads — the calling thread and
    /// `min(workers, count) - 1` new ones — and returns the outputs in job order: all of them, or, if a job
    /// called `stopAfterThisJob()`, those up to the earliest such job.
    static func map(_ count: Int, workers: Int, name: String,
                    _ perform: @escaping (Int, Context) -> Output) -> [Output] where Job == Int {
        guard count > 0 else { return [] }
        let threads = Swift.max(1, Swift.min(workers, count))
        // No handle (whose deinit would cancel): the calling thread owns the core until the end.
        let core = Core(queueLimit: count, perform: perform)
        for job in 0..<count { core.submit(job) }
        core.finish(throwing: nil)
        core.startWorkers(threads - 1, first: 1, name: name)
        core.runWorker(0)
        var outputs: [Output] = []
        outputs.reserveCapacity(count)
        // Cannot throw: there is no feeder, and nothing else can cancel this core.
        while let output = try? core.next() { outputs.append(output) }
        return outputs
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

        init(queueLimit: Int, perform: @escaping (Job, Context) -> Output) {
            self.queueLimit = Swift.max(1, queueLimit)
            self.perform = perform
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
                    if at == head { monitor.signal(monitor.ready) }
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
            monitor.broadcast(monitor.ready)
            monitor.unlock()
        }

        // MARK: Consuming

        func next() throws -> Output? {
            monitor.lock()
            defer { monitor.unlock() }
            while true {
                if isCancelled { throw CancellationError() }
                if firstSequence + head > stopAfter { return nil }
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
                        return output
                    }
                } else if !isSubmitting {
                    if let error = failure {
                        failure = nil  // delivered once; later calls return nil
                        throw error
                    }
                    return nil
                }
                monitor.wait(monitor.ready)
            }
        }

        // MARK: Stopping

        func stop(after sequence: Int) {
            monitor.lock()
            if sequence < stopAfter {
                stopAfter = sequence
                monitor.broadcastAll()
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
