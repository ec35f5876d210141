import ModelMapper

/// Collects one request's refused records: the first few for the answer, each for the store (in the batch
/// it falls in) and (if configured) the dead-letter files. Lives in the request's task.
final class RejectionLog {
    let deadLetters: DeadLetterFile?
    let listLimit: Int
    private(set) var listed: [Rejection] = []
    private(set) var count = 0

    init(deadLetters: DeadLetterFile?, listLimit: Int) {
        self.deadLetters = deadLetters
        self.listLimit = listLimit
    }

    /// Bytes of a record past the record limit kept in `rejected_records` and the dead-letter file.
    static let tooLargeKeptBytes = 4096

    /// A record the reader could not decode (or that was cut at the record limit), its position mapped
    /// back to the body's.
    func add(_ record: RejectedRecord, oversized: OversizedRecords) -> StoredRejection {
        let offset = oversized.bodyOffset(record.offset)
        let line = oversized.bodyLine(record.line, at: record.offset)
        if oversized.isCut(recordStartingAt: record.offset) {
            return add(tooLarge: record.raw, limit: oversized.limit, index: record.index, line: line, offset: offset)
        }
        var rejection = Rejection(record)
        rejection.offset = offset
        rejection.line = line
        rejection.errorLine = record.error.line.map { oversized.bodyLine($0, at: record.offset) }
        return add(StoredRejection(rejection: rejection, raw: record.raw))
    }

    /// A record longer than the record limit: only its first bytes are kept.
    func add(tooLarge raw: [UInt8], limit: Int, index: Int, line: Int, offset: Int) -> StoredRejection {
        var rejection = Rejection()
        rejection.index = index
        rejection.line = line
        rejection.offset = offset
        rejection.kind = "tooLarge"
        rejection.path = "[\(index)]"
        rejection.message = "line \(line): the record is longer than \(limit) bytes (its first \(Self.tooLargeKeptBytes) are kept)"
        return add(StoredRejection(rejection: rejection, raw: Array(raw.prefix(Self.tooLargeKeptBytes))))
    }

    /// A record that decoded but cannot be stored (see `Status.unstorableReason`).
    func add(unstorable raw: [UInt8], reason: String, index: Int, line: Int, offset: Int) -> StoredRejection {
        var rejection = Rejection()
        rejection.index = index
        rejection.line = line
        rejection.offset = offset
        rejection.kind = "unstorable"
        rejection.path = "[\(index)]"
        rejection.message = "line \(line): \(reason)"
        return add(StoredRejection(rejection: rejection, raw: raw))
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

    private func add(_ record: StoredRejection) -> StoredRejection {
        count += 1
        if listed.count < listLimit { listed.append(record.rejection) }
        deadLetters?.append(record)
        return record
    }
}
