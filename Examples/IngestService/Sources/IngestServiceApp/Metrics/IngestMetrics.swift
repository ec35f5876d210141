import CoreMetrics
import Metrics
import NIOConcurrencyHelpers
import Prometheus

/// The service's counters, shared by every request and the store. Two views of the same events:
/// Prometheus metrics through swift-metrics (`GET /metrics`; a registry per instance, so tests and
/// several apps in one process do not share counters) and a JSON summary (`GET /metrics/summary`).
/// Updated a few times per request and once per chunk and per batch, never per record.
public final class IngestMetrics: Sendable {
    private struct Counters {
        var streamRequests = 0
        var documentRequests = 0
        var refusedRequests = 0
        var failedRequests = 0
        var activeStreams = 0
        var recordsAccepted = 0
        var recordsDuplicate = 0
        var recordsRejected = 0
        var recordsConflict = 0
        var bytesReceived = 0
        var streamSeconds = 0.0
    }

    /// Behind NIO's lock (a pthread mutex), as is every lock of this package: the thread sanitizer sees it,
    /// while `Synchronization.Mutex` waits on futexes it does not see, and it reported the uploads'
    /// concurrent byte counts here as a race.
    private let counters = NIOLockedValueBox(Counters())
    private let started = ContinuousClock.now

    /// The Prometheus registry `GET /metrics` prints.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    /// `ingest_records_total{client,outcome}`: the four outcomes' counters of each client, made at its
    /// first records. Clients are known keys' (and `anonymous`), so the label set is bounded.
    private let recordCounters = NIOLockedValueBox<[String: [CoreMetrics.Counter]]>([:])
    /// `ingest_refused_requests_total{status}`: POST requests answered 4xx, by status.
    private let refusedCounters = NIOLockedValueBox<[Int: CoreMetrics.Counter]>([:])
    private let bytes: CoreMetrics.Counter
    private let uploadsOK: CoreMetrics.Counter
    private let uploadsFailed: CoreMetrics.Counter
    private let uploadsRefused: CoreMetrics.Counter
    private let activeUploads: CoreMetrics.Gauge
    private let uploadDuration: CoreMetrics.Timer
    private let batchDuration: CoreMetrics.Timer
    private let batchSize: CoreMetrics.Recorder
    private let poolWait: CoreMetrics.Timer

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets = [
            "ingest_upload_duration_seconds": [
                .milliseconds(10), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                .seconds(1), .seconds(2.5), .seconds(5), .seconds(10), .seconds(30), .seconds(60), .seconds(300),
            ],
            "ingest_store_batch_duration_seconds": [
                .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10),
                .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
            ],
            "ingest_store_pool_wait_seconds": [
                .microseconds(100), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50),
                .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5),
            ],
        ]
        factory.valueHistogramBuckets = ["ingest_store_batch_records": [1, 10, 100, 250, 500, 1000, 2000, 5000]]
        self.factory = factory
        bytes = CoreMetrics.Counter(label: "ingest_received_bytes_total", factory: factory)
        uploadsOK = CoreMetrics.Counter(label: "ingest_requests_total", dimensions: [("result", "ok")], factory: factory)
        uploadsFailed = CoreMetrics.Counter(label: "ingest_requests_total", dimensions: [("result", "failed")], factory: factory)
        uploadsRefused = CoreMetrics.Counter(label: "ingest_requests_total", dimensions: [("result", "refused")], factory: factory)
        activeUploads = CoreMetrics.Gauge(label: "ingest_active_uploads", factory: factory)
        uploadDuration = CoreMetrics.Timer(label: "ingest_upload_duration_seconds", factory: factory)
        batchDuration = CoreMetrics.Timer(label: "ingest_store_batch_duration_seconds", factory: factory)
        batchSize = CoreMetrics.Recorder(label: "ingest_store_batch_records", factory: factory)
        poolWait = CoreMetrics.Timer(label: "ingest_store_pool_wait_seconds", factory: factory)
    }

    func streamStarted() {
        let active = counters.withLockedValue {
            $0.streamRequests += 1
            $0.activeStreams += 1
            return $0.activeStreams
        }
        activeUploads.record(active)
    }

    func streamEnded(after duration: Duration, failed: Bool) {
        let active = counters.withLockedValue {
            $0.activeStreams -= 1
            $0.streamSeconds += duration.seconds
            if failed { $0.failedRequests += 1 }
            return $0.activeStreams
        }
        activeUploads.record(active)
        uploadDuration.record(duration: duration)
        (failed ? uploadsFailed : uploadsOK).increment()
    }

    func documentReceived() {
        counters.withLockedValue { $0.documentRequests += 1 }
    }

    func requestRefused() {
        counters.withLockedValue { $0.refusedRequests += 1 }
        uploadsRefused.increment()
    }

    func add(bytes n: Int) {
        counters.withLockedValue { $0.bytesReceived += n }
        bytes.increment(by: n)
    }

    func add(accepted a: Int, duplicates d: Int, rejected r: Int, conflicts c: Int = 0, client: String) {
        counters.withLockedValue {
            $0.recordsAccepted += a
            $0.recordsDuplicate += d
            $0.recordsRejected += r
            $0.recordsConflict += c
        }
        let factory = self.factory
        let outcomes = recordCounters.withLockedValue { counters in
            if let made = counters[client] { return made }
            let made = ["accepted", "duplicate", "rejected", "conflict"].map {
                CoreMetrics.Counter(label: "ingest_records_total", dimensions: [("client", client), ("outcome", $0)], factory: factory)
            }
            counters[client] = made
            return made
        }
        for (counter, n) in zip(outcomes, [a, d, r, c]) where n > 0 { counter.increment(by: n) }
    }

    /// A POST answered with a 4xx `status` (401, 400, 413, 415, 429).
    func refused(status: Int) {
        let factory = self.factory
        refusedCounters.withLockedValue { counters in
            let counter =
                counters[status]
                ?? CoreMetrics.Counter(label: "ingest_refused_requests_total", dimensions: [("status", "\(status)")], factory: factory)
            counters[status] = counter
            return counter
        }.increment()
    }

    /// One store transaction: its events and rejected records, and how long it took.
    func batchStored(events: Int, rejected: Int, after duration: Duration) {
        batchDuration.record(duration: duration)
        batchSize.record(events + rejected)
    }

    /// How long a batch waited for the store's connection (pool lease, or SQLite's single writer).
    public func storeWaited(_ duration: Duration) {
        poolWait.record(duration: duration)
    }

    /// The Prometheus text exposition of every metric.
    public func prometheusText() -> [UInt8] {
        registry.emitToBuffer()
    }

    /// The counters now, with the rates derived from them.
    public func snapshot() -> MetricsSnapshot {
        let c = counters.withLockedValue { $0 }
        var s = MetricsSnapshot()
        s.uptimeSeconds = (ContinuousClock.now - started).seconds
        s.streamRequests = c.streamRequests
        s.documentRequests = c.documentRequests
        s.refusedRequests = c.refusedRequests
        s.failedRequests = c.failedRequests
        s.activeStreams = c.activeStreams
        s.recordsAccepted = c.recordsAccepted
        s.recordsDuplicate = c.recordsDuplicate
        s.recordsRejected = c.recordsRejected
        s.recordsConflict = c.recordsConflict
        s.bytesReceived = c.bytesReceived
        s.streamSeconds = c.streamSeconds
        if c.streamSeconds > 0 {
            s.streamBytesPerSecond = Double(c.bytesReceived) / c.streamSeconds
            s.streamRecordsPerSecond = Double(c.recordsAccepted + c.recordsDuplicate + c.recordsRejected) / c.streamSeconds
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

extension CoreMetrics.Timer {
    func record(duration: Duration) {
        let (s, attoseconds) = duration.components
        recordNanoseconds(s * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
