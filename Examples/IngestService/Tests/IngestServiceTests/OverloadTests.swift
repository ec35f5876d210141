import AsyncHTTPClient
import Foundation
import IngestServiceApp
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import SQLiteNIO
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP's answers for overload and outages (issue #37, point 5): a store that fails is 503 with
/// `Retry-After` and nothing unacknowledged; `/health` and `/ready` (which follows the store, comes back by
/// itself, and is 503 while draining); the per-client rate limit and cap on uploads at once (429 with
/// `Retry-After`); the idle timeout. Real HTTP against the real server, the real SQLite store failing.
@Suite("Overload and outages", .serialized)
struct OverloadTests {
    /// Two clients with keys, on a real SQLite store.
    static func withClients<R: Sendable>(
        events: @escaping @Sendable (SQLiteStore) -> any EventStore = { $0 },
        _ adjust: @escaping @Sendable (inout IngestConfiguration) -> Void,
        _ body: @Sendable (TestServer, _ alice: String, _ bob: String) async throws -> R
    ) async throws -> R {
        try await SQLiteStoreTests.withDatabase { path in
            let metrics = IngestMetrics()
            let store = try await SQLiteStore.open(path: path, metrics: metrics)
            let keys = APIKeys(store: store)
            let alice = APIKey.generate()
            let bob = APIKey.generate()
            for (client, key) in [("alice", alice), ("bob", bob)] {
                try await store.addKey(APIKeyRecord(client: client, keyID: key.keyID, keyHash: key.hash, created: Date()))
            }
            return try await TestServer.with(store: events(store), keys: keys, metrics: metrics, {
                $0.deadLetterDirectory = nil
                $0.allowAnonymous = false
                adjust(&$0)
            }) { server in
                try await keys.refresh()
                return try await body(server, alice.text, bob.text)
            }
        }
    }

    static func event(_ id: Int64) -> HTTPClientRequest.Body {
        .bytes(ByteBuffer(string: TweetLines.tweet(id: id, index: Int(id % 1000))))
    }

    /// Polls `GET path` until it answers `status` (at most `within`); returns the last answer.
    static func await(_ path: String, _ status: Int, on server: TestServer, within: Duration = .seconds(15)) async throws
        -> HTTPReply
    {
        let deadline = ContinuousClock.now + within
        var reply = try await server.get(path)
        while reply.status != status, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            reply = try await server.get(path)
        }
        return reply
    }

    // MARK: Rate limit

    /// `--rate-limit 3`: a client's first three POSTs (both routes count) at once pass, the fourth is 429
    /// `rateLimited` with `Retry-After: 1` and stores nothing; another client has its own bucket; a
    /// second later the client may post again. At 0.5 a second, `Retry-After` is 2. The buckets read a
    /// manual clock, so a loaded machine's slow requests refill nothing (issue #44.9: 17.7 s under load).
    @Test func rateLimitIsPerClientWithRetryAfter() async throws {
        let clock = ManualClock()
        try await Self.withClients({
            $0.rateLimit = 3
            $0.rateLimitClock = { clock.now }
        }) { server, alice, bob in
            #expect(try await server.post("/event", contentType: "application/json", body: Self.event(1), key: alice).status == 200)
            #expect(try await server.post("/event", contentType: "application/json", body: Self.event(2), key: alice).status == 200)
            let upload = try await server.post(
                "/events", contentType: "application/x-ndjson", body: Self.event(3), key: alice)
            #expect(upload.status == 200)
            let refused = try await server.post("/event", contentType: "application/json", body: Self.event(4), key: alice)
            #expect(refused.status == 429, "\(refused.text)")
            #expect(refused.retryAfter == "1")
            #expect(refused.keys == ["error", "requestId"] && refused.error == "rateLimited", "\(refused.text)")
            let refusedUpload = try await server.post(
                "/events", contentType: "application/x-ndjson", body: Self.event(5), key: alice)
            #expect(refusedUpload.status == 429 && refusedUpload.retryAfter == "1")

            // Bob's bucket is his own.
            #expect(try await server.post("/event", contentType: "application/json", body: Self.event(6), key: bob).status == 200)

            clock.advance(by: .milliseconds(300))
            #expect(try await server.post("/event", contentType: "application/json", body: Self.event(7), key: alice).status == 429)
            clock.advance(by: .milliseconds(100))
            #expect(try await server.post("/event", contentType: "application/json", body: Self.event(7), key: alice).status == 200)
            #expect(server.metrics.snapshot().refusedRequests == 3)
            let database = try await TestDatabase(path: (server.store as! SQLiteStore).path)
            #expect(try await database.events().map(\.id) == [1, 2, 3, 6, 7], "a refused request stores nothing")
            try await database.close()
        }
        try await Self.withClients({
            $0.rateLimit = 0.5
            $0.rateLimitClock = { clock.now }
        }) { server, alice, _ in
            #expect(try await server.post("/event", contentType: "application/json", body: Self.event(1), key: alice).status == 200)
            let refused = try await server.post("/event", contentType: "application/json", body: Self.event(2), key: alice)
            #expect(refused.status == 429 && refused.retryAfter == "2", "\(refused.status) \(refused.retryAfter ?? "-")")
        }
    }

    // MARK: Uploads at once

    /// `--max-uploads-per-client 2`: with two of Alice's uploads streaming, a third is 429
    /// `tooManyUploads` with `Retry-After: 1`, on both routes; Bob uploads meanwhile; once one of hers
    /// ends, she may start another. Every held upload is answered in full.
    @Test func uploadsAtOncePerClientAreCapped() async throws {
        try await Self.withClients({ $0.maxUploadsPerClient = 2 }) { server, alice, bob in
            var streams: [AsyncStream<ByteBuffer>.Continuation] = []
            var answers: [Task<HTTPReply, any Error>] = []
            for upload in 0..<2 {
                let (body, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
                continuation.yield(ByteBuffer(string: TweetLines.tweet(id: Int64(100 + upload), index: upload) + "\n"))
                streams.append(continuation)
                answers.append(Task {
                    try await server.post(
                        "/events", contentType: "application/x-ndjson", body: .stream(body, length: .unknown), key: alice)
                })
            }
            var active = try await server.metricsSnapshot().activeStreams
            for _ in 0..<200 where active < 2 {
                try await Task.sleep(for: .milliseconds(20))
                active = try await server.metricsSnapshot().activeStreams
            }
            #expect(active == 2)

            let third = try await server.post("/events", contentType: "application/x-ndjson", body: Self.event(200), key: alice)
            #expect(third.status == 429 && third.retryAfter == "1", "\(third.status) \(third.text)")
            #expect(third.keys == ["error", "requestId"] && third.error == "tooManyUploads")
            let document = try await server.post("/event", contentType: "application/json", body: Self.event(201), key: alice)
            #expect(document.status == 429)
            #expect(try await server.post("/events", contentType: "application/x-ndjson", body: Self.event(300), key: bob).status == 200)

            streams[0].yield(ByteBuffer(string: TweetLines.tweet(id: 102, index: 2) + "\n"))
            streams[0].finish()
            let first = try await answers[0].value
            #expect(first.status == 200 && first.text.contains(#""accepted":2"#), "\(first.text)")
            let again = try await server.post("/events", contentType: "application/x-ndjson", body: Self.event(200), key: alice)
            #expect(again.status == 200, "\(again.text)")
            streams[1].finish()
            #expect(try await answers[1].value.status == 200)
            let database = try await TestDatabase(path: (server.store as! SQLiteStore).path)
            #expect(try await database.events().map(\.id) == [100, 101, 102, 200, 300])
            try await database.close()
        }
    }

    // MARK: Idle timeout

    /// `--idle-timeout 1`: a connection that sends nothing is closed after about a second; so is one whose
    /// body stalls (its upload fails, nothing of the partial record is kept); one that keeps sending, a
    /// piece every 300 ms for about 3 s, is not, and is answered.
    @Test func silentConnectionsAreClosed() async throws {
        try await TestServer.with({ $0.idleTimeout = .seconds(1) }) { server in
            let silent = try RawClient(port: server.port)
            let start = ContinuousClock.now
            let (bytes, closed) = await offThread { silent.readUntilClosed(timeout: .seconds(10)) }
            let waited = ContinuousClock.now - start
            #expect(closed && bytes.isEmpty, "a silent connection was not closed")
            #expect(waited > .milliseconds(800) && waited < .seconds(5), "closed after \(waited)")

            let stalled = try RawClient(port: server.port)
            let line = TweetLines.tweet(id: 1, index: 1) + "\n"
            try stalled.send(
                "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n"
                    + line + String(line.prefix(40)))
            let stalledStart = ContinuousClock.now
            let (_, stalledClosed) = await offThread { stalled.readUntilClosed(timeout: .seconds(10)) }
            #expect(stalledClosed, "a stalled upload's connection was not closed")
            #expect(ContinuousClock.now - stalledStart < .seconds(5))

            let trickling = try RawClient(port: server.port)
            let body = Array((0..<10).map { TweetLines.tweet(id: Int64(10 + $0), index: $0) + "\n" }.joined().utf8)
            try trickling.send(
                "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: \(body.count)\r\n"
                    + "Connection: close\r\n\r\n")
            let pieces = 10
            let size = (body.count + pieces - 1) / pieces
            for piece in 0..<pieces {
                try await Task.sleep(for: .milliseconds(300))
                try trickling.send(Array(body[(piece * size)..<min(body.count, (piece + 1) * size)]))
            }
            let (answer, _) = await offThread { trickling.readUntilClosed(timeout: .seconds(10)) }
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200") && text.contains(#""accepted":10"#), "\(text.prefix(300))")

            var metrics = try await server.metricsSnapshot()
            for _ in 0..<100 where metrics.activeStreams > 0 {
                try await Task.sleep(for: .milliseconds(50))
                metrics = try await server.metricsSnapshot()
            }
            #expect(metrics.activeStreams == 0 && metrics.failedRequests == 1)
            #expect(server.recorded.ids == [1] + (10..<20).map(Int64.init), "the stalled upload's whole line was kept, its partial one not")
        }
    }

    // MARK: Store outages and readiness

    /// The real SQLite store failing: another process holds the file's write lock (as `sqlite3` in a
    /// long transaction, or a backup, would). `/health` stays 200 throughout. An upload is 503
    /// `storeUnavailable` with `Retry-After` after the 5 s busy timeout, and nothing of it is stored;
    /// `/ready` turns 503 within the probe timeout; once the lock is let go it is 200 again by itself, and
    /// the same upload then stores every record (none was stored before: all accepted, no duplicates).
    @Test(.timeLimit(.minutes(2))) func storeThatFailsIs503AndNotReadyUntilItComesBack() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let metrics = IngestMetrics()
            let store = try await SQLiteStore.open(path: path, metrics: metrics)
            try await TestServer.with(store: store, metrics: metrics, {
                $0.deadLetterDirectory = nil
                $0.readinessInterval = .milliseconds(200)
                $0.readinessTimeout = .seconds(1)
            }) { server in
                #expect(try await server.get("/health").status == 200)
                let ready = try await Self.await("/ready", 200, on: server)
                #expect(ready.status == 200 && ready.text.contains(#"{"status":"ready"}"#), "\(ready.text)")

                let (body, sent) = TweetLines(corruptEvery: 10).body(lines: 300)
                let holder = try await TestDatabase(path: path)
                _ = try await holder.connection.query("BEGIN IMMEDIATE")
                let failed = try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(body))
                #expect(failed.status == 503 && failed.retryAfter == "5", "\(failed.status) \(failed.text)")
                #expect(failed.keys == ["error", "requestId"] && failed.error == "storeUnavailable", "\(failed.text)")
                let notReady = try await Self.await("/ready", 503, on: server, within: .seconds(5))
                #expect(notReady.status == 503 && notReady.error == "storeUnavailable", "\(notReady.text)")
                #expect(notReady.keys == ["error", "requestId"])
                #expect(try await server.get("/health").status == 200, "liveness does not depend on the store")
                let rows = try await holder.connection.query("SELECT count(*) AS n FROM events").first?.column("n")?.integer
                #expect(rows == 0, "nothing of the refused upload is stored")

                _ = try await holder.connection.query("ROLLBACK")
                try await holder.close()
                let back = try await Self.await("/ready", 200, on: server, within: .seconds(10))
                #expect(back.status == 200, "/ready did not come back by itself: \(back.text)")
                let retry = try await server.postEvents(.bytes(body))
                #expect(retry.accepted == sent.acceptedIDs.count && retry.duplicates == 0)
                #expect(retry.rejected == sent.rejected.count)
            }
        }
    }

    /// The same with the real PostgreSQL going away (connections refused, every session ended): the
    /// upload is 503 with `Retry-After` within the store's timeout and nothing of it is stored, `/ready`
    /// is 503, `/health` 200; with the database back, `/ready` is 200 again by itself (the pool opens
    /// new connections) and the upload stores every record.
    @Test(
        .enabled(if: PostgresStoreTests.url != nil || PostgresStoreTests.isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL"),
        .timeLimit(.minutes(3)))
    func postgreSQLGoingAwayIs503AndNotReadyUntilItComesBack() async throws {
        guard let url = try await PostgresStoreTests.freshDatabase() else { return }
        let breaker = try DatabaseBreaker(url: url)
        let metrics = IngestMetrics()
        let store = try await PostgresStore.open(url: url, timeout: .seconds(3), metrics: metrics)
        let (body, sent) = TweetLines(corruptEvery: 10).body(lines: 300)
        do {
            try await TestServer.with(store: store, metrics: metrics, {
                $0.deadLetterDirectory = nil
                $0.readinessInterval = .milliseconds(200)
                $0.readinessTimeout = .seconds(1)
            }) { server in
                #expect(try await Self.await("/ready", 200, on: server).status == 200)
                try await breaker.takeAway()
                let failed = try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(body))
                #expect(failed.status == 503 && failed.retryAfter == "5", "\(failed.status) \(failed.text)")
                #expect(failed.keys == ["error", "requestId"] && failed.error == "storeUnavailable", "\(failed.text)")
                let notReady = try await Self.await("/ready", 503, on: server, within: .seconds(5))
                #expect(notReady.status == 503 && notReady.error == "storeUnavailable", "\(notReady.text)")
                #expect(try await server.get("/health").status == 200)

                try await breaker.restore()
                let back = try await Self.await("/ready", 200, on: server, within: .seconds(60))
                #expect(back.status == 200, "/ready did not come back by itself: \(back.text)")
                let stored = try await TestPostgres.with(url) { database in try await database.count("events") }
                #expect(stored == 0, "nothing of the refused upload is stored")
                let retry = try await server.postEvents(.bytes(body))
                #expect(retry.accepted == sent.acceptedIDs.count && retry.duplicates == 0)
            }
        } catch {
            try? await breaker.restore()
            throw error
        }
    }
}

/// A clock that moves only when told (the token buckets' time in tests).
final class ManualClock: Sendable {
    private let instant = NIOLockedValueBox(ContinuousClock.now)

    var now: ContinuousClock.Instant { instant.withLockedValue { $0 } }

    func advance(by duration: Duration) {
        instant.withLockedValue { $0 += duration }
    }
}
