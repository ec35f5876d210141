/// Statistics of a ``JSONLines`` reading: records decoded and rejected, bytes of input consumed and time
/// elapsed since the reading started. Handed to a ``ProgressReporting`` closure, and the iterators'
/// `progress`.
public struct JSONLinesProgress: Sendable, Equatable, CustomStringConvertible {
    /// Models handed out (iteration) or decoded so far (`decodeAll`).
    public var recordsDecoded: Int
    /// Records rejected so far (handed to `.skip`'s closure, or the one `.stop` threw).
    public var recordsRejected: Int
    /// Bytes of input up to the end of the last record handed out or rejected (with several workers, the
    /// end of the last group of records taken; in `decodeAll`, the bytes of the groups decoded so far).
    public var bytesRead: Int
    /// Time since the reading started, by the reporting's clock.
    public var elapsed: Duration
    /// Whether this is the last report: the input ended, or an error ended the stream.
    public var isFinished: Bool

    /// Creates a report.
    public init(recordsDecoded: Int = 0, recordsRejected: Int = 0, bytesRead: Int = 0, elapsed: Duration = .zero,
                isFinished: Bool = false) {
        self.recordsDecoded = recordsDecoded
        self.recordsRejected = recordsRejected
        self.bytesRead = bytesRead
        self.elapsed = elapsed
        self.isFinished = isFinished
    }

    /// Records decoded and rejected.
    public var records: Int { recordsDecoded + recordsRejected }

    /// Bytes read per second of ``elapsed`` (0 before any time has passed).
    public var bytesPerSecond: Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return seconds > 0 ? Double(bytesRead) / seconds : 0
    }

    /// `"120000 records (3 rejected), 82.1 MB in 1.52 s (54.0 MB/s)"`.
    public var description: String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        func fixed(_ value: Double) -> String {
            let tenths = Int((value * 10).rounded())
            return "\(tenths / 10).\(tenths % 10)"
        }
        func hundredths(_ value: Double) -> String {
            let h = Int((value * 100).rounded())
            return "\(h / 100)." + (h % 100 < 10 ? "0" : "") + "\(h % 100)"
        }
        return "\(records) records (\(recordsRejected) rejected), \(fixed(Double(bytesRead) / 1e6)) MB in "
            + "\(hundredths(seconds)) s (\(fixed(bytesPerSecond / 1e6)) MB/s)"
    }
}

/// When a ``JSONLines`` reading reports its ``JSONLinesProgress``: every so many records or every so much
/// time by a clock, which can be injected (a test clock makes the reports independent of the machine's
/// speed). The closure is called on the thread that iterates (`decodeAll`: on whichever of its threads
/// finished a group of records, one call at a time), after the record that crossed the interval, and once
/// more at the end with ``JSONLinesProgress/isFinished`` set. It should return quickly: the reading waits.
///
/// ```swift
/// let lines = JSONLines<Event>(url: fileURL)
///     .reportingProgress(.every(records: 100_000) { print("\r\($0)", terminator: "") })
/// ```
public struct ProgressReporting: Sendable {
    enum Interval: Sendable {
        case records(Int)
        case time(Duration)
    }

    let interval: Interval
    /// Starts a stopwatch: returns the time elapsed since the call, each time it is called.
    let startClock: @Sendable () -> @Sendable () -> Duration
    let handler: @Sendable (JSONLinesProgress) -> Void

    init<C: Clock>(interval: Interval, clock: C, handler: @escaping @Sendable (JSONLinesProgress) -> Void)
    where C.Duration == Duration {
        self.interval = interval
        self.handler = handler
        startClock = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
    }

    /// Reports after every `count` records (decoded or rejected; at least 1), with times from `clock`.
    public static func every<C: Clock>(records count: Int, clock: C = ContinuousClock(),
                                       _ handler: @escaping @Sendable (JSONLinesProgress) -> Void) -> ProgressReporting
    where C.Duration == Duration {
        ProgressReporting(interval: .records(Swift.max(1, count)), clock: clock, handler: handler)
    }

    /// Reports when at least `interval` has passed on `clock` since the last report (checked after each
    /// record: a report waits for the next record, so a stalled input gives none until it moves on).
    public static func every<C: Clock>(_ interval: Duration, clock: C = ContinuousClock(),
                                       _ handler: @escaping @Sendable (JSONLinesProgress) -> Void) -> ProgressReporting
    where C.Duration == Duration {
        ProgressReporting(interval: .time(interval), clock: clock, handler: handler)
    }

    /// Only the final report (when the input ends or an error ends the stream).
    public static func atEnd<C: Clock>(clock: C = ContinuousClock(),
                                       _ handler: @escaping @Sendable (JSONLinesProgress) -> Void) -> ProgressReporting
    where C.Duration == Duration {
        ProgressReporting(interval: .records(Int.max), clock: clock, handler: handler)
    }
}
