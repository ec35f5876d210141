import Foundation
import ModelMapper
import XCTest

/// A clock that moves `step` forward each time it is read, so time-based reports depend on how often the
/// reader looks at the clock (once at the start and once per record), never on the machine's speed.
final class SteppingClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    let step: Duration

    init(step: Duration) { self.step = step }

    var now: Instant {
        lock.lock()
        defer { lock.unlock() }
        let value = current
        current = current.advanced(by: step)
        return value
    }

    var minimumResolution: Duration { .nanoseconds(1) }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {}
}

/// Progress and statistics (issue 46.3) for every form of iteration.
final class StreamProgressTests: XCTestCase {
    struct Item: JSONMappable, Equatable {
        var id = 0
    }

    /// 10 records, the 3rd and 8th bad.
    static let text: String = (0..<10).map { $0 == 2 || $0 == 7 ? "{\"id\": \"bad\"}" : "{\"id\": \($0)}" }
        .joined(separator: "\n") + "\n"

    func testRecordIntervalReportsFromEveryForm() async throws {
        let data = Data(Self.text.utf8)
        let lineEnds = Self.text.utf8.enumerated().filter { $0.element == 0x0A }.map { $0.offset }
        for workers in [1, 2] {
            for form in ["forEach", "records", "sync iterator", "for try await"] {
                let reports = Collected<JSONLinesProgress>()
                let lines = JSONLines<Item>(data: data, workers: workers, onError: .skip { _ in })
                    .reportingProgress(.every(records: 3) { reports.append($0) })
                var ids: [Int] = []
                var last = JSONLinesProgress()
                switch form {
                case "forEach":
                    try lines.forEach { ids.append($0.id) }
                case "records":
                    for result in lines.records() { ids.append(try result.get().id) }
                case "sync iterator":
                    var iterator = lines.makeSyncIterator()
                    while let item = try iterator.next() { ids.append(item.id) }
                    last = iterator.progress
                default:
                    var iterator = lines.makeAsyncIterator()
                    while let item = try await iterator.next() { ids.append(item.id) }
                    last = iterator.progress
                }
                let what = "\(form), \(workers) workers"
                XCTAssertEqual(ids, [0, 1, 3, 4, 5, 6, 8, 9], what)
                XCTAssertEqual(reports.map(\.records), [3, 6, 9, 10], what)
                XCTAssertEqual(reports.map(\.recordsRejected), [1, 1, 2, 2], what)
                XCTAssertEqual(reports.map(\.isFinished), [false, false, false, true], what)
                XCTAssertEqual(reports.last?.bytesRead, data.count, what)
                if workers == 1 {
                    // One record at a time: the bytes up to the end of the record that crossed the interval.
                    XCTAssertEqual(reports.dropLast().map(\.bytesRead), [lineEnds[2], lineEnds[5], lineEnds[8]], what)
                } else {
                    // Several workers: the end of the group the record came in (here the whole input).
                    XCTAssertTrue(reports.allSatisfy { $0.bytesRead > 0 && $0.bytesRead <= data.count }, what)
                }
                if form == "sync iterator" || form == "for try await" {
                    XCTAssertEqual(last.recordsDecoded, 8, what)
                    XCTAssertEqual(last.recordsRejected, 2, what)
                }
            }
        }
    }

    func testTimeIntervalOnAnInjectedClock() throws {
        // Read once at the start, then once per record: after record k, k seconds have passed.
        let text = (0..<25).map { "{\"id\": \($0)}" }.joined(separator: "\n")
        let reports = Collected<JSONLinesProgress>()
        let clock = SteppingClock(step: .seconds(1))
        try JSONLines<Item>(bytes: Array(text.utf8))
            .reportingProgress(.every(.seconds(10), clock: clock) { reports.append($0) })
            .forEach { _ in }
        XCTAssertEqual(reports.map(\.records), [10, 20, 25])
        XCTAssertEqual(reports.map(\.elapsed), [.seconds(10), .seconds(20), .seconds(26)])
        XCTAssertEqual(reports.last?.isFinished, true)
        XCTAssertEqual(reports.last?.bytesPerSecond ?? 0, Double(text.utf8.count) / 26, accuracy: 1e-9)
        XCTAssertEqual(reports[0].description, "10 records (0 rejected), 0.0 MB in 10.00 s (0.0 MB/s)")
    }

    func testStopErrorEndsWithAFinalReport() throws {
        let reports = Collected<JSONLinesProgress>()
        XCTAssertThrowsError(try JSONLines<Item>(bytes: Array(Self.text.utf8))
            .reportingProgress(.atEnd { reports.append($0) }).forEach { _ in })
        XCTAssertEqual(reports.map(\.recordsDecoded), [2])
        XCTAssertEqual(reports.map(\.recordsRejected), [1])
        XCTAssertEqual(reports.map(\.isFinished), [true])
    }

    func testDecodeAllReportsGroupsAndTheTotals() throws {
        let many = (0..<50_000).map { $0 % 1000 == 999 ? "{\"id\": []}" : "{\"id\": \($0)}" }.joined(separator: "\n")
        let data = Data(many.utf8)
        for workers in [1, 2] {
            for format in [JSONStreamFormat.lines, .concatenated] {
                let reports = Collected<JSONLinesProgress>()
                let models = try JSONLines<Item>.decodeAll(data, format: format, workers: workers, onError: .skip { _ in },
                                                           progress: .every(records: 10_000) { reports.append($0) })
                let what = "\(format), \(workers) workers"
                XCTAssertEqual(models.count, 49_950, what)
                XCTAssertEqual(reports.last?.recordsDecoded, 49_950, what)
                XCTAssertEqual(reports.last?.recordsRejected, 50, what)
                XCTAssertEqual(reports.last?.bytesRead, data.count, what)
                XCTAssertEqual(reports.last?.isFinished, true, what)
                XCTAssertEqual(reports.filter(\.isFinished).count, 1, what)
                // Periodic reports while decoding: at least one before the end, counts never going back.
                XCTAssertGreaterThanOrEqual(reports.count, 2, what)
                XCTAssertEqual(reports.map(\.records), reports.map(\.records).sorted(), what)
                XCTAssertEqual(reports.map(\.bytesRead), reports.map(\.bytesRead).sorted(), what)
            }
        }
    }
}
