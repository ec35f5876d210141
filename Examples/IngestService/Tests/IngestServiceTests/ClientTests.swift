import Foundation
import IngestServiceApp
import ModelMapper
import NIOCore
import PostgresNIO
import SQLiteNIO
import Testing

/// Ids belong to their client, and a duplicate is the same record: the events' key is (client, id); a
/// stored (client, id) with the same bytes is a duplicate, with other bytes a conflict that changes
/// nothing. Run against both real stores. And a store made with the version-2 schema keeps its rows.
@Suite("Clients and conflicts", .serialized)
struct ClientTests {
    /// One stored row as the test reads it back.
    struct Row: Equatable {
        let client: String
        let id: Int64
        let raw: [UInt8]
    }

    static let real = TweetLines.tweet(id: 4242, index: 1)
    /// The schema version a store migrates to (4: `rejected_records.id`).
    static let latestVersion = 4
    static let squatter = #"{"id":4242,"user":{}}"#

    /// The scenario of issue #37, through the real server and `store`; `rows` reads `events` back.
    static func check(
        store: any EventStore & KeyStore, metrics: IngestMetrics, rows: @escaping @Sendable () async throws -> [Row]
    ) async throws {
        let key = APIKey.generate()
        let keys = APIKeys(store: store)
        let a = TweetLines.tweet(id: 5000, index: 2)
        let b = TweetLines.tweet(id: 5001, index: 3)
        let changed = real.replacingFirst(#""favorited":false"#, with: #""favorited":true"#)
        let aChanged = a.replacingFirst(#""favorited":false"#, with: #""favorited":true"#)
        try await TestServer.with(store: store, keys: keys, metrics: metrics, { $0.deadLetterDirectory = nil }) { server in
            // (A PostgreSQL store lends connections once it runs, in the server's service group.)
            try await store.addKey(APIKeyRecord(client: "bob", keyID: key.keyID, keyHash: key.hash, created: Date()))
            try await keys.refresh()
            // An anonymous record takes id 4242 first: it is the anonymous client's own.
            let first = try await server.postEvents(.bytes(ByteBuffer(string: squatter + "\n")))
            #expect(first.accepted == 1 && first.duplicates == 0 && first.conflicts == 0)

            // Bob's real event with the same id is his, not a duplicate.
            let bob = try await server.postEvents(.bytes(ByteBuffer(string: real + "\n" + b + "\n")), key: key.text)
            #expect(bob.accepted == 2 && bob.duplicates == 0 && bob.conflicts == 0, "\(bob)")

            // The same body again: duplicates, nothing stored twice.
            let retry = try await server.postEvents(.bytes(ByteBuffer(string: real + "\n" + b + "\n")), key: key.text)
            #expect(retry.accepted == 0 && retry.duplicates == 2 && retry.conflicts == 0)

            // In one batch: 4242 with other bytes (a conflict, listed), 5000 twice with other bytes (the first
            // is stored, the second a conflict), 5001 again (a duplicate); a bad line among them keeps its
            // place in the listing.
            let body = [changed, a, "{bad", aChanged, b].joined(separator: "\n") + "\n"
            let mixed = try await server.postEvents(.bytes(ByteBuffer(string: body)), key: key.text)
            #expect(mixed.accepted == 1 && mixed.duplicates == 1 && mixed.conflicts == 2 && mixed.rejected == 1, "\(mixed)")
            #expect(mixed.rejections.map(\.kind) == ["conflict", "syntax", "conflict"])
            #expect(mixed.rejections.map(\.index) == [0, 2, 3])
            #expect(mixed.rejections.map(\.line) == [1, 3, 4])
            #expect(mixed.rejectionsOmitted == 0)

            // POST /event: the same keys.
            let one = try await server.post("/event", contentType: "application/json", body: .bytes(ByteBuffer(string: changed)), key: key.text)
            #expect(one.status == 200 && one.text.contains(#""conflicts":1"#) && one.text.contains(#""accepted":0"#), "\(one.text)")
            let same = try await server.post("/event", contentType: "application/json", body: .bytes(ByteBuffer(string: squatter)))
            #expect(same.status == 200 && same.text.contains(#""duplicates":1"#), "\(same.text)")

            let snapshot = try await server.metricsSnapshot()
            #expect(snapshot.recordsConflict == 3)
        }
        let stored = try await rows()
        #expect(
            stored == [
                Row(client: "anonymous", id: 4242, raw: Array(squatter.utf8)),
                Row(client: "bob", id: 4242, raw: Array(real.utf8)),
                Row(client: "bob", id: 5000, raw: Array(a.utf8)),
                Row(client: "bob", id: 5001, raw: Array(b.utf8)),
            ], "each client's rows, unchanged by the conflicts")
    }

    @Test func idsBelongToTheirClientOnSQLite() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let metrics = IngestMetrics()
            let store = try await SQLiteStore.open(path: path, metrics: metrics)
            try await Self.check(store: store, metrics: metrics) {
                let database = try await TestDatabase(path: path)
                defer { Task { try? await database.close() } }
                return try await database.connection.query(
                    "SELECT client, id, CAST(raw AS BLOB) AS raw FROM events ORDER BY client, id"
                ).map {
                    Row(
                        client: $0.column("client")?.string ?? "", id: Int64($0.column("id")?.integer ?? -1),
                        raw: $0.column("raw")?.blob.map { Array($0.readableBytesView) } ?? [])
                }
            }
        }
    }

    @Test(.enabled(if: PostgresStoreTests.url != nil || PostgresStoreTests.isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL"))
    func idsBelongToTheirClientOnPostgreSQL() async throws {
        guard let url = try await PostgresStoreTests.freshDatabase() else { return }
        let metrics = IngestMetrics()
        let store = try await PostgresStore.open(url: url, metrics: metrics)
        try await Self.check(store: store, metrics: metrics) {
            try await TestPostgres.with(url) { database in
                var rows: [Row] = []
                let query: PostgresQuery = "SELECT client, id, raw FROM events ORDER BY client, id"
                for try await (client, id, raw) in try await database.connection.query(query, logger: testLogger)
                    .decode((String, Int64, String).self)
                {
                    rows.append(Row(client: client, id: id, raw: Array(raw.utf8)))
                }
                return rows
            }
        }
    }

    /// The version-2 schema (as versions 1 and 2 created it), written here as it was, with rows.
    static func versionTwoSchema(sqlite: Bool) -> [String] {
        let (int, time, bool, bytes, strict) = sqlite ? ("INTEGER", "TEXT", "INTEGER", "BLOB", " STRICT") : ("BIGINT", "TIMESTAMPTZ", "BOOLEAN", "BYTEA", "")
        return [
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY)\(strict)",
            "CREATE TABLE events (id \(int) PRIMARY KEY, created_at \(time) NOT NULL, text TEXT NOT NULL, lang TEXT, retweet_count \(int) NOT NULL, favorite_count \(int) NOT NULL, user_id \(int) NOT NULL, user_screen_name TEXT NOT NULL, user_followers_count \(int) NOT NULL, user_verified \(bool) NOT NULL, hashtags TEXT NOT NULL, urls TEXT NOT NULL, upload_id TEXT NOT NULL, raw TEXT NOT NULL)\(strict)",
            "CREATE TABLE rejected_records (upload_id TEXT NOT NULL, record_index \(int) NOT NULL, line \(int) NOT NULL, byte_offset \(int) NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL, path TEXT NOT NULL, error_line \(int), error_column \(int), raw \(bytes) NOT NULL, PRIMARY KEY (upload_id, record_index))\(strict)",
            "CREATE INDEX events_user_id ON events (user_id)",
            "INSERT INTO schema_version (version) VALUES (1), (2)",
        ] + (0..<3).map { i in
            let raw = TweetLines.tweet(id: 700 + Int64(i), index: i).replacingOccurrences(of: "'", with: "''")
            return "INSERT INTO events VALUES (\(700 + i), '2014-08-31T00:29:15Z', 'text \(i)', NULL, 1, 2, \(5000 + i), 'user\(i)', 3, \(sqlite ? "0" : "false"), 'tag', '', 'old-upload', '\(raw)')"
        } + ["INSERT INTO rejected_records VALUES ('old-upload', 3, 4, 9000, 'syntax', 'bad', '[3]', 1, 2, \(sqlite ? "X'7B62'" : "'\\x7b62'::bytea"))"]
    }

    /// After the migration: the rows are there as the anonymous client's, and the same bytes again are
    /// duplicates (the new key works on them).
    static func checkMigrated(server: TestServer) async throws {
        let body = (0..<3).map { TweetLines.tweet(id: 700 + Int64($0), index: $0) }.joined(separator: "\n") + "\n"
        let again = try await server.postEvents(.bytes(ByteBuffer(string: body)))
        #expect(again.accepted == 0 && again.duplicates == 3 && again.conflicts == 0, "\(again)")
    }

    @Test func versionTwoSQLiteStoreKeepsItsRows() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let setup = try await SQLiteConnection.open(storage: .file(path: path))
            for statement in Self.versionTwoSchema(sqlite: true) { _ = try await setup.query(statement) }
            try await setup.close()

            try await SQLiteStoreTests.withServer(path: path) { server in try await Self.checkMigrated(server: server) }
            let database = try await TestDatabase(path: path)
            let rows = try await database.connection.query("SELECT client, id, raw, upload_id FROM events ORDER BY id")
            #expect(rows.map { $0.column("id")?.integer } == [700, 701, 702])
            #expect(rows.allSatisfy { $0.column("client")?.string == "anonymous" && $0.column("upload_id")?.string == "old-upload" })
            #expect(rows.map { $0.column("raw")?.string } == (0..<3).map { TweetLines.tweet(id: 700 + Int64($0), index: $0) })
            let rejected = try await database.connection.query("SELECT client, record_index, raw FROM rejected_records")
            #expect(rejected.count == 1 && rejected.first?.column("client")?.string == "anonymous")
            #expect(rejected.first?.column("raw")?.blob.map { Array($0.readableBytesView) } == Array("{b".utf8))
            let version = try await database.connection.query("SELECT max(version) AS v FROM schema_version")
            #expect(version.first?.column("v")?.integer == Self.latestVersion)
            try await database.close()
        }
    }

    @Test(.enabled(if: PostgresStoreTests.url != nil || PostgresStoreTests.isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL"))
    func versionTwoPostgreSQLStoreKeepsItsRows() async throws {
        guard let url = try await PostgresStoreTests.freshDatabase() else { return }
        try await TestPostgres.with(url) { database in
            for statement in Self.versionTwoSchema(sqlite: false) {
                try await database.connection.query(PostgresQuery(unsafeSQL: statement), logger: testLogger)
            }
        }
        try await PostgresStoreTests.withServer(url: url) { server in try await Self.checkMigrated(server: server) }
        try await TestPostgres.with(url) { database in
            var rows: [(String, Int64, String)] = []
            let query: PostgresQuery = "SELECT client, id, raw FROM events ORDER BY id"
            for try await row in try await database.connection.query(query, logger: testLogger).decode((String, Int64, String).self) {
                rows.append(row)
            }
            #expect(rows.map(\.1) == [700, 701, 702])
            #expect(rows.allSatisfy { $0.0 == "anonymous" })
            #expect(rows.map(\.2) == (0..<3).map { TweetLines.tweet(id: 700 + Int64($0), index: $0) })
            #expect(try await database.count("rejected_records") == 1)
            var version = 0
            for try await v in try await database.connection.query("SELECT max(version) FROM schema_version", logger: testLogger).decode(Int.self) {
                version = v
            }
            #expect(version == Self.latestVersion)
        }
    }
}
