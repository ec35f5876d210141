/// Everything the service can be told at start-up (the executable's options map one to one).
public struct IngestConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The port to listen on; 0 picks a free one (the tests use this).
    public var port: Int
    /// Where `POST /events` also writes the raw lines it rejects, one pair of files per upload (created
    /// if missing); nil (the default) for none: rejected records are in the store's `rejected_records`.
    public var deadLetterDirectory: String?
    /// The largest body `POST /event` reads (it holds the whole document in memory).
    public var maxEventBodySize: Int
    /// The largest body `POST /events` reads (default 1 GiB; past it, 413 and nothing more of the
    /// upload is stored); nil for no limit (it streams in bounded memory).
    public var maxEventsBodySize: Int?
    /// The longest record (a JSON line or an element of a top-level array) `POST /events` takes; a longer
    /// one is a rejected record of kind `tooLarge` (its first bytes kept) and the upload goes on. The
    /// reader holds one record at a time, so this bounds memory per request.
    public var maxRecordSize: Int
    /// How many rejected records a `POST /events` response lists; the rest are counted as omitted.
    public var rejectionListLimit: Int
    /// Bytes the JSON Lines reader takes from the body at a time.
    public var readChunkSize: Int
    /// Records (decoded and rejected) stored per transaction.
    public var storeBatchSize: Int
    /// Whether a POST without an API key is taken, as ``anonymousClient`` (local use only; a key given
    /// is checked all the same).
    public var allowAnonymous: Bool

    /// The client of the records posted without a key under ``allowAnonymous``.
    public static let anonymousClient = "anonymous"

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        deadLetterDirectory: String? = nil,
        maxEventBodySize: Int = 1 << 20,
        maxEventsBodySize: Int? = 1 << 30,
        maxRecordSize: Int = 1 << 20,
        rejectionListLimit: Int = 100,
        readChunkSize: Int = 256 << 10,
        storeBatchSize: Int = 1024,
        allowAnonymous: Bool = false
    ) {
        self.host = host
        self.port = port
        self.deadLetterDirectory = deadLetterDirectory
        self.maxEventBodySize = maxEventBodySize
        self.maxEventsBodySize = maxEventsBodySize
        self.maxRecordSize = maxRecordSize
        self.rejectionListLimit = rejectionListLimit
        self.readChunkSize = readChunkSize
        self.storeBatchSize = storeBatchSize
        self.allowAnonymous = allowAnonymous
    }
}
