import Foundation
import IngestServiceApp
import NIOCore
import Testing

/// TLS to PostgreSQL (issue #37.8) against the local server scripts/test-ingest-service starts with a
/// self-signed CA: INGEST_TEST_PG_TLS_URL (role `ingest_tls`, which pg_hba.conf refuses without TLS; host
/// `localhost`, the one name in the server's certificate) and INGEST_TEST_PG_TLS_DIR (ca.pem, the CA that signed
/// it; other-ca.pem, one that did not). Without them these tests skip with a message, except under CI=true,
/// where they fail.
@Suite("PostgreSQL TLS", .serialized)
struct PostgresTLSTests {
    static let url = ProcessInfo.processInfo.environment["INGEST_TEST_PG_TLS_URL"]
    static let directory = ProcessInfo.processInfo.environment["INGEST_TEST_PG_TLS_DIR"]
    static let available = url != nil && directory != nil
    static let skipReason: Comment =
        "no PostgreSQL server with TLS: set INGEST_TEST_PG_TLS_URL and INGEST_TEST_PG_TLS_DIR (scripts/test-ingest-service does)"

    /// The TLS URL with `host` instead of its own and the query given; nil (a recorded failure under CI)
    /// without the environment.
    static func url(host: String? = nil, _ query: String) -> String? {
        guard let url, let directory else {
            if PostgresStoreTests.isCI {
                Issue.record("CI=true but INGEST_TEST_PG_TLS_URL / INGEST_TEST_PG_TLS_DIR are not set: no PostgreSQL TLS to test")
            }
            return nil
        }
        var text = url
        if let host { text = text.replacingOccurrences(of: "@localhost:", with: "@\(host):") }
        return text + "?" + query.replacingOccurrences(of: "$DIR", with: directory)
    }

    /// Opens the store, stores a few events through its pool and answers the pool's session TLS version.
    static func storeAndReadTLS(_ url: String) async throws -> String? {
        let store = try await PostgresStore.open(url: url, timeout: .seconds(10))
        return try await TestServer.with(store: store, { $0.deadLetterDirectory = nil }) { server in
            let lines = TweetLines(corruptEvery: 0)
            let (body, sent) = lines.body(lines: 20)
            let summary = try await server.postEvents(.bytes(body))
            #expect(summary.accepted + summary.duplicates == sent.acceptedIDs.count)
            return try await store.sessionTLSVersion()
        }
    }

    /// Opening must fail with a StoreError; its text is returned.
    static func refusal(_ url: String) async -> String? {
        do {
            _ = try await PostgresStore.open(url: url, timeout: .seconds(10))
            Issue.record("opened \(url)")
            return nil
        } catch let error as StoreError {
            return "\(error)"
        } catch {
            Issue.record("not a StoreError: \(String(reflecting: error))")
            return nil
        }
    }

    @Test(.enabled(if: available || PostgresStoreTests.isCI, skipReason))
    func requireEncryptsWithoutCheckingTheCertificate() async throws {
        guard let url = Self.url("sslmode=require") else { return }
        let version = try await Self.storeAndReadTLS(url)
        #expect(version?.hasPrefix("TLS") == true, "pg_stat_ssl: \(version ?? "no TLS")")
        // Encryption only: the host name is not checked either.
        guard let byAddress = Self.url(host: "127.0.0.1", "sslmode=require") else { return }
        #expect(try await Self.storeAndReadTLS(byAddress) != nil)
    }

    @Test(.enabled(if: available || PostgresStoreTests.isCI, skipReason))
    func verifyFullWithTheCAConnects() async throws {
        guard let url = Self.url("sslmode=verify-full&sslrootcert=$DIR/ca.pem") else { return }
        let version = try await Self.storeAndReadTLS(url)
        #expect(version?.hasPrefix("TLS") == true, "pg_stat_ssl: \(version ?? "no TLS")")
    }

    @Test(.enabled(if: available || PostgresStoreTests.isCI, skipReason))
    func verifyFullWithAnotherCAIsRefused() async throws {
        guard let url = Self.url("sslmode=verify-full&sslrootcert=$DIR/other-ca.pem") else { return }
        let message = await Self.refusal(url)
        #expect(message?.contains("TLS refused: the server's certificate is not signed by a trusted CA") == true, "\(message ?? "")")
        #expect(message?.contains("sslmode=verify-full") == true, "\(message ?? "")")
        #expect(message?.contains(":ingest_tls@") == false, "no password in \(message ?? "")")
        // The same with require and a root certificate: libpq makes that verify-ca.
        guard let require = Self.url("sslmode=require&sslrootcert=$DIR/other-ca.pem") else { return }
        let requireMessage = await Self.refusal(require)
        #expect(requireMessage?.contains("sslmode=verify-ca") == true, "\(requireMessage ?? "")")
    }

    /// The certificate names `localhost` only: verify-full to 127.0.0.1 is refused, verify-ca (the chain
    /// only) connects.
    @Test(.enabled(if: available || PostgresStoreTests.isCI, skipReason))
    func verifyFullChecksTheHostName() async throws {
        guard let url = Self.url(host: "127.0.0.1", "sslmode=verify-full&sslrootcert=$DIR/ca.pem") else { return }
        let message = await Self.refusal(url)
        #expect(message?.contains("TLS refused: the server's certificate does not name the host 127.0.0.1") == true, "\(message ?? "")")
        guard let chainOnly = Self.url(host: "127.0.0.1", "sslmode=verify-ca&sslrootcert=$DIR/ca.pem") else { return }
        #expect(try await Self.storeAndReadTLS(chainOnly) != nil)
    }

    /// The role may only connect over TLS (pg_hba.conf's hostnossl … reject): disable is refused; prefer
    /// takes TLS since the server offers it.
    @Test(.enabled(if: available || PostgresStoreTests.isCI, skipReason))
    func disableIsRefusedByATLSOnlyServerAndPreferEncrypts() async throws {
        guard let url = Self.url("sslmode=disable") else { return }
        let message = await Self.refusal(url)
        #expect(message?.contains("no encryption") == true, "the server's pg_hba.conf refusal: \(message ?? "")")
        guard let prefer = Self.url("sslmode=prefer") else { return }
        #expect(try await Self.storeAndReadTLS(prefer) != nil)
    }

    /// Bad TLS parameters: a clear error at start, before any connection, with no secret in it.
    @Test func badTLSParametersFailAtStart() async throws {
        let notPEM = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-ca-\(UUID().uuidString).pem").path
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: notPEM))
        defer { try? FileManager.default.removeItem(atPath: notPEM) }
        for (query, expected) in [
            ("sslmode=verify-everything", "sslmode 'verify-everything' is not supported"),
            ("sslmode=allow", "sslmode 'allow' is not supported"),
            ("sslmode=", "sslmode '' is not supported"),
            ("sslmode=require&sslcompression=1", "parameter 'sslcompression' is not supported"),
            ("sslmode=verify-full&sslrootcert=/nonexistent/ca.pem", "sslrootcert /nonexistent/ca.pem cannot be read"),
            ("sslmode=disable&sslrootcert=/nonexistent/ca.pem", "checks no certificate"),
            ("sslmode=verify-full&sslrootcert=\(notPEM)", "not a PEM file"),
        ] {
            let url = "postgres://u:s3cret@127.0.0.1:1/db?\(query)"
            do {
                _ = try await PostgresStore.open(url: url, timeout: .seconds(2))
                Issue.record("\(query): opened")
            } catch let error as StoreError {
                #expect("\(error)".contains(expected), "\(query): \(error)")
                #expect(!"\(error)".contains("s3cret"), "\(query): \(error)")
                #expect(!"\(error)".contains("127.0.0.1:1"), "\(query): refused before connecting: \(error)")
            }
        }
    }
}
