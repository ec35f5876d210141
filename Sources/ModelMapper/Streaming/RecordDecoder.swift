// Unsafe code: `OutcomeBuffer` keeps its outcomes in manually managed memory, and a record's tape references
// the record's bytes in the caller's window.
//
// Invariants:
// - `OutcomeBuffer`: `0 <= taken <= count <= capacity`; elements `taken..<count` are initialized, those
//   before `taken` were moved out; `deinit` deinitializes exactly the ones left. One thread fills a buffer,
//   then one thread empties it (the worker pool's hand-over orders the two).
// - `RecordDecoder.decode`: the span lies inside the window (`0 <= start <= end <= window.count`) and the
//   window stays valid and unchanged until the record is decoded; the tokenizer references it only until
//   its next `reset`. Asserted in `append`, `takeNext` and `decode`.
import Foundation

/// A decoded record or a rejected one, in input order.
enum RecordOutcome<T> {
    case model(T)
    case rejected(RejectedRecord)
}

/// Outcomes of one group of records, filled by one worker and then moved out one by one by the consumer
/// (moving, not copying, so no reference counting traffic on the models' strings and arrays).
final class OutcomeBuffer<T>: @unchecked Sendable {
    private var storage: UnsafeMutablePointer<RecordOutcome<T>>
    private var capacity: Int
    private(set) var count = 0
    /// Elements before this index have been moved out.
    private var taken = 0
    /// Whether the last outcome appended is a rejection.
    private(set) var endsWithRejection = false

    init(capacity: Int) {
        self.capacity = max(capacity, 4)
        storage = .allocate(capacity: self.capacity)
    }

    deinit {
        (storage + taken).deinitialize(count: count - taken)
        storage.deallocate()
    }

    func append(_ outcome: consuming RecordOutcome<T>) {
        assert(0 <= taken && taken <= count && count <= capacity, "outcome buffer indices out of order")
        if count == capacity {
            let newStorage = UnsafeMutablePointer<RecordOutcome<T>>.allocate(capacity: capacity * 2)
            (newStorage + taken).moveInitialize(from: storage + taken, count: count - taken)
            storage.deallocate()
            storage = newStorage
            capacity *= 2
        }
        (storage + count).initialize(to: outcome)
        if case .rejected = storage[count] { endsWithRejection = true } else { endsWithRejection = false }
        count += 1
    }

    /// Moves the next outcome out, or nil when all have been taken.
    func takeNext() -> RecordOutcome<T>? {
        guard taken < count else { return nil }
        assert(taken >= 0 && count <= capacity, "outcome buffer indices out of order")
        defer { taken += 1 }
        return (storage + taken).move()
    }
}

/// A batch of outcomes in input order: the groups' buffers one after the other.
struct OutcomeBatch<T> {
    private var groups: [OutcomeBuffer<T>]
    private var group = 0

    init(_ groups: [OutcomeBuffer<T>] = []) {
        self.groups = groups
    }

    /// Moves the next outcome out, or nil at the end of the batch.
    mutating func takeNext() -> RecordOutcome<T>? {
        while group < groups.count {
            if let outcome = groups[group].takeNext() { return outcome }
            group += 1
        }
        return nil
    }

    var count: Int { groups.reduce(0) { $0 + $1.count } }
}

/// Decodes single records of one model type with a reusable tokenizer (a spare of `TokenizerCache`). One
/// per thread.
///
/// Each record is parsed on its own (`reset` + `feed` + `finish`), with tokens referencing the record's
/// bytes, so a bad record never disturbs the next one and positions come from the record's own bytes.
final class RecordDecoder<T: MappedJSONModel> {
    private let codec: ModelCodec<T>
    private let options: DecodingOptions
    private let limit: RecordLimit
    private let tokenizer: Tokenizer

    init(codec: ModelCodec<T>, options: DecodingOptions, limit: RecordLimit) {
        self.codec = codec
        self.options = options
        self.limit = limit
        // The thread's spare (the next level's when a document decoding holds its own): a reader makes no
        // tokenizer per call after first use. Used by one worker at a time; given back to the spares of
        // the thread that lets the decoder go.
        tokenizer = TokenizerCache.take(expectedInputSize: 1 << 16, depthLimit: options.depthLimit)
    }

    deinit {
        TokenizerCache.give(tokenizer)
    }

    /// Decodes the record `span` of `window`, whose first byte is at `windowBase` in the whole input.
    func decode(_ span: RecordSpan, window: UnsafeRawBufferPointer, windowBase: Int) -> RecordOutcome<T> {
        assert(0 <= span.start && span.start <= span.end && span.end <= window.count, "record span outside its window")
        let bytes = UnsafeRawBufferPointer(rebasing: window[span.start..<span.end])
        if span.issue != .none {
            return reject(span.issue.error(raw: bytes, limit: limit), bytes: bytes, span: span, windowBase: windowBase)
        }
        do {
            tokenizer.reset()
            tokenizer.buffers.pointee.setFilter(codec.tapeFilter)
            try tokenizer.feed(bytes, referencingInput: true)
            try tokenizer.finish()
            let view = tokenizer.view
            let model = try decodeReporting(view, options: options, tracksPath: codec.reachesContext,
                                            contextPrefix: ["[\(span.index)]"], locate: { error in
                view.locate(&error)
                Self.locate(&error, in: bytes, span: span, windowBase: windowBase)
            }) { c throws(MappingError) in try codec.decode(c, 0) }
            return .model(model)
        } catch {
            var error = error
            tokenizer.view.locate(&error)
            return reject(error, bytes: bytes, span: span, windowBase: windowBase)
        }
    }

    private func reject(_ error: MappingError, bytes: UnsafeRawBufferPointer, span: RecordSpan,
                        windowBase: Int) -> RecordOutcome<T> {
        var error = error
        Self.locate(&error, in: bytes, span: span, windowBase: windowBase)
        return .rejected(RejectedRecord(index: span.index, line: span.line, column: span.column,
                                        offset: windowBase + span.start, error: error, raw: Array(bytes)))
    }

    /// Turns an error about the record's bytes into one about the whole input: offset, line and column
    /// shifted by the record's start, the record index prepended to the path.
    static func locate(_ error: inout MappingError, in bytes: UnsafeRawBufferPointer, span: RecordSpan, windowBase: Int) {
        error.resolvePosition(in: bytes)
        error.tokenIndex = nil
        if let offset = error.offset { error.offset = windowBase + span.start + offset }
        if let line = error.line {
            if line == 1, let column = error.column { error.column = span.column + column - 1 }
            error.line = span.line + line - 1
        }
        error.prependIndex(span.index)
    }

    /// Decodes `spans` in order, appending to `outcomes`; with `stopAtRejection`, stops after the first
    /// rejected record. `shouldStop` is polled every few records (another worker already failed earlier).
    func decode(_ spans: UnsafeBufferPointer<RecordSpan>, window: UnsafeRawBufferPointer, windowBase: Int,
                stopAtRejection: Bool, into outcomes: OutcomeBuffer<T>, shouldStop: () -> Bool = { false }) {
        for (i, span) in spans.enumerated() {
            if i & 15 == 15 && shouldStop() { return }
            outcomes.append(decode(span, window: window, windowBase: windowBase))
            if stopAtRejection && outcomes.endsWithRejection { return }
        }
    }
}

// MARK: - Parallel work

/// Decodes groups of spans in parallel (``WorkerPool/map(_:workers:_:)``: the calling thread and the shared
/// ``DecodingThreads``, one decoder per worker); the outcomes come back in input order. With
/// `stopAtRejection`, a group that ends at a rejected record stops the work: later groups are skipped (or
/// give up early) and the outcomes end with that group's.
///
/// - Parameters:
///   - groupCount: number of groups; `spansOfGroup(g, body)` calls `body` with group g's spans.
func decodeInParallel<T: MappedJSONModel>(
    decoders: [RecordDecoder<T>], groupCount: Int, stopAtRejection: Bool,
    window: UnsafeRawBufferPointer, windowBase: Int,
    spansOfGroup: @escaping (Int, (UnsafeBufferPointer<RecordSpan>) -> Void) -> Void
) -> [OutcomeBuffer<T>] {
    WorkerPool<Int, OutcomeBuffer<T>>.map(groupCount, workers: decoders.count,
                                          groupDecoding(decoders: decoders, stopAtRejection: stopAtRejection,
                                                        window: window, windowBase: windowBase,
                                                        spansOfGroup: spansOfGroup))
}

/// ``decodeInParallel(decoders:groupCount:stopAtRejection:window:windowBase:spansOfGroup:)`` for an
/// asynchronous caller: the groups are decoded on the shared ``DecodingThreads`` while the caller's task
/// is suspended (no thread of Swift's cooperative pool waits).
func decodeInParallel<T: MappedJSONModel>(
    decoders: [RecordDecoder<T>], groupCount: Int, stopAtRejection: Bool,
    window: UnsafeRawBufferPointer, windowBase: Int, isolation: isolated (any Actor)?,
    spansOfGroup: @escaping (Int, (UnsafeBufferPointer<RecordSpan>) -> Void) -> Void
) async -> [OutcomeBuffer<T>] {
    await WorkerPool<Int, OutcomeBuffer<T>>.map(groupCount, workers: decoders.count, isolation: isolation,
                                                groupDecoding(decoders: decoders, stopAtRejection: stopAtRejection,
                                                              window: window, windowBase: windowBase,
                                                              spansOfGroup: spansOfGroup))
}

/// The pool job that decodes one group of spans with the worker's decoder.
private func groupDecoding<T: MappedJSONModel>(
    decoders: [RecordDecoder<T>], stopAtRejection: Bool, window: UnsafeRawBufferPointer, windowBase: Int,
    spansOfGroup: @escaping (Int, (UnsafeBufferPointer<RecordSpan>) -> Void) -> Void
) -> (Int, WorkerPool<Int, OutcomeBuffer<T>>.Context) -> OutcomeBuffer<T> {
    { group, context in
        let decoder = decoders[context.worker]
        var result: OutcomeBuffer<T>? = nil
        spansOfGroup(group) { spans in
            let outcomes = OutcomeBuffer<T>(capacity: spans.count)
            decoder.decode(spans, window: window, windowBase: windowBase, stopAtRejection: stopAtRejection,
                           into: outcomes, shouldStop: { context.isAbandoned })
            if stopAtRejection && outcomes.endsWithRejection { context.stopAfterThisJob() }
            result = outcomes
        }
        return result ?? OutcomeBuffer<T>(capacity: 0)
    }
}

/// Splits `spans` into about `groups` contiguous groups of similar byte size; returns the start index of
/// each group plus `spans.count`.
func groupBoundaries(_ spans: UnsafeBufferPointer<RecordSpan>, groups: Int) -> [Int] {
    guard let first = spans.first, let last = spans.last, groups > 1 else { return [0, spans.count] }
    let total = max(1, last.end - first.start)
    var bounds = [0]
    var next = 1
    for (i, span) in spans.enumerated() where i > 0 {
        // Start a new group when this span starts past the next equal share of the bytes.
        if (span.start - first.start) * groups >= total * next {
            bounds.append(i)
            next += 1
            while (span.start - first.start) * groups >= total * next { next += 1 }
        }
    }
    bounds.append(spans.count)
    return bounds
}
