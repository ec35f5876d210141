/// Where the API keys are kept: the `api_keys` table of the service's own store (SQLite or PostgreSQL),
/// so that every replica on one database sees the same keys.
public protocol KeyStore: Sendable {
    /// Adds a key (its hash only).
    func addKey(_ key: APIKeyRecord) async throws
    /// Marks the key with this id and hash revoked; false when there is no such unrevoked key.
    func revokeKey(keyID: String, keyHash: [UInt8]) async throws -> Bool
    /// Every key, revoked ones included, oldest first.
    func listKeys() async throws -> [APIKeyRecord]
}
