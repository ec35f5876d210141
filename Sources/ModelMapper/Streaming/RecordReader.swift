// Unsafe code: an asynchronous iterator's file read fills the window's free space on another thread.
//
// Invariants: while a read is pending the iterator is suspended awaiting it and touches neither the window
// nor the file (one iteration at a time); the read holds both, so when the iteration is cancelled or dropped
// during a read they stay alive until it returns, and the iterator never uses them again.
import Foundation

/// Drives a ``RecordEngine`` over a source: keeps the window of input, refills it when the engine asks,
/// and turns setup and I/O failures into errors. Used by both the synchronous and the asynchronous
/// iterators; not thread-safe (one iteration at a time).
///
/// With several workers and a synchronous source (a file, a handle or memory), reading and decoding run
/// on background threads (``ParallelStream``) ahead of the caller; with an asynchronous source, batches
/// are decoded on the shared ``DecodingThreads`` when the caller asks.
///
/// Asynchronous iteration never blocks a thread of Swift's cooperative pool: it suspends while a
/// pipeline or a batch is not ready, and with one worker a file or handle is read by a thread of the
/// reader's own (``FileFeeder/refill(_:isolation:)``). Only decoding itself runs on the iterating task
/// (one worker).
final class RecordReader<T: JSONMappable> {
    private let source: StreamSource
    private let chunkSize: Int
    private var engine: RecordEngine<T>?
    private var setupError: Error?
    private var isOpen = false
    private var isDone = false
    private var feeder: FileFeeder?
    private var asyncReader: AsyncByteReader?
    private var asyncWindow: StreamWindow?
    private var asyncAtEOF = false
    private var pipeline: ParallelStream<T>?
    private var group: OutcomeBuffer<T>?
    private var groupEnd = 0

    init(source: StreamSource, format: JSONStreamFormat, options: DecodingOptions, policy: RecordErrorPolicy,
         workers: Int, chunkSize: Int) {
        self.source = source
        self.chunkSize = max(1, chunkSize)
        do {
            engine = try RecordEngine(format: format, options: options, policy: policy, workers: workers,
                                      batchBytes: max(1, workers) * self.chunkSize)
        } catch {
            setupError = error
        }
    }

    deinit {
        pipeline?.cancel()
    }

    /// Bytes allocated for the input window (0 for in-memory inputs or while a pipeline owns it): bounded
    /// by the largest record plus the chunk (batch) size.
    var windowCapacity: Int {
        if pipeline != nil { return 0 }
        return feeder?.window.capacity ?? asyncWindow?.capacity ?? 0
    }

    /// Global byte offset just past the last record handed out or rejected (for progress displays;
    /// with several workers, the end of the current group of records).
    var bytesConsumed: Int {
        if pipeline != nil { return groupEnd }
        return engine?.bytesConsumed ?? 0
    }

    /// The next model; nil at the end. Throws for `.stop` errors, I/O errors, and asynchronous sources.
    func nextSync() throws -> T? {
        guard !isDone else { return nil }
        do {
            let engine = try open()
            if asyncReader != nil {
                throw MappingError(.unsupportedType,
                                   "this reader's input is an AsyncSequence: iterate it with `for try await`")
            }
            if let pipeline { return try next(from: pipeline, policy: engine.policy) }
            while true {
                switch try step(engine) {
                case .element(let model): return model
                case .finished:
                    isDone = true
                    return nil
                case .needInput:
                    try feeder!.refill(engine)
                }
            }
        } catch {
            end()
            throw error
        }
    }

    /// The next model; the task suspends (no thread waits) while input is read or records are decoded
    /// elsewhere. Cancelling the task while it waits for a pipeline or a file read ends the iteration with
    /// `CancellationError`.
    func nextAsync(isolation: isolated (any Actor)?) async throws -> T? {
        guard !isDone else { return nil }
        do {
            let engine = try open()
            if let pipeline { return try await next(from: pipeline, policy: engine.policy, isolation: isolation) }
            while true {
                let step: RecordEngine<T>.Step
                if engine.workers > 1, let window = asyncWindow {
                    step = try await engine.step(window: window.bytes, windowBase: window.base, atEOF: asyncAtEOF,
                                                 isolation: isolation)
                } else {
                    step = try self.step(engine)
                }
                switch step {
                case .element(let model): return model
                case .finished:
                    isDone = true
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
                        try await feeder!.refill(engine, isolation: isolation)
                    }
                }
            }
        } catch {
            end()
            throw error
        }
    }

    private func end() {
        isDone = true
        if let pipeline {
            pipeline.cancel()
        } else {
            engine?.finish()
        }
    }

    private func next(from pipeline: ParallelStream<T>, policy: RecordErrorPolicy) throws -> T? {
        while true {
            while let outcome = group?.takeNext() {
                if let model = try outcome.apply(policy) { return model }
            }
            group = nil
            guard let next = try pipeline.pop() else {
                isDone = true
                return nil
            }
            group = next.outcomes
            groupEnd = next.end
        }
    }

    /// ``next(from:policy:)`` for `for try await`: a cancelled task stops the pipeline's threads and
    /// ends the iteration with `CancellationError` (checked whenever the next group is needed).
    private func next(from pipeline: ParallelStream<T>, policy: RecordErrorPolicy,
                      isolation: isolated (any Actor)?) async throws -> T? {
        while true {
            while let outcome = group?.takeNext() {
                if let model = try outcome.apply(policy) { return model }
            }
            group = nil
            guard let next = try await pipeline.pop(isolation: isolation) else {
                isDone = true
                return nil
            }
            group = next.outcomes
            groupEnd = next.end
        }
    }

    private func open() throws -> RecordEngine<T> {
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
        case .async(let make):
            asyncReader = make()
            asyncWindow = StreamWindow(capacity: (parallel ? engine.batchBytes : chunkSize) + (1 << 12))
        case .invalid(let error):
            throw error
        }
        return engine
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

/// The input window of a file-backed stream read by one worker: refilled with blocking reads on the
/// caller's thread (synchronous iteration) or on a thread of its own (asynchronous iteration).
final class FileFeeder {
    private let file: FileReader
    /// Bytes to read per refill.
    private let want: Int
    private(set) var window: StreamWindow
    private(set) var atEOF = false
    /// The thread that reads for an asynchronous iterator, started by its first refill. A read holds the
    /// file and the window, so both outlive a read still blocked when the iteration is cancelled.
    private var reads: WorkerPool<Read, Result<Int, any Error>>?

    /// One read into the window's free space.
    struct Read {
        let file: FileReader
        let window: StreamWindow
        let count: Int
    }

    init(file: FileReader, want: Int) {
        self.file = file
        self.want = want
        window = StreamWindow(capacity: want + (1 << 12))
    }

    deinit {
        reads?.cancel()
    }

    /// Drops what the engine no longer needs and reads once (so a pipe's records flow as they come).
    func refill<T>(_ engine: RecordEngine<T>) throws {
        guard prepare(engine) else { return }
        didRead(try file.read(into: UnsafeMutableRawBufferPointer(rebasing: window.freeSpace[0..<want])))
    }

    /// ``refill(_:)`` for an asynchronous iterator: the read runs on the feeder's own thread while the task
    /// is suspended; cancelling the task ends the wait with `CancellationError`.
    func refill<T>(_ engine: RecordEngine<T>, isolation: isolated (any Actor)?) async throws {
        guard prepare(engine) else { return }
        let reads = self.reads ?? WorkerPool(workers: 1, queueLimit: 1, name: "ModelMapper.JSONLines.reader") { read, _ in
            Result { try read.file.read(into: UnsafeMutableRawBufferPointer(rebasing: read.window.freeSpace[0..<read.count])) }
        }
        self.reads = reads
        reads.submit(Read(file: file, window: window, count: want))
        guard let result = try await reads.next(isolation: isolation) else { throw CancellationError() }
        didRead(try result.get())
    }

    /// Makes room for a read; false at the end of the file.
    private func prepare<T>(_ engine: RecordEngine<T>) -> Bool {
        guard !atEOF else { return false }
        let keep = engine.retainFrom
        engine.discard(upTo: keep, window: window.bytes)
        window.prepare(keepFrom: keep, free: want)
        return true
    }

    private func didRead(_ n: Int) {
        if n == 0 { atEOF = true } else { window.didAppend(n) }
    }
}
