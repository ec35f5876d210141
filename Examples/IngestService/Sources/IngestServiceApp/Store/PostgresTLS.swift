import Foundation
import NIOSSL
import PostgresNIO

/// TLS to PostgreSQL, from the `--database-url` query: `sslmode` and `sslrootcert`, with libpq's meanings
/// (issue #37.8). Supported modes:
///
/// - `disable` (also what a URL without `sslmode` means, as before): no TLS.
/// - `prefer`: TLS when the server offers it, plain otherwise; the certificate is not checked.
/// - `require`: TLS or no connection; the certificate is not checked (encryption only), unless `sslrootcert`
///   is given, which makes it `verify-ca`, as in libpq.
/// - `verify-ca`: TLS, the server's certificate chain checked against `sslrootcert`.
/// - `verify-full`: `verify-ca` and the certificate must name the host of the URL (a DNS name, or for an IP
///   address in the URL an IP address entry).
///
/// `sslrootcert` is a PEM file of CA certificates, or `system` for the system's trust store; `verify-ca` and
/// `verify-full` without it use the system's trust store (libpq would look for `~/.postgresql/root.crt`).
/// libpq's `allow` and any other query parameter are refused at start (a typo must not silently mean no TLS).
struct PostgresTLS: Sendable {
    enum Mode: String, Sendable, CaseIterable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    let mode: Mode
    /// The PEM file named by `sslrootcert` (nil: none, or `system`).
    let rootCertificatePath: String?

    static let parameters = ["sslmode", "sslrootcert"]

    init(query: [URLQueryItem]) throws {
        var mode: Mode?
        var rootCertificate: String?
        for item in query {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let parsed = Mode(rawValue: value) else {
                    throw StoreError.invalidURL(
                        "the database URL's sslmode '\(value.prefix(40))' is not supported "
                            + "(expected one of: \(Mode.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                mode = parsed
            case "sslrootcert":
                guard !value.isEmpty else { throw StoreError.invalidURL("the database URL's sslrootcert is empty") }
                rootCertificate = value
            default:
                throw StoreError.invalidURL(
                    "the database URL's parameter '\(item.name.prefix(40))' is not supported "
                        + "(supported: \(Self.parameters.joined(separator: ", ")))")
            }
        }
        var resolved = mode ?? .disable
        if resolved == .require && rootCertificate != nil { resolved = .verifyCA }  // libpq's rule
        if rootCertificate != nil && (resolved == .disable || resolved == .prefer) {
            throw StoreError.invalidURL(
                "the database URL gives sslrootcert with sslmode=\(resolved.rawValue), which checks no certificate "
                    + "(use sslmode=verify-full)")
        }
        self.mode = resolved
        rootCertificatePath = rootCertificate == "system" ? nil : rootCertificate
    }

    /// What to say of it in messages and logs (no secret in it).
    var summary: String {
        var text = "sslmode=\(mode.rawValue)"
        if mode == .verifyCA || mode == .verifyFull { text += ", sslrootcert=\(rootCertificatePath ?? "system")" }
        return text
    }

    /// NIOSSL's client configuration for the mode; nil for `disable`. Reads the CA file (a clear error when
    /// it cannot be read or holds no certificate).
    func configuration() throws -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable:
            return nil
        case .prefer, .require:
            configuration.certificateVerification = .none
        case .verifyCA:
            configuration.certificateVerification = .noHostnameVerification
        case .verifyFull:
            configuration.certificateVerification = .fullVerification
        }
        if let path = rootCertificatePath {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw StoreError.invalidURL("the database URL's sslrootcert \(path) cannot be read")
            }
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(path)
            } catch {
                throw StoreError.invalidURL("the database URL's sslrootcert \(path) is not a PEM file of certificates")
            }
            guard !certificates.isEmpty else {
                throw StoreError.invalidURL("the database URL's sslrootcert \(path) is not a PEM file of certificates")
            }
            configuration.trustRoots = .certificates(certificates)
        } else if mode == .verifyCA || mode == .verifyFull {
            configuration.trustRoots = .default
        }
        return configuration
    }

    /// The pool's TLS setting.
    func clientTLS() throws -> PostgresClient.Configuration.TLS {
        guard let configuration = try configuration() else { return .disable }
        return mode == .prefer ? .prefer(configuration) : .require(configuration)
    }

    /// A single connection's TLS setting (the one that migrates the schema at start).
    func connectionTLS() throws -> PostgresConnection.Configuration.TLS {
        guard let configuration = try configuration() else { return .disable }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw StoreError.invalidURL("cannot make a TLS context for \(summary): \(error)")
        }
        return mode == .prefer ? .prefer(context) : .require(context)
    }

    /// A connection failure in words when TLS is why: the server offers no TLS, its certificate's chain is
    /// not trusted, or the certificate does not name `host`; nil for any other failure. (The store's
    /// message already names the URL and the mode.)
    func explain(_ error: any Error, host: String) -> String? {
        guard mode != .disable else { return nil }
        var current: (any Error)? = error
        while let error = current {
            if let psql = error as? PSQLError {
                if psql.code == .sslUnsupported { return "the server does not accept TLS connections" }
                current = psql.underlying
                continue
            }
            if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
                return "TLS refused: the server's certificate does not name the host \(host) (sslmode=verify-full)"
            }
            if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
                let text = "\(error)"
                if text.contains("CERTIFICATE_VERIFY_FAILED") {
                    return "TLS refused: the server's certificate is not signed by a trusted CA "
                        + "(sslrootcert=\(rootCertificatePath ?? "system"))"
                }
                return "TLS handshake failed: \(text)"
            }
            return nil
        }
        return nil
    }
}
