import AsyncHTTPClient
import Foundation
import IngestServiceApp
import ModelMapper
import NIOCore
import Testing

/// `POST /events` against the real server: every record sent is either accepted (and reaches the store
/// once, in order) or rejected (and its raw line is in the dead-letter file once, in order).
@Suite("POST /events", .serialized)
struct StreamingTests {
    /// 200 MB (INGEST_TEST_MB to change it) of tweet lines made while they are sent, chunked, with one
    /// line in a thousand corrupted.
    @Test func largeStreamedBodyWithCorruptedLines() async throws {
        let megabytes = ProcessInfo.processInfo.environment["INGEST_TEST_MB"].flatMap { Int($0) } ?? 200
        try await TestServer.with { server in
            let expected = ExpectedRecordsBox()
            let stream = TweetLines(corruptEvery: 1000).stream(bytes: megabytes * 1_000_000, expected: expected)
            let peak = PeakMemory()
            let summary = try await server.postEvents(.stream(stream, length: .unknown))
            let sent = expected.value

            #expect(sent.bytes >= megabytes * 1_000_000)
            #expect(!sent.rejected.isEmpty)
            try checkSummary(summary, against: sent, storedIDs: server.recorded.ids, listLimit: 100)
            let growth = peak.growth()
            print(
                "large body: \(sent.bytes) bytes, \(sent.lines) lines, peak RSS growth \(growth.map { "\($0 >> 20) MiB" } ?? "unknown")"
            )
            if let growth {
                // The body is never held whole: the process (client and server) grows far less than it.
                #expect(growth < 100_000_000, "peak RSS grew by \(growth) bytes for a \(sent.bytes)-byte body")
            }
            let metrics = try await server.metricsSnapshot()
            #expect(metrics.recordsAccepted == sent.acceptedIDs.count)
            #expect(metrics.recordsRejected == sent.rejected.count)
            #expect(metrics.bytesReceived == sent.bytes)
            #expect(metrics.streamRequests == 1 && metrics.failedRequests == 0 && metrics.activeStreams == 0)
        }
    }

    /// Several uploads at once: each answer, store order and dead-letter file is that upload's own.
    @Test func concurrentClients() async throws {
        // Six uploads of one client at once: past the default cap of 4 (CapacityTests tests the cap).
        try await TestServer.with({ $0.maxUploadsPerClient = 8 }) { server in
            let clients = 6
            let results = try await withThrowingTaskGroup(of: (Int, IngestSummary, ExpectedRecords).self) { group in
                for client in 0..<clients {
                    group.addTask {
                        let expected = ExpectedRecordsBox()
                        let lines = TweetLines(
                            firstID: Int64(client + 1) * 100_000_000, corruptEvery: 50, seed: UInt64(client))
                        let summary = try await server.postEvents(
                            .stream(
                                lines.stream(bytes: 3_000_000, chunkSize: 16 << 10, expected: expected),
                                length: .unknown))
                        return (client, summary, expected.value)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == clients)
            let ids = server.recorded.ids
            var deadLetterFiles = Set<String>()
            for (client, summary, sent) in results {
                let first = Int64(client + 1) * 100_000_000
                let own = ids.filter { $0 >= first && $0 < first + 100_000_000 }
                try checkSummary(summary, against: sent, storedIDs: own, listLimit: 100)
                deadLetterFiles.insert(try #require(summary.deadLetterFile))
            }
            #expect(deadLetterFiles.count == clients)
            #expect(ids.count == results.map(\.2.acceptedIDs.count).reduce(0, +))
            #expect(try server.deadLetterFiles().count == 2 * clients)
        }
    }

    /// A body whose last line is cut short: that record is rejected, the others are not affected.
    @Test func truncatedBody() async throws {
        try await TestServer.with { server in
            let lines = TweetLines(corruptEvery: 0)
            var (body, _) = lines.body(lines: 50)
            let cut = Array(lines.line(50).text.utf8.prefix(300))
            body.writeBytes(cut)
            let summary = try await server.postEvents(.bytes(body))
            #expect(summary.accepted == 50)
            #expect(summary.rejected == 1)
            let rejection = try #require(summary.rejections.first)
            #expect(rejection.index == 50 && rejection.line == 51 && rejection.kind == "syntax")
            #expect(try contents(of: try #require(summary.deadLetterFile)) == cut + [UInt8(ascii: "\n")])
            #expect(server.recorded.ids == (0..<50).map { lines.firstID + Int64($0) })
        }
    }

    /// Lines of random bytes (invalid UTF-8 included) between good lines: each garbage line is one
    /// rejected record whose exact bytes are in the dead-letter file.
    @Test func garbageLines() async throws {
        try await TestServer.with { server in
            var rng = SplitMix64(seed: 7)
            let lines = TweetLines(corruptEvery: 0)
            var body = ByteBuffer()
            var garbage: [UInt8] = []
            var goodIDs: [Int64] = []
            for index in 0..<400 {
                if index % 2 == 0 {
                    let line = randomGarbageLine(length: 1 + Int(rng.next() % 300), using: &rng)
                    body.writeBytes(line)
                    garbage += line + [UInt8(ascii: "\n")]
                } else {
                    body.writeString(TweetLines.tweet(id: lines.firstID + Int64(index), index: index))
                    goodIDs.append(lines.firstID + Int64(index))
                }
                body.writeInteger(UInt8(ascii: "\n"))
            }
            let summary = try await server.postEvents(.bytes(body))
            #expect(summary.accepted == 200)
            #expect(summary.rejected == 200)
            #expect(summary.rejections.count == 100 && summary.rejectionsOmitted == 100)
            #expect(summary.rejections.map(\.index) == Array(stride(from: 0, to: 200, by: 2)))
            #expect(try contents(of: try #require(summary.deadLetterFile)) == garbage)
            #expect(server.recorded.ids == goodIDs)
            let errorLines = try contents(of: try #require(summary.deadLetterErrorsFile)).split(separator: UInt8(ascii: "\n"))
            #expect(errorLines.count == 200)
            #expect(try errorLines.map { try Rejection(json: Array($0)).index } == Array(stride(from: 0, to: 400, by: 2)))
        }
    }

    /// A top-level JSON array sent as `application/json` is streamed element by element.
    @Test func jsonArrayBody() async throws {
        try await TestServer.with { server in
            let lines = TweetLines(corruptEvery: 0)
            var body = ByteBuffer(string: "[")
            for index in 0..<20 {
                if index > 0 { body.writeString(",\n") }
                body.writeString(index == 5 ? #"{"id":"x"}"# : TweetLines.tweet(id: lines.firstID + Int64(index), index: index))
            }
            body.writeString("]")
            let summary = try await server.postEvents(.bytes(body), contentType: "application/json")
            #expect(summary.accepted == 19)
            #expect(summary.rejected == 1)
            #expect(summary.rejections.first?.index == 5)
            #expect(server.recorded.ids == (0..<20).filter { $0 != 5 }.map { lines.firstID + Int64($0) })
        }
    }

    /// A body limit on /events: refused at once by Content-Length, or stopped with the summary of what was
    /// committed when the body is chunked.
    @Test func bodyLimit() async throws {
        try await TestServer.with({
            $0.maxEventsBodySize = 100_000
            $0.storeBatchSize = 10
        }) { server in
            let (body, _) = TweetLines(corruptEvery: 0).body(lines: 300)
            let declared = try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(body))
            #expect(declared.status == 413)
            #expect(server.recorded.ids.isEmpty)

            let streamed = try await server.post(
                "/events", contentType: "application/x-ndjson", body: .stream(body.chunked(8 << 10), length: .unknown))
            #expect(streamed.status == 413)
            let summary = try IngestSummary(json: streamed.body)
            #expect(summary.stoppedEarly != nil)
            #expect(summary.error == "contentTooLarge" && summary.requestId != nil && summary.requestId == streamed.requestID)
            #expect(summary.accepted > 0 && summary.accepted < 300)
            // Only what was committed before the limit: whole batches, the one being filled dropped.
            #expect(summary.accepted % 10 == 0)
            #expect(server.recorded.ids.count == summary.accepted)
        }
    }

    /// Blank lines are not records; `\r\n` ends a line like `\n`; the last line needs no newline. The
    /// dead-letter file holds the rejected line without its line ending.
    @Test func blankLinesAndCRLF() async throws {
        try await TestServer.with { server in
            let lines = TweetLines(corruptEvery: 0)
            let good = (0..<4).map { TweetLines.tweet(id: lines.firstID + Int64($0), index: $0) }
            let bad = good[2].replacingFirst(#""truncated":false"#, with: #""truncated":fals"#)
            let text = good[0] + "\r\n" + "\n" + "   \n" + good[1] + "\n" + bad + "\r\n" + "\r\n" + good[3]
            let summary = try await server.postEvents(.bytes(ByteBuffer(string: text)))
            #expect(summary.accepted == 3)
            #expect(summary.rejected == 1)
            let rejection = try #require(summary.rejections.first)
            #expect(rejection.index == 2 && rejection.line == 5 && rejection.kind == "syntax")
            #expect(try contents(of: try #require(summary.deadLetterFile)) == Array((bad + "\n").utf8))
            #expect(server.recorded.ids == [0, 1, 3].map { lines.firstID + Int64($0) })
        }
    }

    /// A store that fails ends the request with 503; what it took before stays taken, once.
    @Test func failingStoreAnswers503() async throws {
        try await TestServer.with(store: RecordingStore(capacity: 50), { $0.storeBatchSize = 10 }) { server in
            let (body, expected) = TweetLines(corruptEvery: 0).body(lines: 200)
            let reply = try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(body))
            #expect(reply.status == 503)
            #expect(reply.text.contains(#""error":"storeUnavailable""#))
            #expect(server.recorded.ids == Array(expected.acceptedIDs.prefix(50)))
            #expect(try await server.metricsSnapshot().failedRequests == 1)
        }
    }

    /// Rejected records that cannot be saved fail the request (500) rather than vanish.
    @Test func unwritableDeadLetterDirectoryAnswers500() async throws {
        try await TestServer.with { server in
            try FileManager.default.removeItem(atPath: server.deadLetterDirectory)
            let (body, expected) = TweetLines(corruptEvery: 5).body(lines: 100)
            #expect(!expected.rejected.isEmpty)
            let reply = try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(body))
            #expect(reply.status == 500)
            #expect(reply.text.contains(#""error":"deadLetterFailed""#))
        }
    }
}

/// The answer, the store and the dead-letter files against what was sent.
func checkSummary(_ summary: IngestSummary, against sent: ExpectedRecords, storedIDs: [Int64], listLimit: Int) throws {
    #expect(summary.accepted + summary.rejected == sent.lines)
    #expect(summary.accepted == sent.acceptedIDs.count)
    #expect(summary.rejected == sent.rejected.count)
    #expect(summary.bytes == sent.bytes)
    #expect(summary.stoppedEarly == nil)
    #expect(firstDifference(storedIDs, sent.acceptedIDs) == nil, "stored ids: each accepted record once, in order")
    let listed = sent.rejected.prefix(listLimit)
    #expect(summary.rejections.map(\.index) == listed.map(\.index))
    #expect(summary.rejections.map(\.kind) == listed.map(\.corruption.kind))
    #expect(summary.rejectionsOmitted == sent.rejected.count - listed.count)
    guard !sent.rejected.isEmpty else {
        #expect(summary.deadLetterFile == nil)
        return
    }
    let raw = try contents(of: try #require(summary.deadLetterFile))
    #expect(raw == sent.deadLetterBytes, "the dead-letter file holds exactly the rejected lines")
    let errors = try contents(of: try #require(summary.deadLetterErrorsFile)).split(separator: UInt8(ascii: "\n"))
    #expect(try errors.map { try Rejection(json: Array($0)).index } == sent.rejected.map(\.index))
}

/// Where two id lists first differ, or nil if they are equal.
func firstDifference(_ a: [Int64], _ b: [Int64]) -> String? {
    for i in 0..<min(a.count, b.count) where a[i] != b[i] { return "at \(i): \(a[i]) vs \(b[i])" }
    return a.count == b.count ? nil : "counts \(a.count) vs \(b.count)"
}

/// Random bytes with no newline, carriage return, space or tab (so the line is never blank).
func randomGarbageLine(length: Int, using rng: inout SplitMix64) -> [UInt8] {
    (0..<length).map { _ in
        var byte = UInt8(truncatingIfNeeded: rng.next())
        while byte == 0x0A || byte == 0x0D || byte == 0x20 || byte == 0x09 { byte = UInt8(truncatingIfNeeded: rng.next()) }
        return byte
    }
}

/// The process's peak resident memory from now on (Linux: reset through /proc/self/clear_refs).
struct PeakMemory {
    let baseline: Int?

    init() {
        if let clear = FileHandle(forWritingAtPath: "/proc/self/clear_refs"),
            (try? clear.write(contentsOf: Data("5".utf8))) != nil
        {
            try? clear.close()
            baseline = Self.read("VmRSS:")
        } else {
            baseline = nil
        }
    }

    /// Bytes the peak grew above the resident size at the start, or nil where this cannot be read.
    func growth() -> Int? {
        guard let baseline, let peak = Self.read("VmHWM:") else { return nil }
        return peak - baseline
    }

    private static func read(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return kilobytes * 1024
    }
}

extension ByteBuffer {
    /// The buffer as a stream of chunks of `size` bytes (for a body without Content-Length).
    func chunked(_ size: Int) -> AsyncStream<ByteBuffer> {
        var rest = self
        var chunks: [ByteBuffer] = []
        while let chunk = rest.readSlice(length: Swift.min(size, rest.readableBytes)), chunk.readableBytes > 0 {
            chunks.append(chunk)
        }
        return AsyncStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
    }
}
