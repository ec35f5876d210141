// IngestService: the HTTP ingestion service of Examples/IngestService (see its README).
//
//   swift run -c release IngestService                                   # SQLite: ./ingest.sqlite
//   swift run -c release IngestService --database-url postgres://U:P@HOST:5432/DB
//   swift run -c release IngestService keys add CLIENT                     # prints a new API key
import ArgumentParser

@main
struct IngestServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "IngestService",
        abstract: "Ingests tweet events over HTTP into SQLite or PostgreSQL: POST /events (JSON Lines, streamed), POST /event, GET /metrics.",
        subcommands: [ServeCommand.self, KeysCommand.self],
        defaultSubcommand: ServeCommand.self)
}
