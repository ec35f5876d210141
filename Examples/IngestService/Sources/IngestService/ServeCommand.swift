import ArgumentParser
import Foundation
import Hummingbird
import IngestServiceApp
import Logging

/// `IngestService [serve] [options]`: runs the HTTP service (the default command).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Runs the HTTP service (the default command).")

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @OptionGroup var store: StoreOptions

    @Flag(help: "Accept POST requests without an API key, as client \"anonymous\" (local use only).")
    var allowAnonymous = false

    @Option(help: "Also write each upload's rejected records to a pair of files in this directory (default: off; they are in the rejected_records table).")
    var deadLetterDir: String?

    @Option(help: "The largest POST /event body, in bytes.")
    var maxEventBytes = 1 << 20

    @Option(help: "The largest POST /events body, in bytes (past it: 413, nothing more of the upload stored).")
    var maxEventsBytes = 1 << 30

    @Option(help: "The longest record (a JSON line or an array element), in bytes: a longer one is rejected as tooLarge and the upload goes on.")
    var maxRecordBytes = 1 << 20

    @Option(help: "Records stored per transaction.")
    var batchSize = 1024

    @Option(help: "How many rejected records a POST /events response lists.")
    var rejectionListLimit = 100

    @Option(help: "At most this many POST requests per second per client on this replica (a token bucket holding as many): past it 429 with Retry-After (default: no limit).")
    var rateLimit: Double?

    @Option(help: "At most this many POST requests of one client in progress at once on this replica: one more is 429 with Retry-After.")
    var maxUploadsPerClient = 4

    @Option(help: "Close a connection that sends nothing (no request, or no body bytes) for this many seconds (0: never).")
    var idleTimeout: Double = 30

    @Option(help: "After SIGTERM or SIGINT, answer GET /ready with 503 for this many seconds while still serving, then stop accepting and drain.")
    var shutdownDelay: Double = 0

    @Option(help: "A batch goes to the store once its records hold this many bytes in memory (or it has --batch-size records).")
    var batchBytes = 2 << 20

    @Option(help: "Bytes of each rejected record kept (in memory, rejected_records, dead-letter files).")
    var rejectedRawBytes = 64 << 10

    @Option(help: "The process-wide memory budget, in bytes, every upload, document and GET /rejected reserves its worst case from: past it 503 overloaded with Retry-After.")
    var memoryBudget = 160 << 20

    @Option(help: "Past this many rejected records in one upload, it stops: 422 tooManyRejected.")
    var maxRejectedPerUpload = 10_000

    @Option(help: "Past this many kept bytes of rejected records in one upload, it stops: 422 tooManyRejected.")
    var maxRejectedBytesPerUpload = 16 << 20

    @Option(help: "Rejected records kept per client: older ones are deleted after each upload that adds some.")
    var rejectedKeepPerClient = 100_000

    @Option(help: "A gzip body may inflate to at most this many times its compressed size (past its first MiB): past it 413.")
    var maxGzipRatio = 100

    @Option(help: "Connections open at once: past it a new one closes the oldest one waiting for a request head, or is closed.")
    var maxOpenConnections = 512

    @Option(help: "Connections open at once from one peer address (the same rule).")
    var maxConnectionsPerAddress = 128

    @Option(help: "Seconds a new connection may take to send its first request head before it is closed.")
    var headTimeout: Double = 10

    @Option(help: "The secret GET /metrics and GET /metrics/summary take as 'Authorization: Bearer KEY' (default: the INGEST_METRICS_KEY environment variable; with neither, they answer 401).")
    var metricsKey: String?

    @Option(help: "After SIGTERM (and --shutdown-delay), the seconds the uploads in flight may take: past it each stops, keeps what it committed, and is answered 503 shuttingDown.")
    var drainTimeout: Double = 30

    @Flag(help: "Keep no events: decode and count only (the baseline for load figures; API keys still come from the store).")
    var discard = false

    @Option(help: "The log level (trace, debug, info, notice, warning, error, critical).")
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
        guard batchSize > 0 else { throw ValidationError("--batch-size must be positive") }
        guard maxRecordBytes > 0, maxEventsBytes > 0 else {
            throw ValidationError("--max-record-bytes and --max-events-bytes must be positive")
        }
        guard rejectionListLimit >= 0 else { throw ValidationError("--rejection-list-limit must not be negative") }
        // Ranges a Duration and the token bucket's arithmetic hold (1e-19 or 1e17 crashed the process).
        if let rateLimit, !(rateLimit >= 0.001 && rateLimit <= 1_000_000) {
            throw ValidationError("--rate-limit must be from 0.001 to 1000000 uploads per second")
        }
        guard maxUploadsPerClient > 0 else { throw ValidationError("--max-uploads-per-client must be positive") }
        let day = 86_400.0
        guard (0...(365 * day)).contains(idleTimeout), (0...day).contains(shutdownDelay) else {
            throw ValidationError("--idle-timeout must be 0 to 31536000 seconds, --shutdown-delay 0 to 86400")
        }
        guard drainTimeout > 0, drainTimeout <= day else { throw ValidationError("--drain-timeout must be over 0 and at most 86400 seconds") }
        if let metricsKey, metricsKey.count < 16 { throw ValidationError("--metrics-key must be at least 16 characters") }
        guard headTimeout > 0, headTimeout <= day else { throw ValidationError("--head-timeout must be over 0 and at most 86400 seconds") }
        guard batchBytes > 0, rejectedRawBytes > 0, memoryBudget > 0, maxRejectedPerUpload > 0,
            maxRejectedBytesPerUpload > 0, rejectedKeepPerClient > 0, maxGzipRatio > 0, maxOpenConnections > 0,
            maxConnectionsPerAddress > 0
        else {
            throw ValidationError(
                "--batch-bytes, --rejected-raw-bytes, --memory-budget, --max-rejected-per-upload, --max-rejected-bytes-per-upload, --rejected-keep-per-client, --max-gzip-ratio, --max-open-connections and --max-connections-per-address must be positive"
            )
        }
    }

    func run() async throws {
        var logger = Logger(label: "IngestService")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let configuration = IngestConfiguration(
            host: host, port: port, deadLetterDirectory: deadLetterDir, maxEventBodySize: maxEventBytes,
            maxEventsBodySize: maxEventsBytes, maxRecordSize: maxRecordBytes, rejectionListLimit: rejectionListLimit,
            storeBatchSize: batchSize, allowAnonymous: allowAnonymous, rateLimit: rateLimit,
            maxUploadsPerClient: maxUploadsPerClient,
            idleTimeout: idleTimeout > 0 ? .milliseconds(Int64(idleTimeout * 1000)) : nil,
            shutdownDelay: .milliseconds(Int64(shutdownDelay * 1000)),
            maxBatchBytes: batchBytes, rejectedRawBytes: rejectedRawBytes, memoryBudget: memoryBudget,
            maxRejectedPerUpload: maxRejectedPerUpload, maxRejectedBytesPerUpload: maxRejectedBytesPerUpload,
            rejectedKeptPerClient: rejectedKeepPerClient, maxInflationRatio: maxGzipRatio,
            maxOpenConnections: maxOpenConnections, maxConnectionsPerAddress: maxConnectionsPerAddress,
            headTimeout: .milliseconds(Int64(headTimeout * 1000)),
            metricsKey: metricsKey ?? ProcessInfo.processInfo.environment["INGEST_METRICS_KEY"].flatMap { $0.isEmpty ? nil : $0 },
            drainTimeout: .milliseconds(Int64(drainTimeout * 1000)))
        let metrics = IngestMetrics()
        let database = try await store.open(metrics: metrics, logger: logger)
        try await runIngestService(
            configuration: configuration, store: database, events: discard ? DiscardingStore() : nil, metrics: metrics,
            logger: logger,
            // One JSON line per POST on standard error, whatever --log-level says of the other lines.
            uploadLog: Logger(label: "IngestService.uploads") { JSONLineLogHandler(label: $0) })
    }
}
