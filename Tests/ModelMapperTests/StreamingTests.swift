import ModelMapperBenchmarkModels
import Foundation
@testable import ModelMapper
import XCTest

// Streaming and bulk decoding (DESIGN.md section 6): JSON Lines, concatenated values and top-level arrays
// from memory, files, file handles and async sequences; chunk boundaries; error reports; parallel decode.

private struct Event: JSONMappable, Equatable {
    var id = 0
    var name = ""
    var tags: [String] = []
    var user = EventUser()
}

private struct EventUser: JSONMappable, Equatable {
    var id = 0
    var nick: String? = nil
}

private func rejectedKey(_ r: RejectedRecord) -> String {
    "\(r.index)|\(r.line)|\(r.column)|\(r.offset)|\(r.error)|\(r.rawText)"
}

/// Collects what a reader produces: models, rejected records and the error that ended it.
private final class Outcome<T: Equatable>: @unchecked Sendable {
    var models: [T] = []
    var rejected: [RejectedRecord] = []
    var error: Error?

    /// Rejections as comparable text (every field, including the error's position and path).
    var rejectedKeys: [String] { rejected.map(rejectedKey) }

    func assertSame(as other: Outcome<T>, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(models, other.models, "models: \(what)", file: file, line: line)
        XCTAssertEqual(rejectedKeys, other.rejectedKeys, "rejections: \(what)", file: file, line: line)
        XCTAssertEqual(error.map { "\($0)" }, other.error.map { "\($0)" }, "error: \(what)", file: file, line: line)
    }
}

final class StreamingTests: XCTestCase {
    // MARK: Helpers

    /// Reads synchronously with `.skip`, collecting rejections.
    private func readSync<T: Equatable>(_ make: (RecordErrorPolicy) -> JSONLines<T>) -> Outcome<T> {
        let out = Outcome<T>()
        let lines = make(.skip { out.rejected.append($0) })
        do { try lines.forEach { out.models.append($0) } } catch { out.error = error }
        return out
    }

    /// Reads with `for try await` and `.skip`.
    private func readAsync<T: Equatable>(_ make: (RecordErrorPolicy) -> JSONLines<T>) async -> Outcome<T> {
        let out = Outcome<T>()
        let lines = make(.skip { out.rejected.append($0) })
        do { for try await model in lines { out.models.append(model) } } catch { out.error = error }
        return out
    }

    private func temporaryFile(_ bytes: [UInt8], _ name: String = "records.jsonl") throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("StreamingTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    private static func chunks(_ bytes: [UInt8], splitAt cuts: [Int]) -> AsyncStream<[UInt8]> {
        var pieces: [[UInt8]] = []
        var start = 0
        for cut in cuts + [bytes.count] where cut >= start {
            pieces.append(Array(bytes[start..<cut]))
            start = cut
        }
        return AsyncStream { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish()
        }
    }

    private static func byteStream(_ bytes: [UInt8]) -> AsyncStream<UInt8> {
        AsyncStream { continuation in
            for byte in bytes { continuation.yield(byte) }
            continuation.finish()
        }
    }

    /// twitter.json's statuses, each re-encoded on one line with a distinct id (the line number).
    private func twitterLines(count: Int) throws -> [[UInt8]] {
        let data = try TestData.data("bench/twitter.json")
        guard case .array(let statuses)? = try JSONValue(json: data)["statuses"] else {
            XCTFail("no statuses")
            return []
        }
        return try (0..<count).map { i in
            guard case .object(var status) = statuses[i % statuses.count] else { return [] }
            status["id"] = .number(JSONNumber(1_000_000 + i))
            return Array(try JSONValue.object(status).jsonData())
        }
    }

    // A small input exercising the awkward bytes: strings holding brackets, quotes, escapes and
    // non-ASCII text, blank lines, CRLF, a wrong type, a bad token, a truncated last record.
    private static let smallLines: [String] = [
        #"{"id":1,"name":"a } ] [ { \" \\","tags":["x","y"],"user":{"id":10}}"#,
        "",
        #"{"id":2,"name":"é😀\u00e9","tags":[],"user":{"id":20,"nick":"n"}}"#,
        #"  {"id":3,"name":"three","user":{"id":"thirty"}}  "#,
        "   ",
        #"{"id":4,"name":"four","tags":[tru],"user":{"id":40}}"#,
        "{\"id\":5,\"name\":\"five\",\"tags\":[\"a\"],\"user\":{\"id\":50}}\r",
        #"{"id":6,"name":"six","user":{"id":60}}"#,
        #"{"id":7,"name":"sev"#,
    ]

    private static var smallJSONL: [UInt8] { Array(smallLines.joined(separator: "\n").utf8) }

    // MARK: JSON Lines

    func testEveryRecordEqualsDecodingItAlone() async throws {
        let lines = try twitterLines(count: 250)
        var text: [UInt8] = []
        for (i, line) in lines.enumerated() {
            text += line
            text += i % 7 == 3 ? Array("\r\n\n".utf8) : [0x0A]
        }
        let expected = try lines.map { try TwitterStatus(json: $0) }
        let url = try temporaryFile(text)

        let fromBytes = readSync { JSONLines<TwitterStatus>(bytes: text, onError: $0) }
        let fromFile = readSync { JSONLines<TwitterStatus>(url: url, chunkSize: 4096, onError: $0) }
        let fromFileParallel = readSync { JSONLines<TwitterStatus>(path: url.path, workers: 3, chunkSize: 8192, onError: $0) }
        let fromAsync = await readAsync { JSONLines<TwitterStatus>(chunks: Self.chunks(text, splitAt: [1000, 5000, 5001]), onError: $0) }
        for (out, what) in [(fromBytes, "bytes"), (fromFile, "file"), (fromFileParallel, "parallel"), (fromAsync, "async")] {
            XCTAssertNil(out.error, what)
            XCTAssertTrue(out.rejected.isEmpty, "\(what): \(out.rejectedKeys)")
            XCTAssertEqual(out.models.count, expected.count, what)
            XCTAssertTrue(out.models == expected, what)
        }
        let all = try JSONLines<TwitterStatus>.decodeAll(text, workers: 2, onError: .stop)
        XCTAssertTrue(all == expected)
    }

    func testSmallFileReportsEachBadRecordWithPosition() throws {
        let out = readSync { JSONLines<Event>(bytes: Self.smallJSONL, onError: $0) }
        XCTAssertNil(out.error)
        XCTAssertEqual(out.models.map(\.id), [1, 2, 5, 6])
        XCTAssertEqual(out.models[0].name, #"a } ] [ { " \"#)
        XCTAssertEqual(out.models[1].name, "é😀é")
        XCTAssertEqual(out.rejected.map(\.index), [2, 3, 6])
        XCTAssertEqual(out.rejected.map(\.line), [4, 6, 9])
        let text = Self.smallJSONL
        func lineStart(_ line: Int) -> Int {
            Self.smallLines[0..<(line - 1)].reduce(0) { $0 + $1.utf8.count + 1 }
        }
        for record in out.rejected {
            XCTAssertEqual(record.offset, lineStart(record.line), "offset of record \(record.index)")
            XCTAssertEqual(record.rawText, Self.smallLines[record.line - 1], "raw of record \(record.index)")
            XCTAssertEqual(record.error.line, record.line)
            XCTAssertTrue(record.error.path.hasPrefix("[\(record.index)]"), record.error.path)
        }
        // Wrong type: the error points at "thirty" in whole-file coordinates.
        let wrongType = out.rejected[0].error
        XCTAssertEqual(wrongType.kind, .invalidValue)  // lenient: a string that is not a number
        XCTAssertEqual(wrongType.path, "[2].user.id")
        let thirty = Self.smallLines[3].utf8.firstRange(of: #""thirty""#.utf8)!.lowerBound
        let column = Self.smallLines[3].utf8.distance(from: Self.smallLines[3].utf8.startIndex, to: thirty)
        XCTAssertEqual(wrongType.offset, lineStart(4) + column)
        XCTAssertEqual(wrongType.column, column + 1)
        XCTAssertEqual(Array(text[wrongType.offset!..<(wrongType.offset! + 8)]), Array(#""thirty""#.utf8))
        // Bad token and truncated last line: syntax errors.
        XCTAssertEqual(out.rejected[1].error.kind, .syntax)
        XCTAssertEqual(out.rejected[2].error.kind, .syntax)
        XCTAssertTrue(out.rejected[2].error.message.contains("end of input"), out.rejected[2].error.message)
        // The same errors as decoding each record alone, shifted.
        for record in out.rejected {
            do {
                _ = try Event(json: record.raw)
                XCTFail("record \(record.index) decodes alone")
            } catch let alone as MappingError {
                XCTAssertEqual(alone.kind, record.error.kind)
                XCTAssertEqual(alone.message, record.error.message)
                XCTAssertEqual("[\(record.index)]" + (alone.path.isEmpty || alone.path.first == "[" ? "" : ".") + alone.path,
                               record.error.path)
                XCTAssertEqual(alone.offset! + record.offset, record.error.offset!)
                XCTAssertEqual(alone.column, record.error.column)
            }
        }
    }

    func testChunkBoundariesAtEveryByte() async throws {
        for format in [JSONStreamFormat.lines, .concatenated, .array] {
            let text: [UInt8]
            switch format {
            case .lines: text = Self.smallJSONL
            case .concatenated: text = Array((Self.smallLines.dropLast().joined(separator: "") + "\n" + Self.smallLines.last!).utf8)
            case .array: text = Array(("[\n" + Self.smallLines.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
                    .dropLast().joined(separator: ",\n") + "]\n").utf8)
            }
            let whole = readSync { JSONLines<Event>(bytes: text, format: format, onError: $0) }
            XCTAssertFalse(whole.models.isEmpty, "\(format)")
            XCTAssertFalse(whole.rejected.isEmpty, "\(format)")
            for cut in 0...text.count {
                let split = await readAsync { JSONLines<Event>(chunks: Self.chunks(text, splitAt: [cut]), format: format, onError: $0) }
                split.assertSame(as: whole, "\(format) split at \(cut)")
            }
            let url = try temporaryFile(text)
            for chunkSize in [1, 2, 3, 5, 8, 13, 64] {
                readSync { JSONLines<Event>(url: url, format: format, chunkSize: chunkSize, onError: $0) }
                    .assertSame(as: whole, "\(format) chunk size \(chunkSize)")
                readSync { JSONLines<Event>(url: url, format: format, workers: 2, chunkSize: chunkSize, onError: $0) }
                    .assertSame(as: whole, "\(format) chunk size \(chunkSize), 2 workers")
            }
            let oneByte = await readAsync { JSONLines<Event>(chunks: Self.chunks(text, splitAt: Array(1..<text.count)), format: format, onError: $0) }
            oneByte.assertSame(as: whole, "\(format) 1-byte chunks")
            let bytes = await readAsync { JSONLines<Event>(bytes: Self.byteStream(text), format: format, onError: $0) }
            bytes.assertSame(as: whole, "\(format) byte sequence")
        }
    }

    func testCorruptedLinesReportedWhileGoodOnesDecode() throws {
        var lines = try twitterLines(count: 120).map { String(decoding: $0, as: UTF8.self) }
        // Seeded corruptions: truncate, bad token, wrong type.
        var generator = SplitMix64(seed: 42)
        var corrupted: [Int: String] = [:]
        for i in 0..<lines.count where generator.next() % 5 == 0 {
            switch generator.next() % 3 {
            case 0:
                let utf8 = Array(lines[i].utf8)
                lines[i] = String(decoding: utf8[0..<Int(generator.next() % UInt64(utf8.count - 1)) + 1], as: UTF8.self)
                corrupted[i] = "truncate"
            case 1:
                lines[i] = lines[i].replacingOccurrences(of: #""truncated":false"#, with: #""truncated":fals"#)
                corrupted[i] = "token"
            default:
                lines[i] = lines[i].replacingOccurrences(of: #""user":{"#, with: #""user":7,"x":{"#)
                corrupted[i] = "type"
            }
        }
        let text = Array(lines.joined(separator: "\n").utf8) + [0x0A]
        let out = readSync { JSONLines<TwitterStatus>(bytes: text, onError: $0) }
        XCTAssertNil(out.error)
        XCTAssertEqual(out.rejected.map(\.index), corrupted.keys.sorted())
        XCTAssertEqual(out.models.count, lines.count - corrupted.count)
        var offset = 0
        var offsets: [Int] = []
        for line in lines {
            offsets.append(offset)
            offset += line.utf8.count + 1
        }
        for record in out.rejected {
            XCTAssertEqual(record.line, record.index + 1)
            XCTAssertEqual(record.offset, offsets[record.index])
            XCTAssertEqual(record.rawText, lines[record.index])
            let kind = corrupted[record.index]!
            XCTAssertEqual(record.error.kind, kind == "type" ? .typeMismatch : .syntax, "\(kind): \(record.error)")
            XCTAssertEqual(record.error.line, record.line)
            let within = record.error.offset! - record.offset
            XCTAssertTrue(within >= 0 && within <= record.raw.count, "\(record.error)")
            if kind == "type" { XCTAssertEqual(record.error.path, "[\(record.index)].user") }
        }
        var good = 0
        for (i, line) in lines.enumerated() where corrupted[i] == nil {
            XCTAssertEqual(out.models[good], try TwitterStatus(json: line))
            good += 1
        }
    }

    func testTruncatedFinalRecordIsReported() throws {
        for tail in [#"{"id":9,"name":"x""#, "{\"id\":9,\"name\":\"x\"\n", "{\"id\":9,\"user\":{\"id\":1}\r\n"] {
            let text = Array((#"{"id":8}"# + "\n" + tail).utf8)
            let out = readSync { JSONLines<Event>(bytes: text, onError: $0) }
            XCTAssertEqual(out.models.map(\.id), [8])
            XCTAssertEqual(out.rejected.count, 1, tail)
            XCTAssertEqual(out.rejected.first?.index, 1)
            XCTAssertEqual(out.rejected.first?.line, 2)
            XCTAssertEqual(out.rejected.first?.offset, 9)
            XCTAssertEqual(out.rejected.first?.error.kind, .syntax)
            XCTAssertEqual(out.rejected.first?.error.line, 2)
        }
    }

    func testStopThrowsFirstErrorWithPosition() async throws {
        let text = Array((#"{"id":1}"# + "\n\n" + #"{"id":2,"user":{"id":true}}"# + "\n" + #"{"id":3,"user":[]}"#).utf8)
        func check(_ error: Error?, _ what: String) {
            guard let error = error as? MappingError else { return XCTFail("\(what): \(String(describing: error))") }
            XCTAssertEqual(error.kind, .typeMismatch, what)
            XCTAssertEqual(error.path, "[1].user.id", what)
            XCTAssertEqual(error.line, 3, what)
            XCTAssertEqual(error.column, 22, what)
            XCTAssertEqual(error.offset, 10 + 21, what)
        }
        var seen: [Int] = []
        do {
            try JSONLines<Event>(bytes: text, onError: .stop).forEach { seen.append($0.id) }
            XCTFail("no error")
        } catch { check(error, "sync") }
        XCTAssertEqual(seen, [1])
        seen = []
        do {
            for try await event in JSONLines<Event>(chunks: Self.chunks(text, splitAt: [5, 12]), onError: .stop) { seen.append(event.id) }
            XCTFail("no error")
        } catch { check(error, "async") }
        XCTAssertEqual(seen, [1])
        for workers in 1...3 {
            do {
                _ = try JSONLines<Event>.decodeAll(text, workers: workers, onError: .stop)
                XCTFail("no error")
            } catch { check(error, "decodeAll \(workers)") }
        }
        // records(): the error is the last element.
        let results = Array(JSONLines<Event>(bytes: text).records())
        XCTAssertEqual(results.count, 2)
        XCTAssertEqual(try results[0].get().id, 1)
        if case .failure(let error) = results[1] { check(error, "records") } else { XCTFail("no failure") }
        // The binding spelling.
        let lines = JSONLines<Event>(data: Data(text), options: .lenient, onError: .stop)
        var iterator = lines.makeAsyncIterator()
        let first = try await iterator.next()
        XCTAssertEqual(first?.id, 1)
        do { _ = try await iterator.next(); XCTFail("no error") } catch { check(error, "iterator") }
        let afterError = try await iterator.next()
        XCTAssertNil(afterError)
    }

    func testSkipInvalidValuesReportsGlobalPositions() throws {
        final class Box: @unchecked Sendable { var errors: [MappingError] = []; let lock = NSLock() }
        let box = Box()
        let options = DecodingOptions.lenient.skippingInvalidValues { e in box.lock.lock(); box.errors.append(e); box.lock.unlock() }
        let text = Array((#"{"id":1}"# + "\n" + #"{"id":2,"user":{"id":"x"}}"#).utf8)
        let models = try JSONLines<Event>.decodeAll(text, options: options, workers: 1)
        XCTAssertEqual(models.map(\.id), [1, 2])
        XCTAssertEqual(box.errors.count, 1)
        XCTAssertEqual(box.errors.first?.path, "[1].user.id")
        XCTAssertEqual(box.errors.first?.line, 2)
        XCTAssertEqual(box.errors.first?.offset, 9 + 21)
        XCTAssertEqual(box.errors.first?.column, 22)
    }

    // MARK: Concatenated values and arrays

    func testConcatenatedValues() throws {
        let text = Array((#"{"id":1}{"id":2} {"id":3,"tags":["]"]}"# + "\n" + #"{"id":4,"#
            + "\n" + #""name":"four"} ] 5 {"id":6}"#).utf8)
        let out = readSync { JSONLines<Event>(bytes: text, format: .concatenated, onError: $0) }
        XCTAssertEqual(out.models.map(\.id), [1, 2, 3, 4, 6])
        XCTAssertEqual(out.models[3].name, "four")
        XCTAssertEqual(out.rejected.map(\.index), [4, 5])
        XCTAssertEqual(out.rejected.map(\.rawText), ["]", "5"])
        XCTAssertEqual(out.rejected.map(\.line), [3, 3])
        XCTAssertEqual(out.rejected.map(\.column), [16, 18])
        XCTAssertEqual(out.rejected[0].error.kind, .syntax)
        XCTAssertEqual(out.rejected[1].error.kind, .typeMismatch)
        XCTAssertEqual(out.rejected[1].error.column, 18)
    }

    func testArrayStreamEqualsArrayDecoding() async throws {
        let lines = try twitterLines(count: 150)
        let text = Array("[\n".utf8) + lines.joined(separator: Array(",\n".utf8)) + Array("\n]\n".utf8)
        let expected = try [TwitterStatus](json: text)
        XCTAssertEqual(expected.count, 150)
        let url = try temporaryFile(text, "array.json")
        var streamed: [TwitterStatus] = []
        for try await status in JSONArrayStream<TwitterStatus>(url: url, chunkSize: 3000) { streamed.append(status) }
        XCTAssertTrue(streamed == expected)
        var synchronous: [TwitterStatus] = []
        try JSONArrayStream<TwitterStatus>(bytes: text, workers: 2).forEach { synchronous.append($0) }
        XCTAssertTrue(synchronous == expected)
        for workers in 1...3 {
            XCTAssertTrue(try JSONArrayStream<TwitterStatus>.decodeAll(text, workers: workers) == expected)
        }
        // A one-line array: columns keep counting across chunks.
        let compact = Array(try [Event](json: #"[{"id":1},{"id":2}]"#).jsonData())
        let bad = Array(#"[{"id":1},{"id":"é"},{"id":3}]"#.utf8)
        let out = readSync { JSONLines<Event>(bytes: bad, format: .array, onError: $0) }
        XCTAssertEqual(out.models.map(\.id), [1, 3])
        XCTAssertEqual(out.rejected.first?.column, 11)
        XCTAssertEqual(out.rejected.first?.error.column, 17)
        XCTAssertEqual(out.rejected.first?.error.offset, 16)
        XCTAssertEqual(out.rejected.first?.error.path, "[1].id")
        do {
            _ = try [Event](json: bad)
            XCTFail("no error")
        } catch let whole as MappingError {
            XCTAssertEqual(whole.path, out.rejected.first?.error.path)
            XCTAssertEqual(whole.offset, out.rejected.first?.error.offset)
            XCTAssertEqual(whole.column, out.rejected.first?.error.column)
        }
        XCTAssertEqual(try JSONArrayStream<Event>.decodeAll(compact).map(\.id), [1, 2])
        let chunked = readSync { JSONLines<Event>(url: try! self.temporaryFile(bad), format: .array, chunkSize: 4, onError: $0) }
        chunked.assertSame(as: out, "one-line array in 4-byte chunks")
    }

    func testArrayFramingErrors() throws {
        func run(_ text: String) -> Outcome<Event> {
            readSync { JSONLines<Event>(bytes: Array(text.utf8), format: .array, onError: $0) }
        }
        var out = run(#"[{"id":1} {"id":2}, {"id":3},]"#)
        XCTAssertEqual(out.models.map(\.id), [1, 3])
        XCTAssertEqual(out.rejected.map(\.index), [1, 3])
        XCTAssertEqual(out.rejected.map(\.rawText), [#"{"id":2}"#, "]"])
        XCTAssertTrue(out.rejected.allSatisfy { $0.error.kind == .syntax })
        out = run(#"[{"id":1}, {"id":2}"#)
        XCTAssertEqual(out.models.map(\.id), [1, 2])
        XCTAssertEqual(out.rejected.map(\.index), [2])
        XCTAssertEqual(out.rejected.first?.offset, 19)
        XCTAssertTrue(out.rejected.first!.error.message.contains("not closed"))
        out = run(#"[{"id":1}] {"id":2}"#)
        XCTAssertEqual(out.models.map(\.id), [1])
        XCTAssertEqual(out.rejected.map(\.rawText), [#"{"id":2}"#])
        out = run(#"{"id":1}"#)
        XCTAssertEqual(out.models.count, 0)
        XCTAssertTrue(out.rejected.first!.error.message.contains("top-level array"))
        out = run("  ")
        XCTAssertEqual(out.rejected.count, 1)
        out = run("[]")
        XCTAssertTrue(out.models.isEmpty && out.rejected.isEmpty)
        out = run(#"[{"id":[1,2}, {"id":3}]"#)
        XCTAssertEqual(out.models.map(\.id), [3])
        XCTAssertEqual(out.rejected.map(\.rawText), [#"{"id":[1,2}"#])
        out = run(#"[{"id":1}, {"id":2"#)
        XCTAssertEqual(out.models.map(\.id), [1])
        XCTAssertEqual(out.rejected.map(\.rawText), [#"{"id":2"#])
        XCTAssertThrowsError(try JSONArrayStream<Event>.decodeAll(#"[{"id":1},]"#))
    }

    func testTruncatedValueInsideArrayOrConcatenationDoesNotHideTheRest() throws {
        let cut = #"{"id":2,"name":"tw"#
        let array = "[\n" + [#"{"id":1}"#, cut, #"{"id":3,"name":"x"}"#, #"{"id":4}"#].joined(separator: ",\n") + "\n]\n"
        var out = readSync { JSONLines<Event>(bytes: Array(array.utf8), format: .array, onError: $0) }
        XCTAssertEqual(out.models.map(\.id), [1, 3, 4])
        XCTAssertEqual(out.rejected.map(\.rawText), [cut + ","])
        XCTAssertEqual(out.rejected.map(\.line), [3])
        // Cut as the last element, before the closing bracket.
        out = readSync { JSONLines<Event>(bytes: Array(("[" + #"{"id":1},"# + "\n" + cut + "\n]").utf8), format: .array, onError: $0) }
        XCTAssertEqual(out.models.map(\.id), [1])
        XCTAssertEqual(out.rejected.map(\.rawText), [cut])
        let concatenated = [#"{"id":1}"#, cut, #"{"id":3}"#].joined(separator: "\n")
        out = readSync { JSONLines<Event>(bytes: Array(concatenated.utf8), format: .concatenated, onError: $0) }
        XCTAssertEqual(out.models.map(\.id), [1, 3])
        XCTAssertEqual(out.rejected.map(\.index), [1])
    }

    // MARK: Sources

    /// `for try await` with two workers reads the next batch's input while a batch decodes (into a second
    /// window, the undecoded tail carried over): small chunks make every batch boundary cut a record, a
    /// 40 KB record spans many reads ahead, and bad records fall on either side; models, rejections (with
    /// their positions) and the `.stop` error are the single-threaded reader's, and the windows (one per
    /// batch in flight, and the one being read into) stay bounded by the largest record plus a batch.
    func testAsyncWorkersReadingAheadAgreeWithOneWorker() async throws {
        var text: [UInt8] = []
        for i in 0..<3_000 {
            switch i % 397 {
            case 17: text += Array(#"{"id":\#(i),"name":"cut"#.utf8)                                   // truncated
            case 101: text += Array(#"{"id":{"n":\#(i)},"name":"type"}"#.utf8)                        // wrong type
            case 211: text += Array(#"{"id":\#(i),"name":"\#(String(repeating: "y", count: 40_000))"}"#.utf8)
            default: text += Array(#"{"id":\#(i),"name":"n\#(i)","tags":["a"],"user":{"id":\#(i % 7)}}"#.utf8)
            }
            text.append(0x0A)
        }
        let url = try temporaryFile(text)
        for format in [JSONStreamFormat.lines, .concatenated] {
            let reference = readSync { JSONLines<Event>(bytes: text, format: format, onError: $0) }
            if format == .lines { XCTAssertEqual(reference.rejected.count, 16) }
            for chunkSize in [1_000, 4_096, 64 << 10] {
                let what = "\(format), chunk \(chunkSize)"
                let out = Outcome<Event>()
                var capacity = 0
                var iterator = JSONLines<Event>(url: url, format: format, workers: 2, chunkSize: chunkSize,
                                                onError: .skip { out.rejected.append($0) }).makeAsyncIterator()
                do {
                    while let model = try await iterator.next() {
                        out.models.append(model)
                        capacity = max(capacity, iterator.reader.inputCapacity)
                    }
                } catch { out.error = error }
                out.assertSame(as: reference, what)
                // Each window the batch (two chunks) plus the 40 KB record, doubled at most once.
                let windows = RecordEngine<Event>.batchesInFlight + 1
                XCTAssertLessThanOrEqual(capacity, windows * 2 * (2 * chunkSize + 40_100 + 4096), what)
                var stopped: Error?
                var count = 0
                do {
                    for try await _ in JSONLines<Event>(url: url, format: format, workers: 2, chunkSize: chunkSize) {
                        count += 1
                    }
                } catch { stopped = error }
                XCTAssertEqual(count, reference.rejected.first?.index, what)
                XCTAssertEqual((stopped as? MappingError).map { "\($0)" }, reference.rejected.first.map { "\($0.error)" }, what)
            }
        }
    }

    func testSourcesAgree() async throws {
        let text = Self.smallJSONL
        let url = try temporaryFile(text)
        let reference = readSync { JSONLines<Event>(bytes: text, onError: $0) }
        readSync { JSONLines<Event>(data: Data(text), onError: $0) }.assertSame(as: reference, "data")
        readSync { JSONLines<Event>(url: url, onError: $0) }.assertSame(as: reference, "url")
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        readSync { JSONLines<Event>(fileHandle: handle, chunkSize: 7, onError: $0) }.assertSame(as: reference, "handle")
        await readAsync { JSONLines<Event>(url: url, chunkSize: 10, onError: $0) }.assertSame(as: reference, "async url")
        await readAsync { JSONLines<Event>(bytes: text, workers: 2, onError: $0) }.assertSame(as: reference, "async bytes")
        // Sequence of Results with .skip: only models.
        let results = Array(JSONLines<Event>(bytes: text, onError: .skip { _ in }).records())
        XCTAssertEqual(try results.map { try $0.get() }, reference.models)
        // A missing file, a non-file URL, sync iteration of an async source: errors, not crashes.
        XCTAssertThrowsError(try JSONLines<Event>(path: "/nonexistent/x.jsonl").forEach { _ in })
        XCTAssertThrowsError(try JSONLines<Event>(url: URL(string: "https://example.com/x")!).forEach { _ in })
        XCTAssertThrowsError(try JSONLines<Event>(bytes: Self.byteStream(text)).forEach { _ in })
        // Empty inputs.
        XCTAssertEqual(try JSONLines<Event>.decodeAll(Data()), [])
        XCTAssertEqual(try JSONLines<Event>.decodeAll("\n\n  \r\n"), [])
        XCTAssertEqual(try JSONLines<Event>.decodeAll(contentsOf: url, onError: .skip { _ in }), reference.models)
    }

    // MARK: Parallel decoding

    func testDecodeAllMatchesSequentialForAnyWorkerCount() throws {
        var lines = try twitterLines(count: 400).map { String(decoding: $0, as: UTF8.self) }
        for i in stride(from: 3, to: lines.count, by: 37) { lines[i] = String(lines[i].prefix(100)) }
        for i in stride(from: 5, to: lines.count, by: 41) { lines[i] = "" }
        let text = Array(lines.joined(separator: "\n").utf8)
        let sequential = readSync { JSONLines<TwitterStatus>(bytes: text, onError: $0) }
        XCTAssertEqual(sequential.rejected.count, 11)
        for workers in 1...3 {
            let out = Outcome<TwitterStatus>()
            out.models = try JSONLines<TwitterStatus>.decodeAll(text, workers: workers, onError: .skip { out.rejected.append($0) })
            out.assertSame(as: sequential, "decodeAll, \(workers) workers")
            readSync { JSONLines<TwitterStatus>(bytes: text, workers: workers, onError: $0) }
                .assertSame(as: sequential, "stream, \(workers) workers")
            XCTAssertThrowsError(try JSONLines<TwitterStatus>.decodeAll(text, workers: workers)) { error in
                XCTAssertEqual("\(error)", "\(sequential.rejected[0].error)")
            }
            // Streaming with .stop: the models before the first bad record, then its error.
            var count = 0
            XCTAssertThrowsError(try JSONLines<TwitterStatus>(bytes: text, workers: workers).forEach { _ in count += 1 }) { error in
                XCTAssertEqual("\(error)", "\(sequential.rejected[0].error)")
            }
            XCTAssertEqual(count, sequential.rejected[0].index)
            // Abandoning an iteration early stops the background threads cleanly.
            let url = try temporaryFile(text)
            for _ in 0..<3 {
                var iterator = JSONLines<TwitterStatus>(url: url, workers: workers, chunkSize: 1 << 12,
                                                        onError: .skip { _ in }).makeSyncIterator()
                XCTAssertNotNil(try iterator.next())
            }
        }
        // Concatenated: the same records without newlines between them.
        let good = lines.filter { $0.hasSuffix("}") }
        let concatenated = Array(good.joined().utf8)
        let expected = try good.map { try TwitterStatus(json: $0) }
        for workers in 1...3 {
            XCTAssertTrue(try JSONLines<TwitterStatus>.decodeAll(concatenated, format: .concatenated, workers: workers) == expected)
        }
    }

    func testMemoryStaysBoundedByLargestRecord() throws {
        // 4 MB of small records read in 16 KB chunks: the window never grows past a few chunks. Under
        // scripts/leakcheck (valgrind, ~50x slower) 1 MB: there the run is for the reader's leaks and
        // invalid accesses, which the same paths show at any size; the bound itself is asserted natively.
        let size = ProcessInfo.processInfo.environment["MM_UNDER_VALGRIND"] == nil ? 4 << 20 : 1 << 20
        let record = Array(#"{"id":1,"name":"abcdefghijklmnopqrstuvwxyz","tags":["a","b"]}"#.utf8) + [0x0A]
        var text: [UInt8] = []
        text.reserveCapacity(size)
        while text.count < size { text += record }
        // One record of 200 KB in the middle.
        let big = Array(#"{"id":2,"name":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: 200_000) + Array(#""}"#.utf8) + [0x0A]
        text.insert(contentsOf: big, at: (text.count / 2 / record.count) * record.count)
        let url = try temporaryFile(text)
        for format in [JSONStreamFormat.lines, .concatenated] {
            for workers in [1, 2] {
                var iterator = JSONLines<Event>(url: url, format: format, workers: workers, chunkSize: 16 << 10)
                    .makeSyncIterator()
                var count = 0
                var maxCapacity = 0
                var bigName = 0
                while let event = try iterator.next() {
                    count += 1
                    maxCapacity = max(maxCapacity, iterator.reader.windowCapacity)
                    if event.id == 2 { bigName = event.name.utf8.count }
                }
                XCTAssertEqual(count, (text.count - big.count) / record.count + 1)
                XCTAssertEqual(bigName, 200_000)
                XCTAssertLessThanOrEqual(maxCapacity, 1 << 20, "\(format)")
                XCTAssertEqual(iterator.bytesConsumed, text.count - 1)
            }
        }
    }

    /// scripts/gen-jsonl's corrupted records (its truth file) are exactly the rejected ones.
    func testGeneratedFileMatchesGeneratorTruth() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../scripts/gen-jsonl").standardizedFileURL
        let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let python else { throw XCTSkip("python3 is not installed") }
        // Foundation's Process closes inherited descriptors, and valgrind's own make it fail with EBADF.
        if ProcessInfo.processInfo.environment["MM_UNDER_VALGRIND"] != nil { throw XCTSkip("cannot spawn python3 under valgrind") }
        let twitter = try TestData.url("bench/twitter.json")
        let url = try temporaryFile([], "generated.jsonl")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, "0.6", "-o", url.path, "--seed", "11", "--corrupt", "0.05", "--blank", "0.02",
                             "--data", twitter.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        struct Truth: JSONMappable { var index = 0; var line = 0; var offset = 0; var kind = "" }
        let truth = try [Truth](json: Data(contentsOf: URL(fileURLWithPath: url.path + ".corrupted.json")))
        XCTAssertGreaterThan(truth.count, 0)
        let out = readSync { JSONLines<TwitterStatus>(url: url, chunkSize: 1 << 14, onError: $0) }
        XCTAssertNil(out.error)
        XCTAssertEqual(out.rejected.map(\.index), truth.map(\.index))
        XCTAssertEqual(out.rejected.map(\.line), truth.map(\.line))
        XCTAssertEqual(out.rejected.map(\.offset), truth.map(\.offset))
        for (record, expected) in zip(out.rejected, truth) {
            XCTAssertEqual(record.error.kind, expected.kind == "type" ? .typeMismatch : .syntax, "\(record)")
        }
        let text = try Data(contentsOf: url)
        for workers in 1...2 {
            let all = Outcome<TwitterStatus>()
            all.models = try JSONLines<TwitterStatus>.decodeAll(text, workers: workers, onError: .skip { all.rejected.append($0) })
            all.assertSame(as: out, "decodeAll \(workers)")
        }
    }

    /// Compiles: iterating from the main actor (a non-Sendable iterator stays on the caller's actor).
    @MainActor
    func testIterationOnMainActor() async throws {
        var ids: [Int] = []
        for try await event in JSONLines<Event>(bytes: Array(#"{"id":1}"#.utf8)) { ids.append(event.id) }
        XCTAssertEqual(ids, [1])
    }

    // MARK: Tape compaction

    func testDiscardPrefixKeepsRecordsAndOpenArray() throws {
        // A top-level array tokenized in chunks with records at depth 1; after each chunk the completed
        // records are decoded and dropped. The open array's start token must survive.
        let elements = (0..<50).map { #"{"id":\#($0),"name":"n\#($0)\\u00e9","tags":["t"]}"# }
        let text = Array(("[" + elements.joined(separator: ",") + "]").utf8)
        let expected = try [Event](json: text)
        let codec = try MetaCache.shared.codec(for: Event.self)
        let tokenizer = Tokenizer(expectedInputSize: 64, depthLimit: 512, recordDepth: 1)
        var decoded: [Event] = []
        var consumed = 1  // tokens [0, consumed) are done; token 0 is the array start
        for chunkStart in stride(from: 0, to: text.count, by: 37) {
            let chunk = Array(text[chunkStart..<min(text.count, chunkStart + 37)])
            try chunk.withUnsafeBytes { try tokenizer.feed($0) }
            let b = tokenizer.buffers.pointee
            for r in 0..<b.recordEndCount {
                let end = b.recordEnds[r]
                if end <= consumed { continue }
                decoded.append(try codec.decode(DecodeContext(tape: tokenizer.view, options: .lenient), consumed))
                consumed = end
            }
            // Drop the decoded records (keeping the array start) and the arena bytes they used.
            let keepFromToken = consumed
            var arenaUsed = 0
            for i in 1..<keepFromToken where b.tokens[i].inArena {
                arenaUsed = max(arenaUsed, b.tokens[i].payload + Int(b.tokens[i].length))
            }
            tokenizer.buffers.pointee.discardRange(tokens: 1..<keepFromToken, arenaBytes: arenaUsed)
            consumed = 1
        }
        try tokenizer.finish()
        XCTAssertEqual(decoded, expected)
        let b = tokenizer.buffers.pointee
        XCTAssertEqual(b.tokenCount, 2)
        XCTAssertEqual(b.tokens[0].kind, .arrayStart)
        XCTAssertEqual(b.tokens[0].payload, 1)
        XCTAssertEqual(b.tokens[1].payload, 0)
    }
}

