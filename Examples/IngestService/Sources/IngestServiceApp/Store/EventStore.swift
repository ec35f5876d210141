import NIOCore
import ServiceLifecycle

/// Where an upload's records go: a database that keeps them. The service hands over one batch at a time,
/// in input order, and waits for it (so a slow store slows the upload rather than filling memory).
///
/// A store is a `Service`: it runs in the same service group as the HTTP server, before it, so that on
/// SIGTERM the server drains its uploads first and the store closes after the last batch.
public protocol EventStore: Service {
    /// Stores a batch in one transaction, all or nothing: its events, each only if its id is not yet
    /// stored (a retried upload, another replica), and its rejected records.
    ///
    /// - Returns: how many of the batch's events were newly stored (the others were duplicates).
    /// - Throws: when the batch was not committed (then none of it is stored).
    func store(_ batch: StoreBatch) async throws -> Int
}

/// One transaction's worth of an upload.
public struct StoreBatch: Sendable {
    /// The upload the records came from (a UUID per request).
    public var uploadID: String
    /// Decoded events with their raw text.
    public var events: [StoredEvent] = []
    /// Records that could not be decoded (the dead letters).
    public var rejected: [StoredRejection] = []

    public init(uploadID: String) {
        self.uploadID = uploadID
    }

    public var isEmpty: Bool { events.isEmpty && rejected.isEmpty }
}

/// An accepted record: the decoded event and its JSON text exactly as received.
public struct StoredEvent: Sendable {
    public var status: Status
    /// The record's bytes as received, valid UTF-8 (the ingestor rejects a record that is not): usually a
    /// slice of the body chunk it came in, so making a batch copies no record.
    public var raw: ByteBuffer

    public init(status: Status, raw: ByteBuffer) {
        self.status = status
        self.raw = raw
    }
}

/// A rejected record as the `rejected_records` table keeps it.
public struct StoredRejection: Sendable {
    public var rejection: Rejection
    /// The record's bytes exactly as received (need not be UTF-8).
    public var raw: [UInt8]

    public init(rejection: Rejection, raw: [UInt8]) {
        self.rejection = rejection
        self.raw = raw
    }
}
