import NIOConcurrencyHelpers

/// `--rate-limit N`: at most N uploads (POST requests) per second per client on this replica, as a token
/// bucket per client that holds at most N tokens (a burst of N after a quiet second) and gains N a
/// second. A request takes one token; with none left it is refused (429) with the whole seconds until the
/// next token (`Retry-After`). Clients are known keys' (and `anonymous`), so the buckets are bounded.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    /// Tokens gained per second, and the most a bucket holds.
    let rate: Double
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])
    /// The time the buckets fill by (``IngestConfiguration/rateLimitClock``; a manual clock in tests).
    private let clock: @Sendable () -> ContinuousClock.Instant

    init(rate: Double, clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        precondition(rate > 0, "a rate limit must be positive")
        self.rate = rate
        self.clock = clock
    }

    var burst: Double { max(1, rate) }

    /// Takes a token for `client`: nil when there was one, else the whole seconds until there is one.
    func take(for client: String) -> Int? {
        let now = clock()
        return buckets.withLockedValue { buckets in
            var bucket = buckets[client] ?? Bucket(tokens: burst, updated: now)
            let elapsed = now - bucket.updated
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + max(0, seconds) * rate)
            bucket.updated = now
            defer { buckets[client] = bucket }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
        }
    }
}

/// `--max-uploads-per-client N`: at most N POST requests of one client at once on this replica; one more
/// is refused (429) until one of them ends.
final class UploadSlots: Sendable {
    let limit: Int
    private let inUse = NIOLockedValueBox<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes a slot for `client`; false when it already has `limit` uploads in progress.
    func acquire(_ client: String) -> Bool {
        inUse.withLockedValue { inUse in
            let count = inUse[client, default: 0]
            guard count < limit else { return false }
            inUse[client] = count + 1
            return true
        }
    }

    func release(_ client: String) {
        inUse.withLockedValue { inUse in
            let count = inUse[client, default: 1] - 1
            inUse[client] = count > 0 ? count : nil
        }
    }
}
