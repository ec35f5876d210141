import Synchronization

/// The service's counters, shared by every request (one lock, taken a few times per request and once
/// per chunk and per batch of records, never while decoding).
public final class IngestMetrics: Sendable {
    private struct Counters {
        var streamRequests = 0
        var documentRequests = 0
        var refusedRequests = 0
        var failedRequests = 0
        var activeStreams = 0
        var recordsAccepted = 0
        var recordsRejected = 0
        var bytesReceived = 0
        var streamSeconds = 0.0
    }

    private let counters = Mutex(Counters())
    private let started = ContinuousClock.now

    public init() {}

    func streamStarted() {
        counters.withLock {
            $0.streamRequests += 1
            $0.activeStreams += 1
        }
    }

    func streamEnded(after duration: Duration, failed: Bool) {
        counters.withLock {
            $0.activeStreams -= 1
            $0.streamSeconds += duration.seconds
            if failed { $0.failedRequests += 1 }
        }
    }

    func documentReceived() {
        counters.withLock { $0.documentRequests += 1 }
    }

    func requestRefused() {
        counters.withLock { $0.refusedRequests += 1 }
    }

    func add(bytes: Int) {
        counters.withLock { $0.bytesReceived += bytes }
    }

    func add(accepted: Int, rejected: Int) {
        counters.withLock {
            $0.recordsAccepted += accepted
            $0.recordsRejected += rejected
        }
    }

    /// The counters now, with the rates derived from them.
    public func snapshot() -> MetricsSnapshot {
        let c = counters.withLock { $0 }
        var s = MetricsSnapshot()
        s.uptimeSeconds = (ContinuousClock.now - started).seconds
        s.streamRequests = c.streamRequests
        s.documentRequests = c.documentRequests
        s.refusedRequests = c.refusedRequests
        s.failedRequests = c.failedRequests
        s.activeStreams = c.activeStreams
        s.recordsAccepted = c.recordsAccepted
        s.recordsRejected = c.recordsRejected
        s.bytesReceived = c.bytesReceived
        s.streamSeconds = c.streamSeconds
        if c.streamSeconds > 0 {
            s.streamBytesPerSecond = Double(c.bytesReceived) / c.streamSeconds
            s.streamRecordsPerSecond = Double(c.recordsAccepted + c.recordsRejected) / c.streamSeconds
        }
        return s
    }
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}
