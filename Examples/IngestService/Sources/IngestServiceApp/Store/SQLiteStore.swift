import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import SQLiteNIO
import ServiceLifecycle

/// The embedded default store: one SQLite file in WAL mode, written through one connection (SQLite has
/// one writer at a time; concurrent uploads take turns per batch, fairly between clients, the readiness
/// probe before them: ``FairWriter``).
///
/// Durability: `synchronous=FULL`. In WAL mode that syncs the log at every commit, so a batch is on disk
/// when ``store(_:)`` returns and the answer can promise it even across a power cut. `NORMAL` would sync
/// only at checkpoints: safe against a killed process, but the last commits can vanish with the machine;
/// one fsync per batch of ~1,000 records is a small price for the promise.
public final class SQLiteStore: EventStore {
    public let path: String
    private let connection: SQLiteConnection
    private let writer = FairWriter()
    /// `--min-free-disk`: the readiness probe fails while the database's file system has less free.
    private let minFreeBytes: Int
    private let metrics: IngestMetrics?
    private let logger: Logger

    private init(path: String, connection: SQLiteConnection, metrics: IngestMetrics?, logger: Logger, minFreeBytes: Int) {
        self.path = path
        self.minFreeBytes = minFreeBytes
        self.connection = connection
        self.metrics = metrics
        self.logger = logger
    }

    /// Opens (creating if missing) the database at `path` and brings its schema up to date.
    ///
    /// - Parameter minFreeBytes: the readiness probe (``ping()``) fails while the file system holding the
    ///   database has less than this free for unprivileged writers (`--min-free-disk`, default 64 MiB).
    public static func open(
        path: String, metrics: IngestMetrics? = nil, logger: Logger = Logger(label: "IngestService.SQLite"),
        minFreeBytes: Int = 64 << 20
    ) async throws -> SQLiteStore {
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        } catch {
            throw StoreError.unavailable("cannot open the SQLite database '\(path)': \(error)")
        }
        let store = SQLiteStore(path: path, connection: connection, metrics: metrics, logger: logger, minFreeBytes: minFreeBytes)
        do {
            // A new file gets 16 KiB pages (an existing one keeps its own; the size is fixed once the
            // first table exists): a tweet's row (~4.8 KB) does not fit a 4 KiB page, so each one took a
            // leaf cell plus an overflow page. 150 MB uploads, 5 runs alternating: the service's CPU 2.4-2.6 s
            // with 16 KiB pages against 2.6-3.4 s with 4 KiB ones; the file is 10% larger (207 MB, 189 MB).
            _ = try await connection.query("PRAGMA page_size=16384")
            let mode = try await connection.query("PRAGMA journal_mode=WAL").first?.column("journal_mode")?.string
            guard mode == "wal" else { throw StoreError.unavailable("'\(path)' refused WAL mode (it is '\(mode ?? "?")')") }
            _ = try await connection.query("PRAGMA synchronous=FULL")
            // Another process may write to the file too (`IngestService keys add|revoke` while the server
            // runs): wait for its transaction rather than fail at once with SQLITE_BUSY.
            _ = try await connection.query("PRAGMA busy_timeout=5000")
            try await store.migrate()
        } catch {
            try? await connection.close()
            throw error
        }
        return store
    }

    /// The schema version the database is at.
    public func schemaVersion() async throws -> Int {
        let rows = try await connection.query("SELECT max(version) AS v FROM schema_version")
        return rows.first?.column("v")?.integer.map { Int($0) } ?? 0
    }

    private func migrate() async throws {
        _ = try await connection.query("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY) STRICT")
        let current = try await schemaVersion()
        for migration in Schema.migrations where migration.version > current {
            try await transaction {
                for statement in migration.statements(in: .sqlite) { _ = try await self.connection.query(statement) }
                _ = try await self.connection.query(
                    "INSERT INTO schema_version (version) VALUES (?)", [.integer(SQLiteInt64(migration.version))])
            }
            logger.info("SQLite schema migrated to version \(migration.version)", metadata: ["path": "\(path)"])
        }
    }

    public func store(_ batch: StoreBatch) async throws -> StoreOutcome {
        let start = ContinuousClock.now
        return try await writer.withTurn(.client(batch.client)) {
            self.metrics?.storeWaited(ContinuousClock.now - start)
            return try await self.transaction {
                let inserted = try await self.insertEvents(batch)
                let compare = StoreOutcome.idsToCompare(batch.events, inserted: inserted)
                let stored = compare.isEmpty ? [:] : try await self.storedRaw(client: batch.client, ids: compare)
                try await self.insertRejections(batch)
                return StoreOutcome.resolve(batch.events, inserted: inserted, stored: stored)
            }
        }
    }

    /// Takes the write lock and lets it go (`BEGIN IMMEDIATE`, `ROLLBACK`), as a batch would take it, but
    /// before the batches waiting (after the one being written, if any: ``FairWriter``), failing like one
    /// (after the 5 s busy timeout) while another process holds the file's write lock, or when the file
    /// cannot be written; and fails while the file system has less than `minFreeBytes` free (a full disk
    /// takes `BEGIN IMMEDIATE` and `ROLLBACK` but refuses every batch).
    public func ping() async throws {
        try await writer.withTurn(.priority) {
            _ = try await self.connection.query("BEGIN IMMEDIATE")
            _ = try await self.connection.query("ROLLBACK")
        }
        if let free = Self.freeBytes(near: path), free < minFreeBytes {
            throw StoreError.unavailable(
                "the file system of '\(path)' has \(free) bytes free, under --min-free-disk \(minFreeBytes)")
        }
    }

    /// The bytes free for unprivileged writers on the file system holding `path` (`statvfs` of its
    /// folder); nil when it cannot be read.
    static func freeBytes(near path: String) -> Int? {
        let folder = (path as NSString).deletingLastPathComponent
        var info = statvfs()
        guard statvfs(folder.isEmpty ? "." : folder, &info) == 0 else { return nil }
        let free = UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize))
        return free.overflow || free.partialValue > UInt64(Int.max) ? .max : Int(free.partialValue)
    }

    /// The stored `raw` bytes of these ids of `client` (to tell duplicates from conflicts).
    private func storedRaw(client: String, ids: Set<Int64>) async throws -> [Int64: ByteBuffer] {
        var stored: [Int64: ByteBuffer] = [:]
        let all = Array(ids)
        var start = 0
        while start < all.count {
            let part = all[start..<min(start + 500, all.count)]
            let sql = "SELECT id, CAST(raw AS BLOB) AS raw FROM events WHERE client = ? AND id IN ("
                + Array(repeating: "?", count: part.count).joined(separator: ", ") + ")"
            let rows = try await connection.query(sql, [.text(client)] + part.map { .integer(SQLiteInt64($0)) })
            for row in rows {
                if let id = row.column("id")?.integer, let raw = row.column("raw")?.blob { stored[Int64(id)] = raw }
            }
            start += part.count
        }
        return stored
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`; rolls back if it throws.
    private func transaction<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        _ = try await connection.query("BEGIN IMMEDIATE")
        do {
            let result = try await body()
            _ = try await connection.query("COMMIT")
            return result
        } catch {
            _ = try? await connection.query("ROLLBACK")
            throw error
        }
    }

    /// Rows per INSERT statement (15 columns each: far under SQLite's 32,766 variables). SQLite copies a
    /// statement's bound values, so this bounds that copy (~0.5 MB of tweets): with 500 rows, and the next
    /// batch decoded while this one is written, a 1 GB upload's peak RSS was 68 MB; with 100, 60 MB, at the
    /// same speed.
    private static let rowsPerStatement = 100

    /// Inserts the events new to the store; returns the ids inserted.
    private func insertEvents(_ batch: StoreBatch) async throws -> [Int64] {
        let inserted = NIOLockedValueBox<[Int64]>([])
        var start = 0
        while start < batch.events.count {
            let rows = batch.events[start..<min(start + Self.rowsPerStatement, batch.events.count)]
            var binds: [SQLiteData] = []
            binds.reserveCapacity(rows.count * Schema.eventColumns.count)
            for event in rows {
                let s = event.status
                binds += [
                    .text(batch.client), .integer(SQLiteInt64(s.id)), .text(s.createdAt.formatted(.iso8601)), .text(s.text),
                    s.lang.map { .text($0) } ?? .null, .integer(SQLiteInt64(s.retweetCount)),
                    .integer(SQLiteInt64(s.favoriteCount)), .integer(SQLiteInt64(s.user.id)), .text(s.user.screenName),
                    .integer(SQLiteInt64(s.user.followersCount)), .integer(s.user.verified ? 1 : 0),
                    .text(s.hashtagColumn), .text(s.urlsColumn), .text(batch.uploadID), .blob(event.raw),
                ]
            }
            // raw is bound as the record's bytes (no String made of them) and stored as text.
            let sql = Schema.insert(
                into: "events", columns: Schema.eventColumns, rows: rows.count, numbered: false,
                textFromBlob: "raw", returning: "id")
            try await connection.query(sql, binds) { row in
                if let id = row.column("id")?.integer { inserted.withLockedValue { $0.append(Int64(id)) } }
            }
            start += rows.count
        }
        return inserted.withLockedValue { $0 }
    }

    private func insertRejections(_ batch: StoreBatch) async throws {
        var start = 0
        while start < batch.rejected.count {
            let rows = batch.rejected[start..<min(start + Self.rowsPerStatement, batch.rejected.count)]
            var binds: [SQLiteData] = []
            for record in rows {
                let r = record.rejection
                binds += [
                    .text(batch.uploadID), .integer(SQLiteInt64(r.index)), .integer(SQLiteInt64(r.line)),
                    .integer(SQLiteInt64(r.offset)), .text(r.kind), .text(r.message), .text(r.path),
                    r.errorLine.map { .integer(SQLiteInt64($0)) } ?? .null,
                    r.errorColumn.map { .integer(SQLiteInt64($0)) } ?? .null,
                    .blob(ByteBuffer(bytes: record.raw)), .text(batch.client),
                ]
            }
            let sql = Schema.insert(
                into: "rejected_records", columns: Schema.rejectionColumns, rows: rows.count, numbered: false)
            _ = try await connection.query(sql, binds)
            start += rows.count
        }
    }

    public func rejections(client: String, after: Int64, limit: Int, maxRawBytes: Int) async throws -> [ListedRejection] {
        try await writer.withTurn(.client(client)) {
            try await self.connection.query(
                Schema.listRejections,
                [
                    .integer(SQLiteInt64(maxRawBytes)), .text(client), .integer(SQLiteInt64(after)),
                    .integer(SQLiteInt64(limit)),
                ]
            ).map { row in
                ListedRejection(
                    id: Int64(row.column("id")?.integer ?? 0), uploadID: row.column("upload_id")?.string ?? "",
                    index: row.column("record_index")?.integer ?? 0, line: row.column("line")?.integer ?? 0,
                    kind: row.column("kind")?.string ?? "", message: row.column("message")?.string ?? "",
                    raw: row.column("raw")?.blob.map { Array($0.readableBytesView) } ?? [])
            }
        }
    }

    public func pruneRejections(client: String, keep: Int) async throws {
        try await writer.withTurn(.client(client)) {
            _ = try await self.connection.query(Schema.pruneRejections, [.text(client), .integer(SQLiteInt64(keep))])
        }
    }

    /// Waits for the service group's graceful shutdown (the HTTP server has drained by then), then
    /// closes the database after the last batch.
    public func run() async throws {
        try? await gracefulShutdown()
        try await close()
    }

    /// Closes the database once the batch being written, if any, is committed.
    public func close() async throws {
        try await writer.withTurn(.priority) { try await self.connection.close() }
    }
}

/// Why a store cannot take records.
public enum StoreError: Error, CustomStringConvertible {
    /// The database cannot be reached or opened, or did not answer in time.
    case unavailable(String)
    /// `--database-url` is not a usable PostgreSQL URL.
    case invalidURL(String)

    public var description: String {
        switch self {
        case .unavailable(let message), .invalidURL(let message): message
        }
    }
}

extension SQLiteStore: KeyStore {
    public func addKey(_ key: APIKeyRecord) async throws {
        try await writer.withTurn(.priority) {
            _ = try await self.connection.query(
                "INSERT INTO api_keys (client, key_id, key_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, NULL)",
                [.text(key.client), .text(key.keyID), .blob(ByteBuffer(bytes: key.keyHash)), .text(key.created.formatted(.iso8601))])
        }
    }

    public func revokeKey(keyID: String, keyHash: [UInt8]) async throws -> Bool {
        try await writer.withTurn(.priority) {
            let rows = try await self.connection.query(
                "UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND key_hash = ? AND revoked_at IS NULL RETURNING key_id",
                [.text(Date().formatted(.iso8601)), .text(keyID), .blob(ByteBuffer(bytes: keyHash))])
            return !rows.isEmpty
        }
    }

    public func listKeys() async throws -> [APIKeyRecord] {
        try await writer.withTurn(.priority) {
            try await self.connection.query(
                "SELECT client, key_id, key_hash, created_at, revoked_at FROM api_keys ORDER BY created_at, key_id"
            ).map { row in
                APIKeyRecord(
                    client: row.column("client")?.string ?? "", keyID: row.column("key_id")?.string ?? "",
                    keyHash: row.column("key_hash")?.blob.map { Array($0.readableBytesView) } ?? [],
                    created: row.column("created_at")?.string.flatMap { try? Date($0, strategy: .iso8601) } ?? .distantPast,
                    revoked: row.column("revoked_at")?.string.flatMap { try? Date($0, strategy: .iso8601) })
            }
        }
    }
}
