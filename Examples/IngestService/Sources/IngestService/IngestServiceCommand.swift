// IngestService: the HTTP ingestion service of Examples/IngestService (see its README).
//
//   swift run -c release IngestService                                   # SQLite: ./ingest.sqlite
//   swift run -c release IngestService --database-url postgres://U:P@HOST:5432/DB
import ArgumentParser
import Foundation
import Hummingbird
import IngestServiceApp
import Logging

@main
struct IngestServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "IngestService",
        abstract: "Ingests tweet events over HTTP into SQLite or PostgreSQL: POST /events (JSON Lines, streamed), POST /event, GET /metrics.")

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @Option(help: "The SQLite database file (the default store; created if missing).")
    var sqlitePath: String?

    @Option(help: "A PostgreSQL database instead of SQLite: postgres://USER:PASS@HOST:PORT/DB (for replicas).")
    var databaseURL: String?

    @Option(help: "PostgreSQL: the most connections the pool opens.")
    var maxConnections = 8

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

    @Flag(help: "Keep nothing: decode and count only (the baseline for load figures).")
    var discard = false

    @Option(help: "The log level (trace, debug, info, notice, warning, error, critical).")
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
        if databaseURL != nil && sqlitePath != nil {
            throw ValidationError("give --sqlite-path or --database-url, not both")
        }
        guard batchSize > 0 else { throw ValidationError("--batch-size must be positive") }
        guard maxRecordBytes > 0, maxEventsBytes > 0 else {
            throw ValidationError("--max-record-bytes and --max-events-bytes must be positive")
        }
        guard rejectionListLimit >= 0 else { throw ValidationError("--rejection-list-limit must not be negative") }
    }

    func run() async throws {
        var logger = Logger(label: "IngestService")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let configuration = IngestConfiguration(
            host: host, port: port, deadLetterDirectory: deadLetterDir, maxEventBodySize: maxEventBytes,
            maxEventsBodySize: maxEventsBytes, maxRecordSize: maxRecordBytes, rejectionListLimit: rejectionListLimit,
            storeBatchSize: batchSize)
        let metrics = IngestMetrics()
        let store: any EventStore
        do {
            if discard {
                store = DiscardingStore()
            } else if let databaseURL {
                store = try await PostgresStore.open(
                    url: databaseURL, maxConnections: maxConnections, metrics: metrics, logger: logger)
            } else {
                let path = sqlitePath ?? "ingest.sqlite"
                store = try await SQLiteStore.open(path: path, metrics: metrics, logger: logger)
                logger.info("storing into SQLite at \(path)")
            }
        } catch let error as StoreError {
            // A clear message and a non-zero exit, not a stack of NIO errors.
            FileHandle.standardError.write(Data("IngestService: \(error)\n".utf8))
            throw ExitCode(2)
        }
        try await runIngestService(configuration: configuration, store: store, metrics: metrics, logger: logger)
    }
}
