import Foundation

/// Counts a reading's records and calls a ``ProgressReporting``'s closure when its interval is crossed.
/// Used by one thread at a time (the iterating one; `decodeAll` calls it under a lock).
final class ProgressTracker {
    private let reporting: ProgressReporting?
    private let elapsed: @Sendable () -> Duration
    private(set) var decoded = 0
    private(set) var rejected = 0
    private(set) var bytes = 0
    private var nextCount: Int
    private var nextTime: Duration
    private var isFinished = false

    init(_ reporting: ProgressReporting?) {
        self.reporting = reporting
        if let reporting {
            elapsed = reporting.startClock()
        } else {
            let start = ContinuousClock.now
            elapsed = { start.duration(to: .now) }
        }
        switch reporting?.interval {
        case .records(let count)?:
            nextCount = count
            nextTime = .zero
        case .time(let interval)?:
            nextCount = Int.max
            nextTime = interval
        case nil:
            nextCount = Int.max
            nextTime = .zero
        }
    }

    /// The figures now.
    func snapshot(bytes: Int) -> JSONLinesProgress {
        JSONLinesProgress(recordsDecoded: decoded, recordsRejected: rejected, bytesRead: bytes, elapsed: elapsed(),
                          isFinished: isFinished)
    }

    /// Counts `decoded` models and `rejected` records ending at (or, for `decodeAll`, adding) `bytes`.
    @inline(__always)
    func count(decoded: Int, rejected: Int, bytes: Int) {
        self.decoded &+= decoded
        self.rejected &+= rejected
        self.bytes = bytes
        guard let reporting else { return }
        switch reporting.interval {
        case .records(let step):
            let total = self.decoded &+ self.rejected
            if total >= nextCount {
                // The next multiple of `step` (a group of records may cross several at once).
                let (next, overflow) = (total / step + 1).multipliedReportingOverflow(by: step)
                nextCount = overflow ? Int.max : next
                report(reporting)
            }
        case .time(let interval):
            let now = elapsed()
            if now >= nextTime {
                nextTime = now + interval
                reporting.handler(JSONLinesProgress(recordsDecoded: self.decoded, recordsRejected: self.rejected,
                                                    bytesRead: bytes, elapsed: now))
            }
        }
    }

    private func report(_ reporting: ProgressReporting) {
        reporting.handler(snapshot(bytes: bytes))
    }

    /// The final report (once).
    func finish(bytes: Int) {
        guard !isFinished else { return }
        isFinished = true
        self.bytes = bytes
        reporting?.handler(snapshot(bytes: bytes))
    }
}
