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

    /// `--rate-limit`: POST requests per second per client on this replica (a token bucket holding as many);
    /// past it 429 with `Retry-After`. Nil (the default) for none.
    public var rateLimit: Double?
    /// `--max-uploads-per-client`: POST requests of one client in progress at once on this replica; one
    /// more is 429 with `Retry-After`.
    public var maxUploadsPerClient: Int
    /// `--idle-timeout`: a connection that sends nothing for this long (no request, or a body that
    /// stalls) is closed; nil for never.
    public var idleTimeout: Duration?
    /// `--shutdown-delay`: after SIGTERM, how long `GET /ready` answers 503 while the server still takes
    /// connections, before it stops accepting and drains.
    public var shutdownDelay: Duration
    /// How often the store is probed for `GET /ready`, and how long a probe may take before the store
    /// counts as not answering.
    public var readinessInterval: Duration
    public var readinessTimeout: Duration

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
        allowAnonymous: Bool = false,
        rateLimit: Double? = nil,
        maxUploadsPerClient: Int = 4,
        idleTimeout: Duration? = .seconds(30),
        shutdownDelay: Duration = .zero,
        readinessInterval: Duration = .seconds(1),
        readinessTimeout: Duration = .seconds(2)
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
        self.rateLimit = rateLimit
        self.maxUploadsPerClient = maxUploadsPerClient
        self.idleTimeout = idleTimeout
        self.shutdownDelay = shutdownDelay
        self.readinessInterval = readinessInterval
        self.readinessTimeout = readinessTimeout
    }
}
