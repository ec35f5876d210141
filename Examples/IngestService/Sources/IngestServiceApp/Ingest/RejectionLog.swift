import ModelMapper

/// Collects one request's refused records: the first few for the answer, each for the store (in the batch
/// it falls in) and (if configured) the dead-letter files. Each keeps at most `keptBytes` of its raw bytes
/// (`--rejected-raw-bytes`), and an upload keeps at most `maxCount` of them and `maxBytes` of their raw
/// bytes (`--max-rejected-per-upload`, `--max-rejected-bytes-per-upload`): past either, a record is
/// counted in ``notKept`` and not kept, and ``isFull`` tells the ingestor to stop the upload. Lives in the
/// request's task.
final class RejectionLog {
    let deadLetters: DeadLetterFile?
    let listLimit: Int
    let keptBytes: Int
    let maxCount: Int
    let maxBytes: Int
    private(set) var listed: [Rejection] = []
    /// Rejected records kept (in a batch, then the store).
    private(set) var count = 0
    /// Rejected records refused past the upload's cap: neither stored nor listed.
    private(set) var notKept = 0
    /// Raw bytes of the records kept.
    private(set) var bytes = 0

    init(deadLetters: DeadLetterFile?, listLimit: Int, keptBytes: Int, maxCount: Int, maxBytes: Int) {
        self.deadLetters = deadLetters
        self.listLimit = listLimit
        self.keptBytes = keptBytes
        self.maxCount = maxCount
        self.maxBytes = maxBytes
    }

    /// Every rejected record so far, kept or not (record indexes count them all).
    var total: Int { count + notKept }

    /// Whether the upload's cap was passed.
    var isFull: Bool { notKept > 0 }

    /// Bytes of a record past the record limit kept in `rejected_records` and the dead-letter file.
    static let tooLargeKeptBytes = 4096

    /// A record the reader could not decode (or that was cut at the record limit), its position mapped
    /// back to the body's.
    func add(_ record: RejectedRecord, oversized: OversizedRecords) -> StoredRejection? {
        let offset = oversized.bodyOffset(record.offset)
        let line = oversized.bodyLine(record.line, at: record.offset)
        if oversized.isCut(recordStartingAt: record.offset) {
            return add(tooLarge: record.raw, limit: oversized.limit, index: record.index, line: line, offset: offset)
        }
        var rejection = Rejection(record)
        rejection.offset = offset
        rejection.line = line
        rejection.errorLine = record.error.line.map { oversized.bodyLine($0, at: record.offset) }
        return add(rejection, raw: record.raw)
    }

    /// A record longer than the record limit: only its first bytes are kept.
    func add(tooLarge raw: [UInt8], limit: Int, index: Int, line: Int, offset: Int) -> StoredRejection? {
        var rejection = Rejection()
        rejection.index = index
        rejection.line = line
        rejection.offset = offset
        rejection.kind = "tooLarge"
        rejection.path = "[\(index)]"
        let kept = min(Self.tooLargeKeptBytes, keptBytes)
        rejection.message = "line \(line): the record is longer than \(limit) bytes (its first \(kept) are kept)"
        return add(rejection, raw: Array(raw.prefix(kept)), said: true)
    }

    /// A record that decoded but cannot be stored (see `Status.unstorableReason`).
    func add(unstorable raw: [UInt8], reason: String, index: Int, line: Int, offset: Int) -> StoredRejection? {
        var rejection = Rejection()
        rejection.index = index
        rejection.line = line
        rejection.offset = offset
        rejection.kind = "unstorable"
        rejection.path = "[\(index)]"
        rejection.message = "line \(line): \(reason)"
        return add(rejection, raw: raw)
    }

    /// A record whose (client, id) the store holds with other bytes (known once its batch is committed;
    /// listed, not stored).
    func addConflict(_ event: StoredEvent) {
        guard listed.count < listLimit else { return }
        var rejection = Rejection()
        rejection.index = event.index
        rejection.line = event.line
        rejection.offset = event.offset
        rejection.kind = "conflict"
        rejection.path = "[\(event.index)]"
        rejection.message = "line \(event.line): id \(event.status.id) is stored for this client with other bytes; the stored record is unchanged"
        listed.append(rejection)
    }

    /// Keeps the record (its first `keptBytes`, the message saying so unless it already does) or, past
    /// the upload's cap, counts it as not kept.
    private func add(_ rejection: Rejection, raw: [UInt8], said: Bool = false) -> StoredRejection? {
        let kept = min(raw.count, keptBytes)
        guard !isFull, count < maxCount, bytes + kept <= maxBytes else {
            notKept += 1
            return nil
        }
        var rejection = rejection
        if kept < raw.count, !said { rejection.message += " (the record's first \(kept) of \(raw.count) bytes are kept)" }
        let record = StoredRejection(rejection: rejection, raw: kept < raw.count ? Array(raw.prefix(kept)) : raw)
        count += 1
        bytes += kept
        if listed.count < listLimit { listed.append(record.rejection) }
        deadLetters?.append(record)
        return record
    }
}
