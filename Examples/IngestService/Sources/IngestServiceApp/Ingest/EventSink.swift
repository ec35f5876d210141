/// Where decoded events go: a queue, a database, an index. The service hands events over in input
/// order, in batches, and waits for each call (so a slow sink slows the upload rather than filling
/// memory). An error ends the request with 503.
public protocol EventSink: Sendable {
    func consume(_ events: [Status]) async throws
}

/// A sink that drops the events (the service then only validates and counts).
public struct DiscardingSink: EventSink {
    public init() {}
    public func consume(_ events: [Status]) async throws {}
}
