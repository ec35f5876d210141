import AsyncHTTPClient
import Foundation
import IngestServiceApp
import ModelMapper
import NIOCore
import PostgresNIO
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Never leak internals, refuse bad bodies cleanly: error bodies are `{"error", "requestId"}` with the
/// details in the log under the same id (also in `X-Request-Id` on every answer); bodies that are not
/// UTF-8 are 415 with nothing stored; a statement the database refuses does not cost a connection.
@Suite("Refusals and error bodies", .serialized)
struct RefusalTests {
    /// A store failure (whose error names the store's internals) and an unknown route: short bodies with
    /// the request id, which is also the `X-Request-Id` header; a good answer has the header too.
    @Test func errorAnswersCarryTheRequestIDAndNoInternals() async throws {
        try await TestServer.with(store: RecordingStore(capacity: 5), { $0.storeBatchSize = 10 }) { server in
            let (body, _) = TweetLines(corruptEvery: 0).body(lines: 20)
            let failed = try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(body))
            #expect(failed.status == 503)
            #expect(failed.keys == ["error", "requestId"], "\(failed.text)")
            #expect(failed.text.contains(#""error":"storeUnavailable""#))
            #expect(!failed.text.contains("store is full") && !failed.text.contains("TestFailure"), "\(failed.text)")
            let id = try #require(failed.requestID)
            #expect(!id.isEmpty && failed.text.contains(#""requestId":"\#(id)""#))

            let missing = try await server.get("/nothing")
            #expect(missing.status == 404 && missing.keys == ["error", "requestId"], "\(missing.text)")
            #expect(missing.requestID != nil && missing.requestID != id)

            let refused = try await server.post("/events", contentType: "text/plain", body: .bytes(body))
            #expect(refused.status == 415 && refused.keys == ["error", "requestId"], "\(refused.text)")

            let ok = try await server.post("/event", contentType: "application/json", body: .bytes(ByteBuffer(string: "{\"id\":1,\"user\":{}}")))
            #expect(ok.status == 200 && ok.requestID != nil)
        }
    }

    /// UTF-16 and UTF-32 bodies, with or without a byte-order mark, on both routes: 415, nothing stored.
    /// A raw NUL byte inside a line of a UTF-8 body: that record is rejected, the others are stored.
    @Test func bodiesThatAreNotUTF8AreRefused() async throws {
        try await TestServer.with { server in
            let text = TweetLines.tweet(id: 9, index: 9) + "\n" + TweetLines.tweet(id: 10, index: 10) + "\n"
            let encodings: [(String, [UInt8])] = [
                ("UTF-16LE", Array(text.data(using: .utf16LittleEndian)!)),
                ("UTF-16BE", Array(text.data(using: .utf16BigEndian)!)),
                ("UTF-16 with BOM", [0xFF, 0xFE] + Array(text.data(using: .utf16LittleEndian)!)),
                ("UTF-32LE", Array(text.data(using: .utf32LittleEndian)!)),
                ("UTF-32BE", Array(text.data(using: .utf32BigEndian)!)),
            ]
            for (name, bytes) in encodings {
                for (path, type) in [("/events", "application/x-ndjson"), ("/events", "application/json"), ("/event", "application/json")] {
                    // The first byte alone, so that the check spans chunks.
                    let split = GeneratedBody([.bytes(ByteBuffer(bytes: bytes.prefix(1))), .bytes(ByteBuffer(bytes: bytes.dropFirst()))])
                    let reply = try await server.post(path, contentType: type, body: .stream(split, length: .unknown))
                    #expect(reply.status == 415, "\(name) to \(path): \(reply.status) \(reply.text)")
                    #expect(reply.keys == ["error", "requestId"])
                }
            }
            #expect(server.recorded.ids.isEmpty, "nothing of a refused body is stored")

            let withNUL = TweetLines.tweet(id: 11, index: 11).replacingFirst("名前", with: "名\u{0}前")
            let body = TweetLines.tweet(id: 12, index: 12) + "\n" + withNUL + "\n" + TweetLines.tweet(id: 13, index: 13) + "\n"
            let summary = try await server.postEvents(.bytes(ByteBuffer(string: body)))
            #expect(summary.accepted == 2 && summary.rejected == 1 && summary.rejections.first?.index == 1)
            #expect(server.recorded.ids == [12, 13])
        }
    }

    /// PostgreSQL refusing a statement (a CHECK constraint the test adds), five times through the real
    /// executable: each a 503 with a short body and the request id; the log has the details under that id;
    /// the pool's connection survives (the same backends before and after); a good upload then works.
    @Test(.enabled(if: PostgresStoreTests.url != nil || PostgresStoreTests.isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL"))
    func refusedStatementIsA503WithoutInternalsAndKeepsItsConnection() async throws {
        guard let url = try await PostgresStoreTests.freshDatabase() else { return }
        let service = try ServiceProcess(["--database-url", url])
        let good = ByteBuffer(string: TweetLines.tweet(id: 1, index: 1) + "\n")
        #expect(try await service.post("/events", body: good, key: nil).status == 200)
        let backends = "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() ORDER BY pid"
        let before = try await TestPostgres.with(url) { database in
            try await database.connection.query("ALTER TABLE events ADD CONSTRAINT not_boom CHECK (user_screen_name <> 'boom')", logger: testLogger)
            return try await Self.pids(backends, database)
        }
        #expect(!before.isEmpty)
        let boom = TweetLines.tweet(id: 2, index: 2).replacingOccurrences(of: #""screen_name":"user5002""#, with: #""screen_name":"boom""#)
        var ids: [String] = []
        for _ in 0..<5 {
            let reply = try await service.post("/events", body: ByteBuffer(string: boom + "\n"), key: nil)
            #expect(reply.status == 503, "\(reply.body)")
            let keys = ((try? JSONSerialization.jsonObject(with: Data(reply.body.utf8))) as? [String: Any]).map { Set($0.keys) }
            #expect(keys == ["error", "requestId"], "\(reply.body)")
            #expect(reply.body.count < 120 && !reply.body.contains("INSERT") && !reply.body.contains("PSQL"), "\(reply.body)")
            let id = try #require(reply.requestID)
            #expect(reply.body.contains(id))
            ids.append(id)
        }
        let after = try await TestPostgres.with(url) { database in try await Self.pids(backends, database) }
        #expect(Set(before).isSubset(of: Set(after)), "a refused statement closed a pooled connection: \(before) then \(after)")
        #expect(try await service.post("/events", body: ByteBuffer(string: TweetLines.tweet(id: 3, index: 3) + "\n"), key: nil).status == 200)
        service.signal(SIGTERM)
        #expect(await service.exitStatus() == 0)
        let log = service.standardError()
        for id in ids {
            let line = log.split(separator: "\n").first { $0.contains(id) } ?? ""
            #expect(line.contains("not_boom"), "the log line of request \(id) has the database's reason: \(line)")
        }
    }

    static func pids(_ sql: String, _ database: TestPostgres) async throws -> [Int32] {
        var pids: [Int32] = []
        for try await pid in try await database.connection.query(PostgresQuery(unsafeSQL: sql), logger: testLogger).decode(Int32.self) {
            pids.append(pid)
        }
        return pids
    }
}
