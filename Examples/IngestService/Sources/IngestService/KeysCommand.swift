import ArgumentParser
import Foundation
import IngestServiceApp
import Logging

/// `IngestService keys add|revoke|list`: the API keys in the store's `api_keys` table.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Adds, revokes and lists API keys (POST requests need one).",
        subcommands: [Add.self, Revoke.self, List.self])

    /// Runs `body` with the store open (for PostgreSQL, its pool running), then closes it.
    static func withStore<R: Sendable>(
        _ options: StoreOptions, _ body: @Sendable (any EventStore & KeyStore) async throws -> R
    ) async throws -> R {
        var logger = Logger(label: "IngestService")
        logger.logLevel = .warning
        let store = try await options.open(metrics: nil, logger: logger)
        if let sqlite = store as? SQLiteStore {
            let result: Result<R, any Error>
            do { result = .success(try await body(sqlite)) } catch { result = .failure(error) }
            try await sqlite.close()
            return try result.get()
        }
        // PostgreSQL: the pool lends connections while it runs; cancelling its run closes it.
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.run() }
            let result: Result<R, any Error>
            do { result = .success(try await body(store)) } catch { result = .failure(error) }
            group.cancelAll()
            try? await group.waitForAll()
            return try result.get()
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Makes a new key for CLIENT and prints it, alone, on the last line (only its SHA-256 is stored).")

        @Argument(help: "The client the key belongs to (its records are its own).")
        var client: String

        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard !client.isEmpty, client.count <= 200 else { throw ValidationError("CLIENT must be 1 to 200 characters") }
        }

        func run() async throws {
            let key = APIKey.generate()
            let client = self.client
            try await KeysCommand.withStore(store) { store in
                try await store.addKey(APIKeyRecord(client: client, keyID: key.keyID, keyHash: key.hash, created: Date()))
            }
            print("added key \(key.keyID) for client \(client); it is shown once:")
            print(key.text)
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Revokes a key: every replica refuses it within 10 seconds.")

        @Option(help: "The key to revoke.")
        var key: String

        @OptionGroup var store: StoreOptions

        func run() async throws {
            guard let key = APIKey(key) else {
                FileHandle.standardError.write(Data("IngestService: that is not an API key\n".utf8))
                throw ExitCode(1)
            }
            let revoked = try await KeysCommand.withStore(store) { store in
                try await store.revokeKey(keyID: key.keyID, keyHash: key.hash)
            }
            guard revoked else {
                FileHandle.standardError.write(Data("IngestService: no such key (or already revoked)\n".utf8))
                throw ExitCode(1)
            }
            print("revoked key \(key.keyID)")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Lists clients, key ids and dates (never keys).")

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let keys = try await KeysCommand.withStore(store) { store in try await store.listKeys() }
            print("client\tkey id\tcreated\trevoked")
            for key in keys {
                let revoked = key.revoked.map { $0.formatted(.iso8601) } ?? "-"
                print("\(key.client)\t\(key.keyID)\t\(key.created.formatted(.iso8601))\t\(revoked)")
            }
        }
    }
}
