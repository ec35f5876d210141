import AsyncHTTPClient
import Foundation
import ServiceLifecycle
import IngestServiceApp
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// The bounds of issue #44, each against the abuse itself: batches bounded in bytes and rejected records
/// kept as a prefix (records just under the record limit), the process-wide memory budget (503
/// `overloaded`), `GET /rejected` paged and rate-limited, blank space skipped as it streams, the caps on
/// open connections and the head deadline, the cap of rejected records per upload (422), their retention
/// per client, and the gzip inflation ratio.
@Suite("Limits against hostile clients", .serialized)
struct LimitsTests {
    /// A good event whose text makes its line `length` bytes long.
    static func bigEvent(id: Int64, length: Int) -> String {
        let head = "{\"id\":\(id),\"user\":{},\"text\":\""
        return head + String(repeating: "a", count: length - head.utf8.count - 2) + "\"}"
    }

    /// A line of `length` bytes that is not JSON (a string holding raw control bytes).
    static func badLine(length: Int) -> String {
        "[\"" + String(repeating: "\u{01}", count: length - 2)
    }

    /// 1,040,000-byte lines, just under the 1 MiB record limit, good and bad in turn: every batch the
    /// store gets holds at most `--batch-bytes` plus one record, each rejected record keeps its first
    /// `--rejected-raw-bytes` (and says so), the good ones are stored whole.
    @Test func batchesAreBoundedInBytesAndRejectedRecordsKeepAPrefix() async throws {
        let store = BatchSizeStore()
        let length = 1_040_000
        var text = ""
        for id in 1...12 { text += Self.bigEvent(id: Int64(id), length: length) + "\n" + Self.badLine(length: length) + "\n" }
        let body = text
        try await TestServer.with(store: store) { server in
            let summary = try await server.postEvents(.bytes(ByteBuffer(string: body)))
            #expect(summary.accepted == 12 && summary.rejected == 12)
            #expect(summary.rejections.allSatisfy { $0.message.contains("first 65536 of 1040000 bytes are kept") })
        }
        let batches = store.batches
        let limit = IngestConfiguration().maxBatchBytes + 2 * length
        #expect(batches.count >= 6, "\(batches)")
        for batch in batches {
            #expect(batch.eventBytes + batch.rejectedBytes.reduce(0, +) <= limit, "\(batch)")
            #expect(batch.rejectedBytes.allSatisfy { $0 == 65_536 }, "\(batch)")
            #expect(batch.eventLengths.allSatisfy { $0 == length })
        }
        #expect(batches.reduce(0) { $0 + $1.eventLengths.count } == 12)
    }

    /// A budget that holds one upload: while one streams, another upload, a document and a listing are
    /// 503 `overloaded` with `Retry-After: 1`, before any body is read; once it ends they go in.
    @Test func memoryBudgetRefusesWithRetryAfter() async throws {
        let reservation = IngestConfiguration().uploadReservation
        try await TestServer.with({ $0.memoryBudget = reservation + 1000 }) { server in
            let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
            continuation.yield(ByteBuffer(string: TweetLines.tweet(id: 1, index: 0) + "\n"))
            let held = Task {
                try await server.post("/events", contentType: "application/x-ndjson", body: .stream(stream, length: .unknown))
            }
            var active = try await server.metricsSnapshot().activeStreams
            for _ in 0..<500 where active < 1 {
                try await Task.sleep(for: .milliseconds(20))
                active = try await server.metricsSnapshot().activeStreams
            }
            #expect(active == 1)
            let upload = try await server.post(
                "/events", contentType: "application/x-ndjson", body: .bytes(ByteBuffer(string: TweetLines.tweet(id: 2, index: 1))))
            #expect(upload.status == 503 && upload.error == "overloaded" && upload.retryAfter == "1", "\(upload.text)")
            let document = try await server.post(
                "/event", contentType: "application/json", body: .bytes(ByteBuffer(string: TweetLines.tweet(id: 3, index: 2))))
            #expect(document.status == 503 && document.error == "overloaded")
            let listing = try await server.get("/rejected")
            #expect(listing.status == 503 && listing.error == "overloaded")
            continuation.finish()
            #expect(try await held.value.status == 200)
            #expect(try await server.postEvents(.bytes(ByteBuffer(string: TweetLines.tweet(id: 2, index: 1)))).accepted == 1)
        }
    }

    /// 40 rejected records of 100,000 control bytes (each becomes six in JSON): `GET /rejected?limit=1000`
    /// lists all 40 in id order, each `raw` its first 65,536 bytes, read 16 rows at a time; it takes a
    /// token of the client's rate limit like a POST (429 past it).
    @Test func rejectedListingIsPagedCutAndRateLimited() async throws {
        let clock = ManualClock()
        try await OverloadTests.withClients({
            $0.rateLimit = 2
            $0.rateLimitClock = { clock.now }
        }) { server, alice, _ in
            let body = (0..<40).map { _ in Self.badLine(length: 100_000) }.joined(separator: "\n")
            let summary = try await server.postEvents(.bytes(ByteBuffer(string: body)), key: alice)
            #expect(summary.rejected == 40)
            let listing = try await server.get("/rejected?limit=1000", key: alice)
            #expect(listing.status == 200)
            let rows = listing.text.split(separator: "\n").map {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
            }
            #expect(rows.count == 40)
            let ids = rows.compactMap { $0["id"] as? Int }
            #expect(ids == ids.sorted() && Set(ids).count == 40)
            #expect(rows.allSatisfy { ($0["raw"] as? String)?.utf8.count == 65_536 })
            let refused = try await server.get("/rejected", key: alice)
            #expect(refused.status == 429 && refused.error == "rateLimited" && refused.retryAfter == "1")
        }
    }

    /// 8.75 MiB of blank lines (spaces, tabs, CR LF) around two records: the records' lines and offsets are
    /// those of the body, and the blank space is kept nowhere (the process test measures the memory).
    @Test func blankSpaceBetweenRecordsIsSkippedAsItStreams() async throws {
        let units = 1 << 18
        let blank = String(repeating: " \t\r\n\n", count: units)  // 1.25 MiB, 2 lines a unit
        let good = TweetLines.tweet(id: 7, index: 0)
        let bad = "{\"id\":8,\"user\":nul}"
        let body = blank + good + "\n" + blank + blank + bad + "\n" + blank + blank
        try await TestServer.with { server in
            let stream = AsyncStream<ByteBuffer> { continuation in
                var rest = ByteBuffer(string: body)
                while let chunk = rest.readSlice(length: min(65_536, rest.readableBytes)), chunk.readableBytes > 0 {
                    continuation.yield(chunk)
                }
                continuation.finish()
            }
            let summary = try await server.postEvents(.stream(stream, length: .unknown))
            #expect(summary.accepted == 1 && summary.rejected == 1)
            let rejection = try #require(summary.rejections.first)
            #expect(rejection.line == 2 * units + 1 + 4 * units + 1)
            #expect(rejection.offset == blank.utf8.count * 3 + good.utf8.count + 1)
            #expect(rejection.index == 1)
            #expect(server.recorded.ids == [7])
        }
    }

    /// 60 silent connections against caps of 30 open and 20 per address, a head deadline of 1.5 s: a
    /// probe on a new connection is answered at once each time (it closes the oldest silent one), and
    /// every silent connection is closed within a few seconds.
    @Test func silentConnectionsCannotKeepProbesOut() async throws {
        try await TestServer.with({
            $0.maxOpenConnections = 30
            $0.maxConnectionsPerAddress = 20
            $0.headTimeout = .milliseconds(1500)
        }) { server in
            let silent = try (0..<60).map { _ in try RawClient(port: server.port) }
            for path in ["/health", "/ready", "/health"] {
                let probe = try RawClient(port: server.port)
                try probe.send("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let answer = await offThread { probe.readUntilClosed(timeout: .seconds(10)) }
                #expect(String(decoding: answer.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200"), "\(path)")
            }
            let closed = await offThread {
                silent.map { $0.readUntilClosed(timeout: .seconds(15)).closed }
            }
            #expect(closed.allSatisfy { $0 }, "\(closed.filter { !$0 }.count) still open")
        }
    }

    /// `--max-rejected-per-upload 50`: 200 bad lines then good ones: 422 `tooManyRejected`, 50 kept, the
    /// ones past the cap counted as not kept, the answer says so; the bytes cap the same way.
    @Test func rejectedRecordsPerUploadAreCapped() async throws {
        try await TestServer.with({ $0.maxRejectedPerUpload = 50 }) { server in
            let body = Array(repeating: "{\"id\":1,\"user\":nul}", count: 200).joined(separator: "\n") + "\n"
                + TweetLines.tweet(id: 5, index: 0)
            let reply = try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(ByteBuffer(string: body)))
            #expect(reply.status == 422 && reply.error == "tooManyRejected", "\(reply.status) \(reply.text)")
            let summary = try IngestSummary(json: reply.body)
            #expect(summary.rejected == 50)
            #expect((summary.rejectedNotKept ?? 0) >= 1)
            #expect(summary.stoppedEarly?.contains("refused and not kept") == true)
            #expect(summary.requestId != nil)
        }
        try await TestServer.with({ $0.maxRejectedBytesPerUpload = 100_000 }) { server in
            let body = (0..<10).map { _ in Self.badLine(length: 30_000) }.joined(separator: "\n")
            let reply = try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(ByteBuffer(string: body)))
            #expect(reply.status == 422)
            #expect(try IngestSummary(json: reply.body).rejected == 3)
        }
    }

    /// `--rejected-keep-per-client 30` on SQLite: after three uploads of 20 rejected records each, the
    /// client's 30 newest are kept, the older deleted; another client's are not touched.
    @Test func rejectedRecordsAreKeptPerClientUpToTheQuota() async throws {
        try await OverloadTests.withClients({ $0.rejectedKeptPerClient = 30 }) { server, alice, bob in
            let body = Array(repeating: "{\"id\":1,\"user\":nul}", count: 20).joined(separator: "\n")
            _ = try await server.postEvents(.bytes(ByteBuffer(string: body)), key: bob)
            for _ in 0..<3 { _ = try await server.postEvents(.bytes(ByteBuffer(string: body)), key: alice) }
            let kept = try await server.store.rejections(client: "alice", after: 0, limit: 1000, maxRawBytes: 100)
            #expect(kept.count == 30)
            #expect(kept.first?.index == 10, "the oldest kept is the second upload's 11th")
            #expect(try await server.store.rejections(client: "bob", after: 0, limit: 1000, maxRawBytes: 100).count == 20)
        }
    }

    /// 32 MiB of newlines gzipped (a ratio of about 1,000): 413 once it inflates past 100 times what was
    /// read; a body of varied tweets (a ratio under 10) goes through.
    @Test func gzipInflationRatioIsLimited() async throws {
        try await TestServer.with { server in
            let bomb = try Self.gzip(ByteBuffer(repeating: 0x0A, count: 32 << 20))
            let reply = try await server.post(
                "/events", contentType: "application/x-ndjson", body: .bytes(bomb), headers: [("Content-Encoding", "gzip")])
            #expect(reply.status == 413 && reply.error == "contentTooLarge", "\(reply.status) \(reply.text)")
            #expect(try IngestSummary(json: reply.body).stoppedEarly?.contains("100 times") == true)
            let (body, sent) = TweetLines(corruptEvery: 0).body(lines: 2000)
            let ok = try await server.post(
                "/events", contentType: "application/x-ndjson", body: .bytes(try Self.gzip(body)),
                headers: [("Content-Encoding", "gzip")])
            #expect(ok.status == 200)
            #expect(try IngestSummary(json: ok.body).accepted == sent.acceptedIDs.count)
        }
    }

    static func gzip(_ buffer: ByteBuffer) throws -> ByteBuffer { try GzipTests.gzip([buffer]) }
}

/// Keeps the sizes of each batch it is given (and nothing of the records).
final class BatchSizeStore: EventStore {
    struct Batch: Sendable {
        var eventLengths: [Int]
        var eventBytes: Int { eventLengths.reduce(0, +) }
        var rejectedBytes: [Int]
    }

    private let recorded = NIOLockedValueBox<[Batch]>([])

    func store(_ batch: StoreBatch) async throws -> StoreOutcome {
        recorded.withLockedValue {
            $0.append(Batch(eventLengths: batch.events.map(\.raw.readableBytes), rejectedBytes: batch.rejected.map(\.raw.count)))
        }
        var outcome = StoreOutcome()
        outcome.inserted = batch.events.count
        return outcome
    }

    func run() async throws { try? await gracefulShutdown() }

    var batches: [Batch] { recorded.withLockedValue { $0 } }
}
