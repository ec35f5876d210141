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
    /// Rejections appended.
    private(set) var rejectedCount = 0

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
        if case .rejected = storage[count] {
            endsWithRejection = true
            rejectedCount += 1
        } else {
            endsWithRejection = false
        }
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

/// How the records of a stream become models of type `T`: by the type's mapping (a ``MappedJSONModel``)
/// or by its `init(from:)` on the Codable tape decoder with a ``ModelDecoder``'s settings. Makes one
/// ``RecordDecoder`` per worker. (Unchecked: the closure captures only `Sendable` settings and `T`'s
/// metatype, which the reader's threads use only to decode `T`.)
struct RecordModel<T>: @unchecked Sendable {
    /// Options the splitter and the error messages use (the depth limit).
    let options: DecodingOptions
    private let make: (RecordLimit) throws(MappingError) -> RecordDecoder<T>

    private init(options: DecodingOptions, make: @escaping (RecordLimit) throws(MappingError) -> RecordDecoder<T>) {
        self.options = options
        self.make = make
    }

    /// A decoder for one worker.
    func makeDecoder(limit: RecordLimit) throws(MappingError) -> RecordDecoder<T> {
        try make(limit)
    }

    /// Records decoded by `T`'s mapping with `options`.
    static func mapped(options: DecodingOptions) -> RecordModel<T> where T: MappedJSONModel {
        RecordModel(options: options) { limit throws(MappingError) in
            MappedRecordDecoder(codec: try MetaCache.forDecoding(options).codec(for: T.self), options: options, limit: limit)
        }
    }

    /// Records decoded by `T`'s `init(from:)` as `decoder.decode(T.self, from:)` decodes one document.
    static func codable(decoder: ModelDecoder) -> RecordModel<T> where T: Decodable {
        RecordModel(options: decoder.options) { limit in CodableRecordDecoder(decoder: decoder, limit: limit) }
    }
}

/// Decodes single records of one model type; one per thread (each used by one thread at a time). The
/// subclasses decode a record's bytes by mapping (``MappedRecordDecoder``) or by Codable
/// (``CodableRecordDecoder``); this class positions errors and rejects records.
class RecordDecoder<T> {
    let limit: RecordLimit

    init(limit: RecordLimit) {
        self.limit = limit
    }

    /// Decodes the record `span` of `window`, whose first byte is at `windowBase` in the whole input.
    func decode(_ span: RecordSpan, window: UnsafeRawBufferPointer, windowBase: Int) -> RecordOutcome<T> {
        fatalError("RecordDecoder.decode is implemented by its subclasses")
    }

    final func reject(_ error: MappingError, bytes: UnsafeRawBufferPointer, span: RecordSpan,
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
    final func decode(_ spans: UnsafeBufferPointer<RecordSpan>, window: UnsafeRawBufferPointer, windowBase: Int,
                      stopAtRejection: Bool, into outcomes: OutcomeBuffer<T>, shouldStop: () -> Bool = { false }) {
        for (i, span) in spans.enumerated() {
            if i & 15 == 15 && shouldStop() { return }
            outcomes.append(decode(span, window: window, windowBase: windowBase))
            if stopAtRejection && outcomes.endsWithRejection { return }
        }
    }
}

/// A mapped model's records, with a reusable tokenizer (a spare of `TokenizerCache`).
///
/// Each record is parsed on its own (`reset` + `feed` + `finish`), with tokens referencing the record's
/// bytes, so a bad record never disturbs the next one and positions come from the record's own bytes.
final class MappedRecordDecoder<T: MappedJSONModel>: RecordDecoder<T> {
    private let codec: ModelCodec<T>
    private let options: DecodingOptions
    private let tokenizer: Tokenizer

    init(codec: ModelCodec<T>, options: DecodingOptions, limit: RecordLimit) {
        self.codec = codec
        self.options = options
        // The thread's spare (the next level's when a document decoding holds its own): a reader makes no
        // tokenizer per call after first use. Used by one worker at a time; given back to the spares of
        // the thread that lets the decoder go.
        tokenizer = TokenizerCache.take(expectedInputSize: 1 << 16, depthLimit: options.depthLimit)
        super.init(limit: limit)
    }

    deinit {
        TokenizerCache.give(tokenizer)
    }

    override func decode(_ span: RecordSpan, window: UnsafeRawBufferPointer, windowBase: Int) -> RecordOutcome<T> {
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
}

/// A `Decodable` type's records, each decoded as `decoder.decode(T.self, from: recordBytes)` decodes a
/// document (the Codable tape decoder, the decoder's strategies and options). A record's error is the
/// ``MappingError`` under the `DecodingError` that call throws (its position and path), placed in the
/// whole input like a mapped record's.
final class CodableRecordDecoder<T: Decodable>: RecordDecoder<T> {
    private let decoder: ModelDecoder

    init(decoder: ModelDecoder, limit: RecordLimit) {
        self.decoder = decoder
        super.init(limit: limit)
    }

    override func decode(_ span: RecordSpan, window: UnsafeRawBufferPointer, windowBase: Int) -> RecordOutcome<T> {
        assert(0 <= span.start && span.start <= span.end && span.end <= window.count, "record span outside its window")
        let bytes = UnsafeRawBufferPointer(rebasing: window[span.start..<span.end])
        if span.issue != .none {
            return reject(span.issue.error(raw: bytes, limit: limit), bytes: bytes, span: span, windowBase: windowBase)
        }
        do {
            return .model(try decoder.decodeCodable(T.self, from: bytes, usesMapping: true))
        } catch {
            return reject(Self.mappingError(from: error), bytes: bytes, span: span, windowBase: windowBase)
        }
    }

    /// The positioned ``MappingError`` a Codable decoding's error carries (the underlying error of its
    /// `DecodingError`), or one made from the error's description (an error of the type's own `init(from:)`).
    static func mappingError(from error: any Error) -> MappingError {
        if let mapping = error as? MappingError { return mapping }
        guard let decoding = error as? DecodingError else {
            return MappingError(.invalidValue, String(describing: error))
        }
        let context: DecodingError.Context
        switch decoding {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c):
            context = c
        @unknown default:
            return MappingError(.invalidValue, String(describing: error))
        }
        if var mapping = context.underlyingError as? MappingError {
            mapping.codableError = error
            return mapping
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            .reduce(into: "") { text, part in text += text.isEmpty || part.hasPrefix("[") ? part : "." + part }
        return MappingError(.invalidValue, context.debugDescription, path: path)
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
func decodeInParallel<T>(
    decoders: [RecordDecoder<T>], groupCount: Int, stopAtRejection: Bool,
    window: UnsafeRawBufferPointer, windowBase: Int, groupDone: GroupProgress? = nil,
    spansOfGroup: @escaping (Int, (UnsafeBufferPointer<RecordSpan>) -> Void) -> Void
) -> [OutcomeBuffer<T>] {
    WorkerPool<Int, OutcomeBuffer<T>>.map(groupCount, workers: decoders.count,
                                          groupDecoding(decoders: decoders, stopAtRejection: stopAtRejection,
                                                        window: window, windowBase: windowBase, groupDone: groupDone,
                                                        spansOfGroup: spansOfGroup))
}

/// A ``ProgressTracker`` that the threads of a `decodeAll` share: each finished group adds its records
/// and bytes under the lock (so the reports come one at a time, from whichever thread finished a group).
final class GroupProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let tracker: ProgressTracker
    private var bytes = 0

    init(_ reporting: ProgressReporting) {
        tracker = ProgressTracker(reporting)
    }

    func add<T>(_ outcomes: OutcomeBuffer<T>, bytes: Int) {
        lock.lock()
        self.bytes += bytes
        tracker.count(decoded: outcomes.count - outcomes.rejectedCount, rejected: outcomes.rejectedCount,
                      bytes: self.bytes)
        lock.unlock()
    }

    /// The final report, with the totals the caller counted while delivering.
    func finish(decoded: Int, rejected: Int, bytes: Int) {
        lock.lock()
        tracker.count(decoded: decoded - tracker.decoded, rejected: rejected - tracker.rejected, bytes: bytes)
        tracker.finish(bytes: bytes)
        lock.unlock()
    }
}

/// ``decodeInParallel(decoders:groupCount:stopAtRejection:window:windowBase:spansOfGroup:)`` for an
/// asynchronous caller: the groups are decoded on the shared ``DecodingThreads`` while the caller's task
/// is suspended (no thread of Swift's cooperative pool waits).
func decodeInParallel<T>(
    decoders: [RecordDecoder<T>], groupCount: Int, stopAtRejection: Bool,
    window: UnsafeRawBufferPointer, windowBase: Int, isolation: isolated (any Actor)?,
    spansOfGroup: @escaping (Int, (UnsafeBufferPointer<RecordSpan>) -> Void) -> Void
) async -> [OutcomeBuffer<T>] {
    await WorkerPool<Int, OutcomeBuffer<T>>.map(groupCount, workers: decoders.count, isolation: isolation,
                                                groupDecoding(decoders: decoders, stopAtRejection: stopAtRejection,
                                                              window: window, windowBase: windowBase, groupDone: nil,
                                                              spansOfGroup: spansOfGroup))
}

/// ``decodeInParallel(decoders:groupCount:stopAtRejection:window:windowBase:isolation:spansOfGroup:)``
/// started now and awaited later (``WorkerPool/StartedMap``); `keepAlive` (the window's owner) is held by
/// the jobs until the last one is done, so the window stays valid even if the caller goes away first.
func startDecodingInParallel<T>(
    decoders: [RecordDecoder<T>], groupCount: Int, stopAtRejection: Bool,
    window: UnsafeRawBufferPointer, windowBase: Int, keepAlive: AnyObject,
    spansOfGroup: @escaping (Int, (UnsafeBufferPointer<RecordSpan>) -> Void) -> Void
) -> WorkerPool<Int, OutcomeBuffer<T>>.StartedMap {
    let decode = groupDecoding(decoders: decoders, stopAtRejection: stopAtRejection, window: window,
                               windowBase: windowBase, groupDone: nil, spansOfGroup: spansOfGroup)
    return WorkerPool<Int, OutcomeBuffer<T>>.start(groupCount, workers: decoders.count) { group, context in
        withExtendedLifetime(keepAlive) { decode(group, context) }
    }
}

/// The pool job that decodes one group of spans with the worker's decoder.
private func groupDecoding<T>(
    decoders: [RecordDecoder<T>], stopAtRejection: Bool, window: UnsafeRawBufferPointer, windowBase: Int,
    groupDone: GroupProgress?,
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
            if let groupDone, let first = spans.first, let last = spans.last {
                groupDone.add(outcomes, bytes: last.end - first.start)
            }
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
