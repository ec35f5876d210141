import ModelMapper

/// The body of `GET /metrics/summary` (`GET /metrics` is the Prometheus text).
///
/// Records and bytes count both routes. The rates divide by `streamSeconds`, the summed wall time of
/// `POST /events` requests (reading, decoding and the store together), so they are per-stream rates: with
/// several uploads at once the service as a whole does more.
public struct MetricsSnapshot: JSONMappable, Sendable {
    public var uptimeSeconds = 0.0
    /// `POST /events` requests started (answered, refused mid-stream or broken off).
    public var streamRequests = 0
    /// `POST /event` requests that reached decoding.
    public var documentRequests = 0
    /// Requests refused before any record was read (415, 413 by `Content-Length`).
    public var refusedRequests = 0
    /// `POST /events` requests that ended in an error (client gone, store or dead-letter failure).
    public var failedRequests = 0
    /// `POST /events` requests in progress.
    public var activeStreams = 0
    /// Records newly stored.
    public var recordsAccepted = 0
    /// Records whose id was already stored.
    public var recordsDuplicate = 0
    public var recordsRejected = 0
    /// Records whose (client, id) was stored with other bytes (not stored).
    public var recordsConflict = 0
    /// Body bytes read by both routes.
    public var bytesReceived = 0
    public var streamSeconds = 0.0
    public var streamBytesPerSecond = 0.0
    public var streamRecordsPerSecond = 0.0

    public init() {}
}
