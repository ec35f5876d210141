import Foundation

/// Reads a stream of models of one type from JSON Lines / NDJSON (or concatenated JSON values, or one
/// large top-level array — see ``JSONStreamFormat``), in chunks, with memory bounded by the largest
/// record (at most ``maxRecordBytes``) plus the chunk size, not by the input.
///
/// `T` is a mapped model (``JSONMappable``, `@JSONModel`: the initializers taking `options:`) or any
/// `Decodable` type (the initializers taking `decoder:`, a ``ModelDecoder`` whose strategies and options
/// apply to every record; see the `Decodable` extension). The reader is `Sendable`: it can be handed to
/// another task (each iteration is its own).
///
/// ```swift
/// let lines = JSONLines<Event>(url: fileURL, options: .lenient, onError: .skip { rejected in
///     log("record \(rejected.index), line \(rejected.line): \(rejected.error)")
/// })
/// for try await event in lines { … }                      // AsyncSequence
/// try lines.forEach { event in … }                          // synchronous
/// for result in lines.records() { let event = try result.get() }   // Sequence of Result
/// let all = try JSONLines<Event>.decodeAll(data, workers: 2, onError: .stop)   // parallel, input order
/// for try await record in JSONLines<CodableRecord>(url: fileURL, decoder: ModelDecoder()) { … }
/// let counted = lines.reportingProgress(.every(records: 100_000) { print($0) })  // statistics, reports
/// ```
///
/// - Input: a file (`url:` / `path:`), a `FileHandle` (read from its current position, never closed, its
///   flags unchanged; see below for how it is read), an in-memory `Data` / `[UInt8]` (read in place, never copied), or any
///   `AsyncSequence` of bytes or of byte chunks (`bytes:` / `chunks:`; asynchronous iteration only).
/// - Errors: with ``RecordErrorPolicy/stop`` the first bad record ends the stream with a ``MappingError``
///   whose line, column and offset are positions in the whole input and whose path starts with the
///   record index (`[12].user.id`). With ``RecordErrorPolicy/skip(_:)`` every bad record is handed to the
///   closure as a ``RejectedRecord`` (index, line, offset, error, raw bytes) and reading continues.
///   A truncated last record is reported like any other bad record. I/O failures are thrown
///   (``StreamIOError``) whatever the policy.
/// - `workers`: with more than one, synchronous iteration (and `for try await` over in-memory input)
///   runs a reader thread that cuts the input into groups of records (~128 KB) that `workers` threads
///   decode ahead of the consumer (at most 8 groups per worker in flight, so memory stays bounded); `for
///   try await` over a file, a handle or an `AsyncSequence` decodes batches of `workers × chunkSize` bytes
///   on the process's shared decoding threads, one batch in flight: the next batch starts before the
///   models of the last one are handed out (its input read first when the last read filled its buffer,
///   as a regular file's always does; otherwise the models already decoded come first), and it starts no
///   thread. Models are
///   still delivered in input order, and rejected records are handed to the closure in order on the
///   iterating thread; decoding hooks and `DecodingOptions.invalidValueHandler` then run on worker
///   threads. A reader's own threads stop when the iterator is dropped.
/// - `for try await` never blocks a thread of Swift's cooperative pool and a waiting iteration holds no
///   thread: a regular file is read on the iterating task in chunks of `chunkSize` (such a read never
///   waits for input); a pipe, FIFO, socket or terminal is read only when `poll(2)` reports it readable,
///   and while it is not, the task suspends on one thread the whole process shares for all such waits
///   (it ends after a second with nobody waiting). A descriptor opened from a path is in non-blocking
///   mode; a `FileHandle` keeps its flags, so it must not be read by anything else during the iteration
///   (a read that another reader emptied first would block). Cancelling the task ends the iteration with
///   `CancellationError` — at once while it waits for input or for the workers, otherwise at its next
///   read — and closes a file the stream opened (never a `FileHandle`).
/// - `decodeAll` starts no threads per call: the caller and the process's shared decoding threads (at most
///   `activeProcessorCount`, long-lived) do the work; see ``DecodingBuffers`` for what threads keep.
/// - Each iteration starts again from the beginning of the input (for files and in-memory buffers; a
///   `FileHandle` or an `AsyncSequence` continues wherever it is).
public struct JSONLines<T>: AsyncSequence, Sendable {
    /// One decoded record.
    public typealias Element = T

    let source: StreamSource
    let model: RecordModel<T>
    /// Statistics and periodic reports (``reportingProgress(_:)``).
    let progress: ProgressReporting?
    /// How the input is laid out.
    public let format: JSONStreamFormat
    /// Conversion, date and limit options for every record (for a `Decodable` type read with a
    /// ``ModelDecoder``, the decoder's ``ModelDecoder/options``).
    public let options: DecodingOptions
    /// Threads that decode records (1: decode on the iterating thread, one record at a time).
    public let workers: Int
    /// Bytes read per refill.
    public let chunkSize: Int
    /// The longest record read, in bytes (for JSON Lines, a line without its `\r\n`; otherwise a value
    /// from its first byte to its last). A longer record is rejected — a ``MappingError`` of kind
    /// `.invalidValue` naming the limit, whose ``RejectedRecord/raw`` is its first
    /// `min(maxRecordBytes, 4096)` bytes — as soon as its first `maxRecordBytes + 1` bytes have been read;
    /// the rest of it is read and dropped as it comes, without being kept, and the records after it keep
    /// their index, line and offset. So a reader holds at most about `maxRecordBytes` plus a refill of
    /// input, whatever the input. A JSON Lines line longer than the limit is rejected even if it turns out
    /// to hold only whitespace.
    public let maxRecordBytes: Int
    /// What happens to records that cannot be decoded.
    public let onError: RecordErrorPolicy

    /// The default number of bytes read at a time (1 MiB).
    public static var defaultChunkSize: Int { 1 << 20 }

    /// The default ``maxRecordBytes`` (16 MiB): sixteen times the usual 1 MiB record limits of JSON Lines
    /// services, and enough to keep a reader's window within a few tens of MiB.
    public static var defaultMaxRecordBytes: Int { 16 << 20 }

    init(source: StreamSource, format: JSONStreamFormat, model: RecordModel<T>, workers: Int, chunkSize: Int,
         maxRecordBytes: Int, onError: RecordErrorPolicy, progress: ProgressReporting? = nil) {
        self.source = source
        self.model = model
        self.progress = progress
        self.format = format
        self.options = model.options
        self.workers = Swift.max(1, workers)
        self.chunkSize = Swift.max(1, chunkSize)
        self.maxRecordBytes = RecordLimit(maxBytes: maxRecordBytes).maxBytes
        self.onError = onError
    }

    /// A copy of this reader that keeps statistics and reports them as `reporting` says (see
    /// ``ProgressReporting``): records decoded and rejected, bytes read and time elapsed, handed to the
    /// closure periodically on the iterating thread and once more when the input ends or an error ends
    /// the stream (``JSONLinesProgress/isFinished``). Every form of iteration (`for try await`,
    /// `records()`, `forEach`, the iterators) reports; the iterators' `progress` is the current figure.
    ///
    /// ```swift
    /// let lines = JSONLines<Event>(url: fileURL)
    ///     .reportingProgress(.every(.seconds(5)) { progress in print(progress) })
    /// ```
    public func reportingProgress(_ reporting: ProgressReporting) -> JSONLines {
        JSONLines(source: source, format: format, model: model, workers: workers, chunkSize: chunkSize,
                  maxRecordBytes: maxRecordBytes, onError: onError, progress: reporting)
    }

    func makeReader() -> RecordReader<T> {
        RecordReader(source: source, format: format, model: model, limit: RecordLimit(maxBytes: maxRecordBytes),
                     policy: onError, workers: workers, chunkSize: chunkSize, progress: progress)
    }

    // MARK: AsyncSequence

    /// Iterates the models with `for try await`.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: RecordReader<T>

        /// The next model, or nil at the end of the input; throws a record's error under `.stop`, an I/O
        /// error, or `CancellationError`.
        public mutating func next() async throws -> T? {
            try await reader.nextAsync(isolation: nil)
        }

        /// ``next()``, run on `actor` (the form `for try await` calls).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> T? {
            try await reader.nextAsync(isolation: actor)
        }

        /// Bytes of input up to the end of the last record handed out or rejected (for a record cut at
        /// ``JSONLines/maxRecordBytes``, up to the end of the bytes kept of it).
        public var bytesConsumed: Int { reader.bytesConsumed }

        /// Records decoded and rejected so far, bytes consumed and time since the iteration started (the
        /// figures ``reportingProgress(_:)`` reports; kept whether or not it is set).
        public var progress: JSONLinesProgress { reader.progress }
    }

    /// A new iterator; each starts from the beginning of the input where the input allows it.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: makeReader())
    }

    // MARK: Synchronous iteration

    /// A synchronous, throwing iterator: `while let event = try iterator.next() { … }`.
    public struct SyncIterator {
        let reader: RecordReader<T>

        /// The next model, or nil at the end of the input.
        public mutating func next() throws -> T? {
            try reader.nextSync()
        }

        /// Bytes of input up to the end of the last record handed out or rejected, for progress (for a record
        /// cut at ``JSONLines/maxRecordBytes``, up to the end of the bytes kept of it).
        public var bytesConsumed: Int { reader.bytesConsumed }

        /// Records decoded and rejected so far, bytes consumed and time since the iteration started (the
        /// figures ``reportingProgress(_:)`` reports; kept whether or not it is set).
        public var progress: JSONLinesProgress { reader.progress }
    }

    /// A synchronous iterator (not for `AsyncSequence` inputs).
    public func makeSyncIterator() -> SyncIterator {
        SyncIterator(reader: makeReader())
    }

    /// Calls `body` with each model, synchronously, in input order.
    public func forEach(_ body: (T) throws -> Void) throws {
        var iterator = makeSyncIterator()
        while let model = try iterator.next() { try body(model) }
    }

    /// The models as a synchronous `Sequence` of `Result`s: `.success` for each model; a `.failure` with
    /// the `.stop` error (or an I/O error) is the last element. With `.skip`, rejected records go to the
    /// closure and only models are yielded.
    public func records() -> Records {
        Records(lines: self)
    }

    /// A synchronous `Sequence` over a ``JSONLines`` reader; see ``JSONLines/records()``.
    public struct Records: Sequence {
        let lines: JSONLines

        /// A new iterator over the records.
        public func makeIterator() -> Iterator {
            Iterator(reader: lines.makeReader())
        }

        /// Yields `.success(model)` per record, then at most one `.failure` (the stopping error), then nil.
        public struct Iterator: IteratorProtocol {
            let reader: RecordReader<T>
            var isDone = false

            /// The next record's result, or nil after the end or after a failure.
            public mutating func next() -> Result<T, any Error>? {
                guard !isDone else { return nil }
                do {
                    if let model = try reader.nextSync() { return .success(model) }
                    isDone = true
                    return nil
                } catch {
                    isDone = true
                    return .failure(error)
                }
            }
        }
    }

}

extension JSONLines where T: MappedJSONModel {
    /// Reads a file. Only `file:` URLs are supported (the error is thrown when iteration starts).
    public init(url: URL, format: JSONStreamFormat = .lines, options: DecodingOptions = .lenient, workers: Int = 1,
                chunkSize: Int = JSONLines.defaultChunkSize, maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes,
                onError: RecordErrorPolicy = .stop) {
        let source: StreamSource = url.isFileURL
            ? .path(url.path)
            : .invalid(MappingError(.unsupportedType, "only file URLs can be read, not \(url.absoluteString)"))
        self.init(source: source, format: format, model: .mapped(options: options), workers: workers, chunkSize: chunkSize,
                  maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads the file at `path`.
    public init(path: String, format: JSONStreamFormat = .lines, options: DecodingOptions = .lenient,
                workers: Int = 1, chunkSize: Int = JSONLines.defaultChunkSize,
                maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        self.init(source: .path(path), format: format, model: .mapped(options: options), workers: workers, chunkSize: chunkSize,
                  maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads a file handle from its current position (the handle is not closed; `for try await` reads it only
    /// when `poll(2)` reports it readable, synchronous iteration with blocking reads).
    public init(fileHandle: FileHandle, format: JSONStreamFormat = .lines, options: DecodingOptions = .lenient,
                workers: Int = 1, chunkSize: Int = JSONLines.defaultChunkSize,
                maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        self.init(source: .fileHandle(fileHandle), format: format, model: .mapped(options: options), workers: workers,
                  chunkSize: chunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an in-memory buffer in place.
    public init(data: Data, format: JSONStreamFormat = .lines, options: DecodingOptions = .lenient, workers: Int = 1,
                maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        self.init(source: .data(data), format: format, model: .mapped(options: options), workers: workers,
                  chunkSize: JSONLines.defaultChunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an in-memory buffer in place.
    public init(bytes: [UInt8], format: JSONStreamFormat = .lines, options: DecodingOptions = .lenient,
                workers: Int = 1, maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes,
                onError: RecordErrorPolicy = .stop) {
        self.init(source: .bytes(bytes), format: format, model: .mapped(options: options), workers: workers,
                  chunkSize: JSONLines.defaultChunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an asynchronous sequence of bytes (such as `URL.resourceBytes` or `FileHandle.bytes` where
    /// available). Asynchronous iteration only.
    public init<Bytes: AsyncSequence>(bytes: Bytes, format: JSONStreamFormat = .lines,
                                      options: DecodingOptions = .lenient, workers: Int = 1,
                                      chunkSize: Int = JSONLines.defaultChunkSize,
                                      maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes,
                                      onError: RecordErrorPolicy = .stop) where Bytes.Element == UInt8 {
        self.init(source: .async(AsyncSourceMaker { AsyncSequenceByteReader(bytes) }), format: format, model: .mapped(options: options),
                  workers: workers, chunkSize: chunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an asynchronous sequence of byte chunks (`[UInt8]`, `Data`, …), which may split records
    /// anywhere. Asynchronous iteration only.
    public init<Chunks: AsyncSequence>(chunks: Chunks, format: JSONStreamFormat = .lines,
                                       options: DecodingOptions = .lenient, workers: Int = 1,
                                       chunkSize: Int = JSONLines.defaultChunkSize,
                                       maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes,
                                       onError: RecordErrorPolicy = .stop) where Chunks.Element: DataProtocol {
        self.init(source: .async(AsyncSourceMaker { AsyncSequenceChunkReader(chunks) }), format: format, model: .mapped(options: options),
                  workers: workers, chunkSize: chunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    // MARK: Whole inputs, all cores

    /// Decodes every record of an in-memory buffer on `workers` threads; the models come back in input
    /// order. Rejected records (with `.skip`) are handed to the closure in input order on the calling
    /// thread after decoding; with `.stop` the first bad record in input order is thrown.
    public static func decodeAll<Input: JSONInput>(
        _ json: Input, format: JSONStreamFormat = .lines, options: DecodingOptions = .lenient,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop,
        progress: ProgressReporting? = nil
    ) throws -> [T] {
        try json.withJSONBytes { bytes in
            try RecordEngine<T>.decodeAll(bytes, format: format, model: .mapped(options: options),
                                          limit: RecordLimit(maxBytes: maxRecordBytes), workers: workers,
                                          policy: onError, progress: progress)
        }
    }

    /// Decodes every record of a file (mapped into memory, not read) on `workers` threads, in input order.
    public static func decodeAll(
        contentsOf url: URL, format: JSONStreamFormat = .lines, options: DecodingOptions = .lenient,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop,
        progress: ProgressReporting? = nil
    ) throws -> [T] {
        guard url.isFileURL else {
            throw MappingError(.unsupportedType, "only file URLs can be read, not \(url.absoluteString)")
        }
        let file = try MappedFile(path: url.path)
        return try file.withBytes { bytes in
            try RecordEngine<T>.decodeAll(bytes, format: format, model: .mapped(options: options),
                                          limit: RecordLimit(maxBytes: maxRecordBytes), workers: workers,
                                          policy: onError, progress: progress)
        }
    }
}


/// `Decodable` records: the same inputs, formats, workers, limits, error policies and progress as for
/// mapped models, each record decoded on the Codable tape decoder as ``ModelDecoder/decode(_:from:)-(T.Type,_)``
/// decodes a document, with the `decoder:` argument's strategies (keys, dates, data, non-conforming
/// floats), `userInfo` and ``ModelDecoder/options`` (``ModelDecoder/assumesTopLevelDictionary`` too).
/// A rejected record's ``RejectedRecord/error`` (and the error `.stop` throws) is the ``MappingError``
/// such a decoding carries under its `DecodingError` — positioned in the whole input, its path starting
/// with the record index — or, for an error of the type's own `init(from:)`, one of kind `.invalidValue`
/// describing it.
///
/// ```swift
/// var decoder = ModelDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// for try await event in JSONLines<CodableEvent>(url: fileURL, decoder: decoder, workers: 2) { … }
/// ```
///
/// A type that is both mapped and `Decodable` (a ``JSONCodable`` model) is read by its mapping, with the
/// `options:` argument, or with a `decoder:` argument as that decoder reads it (by the mapping too, with
/// the decoder's options and Codable strategies).
extension JSONLines where T: Decodable {
    /// Reads a file of `Decodable` records, each decoded by `decoder` (its strategies and options). Only
    /// `file:` URLs are supported (the error is thrown when iteration starts).
    @_disfavoredOverload
    public init(url: URL, format: JSONStreamFormat = .lines, decoder: ModelDecoder = ModelDecoder(), workers: Int = 1,
                chunkSize: Int = JSONLines.defaultChunkSize, maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes,
                onError: RecordErrorPolicy = .stop) {
        let source: StreamSource = url.isFileURL
            ? .path(url.path)
            : .invalid(MappingError(.unsupportedType, "only file URLs can be read, not \(url.absoluteString)"))
        self.init(source: source, format: format, model: .codable(decoder: decoder), workers: workers, chunkSize: chunkSize,
                  maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads the file at `path`.
    @_disfavoredOverload
    public init(path: String, format: JSONStreamFormat = .lines, decoder: ModelDecoder = ModelDecoder(),
                workers: Int = 1, chunkSize: Int = JSONLines.defaultChunkSize,
                maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        self.init(source: .path(path), format: format, model: .codable(decoder: decoder), workers: workers, chunkSize: chunkSize,
                  maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads a file handle from its current position (the handle is not closed; `for try await` reads it only
    /// when `poll(2)` reports it readable, synchronous iteration with blocking reads).
    @_disfavoredOverload
    public init(fileHandle: FileHandle, format: JSONStreamFormat = .lines, decoder: ModelDecoder = ModelDecoder(),
                workers: Int = 1, chunkSize: Int = JSONLines.defaultChunkSize,
                maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        self.init(source: .fileHandle(fileHandle), format: format, model: .codable(decoder: decoder), workers: workers,
                  chunkSize: chunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an in-memory buffer in place.
    @_disfavoredOverload
    public init(data: Data, format: JSONStreamFormat = .lines, decoder: ModelDecoder = ModelDecoder(), workers: Int = 1,
                maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        self.init(source: .data(data), format: format, model: .codable(decoder: decoder), workers: workers,
                  chunkSize: JSONLines.defaultChunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an in-memory buffer in place.
    @_disfavoredOverload
    public init(bytes: [UInt8], format: JSONStreamFormat = .lines, decoder: ModelDecoder = ModelDecoder(),
                workers: Int = 1, maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes,
                onError: RecordErrorPolicy = .stop) {
        self.init(source: .bytes(bytes), format: format, model: .codable(decoder: decoder), workers: workers,
                  chunkSize: JSONLines.defaultChunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an asynchronous sequence of bytes (such as `URL.resourceBytes` or `FileHandle.bytes` where
    /// available). Asynchronous iteration only.
    @_disfavoredOverload
    public init<Bytes: AsyncSequence>(bytes: Bytes, format: JSONStreamFormat = .lines,
                                      decoder: ModelDecoder = ModelDecoder(), workers: Int = 1,
                                      chunkSize: Int = JSONLines.defaultChunkSize,
                                      maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes,
                                      onError: RecordErrorPolicy = .stop) where Bytes.Element == UInt8 {
        self.init(source: .async(AsyncSourceMaker { AsyncSequenceByteReader(bytes) }), format: format, model: .codable(decoder: decoder),
                  workers: workers, chunkSize: chunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an asynchronous sequence of byte chunks (`[UInt8]`, `Data`, …), which may split records
    /// anywhere. Asynchronous iteration only.
    @_disfavoredOverload
    public init<Chunks: AsyncSequence>(chunks: Chunks, format: JSONStreamFormat = .lines,
                                       decoder: ModelDecoder = ModelDecoder(), workers: Int = 1,
                                       chunkSize: Int = JSONLines.defaultChunkSize,
                                       maxRecordBytes: Int = JSONLines.defaultMaxRecordBytes,
                                       onError: RecordErrorPolicy = .stop) where Chunks.Element: DataProtocol {
        self.init(source: .async(AsyncSourceMaker { AsyncSequenceChunkReader(chunks) }), format: format, model: .codable(decoder: decoder),
                  workers: workers, chunkSize: chunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    // MARK: Whole inputs, all cores (Decodable)

    /// Decodes every `Decodable` record of an in-memory buffer with `decoder` on `workers` threads; the models come back in input
    /// order. Rejected records (with `.skip`) are handed to the closure in input order on the calling
    /// thread after decoding; with `.stop` the first bad record in input order is thrown.
    @_disfavoredOverload
    public static func decodeAll<Input: JSONInput>(
        _ json: Input, format: JSONStreamFormat = .lines, decoder: ModelDecoder = ModelDecoder(),
        workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop,
        progress: ProgressReporting? = nil
    ) throws -> [T] {
        try json.withJSONBytes { bytes in
            try RecordEngine<T>.decodeAll(bytes, format: format, model: .codable(decoder: decoder),
                                          limit: RecordLimit(maxBytes: maxRecordBytes), workers: workers,
                                          policy: onError, progress: progress)
        }
    }

    /// Decodes every `Decodable` record of a file (mapped into memory, not read) with `decoder` on `workers` threads, in input order.
    @_disfavoredOverload
    public static func decodeAll(
        contentsOf url: URL, format: JSONStreamFormat = .lines, decoder: ModelDecoder = ModelDecoder(),
        workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop,
        progress: ProgressReporting? = nil
    ) throws -> [T] {
        guard url.isFileURL else {
            throw MappingError(.unsupportedType, "only file URLs can be read, not \(url.absoluteString)")
        }
        let file = try MappedFile(path: url.path)
        return try file.withBytes { bytes in
            try RecordEngine<T>.decodeAll(bytes, format: format, model: .codable(decoder: decoder),
                                          limit: RecordLimit(maxBytes: maxRecordBytes), workers: workers,
                                          policy: onError, progress: progress)
        }
    }
}


/// ``JSONLines`` for one top-level JSON array whose elements are the records (`[{…}, {…}, …]`), with the
/// same inputs, error policies, bounded memory and iteration styles. Equivalent to
/// `JSONLines(…, format: .array, …)`; the models equal `[T](json:)`'s.
public struct JSONArrayStream<T: MappedJSONModel>: AsyncSequence, Sendable {
    /// One decoded array element.
    public typealias Element = T

    /// The underlying reader (format `.array`).
    public let reader: JSONLines<T>

    /// Reads a file (`file:` URLs only).
    public init(url: URL, options: DecodingOptions = .lenient, workers: Int = 1,
                chunkSize: Int = JSONLines<T>.defaultChunkSize,
        maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        reader = JSONLines(url: url, format: .array, options: options, workers: workers, chunkSize: chunkSize,
                           maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads the file at `path`.
    public init(path: String, options: DecodingOptions = .lenient, workers: Int = 1,
                chunkSize: Int = JSONLines<T>.defaultChunkSize,
        maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        reader = JSONLines(path: path, format: .array, options: options, workers: workers, chunkSize: chunkSize,
                           maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads a file handle from its current position.
    public init(fileHandle: FileHandle, options: DecodingOptions = .lenient, workers: Int = 1,
                chunkSize: Int = JSONLines<T>.defaultChunkSize,
        maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        reader = JSONLines(fileHandle: fileHandle, format: .array, options: options, workers: workers,
                           chunkSize: chunkSize, maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an in-memory buffer in place.
    public init(data: Data, options: DecodingOptions = .lenient, workers: Int = 1,
        maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        reader = JSONLines(data: data, format: .array, options: options, workers: workers,
                           maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an in-memory buffer in place.
    public init(bytes: [UInt8], options: DecodingOptions = .lenient, workers: Int = 1,
                maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop) {
        reader = JSONLines(bytes: bytes, format: .array, options: options, workers: workers,
                           maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an asynchronous sequence of bytes.
    public init<Bytes: AsyncSequence>(bytes: Bytes, options: DecodingOptions = .lenient, workers: Int = 1,
                                      chunkSize: Int = JSONLines<T>.defaultChunkSize,
                                      maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes,
                                      onError: RecordErrorPolicy = .stop) where Bytes.Element == UInt8 {
        reader = JSONLines(bytes: bytes, format: .array, options: options, workers: workers, chunkSize: chunkSize,
                           maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// Reads an asynchronous sequence of byte chunks.
    public init<Chunks: AsyncSequence>(chunks: Chunks, options: DecodingOptions = .lenient, workers: Int = 1,
                                       chunkSize: Int = JSONLines<T>.defaultChunkSize,
                                       maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes,
                                       onError: RecordErrorPolicy = .stop) where Chunks.Element: DataProtocol {
        reader = JSONLines(chunks: chunks, format: .array, options: options, workers: workers, chunkSize: chunkSize,
                           maxRecordBytes: maxRecordBytes, onError: onError)
    }

    /// A new iterator over the elements (the underlying reader's).
    public func makeAsyncIterator() -> JSONLines<T>.AsyncIterator { reader.makeAsyncIterator() }

    /// A synchronous, throwing iterator.
    public func makeSyncIterator() -> JSONLines<T>.SyncIterator { reader.makeSyncIterator() }

    /// Calls `body` with each element model, synchronously, in order.
    public func forEach(_ body: (T) throws -> Void) throws { try reader.forEach(body) }

    /// The elements as a synchronous `Sequence` of `Result`s; see ``JSONLines/records()``.
    public func records() -> JSONLines<T>.Records { reader.records() }

    /// Decodes every element of an in-memory top-level array on `workers` threads, in order.
    public static func decodeAll<Input: JSONInput>(
        _ json: Input, options: DecodingOptions = .lenient,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        maxRecordBytes: Int = JSONLines<T>.defaultMaxRecordBytes, onError: RecordErrorPolicy = .stop
    ) throws -> [T] {
        try JSONLines<T>.decodeAll(json, format: .array, options: options, workers: workers,
                                   maxRecordBytes: maxRecordBytes, onError: onError)
    }
}
