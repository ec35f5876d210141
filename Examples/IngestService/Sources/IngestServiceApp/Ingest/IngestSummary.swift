import ModelMapper

/// The answer to `POST /events`: how many records were newly stored, already stored and refused, the
/// first refused ones with their errors. Sent only after every batch is committed.
public struct IngestSummary: JSONMappable, Sendable {
    /// Records decoded and newly stored.
    public var accepted = 0
    /// Records decoded whose (client, id) was already stored with the same bytes (a retried upload,
    /// another replica's upload).
    public var duplicates = 0
    /// Records decoded whose (client, id) was already stored with other bytes: not stored, the stored
    /// row unchanged; listed in ``rejections`` with kind `conflict`.
    public var conflicts = 0
    /// Records refused (each is in `rejected_records`, and in the dead-letter file when configured).
    public var rejected = 0
    /// This upload's id (`rejected_records.upload_id`, `events.upload_id` of the records it stored).
    public var uploadId = ""
    /// Body bytes read.
    public var bytes = 0
    /// The first refused records and conflicts, up to the configured limit, in input order.
    public var rejections: [Rejection] = []
    /// Refused records and conflicts not listed in ``rejections``.
    public var rejectionsOmitted = 0
    /// The dead-letter file: the refused records' raw lines, one per line, in input order (nil if none or
    /// when dead-letter files are off).
    public var deadLetterFile: String? = nil
    /// The errors of the refused records, one JSON object per line, in the same order (nil if none).
    public var deadLetterErrorsFile: String? = nil
    /// Rejected records refused past the upload's cap (`--max-rejected-per-upload`): neither stored nor
    /// listed (nil when none).
    public var rejectedNotKept: Int? = nil
    /// Why reading stopped before the end of the body (a limit), if it did.
    public var stoppedEarly: String? = nil
    /// When reading stopped: `contentTooLarge` (413) or `tooManyRejected` (422), and the request's id, as
    /// in every error body.
    public var error: String? = nil
    public var requestId: String? = nil

    public init() {}
}

/// One refused record: where it was and why.
public struct Rejection: JSONMappable, Sendable {
    /// The 0-based record number (blank lines are not records).
    public var index = 0
    /// The 1-based line where the record starts.
    public var line = 0
    /// The byte offset of the record in the body.
    public var offset = 0
    /// The ``MappingError`` kind (`syntax`, `typeMismatch`, `missingKey`, …).
    public var kind = ""
    /// Where in the record, as the document spells it (``MappingError/jsonPath``), starting with the record
    /// index (`[12].user.followers_count`).
    public var path = ""
    /// The line and column of the offending token in the body.
    public var errorLine: Int? = nil
    public var errorColumn: Int? = nil
    /// The error as one readable line.
    public var message = ""

    public init() {}

    init(_ record: RejectedRecord) {
        index = record.index
        line = record.line
        offset = record.offset
        kind = record.error.kind.rawValue
        path = record.error.jsonPath
        errorLine = record.error.line
        errorColumn = record.error.column
        message = record.error.description
    }
}
