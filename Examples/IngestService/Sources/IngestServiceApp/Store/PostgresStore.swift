import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// The store for replicas: PostgreSQL through postgres-nio's `PostgresClient` (a connection pool). Each
/// batch is one transaction: its events COPYed into a staging table and moved with
/// `INSERT … SELECT … ON CONFLICT DO NOTHING RETURNING id`, its rows in id order (so two replicas
/// inserting the same ids take the row locks in the same order and cannot deadlock; a row another
/// transaction holds makes this one wait for its commit, then count the id as a duplicate), then its
/// rejected records (multi-row binds). Replicas keep no state of their own.
public final class PostgresStore: EventStore {
    private let client: PostgresClient
    private let metrics: IngestMetrics?
    private let logger: Logger
    /// How long a batch may wait for a connection and its transaction before the upload fails (503).
    private let timeout: Duration
    /// The staging table's `CREATE` statement (see ``stagingTable(rawCompression:)``).
    private let createStaging: String

    private init(client: PostgresClient, metrics: IngestMetrics?, logger: Logger, timeout: Duration, createStaging: String) {
        self.client = client
        self.metrics = metrics
        self.logger = logger
        self.timeout = timeout
        self.createStaging = createStaging
    }

    /// Checks the URL, connects once to bring the schema up to date (failing at once when the server
    /// cannot be reached), and makes the pool. Run the store (``run()``) for the pool to lend connections.
    public static func open(
        url: String, maxConnections: Int = 8, timeout: Duration = .seconds(10), metrics: IngestMetrics? = nil,
        logger: Logger = Logger(label: "IngestService.Postgres")
    ) async throws -> PostgresStore {
        let target = try PostgresURL(url)
        let connectionConfiguration = PostgresConnection.Configuration(
            host: target.host, port: target.port, username: target.user, password: target.password,
            database: target.database, tls: .disable)
        let createStaging: String
        do {
            createStaging = try await withDeadline(timeout, "connecting to \(target.redacted) and migrating its schema") {
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: connectionConfiguration, id: 0,
                    logger: logger)
                let createStaging: String
                do {
                    try await migrate(connection, logger: logger)
                    createStaging = stagingTable(rawCompression: try await hasLZ4(connection, logger: logger) ? "lz4" : nil)
                } catch {
                    try? await connection.close()
                    throw error
                }
                try await connection.close()
                return createStaging
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.unavailable("cannot use the PostgreSQL database \(target.redacted): \(String(reflecting: error))")
        }
        var configuration = PostgresClient.Configuration(
            host: target.host, port: target.port, username: target.user, password: target.password,
            database: target.database, tls: .disable)
        configuration.options.maximumConnections = maxConnections
        configuration.options.connectTimeout = timeout
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return PostgresStore(client: client, metrics: metrics, logger: logger, timeout: timeout, createStaging: createStaging)
    }

    /// Whether the server can compress TOAST values with lz4 (built `--with-lz4`, as Debian's packages are).
    private static func hasLZ4(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.query(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'", logger: logger)
        var available = false
        for try await (value) in rows.decode(Bool.self) { available = value }
        return available
    }

    /// The staging table COPY writes a batch's events into: the session's own, emptied at each commit.
    ///
    /// `raw` (~4 KB a tweet) is past the TOAST threshold, so PostgreSQL compresses it as the COPY stores
    /// it, and `INSERT … SELECT` moves the compressed value into `events` as it is. With the default
    /// method, pglz, that compression was 44% of the backend's CPU in a PostgreSQL load run (perf -a: a
    /// 150 MB upload cost the backend 3.9 s of CPU, the server 1.7 s); lz4 compresses the same values in
    /// about a third of the time (inserting 32,279 raw texts into a temporary table: 2.7 s with pglz,
    /// 1.1 s with lz4). Without lz4 the server's default applies.
    static func stagingTable(rawCompression: String?) -> String {
        """
        CREATE TEMP TABLE IF NOT EXISTS events_staging (id BIGINT, created_at DOUBLE PRECISION, text TEXT,
            lang TEXT, retweet_count BIGINT, favorite_count BIGINT, user_id BIGINT, user_screen_name TEXT,
            user_followers_count BIGINT, user_verified BOOLEAN, hashtags TEXT, urls TEXT, upload_id TEXT,
            raw TEXT\(rawCompression.map { " COMPRESSION \($0)" } ?? "")) ON COMMIT DELETE ROWS
        """
    }

    /// Applies the migrations above the stored version, each in a transaction, under an advisory lock
    /// (replicas starting together wait for each other instead of racing on `CREATE TABLE`).
    private static func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY)", logger: logger)
        for migration in Schema.migrations {
            try await transaction(on: connection, logger: logger) {
                try await connection.query("SELECT pg_advisory_xact_lock(7262840)", logger: logger)
                let rows = try await connection.query("SELECT coalesce(max(version), 0) FROM schema_version", logger: logger)
                var current = 0
                for try await (version) in rows.decode(Int.self) { current = version }
                guard migration.version > current else { return }
                for statement in migration.statements(in: .postgres) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.query("INSERT INTO schema_version (version) VALUES (\(migration.version))", logger: logger)
                logger.info("PostgreSQL schema migrated to version \(migration.version)")
            }
        }
    }

    /// Stores the batch in one transaction on a pooled connection; fails with
    /// ``StoreError/unavailable(_:)`` when that has not committed within the store's timeout (then the
    /// answer is a 503 and the batch may or may not be stored: a retry counts it as duplicates).
    public func store(_ batch: StoreBatch) async throws -> Int {
        let start = ContinuousClock.now
        let metrics = self.metrics
        let logger = self.logger
        return try await withDeadline(timeout, "storing a batch") {
            try await self.client.withConnection { connection in
                metrics?.storeWaited(ContinuousClock.now - start)
                return try await Self.transaction(on: connection, logger: logger) {
                    let inserted = try await Self.copyEvents(
                        batch, on: connection, createStaging: self.createStaging, logger: logger)
                    try await Self.insertRejections(batch, on: connection, logger: logger)
                    return inserted
                }
            }
        }
    }

    /// `BEGIN`, `body`, `COMMIT`. When any of it fails the connection is closed, not rolled back: the
    /// server rolls back the transaction of a session that ends, and the pool replaces the connection.
    /// (postgres-nio's `withTransaction` sends `ROLLBACK`, which after the server ended the session — the
    /// database restarting, an administrator terminating it — is written to a torn-down channel and
    /// never answered; see ``withDeadline(_:_:_:)``.) A failed batch costs one reconnection.
    private static func transaction<T>(
        on connection: PostgresConnection, logger: Logger, _ body: () async throws -> T
    ) async throws -> T {
        do {
            try await connection.query("BEGIN", logger: logger)
            let result = try await body()
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// The batch's events, written with COPY (measured against multi-row binds, #28.1: per batch of
    /// 1,000 events, 69 ms of server time with binds, 51 ms with COPY, see the README): COPY into a
    /// staging table of the session's own (emptied at each commit), then one
    /// `INSERT … SELECT … ORDER BY id ON CONFLICT DO NOTHING RETURNING id`, since COPY itself cannot skip
    /// an id that is already stored. The rows go in id order, so replicas take the row locks in the same
    /// order. The rows are encoded before the COPY starts, so the server does not wait on the encoding.
    private static func copyEvents(
        _ batch: StoreBatch, on connection: PostgresConnection, createStaging: String, logger: Logger
    ) async throws -> Int {
        guard !batch.events.isEmpty else { return 0 }
        try await connection.query(PostgresQuery(unsafeSQL: createStaging), logger: logger)
        var rows = ByteBufferAllocator().buffer(capacity: batch.events.reduce(0) { $0 + $1.raw.readableBytes + 400 })
        for event in batch.events { writeCopyRow(event, uploadID: batch.uploadID, to: &rows) }
        try await connection.copyFrom(table: "events_staging", columns: Schema.eventColumns, logger: logger) { writer in
            try await writer.write(rows)
        }
        // created_at travels as seconds since 1970 (COPY's text format has no Date); to_timestamp keeps
        // microseconds, as a bound Date does.
        let selected = Schema.eventColumns.map { $0 == "created_at" ? "to_timestamp(created_at)" : $0 }
        let sql = "INSERT INTO events (\(Schema.eventColumns.joined(separator: ", "))) SELECT "
            + selected.joined(separator: ", ") + " FROM events_staging ORDER BY id ON CONFLICT DO NOTHING RETURNING id"
        var inserted = 0
        for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) { inserted += 1 }
        return inserted
    }

    /// An event as a row of COPY's text format: columns in ``Schema/eventColumns`` order, separated by
    /// tabs, `\N` for NULL, `t`/`f` for booleans.
    private static func writeCopyRow(_ event: StoredEvent, uploadID: String, to out: inout ByteBuffer) {
        let tab = UInt8(ascii: "\t")
        let s = event.status
        out.writeString(String(s.id))
        out.writeInteger(tab)
        out.writeString(String(s.createdAt.timeIntervalSince1970))
        out.writeInteger(tab)
        writeCopyText(s.text, to: &out)
        out.writeInteger(tab)
        if let lang = s.lang { writeCopyText(lang, to: &out) } else { out.writeString("\\N") }
        out.writeInteger(tab)
        out.writeString(String(s.retweetCount))
        out.writeInteger(tab)
        out.writeString(String(s.favoriteCount))
        out.writeInteger(tab)
        out.writeString(String(s.user.id))
        out.writeInteger(tab)
        writeCopyText(s.user.screenName, to: &out)
        out.writeInteger(tab)
        out.writeString(String(s.user.followersCount))
        out.writeInteger(tab)
        out.writeString(s.user.verified ? "t" : "f")
        out.writeInteger(tab)
        writeCopyText(s.hashtagColumn, to: &out)
        out.writeInteger(tab)
        writeCopyText(s.urlsColumn, to: &out)
        out.writeInteger(tab)
        writeCopyText(uploadID, to: &out)
        out.writeInteger(tab)
        writeCopyText(event.raw, to: &out)
        out.writeInteger(UInt8(ascii: "\n"))
    }

    /// A text value in COPY's text format (see the bytes' overload).
    private static func writeCopyText(_ value: String, to out: inout ByteBuffer) {
        var value = value
        value.withUTF8 { writeCopyText(UnsafeRawBufferPointer($0), to: &out) }
    }

    /// UTF-8 text in COPY's text format (see the bytes' overload).
    private static func writeCopyText(_ value: ByteBuffer, to out: inout ByteBuffer) {
        value.withUnsafeReadableBytes { writeCopyText($0, to: &out) }
    }

    /// UTF-8 text in COPY's text format: backslash, newline, carriage return and tab escaped with a
    /// backslash, the runs between them copied as they are. Over contiguous bytes: the same loop over
    /// `String.UTF8View` indices, its runs written as slices, took 30% of the server's time in a
    /// PostgreSQL load run (perf).
    private static func writeCopyText(_ bytes: UnsafeRawBufferPointer, to out: inout ByteBuffer) {
        var start = 0
        for index in bytes.indices {
            let escape: UInt8
            switch bytes[index] {
            case UInt8(ascii: "\\"): escape = UInt8(ascii: "\\")
            case UInt8(ascii: "\n"): escape = UInt8(ascii: "n")
            case UInt8(ascii: "\r"): escape = UInt8(ascii: "r")
            case UInt8(ascii: "\t"): escape = UInt8(ascii: "t")
            default: continue
            }
            out.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            out.writeInteger(UInt8(ascii: "\\"))
            out.writeInteger(escape)
            start = index + 1
        }
        out.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[start...]))
    }

    /// Rows per INSERT of rejected records (10 binds each: far under PostgreSQL's 65,535).
    private static let rowsPerStatement = 1000

    private static func insertRejections(_ batch: StoreBatch, on connection: PostgresConnection, logger: Logger)
        async throws
    {
        var start = 0
        while start < batch.rejected.count {
            let rows = batch.rejected[start..<min(start + rowsPerStatement, batch.rejected.count)]
            var binds = PostgresBindings(capacity: rows.count * Schema.rejectionColumns.count)
            for record in rows {
                let r = record.rejection
                binds.append(batch.uploadID)
                binds.append(Int64(r.index))
                binds.append(Int64(r.line))
                binds.append(Int64(r.offset))
                binds.append(r.kind)
                binds.append(r.message)
                binds.append(r.path)
                binds.append(r.errorLine.map(Int64.init))
                binds.append(r.errorColumn.map(Int64.init))
                binds.append(ByteBuffer(bytes: record.raw))
            }
            let sql = Schema.insert(
                into: "rejected_records", columns: Schema.rejectionColumns, rows: rows.count, numbered: true)
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            start += rows.count
        }
    }

    /// Runs the pool until the service group's graceful shutdown (after the HTTP server drained), then
    /// closes its connections.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.client.run()
        }
    }
}

/// `postgres://USER:PASS@HOST:PORT/DB`, checked.
struct PostgresURL {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String

    init(_ text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            ["postgres", "postgresql"].contains(scheme.lowercased())
        else {
            throw StoreError.invalidURL("'\(text)' is not a postgres:// URL (expected postgres://USER:PASS@HOST:PORT/DB)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw StoreError.invalidURL("the database URL has no host (expected postgres://USER:PASS@HOST:PORT/DB)")
        }
        guard let user = components.user, !user.isEmpty else {
            throw StoreError.invalidURL("the database URL has no user (expected postgres://USER:PASS@HOST:PORT/DB)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw StoreError.invalidURL("the database URL names no database (expected postgres://USER:PASS@HOST:PORT/DB)")
        }
        self.host = host
        port = components.port ?? 5432
        self.user = components.percentEncodedUser?.removingPercentEncoding ?? user
        password = components.percentEncodedPassword?.removingPercentEncoding
        self.database = database.removingPercentEncoding ?? database
    }

    /// The URL without its password (for messages).
    var redacted: String { "postgres://\(user)@\(host):\(port)/\(database)" }
}
