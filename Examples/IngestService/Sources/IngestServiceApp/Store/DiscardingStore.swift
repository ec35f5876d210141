import ServiceLifecycle

/// A store that keeps nothing and counts every event as new: the service then only validates and
/// counts (the baseline of the README's load figures).
public struct DiscardingStore: EventStore {
    public init() {}

    public func store(_ batch: StoreBatch) async throws -> StoreOutcome { StoreOutcome(inserted: batch.events.count) }

    public func run() async throws {
        try? await gracefulShutdown()
    }
}
