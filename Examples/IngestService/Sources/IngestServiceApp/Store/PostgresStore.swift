import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import ServiceLifecycle

/// The store for replicas: PostgreSQL through postgres-nio's `PostgresClient` (a connection pool). Each
/// batch is one transaction: its events inserted with `INSERT … SELECT … FROM unnest(…) ON CONFLICT DO
/// NOTHING RETURNING id` (a binary array per column; the key is (client, id)), its rows in id order (so two replicas
/// inserting the same ids take the row locks in the same order and cannot deadlock; a row another
/// transaction holds makes this one wait for its commit, then count the id as a duplicate), then its
/// rejected records (multi-row binds). Replicas keep no state of their own.
public final class PostgresStore: EventStore {
    private let client: PostgresClient
    private let metrics: IngestMetrics?
    private let logger: Logger
    /// How long a batch may wait for a connection and its transaction before the upload fails (503).
    private let timeout: Duration
    /// Batches take turns for all but one of the pool's connections, fairly between clients (issue #44.6):
    /// one client's uploads cannot hold every connection, and the readiness probe, the keys' refresh and
    /// `GET /rejected` always find one free rather than queueing behind the batches.
    private let writers: FairWriter

    private init(client: PostgresClient, metrics: IngestMetrics?, logger: Logger, timeout: Duration, maxConnections: Int) {
        self.client = client
        writers = FairWriter(permits: max(1, maxConnections - 1))
        self.metrics = metrics
        self.logger = logger
        self.timeout = timeout
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
            database: target.database, tls: try target.tls.connectionTLS())
        let lz4: Bool
        do {
            lz4 = try await withDeadline(timeout, "connecting to \(target.redacted) and migrating its schema") {
                let connection = try await PostgresConnection.connect(
                    on: MultiThreadedEventLoopGroup.singleton.any(), configuration: connectionConfiguration, id: 0,
                    logger: logger)
                let lz4: Bool
                do {
                    if target.tls.mode != .disable {
                        let version = try await tlsVersion(connection, logger: logger)
                        logger.info("PostgreSQL at \(target.redacted): \(version.map { "TLS \($0)" } ?? "not encrypted")")
                    }
                    try await migrate(connection, logger: logger)
                    lz4 = try await hasLZ4(connection, logger: logger)
                } catch {
                    try? await connection.close()
                    throw error
                }
                try await connection.close()
                return lz4
            }
        } catch let error as StoreError {
            throw error
        } catch {
            let reason = target.tls.explain(error, host: target.host) ?? String(reflecting: error)
            throw StoreError.unavailable("cannot use the PostgreSQL database \(target.redacted): \(reason)")
        }
        var configuration = PostgresClient.Configuration(
            host: target.host, port: target.port, username: target.user, password: target.password,
            database: target.database, tls: try target.tls.clientTLS())
        configuration.options.maximumConnections = maxConnections
        configuration.options.connectTimeout = timeout
        if lz4 { configuration.options.additionalStartupParameters = [("default_toast_compression", "lz4")] }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return PostgresStore(client: client, metrics: metrics, logger: logger, timeout: timeout, maxConnections: maxConnections)
    }

    /// The TLS version of the connection's session (`pg_stat_ssl`), nil when it is not encrypted.
    private static func tlsVersion(_ connection: PostgresConnection, logger: Logger) async throws -> String? {
        let rows = try await connection.query(
            "SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: logger)
        var version: String?
        for try await (ssl, name) in rows.decode((Bool, String?).self) where ssl { version = name ?? "?" }
        return version
    }

    /// The TLS version of a pooled connection's session, nil when it is not encrypted (what the tests and
    /// an operator's check look at: `SELECT ssl, version FROM pg_stat_ssl WHERE pid = pg_backend_pid()`).
    public func sessionTLSVersion() async throws -> String? {
        let logger = self.logger
        return try await withDeadline(timeout, "reading the session's TLS state") {
            try await self.client.withConnection { connection in
                try await Self.tlsVersion(connection, logger: logger)
            }
        }
    }

    /// Whether the server can compress TOAST values with lz4 (built `--with-lz4`, as Debian's packages are).
    /// Then the pool's sessions start with `default_toast_compression=lz4`: `raw` (~4 KB a tweet) is past
    /// the TOAST threshold, so PostgreSQL compresses it as it stores it, and with the default method,
    /// pglz, that was 44% of the backend's CPU in a load run (perf -a: a 150 MB upload cost the backend
    /// 3.9 s of CPU, the service 1.7 s); lz4 compresses the same values in about a third of the time
    /// (32,279 raw texts into a temporary table: 2.7 s with pglz, 1.1 s with lz4).
    private static func hasLZ4(_ connection: PostgresConnection, logger: Logger) async throws -> Bool {
        let rows = try await connection.query(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'", logger: logger)
        var available = false
        for try await (value) in rows.decode(Bool.self) { available = value }
        return available
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
    public func store(_ batch: StoreBatch) async throws -> StoreOutcome {
        let start = ContinuousClock.now
        let metrics = self.metrics
        let logger = self.logger
        return try await withDeadline(timeout, "storing a batch") {
            // A batch whose deadline passes while it waits for its turn leaves the queue (cancelled).
            try await self.writers.withTurn(.client(batch.client)) {
                try await self.client.withConnection { connection in
                    metrics?.storeWaited(ContinuousClock.now - start)
                    return try await Self.transaction(on: connection, logger: logger) {
                        let inserted = try await Self.insertEvents(batch, on: connection, logger: logger)
                        let compare = StoreOutcome.idsToCompare(batch.events, inserted: inserted)
                        let stored = compare.isEmpty
                            ? [:] : try await Self.storedRaw(client: batch.client, ids: compare, on: connection, logger: logger)
                        try await Self.insertRejections(batch, on: connection, logger: logger)
                        return StoreOutcome.resolve(batch.events, inserted: inserted, stored: stored)
                    }
                }
            }
        }
    }

    /// `SELECT 1` on a pooled connection, within 2 s (or the store's timeout if shorter): the server
    /// answers and the pool can lend a connection.
    public func ping() async throws {
        let logger = self.logger
        try await withDeadline(min(timeout, .seconds(2)), "the readiness probe") {
            try await self.client.withConnection { connection in
                for try await _ in try await connection.query("SELECT 1", logger: logger) {}
            }
        }
    }

    /// `BEGIN`, `body`, `COMMIT`. When the server refuses a statement with an `ERROR` (a constraint, a
    /// value it will not take) the session is alive and only its transaction aborted: it is rolled back
    /// and the connection goes back to the pool, so a failing statement does not cost a connection per
    /// request. When anything else fails (the connection, or a `FATAL`: the server ending the session) the
    /// connection is closed, not rolled back: the server rolls back the transaction of a session that ends,
    /// and the pool replaces the connection. (postgres-nio's `withTransaction` sends `ROLLBACK` then too,
    /// which after the server ended the session — the database restarting, an administrator terminating
    /// it — is written to a torn-down channel and never answered; see ``withDeadline(_:_:_:)``.)
    private static func transaction<T>(
        on connection: PostgresConnection, logger: Logger, _ body: () async throws -> T
    ) async throws -> T {
        do {
            try await connection.query("BEGIN", logger: logger)
            let result = try await body()
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            if let refused = error as? PSQLError, refused.code == .server, refused.serverInfo?[.severity] == "ERROR" {
                do { try await connection.query("ROLLBACK", logger: logger) } catch { try? await connection.close() }
            } else {
                try? await connection.close()
            }
            throw error
        }
    }

    /// Events per `INSERT`: each statement's binds are built in memory (~1 MB of tweets for 256).
    private static let eventRowsPerStatement = 256

    /// The batch's events: `INSERT … SELECT … FROM unnest($1, …) ORDER BY id ON CONFLICT DO NOTHING
    /// RETURNING id`, one array per column in the binary format (no text to escape or parse), 256 rows a
    /// statement, the batch sorted by id first so that replicas take the row locks in the same order.
    private static func insertEvents(_ batch: StoreBatch, on connection: PostgresConnection, logger: Logger)
        async throws -> [Int64]
    {
        guard !batch.events.isEmpty else { return [] }
        // By id, and in input order within an id (a record sent twice in one batch: the first is inserted,
        // the same in both stores).
        let events = batch.events.enumerated()
            .sorted { ($0.element.status.id, $0.offset) < ($1.element.status.id, $1.offset) }.map(\.element)
        var inserted: [Int64] = []
        var start = 0
        while start < events.count {
            let rows = events[start..<min(start + eventRowsPerStatement, events.count)]
            var binds = PostgresBindings(capacity: 15)
            binds.append(rows.map(\.status.id))
            binds.append(rows.map(\.status.createdAt))
            binds.append(rows.map(\.status.text))
            binds.append(rows.map { $0.status.lang ?? "" })
            binds.append(rows.map { $0.status.lang != nil })
            binds.append(rows.map { Int64($0.status.retweetCount) })
            binds.append(rows.map { Int64($0.status.favoriteCount) })
            binds.append(rows.map(\.status.user.id))
            binds.append(rows.map(\.status.user.screenName))
            binds.append(rows.map { Int64($0.status.user.followersCount) })
            binds.append(rows.map(\.status.user.verified))
            binds.append(rows.map(\.status.hashtagColumn))
            binds.append(rows.map(\.status.urlsColumn))
            binds.append(batch.uploadID)
            binds.append(rows.map { RawText(bytes: $0.raw) })
            binds.append(batch.client)
            let query = PostgresQuery(unsafeSQL: insertEventsSQL, binds: binds)
            for try await id in try await connection.query(query, logger: logger).decode(Int64.self) { inserted.append(id) }
            start += rows.count
        }
        return inserted
    }

    /// The statement of ``insertEvents(_:on:logger:)``: `lang` travels as text plus a flag for NULL.
    private static let insertEventsSQL = """
        INSERT INTO events (\(Schema.eventColumns.joined(separator: ", ")))
        SELECT $16, id, created_at, text, CASE WHEN has_lang THEN lang END, retweet_count, favorite_count, user_id,
            user_screen_name, user_followers_count, user_verified, hashtags, urls, $14, raw
        FROM unnest($1::int8[], $2::timestamptz[], $3::text[], $4::text[], $5::bool[], $6::int8[], $7::int8[],
            $8::int8[], $9::text[], $10::int8[], $11::bool[], $12::text[], $13::text[], $15::text[])
            WITH ORDINALITY AS r(id, created_at, text, lang, has_lang, retweet_count, favorite_count, user_id,
                user_screen_name, user_followers_count, user_verified, hashtags, urls, raw, ord)
        ORDER BY id, ord ON CONFLICT DO NOTHING RETURNING id
        """

    /// The stored `raw` of these ids of `client` (to tell duplicates from conflicts).
    private static func storedRaw(client: String, ids: Set<Int64>, on connection: PostgresConnection, logger: Logger)
        async throws -> [Int64: ByteBuffer]
    {
        let query: PostgresQuery = "SELECT id, raw FROM events WHERE client = \(client) AND id = ANY(\(Array(ids)))"
        var stored: [Int64: ByteBuffer] = [:]
        for try await (id, raw) in try await connection.query(query, logger: logger).decode((Int64, ByteBuffer).self) {
            stored[id] = raw
        }
        return stored
    }

    /// Rows per INSERT of rejected records (11 binds each: far under PostgreSQL's 65,535).
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
                binds.append(batch.client)
            }
            let sql = Schema.insert(
                into: "rejected_records", columns: Schema.rejectionColumns, rows: rows.count, numbered: true)
            try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
            start += rows.count
        }
    }

    public func rejections(client: String, after: Int64, limit: Int, maxRawBytes: Int) async throws -> [ListedRejection] {
        let logger = self.logger
        return try await withDeadline(timeout, "listing rejected records") {
            try await self.client.withConnection { connection in
                let query: PostgresQuery = """
                    SELECT id, upload_id, record_index, line, kind, message, substring(raw from 1 for \(Int32(clamping: maxRawBytes)))
                    FROM rejected_records
                    WHERE client = \(client) AND id > \(after) ORDER BY id LIMIT \(Int64(limit))
                    """
                var listed: [ListedRejection] = []
                for try await (id, upload, index, line, kind, message, raw) in try await connection.query(query, logger: logger)
                    .decode((Int64, String, Int64, Int64, String, String, ByteBuffer).self)
                {
                    listed.append(
                        ListedRejection(
                            id: id, uploadID: upload, index: Int(index), line: Int(line), kind: kind, message: message,
                            raw: Array(raw.readableBytesView)))
                }
                return listed
            }
        }
    }

    public func pruneRejections(client: String, keep: Int) async throws {
        let logger = self.logger
        try await withDeadline(timeout, "deleting old rejected records") {
            try await self.client.withConnection { connection in
                let query: PostgresQuery = """
                    DELETE FROM rejected_records WHERE client = \(client) AND id <= (SELECT id FROM rejected_records
                    WHERE client = \(client) ORDER BY id DESC LIMIT 1 OFFSET \(Int64(keep)))
                    """
                _ = try await connection.query(query, logger: logger)
            }
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

/// `postgres://USER:PASS@HOST:PORT/DB[?sslmode=…&sslrootcert=…]`, checked. No message quotes the URL
/// as given (it holds the password).
struct PostgresURL {
    let host: String
    let port: Int
    let user: String
    let password: String?
    let database: String
    let tls: PostgresTLS

    init(_ text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
            ["postgres", "postgresql"].contains(scheme.lowercased())
        else {
            throw StoreError.invalidURL("the database URL is not a postgres:// URL (expected postgres://USER:PASS@HOST:PORT/DB)")
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
        tls = try PostgresTLS(query: components.queryItems ?? [])
    }

    /// The URL without its password (for messages).
    var redacted: String {
        "postgres://\(user)@\(host):\(port)/\(database)" + (tls.mode == .disable ? "" : " (\(tls.summary))")
    }
}

/// A record's raw bytes bound as `text` (valid UTF-8, checked by the ingestor), without making a String.
struct RawText: PostgresArrayEncodable, PostgresNonThrowingEncodable {
    let bytes: ByteBuffer

    static var psqlType: PostgresDataType { .text }
    static var psqlFormat: PostgresFormat { .binary }
    static var psqlArrayType: PostgresDataType { .textArray }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeImmutableBuffer(bytes)
    }
}

extension PostgresStore: KeyStore {
    public func addKey(_ key: APIKeyRecord) async throws {
        let logger = self.logger
        try await withDeadline(timeout, "adding an API key") {
            try await self.client.withConnection { connection in
                let query: PostgresQuery = """
                    INSERT INTO api_keys (client, key_id, key_hash, created_at, revoked_at)
                    VALUES (\(key.client), \(key.keyID), \(ByteBuffer(bytes: key.keyHash)), \(key.created), NULL)
                    """
                try await connection.query(query, logger: logger)
            }
        }
    }

    public func revokeKey(keyID: String, keyHash: [UInt8]) async throws -> Bool {
        let logger = self.logger
        return try await withDeadline(timeout, "revoking an API key") {
            try await self.client.withConnection { connection in
                let query: PostgresQuery = """
                    UPDATE api_keys SET revoked_at = now()
                    WHERE key_id = \(keyID) AND key_hash = \(ByteBuffer(bytes: keyHash)) AND revoked_at IS NULL
                    RETURNING key_id
                    """
                var revoked = false
                for try await _ in try await connection.query(query, logger: logger).decode(String.self) { revoked = true }
                return revoked
            }
        }
    }

    public func listKeys() async throws -> [APIKeyRecord] {
        let logger = self.logger
        return try await withDeadline(timeout, "reading the API keys") {
            try await self.client.withConnection { connection in
                let query: PostgresQuery =
                    "SELECT client, key_id, key_hash, created_at, revoked_at FROM api_keys ORDER BY created_at, key_id"
                var keys: [APIKeyRecord] = []
                for try await (client, keyID, hash, created, revoked) in try await connection.query(query, logger: logger)
                    .decode((String, String, ByteBuffer, Date, Date?).self)
                {
                    keys.append(
                        APIKeyRecord(
                            client: client, keyID: keyID, keyHash: Array(hash.readableBytesView), created: created,
                            revoked: revoked))
                }
                return keys
            }
        }
    }
}
