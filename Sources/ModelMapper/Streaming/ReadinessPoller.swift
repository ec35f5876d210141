// Unsafe code: the poller thread hands `poll(2)` its array of `pollfd`s and drains its wake pipe into a
// local buffer; waiting tasks are resumed through `UnsafeContinuation`s.
//
// Invariants: every field marked "guarded" is read and written only while `lock` is held. A waiter's
// continuation is stored and taken under the lock and resumed exactly once, outside it: by the poller
// thread when the descriptor polled readable, by the cancellation handler, or with the error that stopped
// `poll(2)` itself; whoever takes it also removes the waiter from `waiters`. The wake pipe exists exactly
// while `isRunning` (made by the thread's starter and closed by the thread as it ends, both under the
// lock), and is written only under the lock. `poll(2)` gets an array built for that call only; a
// descriptor closed while it is polled reports `POLLNVAL` or nothing, and its waiter, already removed,
// is not resumed twice.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one thread of the process that waits for stream input: asynchronous stream readers whose
/// descriptor (a pipe, a FIFO, a socket, a terminal) has nothing to read suspend their task here, and this
/// thread, blocked in `poll(2)` on every such descriptor at once, resumes each task when its descriptor
/// becomes readable (or reports an error or the end of the input). A waiting stream holds no thread of
/// its own: any number of idle streams cost this one thread.
///
/// The thread starts with the first wait and ends after a second with no waiters (closing its wake pipe),
/// so a process that stops streaming gets back to the threads and descriptors it had.
final class ReadinessPoller: @unchecked Sendable {
    static let shared = ReadinessPoller()

    /// How long (milliseconds) the thread stays with nobody waiting before it ends.
    private let idleMilliseconds: Int32

    /// One suspended task and the descriptor it waits for.
    private final class Waiter: @unchecked Sendable {
        let fd: Int32
        // Guarded.
        var continuation: UnsafeContinuation<Void, any Error>?
        var isCancelled = false

        init(fd: Int32) { self.fd = fd }
    }

    private let lock = NSLock()
    // Guarded.
    private var waiters: [ObjectIdentifier: Waiter] = [:]
    private var isRunning = false
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private var threadsStarted = 0

    init(idleMilliseconds: Int32 = 1000) {
        self.idleMilliseconds = idleMilliseconds
    }

    /// Threads this poller has started so far (for tests: one per busy period, not one per stream).
    var startedThreads: Int {
        lock.lock()
        defer { lock.unlock() }
        return threadsStarted
    }

    /// Whether the poller thread is running now.
    var isThreadRunning: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isRunning
    }

    /// Suspends the calling task until `fd` is readable (data, the end of the input, or an error a read
    /// will report). Cancelling the task ends the wait at once with `CancellationError`. Throws a
    /// ``StreamIOError`` if the poller cannot be started or `poll(2)` fails.
    func waitUntilReadable(_ fd: Int32, isolation: isolated (any Actor)? = #isolation) async throws {
        let waiter = Waiter(fd: fd)
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation(isolation: isolation) {
                (continuation: UnsafeContinuation<Void, any Error>) in
                lock.lock()
                if waiter.isCancelled {
                    lock.unlock()
                    continuation.resume(throwing: CancellationError())
                    return
                }
                do {
                    try startIfNeeded()
                } catch {
                    lock.unlock()
                    continuation.resume(throwing: error)
                    return
                }
                waiter.continuation = continuation
                waiters[ObjectIdentifier(waiter)] = waiter
                wake()
                lock.unlock()
            }
        } onCancel: {
            lock.lock()
            waiter.isCancelled = true
            let continuation = waiter.continuation
            waiter.continuation = nil
            if continuation != nil {
                waiters[ObjectIdentifier(waiter)] = nil
                wake()  // stop polling the descriptor: its owner may close it now
            }
            lock.unlock()
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Starts the thread and its wake pipe unless it runs (the lock must be held).
    private func startIfNeeded() throws {
        if isRunning { return }
        var ends: [Int32] = [-1, -1]
        // (`pipe2`, which would set both flags at once, is not in the Glibc module: a process that forks
        // at this very moment may pass the pipe to its child, which then holds two idle descriptors.)
        guard pipe(&ends) == 0 else { throw StreamIOError(operation: "pipe", path: nil, errno: errno) }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        isRunning = true
        threadsStarted += 1
        let thread = Thread { [self] in run() }
        thread.name = "ModelMapper.poller"
        thread.start()
    }

    /// Makes the thread rebuild its set of descriptors (the lock must be held). A full pipe already wakes it.
    private func wake() {
        guard wakeWrite >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func run() {
        var entries: [pollfd] = []
        var polled: [Waiter] = []
        var scratch = [UInt8](repeating: 0, count: 64)
        lock.lock()
        while true {
            entries.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            entries.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            for waiter in waiters.values {
                polled.append(waiter)
                entries.append(pollfd(fd: waiter.fd, events: Int16(POLLIN), revents: 0))
            }
            let timeout: Int32 = polled.isEmpty ? idleMilliseconds : -1
            lock.unlock()
            let result = poll(&entries, nfds_t(entries.count), timeout)
            let failure = result < 0 ? errno : 0
            lock.lock()
            if result == 0 && polled.isEmpty && waiters.isEmpty {
                // Idle for `idleMilliseconds`: end, and let the next wait start a thread again.
                isRunning = false
                _ = close(wakeRead)
                _ = close(wakeWrite)
                wakeRead = -1
                wakeWrite = -1
                lock.unlock()
                return
            }
            if result > 0 && entries[0].revents != 0 {
                while read(wakeRead, &scratch, scratch.count) > 0 {}
            }
            var resumed: [UnsafeContinuation<Void, any Error>] = []
            if result > 0 {
                for (index, waiter) in polled.enumerated() where entries[index + 1].revents != 0 {
                    // A waiter cancelled meanwhile has no continuation any more (and is no longer listed).
                    if let continuation = waiter.continuation {
                        waiter.continuation = nil
                        waiters[ObjectIdentifier(waiter)] = nil
                        resumed.append(continuation)
                    }
                }
            }
            var failed: [UnsafeContinuation<Void, any Error>] = []
            if result < 0 && failure != EINTR && failure != EAGAIN {
                // poll itself failed (ENOMEM, too many descriptors): tell the waiters instead of spinning.
                for waiter in waiters.values {
                    if let continuation = waiter.continuation { failed.append(continuation) }
                    waiter.continuation = nil
                }
                waiters.removeAll()
            }
            lock.unlock()
            for continuation in resumed { continuation.resume() }
            for continuation in failed {
                continuation.resume(throwing: StreamIOError(operation: "poll", path: nil, errno: failure))
            }
            lock.lock()
        }
    }
}
