import Foundation
import IngestServiceApp
import ModelMapper
import NIOCore
import Testing

/// `--max-record-bytes` for JSON Lines and array elements alike (a longer record is rejected as
/// `tooLarge` with its first bytes, and the upload goes on), and a flood of bad records stored in batches.
@Suite("Record limits and floods", .serialized)
struct RecordLimitTests {
    static let limit = 64 << 10

    /// Lines past the limit — a well-formed record with a long text, and random bytes with no newline up
    /// to the end of the body — are rejected as `tooLarge`; the records after them are read as usual, with
    /// their offsets in the body as sent.
    @Test func lineLongerThanTheLimitIsRejectedAndTheUploadGoesOn() async throws {
        try await TestServer.with({ $0.maxRecordSize = Self.limit }) { server in
            var rng = SplitMix64(seed: 11)
            let big = #"{"id":9,"user":{"id":1},"text":""# + String(repeating: "ab", count: 100_000) + #""}"#
            let garbage = randomGarbageLine(length: 1 << 20, using: &rng)
            let lines: [[UInt8]] = [
                Array(TweetLines.tweet(id: 100, index: 0).utf8), Array(big.utf8),
                Array(TweetLines.tweet(id: 102, index: 2).utf8), Array(#"{"id":"x","user":{}}"#.utf8),
                Array(TweetLines.tweet(id: 104, index: 4).utf8), garbage,
            ]
            var body: [UInt8] = []
            var offsets: [Int] = []
            for (i, line) in lines.enumerated() {
                offsets.append(body.count)
                body += line
                if i < lines.count - 1 { body.append(0x0A) }
            }
            let summary = try await server.postEvents(.stream(ByteBuffer(bytes: body).chunked(20_000), length: .unknown))
            #expect(summary.accepted == 3)
            #expect(summary.rejected == 3)
            #expect(summary.stoppedEarly == nil)
            #expect(summary.rejections.map(\.kind) == ["tooLarge", "invalidValue", "tooLarge"])
            #expect(summary.rejections.map(\.index) == [1, 3, 5])
            #expect(summary.rejections.map(\.line) == [2, 4, 6])
            #expect(summary.rejections.map(\.offset) == [offsets[1], offsets[3], offsets[5]])
            #expect(server.recorded.ids == [100, 102, 104])
            // The dead letters hold the first 4 KiB of each record past the limit, the bad one whole.
            let expected = Array(lines[1].prefix(4096)) + [0x0A] + lines[3] + [0x0A] + Array(lines[5].prefix(4096)) + [0x0A]
            #expect(try contents(of: try #require(summary.deadLetterFile)) == expected)
        }
    }

    /// The same for the elements of a top-level array: an object with a long string (escapes included),
    /// a long number, a long string element; the elements after each are read as usual, with their offsets
    /// and lines in the body as sent.
    @Test func arrayElementLongerThanTheLimitIsRejectedAndTheUploadGoesOn() async throws {
        try await TestServer.with({ $0.maxRecordSize = Self.limit }) { server in
            let longText = String(repeating: #"a\"b\\c]}{["#, count: 20_000)
            let elements = [
                TweetLines.tweet(id: 200, index: 0),
                #"{"id":9,"user":{"id":1},"list":[[1,2],{"a":"]"}],"text":""# + longText + #"","more":[1,2,3]}"#,
                TweetLines.tweet(id: 202, index: 2),
                String(repeating: "7", count: 100_000),
                TweetLines.tweet(id: 204, index: 4),
                #"{"id":"x","user":{}}"#,
                "\"" + String(repeating: "z", count: 70_000) + "\"",
                TweetLines.tweet(id: 207, index: 7),
            ]
            var body = "[\n"
            var offsets: [Int] = []
            var lineNumbers: [Int] = []
            for (i, element) in elements.enumerated() {
                if i > 0 { body += " ,\n\n" }
                offsets.append(body.utf8.count)
                lineNumbers.append(body.utf8.filter { $0 == 0x0A }.count + 1)
                body += element
            }
            body += "\n]\n"
            let summary = try await server.postEvents(
                .stream(ByteBuffer(string: body).chunked(16_384), length: .unknown), contentType: "application/json")
            #expect(summary.accepted == 4)
            #expect(summary.rejected == 4)
            #expect(summary.rejections.map(\.kind) == ["tooLarge", "tooLarge", "invalidValue", "tooLarge"])
            #expect(summary.rejections.map(\.index) == [1, 3, 5, 6])
            #expect(summary.rejections.map(\.offset) == [1, 3, 5, 6].map { offsets[$0] })
            #expect(summary.rejections.map(\.line) == [1, 3, 5, 6].map { lineNumbers[$0] })
            #expect(server.recorded.ids == [200, 202, 204, 207])
            let deadLetters = try contents(of: try #require(summary.deadLetterFile))
            #expect(deadLetters.starts(with: Array(elements[1].utf8.prefix(4096)) + [0x0A]))
        }
    }

    /// 200,000 bad lines (and good ones at both ends) into SQLite: every bad line is a row of
    /// `rejected_records`, stored in batches as they come; the answer lists the first 100 and counts the rest.
    @Test func floodOfInvalidLinesIsStoredInBatches() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let flood = 200_000
            let body = GeneratedBody([
                .bytes(ByteBuffer(string: TweetLines.tweet(id: 1, index: 0) + "\n")),
                .lines(count: flood, line: { "{\"id\":\($0),\"user\":" }),
                .bytes(ByteBuffer(string: TweetLines.tweet(id: 2, index: 1) + "\n")),
            ])
            let metrics = IngestMetrics()
            let store = try await SQLiteStore.open(path: path, metrics: metrics)
            let summary = try await TestServer.with(store: store, metrics: metrics, {
                $0.deadLetterDirectory = nil
                // Past the defaults' caps of rejected records (LimitsTests has those).
                $0.maxRejectedPerUpload = 1_000_000
                $0.rejectedKeptPerClient = 1_000_000
            }) { server in
                try await server.postEvents(.stream(body, length: .unknown))
            }
            #expect(summary.accepted == 2)
            #expect(summary.rejected == flood)
            #expect(summary.rejections.count == 100 && summary.rejectionsOmitted == flood - 100)
            #expect(summary.rejections.map(\.index) == Array(1...100))
            #expect(summary.rejections.allSatisfy { $0.kind == "syntax" })
            let database = try await TestDatabase(path: path)
            let rows = try await database.connection.query(
                "SELECT count(*) AS n, min(record_index) AS lo, max(record_index) AS hi FROM rejected_records")
            #expect(rows.first?.column("n")?.integer == flood)
            #expect(rows.first?.column("lo")?.integer == 1 && rows.first?.column("hi")?.integer == flood)
            #expect(try await database.events().map(\.id) == [1, 2])
            try await database.close()
            // Stored in batches as they came (a batch is filled between two reads of the body: ~1,024 to
            // a few thousand records), not held to the end.
            let text = String(decoding: metrics.prometheusText(), as: UTF8.self)
            let batches = text.split(separator: "\n").first { $0.hasPrefix("ingest_store_batch_records_count ") }
                .flatMap { Int($0.split(separator: " ").last ?? "") }
            #expect((batches ?? 0) >= 20, "\(batches.map(String.init) ?? "no count") batches")
        }
    }

    /// An array element cut at the limit whose end is the last byte of a body chunk: the next chunk is the
    /// reader's again. (It used to go on dropping into the next chunk: the following element was lost, and
    /// a closing `]` there crashed the server. Found by scripts/fuzz-ingest; its input is in
    /// Fuzz/regressions.) The chunks are sent apart, so the server reads them apart.
    @Test func cutElementEndingAtAChunkEndLeavesTheNextChunkToTheReader() async throws {
        let long = #"[{"id":300,"user":{"id":1},"text":""# + String(repeating: "a", count: 300) + #""}"#
        let next = #",{"id":301,"user":{"id":1}}]"# + "\n"
        for (rest, accepted) in [(next, 1), ("]\n", 0)] {
            try await TestServer.with({ $0.maxRecordSize = 128 }) { server in
                let chunks = [ByteBuffer(string: long), ByteBuffer(string: rest)]
                let body = AsyncStream<ByteBuffer> { continuation in
                    Task {
                        for chunk in chunks {
                            continuation.yield(chunk)
                            try? await Task.sleep(for: .milliseconds(200))
                        }
                        continuation.finish()
                    }
                }
                let summary = try await server.postEvents(.stream(body, length: .unknown), contentType: "application/json")
                #expect(summary.accepted == accepted)
                #expect(summary.rejected == 1)
                #expect(summary.rejections.map(\.kind) == ["tooLarge"])
            }
        }
    }
}
