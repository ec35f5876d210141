import AsyncHTTPClient
import Foundation
import Hummingbird
import IngestServiceApp
import Logging
import ModelMapper
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// The real service on a loopback port chosen by the system, with a fresh dead-letter directory and a
/// store (by default one that records every event it is given, in memory).
struct TestServer: Sendable {
    let port: Int
    let store: any EventStore
    let metrics: IngestMetrics
    let deadLetterDirectory: String
    /// Starts the graceful shutdown (SIGTERM's) while the test goes on; `with` waits for it to end.
    var shutdown: @Sendable () async -> Void = {}

    /// The `--metrics-key` of every test server (`GET /metrics` takes it).
    static let metricsKey = "test-metrics-key-0123456789"

    /// The store, when it is the default ``RecordingStore``.
    var recorded: RecordingStore { store as! RecordingStore }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts a server, runs `body` against it, stops it.
    static func with<R: Sendable>(
        store: any EventStore = RecordingStore(),
        keys: APIKeys? = nil,
        metrics: IngestMetrics = IngestMetrics(),
        uploadLog: Logger? = nil,
        _ adjust: @Sendable (inout IngestConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> R
    ) async throws -> R {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ingest-service-tests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = IngestConfiguration(host: "127.0.0.1", port: 0, deadLetterDirectory: directory)
        configuration.allowAnonymous = true  // the tests about API keys run the real executable
        configuration.metricsKey = metricsKey
        adjust(&configuration)
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "IngestServiceTests")
        logger.logLevel = .error
        let served = try ingestServices(
            configuration: configuration, store: store, keys: keys, metrics: metrics, logger: logger, uploadLog: uploadLog,
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            })
        let members: [any Service] = [store] + (keys.map { [$0] } ?? []) + served
        var group = ServiceGroupConfiguration(services: members, logger: logger)
        // A stop that does not come is a crash with a message, not a test run that never ends.
        group.maximumGracefulShutdownDuration = .seconds(60)
        group.maximumCancellationDuration = .seconds(10)
        let services = ServiceGroup(configuration: group)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                await services.triggerGracefulShutdown()
                throw TestFailure("the server did not report a port")
            }
            let server = TestServer(
                port: port, store: store, metrics: metrics, deadLetterDirectory: directory,
                shutdown: { await services.triggerGracefulShutdown() })
            let result: Result<R, any Error>
            do { result = .success(try await body(server)) } catch { result = .failure(error) }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return try result.get()
        }
    }

    // MARK: Requests

    /// POSTs `body` and returns the status and body.
    func post(
        _ path: String, contentType: String?, body: HTTPClientRequest.Body, key: String? = nil,
        headers: [(String, String)] = [], timeout: TimeAmount = .seconds(600)
    ) async throws -> HTTPReply {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        request.headers.add(contentsOf: headers)
        request.body = body
        return try await send(request, timeout: timeout)
    }

    func get(_ path: String, key: String? = nil) async throws -> HTTPReply {
        var request = HTTPClientRequest(url: baseURL + path)
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        return try await send(request)
    }

    private func send(_ request: HTTPClientRequest, timeout: TimeAmount = .seconds(600)) async throws -> HTTPReply {
        let response = try await HTTPClient.shared.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: 64 << 20)
        return HTTPReply(
            status: Int(response.status.code), body: Array(body.readableBytesView),
            requestID: response.headers["X-Request-Id"].first, retryAfter: response.headers["Retry-After"].first)
    }

    /// POSTs a JSON Lines body to /events and decodes the summary (failing unless the status is 200).
    func postEvents(
        _ body: HTTPClientRequest.Body, contentType: String = "application/x-ndjson", key: String? = nil
    ) async throws
        -> IngestSummary
    {
        let reply = try await post("/events", contentType: contentType, body: body, key: key)
        guard reply.status == 200 else { throw TestFailure("POST /events: \(reply.status) \(reply.text)") }
        return try IngestSummary(json: reply.body)
    }

    func metricsSnapshot() async throws -> MetricsSnapshot {
        try MetricsSnapshot(json: try await get("/metrics/summary", key: Self.metricsKey).body)
    }

    /// Every file in the dead-letter directory.
    func deadLetterFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: deadLetterDirectory).sorted()
    }
}

struct HTTPReply: Sendable {
    let status: Int
    let body: [UInt8]
    var requestID: String? = nil
    var retryAfter: String? = nil
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The `error` of an error body.
    var error: String? {
        ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any])?["error"] as? String
    }

    /// The keys of a JSON object body.
    var keys: Set<String> {
        ((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]).map { Set($0.keys) } ?? []
    }
}

/// Keeps the ids of the events the service stores, in order, each (client, id) once with a fingerprint of
/// its bytes (a known one is a duplicate with the same bytes, a conflict with others); with `capacity`,
/// refuses (throws) a batch that would take it past that many events, storing none of it.
final class RecordingStore: EventStore {
    private struct State {
        var ids: [Int64] = []
        var known: [String: [Int64: RawFingerprint]] = [:]
    }

    /// What the store keeps of a record's bytes: their length and hash. Keeping the bytes themselves would
    /// keep every body chunk a record was sliced from, the whole upload (the 200 MB test measures the
    /// process's memory); two different records of one id and length whose hashes collide (2^-64) would
    /// pass for a duplicate.
    private struct RawFingerprint: Equatable {
        let count: Int
        let hash: Int
        init(_ raw: ByteBuffer) {
            var hasher = Hasher()
            raw.withUnsafeReadableBytes { hasher.combine(bytes: $0) }
            self.count = raw.readableBytes
            self.hash = hasher.finalize()
        }
    }

    private let state = NIOLockedValueBox(State())
    private let capacity: Int

    init(capacity: Int = .max) {
        self.capacity = capacity
    }

    func store(_ batch: StoreBatch) async throws -> StoreOutcome {
        try state.withLockedValue { state in
            let new = Set(batch.events.map(\.status.id).filter { state.known[batch.client]?[$0] == nil })
            guard state.ids.count + new.count <= capacity else { throw TestFailure("the store is full") }
            var outcome = StoreOutcome()
            for (position, event) in batch.events.enumerated() {
                if let stored = state.known[batch.client]?[event.status.id] {
                    if stored == RawFingerprint(event.raw) { outcome.duplicates += 1 } else { outcome.conflicts.append(position) }
                } else {
                    state.known[batch.client, default: [:]][event.status.id] = RawFingerprint(event.raw)
                    state.ids.append(event.status.id)
                    outcome.inserted += 1
                }
            }
            return outcome
        }
    }

    func run() async throws {
        try? await gracefulShutdown()
    }

    var ids: [Int64] { state.withLockedValue { $0.ids } }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The raw bytes of a file.
func contents(of path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}
