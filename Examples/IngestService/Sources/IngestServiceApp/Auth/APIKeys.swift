import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// The API keys the service accepts, held in memory and refreshed from the ``KeyStore`` in the
/// background, so that checking a request's key costs no database round trip, and a key revoked on any
/// replica stops working on every replica within the refresh interval (2 s) plus one query.
///
/// A key is looked up by its id (the public part of the key) and then its SHA-256 compared with the
/// stored one in constant time. If a refresh fails (the database is away) the keys of the last good
/// refresh stay in use and the failure is logged.
public final class APIKeys: Service, Sendable {
    private struct Entry {
        let client: String
        let hash: [UInt8]
    }

    private let store: any KeyStore
    private let interval: Duration
    private let logger: Logger
    private struct State {
        var keys: [String: Entry] = [:]
        /// Whether the keys were read at least once; requests before that wait for it.
        var loaded = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    /// - Parameter refreshInterval: how often the keys are read again (revocations take effect within it).
    public init(store: any KeyStore, refreshInterval: Duration = .seconds(2), logger: Logger = Logger(label: "IngestService.Keys")) {
        self.store = store
        interval = refreshInterval
        self.logger = logger
    }

    /// Reads the keys again.
    public func refresh() async throws {
        var keys: [String: Entry] = [:]
        for key in try await store.listKeys() where key.revoked == nil {
            keys[key.keyID] = Entry(client: key.client, hash: key.keyHash)
        }
        let waiters = state.withLockedValue { state in
            state.keys = keys
            state.loaded = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The client `key` belongs to, or nil when it is not a valid, unrevoked key. Waits for the first
    /// read of the keys (at start-up); after that it only looks in memory.
    public func client(forKey text: some StringProtocol) async -> String? {
        guard let key = APIKey(text) else { return nil }
        let loaded = state.withLockedValue { $0.loaded }
        if !loaded {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLockedValue { state -> Bool in
                    if !state.loaded { state.waiters.append(continuation) }
                    return state.loaded
                }
                if ready { continuation.resume() }
            }
        }
        guard let entry = state.withLockedValue({ $0.keys[key.keyID] }) else { return nil }
        return APIKey.hashesMatch(key.hash, entry.hash) ? entry.client : nil
    }

    /// Reads the keys at once, then every interval until the service group shuts down.
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var first = true
            while !Task.isCancelled {
                if !first {
                    guard (try? await Task.sleep(for: self.interval)) != nil else { return }
                }
                first = false
                do {
                    try await self.refresh()
                } catch {
                    self.logger.warning("could not refresh the API keys (the last ones read stay in use): \(error)")
                }
            }
        }
    }
}
