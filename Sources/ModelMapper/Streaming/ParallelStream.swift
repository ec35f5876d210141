// Unsafe code: worker threads decode records from byte buffers (chunks) that another thread filled.
//
// Invariants: a chunk's bytes are written only before its first group is submitted to the pool (whose
// lock orders the write before the worker's reads), and the chunk stays alive (and unchanged) while any
// group referencing it exists; in-memory input is read only inside the feeder's `withUnsafeBytes`, which
// returns only once no worker runs a group any more; each worker uses only its own decoder.
import Foundation

/// Streams records with several decoding threads and no batch barriers: a feeder thread reads chunks
/// of input and cuts them into groups of records; the pool's workers decode groups as they appear; the
/// consumer takes the groups' outcomes in input order. At most 8 groups per worker are in flight (the
/// pool's queue limit), so memory stays bounded (a few chunks plus the decoded models of those groups).
final class ParallelStream<T> {
    enum Input {
        case file(FileReader)
        case data(Data)
        case bytes([UInt8])
    }

    /// Input bytes that groups point into, kept alive (a window, or the feeder's in-memory input) while
    /// any group refers to them.
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

    /// Records decoded together by one worker (a job of the pool).
    struct Group {
        let chunk: Chunk
        let spans: [RecordSpan]
        /// Global offset just past the group's last record.
        let end: Int

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

    /// Decodes groups; a group's output is its outcomes and the global offset just past it.
    typealias Pool = WorkerPool<Group, (outcomes: OutcomeBuffer<T>, end: Int)>

    private let pool: Pool

    /// Starts the feeder and `engine.workers` decoding threads.
    init(engine: RecordEngine<T>, input: Input, chunkSize: Int) {
        let workers = engine.workers
        pool = WorkerPool(workers: workers, queueLimit: max(8, workers * 8),
                          name: "ModelMapper.JSONLines.worker") { group, context in
            let outcomes = OutcomeBuffer<T>(capacity: group.spans.count)
            group.spans.withUnsafeBufferPointer { spans in
                engine.decoder(context.worker).decode(spans, window: group.chunk.bytes, windowBase: group.chunk.base,
                                                      stopAtRejection: false, into: outcomes)
            }
            return (outcomes, group.end)
        }
        // ~128 KB groups: small enough to keep all workers busy to the end, large enough that the
        // hand-offs (a few lock operations per group) cost nothing measurable.
        let producer = Producer(engine: engine, chunkSize: max(chunkSize, 1), groupBytes: 1 << 17)
        pool.startFeeder(name: "ModelMapper.JSONLines.reader") { feeder in
            try producer.produce(input: input, feeder: feeder)
        }
    }

    /// The next group's outcomes in input order; nil after the last; throws the producer's I/O error
    /// after the groups before it.
    func pop() throws -> (outcomes: OutcomeBuffer<T>, end: Int)? {
        try pool.next()
    }

    /// ``pop()`` from an asynchronous consumer, which suspends while the next group is not ready;
    /// cancelling the task cancels the stream (`CancellationError`).
    func pop(isolation: isolated (any Actor)?) async throws -> (outcomes: OutcomeBuffer<T>, end: Int)? {
        try await pool.next(isolation: isolation)
    }

    /// Stops the threads (after the groups they are decoding).
    func cancel() {
        pool.cancel()
    }

    /// Reads the input and cuts it into groups (on the feeder thread; the engine's splitter is used by
    /// this thread only).
    private final class Producer {
        let engine: RecordEngine<T>
        let chunkSize: Int
        let groupBytes: Int
        let windows = WindowPool()

        init(engine: RecordEngine<T>, chunkSize: Int, groupBytes: Int) {
            self.engine = engine
            self.chunkSize = chunkSize
            self.groupBytes = groupBytes
        }

        func produce(input: Input, feeder: Pool.Feeder) throws {
            switch input {
            case .file(let file):
                try produce(file: file, feeder: feeder)
            case .data(let data):
                data.withUnsafeBytes { produce(memory: $0, feeder: feeder) }
            case .bytes(let bytes):
                bytes.withUnsafeBytes { produce(memory: $0, feeder: feeder) }
            }
        }

        /// Reads chunks. The record cut by a chunk's end is copied to the start of the next chunk; while a
        /// chunk holds no complete record (a record longer than a chunk), reading continues into the same
        /// buffer, which grows, so a long record is copied O(1) times, not once per chunk.
        private func produce(file: FileReader, feeder: Pool.Feeder) throws {
            var window = windows.take(capacity: chunkSize + (1 << 12))
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
                        let next = windows.take(capacity: chunkSize + (1 << 12))
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
                let windows = self.windows
                guard submitGroups(bytes: window.bytes, atEOF: atEOF, feeder: feeder, chunk: {
                    if let chunk { return chunk }
                    let made = Chunk(window: current, pool: windows)
                    chunk = made
                    return made
                }) else { return }
            }
            if chunk == nil { windows.recycle(window) }
        }

        /// Cuts a whole in-memory input into groups, then waits until no worker reads it any more (the
        /// bytes are only valid inside the caller's `withUnsafeBytes`).
        private func produce(memory: UnsafeRawBufferPointer, feeder: Pool.Feeder) {
            let chunk = Chunk(bytes: memory)
            _ = submitGroups(bytes: memory, atEOF: true, feeder: feeder, chunk: { chunk })
            feeder.finishAndWaitForWorkers()
        }

        /// Splits the records of `bytes` into groups and submits them (`chunk()` gives the chunk the
        /// groups keep alive); false if the consumer is gone.
        private func submitGroups(bytes: UnsafeRawBufferPointer, atEOF: Bool,
                                  feeder: Pool.Feeder,
                                  chunk: () -> Chunk) -> Bool {
            var spans: [RecordSpan] = []
            var groupStart = -1
            while true {
                switch engine.split(bytes, atEOF: atEOF) {
                case .span(let span):
                    if groupStart < 0 { groupStart = span.start }
                    spans.append(span)
                    if span.end - groupStart >= groupBytes {
                        guard feeder.submit(Group(chunk: chunk(), spans: spans)) else { return false }
                        spans = []
                        groupStart = -1
                    }
                case .needMore, .end:
                    if !spans.isEmpty { return feeder.submit(Group(chunk: chunk(), spans: spans)) }
                    return true
                }
            }
        }
    }
}
