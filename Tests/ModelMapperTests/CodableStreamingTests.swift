import Foundation
import ModelMapper
import XCTest

/// `JSONLines` over `Decodable` types (issue 46.2): the same inputs, workers, error policies and limits as
/// for mapped models, each record decoded as `ModelDecoder.decode(_:from:)` decodes it.
final class CodableStreamingTests: XCTestCase {
    struct Signup: Codable, Equatable {
        enum Plan: String, Codable { case free, pro }
        var userId: Int
        var signedUpAt: Date
        var plan: Plan
        var tags: [String]
        var referrer: String?
    }

    /// A type whose `init(from:)` throws its own error for `id < 0`.
    struct Checked: Decodable, Equatable {
        struct Negative: Error, CustomStringConvertible { var description: String { "negative id" } }
        var id: Int
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(Int.self, forKey: .id)
            if id < 0 { throw Negative() }
        }
        enum CodingKeys: String, CodingKey { case id }
    }

    static var decoder: ModelDecoder {
        var decoder = ModelDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// `count` good records, with a bad one (a string user id) at every index in `bad`.
    static func records(_ count: Int, bad: Set<Int> = []) -> [String] {
        (0..<count).map { i in
            let id = bad.contains(i) ? "\"u\(i)\"" : "\(i)"
            let referrer = i % 3 == 0 ? "null" : "\"ref\(i % 7)\""
            return #"{"user_id": \#(id), "signed_up_at": "2026-0\#(1 + i % 9)-1\#(i % 10)T0\#(i % 10):00:00Z", "#
                + #""plan": "\#(i % 2 == 0 ? "free" : "pro")", "tags": ["a\#(i % 5)", "b"], "referrer": \#(referrer)}"#
        }
    }

    func testCodableRecordsMatchModelDecoderOnEveryInputAndWorkerCount() async throws {
        let lines = Self.records(3000, bad: [7, 1500, 2999])
        let text = lines.joined(separator: "\n") + "\n"
        let data = Data(text.utf8)
        let decoder = Self.decoder
        var expected: [Signup] = []
        var expectedRejected: [Int] = []
        for (i, line) in lines.enumerated() {
            if let value = try? decoder.decode(Signup.self, from: line) { expected.append(value) } else { expectedRejected.append(i) }
        }
        XCTAssertEqual(expected.count, 2997)
        XCTAssertEqual(expectedRejected, [7, 1500, 2999])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("codable-\(UUID()).jsonl")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        for workers in [1, 2] {
            let rejected = Collected<RejectedRecord>()
            let skip = RecordErrorPolicy.skip { rejected.append($0) }
            var models: [Signup] = []
            try JSONLines<Signup>(data: data, decoder: decoder, workers: workers, onError: skip).forEach { models.append($0) }
            XCTAssertEqual(models, expected, "Data, sync, \(workers)")
            models = []
            for try await model in JSONLines<Signup>(url: url, decoder: decoder, workers: workers, chunkSize: 1 << 14,
                                                     onError: skip) {
                models.append(model)
            }
            XCTAssertEqual(models, expected, "file, async, \(workers)")
            models = try JSONLines<Signup>(path: url.path, decoder: decoder, workers: workers, chunkSize: 1 << 14,
                                           onError: skip).records().map { try $0.get() }
            XCTAssertEqual(models, expected, "file, records(), \(workers)")
            XCTAssertEqual(try JSONLines<Signup>.decodeAll(data, decoder: decoder, workers: workers, onError: skip), expected,
                           "decodeAll, \(workers)")
            XCTAssertEqual(try JSONLines<Signup>.decodeAll(contentsOf: url, decoder: decoder, workers: workers, onError: skip),
                           expected, "decodeAll(contentsOf:), \(workers)")
            XCTAssertEqual(rejected.map(\.index), Array(repeating: expectedRejected, count: 5).flatMap { $0 }, "\(workers)")
        }
        // An AsyncSequence of chunks that cut records anywhere.
        let chunks = AsyncStream<[UInt8]> { continuation in
            var rest = ArraySlice(Array(data))
            while !rest.isEmpty {
                continuation.yield(Array(rest.prefix(777)))
                rest = rest.dropFirst(777)
            }
            continuation.finish()
        }
        var models: [Signup] = []
        for try await model in JSONLines<Signup>(chunks: chunks, decoder: decoder, workers: 2, onError: .skip { _ in }) {
            models.append(model)
        }
        XCTAssertEqual(models, expected, "chunks")
    }

    func testRejectedCodableRecordsArePositionedInTheWholeInput() throws {
        let text = Self.records(2).joined(separator: "\n") + "\n"
            + #"{"user_id": "x", "signed_up_at": "2026-01-01T00:00:00Z", "plan": "free", "tags": []}"# + "\n"
            + #"{"user_id": 4, "signed_up_at": "2026-01-01T00:00:00Z", "plan": "gold", "tags": []}"# + "\n"
            + #"{"user_id": 5, "signed_up_at": "#
        let rejected = Collected<RejectedRecord>()
        let models = try JSONLines<Signup>.decodeAll(Data(text.utf8), decoder: Self.decoder, workers: 1,
                                                     onError: .skip { rejected.append($0) })
        XCTAssertEqual(models.map(\.userId), [0, 1])
        XCTAssertEqual(rejected.map(\.index), [2, 3, 4])
        XCTAssertEqual(rejected.map(\.line), [3, 4, 5])
        let third = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false)[0..<2].reduce(0) { $0 + $1.count + 1 }
        XCTAssertEqual(rejected[0].offset, third)
        XCTAssertEqual(rejected[0].error.kind, .typeMismatch)
        XCTAssertEqual(rejected[0].error.path, "[2].userId")
        XCTAssertEqual(rejected[0].error.line, 3)
        XCTAssertEqual(rejected[0].error.column, 13)
        XCTAssertEqual(rejected[0].error.offset, third + 12)
        XCTAssertEqual(rejected[0].rawText, #"{"user_id": "x", "signed_up_at": "2026-01-01T00:00:00Z", "plan": "free", "tags": []}"#)
        XCTAssertEqual(rejected[1].error.path, "[3].plan")
        XCTAssertEqual(rejected[2].error.kind, .syntax)
        XCTAssertEqual(rejected[2].error.line, 5)

        // `.stop` throws the first one, a MappingError.
        let stop = mappingError { _ = try JSONLines<Signup>(bytes: Array(text.utf8), decoder: Self.decoder).records().map { try $0.get() } }
        XCTAssertEqual(stop?.path, "[2].userId")
        XCTAssertEqual(stop?.line, 3)

        // The type's own error: kind .invalidValue, described, still positioned by record.
        let checked = Collected<RejectedRecord>()
        let ids = try JSONLines<Checked>.decodeAll(Data("{\"id\":1}\n{\"id\":-2}\n{\"id\":3}\n".utf8), workers: 2,
                                                   onError: .skip { checked.append($0) }).map(\.id)
        XCTAssertEqual(ids, [1, 3])
        XCTAssertEqual(checked.map(\.index), [1])
        XCTAssertEqual(checked.first?.error.kind, .invalidValue)
        XCTAssertTrue(checked.first?.error.message.contains("negative id") == true, "\(checked.first?.error.message ?? "")")
        XCTAssertEqual(checked.first?.error.path, "[1]")
    }

    func testCodableRecordsHonourTheRecordLimitAndTheDecodersOwnLimits() throws {
        let long = #"{"id": 1, "pad": ""# + String(repeating: "x", count: 10_000) + #""}"#
        let text = "{\"id\": 0}\n" + long + "\n{\"id\": 2}\n"
        let rejected = Collected<RejectedRecord>()
        let ids = try JSONLines<Checked>(bytes: Array(text.utf8), maxRecordBytes: 1000,
                                         onError: .skip { rejected.append($0) }).records().map { try $0.get().id }
        XCTAssertEqual(ids, [0, 2])
        XCTAssertEqual(rejected.first?.index, 1)
        XCTAssertEqual(rejected.first?.raw.count, 1000)
        XCTAssertEqual(rejected.first?.error.kind, .invalidValue)
        // The decoder's options apply: a depth limit of 3.
        var shallow = ModelDecoder()
        shallow.options.depthLimit = 3
        let nested = "{\"id\": 1, \"x\": [[[[1]]]]}\n{\"id\": 2}\n"
        let deep = Collected<RejectedRecord>()
        XCTAssertEqual(try JSONLines<Checked>.decodeAll(Data(nested.utf8), decoder: shallow, workers: 1,
                                                        onError: .skip { deep.append($0) }).map(\.id), [2])
        XCTAssertEqual(deep.first?.error.kind, .depthLimit)
    }

    /// A model both mapped and Decodable is read by its mapping, with or without a decoder (as
    /// `ModelDecoder.decode` reads it), and the decoder's options apply.
    func testAJSONCodableModelIsReadAsModelDecoderReadsIt() throws {
        struct Both: JSONMappable, Decodable {
            var name = ""
            var viaCodable = false
            init() {}
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                name = try c.decode(String.self, forKey: .name)
                viaCodable = true
            }
            enum CodingKeys: String, CodingKey { case name }
        }
        let data = Data("{\"name\": \"a\"}\n".utf8)
        XCTAssertEqual(try JSONLines<Both>.decodeAll(data, workers: 1).map(\.viaCodable), [false])
        XCTAssertEqual(try JSONLines<Both>.decodeAll(data, decoder: ModelDecoder(), workers: 1).map(\.viaCodable),
                       [try ModelDecoder().decode(Both.self, from: data).viaCodable])
        var viaMapping: [Bool] = []
        try JSONLines<Both>(data: data).forEach { viaMapping.append($0.viaCodable) }
        var viaDecoder: [Bool] = []
        try JSONLines<Both>(data: data, decoder: ModelDecoder()).forEach { viaDecoder.append($0.viaCodable) }
        XCTAssertEqual(viaMapping, [false])
        XCTAssertEqual(viaDecoder, [false])
        // The decoder's options reach the mapping: `.strict` rejects a number as a string.
        let strict = Collected<RejectedRecord>()
        _ = try JSONLines<Both>.decodeAll(Data("{\"name\": 1}\n".utf8), decoder: ModelDecoder(options: .strict), workers: 1,
                                          onError: .skip { strict.append($0) })
        XCTAssertEqual(strict.map(\.index), [0])
        XCTAssertEqual(try JSONLines<Both>.decodeAll(Data("{\"name\": 1}\n".utf8), workers: 1).map(\.name), ["1"])
    }

    /// Readers and policies are Sendable: a reader handed to a task compiles and reads there.
    func testAReaderCanBeHandedToATask() async throws {
        let data = Data(Self.records(100, bad: [50]).joined(separator: "\n").utf8)
        let rejected = Collected<Int>()
        let lines = JSONLines<Signup>(data: data, decoder: Self.decoder, workers: 2, onError: .skip { rejected.append($0.index) })
        let policy: RecordErrorPolicy = .stop
        let count = try await Task.detached {
            var n = 0
            for try await _ in lines { n += 1 }
            _ = policy
            return n
        }.value
        XCTAssertEqual(count, 99)
        XCTAssertEqual(rejected.items, [50])
    }
}
