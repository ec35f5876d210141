/// The records of one upload cut at `--max-record-bytes` (by ``GuardedBody``), and how the body the reader
/// sees differs from the body received because of them. The reader gets a record's first `limit` bytes
/// (and, in an array, a byte or two that end its value there); the rest of the record is dropped. So the
/// reader's offsets and lines after a cut are mapped back to the body's here, and the record the reader
/// reports at a cut is rejected as `tooLarge`, whatever it decoded to.
///
/// Lives in the request's task (not `Sendable`).
final class OversizedRecords {
    struct Cut {
        /// Where the record starts in the reader's stream.
        let recordStart: Int
        /// Where it was cut in the reader's stream (the terminator, if any, starts there).
        let point: Int
        /// Bytes the reader got in place of the dropped ones (the terminator).
        let inserted: Int
        let insertedNewlines: Int
        /// Body bytes dropped, and the newlines among them (known once the record has ended).
        var dropped = 0
        var droppedNewlines = 0
    }

    let limit: Int
    private var cuts: [Cut] = []
    /// Cuts not yet matched with a record the reader reported.
    private var unmatched = 0
    /// Records cut so far.
    private(set) var count = 0

    init(limit: Int) {
        self.limit = limit
    }

    func recordCut(recordStart: Int, point: Int, terminator: [UInt8]) {
        cuts.append(
            Cut(
                recordStart: recordStart, point: point, inserted: terminator.count,
                insertedNewlines: terminator.filter { $0 == 0x0A }.count))
        count += 1
    }

    /// Bytes dropped from the last cut's record, as they come.
    func dropped(_ bytes: Int, newlines: Int) {
        guard !cuts.isEmpty else { return }
        cuts[cuts.count - 1].dropped += bytes
        cuts[cuts.count - 1].droppedNewlines += newlines
    }

    /// Whether the record the reader reports as starting at `start` (its stream) is a cut one. Call once
    /// per record, in order.
    func isCut(recordStartingAt start: Int) -> Bool {
        while unmatched < cuts.count {
            let cut = cuts[unmatched]
            if cut.point < start {
                unmatched += 1  // a cut whose record had nothing but blank space: no record
                continue
            }
            if cut.recordStart <= start {
                unmatched += 1
                return true
            }
            return false
        }
        return false
    }

    /// A reader offset as a body offset.
    func bodyOffset(_ offset: Int) -> Int {
        var result = offset
        for cut in cuts where cut.point < offset { result += cut.dropped - cut.inserted }
        return result
    }

    /// A reader line (of a position at reader offset `offset`) as a body line.
    func bodyLine(_ line: Int, at offset: Int) -> Int {
        var result = line
        for cut in cuts where cut.point < offset { result += cut.droppedNewlines - cut.insertedNewlines }
        return result
    }
}
