import Crypto
import Foundation

/// An API key: `ik_<key id>_<secret>`. The key id (12 hex digits) names the key in `api_keys` and in
/// `keys list`; the secret is 32 random bytes (256 bits, base64url). Only the SHA-256 of the whole key is
/// stored; the key itself is printed once, by `keys add`.
public struct APIKey: Sendable {
    /// The key as the client sends it.
    public let text: String
    /// The key's public part (`api_keys.key_id`).
    public let keyID: String

    /// A new random key (the system's cryptographically secure generator).
    public static func generate() -> APIKey {
        var rng = SystemRandomNumberGenerator()
        let id = (0..<6).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &rng)) }.joined()
        let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })
            .base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return APIKey(text: "ik_\(id)_\(secret)", keyID: id)
    }

    private init(text: String, keyID: String) {
        self.text = text
        self.keyID = keyID
    }

    /// Parses a key as given (a bearer token); nil when it does not have a key's form.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "ik", parts[1].count == 12, parts[1].allSatisfy(\.isHexDigit),
            parts[2].count >= 22, parts[2].utf8.count <= 128
        else { return nil }
        self.text = String(text)
        keyID = String(parts[1])
    }

    /// The SHA-256 of the key's text: what `api_keys.key_hash` holds.
    public var hash: [UInt8] { Array(SHA256.hash(data: Data(text.utf8))) }

    /// Whether two hashes are equal, in time that does not depend on where they differ.
    static func hashesMatch(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}

/// A row of `api_keys`.
public struct APIKeyRecord: Sendable {
    public var client: String
    public var keyID: String
    public var keyHash: [UInt8]
    public var created: Date
    public var revoked: Date?

    public init(client: String, keyID: String, keyHash: [UInt8], created: Date, revoked: Date? = nil) {
        self.client = client
        self.keyID = keyID
        self.keyHash = keyHash
        self.created = created
        self.revoked = revoked
    }
}
