import AsyncHTTPClient
import Crypto
import Foundation
import IngestServiceApp
import NIOCore
import SQLiteNIO
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// API keys through the real executable: `keys add|list|revoke`, `Authorization: Bearer KEY` on POSTs,
/// 401 without a valid key, rotation, revocation seen by every replica within 10 seconds.
@Suite("API keys", .serialized)
struct AuthTests {
    /// The SQLite store: keys made by the CLI, stored as hashes; POSTs without a valid key are 401 with
    /// a Bearer challenge and store nothing; two keys of one client work at once; a revoked key stops
    /// working within 10 s, the other goes on.
    @Test func keysAndBearerAuthOnSQLite() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let store = ["--sqlite-path", path]
            let first = try KeyCommand.add("alice", store)
            let second = try KeyCommand.add("alice", store)
            let other = try KeyCommand.add("bob", store)
            #expect(Set([first, second, other]).count == 3)
            #expect(first.hasPrefix("ik_") && first.count >= 3 + 12 + 1 + 22)

            let listing = try KeyCommand.run(["keys", "list"] + store)
            #expect(listing.status == 0)
            #expect(listing.output.components(separatedBy: "alice").count - 1 == 2)
            for key in [first, second, other] {
                #expect(!listing.output.contains(key), "keys list shows a key")
                #expect(listing.output.contains(KeyCommand.keyID(key)))
            }
            // Only the SHA-256 is stored.
            let database = try await TestDatabase(path: path)
            let rows = try await database.connection.query("SELECT client, key_id, key_hash FROM api_keys ORDER BY client, key_id")
            #expect(rows.count == 3)
            for row in rows {
                let hash = row.column("key_hash")?.blob.map { Array($0.readableBytesView) } ?? []
                let key = [first, second, other].first { KeyCommand.keyID($0) == row.column("key_id")?.string }
                #expect(hash == Array(SHA256.hash(data: Data((key ?? "").utf8))))
            }
            try await database.close()

            let service = try ServiceProcess(store, allowAnonymous: false)
            let line = ByteBuffer(string: TweetLines.tweet(id: 1, index: 1) + "\n")
            let anonymous = try await service.post("/events", body: line, key: nil)
            #expect(anonymous.status == 401)
            #expect(anonymous.wwwAuthenticate == "Bearer")
            #expect(try await service.post("/events", body: line, key: "Basic abc", raw: true).status == 401)
            #expect(try await service.post("/events", body: line, key: "ik_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAA").status == 401)
            #expect(try await service.post("/event", body: line, key: nil).status == 401)
            #expect(try await service.post("/events", body: line, key: first).status == 200)
            #expect(try await service.post("/events", body: line, key: second).status == 200)
            #expect(try await service.post("/event", body: line, key: other).status == 200)

            let revoke = try KeyCommand.run(["keys", "revoke", "--key", first] + store)
            #expect(revoke.status == 0, "\(revoke.errors)")
            let revokedAt = ContinuousClock.now
            var refused = false
            while !refused, ContinuousClock.now - revokedAt < .seconds(12) {
                refused = try await service.post("/events", body: line, key: first).status == 401
                if !refused { try await Task.sleep(for: .milliseconds(200)) }
            }
            let took = ContinuousClock.now - revokedAt
            #expect(refused && took < .seconds(10), "the revoked key still worked after \(took)")
            #expect(try await service.post("/events", body: line, key: second).status == 200)
            #expect(try KeyCommand.run(["keys", "revoke", "--key", first] + store).status == 1, "revoked twice")
            service.signal(SIGTERM)
            #expect(await service.exitStatus() == 0)

            let after = try await TestDatabase(path: path)
            // Alice's event and Bob's (an id belongs to its client); the refused POSTs stored nothing.
            #expect(try await after.events().map(\.id) == [1, 1])
            try await after.close()
        }
    }

    /// Two replicas on one PostgreSQL database: a key added by the CLI works on both; once revoked, both
    /// refuse it within 10 s, while the client's other key goes on working.
    @Test(.enabled(if: PostgresStoreTests.url != nil || PostgresStoreTests.isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL"))
    func revokedKeyStopsWorkingOnEveryReplica() async throws {
        guard let url = try await PostgresStoreTests.freshDatabase() else { return }
        let store = ["--database-url", url]
        let key = try KeyCommand.add("carol", store)
        let spare = try KeyCommand.add("carol", store)
        let replicas = try [1, 2].map { _ in try ServiceProcess(store, allowAnonymous: false) }
        let line = ByteBuffer(string: TweetLines.tweet(id: 3, index: 3) + "\n")
        for replica in replicas {
            #expect(try await replica.post("/events", body: line, key: nil).status == 401)
            #expect(try await replica.post("/events", body: line, key: key).status == 200)
        }
        #expect(try KeyCommand.run(["keys", "revoke", "--key", key] + store).status == 0)
        let revokedAt = ContinuousClock.now
        for replica in replicas {
            var refused = false
            while !refused, ContinuousClock.now - revokedAt < .seconds(12) {
                refused = try await replica.post("/events", body: line, key: key).status == 401
                if !refused { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(refused, "a replica still took the revoked key after 12 s")
        }
        let took = ContinuousClock.now - revokedAt
        #expect(took < .seconds(10), "the last replica refused the revoked key after \(took)")
        for replica in replicas {
            #expect(try await replica.post("/events", body: line, key: spare).status == 200)
            replica.signal(SIGTERM)
            #expect(await replica.exitStatus() == 0, "\(replica.standardError())")
        }
    }
}

/// Runs the `IngestService keys …` commands of the built executable.
enum KeyCommand {
    /// `keys add CLIENT`: the key printed alone on the last line of standard output.
    static func add(_ client: String, _ store: [String]) throws -> String {
        let result = try run(["keys", "add", client] + store)
        guard result.status == 0, let key = result.output.split(separator: "\n").last.map(String.init) else {
            throw TestFailure("keys add: \(result.status) \(result.errors)")
        }
        return key
    }

    /// The key id inside a key (`ik_<id>_<secret>`).
    static func keyID(_ key: String) -> String {
        String(key.split(separator: "_")[1])
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = try ServiceProcess.executable()
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
