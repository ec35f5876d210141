import Foundation
import IngestServiceApp
import ModelMapper
import NIOCore
import PostgresNIO
import SQLiteNIO
import Testing

/// `GET /rejected?limit=N&after=ID` (issue #37.7): the calling client's own rejected records, as JSON Lines,
/// paged by id; never another client's. Against both real stores, with two clients and the anonymous one;
/// and stores made with the version-3 schema keep their rejected records, numbered.
@Suite("GET /rejected", .serialized)
struct RejectedListTests {
    static func list(_ server: TestServer, key: String?, _ query: String = "") async throws -> [RejectedLine] {
        let reply = try await server.get("/rejected" + query, key: key)
        guard reply.status == 200 else { throw TestFailure("GET /rejected\(query): \(reply.status) \(reply.text)") }
        return try reply.text.split(separator: "\n").map { try RejectedLine(json: String($0)) }
    }

    /// Bad lines of a client: `{bad <client> <n>`.
    static func bad(_ client: String, _ n: Int) -> String { "{bad \(client) \(n)" }

    static func check(store: any EventStore & KeyStore) async throws {
        let alice = APIKey.generate()
        let bob = APIKey.generate()
        let keys = APIKeys(store: store)
        try await TestServer.with(store: store, keys: keys, { $0.deadLetterDirectory = nil }) { server in
            for (client, key) in [("alice", alice), ("bob", bob)] {
                try await store.addKey(APIKeyRecord(client: client, keyID: key.keyID, keyHash: key.hash, created: Date()))
            }
            try await keys.refresh()
            // Alice: 5 bad lines among good ones, one of them not UTF-8; Bob: 3; anonymous: 1.
            var aliceLines: [String] = []
            for n in 0..<5 { aliceLines += [TweetLines.tweet(id: 9000 + Int64(n), index: n), bad("alice", n)] }
            var aliceBody = ByteBuffer(string: aliceLines.joined(separator: "\n") + "\n")
            aliceBody.writeBytes([0x7B, 0xFF, 0xFE, 0x0A])  // `{` and two bytes that are not UTF-8
            let aliceUpload = try await server.postEvents(.bytes(aliceBody), key: alice.text)
            #expect(aliceUpload.accepted == 5 && aliceUpload.rejected == 6, "\(aliceUpload)")
            let bobBody = (0..<3).map { bad("bob", $0) }.joined(separator: "\n") + "\n"
            let bobUpload = try await server.postEvents(.bytes(ByteBuffer(string: bobBody)), key: bob.text)
            #expect(bobUpload.rejected == 3)
            let anonymousUpload = try await server.postEvents(.bytes(ByteBuffer(string: bad("anonymous", 0) + "\n")))
            #expect(anonymousUpload.rejected == 1)

            let aliceList = try await list(server, key: alice.text)
            #expect(aliceList.count == 6)
            #expect(aliceList.map(\.upload) == Array(repeating: aliceUpload.uploadId, count: 6))
            #expect(aliceList.map(\.index) == [1, 3, 5, 7, 9, 10])
            #expect(aliceList.map(\.line) == [2, 4, 6, 8, 10, 11])
            #expect(aliceList.prefix(5).allSatisfy { $0.kind == "syntax" && !$0.message.isEmpty }, "\(aliceList)")
            #expect(aliceList.prefix(5).map(\.raw) == (0..<5).map { bad("alice", $0) })
            #expect(aliceList.last?.raw == nil && aliceList.last?.rawBytes == [0x7B, 0xFF, 0xFE], "not UTF-8: base64")
            #expect(zip(aliceList, aliceList.dropFirst()).allSatisfy { $0.id < $1.id }, "ids in order")

            let bobList = try await list(server, key: bob.text)
            #expect(bobList.map(\.raw) == (0..<3).map { bad("bob", $0) }, "only Bob's")
            let anonymousList = try await list(server, key: nil)
            #expect(anonymousList.map(\.raw) == [bad("anonymous", 0)], "only the anonymous client's")
            // Bob's cursor past Alice's ids shows nothing of hers either.
            #expect(try await list(server, key: bob.text, "?after=0&limit=1000").count == 3)

            // Pages.
            var paged: [RejectedLine] = []
            var after: Int64 = 0
            while true {
                let page = try await list(server, key: alice.text, "?limit=4&after=\(after)")
                #expect(page.count <= 4)
                guard let last = page.last else { break }
                paged += page
                after = last.id
            }
            #expect(paged == aliceList)
            #expect(try await list(server, key: alice.text, "?limit=2").map(\.id) == aliceList.prefix(2).map(\.id))

            // Bad parameters; a bad key.
            for query in ["?limit=0", "?limit=1001", "?limit=ten", "?after=-1", "?after=x", "?limit=", "?after=1.5"] {
                let reply = try await server.get("/rejected" + query, key: alice.text)
                #expect(reply.status == 400 && reply.text.contains("invalidQuery"), "\(query): \(reply.status) \(reply.text)")
            }
            let unknown = try await server.get("/rejected", key: "ik_000000000000_" + String(repeating: "A", count: 43))
            #expect(unknown.status == 401)
        }
    }

    @Test func listsEachClientsOwnOnSQLite() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            try await Self.check(store: try await SQLiteStore.open(path: path))
        }
    }

    @Test(.enabled(if: PostgresStoreTests.url != nil || PostgresStoreTests.isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL"))
    func listsEachClientsOwnOnPostgreSQL() async throws {
        guard let url = try await PostgresStoreTests.freshDatabase() else { return }
        try await Self.check(store: try await PostgresStore.open(url: url))
    }

    /// The version-3 schema (as versions 1 to 3 made it), written here as it was, with rejected records of
    /// two clients.
    static func versionThreeSchema(sqlite: Bool) -> [String] {
        let (int, time, bool, bytes, strict) = sqlite ? ("INTEGER", "TEXT", "INTEGER", "BLOB", " STRICT") : ("BIGINT", "TIMESTAMPTZ", "BOOLEAN", "BYTEA", "")
        let blob: (String) -> String = { text in
            sqlite ? "X'\(text.utf8.map { String(format: "%02X", $0) }.joined())'" : "'\\x\(text.utf8.map { String(format: "%02x", $0) }.joined())'::bytea"
        }
        return [
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY)\(strict)",
            "CREATE TABLE api_keys (client TEXT NOT NULL, key_id TEXT PRIMARY KEY, key_hash \(bytes) NOT NULL, created_at \(time) NOT NULL, revoked_at \(time))\(strict)",
            "CREATE TABLE events (client TEXT NOT NULL, id \(int) NOT NULL, created_at \(time) NOT NULL, text TEXT NOT NULL, lang TEXT, retweet_count \(int) NOT NULL, favorite_count \(int) NOT NULL, user_id \(int) NOT NULL, user_screen_name TEXT NOT NULL, user_followers_count \(int) NOT NULL, user_verified \(bool) NOT NULL, hashtags TEXT NOT NULL, urls TEXT NOT NULL, upload_id TEXT NOT NULL, raw TEXT NOT NULL, PRIMARY KEY (client, id))\(strict)",
            "CREATE TABLE rejected_records (upload_id TEXT NOT NULL, record_index \(int) NOT NULL, line \(int) NOT NULL, byte_offset \(int) NOT NULL, kind TEXT NOT NULL, message TEXT NOT NULL, path TEXT NOT NULL, error_line \(int), error_column \(int), raw \(bytes) NOT NULL, client TEXT NOT NULL DEFAULT 'anonymous', PRIMARY KEY (upload_id, record_index))\(strict)",
            "CREATE INDEX events_user_id ON events (user_id)",
            "INSERT INTO schema_version (version) VALUES (1), (2), (3)",
        ] + (0..<4).map { i in
            let client = i % 2 == 0 ? "anonymous" : "carol"
            return "INSERT INTO rejected_records VALUES ('old-upload', \(i), \(i + 1), \(i * 10), 'syntax', 'bad \(i)', '[\(i)]', 1, 2, \(blob(bad(client, i))), '\(client)')"
        }
    }

    /// After the migration: the anonymous client lists its two old records, numbered in their order, not
    /// Carol's; a new rejection comes after them.
    static func checkMigrated(server: TestServer) async throws {
        let old = try await list(server, key: nil)
        #expect(old.map(\.raw) == [bad("anonymous", 0), bad("anonymous", 2)], "\(old)")
        #expect(old.map(\.index) == [0, 2] && old.map(\.line) == [1, 3] && old.allSatisfy { $0.upload == "old-upload" })
        _ = try await server.postEvents(.bytes(ByteBuffer(string: bad("anonymous", 9) + "\n")))
        let after = try await list(server, key: nil, "?after=\(old.last?.id ?? 0)")
        #expect(after.map(\.raw) == [bad("anonymous", 9)])
    }

    @Test func versionThreeSQLiteStoreNumbersItsRejectedRecords() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let setup = try await SQLiteConnection.open(storage: .file(path: path))
            for statement in Self.versionThreeSchema(sqlite: true) { _ = try await setup.query(statement) }
            try await setup.close()
            try await SQLiteStoreTests.withServer(path: path) { server in try await Self.checkMigrated(server: server) }
            let database = try await TestDatabase(path: path)
            let rows = try await database.connection.query("SELECT client, kind FROM rejected_records ORDER BY id")
            #expect(rows.map { $0.column("client")?.string } == ["anonymous", "carol", "anonymous", "carol", "anonymous"])
            let version = try await database.connection.query("SELECT max(version) AS v FROM schema_version")
            #expect(version.first?.column("v")?.integer == 4)
            try await database.close()
        }
    }

    @Test(.enabled(if: PostgresStoreTests.url != nil || PostgresStoreTests.isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL"))
    func versionThreePostgreSQLStoreNumbersItsRejectedRecords() async throws {
        guard let url = try await PostgresStoreTests.freshDatabase() else { return }
        try await TestPostgres.with(url) { database in
            for statement in Self.versionThreeSchema(sqlite: false) {
                try await database.connection.query(PostgresQuery(unsafeSQL: statement), logger: testLogger)
            }
        }
        try await PostgresStoreTests.withServer(url: url) { server in try await Self.checkMigrated(server: server) }
        try await TestPostgres.with(url) { database in
            var clients: [String] = []
            for try await client in try await database.connection.query("SELECT client FROM rejected_records ORDER BY id", logger: testLogger).decode(String.self) {
                clients.append(client)
            }
            #expect(clients == ["anonymous", "carol", "anonymous", "carol", "anonymous"])
            var version = 0
            for try await v in try await database.connection.query("SELECT max(version) FROM schema_version", logger: testLogger).decode(Int.self) {
                version = v
            }
            #expect(version == 4)
        }
    }
}
