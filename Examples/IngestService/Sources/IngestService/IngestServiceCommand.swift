// IngestService: the HTTP ingestion service of Examples/IngestService (see its README).
//
//   swift run -c release IngestService --port 8080 --dead-letter-dir /tmp/dead-letters
import ArgumentParser
import Hummingbird
import IngestServiceApp
import Logging

@main
struct IngestServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "IngestService",
        abstract: "Ingests tweet events over HTTP: POST /events (JSON Lines, streamed), POST /event, GET /metrics.")

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @Option(help: "Where rejected records are written, one pair of files per POST /events request.")
    var deadLetterDir = "dead-letters"

    @Option(help: "The largest POST /event body, in bytes.")
    var maxEventBytes = 1 << 20

    @Option(help: "The largest POST /events body, in bytes (default: no limit; the body is streamed).")
    var maxEventsBytes: Int?

    @Option(help: "The longest line POST /events accepts, in bytes (bounds memory per request).")
    var maxRecordBytes = 4 << 20

    @Option(help: "How many rejected records a POST /events response lists.")
    var rejectionListLimit = 100

    @Option(help: "The log level (trace, debug, info, notice, warning, error, critical).")
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown log level '\(logLevel)'")
        }
    }

    func run() async throws {
        var logger = Logger(label: "IngestService")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let configuration = IngestConfiguration(
            host: host, port: port, deadLetterDirectory: deadLetterDir, maxEventBodySize: maxEventBytes,
            maxEventsBodySize: maxEventsBytes, maxRecordSize: maxRecordBytes, rejectionListLimit: rejectionListLimit)
        let app = try buildApplication(configuration: configuration, logger: logger)
        try await app.runService()
    }
}
