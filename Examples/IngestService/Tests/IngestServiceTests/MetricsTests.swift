import IngestServiceApp
import NIOCore
import Testing

/// `GET /metrics` is the Prometheus text format, and its counters follow the uploads.
@Suite("GET /metrics")
struct MetricsTests {
    @Test func prometheusTextCountsRecordsBytesAndBatches() async throws {
        try await TestServer.with({ $0.storeBatchSize = 100 }) { server in
            let (body, sent) = TweetLines(corruptEvery: 10).body(lines: 500)
            _ = try await server.postEvents(.bytes(body))
            let again = try await server.postEvents(.bytes(body))
            #expect(again.duplicates == sent.acceptedIDs.count)
            let text = try await server.get("/metrics", key: TestServer.metricsKey).text
            let lines = Set(text.split(separator: "\n").map(String.init))
            let good = sent.acceptedIDs.count
            #expect(lines.contains(#"ingest_records_total{client="anonymous",outcome="accepted"} \#(good)"#), "\(text)")
            #expect(lines.contains(#"ingest_records_total{client="anonymous",outcome="duplicate"} \#(good)"#))
            #expect(lines.contains(#"ingest_records_total{client="anonymous",outcome="rejected"} \#(2 * sent.rejected.count)"#))
            #expect(lines.contains("ingest_received_bytes_total \(2 * sent.bytes)"))
            #expect(lines.contains(#"ingest_requests_total{result="ok"} 2"#))
            #expect(lines.contains("ingest_upload_duration_seconds_count 2"))
            #expect(lines.contains("ingest_store_batch_records_count 10"))
            #expect(lines.contains("ingest_store_batch_duration_seconds_count 10"))
            #expect(lines.contains("# TYPE ingest_upload_duration_seconds histogram"))
        }
    }

    /// Records by client and outcome (clients only from known keys), refused POSTs by status.
    @Test func recordsPerClientAndRefusalsByStatus() async throws {
        try await OverloadTests.withClients({ $0.rateLimit = 1 }) { server, alice, bob in
            let (body, sent) = TweetLines(corruptEvery: 10).body(lines: 50)
            #expect(try await server.postEvents(.bytes(body), key: alice).accepted == sent.acceptedIDs.count)
            let (other, bobSent) = TweetLines(firstID: 7_000_000, corruptEvery: 0).body(lines: 7)
            #expect(try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(other), key: alice).status == 429)
            #expect(try await server.postEvents(.bytes(other), key: bob).accepted == 7)
            #expect(try await server.post("/events", contentType: "text/plain", body: .bytes(other), key: bob).status == 415)
            #expect(try await server.post("/events", contentType: "application/x-ndjson", body: .bytes(other), key: "ik_nope").status == 401)
            let text = try await server.get("/metrics", key: TestServer.metricsKey).text
            let lines = Set(text.split(separator: "\n").map(String.init))
            #expect(lines.contains(#"ingest_records_total{client="alice",outcome="accepted"} \#(sent.acceptedIDs.count)"#), "\(text)")
            #expect(lines.contains(#"ingest_records_total{client="alice",outcome="rejected"} \#(sent.rejected.count)"#))
            #expect(lines.contains(#"ingest_records_total{client="bob",outcome="accepted"} \#(bobSent.acceptedIDs.count)"#))
            #expect(!text.contains("ik_nope") && !text.contains(#"client="anonymous""#), "no label from an unknown key")
            for status in [401, 415, 429] {
                #expect(lines.contains(#"ingest_refused_requests_total{status="\#(status)"} 1"#), "\(status)")
            }
        }
    }
}
