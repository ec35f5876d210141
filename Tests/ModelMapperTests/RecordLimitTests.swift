import Foundation
@testable import ModelMapper
import XCTest

// `maxRecordBytes` (issue 44.8): a record longer than the limit is one rejected record holding its first
// bytes, the rest of it is dropped as it streams, the records after it keep their numbers and positions,
// and a reader's memory stays bounded whatever the record's size.

private struct Item: JSONMappable, Equatable {
    var id = 0
    var name = ""
}

/// What a reader produced: the models' ids, every rejection as text (all fields), the error that ended it.
private struct Result: Equatable {
    var ids: [Int] = []
    var rejections: [String] = []
    var error: String?
}

private func text(_ r: RejectedRecord) -> String {
    "\(r.index)|\(r.line)|\(r.column)|\(r.offset)|\(r.error.kind)|\(r.error.line ?? -1)|\(r.error.offset ?? -1)|"
        + "\(r.error.path)|\(r.error.message)|\(r.rawText)"
}

/// An `AsyncSequence` of chunks made as they are asked for: `head`, then `fill` repeated `fillBytes` times
/// (in chunks of `chunk`), then `tail`. `sample` runs before each chunk is made (to watch memory).
private struct GeneratedChunks: AsyncSequence, @unchecked Sendable {
    typealias Element = [UInt8]
    let head: [UInt8]
    let fill: UInt8
    let fillBytes: Int
    let tail: [UInt8]
    var chunk = 1 << 20
    var sample: () -> Void = {}

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: GeneratedChunks
        var headSent = false
        var filled = 0
        var tailSent = false

        mutating func next() async -> [UInt8]? {
            source.sample()
            if !headSent {
                headSent = true
                return source.head
            }
            if filled < source.fillBytes {
                let n = Swift.min(source.chunk, source.fillBytes - filled)
                filled += n
                return [UInt8](repeating: source.fill, count: n)
            }
            if !tailSent {
                tailSent = true
                return source.tail
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}

/// The process's resident memory now (Linux `/proc/self/statm`), in bytes; nil elsewhere.
private func residentBytes() -> Int? {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The largest resident memory seen by `sample()` calls, above what it was at creation.
private final class MemoryWatch: @unchecked Sendable {
    private let lock = NSLock()
    private let baseline = residentBytes() ?? 0
    private var peak = 0

    func sample() {
        guard let now = residentBytes() else { return }
        lock.lock()
        peak = max(peak, now - baseline)
        lock.unlock()
    }

    var growth: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }
}

final class RecordLimitTests: XCTestCase {
    private func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("RecordLimitTests-\(UUID().uuidString).jsonl")
        try Data(bytes).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    private func readSync(_ make: (RecordErrorPolicy) -> JSONLines<Item>) -> Result {
        var result = Result()
        let rejected = Box()
        do { try make(.skip { rejected.items.append(text($0)) }).forEach { result.ids.append($0.id) } } catch {
            result.error = "\(error)"
        }
        result.rejections = rejected.items
        return result
    }

    private func readAsync(_ make: (RecordErrorPolicy) -> JSONLines<Item>) async -> Result {
        var result = Result()
        let rejected = Box()
        do { for try await item in make(.skip { rejected.items.append(text($0)) }) { result.ids.append(item.id) } } catch {
            result.error = "\(error)"
        }
        result.rejections = rejected.items
        return result
    }

    private final class Box: @unchecked Sendable { var items: [String] = [] }

    /// Every source, chunk size and number of workers gives `expected` for `input` under `limit`.
    private func assertEverySource(_ input: [UInt8], format: JSONStreamFormat, limit: Int, expected: Result,
                                   file: StaticString = #filePath, line: UInt = #line) async throws {
        let url = try temporaryFile(input)
        for workers in [1, 2] {
            let what = "\(format), \(workers) workers"
            XCTAssertEqual(readSync { JSONLines(bytes: input, format: format, workers: workers, maxRecordBytes: limit, onError: $0) },
                           expected, "bytes, \(what)", file: file, line: line)
            for chunk in [1, 3, 7, 16, 64, 1 << 12] {
                XCTAssertEqual(readSync { JSONLines(url: url, format: format, workers: workers, chunkSize: chunk,
                                                    maxRecordBytes: limit, onError: $0) },
                               expected, "file, chunks of \(chunk), \(what)", file: file, line: line)
                let async = await readAsync { JSONLines(path: url.path, format: format, workers: workers,
                                                        chunkSize: chunk, maxRecordBytes: limit, onError: $0) }
                XCTAssertEqual(async, expected, "async file, chunks of \(chunk), \(what)", file: file, line: line)
                let pieces = stride(from: 0, to: input.count, by: chunk).map { Array(input[$0..<min($0 + chunk, input.count)]) }
                let stream = AsyncStream<[UInt8]> { continuation in
                    for piece in pieces { continuation.yield(piece) }
                    continuation.finish()
                }
                let chunked = await readAsync { JSONLines(chunks: stream, format: format, workers: workers,
                                                          chunkSize: chunk, maxRecordBytes: limit, onError: $0) }
                XCTAssertEqual(chunked, expected, "async chunks of \(chunk), \(what)", file: file, line: line)
            }
            var all = Result()
            let rejected = Box()
            all.ids = try JSONLines<Item>.decodeAll(input, format: format, workers: workers, maxRecordBytes: limit,
                                                    onError: .skip { rejected.items.append(text($0)) }).map(\.id)
            all.rejections = rejected.items
            XCTAssertEqual(all, expected, "decodeAll, \(what)", file: file, line: line)
        }
    }

    /// A rejection's text for a record cut at `limit`: the first min(limit, 4096) bytes of `record`.
    private func cut(index: Int, line: Int, column: Int = 1, offset: Int, limit: Int, record: String) -> String {
        "\(index)|\(line)|\(column)|\(offset)|invalidValue|\(line)|\(offset)|[\(index)]|"
            + "the record is longer than maxRecordBytes (\(limit) bytes)|\(String(record.utf8.prefix(min(limit, 4096)))!)"
    }

    func testLineLongerThanTheLimitIsOneRejectionAndTheOthersKeepTheirPositions() async throws {
        let long = #"{"id":2,"name":"abcdefghijklmnopqrstuvwxyz"}"#
        let exact = #"{"id":3,"name":"abcdefghijklmnopqrstu"}"#  // at the limit (its `\r` is not counted): read
        let lines = [#"{"id":1}"#, long + "\r", exact + "\r", "", #"{"id":"bad"}"#, exact + "x", #"{"id":5}"#]
        let input = Array(lines.joined(separator: "\n").utf8)
        // Without a limit that matters: the long lines are records, the bad one rejected.
        let unlimited = readSync { JSONLines(bytes: input, onError: $0) }
        XCTAssertEqual(unlimited.ids, [1, 2, 3, 5])
        XCTAssertEqual(unlimited.rejections.count, 2)  // "bad", and `exact + "x"` (not JSON)
        let limit = exact.utf8.count
        XCTAssertEqual(limit, 39)
        let offsets = lines.reduce(into: [0]) { $0.append($0.last! + $1.utf8.count + 1) }
        let expected = Result(ids: [1, 3, 5], rejections: [
            cut(index: 1, line: 2, offset: offsets[1], limit: limit, record: long),
            unlimited.rejections[0],
            cut(index: 4, line: 6, offset: offsets[5], limit: limit, record: exact + "x"),
        ])
        try await assertEverySource(input, format: .lines, limit: limit, expected: expected)
        // With `.stop`, the cut record ends the stream with its error.
        XCTAssertEqual(readSync { _ in JSONLines(bytes: input, maxRecordBytes: limit, onError: .stop) }.error,
                       "line 2, column 1: invalidValue at [1]: the record is longer than maxRecordBytes (39 bytes)")
        // A limit of two bytes: `{}` is read, `[1]` cut to `[1`.
        let tiny = readSync { JSONLines(bytes: Array("{}\n[1]\n{}".utf8), maxRecordBytes: 2, onError: $0) }
        XCTAssertEqual(tiny, Result(ids: [0, 0], rejections: [cut(index: 1, line: 2, offset: 3, limit: 2, record: "[1]")]))
    }

    func testValueLongerThanTheLimitInConcatenatedAndArrayStreams() async throws {
        let long = #"{"id":2,"name":"a\"b]c{d\nefghijklmnopqrstuvwxyz"}"#
        let spread = "{\"id\":3,\n\"name\":\n\"abcdefghijklmnopqrstuvw\"}"
        let limit = 30
        for format in [JSONStreamFormat.concatenated, .array] {
            let parts = [#"{"id":1}"#, long, spread, #"{"id":4}"#]
            let body = format == .array ? "[" + parts.joined(separator: ",\n") + "]" : parts.joined(separator: "\n")
            let input = Array(body.utf8)
            let offset = { (part: String) in body.utf8.count - body.components(separatedBy: part).dropFirst().joined(separator: part).utf8.count - part.utf8.count }
            // `long` holds an escaped quote and a bracket inside its string: the scan skips to its real end.
            let expected = Result(ids: [1, 4], rejections: [
                cut(index: 1, line: 2, offset: offset(long), limit: limit, record: long),
                cut(index: 2, line: 3, offset: offset(spread), limit: limit, record: spread),
            ])
            try await assertEverySource(input, format: format, limit: limit, expected: expected)
        }
        // Unterminated and longer than the limit: one rejection (the cut), not a second one for the truncation.
        let open = #"{"id":1} {"id":2,"name":"abcdefghijklmnopqrstuvwxyz"#
        let expected = Result(ids: [1], rejections: [cut(index: 1, line: 1, column: 10, offset: 9, limit: 20, record: String(open.dropFirst(9)))])
        try await assertEverySource(Array(open.utf8), format: .concatenated, limit: 20, expected: expected)
    }

    func testDefaultLimitAndItsPrefix() {
        XCTAssertEqual(JSONLines<Item>(bytes: []).maxRecordBytes, 16 << 20)
        XCTAssertEqual(JSONLines<Item>(bytes: [], maxRecordBytes: 0).maxRecordBytes, 1)
        // A 5,000-byte record under a 4,500-byte limit: its first 4,096 bytes are kept.
        let record = #"{"id":9,"name":""# + String(repeating: "é", count: 2_500) + #""}"#
        let raw = Collected<[UInt8]>()
        let ids = try? JSONLines<Item>.decodeAll(Array((record + "\n" + #"{"id":10}"#).utf8), maxRecordBytes: 4_500,
                                                 onError: .skip { raw.append($0.raw) }).map(\.id)
        XCTAssertEqual(ids, [10])
        XCTAssertEqual(raw.items, [Array(record.utf8.prefix(4096))])
    }

    // MARK: Memory

    /// A 192 MiB line from a pipe, read synchronously: rejected at the limit, its bytes dropped as they
    /// come; the window stays near the limit and the process's memory grows by far less than the record.
    func testHugeLineFromAPipeIsDroppedAsItStreams() throws {
        if ProcessInfo.processInfo.environment["MM_UNDER_VALGRIND"] != nil { throw XCTSkip("192 MiB through valgrind") }
        let recordBytes = 192 << 20
        let pipe = Pipe()
        let writer = Thread {
            let handle = pipe.fileHandleForWriting
            handle.write(Data(#"{"id":1}"#.utf8 + [0x0A] + #"{"id":2,"name":""#.utf8))
            let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<(recordBytes >> 20) { handle.write(block) }
            handle.write(Data(#""}"#.utf8 + [0x0A] + #"{"id":3}"#.utf8 + [0x0A]))
            try? handle.close()
        }
        let watch = MemoryWatch()
        writer.start()
        let rejected = Collected<RejectedRecord>()
        var iterator = JSONLines<Item>(fileHandle: pipe.fileHandleForReading, chunkSize: 64 << 10, maxRecordBytes: 1 << 20,
                                       onError: .skip { rejected.append($0); watch.sample() }).makeSyncIterator()
        var ids: [Int] = []
        var window = 0
        while let item = try iterator.next() {
            ids.append(item.id)
            window = max(window, iterator.reader.windowCapacity)
            watch.sample()
        }
        watch.sample()
        XCTAssertEqual(ids, [1, 3])
        XCTAssertEqual(rejected.map(\.index), [1])
        XCTAssertEqual(rejected.first?.raw.count, 4096)
        XCTAssertEqual(rejected.first?.error.kind, .invalidValue)
        XCTAssertLessThanOrEqual(window, 4 << 20, "the window holds the limit and a refill, not the record")
        // Generous: the record is 192 MiB; the reader needs ~2 MiB.
        if !runsUnderAddressSanitizer {  // its quarantine keeps freed chunks resident
            XCTAssertLessThan(watch.growth, 96 << 20, "resident memory grew by \(watch.growth >> 20) MiB")
        }
    }

    /// 256 MiB unterminated in `.concatenated`, and a 128 MiB array element, from lazily generated chunks
    /// read with `for try await` (one and two workers).
    func testHugeValueFromGeneratedChunksIsDroppedAsItStreams() async throws {
        if ProcessInfo.processInfo.environment["MM_UNDER_VALGRIND"] != nil { throw XCTSkip("256 MiB through valgrind") }
        for (format, head, size, tail, expectedIDs) in [
            (JSONStreamFormat.concatenated, #"{"id":1} {"id":2,"name":""#, 256 << 20, "", [1]),
            (.array, #"[{"id":1},{"id":2,"name":""#, 128 << 20, #""},{"id":3}]"#, [1, 3]),
        ] {
            for workers in [1, 2] {
                let watch = MemoryWatch()
                let chunks = GeneratedChunks(head: Array(head.utf8), fill: UInt8(ascii: "y"), fillBytes: size,
                                             tail: Array(tail.utf8), sample: watch.sample)
                let rejected = Box()
                var ids: [Int] = []
                for try await item in JSONLines<Item>(chunks: chunks, format: format, workers: workers, maxRecordBytes: 2 << 20,
                                                      onError: .skip { rejected.items.append(text($0)) }) {
                    ids.append(item.id)
                }
                let what = "\(format), \(workers) workers"
                XCTAssertEqual(ids, expectedIDs, what)
                XCTAssertEqual(rejected.items.count, 1, what)
                XCTAssertTrue(rejected.items.first?.contains("maxRecordBytes (2097152 bytes)") == true, what)
                if !runsUnderAddressSanitizer {  // its quarantine keeps freed chunks resident
                    XCTAssertLessThan(watch.growth, 96 << 20, "\(what): resident memory grew by \(watch.growth >> 20) MiB")
                }
            }
        }
    }
}
