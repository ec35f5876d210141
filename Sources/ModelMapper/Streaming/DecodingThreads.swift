import Foundation

/// The process's long-lived helper threads for parallel decoding (`WorkerPool.map`): at most
/// `activeProcessorCount` threads, started when work first finds none idle and never stopped (a test's
/// own instance ends its threads with `shutDown()`), so repeated calls reuse them instead of starting
/// threads of their own (what a thread keeps between decodings is bounded and released by
/// `DecodingBuffers.releaseIdle()`).
///
/// Work waits in a FIFO queue when every thread is busy. A body must never wait for another body to
/// start (there may be no thread for it): `map`'s bodies only take jobs that are already queued, and the
/// caller of a synchronous `map` runs jobs itself, so a nested `map` (a decoding hook that decodes in
/// parallel) always completes.
final class DecodingThreads: @unchecked Sendable {
    static let shared = DecodingThreads(limit: Swift.max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// The most threads started.
    let limit: Int
    private let monitor = PoolMonitor()
    // Guarded by `monitor`.
    private var queue: [UnsafeSendable<() -> Void>?] = []
    private var head = 0
    private var threads = 0
    private var idle = 0
    private var isShutDown = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Threads started so far (for tests: it never exceeds `limit`).
    var started: Int {
        monitor.lock()
        defer { monitor.unlock() }
        return threads
    }

    /// Runs `body` on one of the threads, as soon as one is free.
    func run(_ body: UnsafeSendable<() -> Void>) {
        monitor.lock()
        assert(!isShutDown, "no body is queued after shutDown()")
        queue.append(body)
        if queue.count - head > idle && threads < limit {
            threads += 1
            let thread = Thread { [self] in serve() }
            thread.name = "ModelMapper.worker"
            thread.start()
        }
        monitor.signal(monitor.work)
        monitor.unlock()
    }

    /// Ends this instance's threads once the bodies queued before have run (for instances other than
    /// `shared`, which lives as long as the process: a test's own threads).
    func shutDown() {
        monitor.lock()
        isShutDown = true
        monitor.broadcast(monitor.work)
        monitor.unlock()
    }

    /// A thread's loop. It touches no stored property itself: every access to the guarded state is in
    /// `nextBody()`, which returns, so no access can stay open from one iteration into the next.
    ///
    /// (Before, the loop accessed `queue`, `head` and `idle` inline and had no exit. The optimized fuzz
    /// build, `-O -assert-config Debug`, began the loop test's read of `queue` as a tracked access and ended
    /// it only on the path that takes a body: on the idle path, a path that never reaches a return, it stayed
    /// in the thread's access set, and after the wait the same thread's write of `queue` trapped with "Fatal
    /// access conflict detected". One thread overlapping with itself; the checker sees no other thread's
    /// accesses. The same build of that loop with an exit ended the read on every path.
    /// `DecodingThreadsExclusivityTests` builds this file that way and runs it.)
    private func serve() {
        while let body = nextBody() {
            body.value()
        }
    }

    /// The oldest queued body, taken off the queue, waiting while there is none; nil once the instance is
    /// shut down and its queue is empty.
    private func nextBody() -> UnsafeSendable<() -> Void>? {
        monitor.lock()
        defer { monitor.unlock() }
        while head == queue.count {
            if isShutDown { return nil }
            idle += 1
            monitor.wait(monitor.work)
            idle -= 1
        }
        let body = queue[head].take()  // let what it holds go as soon as it has run
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return body
    }
}
