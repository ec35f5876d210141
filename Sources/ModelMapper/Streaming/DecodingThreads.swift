import Foundation

/// The process's long-lived helper threads for parallel decoding (`WorkerPool.map`): at most
/// `activeProcessorCount` threads, started when work first finds none idle and never stopped, so
/// repeated calls reuse them instead of starting threads of their own (what a thread keeps between
/// decodings is bounded and released by `DecodingBuffers.releaseIdle()`).
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

    private func serve() {
        monitor.lock()
        while true {
            if let body = takeQueued() {
                monitor.unlock()
                body.value()
                monitor.lock()
            } else {
                idle += 1
                monitor.wait(monitor.work)
                idle -= 1
            }
        }
    }

    /// The oldest queued body, taken off the queue (nil when it is empty). Called with `monitor` held.
    ///
    /// Not inlined, so every access to `queue` begins and ends in here: inlined into `serve`'s loop, the
    /// optimizer (`-O` with sanitizer coverage, as `scripts/fuzz` builds) left the loop test's read of
    /// `queue` open across the idle wait, and the write after it stopped the process with "Fatal access
    /// conflict detected" (a fuzz run on the mapping targets).
    @inline(never)
    private func takeQueued() -> UnsafeSendable<() -> Void>? {
        guard head < queue.count else { return nil }
        let body = queue[head].take()  // let what it holds go as soon as it has run
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return body
    }
}
