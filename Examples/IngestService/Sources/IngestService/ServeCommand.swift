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
        if let rateLimit, !(rateLimit > 0 && rateLimit.isFinite) {
            throw ValidationError("--rate-limit must be a positive number of uploads per second")
        }
        guard maxUploadsPerClient > 0 else { throw ValidationError("--max-uploads-per-client must be positive") }
        guard idleTimeout >= 0, idleTimeout.isFinite, shutdownDelay >= 0, shutdownDelay.isFinite else {
            throw ValidationError("--idle-timeout and --shutdown-delay must be 0 or more seconds")
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
            shutdownDelay: .milliseconds(Int64(shutdownDelay * 1000)))
        let metrics = IngestMetrics()
        let database = try await store.open(metrics: metrics, logger: logger)
        try await runIngestService(
            configuration: configuration, store: database, events: discard ? DiscardingStore() : nil, metrics: metrics,
            logger: logger,
            // One JSON line per POST on standard error, whatever --log-level says of the other lines.
            uploadLog: Logger(label: "IngestService.uploads") { JSONLineLogHandler(label: $0) })
    }
}
