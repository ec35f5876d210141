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
            let text = try await server.get("/metrics").text
            let lines = Set(text.split(separator: "\n").map(String.init))
            let good = sent.acceptedIDs.count
            #expect(lines.contains(#"ingest_records_total{outcome="accepted"} \#(good)"#), "\(text)")
            #expect(lines.contains(#"ingest_records_total{outcome="duplicate"} \#(good)"#))
            #expect(lines.contains(#"ingest_records_total{outcome="rejected"} \#(2 * sent.rejected.count)"#))
            #expect(lines.contains("ingest_received_bytes_total \(2 * sent.bytes)"))
            #expect(lines.contains(#"ingest_requests_total{result="ok"} 2"#))
            #expect(lines.contains("ingest_upload_duration_seconds_count 2"))
            #expect(lines.contains("ingest_store_batch_records_count 10"))
            #expect(lines.contains("ingest_store_batch_duration_seconds_count 10"))
            #expect(lines.contains("# TYPE ingest_upload_duration_seconds histogram"))
        }
    }
}
