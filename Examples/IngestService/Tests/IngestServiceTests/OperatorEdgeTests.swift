import AsyncHTTPClient
import Foundation
import IngestServiceApp
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle
import Testing

/// Issue #44.7, the operators' edges, each with the abuse itself: the drain's deadline, `/metrics` behind a
/// key at its exact path, the refusal log rate-limited and naming the peer, malformed chunked framing, invalid
/// UTF-8 in `POST /event`, `/ready` on a full disk, a key revoked mid-upload, uploads the server is still
/// working on, and blank space in a top-level array.
@Suite("Operators' edges", .serialized)
struct OperatorEdgeTests {
    // MARK: /metrics

    /// `GET /metrics` and `/metrics/summary` take the metrics key (a client's API key or none is 401);
    /// `//metrics`, `/metrics/` and `/metrics//summary` are 404, not the metrics.
    @Test func metricsNeedTheKeyAndTheExactPath() async throws {
        try await OverloadTests.withClients({ _ in }) { server, alice, _ in
            for path in ["/metrics", "/metrics/summary"] {
                let keyless = try await server.get(path)
                #expect(keyless.status == 401 && !keyless.text.contains("alice"), "\(path): \(keyless.status)")
                let client = try await server.get(path, key: alice)
                #expect(client.status == 401, "\(path) with a client's key: \(client.status)")
                #expect(try await server.get(path, key: "not-" + TestServer.metricsKey).status == 401)
                #expect(try await server.get(path, key: TestServer.metricsKey).status == 200, "\(path)")
            }
            for path in ["//metrics", "/metrics/", "/metrics//summary", "/metrics/summary/", "//health", "/ready/"] {
                let reply = try await server.get(path, key: TestServer.metricsKey)
                #expect(reply.status == 404 && reply.error == "notFound", "\(path): \(reply.status) \(reply.text.prefix(80))")
            }
            #expect(try await server.get("/health").status == 200)
        }
    }

    /// Without `--metrics-key` nothing opens `/metrics`.
    @Test func metricsWithoutAConfiguredKeyAreClosed() async throws {
        try await TestServer.with({ $0.metricsKey = nil }) { (server: TestServer) async throws in
            #expect(try await server.get("/metrics").status == 401)
            #expect(try await server.get("/metrics", key: TestServer.metricsKey).status == 401)
            #expect(try await server.get("/metrics", key: "").status == 401)
        }
    }

    // MARK: The refusal log

    /// 200 keyless POSTs in one instant of the (manual) clock: 10 log lines (the bucket's depth), each with
    /// the peer's address; a second later, one more line says how many were not logged. The refusals are all
    /// counted in the metrics all the same. A keyed upload's line is never dropped.
    @Test func refusalsAreLoggedAtARateWithThePeer() async throws {
        let clock = ManualClock()
        let lines = CapturedLog()
        let log = Logger(label: "test.uploads") { _ in CapturingLogHandler(lines: lines) }
        try await TestServer.with(uploadLog: log, {
            $0.allowAnonymous = false
            $0.rateLimitClock = { clock.now }
        }) { server in
            for _ in 0..<200 {
                let reply = try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(ByteBuffer(string: "{}\n")))
                #expect(reply.status == 401)
            }
            let flooded = lines.all
            #expect(flooded.count == 10, "\(flooded.count) lines for 200 refusals")
            #expect(flooded.allSatisfy { ($0["peer"] ?? "").hasPrefix("127.0.0.1:") }, "\(flooded.first ?? [:])")
            clock.advance(by: .seconds(1))
            _ = try await server.post("/event", contentType: "application/json", body: .bytes(ByteBuffer(string: "{}")))
            let after = lines.all
            #expect(after.count == 11)
            #expect(after.last?["refusalsNotLogged"] == "190", "\(after.last ?? [:])")
            #expect(after.last?["status"] == "401" && after.last?["route"] == "/event")
            #expect(try await server.metricsSnapshot().refusedRequests == 201)
        }
    }

    // MARK: Framing

    /// A chunk size that is not hexadecimal, in the middle of an upload: 400 `badRequest` (RFC 9112), not
    /// 500 `internal`, and the connection is closed.
    @Test func malformedChunkedFramingIs400() async throws {
        try await TestServer.with { server in
            for chunk in ["zz\r\n{}\r\n", "2\r\n{}XX\r\n", "ffffffffffffffffffffff\r\n"] {
                let client = try RawClient(port: server.port)
                let line = TweetLines.tweet(id: 1, index: 1) + "\n"
                try client.send(
                    "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + String(line.utf8.count, radix: 16) + "\r\n" + line + "\r\n" + chunk)
                let (answer, closed) = await offThread { client.readUntilClosed(timeout: .seconds(20)) }
                let text = String(decoding: answer, as: UTF8.self)
                #expect(text.hasPrefix("HTTP/1.1 400"), "\(chunk.debugDescription): \(text.prefix(200))")
                #expect(!text.contains("internal"), "\(text.prefix(300))")
                #expect(closed)
            }
        }
    }

    // MARK: UTF-8

    /// A document with a byte that is not UTF-8 (in a string the model reads, and in one it skips) is
    /// refused by `POST /event` as `POST /events` rejects the same record: nothing stored with U+FFFD.
    @Test func invalidUTF8IsRefusedByPostEventAsByPostEvents() async throws {
        try await TestServer.with { server in
            let good = TweetLines.tweet(id: 42, index: 1)
            for (name, broken) in [
                ("text", good.replacingFirst("名前", with: "\u{1}")), ("source", good.replacingFirst("Twitter for", with: "\u{1}")),
            ] {
                var bytes = Array(broken.utf8)
                let at = bytes.firstIndex(of: 1)!
                bytes[at] = 0xFF
                let single = try await server.post("/event", contentType: "application/json", body: .bytes(ByteBuffer(bytes: bytes)))
                #expect(single.status == 400 && single.error == "invalidEvent", "\(name): \(single.status) \(single.text)")
                let stream = try await server.postEvents(.bytes(ByteBuffer(bytes: bytes + [0x0A])))
                #expect(stream.accepted == 0 && stream.rejected == 1, "\(name)")
            }
            #expect(server.recorded.ids.isEmpty)
        }
    }

    // MARK: Readiness

    /// A file system with less free space than `--min-free-disk`: `GET /ready` is 503 (a full disk lets
    /// `BEGIN IMMEDIATE` through but refuses every batch); with room enough, 200. (The whole disk cannot be
    /// filled in a test: the threshold is set past what any disk has.)
    @Test func readyIs503WhenTheDiskIsFull() async throws {
        for (minFree, expected) in [(Int.max, 503), (0, 200)] {
            try await SQLiteStoreTests.withDatabase { path in
                let store = try await SQLiteStore.open(path: path, minFreeBytes: minFree)
                try await TestServer.with(store: store, { $0.readinessInterval = .milliseconds(100) }) { server in
                    var reply = try await server.get("/ready")
                    for _ in 0..<300 where reply.status != expected {
                        try await Task.sleep(for: .milliseconds(50))
                        reply = try await server.get("/ready")
                    }
                    #expect(reply.status == expected, "min free \(minFree): \(reply.status) \(reply.text)")
                    if expected == 503 { #expect(reply.error == "storeUnavailable") }
                }
            }
        }
    }

    // MARK: Revocation

    /// A key revoked while its upload streams: the upload stops at its next batch (401 `keyRevoked`, with
    /// what was committed before), and nothing sent after the revocation is stored.
    @Test func aRevokedKeysUploadStopsAtTheNextBatch() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let metrics = IngestMetrics()
            let store = try await SQLiteStore.open(path: path, metrics: metrics)
            let keys = APIKeys(store: store)
            let key = APIKey.generate()
            try await store.addKey(APIKeyRecord(client: "mallory", keyID: key.keyID, keyHash: key.hash, created: Date()))
            try await TestServer.with(store: store, keys: keys, metrics: metrics, {
                $0.allowAnonymous = false
                $0.deadLetterDirectory = nil
                $0.storeBatchSize = 10
                $0.readChunkSize = 1024  // the reader decodes what has come (it fills a read chunk first)
            }) { server in
                try await keys.refresh()
                let (chunks, sink) = AsyncStream.makeStream(of: ByteBuffer.self)
                let upload = Task {
                    try await server.post(
                        "/events", contentType: "application/x-ndjson", body: .stream(chunks, length: .unknown), key: key.text,
                        timeout: .seconds(120))
                }
                let (first, _) = TweetLines(firstID: 1, corruptEvery: 0).body(lines: 25)
                sink.yield(first)
                sink.yield(ByteBuffer(string: String(repeating: "\n", count: 8192)))  // past the reader's chunk
                // Two batches committed (the counters follow a batch only when the next one is handed over).
                let database = try await TestDatabase(path: path)
                for _ in 0..<1200 where try await database.events().count < 20 { try await Task.sleep(for: .milliseconds(25)) }
                #expect(try await database.events().count == 20)
                try await database.close()
                #expect(try await store.revokeKey(keyID: key.keyID, keyHash: key.hash))
                try await keys.refresh()
                let (more, _) = TweetLines(firstID: 1000, corruptEvery: 0).body(lines: 100)
                sink.yield(more)
                sink.finish()
                let reply = try await upload.value
                #expect(reply.status == 401, "\(reply.status) \(reply.text)")
                let summary = try IngestSummary(json: reply.body)
                #expect(summary.error == "keyRevoked" && summary.accepted == 20, "\(reply.text)")
            }
            let database = try await TestDatabase(path: path)
            #expect(try await database.events().map(\.id) == Array(1...20))
            try await database.close()
        }
    }

    // MARK: The drain's deadline

    /// An upload whose client stops sending (a byte every 5 s would do the same) does not hold the
    /// shutdown: at `--drain-timeout` it is cut, answered 503 `shuttingDown` with what it committed (every
    /// whole record sent), and the server stops.
    @Test func theDrainDeadlineCutsAStalledUploadAndAnswersIt() async throws {
        let ended = try await TestServer.with({
            $0.drainTimeout = .milliseconds(500)
            $0.storeBatchSize = 10
            $0.readChunkSize = 1024  // the reader decodes what has come (it fills a read chunk first)
        }) { server in
            let (chunks, sink) = AsyncStream.makeStream(of: ByteBuffer.self)
            let upload = Task {
                try await server.post(
                    "/events", contentType: "application/x-ndjson", body: .stream(chunks, length: .unknown), timeout: .seconds(60))
            }
            let (first, _) = TweetLines(firstID: 1, corruptEvery: 0).body(lines: 25)
            sink.yield(first)
            sink.yield(ByteBuffer(string: String(repeating: "\n", count: 8192)))  // past the reader's chunk
            for _ in 0..<1200 where server.recorded.ids.count < 20 { try await Task.sleep(for: .milliseconds(25)) }
            #expect(server.recorded.ids.count == 20)
            // The client sends nothing more. (Its body ends 20 s later, so that a client library that waits
            // for its body before reading the answer ends too: without the cut that answer would be a 200.)
            let shutdown = Task { await server.shutdown() }
            let end = Task {
                try? await Task.sleep(for: .seconds(20))
                sink.finish()
            }
            let reply = try await upload.value
            end.cancel()
            #expect(reply.status == 503, "\(reply.status) \(reply.text)")
            let summary = try IngestSummary(json: reply.body)
            #expect(summary.error == "shuttingDown" && summary.accepted == 25, "\(reply.text)")
            await shutdown.value
            sink.finish()
            return server.recorded.ids
        }
        #expect(ended == Array(1...25))
    }

    // MARK: The idle timeout

    /// Four uploads whose bodies are all sent at once while the store takes 1.5 s for each of their first
    /// batches (so the server reads nothing from them for longer than the 0.5 s idle timeout): all four are
    /// answered 200 with every record, none reset as idle.
    @Test func theIdleTimeoutSparesUploadsTheServerIsStillWorkingOn() async throws {
        let store = SlowStore(delay: .milliseconds(1500), slowBatches: 8)
        try await TestServer.with(store: store, {
            $0.idleTimeout = .milliseconds(500)
            $0.storeBatchSize = 200
        }) { server in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for upload in 0..<4 {
                    let (body, _) = TweetLines(firstID: Int64(upload + 1) * 1_000_000, corruptEvery: 0).body(lines: 8000)
                    group.addTask { try await server.postEvents(.bytes(body)).accepted }
                }
                var counts: [Int] = []
                for try await count in group { counts.append(count) }
                #expect(counts == [8000, 8000, 8000, 8000])
            }
        }
    }

    // MARK: Blank space in an array

    /// A top-level array with 4 MiB of blank space between two elements: the reader would hold it all
    /// until the next element, so past its bound (the record limit plus the reader's slack, ~1.6 MiB with
    /// the defaults) the upload stops with 413, saying so; the element before it is committed.
    @Test func blankSpaceInAnArrayIsBounded() async throws {
        try await TestServer.with { server in
            let first = TweetLines.tweet(id: 1, index: 1)
            let second = TweetLines.tweet(id: 2, index: 2)
            let body = "[" + first + "," + String(repeating: " \n\t", count: (4 << 20) / 3) + second + "]"
            let reply = try await server.post("/events", contentType: "application/json", body: .bytes(ByteBuffer(string: body)))
            #expect(reply.status == 413, "\(reply.status) \(reply.text.prefix(300))")
            let summary = try IngestSummary(json: reply.body)
            #expect(summary.stoppedEarly?.contains("blank space between two array elements") == true, "\(reply.text)")
            #expect(server.recorded.ids == [1] || server.recorded.ids.isEmpty)
            // Blank space under the bound is read through.
            let small = "[" + first + "," + String(repeating: " \n\t", count: (512 << 10) / 3) + second + "]"
            let fine = try await server.postEvents(.bytes(ByteBuffer(string: small)), contentType: "application/json")
            #expect(fine.accepted + fine.duplicates == 2)
        }
    }
}

/// A store that takes `delay` for each of its first `slowBatches` batches, then passes them on.
final class SlowStore: EventStore {
    private let recording = RecordingStore()
    private let delay: Duration
    private let slow = NIOLockedValueBox(0)

    init(delay: Duration, slowBatches: Int) {
        self.delay = delay
        slow.withLockedValue { $0 = slowBatches }
    }

    func store(_ batch: StoreBatch) async throws -> StoreOutcome {
        let isSlow = slow.withLockedValue { left in
            defer { left -= 1 }
            return left > 0
        }
        if isSlow { try await Task.sleep(for: delay) }
        return try await recording.store(batch)
    }

    func run() async throws { try? await gracefulShutdown() }
}

/// The log lines a ``CapturingLogHandler`` received: each line's metadata as text, plus `message`.
final class CapturedLog: Sendable {
    private let lines = NIOLockedValueBox<[[String: String]]>([])
    var all: [[String: String]] { lines.withLockedValue { $0 } }
    func append(_ line: [String: String]) { lines.withLockedValue { $0.append(line) } }
}

struct CapturingLogHandler: LogHandler {
    let lines: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = (metadata.merging(event.metadata ?? [:]) { $1 }).mapValues { "\($0)" }
        line["message"] = event.message.description
        lines.append(line)
    }
}

/// Issue #44.7: a key repeated in an object is one rule, refused, whatever the route.
@Suite("Repeated keys")
struct RepeatedKeyTests {
    @Test func repeatedKeysAreFoundAfterTheirEscapes() {
        func repeated(_ text: String) -> String? { ByteBuffer(string: text).firstRepeatedKey }
        #expect(repeated(#"{"a":1,"b":{"a":2},"c":[{"x":1},{"x":2}],"d":"\"a\":1,\"a\":2"}"#) == nil)
        #expect(repeated(#"{"id":1,"id":2}"#) == "id")
        #expect(repeated(#"{"a":1,"\u0061":2}"#) == "a")
        #expect(repeated(#"{"user":{"id":1,"name":"x","id":2}}"#) == "id")
        #expect(repeated(#"{"k\"":1,"k\u0022":2}"#) == "k\"")
        #expect(repeated(#"{"😀":1,"\ud83d\ude00":2}"#) == "😀")
        #expect(repeated(#"{"\ud800":1,"\ud801":2}"#) == nil, "two lone surrogates are two keys")
        let many = (0..<100).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(repeated("{" + many + "}") == nil)
        #expect(repeated("{" + many + #","k7":0}"#) == "k7")
        #expect(repeated(TweetLines.tweet(id: 1, index: 1)) == nil)
    }

    /// A tweet whose `id` comes twice: `POST /events` rejects it (the upload goes on), `POST /event` 400.
    @Test func aRecordWithARepeatedKeyIsRefusedOnBothRoutes() async throws {
        try await TestServer.with { server in
            let twice = TweetLines.tweet(id: 5, index: 1).replacingFirst(#""id":5,"#, with: #""id":5,"id":6,"#)
            let single = try await server.post("/event", contentType: "application/json", body: .bytes(ByteBuffer(string: twice)))
            #expect(single.status == 400 && single.error == "invalidEvent" && single.text.contains("repeated"), "\(single.text)")
            let good = TweetLines.tweet(id: 7, index: 2)
            let summary = try await server.postEvents(.bytes(ByteBuffer(string: twice + "\n" + good + "\n")))
            #expect(summary.accepted == 1 && summary.rejected == 1, "\(summary)")
            #expect(summary.rejections.first?.kind == "unstorable", "\(summary.rejections)")
            #expect(server.recorded.ids == [7])
        }
    }
}
