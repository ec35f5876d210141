import ModelMapper

/// Collects one request's refused records: the first few for the answer, all of them for the store and
/// (if configured) the dead-letter files. Lives in the request's task.
final class RejectionLog {
    let deadLetters: DeadLetterFile?
    let listLimit: Int
    private(set) var listed: [Rejection] = []
    private(set) var count = 0

    init(deadLetters: DeadLetterFile?, listLimit: Int) {
        self.deadLetters = deadLetters
        self.listLimit = listLimit
    }

    /// A record the reader could not decode.
    func add(_ record: RejectedRecord) -> StoredRejection {
        add(StoredRejection(rejection: Rejection(record), raw: record.raw))
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

    private func add(_ record: StoredRejection) -> StoredRejection {
        count += 1
        if listed.count < listLimit { listed.append(record.rejection) }
        deadLetters?.append(record)
        return record
    }
}
