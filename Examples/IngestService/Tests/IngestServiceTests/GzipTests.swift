import AsyncHTTPClient
import CompressNIO
import Foundation
import IngestServiceApp
import NIOCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What bodies may be (issue #37, point 6): `Content-Encoding: gzip` inflated as it streams in, the
/// decompressed bytes held to `--max-events-bytes` and `--max-record-bytes` (a gzip bomb is a 413, in
/// bounded memory); any other coding, and any type but JSON Lines and JSON, 415; bytes that are not gzip 400.
@Suite("Gzip bodies", .serialized)
struct GzipTests {
    /// `parts` as one gzip member, deflated part by part (zlib's default level).
    static func gzip(_ parts: some Sequence<ByteBuffer>) throws -> ByteBuffer {
        let compressor = try ZlibCompressor(algorithm: .gzip)
        var output = ByteBuffer()
        func deflate(_ input: inout ByteBuffer, _ flush: CompressNIOFlush) throws {
            while true {
                output.reserveCapacity(minimumWritableBytes: 1 << 16)
                do {
                    try compressor.deflate(from: &input, to: &output, flush: flush)
                    if flush == .finish || input.readableBytes == 0 { return }
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    continue
                }
            }
        }
        for var part in parts { try deflate(&part, .no) }
        var end = ByteBuffer()
        try deflate(&end, .finish)
        return output
    }

    static func gzip(_ text: String) throws -> ByteBuffer { try gzip([ByteBuffer(string: text)]) }

    /// `buffer` in pieces of 1 to `most` bytes (seeded).
    static func pieces(_ buffer: ByteBuffer, most: Int, seed: UInt64) -> GeneratedBody {
        var random = SplitMix64(seed: seed)
        var rest = buffer
        var parts: [GeneratedBody.Part] = []
        while rest.readableBytes > 0 {
            let n = min(rest.readableBytes, 1 + Int(random.next() % UInt64(most)))
            parts.append(.bytes(rest.readSlice(length: n)!))
        }
        return GeneratedBody(parts)
    }

    /// One good line, 1 GiB of `a` without a newline (one record past any record limit), a good line:
    /// about 1 MB of gzip.
    static let bomb: ByteBuffer = {
        let filler = ByteBuffer(repeating: UInt8(ascii: "a"), count: 1 << 20)
        let parts =
            [ByteBuffer(string: TweetLines.tweet(id: 1, index: 1) + "\n")] + Array(repeating: filler, count: 1024)
            + [ByteBuffer(string: "\n" + TweetLines.tweet(id: 2, index: 2) + "\n")]
        return try! gzip(parts)
    }()

    static let gzipHeader = [("Content-Encoding", "gzip")]

    /// JSON Lines and a JSON array, gzipped and sent in random pieces (a gzip header, a deflate block or
    /// the trailer split anywhere): the same answer as the plain body, offsets and lines those of the
    /// decompressed body; several gzip members one after the other are one body; `x-gzip` and any case
    /// are gzip; `POST /event` takes gzip too.
    @Test func gzipBodiesAreInflatedAsTheyStream() async throws {
        try await TestServer.with({ $0.storeBatchSize = 100 }) { server in
            let (body, sent) = TweetLines(corruptEvery: 20).body(lines: 2000)
            let compressed = try Self.gzip([body])
            #expect(compressed.readableBytes < body.readableBytes / 4)
            let reply = try await server.post(
                "/events", contentType: "application/x-ndjson",
                body: .stream(Self.pieces(compressed, most: 3000, seed: 1), length: .unknown), headers: Self.gzipHeader)
            #expect(reply.status == 200, "\(reply.text)")
            let summary = try IngestSummary(json: reply.body)
            #expect(summary.accepted == sent.acceptedIDs.count && summary.rejected == sent.rejected.count)
            #expect(summary.bytes == body.readableBytes, "bytes counts the decompressed body")
            #expect(summary.rejections.map(\.index) == sent.rejected.map(\.index).prefix(100).map { $0 })
            #expect(summary.rejections.map(\.line) == sent.rejected.map { $0.index + 1 }.prefix(100).map { $0 })
            #expect(server.recorded.ids == sent.acceptedIDs)

            // The same records again, as three gzip members back to back, with `x-gzip`: all duplicates.
            var members = ByteBuffer()
            var rest = body
            for size in [rest.readableBytes / 3, rest.readableBytes / 3, rest.readableBytes - 2 * (rest.readableBytes / 3)] {
                var member = try Self.gzip([rest.readSlice(length: size)!])
                members.writeBuffer(&member)
            }
            let again = try await server.post(
                "/events", contentType: "application/x-ndjson",
                body: .stream(Self.pieces(members, most: 5000, seed: 2), length: .unknown), headers: [("Content-Encoding", "X-GZIP")])
            #expect(again.status == 200, "\(again.text)")
            let repeated = try IngestSummary(json: again.body)
            #expect(repeated.accepted == 0 && repeated.duplicates == sent.acceptedIDs.count && repeated.rejected == sent.rejected.count)

            // A top-level array.
            let elements = (0..<50).map { TweetLines.tweet(id: Int64(900_000 + $0), index: $0) }
            let array = try Self.gzip("[" + elements.joined(separator: ",\n") + "]")
            let arrayReply = try await server.post(
                "/events", contentType: "application/json", body: .bytes(array), headers: [("Content-Encoding", "gzip, identity")])
            #expect(arrayReply.status == 200 && arrayReply.text.contains(#""accepted":50"#), "\(arrayReply.text)")

            let event = try await server.post(
                "/event", contentType: "application/json", body: .bytes(try Self.gzip(TweetLines.tweet(id: 777, index: 7))),
                headers: Self.gzipHeader)
            #expect(event.status == 200 && event.text.contains(#""id":777"#), "\(event.text)")
            let arrayIDs: [Int64] = (0..<50).map { Int64(900_000 + $0) }
            let last: [Int64] = Array(server.recorded.ids.suffix(51))
            #expect(last == arrayIDs + [777])
        }
    }

    /// A gzip bomb: 1 GiB of one byte (about 1 MB of gzip) between two good lines, to a server with a
    /// 64 MiB body limit: 413 `contentTooLarge` once 64 MiB are inflated, the first line committed and
    /// counted; the record limit applies to the decompressed bytes (a 2 MiB line in a small gzip is
    /// `tooLarge`, and the upload goes on); a bomb to `POST /event` is 413 at its 1 MiB limit.
    @Test func gzipBombIsBoundedByTheDecompressedLimits() async throws {
        try await TestServer.with({
            $0.maxEventsBodySize = 64 << 20
            $0.storeBatchSize = 1
            // The body and record limits on their own (LimitsTests has the ratio limit, which stops these first).
            $0.maxInflationRatio = 1 << 30
        }) { server in
            let bomb = Self.bomb
            print("gzip bomb: \(bomb.readableBytes) bytes of gzip for \((1 << 30) + 2 * 4_000) bytes")
            #expect(bomb.readableBytes < 2 << 20)
            let start = ContinuousClock.now
            let reply = try await server.post(
                "/events", contentType: "application/x-ndjson", body: .bytes(bomb), headers: Self.gzipHeader)
            #expect(reply.status == 413, "\(reply.text)")
            let summary = try IngestSummary(json: reply.body)
            #expect(summary.error == "contentTooLarge" && summary.stoppedEarly != nil)
            #expect(summary.accepted == 1, "the line before the bomb was committed: \(reply.text)")
            #expect(server.recorded.ids == [1])
            print("gzip bomb refused after \(ContinuousClock.now - start)")

            let long = String(repeating: "x", count: 2 << 20)
            let lines = [TweetLines.tweet(id: 10, index: 0), #"{"id":11,"text":""# + long + #""}"#, TweetLines.tweet(id: 12, index: 2)]
            let small = try Self.gzip(lines.joined(separator: "\n") + "\n")
            #expect(small.readableBytes < 64 << 10)
            let limited = try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(small), headers: Self.gzipHeader)
            let limitedSummary = try IngestSummary(json: limited.body)
            #expect(limited.status == 200 && limitedSummary.accepted == 2 && limitedSummary.rejections.map(\.kind) == ["tooLarge"])

            let document = try Self.gzip([ByteBuffer(repeating: UInt8(ascii: " "), count: 8 << 20)])
            let event = try await server.post("/event", contentType: "application/json", body: .bytes(document), headers: Self.gzipHeader)
            #expect(event.status == 413 && event.keys == ["error", "requestId"], "\(event.text)")
        }
    }

    /// Codings other than gzip (and gzip twice) on both routes, a type that is not JSON Lines or JSON with
    /// gzip: 415 `unsupportedMediaType`, nothing stored. Bytes that are not gzip, a gzip body cut short or
    /// followed by bytes that are not gzip: 400 `invalidGzip`, with `{"error","requestId"}` only.
    @Test func otherCodingsAndTypesAre415AndBadGzipIs400() async throws {
        try await TestServer.with { server in
            let line = TweetLines.tweet(id: 5, index: 0)
            let compressed = try Self.gzip(line + "\n")
            for coding in ["deflate", "br", "zstd", "compress", "gzip, gzip", "gzip, br", "identity, deflate"] {
                for (path, type) in [("/events", "application/x-ndjson"), ("/events", "application/json"), ("/event", "application/json")] {
                    let reply = try await server.post(
                        path, contentType: type, body: .bytes(compressed), headers: [("Content-Encoding", coding)])
                    #expect(reply.status == 415 && reply.error == "unsupportedMediaType", "\(coding) to \(path): \(reply.status)")
                    #expect(reply.keys == ["error", "requestId"])
                }
            }
            for type in ["text/plain", "application/xml", "application/json-seq"] {
                let reply = try await server.post("/events", contentType: type, body: .bytes(compressed), headers: Self.gzipHeader)
                #expect(reply.status == 415, "\(type)")
            }
            #expect(server.recorded.ids.isEmpty)

            var cut = compressed
            cut.moveWriterIndex(to: cut.writerIndex - 6)  // into the trailer
            var trailing = compressed
            trailing.writeString("garbage")
            for (name, body) in [
                ("plain text", ByteBuffer(string: line + "\n")), ("cut short", cut), ("trailing bytes", trailing),
                ("empty", ByteBuffer()),
            ] {
                for path in ["/events", "/event"] {
                    let reply = try await server.post(
                        path, contentType: path == "/event" ? "application/json" : "application/x-ndjson", body: .bytes(body),
                        headers: Self.gzipHeader)
                    #expect(reply.status == 400 && reply.error == "invalidGzip", "\(name) to \(path): \(reply.status) \(reply.text)")
                    #expect(reply.keys == ["error", "requestId"], "\(reply.text)")
                }
            }
        }
    }

    /// The real executable's peak RSS (VmHWM, reset before the upload) through the 1 GiB gzip bomb with a
    /// 256 MiB body limit: 413 after 256 MiB inflated, the line before it committed, and the process stays
    /// under 96 MiB.
    @Test func gzipBombKeepsTheServerSmall() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            // Batches of 1: the line before the bomb is committed before the limit stops the upload.
            let service = try ServiceProcess(["--sqlite-path", path, "--max-events-bytes", "\(256 << 20)", "--batch-size", "1"])
            service.resetPeakRSS()
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(service.port)/events")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-ndjson")
            request.headers.add(name: "Content-Encoding", value: "gzip")
            request.body = .bytes(Self.bomb)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
            let body = try await response.body.collect(upTo: 1 << 20)
            let peak = service.peakRSS()
            service.signal(SIGTERM)
            #expect(await service.exitStatus() == 0)
            #expect(response.status.code == 413, "\(String(buffer: body))")
            #expect(String(buffer: body).contains(#""accepted":1"#), "\(String(buffer: body))")
            print("gzip bomb (\(Self.bomb.readableBytes) bytes for 1 GiB): server peak RSS \(peak >> 20) MiB")
            #expect(peak > 0 && peak < 96 << 20, "peak RSS \(peak >> 20) MiB")
        }
    }
}
