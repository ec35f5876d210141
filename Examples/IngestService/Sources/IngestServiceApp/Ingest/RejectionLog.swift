import ModelMapper

/// Collects one request's refused records: all of them into the dead-letter file, the first few into
/// the response. Lives in the request's task (the reader calls ``add(_:)`` on the iterating task).
final class RejectionLog {
    let deadLetters: DeadLetterFile
    let listLimit: Int
    private(set) var listed: [Rejection] = []
    private(set) var count = 0

    init(deadLetters: DeadLetterFile, listLimit: Int) {
        self.deadLetters = deadLetters
        self.listLimit = listLimit
    }

    func add(_ record: RejectedRecord) {
        count += 1
        if listed.count < listLimit { listed.append(Rejection(record)) }
        deadLetters.append(record)
    }
}
