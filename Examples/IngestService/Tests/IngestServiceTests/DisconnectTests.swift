import AsyncHTTPClient
import Foundation
import IngestServiceApp
import NIOCore
import Testing

/// Clients that hang up in the middle of a body: the server survives, keeps serving, and delivers
/// nothing twice and nothing that was not sent.
@Suite("Disconnects", .serialized)
struct DisconnectTests {
    enum Framing: CaseIterable { case contentLength, chunked }

    @Test(arguments: Framing.allCases)
    func clientDisconnectsMidBody(framing: Framing) async throws {
        try await TestServer.with { server in
            let lines = TweetLines(firstID: 1_000_000, corruptEvery: 100, seed: 3)
            let (partial, sentPartially) = lines.body(lines: 2000)
            let bytes = Array(partial.readableBytesView)
            let half = Array(bytes.prefix(bytes.count / 2 + 17))  // ends in the middle of a line

            let client = try RawClient(port: server.port)
            var head = "POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
            switch framing {
            case .contentLength:
                head += "Content-Length: \(bytes.count)\r\n\r\n"
                try client.send(head)
                try client.send(half)
            case .chunked:
                head += "Transfer-Encoding: chunked\r\n\r\n"
                try client.send(head)
                try client.send(String(half.count, radix: 16) + "\r\n")
                try client.send(half)
            }
            // Hang up only once the handler is reading the body (so that the request is not simply lost
            // in the kernel before the server saw it).
            var started = try await server.metricsSnapshot()
            for _ in 0..<600 where started.streamRequests == 0 {
                try await Task.sleep(for: .milliseconds(20))
                started = try await server.metricsSnapshot()
            }
            #expect(started.streamRequests == 1)
            client.abort()

            // The server is still serving: a whole upload after the broken one is answered exactly.
            let next = TweetLines(firstID: 9_000_000, corruptEvery: 100, seed: 4)
            let (body, expected) = next.body(lines: 500)
            let summary = try await server.postEvents(.bytes(body))
            #expect(summary.accepted == expected.acceptedIDs.count)
            #expect(summary.rejected == expected.rejected.count)

            // Wait (bounded) for the broken request's handler to finish.
            var metrics = try await server.metricsSnapshot()
            for _ in 0..<600 where metrics.activeStreams > 0 {
                try await Task.sleep(for: .milliseconds(50))
                metrics = try await server.metricsSnapshot()
            }
            #expect(metrics.activeStreams == 0)
            #expect(metrics.streamRequests == 2)
            #expect(metrics.failedRequests == 1, "the broken body ends the request with an error, not as a short body")

            // What the broken upload delivered is an in-order prefix of its good records: no record twice,
            // none that was not sent (a record is delivered only once its whole line has arrived).
            let ids = server.recorded.ids
            let brokenIDs = ids.filter { $0 < 9_000_000 }
            #expect(Array(sentPartially.acceptedIDs.prefix(brokenIDs.count)) == brokenIDs)
            let completeLines = half.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count - 1
            #expect(brokenIDs.count <= completeLines)
            #expect(firstDifference(ids.filter { $0 >= 9_000_000 }, expected.acceptedIDs) == nil)
            #expect(Set(ids).count == ids.count)
        }
    }

    /// Many broken uploads in a row do not leave the server stuck or leaking streams; each delivers an
    /// in-order prefix of its own good records.
    @Test func repeatedDisconnects() async throws {
        // The broken uploads' handlers may still be ending when the good one comes: no cap on them here.
        try await TestServer.with({ $0.maxUploadsPerClient = 64 }) { server in
            let rounds = 20
            var sent: [ExpectedRecords] = []
            for round in 0..<rounds {
                let (body, expected) = TweetLines(firstID: Int64(round + 1) * 1_000_000, corruptEvery: 0).body(lines: 200)
                sent.append(expected)
                let bytes = Array(body.readableBytesView)
                let client = try RawClient(port: server.port)
                try client.send(
                    "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\n"
                        + "Content-Length: \(bytes.count * 2)\r\n\r\n")
                try client.send(Array(bytes.prefix(1000 * (round + 1))))
                client.abort()
            }
            let (good, expected) = TweetLines(firstID: 90_000_000, corruptEvery: 0).body(lines: 100)
            let summary = try await server.postEvents(.bytes(good))
            #expect(summary.accepted == expected.acceptedIDs.count)
            var metrics = try await server.metricsSnapshot()
            for _ in 0..<600 where metrics.activeStreams > 0 {
                try await Task.sleep(for: .milliseconds(50))
                metrics = try await server.metricsSnapshot()
            }
            #expect(metrics.activeStreams == 0)
            let ids = server.recorded.ids
            for round in 0..<rounds {
                let first = Int64(round + 1) * 1_000_000
                let delivered = ids.filter { $0 >= first && $0 < first + 1_000_000 }
                #expect(Array(sent[round].acceptedIDs.prefix(delivered.count)) == delivered, "round \(round)")
            }
            #expect(firstDifference(ids.filter { $0 >= 90_000_000 }, expected.acceptedIDs) == nil)
        }
    }
}
