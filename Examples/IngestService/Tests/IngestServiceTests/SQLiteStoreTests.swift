import Foundation
import IngestServiceApp
import ModelMapper
import NIOCore
import SQLiteNIO
import Testing

/// The embedded default store through the real server: every good record lands in `events` once with
/// its exact text, every bad one in `rejected_records`, whatever the retries.
@Suite("SQLite store", .serialized)
struct SQLiteStoreTests {
    /// A fresh database file in the temporary directory (removed, with its WAL files, afterwards).
    static func withDatabase<R: Sendable>(_ body: (String) async throws -> R) async throws -> R {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        return try await body(path)
    }

    /// Runs `body` against the server with a SQLite store at `path`, batches of `batchSize`.
    static func withServer<R: Sendable>(
        path: String, batchSize: Int = 1024, _ body: @Sendable (TestServer) async throws -> R
    ) async throws -> R {
        let metrics = IngestMetrics()
        let store = try await SQLiteStore.open(path: path, metrics: metrics)
        return try await TestServer.with(store: store, metrics: metrics, {
            $0.storeBatchSize = batchSize
            $0.deadLetterDirectory = nil  // the store keeps the rejected records
        }, body)
    }

    @Test func eachGoodRecordIsStoredOnceWithItsExactText() async throws {
        try await Self.withDatabase { path in
            let lines = TweetLines(corruptEvery: 20)
            let (body, sent) = lines.body(lines: 3000)
            #expect(!sent.rejected.isEmpty)
            let first = try await Self.withServer(path: path, batchSize: 500) { server in
                try await server.postEvents(.bytes(body))
            }
            #expect(first.accepted == sent.acceptedIDs.count && first.duplicates == 0)
            #expect(first.rejected == sent.rejected.count)
            #expect(first.deadLetterFile == nil)

            let database = try await TestDatabase(path: path)
            let stored = try await database.events()
            #expect(stored.map(\.id) == sent.acceptedIDs, "each good record once (ordered by id)")
            let expectedText = Dictionary(uniqueKeysWithValues: (0..<3000).map { (lines.firstID + Int64($0), lines.line($0).text) })
            #expect(stored.allSatisfy { $0.raw == expectedText[$0.id] }, "raw is each line exactly as sent")
            let rejected = try await database.rejections()
            #expect(rejected.map(\.index) == sent.rejected.map(\.index))
            #expect(rejected.map(\.kind) == sent.rejected.map(\.corruption.kind))
            #expect(rejected.allSatisfy { $0.uploadID == first.uploadId })
            #expect(rejected.map(\.raw) == sent.rejected.map { Array(lines.line($0.index).text.utf8) })
            #expect(rejected.map(\.line) == sent.rejected.map { $0.index + 1 })
            try await database.close()

            // The same upload again (a retry after a lost answer), to a restarted server: nothing new.
            let second = try await Self.withServer(path: path) { server in
                try await server.postEvents(.stream(body.chunked(10_000), length: .unknown))
            }
            #expect(second.accepted == 0)
            #expect(second.duplicates == sent.acceptedIDs.count)
            #expect(second.rejected == sent.rejected.count)
            let again = try await TestDatabase(path: path)
            #expect(try await again.events().map(\.id) == sent.acceptedIDs)
            #expect(try await again.rejections().count == 2 * sent.rejected.count, "each upload's dead letters")
            try await again.close()
        }
    }

    /// Typed columns hold the model's fields; the schema is versioned; the file is in WAL mode with
    /// synchronous=FULL.
    @Test func typedColumnsSchemaVersionAndDurability() async throws {
        try await Self.withDatabase { path in
            let text = TweetLines.tweet(id: 4242, index: 14)
            let summary = try await Self.withServer(path: path) { server in
                try await server.postEvents(.bytes(ByteBuffer(string: text + "\n")))
            }
            #expect(summary.accepted == 1)
            let database = try await TestDatabase(path: path)
            let row = try #require(try await database.connection.query("SELECT * FROM events").first)
            let status = try Status(json: Array(text.utf8))
            #expect(row.column("id")?.integer == 4242)
            #expect(row.column("text")?.string == status.text)
            #expect(row.column("lang")?.string == "ja")
            #expect(row.column("user_id")?.integer.map { Int64($0) } == status.user.id)
            #expect(row.column("user_screen_name")?.string == status.user.screenName)
            #expect(row.column("user_verified")?.integer == 1)
            #expect(row.column("retweet_count")?.integer.map { Int($0) } == status.retweetCount)
            #expect(row.column("hashtags")?.string == "tag14")
            #expect(row.column("urls")?.string == "http://example.com/14")
            #expect(row.column("created_at")?.string == "2014-08-31T00:29:15Z")
            #expect(row.column("upload_id")?.string == summary.uploadId)
            let version = try await database.connection.query("SELECT max(version) AS v FROM schema_version")
            #expect(version.first?.column("v")?.integer == ClientTests.latestVersion)
            let mode = try await database.connection.query("PRAGMA journal_mode")
            #expect(mode.first?.column("journal_mode")?.string == "wal")
            try await database.close()

            // Reopened: the migrations are not applied twice and the data stays.
            let store = try await SQLiteStore.open(path: path)
            #expect(try await store.schemaVersion() == ClientTests.latestVersion)
            try await store.close()
            let reopened = try await TestDatabase(path: path)
            #expect(try await reopened.events().count == 1)
            try await reopened.close()
        }
    }

    /// An id past Int64 (the column's range) is a rejected record; the rest of its batch is stored.
    @Test func idThatDoesNotFitIsARejectedRecord() async throws {
        try await Self.withDatabase { path in
            let good = (0..<3).map { TweetLines.tweet(id: 10 + Int64($0), index: $0) }
            let huge = TweetLines.tweet(id: 9_223_372_036_854_775_807, index: 5)
                .replacingFirst(#""id":9223372036854775807"#, with: #""id":9223372036854775808"#)
            let body = good[0] + "\n" + huge + "\n" + good[1] + "\n" + good[2] + "\n"
            let summary = try await Self.withServer(path: path) { server in
                try await server.postEvents(.bytes(ByteBuffer(string: body)))
            }
            #expect(summary.accepted == 3 && summary.rejected == 1)
            let database = try await TestDatabase(path: path)
            #expect(try await database.events().map(\.id) == [10, 11, 12])
            let rejected = try await database.rejections()
            #expect(rejected.map(\.index) == [1])
            #expect(rejected.first?.raw == Array(huge.utf8))
            try await database.close()
        }
    }

    /// `raw` is the record's bytes exactly (compared as bytes: Swift's `String ==` would also equate the
    /// two spellings of "é" below), stored as TEXT. A record that decodes but is not valid UTF-8 (an
    /// encoded surrogate or an overlong form in a string the model skips: yajl's check lets both through)
    /// is a rejected record of kind `unstorable` with its exact bytes, and the rest of its batch is stored.
    @Test func rawIsStoredByteForByteAndInvalidUTF8IsRejected() async throws {
        try await Self.withDatabase { path in
            func line(_ id: Int64, note: [UInt8]) -> [UInt8] {
                let tweet = TweetLines.tweet(id: id, index: Int(id))
                return Array(#"{"note":""#.utf8) + note + Array(#"","#.utf8) + Array(tweet.utf8.dropFirst())
            }
            let good1 = line(20, note: Array("e\u{301} \u{E9} 日本 🎉 \\u00e9".utf8))
            let surrogate = line(21, note: [0x61, 0xED, 0xA0, 0x80, 0x62])
            let overlong = line(22, note: [0xC0, 0xAF])
            let good2 = line(23, note: Array("\u{E9}".utf8))
            let body = ByteBuffer(bytes: [good1, surrogate, overlong, good2].flatMap { $0 + [0x0A] })
            let summary = try await Self.withServer(path: path) { server in
                try await server.postEvents(.bytes(body))
            }
            #expect(summary.accepted == 2 && summary.rejected == 2)
            #expect(summary.rejections.map(\.kind) == ["unstorable", "unstorable"])
            #expect(summary.rejections.map(\.index) == [1, 2])
            #expect(summary.rejections.allSatisfy { $0.message.contains("not valid UTF-8") })

            let database = try await TestDatabase(path: path)
            let rows = try await database.connection.query(
                "SELECT id, typeof(raw) AS type, CAST(raw AS BLOB) AS bytes FROM events ORDER BY id")
            #expect(rows.map { $0.column("id")?.integer } == [20, 23])
            #expect(rows.map { $0.column("type")?.string } == ["text", "text"])
            #expect(rows.map { $0.column("bytes")?.blob.map { Array($0.readableBytesView) } } == [good1, good2])
            #expect(try await database.rejections().map(\.raw) == [surrogate, overlong])
            try await database.close()
        }
    }

    /// A top-level array: each element's text as it stood between the commas.
    @Test func arrayElementsKeepTheirText() async throws {
        try await Self.withDatabase { path in
            let elements = (0..<5).map { TweetLines.tweet(id: 100 + Int64($0), index: $0) }
            let body = "[\n  " + elements.joined(separator: " ,\n  ") + "\n]"
            let summary = try await Self.withServer(path: path) { server in
                try await server.postEvents(.bytes(ByteBuffer(string: body)), contentType: "application/json")
            }
            #expect(summary.accepted == 5)
            let database = try await TestDatabase(path: path)
            #expect(try await database.events().map(\.raw) == elements)
            try await database.close()
        }
    }
}

/// A second connection to a service's SQLite file, to read what it committed.
struct TestDatabase {
    let connection: SQLiteConnection

    struct Event { let id: Int64; let raw: String }
    struct Rejected { let uploadID: String; let index: Int; let line: Int; let kind: String; let raw: [UInt8] }

    init(path: String) async throws {
        connection = try await SQLiteConnection.open(storage: .file(path: path))
    }

    func events() async throws -> [Event] {
        try await connection.query("SELECT id, raw FROM events ORDER BY id").map {
            Event(id: Int64($0.column("id")?.integer ?? -1), raw: $0.column("raw")?.string ?? "")
        }
    }

    func rejections() async throws -> [Rejected] {
        try await connection.query(
            "SELECT upload_id, record_index, line, kind, raw FROM rejected_records ORDER BY upload_id, record_index"
        ).map {
            Rejected(
                uploadID: $0.column("upload_id")?.string ?? "", index: Int($0.column("record_index")?.integer ?? -1),
                line: Int($0.column("line")?.integer ?? -1), kind: $0.column("kind")?.string ?? "",
                raw: $0.column("raw")?.blob.map { Array($0.readableBytesView) } ?? [])
        }
    }

    func close() async throws { try await connection.close() }
}
