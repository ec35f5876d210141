// Unsafe code: worker threads decode records from byte buffers (chunks) that another thread filled.
//
// Invariants: a chunk's bytes are written only before its first group is published (under the lock),
// and the chunk stays alive (and unchanged) while any group referencing it exists; every field of
// `ParallelStream` marked "shared" is read and written only under `monitor`'s lock; a group's
// `outcomes` is written once by the worker that took it, under the lock, then read by the consumer.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with three condition variables, so each kind of waiter (workers, the consumer, the producer)
/// is woken only when what it waits for may have changed — a single broadcast condition would wake every
/// thread for every finished group.
final class StreamMonitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// A group to decode was published, or production ended.
    let work = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// The consumer's next group was decoded, or production ended.
    let done = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Room for another group, or a thread exited.
    let space = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        for variable in [work, done, space] { pthread_cond_init(variable, nil) }
    }

    deinit {
        for variable in [work, done, space] {
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
        broadcast(work)
        broadcast(done)
        broadcast(space)
    }
}

/// Streams records with several decoding threads and no batch barriers: a producer thread reads chunks
/// of input and cuts them into groups of records; worker threads decode groups as they appear; the
/// consumer takes the groups' outcomes in input order. At most `maximumGroups` groups are in flight,
/// so memory stays bounded (a few chunks plus the decoded models of those groups).
final class ParallelStream<T: JSONMappable>: @unchecked Sendable {
    enum Input {
        case file(FileReader)
        case data(Data)
        case bytes([UInt8])
    }

    /// Input bytes that groups point into; `owner` keeps them alive.
    final class Chunk: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
        /// Global offset of `bytes[0]`.
        let base: Int
        let window: StreamWindow?
        private let pool: WindowPool?

        init(window: StreamWindow, pool: WindowPool) {
            self.window = window
            self.pool = pool
            bytes = window.bytes
            base = window.base
        }

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            base = 0
            window = nil
            pool = nil
        }

        deinit {
            if let window { pool?.recycle(window) }
        }
    }

    /// Records decoded together by one worker.
    final class Group: @unchecked Sendable {
        let chunk: Chunk
        let spans: [RecordSpan]
        /// Global offset just past the group's last record.
        let end: Int
        /// Set once by the worker (shared).
        var outcomes: OutcomeBuffer<T>?

        init(chunk: Chunk, spans: [RecordSpan]) {
            self.chunk = chunk
            self.spans = spans
            end = chunk.base + (spans.last?.end ?? 0)
        }
    }

    /// Spare windows, so chunks do not allocate (and page-fault) fresh buffers.
    final class WindowPool: @unchecked Sendable {
        private let lock = NSLock()
        private var windows: [StreamWindow] = []

        func recycle(_ window: StreamWindow) {
            lock.lock()
            if windows.count < 8 { windows.append(window) }
            lock.unlock()
        }

        func take(capacity: Int) -> StreamWindow {
            lock.lock()
            let window = windows.popLast()
            lock.unlock()
            return window ?? StreamWindow(capacity: capacity)
        }
    }

    private let monitor = StreamMonitor()
    // Shared: groups in input order from `head` (next for the consumer); `nextToDecode` is the next for
    // the workers.
    private var groups: [Group] = []
    private var head = 0
    private var nextToDecode = 0
    private var isProducing = true
    private var failure: Error?
    private var isCancelled = false
    private var activeThreads = 0

    private let maximumGroups: Int
    private let groupBytes: Int
    private let chunkSize: Int
    private let pool = WindowPool()

    /// Starts the producer and `engine.workers` decoding threads.
    init(engine: RecordEngine<T>, input: Input, chunkSize: Int) {
        let workers = engine.workers
        self.chunkSize = max(chunkSize, 1)
        // ~128 KB groups: small enough to keep all workers busy to the end, large enough that the
        // hand-offs (a few lock operations per group) cost nothing measurable.
        groupBytes = 1 << 17
        maximumGroups = max(8, workers * 8)
        activeThreads = workers + 1
        start("ModelMapper.JSONLines.reader") { [self] in self.produce(engine: engine, input: input) }
        for worker in 0..<workers {
            let decoder = engine.decoder(worker)
            start("ModelMapper.JSONLines.worker") { [self] in self.work(decoder: decoder) }
        }
    }

    private func start(_ name: String, _ body: @escaping () -> Void) {
        let transfer = UnsafeTransfer(value: body)
        let thread = Thread { transfer.value() }
        thread.name = name
        thread.start()
    }

    // MARK: Producer

    private func produce(engine: RecordEngine<T>, input: Input) {
        defer { threadExits() }
        do {
            switch input {
            case .file(let file):
                try produce(engine: engine, file: file)
            case .data(let data):
                data.withUnsafeBytes { produce(engine: engine, memory: $0) }
                return
            case .bytes(let bytes):
                bytes.withUnsafeBytes { produce(engine: engine, memory: $0) }
                return
            }
            finishProducing(nil)
        } catch {
            finishProducing(error)
        }
    }

    /// Reads chunks. The record cut by a chunk's end is copied to the start of the next chunk; while a
    /// chunk holds no complete record (a record longer than a chunk), reading continues into the same
    /// buffer, which grows, so a long record is copied O(1) times, not once per chunk.
    private func produce(engine: RecordEngine<T>, file: FileReader) throws {
        var window = pool.take(capacity: chunkSize + (1 << 12))
        window.reset(free: chunkSize)
        /// The chunk wrapping `window` once groups point into it (then `window` must not change).
        var chunk: Chunk? = nil
        var atEOF = false
        var first = true
        while !atEOF {
            if !first {
                let keep = engine.retainFrom
                if chunk == nil {
                    engine.discard(upTo: keep, window: window.bytes)
                    window.prepare(keepFrom: keep, free: chunkSize)
                } else {
                    let next = pool.take(capacity: chunkSize + (1 << 12))
                    next.continue(window, from: keep, free: chunkSize)
                    engine.discard(upTo: keep, window: window.bytes)
                    window = next
                    chunk = nil
                }
            }
            first = false
            var got = 0
            while got < chunkSize {
                let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: window.freeSpace[0..<(chunkSize - got)]))
                if n == 0 {
                    atEOF = true
                    break
                }
                window.didAppend(n)
                got += n
            }
            let current = window
            guard publishGroups(engine: engine, bytes: window.bytes, atEOF: atEOF, chunk: {
                if let chunk { return chunk }
                let made = Chunk(window: current, pool: self.pool)
                chunk = made
                return made
            }) else { return }
        }
        if chunk == nil { pool.recycle(window) }
    }

    /// Cuts a whole in-memory input into groups, then waits until no worker reads it any more (the
    /// bytes are only valid inside the caller's `withUnsafeBytes`).
    private func produce(engine: RecordEngine<T>, memory: UnsafeRawBufferPointer) {
        let chunk = Chunk(bytes: memory)
        _ = publishGroups(engine: engine, bytes: memory, atEOF: true, chunk: { chunk })
        finishProducing(nil)
        monitor.lock()
        while activeThreads > 1 { monitor.wait(monitor.space) }  // the workers (this thread is the other one)
        monitor.unlock()
    }

    /// Splits the records of `bytes` into groups and publishes them (`chunk()` gives the chunk the
    /// groups keep alive); false if the consumer is gone.
    private func publishGroups(engine: RecordEngine<T>, bytes: UnsafeRawBufferPointer, atEOF: Bool,
                               chunk: () -> Chunk) -> Bool {
        var spans: [RecordSpan] = []
        var groupStart = -1
        while true {
            switch engine.split(bytes, atEOF: atEOF) {
            case .span(let span):
                if groupStart < 0 { groupStart = span.start }
                spans.append(span)
                if span.end - groupStart >= groupBytes {
                    guard publish(Group(chunk: chunk(), spans: spans)) else { return false }
                    spans = []
                    groupStart = -1
                }
            case .needMore, .end:
                if !spans.isEmpty { return publish(Group(chunk: chunk(), spans: spans)) }
                return true
            }
        }
    }

    /// Appends a group for the workers, waiting while too many are in flight.
    private func publish(_ group: Group) -> Bool {
        monitor.lock()
        defer { monitor.unlock() }
        while groups.count - head >= maximumGroups && !isCancelled { monitor.wait(monitor.space) }
        if isCancelled { return false }
        groups.append(group)
        monitor.signal(monitor.work)
        return true
    }

    private func finishProducing(_ error: Error?) {
        monitor.lock()
        isProducing = false
        if failure == nil { failure = error }
        monitor.broadcast(monitor.work)
        monitor.broadcast(monitor.done)
        monitor.unlock()
    }

    // MARK: Workers

    private func work(decoder: RecordDecoder<T>) {
        defer { threadExits() }
        while let group = takeGroup() {
            let outcomes = OutcomeBuffer<T>(capacity: group.spans.count)
            group.spans.withUnsafeBufferPointer { spans in
                decoder.decode(spans, window: group.chunk.bytes, windowBase: group.chunk.base,
                               stopAtRejection: false, into: outcomes)
            }
            monitor.lock()
            group.outcomes = outcomes
            if head < groups.count && groups[head] === group { monitor.signal(monitor.done) }
            monitor.unlock()
        }
    }

    /// The next group to decode, or nil when there is none and will be none.
    private func takeGroup() -> Group? {
        monitor.lock()
        defer { monitor.unlock() }
        while true {
            if isCancelled { return nil }
            if nextToDecode < groups.count {
                defer { nextToDecode += 1 }
                return groups[nextToDecode]
            }
            if !isProducing { return nil }
            monitor.wait(monitor.work)
        }
    }

    private func threadExits() {
        monitor.lock()
        activeThreads -= 1
        monitor.broadcast(monitor.space)
        monitor.unlock()
    }

    // MARK: Consumer

    /// The next group's outcomes in input order; nil after the last; throws the producer's I/O error
    /// after the groups before it.
    func pop() throws -> (outcomes: OutcomeBuffer<T>, end: Int)? {
        monitor.lock()
        defer { monitor.unlock() }
        while true {
            if head < groups.count {
                let group = groups[head]
                if let outcomes = group.outcomes {
                    head += 1
                    // Drop consumed groups (and so their chunks) right away.
                    if head >= 8 || head == groups.count {
                        groups.removeFirst(head)
                        nextToDecode -= head
                        head = 0
                    }
                    monitor.signal(monitor.space)
                    return (outcomes, group.end)
                }
            } else if !isProducing {
                if let failure { throw failure }
                return nil
            }
            monitor.wait(monitor.done)
        }
    }

    /// Stops the threads (after the groups they are decoding).
    func cancel() {
        monitor.lock()
        isCancelled = true
        monitor.broadcastAll()
        monitor.unlock()
    }
}
