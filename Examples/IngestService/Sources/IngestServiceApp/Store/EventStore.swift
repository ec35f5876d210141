import NIOCore
import ServiceLifecycle

/// Where an upload's records go: a database that keeps them. The service hands over one batch at a time,
/// in input order, and waits for it (so a slow store slows the upload rather than filling memory).
///
/// A store is a `Service`: it runs in the same service group as the HTTP server, before it, so that on
/// SIGTERM the server drains its uploads first and the store closes after the last batch.
public protocol EventStore: Service {
    /// Stores a batch in one transaction, all or nothing: its events, each only if its (client, id) is
    /// not yet stored, and its rejected records. An event whose (client, id) is stored is a duplicate when
    /// the stored bytes are its own (a retried upload, another replica), a conflict otherwise (the stored
    /// row is left as it is).
    ///
    /// - Returns: how many of the batch's events were newly stored, duplicates and conflicts.
    /// - Throws: when the batch was not committed (then none of it is stored).
    func store(_ batch: StoreBatch) async throws -> StoreOutcome

    /// Checks that the store could take a batch now (the readiness probe behind `GET /ready`): returns
    /// when it answers, throws when it does not.
    func ping() async throws

    /// The rejected records `client` sent, those with an id above `after`, in id order, at most `limit`,
    /// each `raw` cut to its first `maxRawBytes` (`GET /rejected`).
    func rejections(client: String, after: Int64, limit: Int, maxRawBytes: Int) async throws -> [ListedRejection]

    /// Deletes `client`'s rejected records but its newest `keep` (`--rejected-keep-per-client`).
    func pruneRejections(client: String, keep: Int) async throws
}

extension EventStore {
    /// A store that keeps nothing of its own (the discarding store, test stores) always answers.
    public func ping() async throws {}

    /// A store that keeps nothing of its own lists nothing.
    public func rejections(client: String, after: Int64, limit: Int, maxRawBytes: Int) async throws -> [ListedRejection] {
        []
    }

    /// A store that keeps nothing of its own has nothing to delete.
    public func pruneRejections(client: String, keep: Int) async throws {}
}

/// A stored rejected record as `GET /rejected` lists it.
public struct ListedRejection: Sendable, Equatable {
    /// The cursor: `rejected_records.id`, which only grows.
    public var id: Int64
    public var uploadID: String
    public var index: Int
    public var line: Int
    public var kind: String
    public var message: String
    /// The record's bytes as received (need not be UTF-8).
    public var raw: [UInt8]

    public init(id: Int64, uploadID: String, index: Int, line: Int, kind: String, message: String, raw: [UInt8]) {
        self.id = id
        self.uploadID = uploadID
        self.index = index
        self.line = line
        self.kind = kind
        self.message = message
        self.raw = raw
    }
}

/// One transaction's worth of an upload.
public struct StoreBatch: Sendable {
    /// The upload the records came from (a UUID per request).
    public var uploadID: String
    /// The client that sent them (its API key's, or `anonymous`): the first part of the events' key.
    public var client: String
    /// Decoded events with their raw text.
    public var events: [StoredEvent] = []
    /// Records that could not be decoded (the dead letters).
    public var rejected: [StoredRejection] = []

    public init(uploadID: String, client: String) {
        self.uploadID = uploadID
        self.client = client
    }

    public var isEmpty: Bool { events.isEmpty && rejected.isEmpty }
}

/// An accepted record: the decoded event and its JSON text exactly as received.
public struct StoredEvent: Sendable {
    public var status: Status
    /// The record's bytes as received, valid UTF-8 (the ingestor rejects a record that is not): usually a
    /// slice of the body chunk it came in, so making a batch copies no record.
    public var raw: ByteBuffer
    /// Where the record was in its upload (for the answer's listing of a conflict).
    public var index: Int
    public var line: Int
    public var offset: Int

    public init(status: Status, raw: ByteBuffer, index: Int = 0, line: Int = 1, offset: Int = 0) {
        self.status = status
        self.raw = raw
        self.index = index
        self.line = line
        self.offset = offset
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
