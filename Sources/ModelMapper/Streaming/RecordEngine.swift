// Unsafe code: records are found and decoded in the caller's window through raw buffers (`memchr` over the
// whole buffer for JSON Lines ranges, spans handed to worker threads as `UnsafeBufferPointer`s).
//
// Invariants: the window (and, in `decodeAll`, the whole buffer) stays valid and unchanged for the call:
// every worker is done with it before `decodeInParallel` returns. Spans and JSON Lines ranges lie inside it
// (`starts` ascends from 0 to `bytes.count`, each range after a newline). `discard(upTo:)` drops at most
// `retainFrom` bytes. Asserted where ranges are cut and bytes discarded.
import Foundation

/// The state machine behind every reader: splits a window of input into records, decodes them (one at
/// a time, or in batches on several threads) and applies the error policy. It owns no input: the
/// caller passes the current window on each step and refills it when asked.
final class RecordEngine<T> {
    enum Step {
        case element(T)
        /// The window ends inside a record: discard `retainFrom` bytes, append input, call again.
        case needInput
        /// Only from the batched step: batches are being decoded from the window (and from earlier ones),
        /// which must not change. Continue its bytes from `retainFrom` in a buffer no batch uses, append the
        /// input that is ready without waiting, and pass that buffer from now on (reading overlaps decoding).
        case readAhead
        case finished
    }

    let options: DecodingOptions
    let policy: RecordErrorPolicy
    let workers: Int
    /// Bytes of input per parallel batch.
    let batchBytes: Int
    private(set) var splitter: RecordSplitter
    private var decoders: [RecordDecoder<T>] = []
    private var pending = OutcomeBatch<T>()
    private var spans: [RecordSpan] = []
    private var isFinished = false
    /// Global offset just past the last record handed out (or rejected): progress for the caller (set by
    /// a reader whose pipeline hands out the records).
    var bytesConsumed = 0
    /// Records handed out and rejected, and the reports on them.
    let progress: ProgressTracker

    init(format: JSONStreamFormat, model: RecordModel<T>, limit: RecordLimit, policy: RecordErrorPolicy,
         workers: Int, batchBytes: Int, progress: ProgressReporting? = nil) throws(MappingError) {
        self.progress = ProgressTracker(progress)
        options = model.options
        self.policy = policy
        self.workers = max(1, workers)
        self.batchBytes = batchBytes
        splitter = RecordSplitter(format: format, depthLimit: options.depthLimit, limit: limit)
        let count = self.workers
        makeDecoders = { () throws(MappingError) in
            var set: [RecordDecoder<T>] = []
            for _ in 0..<count { set.append(try model.makeDecoder(limit: limit)) }
            return set
        }
        decoders = try makeDecoders()
    }

    /// The next record boundary (for a caller that schedules the decoding itself).
    func split(_ window: UnsafeRawBufferPointer, atEOF: Bool) -> SplitResult {
        splitter.next(window, atEOF: atEOF)
    }

    /// Worker `index`'s decoder (one per worker; each used by one thread at a time).
    func decoder(_ index: Int) -> RecordDecoder<T> { decoders[index] }

    /// Window offset before which bytes are no longer needed.
    var retainFrom: Int { splitter.retainFrom }

    /// Rebases positions before the window's first `count` bytes (at most `retainFrom`) are dropped.
    func discard(upTo count: Int, window: UnsafeRawBufferPointer) {
        assert(0 <= count && count <= retainFrom && count <= window.count, "discarding bytes a record still needs")
        splitter.discard(upTo: count, window: window)
    }

    /// Ends the stream early (after an error the caller threw). Batches in flight finish on their own
    /// (their jobs keep their windows alive) and are dropped.
    func finish() {
        isFinished = true
        pending = OutcomeBatch()
        inFlight.removeAll()
        readsAhead = false
    }

    /// One record at a time on the calling thread (one worker).
    func step(window: UnsafeRawBufferPointer, windowBase: Int, atEOF: Bool) throws(MappingError) -> Step {
        assert(workers == 1, "several workers decode in batches: step(window:atEOF:isolation:)")
        while true {
            if isFinished { return .finished }
            switch splitter.next(window, atEOF: atEOF) {
            case .span(let span):
                bytesConsumed = windowBase + span.end
                let outcome = decoders[0].decode(span, window: window, windowBase: windowBase)
                if let model = try deliver(outcome) { return .element(model) }
            case .needMore:
                return .needInput
            case .end:
                isFinished = true
                return .finished
            }
        }
    }

    /// Batches decoded on the shared ``DecodingThreads`` (several workers, an asynchronous source), up to
    /// ``batchesInFlight`` at once: a batch is started whenever there is room and the window holds records,
    /// before the models decoded so far are handed out, so decoding overlaps with delivery (and with the
    /// consumer's own work on each model), and the workers go on to the next batch's records while the
    /// first one's last group finishes (no idle barrier). Each batch in flight has decoders of its own.
    ///
    /// The window must not change while a batch decodes from it: `.needInput` (a read that may wait) is
    /// returned only while no batch is in flight, so the caller may then move and refill the window;
    /// `.readAhead` asks for the input that is ready now in another buffer while batches decode.
    func step(window: StreamWindow, atEOF: Bool, isolation: isolated (any Actor)?) async throws(MappingError) -> Step {
        while batchDecoders.count < Self.batchesInFlight { batchDecoders.append(try makeDecoders()) }
        while true {
            if readsAhead {
                readsAhead = false
                windowIsDrained = false
                return .readAhead
            }
            if !isFinished, !windowIsDrained, inFlight.count < Self.batchesInFlight {
                switch launchBatch(window: window, atEOF: atEOF) {
                case .launched: continue
                case .needInput: windowIsDrained = true
                case .finished: break
                }
            }
            if let outcome = pending.takeNext() {
                if let model = try deliver(outcome) { return .element(model) }
                continue
            }
            if !inFlight.isEmpty {
                let flight = inFlight.removeFirst()
                let results = await flight.map.outputs(isolation: isolation)
                pending = OutcomeBatch(results)
                bytesConsumed = flight.end
                // With `.stop`, the results end with the first group that ended at a rejected record; the
                // batches started after it are dropped (they finish on their own).
                if isStop && results.last?.endsWithRejection == true {
                    isFinished = true
                    inFlight.removeAll()
                } else if windowIsDrained && !atEOF && !inFlight.isEmpty {
                    // Input may have arrived while the batch decoded: take what is ready, still without waiting.
                    readsAhead = true
                }
                continue
            }
            if isFinished { return .finished }
            windowIsDrained = false
            return .needInput
        }
    }

    /// Batches decoded at once by the batched step. A pipe's read ahead brings what its kernel buffer
    /// holds (at most 1 MiB) rather than a batch's worth, so its batches are smaller: with three in flight
    /// the workers waited for input with nothing to decode 1-11 times per 500 MB of tweets piped from `cat`,
    /// against 36-57 with two (Examples/Ingest --async --workers 2, stop 54).
    static var batchesInFlight: Int { 3 }
    /// The batches being decoded (oldest first), with the global offset just past each one's last record.
    private var inFlight: [(map: WorkerPool<Int, OutcomeBuffer<T>>.StartedMap, end: Int)] = []
    /// Batches started so far (which take the decoder sets in turn).
    private var launched = 0
    /// The decoders of the batched step: a set of `workers` for each batch in flight, so two batches never
    /// share one (`decoders` is the first; the others are made on the first batched step).
    private lazy var batchDecoders: [[RecordDecoder<T>]] = [decoders]
    private let makeDecoders: () throws(MappingError) -> [RecordDecoder<T>]
    /// A batch was just started and the window holds less than the next one: ask for input beside it.
    private var readsAhead = false
    /// The window held no complete record the last time a batch was to start (until new input comes).
    private var windowIsDrained = false

    private enum Launch { case launched, needInput, finished }

    /// Collects a batch of records (up to `batchBytes`) from the window and starts decoding it on all
    /// workers (`inFlight`). Applies no policy: the outcomes are delivered when the batch comes back (with
    /// `.stop`, a batch ends at its first rejected record and no batch after it is delivered).
    private func launchBatch(window: StreamWindow, atEOF: Bool) -> Launch {
        assert(inFlight.count < Self.batchesInFlight, "too many batches in flight")
        spans.removeAll(keepingCapacity: true)
        let bytes = window.bytes
        var needsInput = false
        var batchStart = -1
        collect: while true {
            switch splitter.next(bytes, atEOF: atEOF) {
            case .span(let span):
                if batchStart < 0 { batchStart = span.start }
                spans.append(span)
                if span.end - batchStart >= batchBytes { break collect }
            case .needMore:
                needsInput = true
                break collect
            case .end:
                isFinished = true
                break collect
            }
        }
        if spans.isEmpty { return needsInput ? .needInput : .finished }
        // A copy the jobs read (the engine's `spans` is reused for the next batch).
        let all = spans
        // Groups of ~128 KB (at least 4 per worker): small groups keep the workers' idle time short when a
        // batch is the last one in flight.
        let size = all[all.count - 1].end - all[0].start
        let bounds = all.withUnsafeBufferPointer {
            groupBoundaries($0, groups: min(all.count, Swift.max(workers * 4, size >> 17)))
        }
        // The set of the batch `batchesInFlight` launches ago: that batch has been awaited, so none of its
        // jobs runs.
        let set = batchDecoders[launched % batchDecoders.count]
        launched += 1
        let map = startDecodingInParallel(decoders: set, groupCount: bounds.count - 1, stopAtRejection: isStop,
                                          window: bytes, windowBase: window.base, keepAlive: window) { group, body in
            all[bounds[group]..<bounds[group + 1]].withUnsafeBufferPointer(body)
        }
        inFlight.append((map, window.base + all[all.count - 1].end))
        readsAhead = !atEOF && !isFinished && bytes.count - splitter.retainFrom < batchBytes
        return .launched
    }

    private var isStop: Bool {
        if case .stop = policy { return true }
        return false
    }

    /// A model, or nil after handing a rejected record to the policy's closure; throws for `.stop`.
    /// Counts the record for ``progress``.
    func deliver(_ outcome: consuming RecordOutcome<T>) throws(MappingError) -> T? {
        do {
            let model = try outcome.apply(policy)
            if model == nil {
                progress.count(decoded: 0, rejected: 1, bytes: bytesConsumed)
            } else {
                progress.count(decoded: 1, rejected: 0, bytes: bytesConsumed)
            }
            return model
        } catch {
            progress.count(decoded: 0, rejected: 1, bytes: bytesConsumed)
            finish()
            throw error
        }
    }
}

extension RecordOutcome {
    /// The model, or nil after handing a rejected record to `.skip`'s closure; throws for `.stop`.
    consuming func apply(_ policy: RecordErrorPolicy) throws(MappingError) -> T? {
        switch self {
        case .model(let model):
            return model
        case .rejected(let record):
            switch policy {
            case .stop:
                throw record.error
            case .skip(let handler):
                handler(record)
                return nil
            }
        }
    }
}

// MARK: - Whole buffers

extension RecordEngine {
    /// Decodes every record of an in-memory buffer on `workers` threads, results in input order.
    static func decodeAll(_ bytes: UnsafeRawBufferPointer, format: JSONStreamFormat, model: RecordModel<T>,
                          limit: RecordLimit, workers: Int, policy: RecordErrorPolicy,
                          progress: ProgressReporting? = nil) throws(MappingError) -> [T] {
        let options = model.options
        let workers = max(1, workers)
        let stop: Bool
        if case .stop = policy { stop = true } else { stop = false }
        var decoders: [RecordDecoder<T>] = []
        for _ in 0..<workers { decoders.append(try model.makeDecoder(limit: limit)) }
        if workers == 1 {
            var splitter = RecordSplitter(format: format, depthLimit: options.depthLimit, limit: limit)
            let tracker = ProgressTracker(progress)
            var models: [T] = []
            while case .span(let span) = splitter.next(bytes, atEOF: true) {
                let model: T?
                do {
                    model = try decoders[0].decode(span, window: bytes, windowBase: 0).apply(policy)
                } catch {
                    tracker.count(decoded: 0, rejected: 1, bytes: span.end)
                    tracker.finish(bytes: span.end)
                    throw error
                }
                if let model {
                    models.append(model)
                    tracker.count(decoded: 1, rejected: 0, bytes: span.end)
                } else {
                    tracker.count(decoded: 0, rejected: 1, bytes: span.end)
                }
            }
            tracker.finish(bytes: bytes.count)
            return models
        }
        let groupDone = progress.map(GroupProgress.init)
        let results: [OutcomeBuffer<T>]
        if format == .lines {
            results = decodeLinesInParallel(bytes, limit: limit, decoders: decoders, stop: stop, groupDone: groupDone)
        } else {
            // Record boundaries need a sequential scan (strings and brackets); decoding is parallel.
            var splitter = RecordSplitter(format: format, depthLimit: options.depthLimit, limit: limit)
            var spans: [RecordSpan] = []
            while case .span(let span) = splitter.next(bytes, atEOF: true) { spans.append(span) }
            results = spans.withUnsafeBufferPointer { all in
                let bounds = groupBoundaries(all, groups: min(all.count, workers * 8))
                return decodeInParallel(decoders: decoders, groupCount: bounds.count - 1, stopAtRejection: stop,
                                        window: bytes, windowBase: 0, groupDone: groupDone) { group, body in
                    body(UnsafeBufferPointer(rebasing: all[bounds[group]..<bounds[group + 1]]))
                }
            }
        }
        var models: [T] = []
        models.reserveCapacity(results.reduce(0) { $0 + $1.count })
        var rejected = 0
        do {
            for group in results {
                while let outcome = group.takeNext() {
                    if let model = try outcome.apply(policy) { models.append(model) } else { rejected += 1 }
                }
            }
        } catch {
            groupDone?.finish(decoded: models.count, rejected: rejected + 1, bytes: bytes.count)
            throw error
        }
        groupDone?.finish(decoded: models.count, rejected: rejected, bytes: bytes.count)
        return models
    }

    /// JSON Lines: cut the buffer into newline-aligned ranges, count each range's lines and records (in
    /// parallel) so every range knows its first line and record number, then decode the ranges.
    private static func decodeLinesInParallel(_ bytes: UnsafeRawBufferPointer, limit: RecordLimit,
                                              decoders: [RecordDecoder<T>], stop: Bool,
                                              groupDone: GroupProgress?) -> [OutcomeBuffer<T>] {
        // Many ranges per worker, so the last one to finish leaves the other workers idle only briefly.
        let workers = decoders.count
        let targetGroups = workers * 32
        let groupSize = max(1 << 16, bytes.count / targetGroups + 1)
        var starts = [max(0, RecordSplitter.byteOrderMarkLength(bytes))]  // after a UTF-8 BOM
        while let last = starts.last, last + groupSize < bytes.count {
            // The next range starts after the first newline at or past the nominal boundary.
            let from = last + groupSize
            guard let base = bytes.baseAddress,
                  let hit = memchr(base + from, 0x0A, bytes.count - from) else { break }
            let next = UnsafeRawPointer(hit) - base + 1
            if next >= bytes.count { break }
            starts.append(next)
        }
        starts.append(bytes.count)
        assert(zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 } && starts.last == bytes.count,
               "JSON Lines ranges out of order or outside the buffer")
        let groupCount = starts.count - 1

        // Pass 1: lines and records per range.
        let counts = WorkerPool<Int, (lines: Int, records: Int)>.map(groupCount, workers: workers) { group, _ in
            let range = UnsafeRawBufferPointer(rebasing: bytes[starts[group]..<starts[group + 1]])
            var splitter = LineSplitter(limit: limit)
            var records = 0
            while case .span = splitter.next(range, atEOF: true) { records += 1 }
            return (splitter.newlineCount, records)
        }
        var firstLines = [1]
        var firstIndexes = [0]
        for g in 0..<groupCount {
            firstLines.append(firstLines[g] + counts[g].lines)
            firstIndexes.append(firstIndexes[g] + counts[g].records)
        }

        // Pass 2: decode each range with its global numbering.
        return decodeInParallel(decoders: decoders, groupCount: groupCount, stopAtRejection: stop,
                                window: bytes, windowBase: 0, groupDone: groupDone) { group, body in
            let offset = starts[group]
            let range = UnsafeRawBufferPointer(rebasing: bytes[offset..<starts[group + 1]])
            var splitter = LineSplitter(limit: limit, firstLine: firstLines[group], firstIndex: firstIndexes[group])
            var spans: [RecordSpan] = []
            while case .span(var span) = splitter.next(range, atEOF: true) {
                span.start += offset
                span.end += offset
                spans.append(span)
            }
            spans.withUnsafeBufferPointer(body)
        }
    }
}
