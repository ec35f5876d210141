import AsyncHTTPClient
import Foundation
import Hummingbird
import IngestServiceApp
import Logging
import ModelMapper
import NIOCore
import ServiceLifecycle
import Synchronization

/// The real service on a loopback port chosen by the system, with a fresh dead-letter directory and a
/// sink that records every event it is given.
struct TestServer: Sendable {
    let port: Int
    let sink: RecordingSink
    let metrics: IngestMetrics
    let deadLetterDirectory: String

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts a server, runs `body` against it, stops it.
    static func with<R: Sendable>(
        sink: RecordingSink = RecordingSink(),
        _ adjust: @Sendable (inout IngestConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> R
    ) async throws -> R {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ingest-service-tests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = IngestConfiguration(host: "127.0.0.1", port: 0, deadLetterDirectory: directory)
        adjust(&configuration)
        let metrics = IngestMetrics()
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "IngestServiceTests")
        logger.logLevel = .error
        let app = try buildApplication(
            configuration: configuration, sink: sink, metrics: metrics, logger: logger,
            onServerRunning: { channel in
                portSink.yield(channel.localAddress?.port ?? 0)
                portSink.finish()
            })
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                await services.triggerGracefulShutdown()
                throw TestFailure("the server did not report a port")
            }
            let server = TestServer(port: port, sink: sink, metrics: metrics, deadLetterDirectory: directory)
            let result: Result<R, any Error>
            do { result = .success(try await body(server)) } catch { result = .failure(error) }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return try result.get()
        }
    }

    // MARK: Requests

    /// POSTs `body` and returns the status and body.
    func post(_ path: String, contentType: String?, body: HTTPClientRequest.Body) async throws -> HTTPReply {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        request.body = body
        return try await send(request)
    }

    func get(_ path: String) async throws -> HTTPReply {
        try await send(HTTPClientRequest(url: baseURL + path))
    }

    private func send(_ request: HTTPClientRequest) async throws -> HTTPReply {
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
        let body = try await response.body.collect(upTo: 64 << 20)
        return HTTPReply(status: Int(response.status.code), body: Array(body.readableBytesView))
    }

    /// POSTs a JSON Lines body to /events and decodes the summary (failing unless the status is 200).
    func postEvents(
        _ body: HTTPClientRequest.Body, contentType: String = "application/x-ndjson"
    ) async throws
        -> IngestSummary
    {
        let reply = try await post("/events", contentType: contentType, body: body)
        guard reply.status == 200 else { throw TestFailure("POST /events: \(reply.status) \(reply.text)") }
        return try IngestSummary(json: reply.body)
    }

    func metricsSnapshot() async throws -> MetricsSnapshot {
        try MetricsSnapshot(json: try await get("/metrics").body)
    }

    /// Every file in the dead-letter directory.
    func deadLetterFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: deadLetterDirectory).sorted()
    }
}

struct HTTPReply: Sendable {
    let status: Int
    let body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Records the ids of the events the service hands over, in order; with `capacity`, refuses (throws)
/// a batch that would take it past that many events.
final class RecordingSink: EventSink {
    private let state = Mutex<[Int64]>([])
    private let capacity: Int

    init(capacity: Int = .max) {
        self.capacity = capacity
    }

    func consume(_ events: [Status]) async throws {
        try state.withLock {
            guard $0.count + events.count <= capacity else { throw TestFailure("the sink is full") }
            $0 += events.map(\.id)
        }
    }

    var ids: [Int64] { state.withLock { $0 } }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The raw bytes of a file.
func contents(of path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}
