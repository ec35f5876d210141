/// How a stream of JSON records is laid out.
public enum JSONStreamFormat: Sendable, Equatable {
    /// JSON Lines / NDJSON: one value per line (`\n` or `\r\n`). Blank lines are not records. A line that
    /// is not exactly one JSON value is a rejected record, and reading resumes at the next line — so one
    /// bad line never hides the others.
    case lines
    /// Concatenated JSON values separated by optional whitespace (`{"a":1}{"a":2}`, or values spread over
    /// several lines). Record boundaries are found by a bracket-and-quote scan; a value that is not valid
    /// JSON is rejected and reading resumes after it (a value cut short inside a string resumes at the
    /// next line; one cut short elsewhere cannot be delimited, so the rest of the input becomes part of
    /// that rejected record — reported with its bytes, or, once it is longer than the reader's
    /// `maxRecordBytes`, as a record too large with its first bytes). Prefer `.lines` for data that may
    /// be damaged.
    case concatenated
    /// One top-level JSON array whose elements are the records (`[{…}, {…}, …]`). Errors in the array's
    /// own punctuation (a missing or trailing comma, data after the closing bracket, a missing `]`) are
    /// reported as rejected records too.
    case array
}

/// A record that could not be decoded, handed to ``RecordErrorPolicy/skip(_:)`` so nothing is lost
/// silently.
public struct RejectedRecord: Sendable, CustomStringConvertible {
    /// The 0-based record number: every record (decoded or rejected) and every framing error in the
    /// stream takes the next number. Blank lines are not records.
    public var index: Int
    /// The 1-based line where the record starts.
    public var line: Int
    /// The 1-based column (in Unicode scalars) where the record starts; 1 for JSON Lines.
    public var column: Int
    /// The 0-based byte offset of the record's first byte in the whole input.
    public var offset: Int
    /// Why the record was rejected, positioned in whole-input coordinates (line, column and offset of
    /// the offending token); the ``MappingError/path`` starts with the record index (`[12].user.id`),
    /// as for elements of a top-level array.
    public var error: MappingError
    /// The record's bytes as they appear in the input (for JSON Lines, the line without its `\r\n`); for a
    /// record longer than the reader's `maxRecordBytes`, only its first `min(maxRecordBytes, 4096)` bytes.
    public var raw: [UInt8]

    /// Creates a rejected-record report.
    public init(index: Int, line: Int, column: Int = 1, offset: Int, error: MappingError, raw: [UInt8]) {
        self.index = index
        self.line = line
        self.column = column
        self.offset = offset
        self.error = error
        self.raw = raw
    }

    /// The raw bytes as text (invalid UTF-8 replaced).
    public var rawText: String { String(decoding: raw, as: UTF8.self) }

    public var description: String {
        "record \(index) (line \(line), byte \(offset)): \(error)"
    }
}

/// What a bulk or streaming reader does with a record that cannot be decoded.
///
/// `Sendable`, like the readers that hold it: the `.skip` closure is `@Sendable`. A closure that collects
/// the rejected records into a variable of the caller can keep them in a lock-protected box (or hand them
/// to an actor, or count them with an atomic); it is always called on the thread that iterates, in input
/// order, so such a lock is never contended.
public enum RecordErrorPolicy: Sendable {
    /// Throw the first error (a ``MappingError`` positioned in the whole input, its path starting with
    /// the record index, e.g. `[12].user.id`) and end the stream.
    case stop
    /// Hand each rejected record to the closure — in input order, on the thread that iterates — and
    /// continue with the next record.
    case skip(@Sendable (RejectedRecord) -> Void)
}
