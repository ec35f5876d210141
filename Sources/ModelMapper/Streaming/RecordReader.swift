import Foundation

/// Drives a ``RecordEngine`` over a source: keeps the window of input, refills it when the engine asks,
/// and turns setup and I/O failures into errors. Used by both the synchronous and the asynchronous
/// iterators; not thread-safe (one iteration at a time).
///
/// With several workers and a synchronous source (a file, a handle or memory), decoding runs ahead on a
/// background producer (``BatchPipeline``) while the caller consumes earlier batches, so the workers
/// never wait for the consumer; with an asynchronous source, batches are decoded when the caller asks.
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
    private var pipeline: BatchPipeline<T>?
    private var batch = OutcomeBatch<T>()
    private var batchEnd = 0

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
    /// with a pipeline, the end of the current batch).
    var bytesConsumed: Int {
        if pipeline != nil { return batchEnd }
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

    /// The next model, reading asynchronous sources with `await`. (Synchronous sources are read with
    /// blocking calls; with a pipeline, waiting for a batch blocks too, for at most one batch's decoding.)
    func nextAsync(isolation: isolated (any Actor)?) async throws -> T? {
        guard !isDone else { return nil }
        do {
            let engine = try open()
            if let pipeline { return try next(from: pipeline, policy: engine.policy) }
            while true {
                switch try step(engine) {
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
                        try feeder!.refill(engine)
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

    private func next(from pipeline: BatchPipeline<T>, policy: RecordErrorPolicy) throws -> T? {
        while true {
            while let outcome = batch.takeNext() {
                if let model = try outcome.apply(policy) { return model }
            }
            guard let next = try pipeline.pop() else {
                isDone = true
                return nil
            }
            batch = next.outcomes
            batchEnd = next.end
        }
    }

    private func open() throws -> RecordEngine<T> {
        if let setupError { throw setupError }
        guard let engine else { throw MappingError(.unsupportedType, "reader not set up") }
        if isOpen { return engine }
        isOpen = true
        let want = engine.workers > 1 ? engine.batchBytes : chunkSize
        switch source {
        case .data, .bytes:
            break
        case .path(let path):
            feeder = FileFeeder(file: try FileReader(path: path), want: want)
        case .fileHandle(let handle):
            feeder = FileFeeder(file: FileReader(fd: handle.fileDescriptor, closesOnDeinit: false), want: want)
        case .async(let make):
            asyncReader = make()
            asyncWindow = StreamWindow(capacity: want + (1 << 12))
        case .invalid(let error):
            throw error
        }
        if engine.workers > 1 && asyncReader == nil {
            if let feeder {
                engine.readAhead = { keep in feeder.readAhead(keep: keep) }
                pipeline = BatchPipeline(engine: engine, input: .file(feeder))
            } else if case .data(let data) = source {
                pipeline = BatchPipeline(engine: engine, input: .data(data))
            } else if case .bytes(let bytes) = source {
                pipeline = BatchPipeline(engine: engine, input: .bytes(bytes))
            }
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

/// The input window of a file-backed stream, refilled with blocking reads; with several workers the
/// next batch is read into a second buffer while the current one is decoded.
final class FileFeeder {
    private let file: FileReader
    /// Bytes to read per refill (a chunk, or a batch for several workers).
    private let want: Int
    private(set) var window: StreamWindow
    private var spare: StreamWindow?
    private var ahead: (keep: Int, atEOF: Bool, error: Error?)?
    private(set) var atEOF = false

    init(file: FileReader, want: Int) {
        self.file = file
        self.want = want
        window = StreamWindow(capacity: want + (1 << 12))
    }

    /// Refills the window: switches to the buffer read ahead if there is one, else drops what the engine
    /// no longer needs and reads (one `read` for one worker, so a pipe's records flow; a whole batch for
    /// several).
    func refill<T>(_ engine: RecordEngine<T>) throws {
        if let ahead, let next = spare {
            self.ahead = nil
            precondition(ahead.keep == engine.retainFrom, "read-ahead kept different bytes than the engine needs")
            engine.discard(upTo: ahead.keep, window: window.bytes)
            spare = window
            window = next
            if let error = ahead.error { throw error }
            atEOF = ahead.atEOF
            return
        }
        guard !atEOF else { return }
        let keep = engine.retainFrom
        engine.discard(upTo: keep, window: window.bytes)
        window.prepare(keepFrom: keep, free: want)
        var got = 0
        while got < want {
            let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: window.freeSpace[0..<(want - got)]))
            if n == 0 {
                atEOF = true
                break
            }
            window.didAppend(n)
            got += n
            if engine.workers == 1 { break }
        }
    }

    /// Runs on a worker thread while the engine decodes a batch from `window` (which stays unchanged):
    /// reads the next batch into the spare buffer, after the bytes from `keep` on.
    func readAhead(keep: Int) {
        guard !atEOF, ahead == nil else { return }
        let next = spare ?? StreamWindow(capacity: window.capacity)
        next.continue(window, from: keep, free: want)
        var result: (keep: Int, atEOF: Bool, error: Error?) = (keep, false, nil)
        do {
            var got = 0
            while got < want {
                let n = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: next.freeSpace[0..<(want - got)]))
                if n == 0 {
                    result.atEOF = true
                    break
                }
                next.didAppend(n)
                got += n
            }
        } catch {
            result.error = error
        }
        spare = next
        ahead = result
    }
}

/// Decodes batches on a background producer thread (which, with the engine's other workers, reads,
/// splits and decodes) and hands them to the consumer in order through a queue of at most two batches,
/// so memory stays bounded and the workers do not wait while the consumer handles a batch.
final class BatchPipeline<T: JSONMappable>: @unchecked Sendable {
    enum Input {
        case file(FileFeeder)
        case data(Data)
        case bytes([UInt8])
    }

    struct Batch {
        var outcomes: OutcomeBatch<T>
        var end: Int
    }

    private let condition = NSCondition()
    private var queue: [Batch] = []
    private var head = 0
    private var isFinished = false
    private var failure: Error?
    private var isCancelled = false
    private let capacity = 2

    init(engine: RecordEngine<T>, input: Input) {
        // The producer thread owns the engine and the input from now on. The reader cancels the pipeline
        // when it ends or is dropped; the producer then stops after its current batch.
        let work: () -> Void = { [self] in self.produce(engine: engine, input: input) }
        let transfer = UnsafeTransfer(value: work)
        let thread = Thread { transfer.value() }
        thread.name = "ModelMapper.JSONLines"
        thread.start()
    }

    private func produce(engine: RecordEngine<T>, input: Input) {
        do {
            while !cancelled {
                let step: RecordEngine<T>.BatchStep
                switch input {
                case .file(let feeder):
                    step = engine.nextBatch(window: feeder.window.bytes, windowBase: feeder.window.base,
                                            atEOF: feeder.atEOF)
                case .data(let data):
                    step = data.withUnsafeBytes { engine.nextBatch(window: $0, windowBase: 0, atEOF: true) }
                case .bytes(let bytes):
                    step = bytes.withUnsafeBytes { engine.nextBatch(window: $0, windowBase: 0, atEOF: true) }
                }
                switch step {
                case .batch(let outcomes, let end):
                    guard push(Batch(outcomes: outcomes, end: end)) else { return }
                case .needInput:
                    guard case .file(let feeder) = input else { return finish(nil) }
                    try feeder.refill(engine)
                case .finished:
                    return finish(nil)
                }
            }
        } catch {
            finish(error)
        }
    }

    private var cancelled: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isCancelled
    }

    /// Waits while the queue is full; false if the consumer is gone.
    private func push(_ batch: Batch) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queue.count - head >= capacity && !isCancelled { condition.wait() }
        if isCancelled { return false }
        queue.append(batch)
        condition.broadcast()
        return true
    }

    private func finish(_ error: Error?) {
        condition.lock()
        isFinished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch in order; nil after the last; throws the producer's I/O error after the batches
    /// before it.
    func pop() throws -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while head == queue.count && !isFinished { condition.wait() }
        if head < queue.count {
            let batch = queue[head]
            queue[head].outcomes = OutcomeBatch()
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.broadcast()
            return batch
        }
        if let failure { throw failure }
        return nil
    }

    /// Stops the producer (after its current batch).
    func cancel() {
        condition.lock()
        isCancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
