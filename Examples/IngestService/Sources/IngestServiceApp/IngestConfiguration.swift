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

    /// `--batch-bytes`: a batch is handed to the store once its records hold this many bytes (or it has
    /// ``storeBatchSize`` records), so a batch of large records stays small. It counts each record's raw
    /// bytes and decoded model, and the body chunks its raw text keeps alive.
    public var maxBatchBytes: Int
    /// `--rejected-raw-bytes`: bytes of a rejected record kept (in memory, in `rejected_records`, in the
    /// dead-letter file); the rest is dropped as soon as the reader hands the record out.
    public var rejectedRawBytes: Int
    /// `--memory-budget`: the process-wide budget every upload, document and listing reserves from
    /// (``MemoryBudget``); past it, 503 `overloaded` with `Retry-After`.
    public var memoryBudget: Int
    /// `--max-rejected-per-upload`, `--max-rejected-bytes-per-upload`: past this many rejected records (or
    /// their kept bytes) the upload stops, answered 422 `tooManyRejected` with what was committed.
    public var maxRejectedPerUpload: Int
    public var maxRejectedBytesPerUpload: Int
    /// `--rejected-keep-per-client`: the newest rejected records kept per client; older ones are deleted
    /// after each upload that added some (the quota and the retention of `rejected_records`).
    public var rejectedKeptPerClient: Int
    /// `--max-gzip-ratio`: a gzip body may inflate to at most this many times its compressed bytes (past
    /// its first MiB): past it, 413.
    public var maxInflationRatio: Int
    /// `--max-open-connections`, `--max-connections-per-address`: connections open at once, in all and
    /// from one peer address. At either cap a new connection closes the oldest one still waiting for a
    /// request head (of that address, or of any); with none, the new one is closed.
    public var maxOpenConnections: Int
    public var maxConnectionsPerAddress: Int
    /// `--head-timeout`: a new connection that has not sent a whole request head within this is closed.
    public var headTimeout: Duration
    /// `--metrics-key` (or `INGEST_METRICS_KEY`): the secret `GET /metrics` and `GET /metrics/summary` take
    /// as `Authorization: Bearer KEY` (they list every client's name and volumes); nil (the default): those
    /// routes are always 401.
    public var metricsKey: String?
    /// `--drain-timeout`: after SIGTERM (and `--shutdown-delay`), how long the uploads in flight may take to
    /// end; past it, each stops reading its body, keeps what it committed, and is answered 503
    /// `shuttingDown` with that summary.
    public var drainTimeout: Duration
    /// The clock the per-client token buckets (and the refusal log's) read (tests pass a manual one).
    public var rateLimitClock: @Sendable () -> ContinuousClock.Instant

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
        readinessTimeout: Duration = .seconds(2),
        maxBatchBytes: Int = 2 << 20,
        rejectedRawBytes: Int = 64 << 10,
        memoryBudget: Int = 160 << 20,
        maxRejectedPerUpload: Int = 10_000,
        maxRejectedBytesPerUpload: Int = 16 << 20,
        rejectedKeptPerClient: Int = 100_000,
        maxInflationRatio: Int = 100,
        maxOpenConnections: Int = 512,
        maxConnectionsPerAddress: Int = 128,
        headTimeout: Duration = .seconds(10),
        metricsKey: String? = nil,
        drainTimeout: Duration = .seconds(30),
        rateLimitClock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
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
        self.maxBatchBytes = maxBatchBytes
        self.rejectedRawBytes = rejectedRawBytes
        self.memoryBudget = memoryBudget
        self.maxRejectedPerUpload = maxRejectedPerUpload
        self.maxRejectedBytesPerUpload = maxRejectedBytesPerUpload
        self.rejectedKeptPerClient = rejectedKeptPerClient
        self.maxInflationRatio = maxInflationRatio
        self.maxOpenConnections = maxOpenConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.headTimeout = headTimeout
        self.metricsKey = metricsKey
        self.drainTimeout = drainTimeout
        self.rateLimitClock = rateLimitClock
    }

    /// What one `POST /events` reserves from ``memoryBudget``: two batches (one filling, one being stored),
    /// each at most ``maxBatchBytes`` plus its last record (raw and model), the reader's record and window,
    /// the raw-record tap's chunks and the cut record's copy, the read chunks and the server's body buffer
    /// (18 MiB with the defaults: 8 uploads at once in the default budget).
    public var uploadReservation: Int {
        2 * (maxBatchBytes + 2 * maxRecordSize) + 3 * maxRecordSize + 4 * readChunkSize + (1 << 20)
            // The rejected records one reader chunk can add before the batch is checked (each counted
            // with its kept bytes against the batch, but the check comes between reads).
            + min(readChunkSize / 2, maxRejectedPerUpload) * StreamIngestor.recordOverhead
    }

    /// What one `POST /event` reserves: the body, its copy as text and the model.
    public var documentReservation: Int { 3 * maxEventBodySize + readChunkSize }

    /// Rows of `GET /rejected` read from the store at a time.
    static let listingPageRows = 16

    /// What one `GET /rejected` reserves: a page of rows (raw at most ``rejectedRawBytes`` each, the store
    /// cuts older, longer ones) and one row as JSON (a control byte becomes six).
    public var listingReservation: Int { Self.listingPageRows * (rejectedRawBytes + 1024) + 6 * rejectedRawBytes + 4096 }

}
