import ArgumentParser
import Foundation
import IngestServiceApp
import Logging

/// Which database the service (or a `keys` command) uses: SQLite by default, PostgreSQL with a URL.
struct StoreOptions: ParsableArguments {
    @Option(help: "The SQLite database file (the default store; created if missing; default: ingest.sqlite).")
    var sqlitePath: String?

    @Option(
        help: """
            A PostgreSQL database instead of SQLite: postgres://USER:PASS@HOST:PORT/DB (for replicas); TLS with \
            ?sslmode=disable|prefer|require|verify-ca|verify-full[&sslrootcert=CA.pem] (libpq's meanings; default disable).
            """)
    var databaseURL: String?

    @Option(help: "PostgreSQL: the most connections the pool opens (batches take at most all but one).")
    var maxConnections = 8

    @Option(help: "SQLite: GET /ready is 503 while the database's file system has fewer bytes free than this.")
    var minFreeDisk = 64 << 20

    func validate() throws {
        if databaseURL != nil && sqlitePath != nil {
            throw ValidationError("give --sqlite-path or --database-url, not both")
        }
        guard maxConnections > 0, minFreeDisk >= 0 else {
            throw ValidationError("--max-connections must be positive, --min-free-disk not negative")
        }
    }

    /// Opens the store; a database that cannot be used is one line on standard error and exit code 2.
    func open(metrics: IngestMetrics?, logger: Logger) async throws -> any EventStore & KeyStore {
        do {
            if let databaseURL {
                return try await PostgresStore.open(
                    url: databaseURL, maxConnections: maxConnections, metrics: metrics, logger: logger)
            }
            let path = sqlitePath ?? "ingest.sqlite"
            let store = try await SQLiteStore.open(path: path, metrics: metrics, logger: logger, minFreeBytes: minFreeDisk)
            logger.info("storing into SQLite at \(path)")
            return store
        } catch let error as StoreError {
            // A clear message and a non-zero exit, not a stack of NIO errors.
            FileHandle.standardError.write(Data("IngestService: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
