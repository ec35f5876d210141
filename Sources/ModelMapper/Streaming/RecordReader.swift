// Unsafe code: an asynchronous iterator's read fills the window's free space across a suspension.
//
// Invariants: while a read is pending the iterator is suspended awaiting it and touches neither the window
// nor the reader (one iteration at a time); the suspended call holds both, and the reader writes only into
// the free space it was given, before the call returns (no other thread reads for it: a descriptor is read
// on the iterating task once `poll(2)` says it is readable). A read ahead (while a batch decodes from the
// window) writes only into a spare window no batch references (checked: uniquely referenced).
import Foundation

/// Drives a ``RecordEngine`` over a source: keeps the window of input, refills it when the engine asks,
/// and turns setup and I/O failures into errors. Used by both the synchronous and the asynchronous
/// iterators; not thread-safe (one iteration at a time).
///
/// Synchronous iteration with several workers runs reading and decoding on background threads
/// (``ParallelStream``) ahead of the caller. Asynchronous iteration over a file, a path or a handle reads
/// with a ``DescriptorReader`` on the iterating task (a descriptor that has nothing to read suspends the
/// task on the process's one ``ReadinessPoller`` thread), like an `AsyncSequence` source; with several
/// workers its batches are decoded on the shared ``DecodingThreads`` while the task is suspended. So an
/// asynchronous iteration over input that arrives later starts no thread of its own and never blocks a
/// thread of Swift's cooperative pool. (In-memory input with several workers still uses a pipeline.)
final class RecordReader<T> {
    private let source: StreamSource
    private let chunkSize: Int
    private var engine: RecordEngine<T>?
    private var setupError: Error?
    private var isOpen = false
    private var isDone = false
    private var feeder: FileFeeder?
    /// The asynchronous source's reader (released at the end of the iteration: a descriptor the stream
    /// opened is closed then, not when the iterator goes away).
    private var asyncReader: AsyncByteReader?
    private var asyncWindow: StreamWindow?
    /// Windows that batches in flight were started from, once reading ahead moved on to another one; each
    /// is reused for a later read ahead once no batch holds it (at most one per batch in flight).
    private var spareWindows: [StreamWindow] = []
    private var asyncAtEOF = false
    private var pipeline: ParallelStream<T>?
    private var group: OutcomeBuffer<T>?

    init(source: StreamSource, format: JSONStreamFormat, model: RecordModel<T>, limit: RecordLimit,
         policy: RecordErrorPolicy, workers: Int, chunkSize: Int, progress: ProgressReporting? = nil) {
        self.source = source
        self.chunkSize = max(1, chunkSize)
        do {
            engine = try RecordEngine(format: format, model: model, limit: limit, policy: policy, workers: workers,
                                      batchBytes: max(1, workers) * self.chunkSize, progress: progress)
        } catch {
            setupError = error
        }
    }

    deinit {
        pipeline?.cancel()
    }

    /// Bytes allocated for the input window (0 for in-memory inputs or while a pipeline owns it): bounded
    /// by the largest record (at most the record limit) plus the chunk (batch) size, and less than twice that
    /// (the buffer grows by doubling).
    var windowCapacity: Int {
        if pipeline != nil { return 0 }
        return feeder?.window.capacity ?? asyncWindow?.capacity ?? 0
    }

    /// Bytes allocated for input buffers in all: ``windowCapacity`` plus, with several workers reading
    /// asynchronously, the spare windows that reading ahead takes in turn.
    var inputCapacity: Int {
        windowCapacity + (pipeline == nil ? spareWindows.reduce(0) { $0 + $1.capacity } : 0)
    }

    /// Global byte offset just past the last record handed out or rejected (for progress displays;
    /// with several workers, the end of the current group of records).
    var bytesConsumed: Int {
        engine?.bytesConsumed ?? 0
    }

    /// The reading's statistics so far.
    var progress: JSONLinesProgress {
        engine?.progress.snapshot(bytes: bytesConsumed) ?? JSONLinesProgress()
    }

    /// The end of the iteration: the final progress report — at the end of the input, with every byte
    /// read; after an error, up to the last record handed out or rejected.
    private func finishProgress(atEnd: Bool = true) {
        guard let engine else { return }
        var bytes = engine.bytesConsumed
        if atEnd {
            switch source {
            case .data(let data): bytes = data.count
            case .bytes(let array): bytes = array.count
            default:
                if let window = feeder?.window ?? asyncWindow { bytes = max(bytes, window.base + window.bytes.count) }
            }
        }
        engine.progress.finish(bytes: bytes)
    }

    /// The next model; nil at the end. Throws for `.stop` errors, I/O errors, and asynchronous sources.
    func nextSync() throws -> T? {
        guard !isDone else { return nil }
        do {
            if case .async = source {
                throw MappingError(.unsupportedType,
                                   "this reader's input is an AsyncSequence: iterate it with `for try await`")
            }
            let engine = try open(asynchronously: false)
            if let pipeline { return try next(from: pipeline, policy: engine.policy) }
            while true {
                switch try step(engine) {
                case .element(let model): return model
                case .finished:
                    isDone = true
                    finishProgress()
                    return nil
                case .needInput:
                    try feeder!.refill(engine)
                case .readAhead:
                    assertionFailure("only the batched step reads ahead")
                }
            }
        } catch {
            end()
            throw error
        }
    }

    /// The next model; the task suspends (no thread waits) while input is read or records are decoded
    /// elsewhere. Cancelling the task ends the iteration with `CancellationError` (at once while it waits
    /// for input or a pipeline; before the next read otherwise), and closes a file the stream opened.
    func nextAsync(isolation: isolated (any Actor)?) async throws -> T? {
        guard !isDone else { return nil }
        do {
            let engine = try open(asynchronously: true)
            if let pipeline { return try await next(from: pipeline, policy: engine.policy, isolation: isolation) }
            while true {
                let step: RecordEngine<T>.Step
                if engine.workers > 1, let window = asyncWindow {
                    step = try await engine.step(window: window, atEOF: asyncAtEOF, isolation: isolation)
                } else {
                    step = try self.step(engine)
                }
                switch step {
                case .element(let model): return model
                case .finished:
                    end(atEnd: true)
                    return nil
                case .needInput:
                    if let asyncReader, let window = asyncWindow {
                        let want = engine.workers > 1 ? engine.batchBytes : chunkSize
                        let keep = engine.retainFrom
                        engine.discard(upTo: keep, window: window.bytes)
                        window.prepare(keepFrom: keep, free: want)
                        let n = try await asyncReader.read(
                            into: UnsafeMutableRawBufferPointer(rebasing: window.freeSpace[0..<want]), isolation: isolation)
                        if n == 0 { asyncAtEOF = true } else { window.didAppend(n) }
                    } else {
                        throw MappingError(.unsupportedType, "reader not set up for asynchronous iteration")
                    }
                case .readAhead:
                    try readAhead(engine)
                }
            }
        } catch {
            end()
            throw error
        }
    }

    /// While batches decode: continues the window's undecoded bytes in a spare window no batch uses and
    /// appends what input is ready without waiting (a regular file: a batch's worth; a pipe: what it holds;
    /// an `AsyncSequence`: nothing), so the next batch can start before the ones in flight are back.
    private func readAhead(_ engine: RecordEngine<T>) throws {
        guard let reader = asyncReader, let window = asyncWindow else { return }
        let want = engine.batchBytes
        // A spare only this list holds: a batch that returned may hold its window a moment longer.
        let free = spareWindows.indices.first { isKnownUniquelyReferenced(&spareWindows[$0]) }
        let fresh = free.map { spareWindows.remove(at: $0) } ?? StreamWindow(capacity: want + (1 << 12))
        assert(fresh !== window, "reading ahead into the window a batch decodes from")
        let keep = engine.retainFrom
        fresh.continue(window, from: keep, free: want)
        engine.discard(upTo: keep, window: window.bytes)
        if spareWindows.count < RecordEngine<T>.batchesInFlight { spareWindows.append(window) }
        asyncWindow = fresh
        guard let n = try reader.readIfReady(into: UnsafeMutableRawBufferPointer(rebasing: fresh.freeSpace[0..<want]))
        else { return }
        if n == 0 { asyncAtEOF = true } else { fresh.didAppend(n) }
    }

    private func end(atEnd: Bool = false) {
        isDone = true
        finishProgress(atEnd: atEnd)
        // Closes a descriptor the stream opened (a caller's handle stays open) and lets an
        // `AsyncSequence`'s iterator go.
        (asyncReader as? DescriptorReader)?.close()
        asyncReader = nil
        spareWindows = []
        if let pipeline {
            pipeline.cancel()
        } else {
            engine?.finish()
        }
    }

    private func next(from pipeline: ParallelStream<T>, policy: RecordErrorPolicy) throws -> T? {
        while true {
            while let outcome = group?.takeNext() {
                if let model = try engine!.deliver(outcome) { return model }
            }
            group = nil
            guard let next = try pipeline.pop() else {
                isDone = true
                finishProgress()
                return nil
            }
            group = next.outcomes
            engine!.bytesConsumed = next.end
        }
    }

    /// ``next(from:policy:)`` for `for try await`: a cancelled task stops the pipeline's threads and
    /// ends the iteration with `CancellationError` (checked whenever the next group is needed).
    private func next(from pipeline: ParallelStream<T>, policy: RecordErrorPolicy,
                      isolation: isolated (any Actor)?) async throws -> T? {
        while true {
            while let outcome = group?.takeNext() {
                if let model = try engine!.deliver(outcome) { return model }
            }
            group = nil
            guard let next = try await pipeline.pop(isolation: isolation) else {
                isDone = true
                finishProgress()
                return nil
            }
            group = next.outcomes
            engine!.bytesConsumed = next.end
        }
    }

    /// Sets the input up on first use: `asynchronously` for `for try await` (a file or handle is then read
    /// through a ``DescriptorReader``, whatever the number of workers).
    private func open(asynchronously: Bool) throws -> RecordEngine<T> {
        if let setupError { throw setupError }
        guard let engine else { throw MappingError(.unsupportedType, "reader not set up") }
        if isOpen { return engine }
        isOpen = true
        let parallel = engine.workers > 1
        switch source {
        case .data(let data):
            if parallel { pipeline = ParallelStream(engine: engine, input: .data(data), chunkSize: chunkSize) }
        case .bytes(let bytes):
            if parallel { pipeline = ParallelStream(engine: engine, input: .bytes(bytes), chunkSize: chunkSize) }
        case .path(let path) where asynchronously:
            openAsync(DescriptorReader(file: try FileReader(path: path, nonBlocking: true)), engine: engine)
        case .fileHandle(let handle) where asynchronously:
            openAsync(DescriptorReader(file: FileReader(fd: handle.fileDescriptor, closesOnDeinit: false)),
                      engine: engine)
        case .path(let path):
            let file = try FileReader(path: path)
            if parallel {
                pipeline = ParallelStream(engine: engine, input: .file(file), chunkSize: chunkSize)
            } else {
                feeder = FileFeeder(file: file, want: chunkSize)
            }
        case .fileHandle(let handle):
            let file = FileReader(fd: handle.fileDescriptor, closesOnDeinit: false)
            if parallel {
                pipeline = ParallelStream(engine: engine, input: .file(file), chunkSize: chunkSize)
            } else {
                feeder = FileFeeder(file: file, want: chunkSize)
            }
        case .async(let maker):
            openAsync(maker.make(), engine: engine)
        case .invalid(let error):
            throw error
        }
        return engine
    }

    private func openAsync(_ reader: AsyncByteReader, engine: RecordEngine<T>) {
        asyncReader = reader
        asyncWindow = StreamWindow(capacity: (engine.workers > 1 ? engine.batchBytes : chunkSize) + (1 << 12))
    }

    private func step(_ engine: RecordEngine<T>) throws -> RecordEngine<T>.Step {
        switch source {
        case .data(let data):
            return try data.withUnsafeBytes { bytes in
                try engine.step(window: bytes, windowBase: 0, atEOF: true)
            }
        case .bytes(let bytes):
            return try bytes.withUnsafeBytes { bytes in
                try engine.step(window: bytes, windowBase: 0, atEOF: true)
            }
        default:
            if let feeder {
                return try engine.step(window: feeder.window.bytes, windowBase: feeder.window.base, atEOF: feeder.atEOF)
            }
            let window = asyncWindow!
            return try engine.step(window: window.bytes, windowBase: window.base, atEOF: asyncAtEOF)
        }
    }
}

/// The input window of a file-backed stream read by one worker, refilled with blocking reads on the
/// caller's thread (synchronous iteration; asynchronous iteration reads through a ``DescriptorReader``).
final class FileFeeder {
    private let file: FileReader
    /// Bytes to read per refill.
    private let want: Int
    private(set) var window: StreamWindow
    private(set) var atEOF = false

    init(file: FileReader, want: Int) {
        self.file = file
        self.want = want
        window = StreamWindow(capacity: want + (1 << 12))
    }

    /// Drops what the engine no longer needs and reads once (so a pipe's records flow as they come).
    func refill<T>(_ engine: RecordEngine<T>) throws {
        guard !atEOF else { return }
        let keep = engine.retainFrom
        engine.discard(upTo: keep, window: window.bytes)
        window.prepare(keepFrom: keep, free: want)
        let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: window.freeSpace[0..<want]))
        if n == 0 { atEOF = true } else { window.didAppend(n) }
    }
}
