import Foundation
import Logging
import NIOConcurrencyHelpers

/// What became of one POST, for its log line: filled in by the route as it learns it.
final class UploadOutcome: @unchecked Sendable {
    private let lock = NIOLock()
    private var _client: String?
    private var _summary: IngestSummary?

    var client: String? {
        get { lock.withLock { _client } }
        set { lock.withLock { _client = newValue } }
    }
    var summary: IngestSummary? {
        get { lock.withLock { _summary } }
        set { lock.withLock { _summary = newValue } }
    }
}

/// One line per POST (issue #37, point 7), through swift-log: `message` "upload" with the request id,
/// route, peer address, client, status, error code (if any), counts, bytes, upload id and duration as
/// metadata. The server gives it a ``JSONLineLogHandler`` on standard error, so each upload is one JSON
/// object a log shipper reads as it is.
///
/// Refusals of requests from no known client (401: no key, a wrong one) are logged at most
/// ``refusalLinesPerSecond`` a second (a token bucket as deep; issue #44.7: a keyless flood wrote 226 bytes
/// a request at 4,668 a second): the others are counted, and the next refusal logged carries that count as
/// `refusalsNotLogged` (every refusal is still counted in `ingest_refused_requests_total`).
struct UploadLog: Sendable {
    let logger: Logger
    private let refusals: RateLimiter
    private let notLogged = NIOLockedValueBox(0)

    static let refusalLinesPerSecond = 10.0

    init(logger: Logger, clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.logger = logger
        refusals = RateLimiter(rate: Self.refusalLinesPerSecond, clock: clock)
    }

    func record(
        route: String, requestID: String, peer: String? = nil, outcome: UploadOutcome, status: Int, error: String?,
        duration: Duration
    ) {
        var metadata: Logger.Metadata = [
            "requestId": "\(requestID)", "route": "\(route)", "status": .stringConvertible(status),
            "durationSeconds": .stringConvertible(duration.seconds),
        ]
        if outcome.client == nil, (400..<500).contains(status) {
            guard refusals.take(for: "") == nil else {
                notLogged.withLockedValue { $0 += 1 }
                return
            }
            let skipped = notLogged.withLockedValue { count in
                defer { count = 0 }
                return count
            }
            if skipped > 0 { metadata["refusalsNotLogged"] = .stringConvertible(skipped) }
        }
        if let peer { metadata["peer"] = "\(peer)" }
        if let client = outcome.client { metadata["client"] = "\(client)" }
        if let error { metadata["error"] = "\(error)" }
        if let summary = outcome.summary {
            metadata["accepted"] = .stringConvertible(summary.accepted)
            metadata["duplicates"] = .stringConvertible(summary.duplicates)
            metadata["conflicts"] = .stringConvertible(summary.conflicts)
            metadata["rejected"] = .stringConvertible(summary.rejected)
            metadata["bytes"] = .stringConvertible(summary.bytes)
            if !summary.uploadId.isEmpty { metadata["uploadId"] = "\(summary.uploadId)" }
        }
        logger.info("upload", metadata: metadata)
    }
}

/// A swift-log handler that writes each message as one JSON object on one line: `time` (ISO 8601),
/// `level`, `label`, `message`, then the metadata's keys (numbers stay numbers). One `write` per line
/// under a lock, so concurrent uploads' lines never interleave.
public struct JSONLineLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let output: JSONLineOutput

    /// Writes to standard error.
    public init(label: String) {
        self.init(label: label, output: .standardError)
    }

    init(label: String, output: JSONLineOutput) {
        self.label = label
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: Any] = [
            "time": Date().formatted(.iso8601), "level": event.level.rawValue, "label": label,
            "message": event.message.description,
        ]
        for (key, value) in self.metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[key] = Self.json(value)
        }
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        data.append(UInt8(ascii: "\n"))
        output.write(data)
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): return string
        case .stringConvertible(let convertible):
            switch convertible {
            case let int as Int: return int
            case let double as Double: return double
            case let bool as Bool: return bool
            default: return convertible.description
            }
        case .array(let values): return values.map(json)
        case .dictionary(let values): return values.mapValues(json)
        }
    }
}

/// Where JSON lines go (standard error), one locked write each.
final class JSONLineOutput: Sendable {
    static let standardError = JSONLineOutput(handle: .standardError)

    private let handle: NIOLockedValueBox<FileHandle>

    init(handle: FileHandle) {
        self.handle = NIOLockedValueBox(handle)
    }

    func write(_ data: Data) {
        handle.withLockedValue { try? $0.write(contentsOf: data) }
    }
}
