import ModelMapper
import NIOCore

/// Decodes a `POST /events` body while it streams in: the body's chunks go straight into
/// `JSONLines(chunks:)`, decoded events go to the sink in batches, refused records to the dead-letter
/// file. Memory per request is bounded by the read chunk, the longest line and one batch.
struct StreamIngestor: Sendable {
    let configuration: IngestConfiguration
    let sink: any EventSink
    let metrics: IngestMetrics

    /// Reads `body` to its end (or to a limit) and answers what became of each record.
    ///
    /// - Throws: ``APIError`` when the sink or the dead-letter file fails; the body's own error when the
    ///   client goes away. A body or line limit is not an error here: the summary's `stoppedEarly` says so.
    func ingest<Body: AsyncSequence>(
        _ body: Body, format: JSONStreamFormat, deadLetterName: String
    ) async throws -> IngestSummary where Body.Element == ByteBuffer {
        let deadLetters = DeadLetterFile(directory: configuration.deadLetterDirectory, name: deadLetterName)
        let rejections = RejectionLog(deadLetters: deadLetters, listLimit: configuration.rejectionListLimit)
        let bytes = Counter()
        let metrics = self.metrics
        let guarded = GuardedBody(
            base: body,
            maxBodySize: configuration.maxEventsBodySize,
            maxLineLength: format == .lines ? configuration.maxRecordSize : nil,
            onChunk: { n in
                bytes.value += n
                metrics.add(bytes: n)
            })
        let lines = JSONLines<Status>(
            chunks: guarded, format: format, chunkSize: configuration.readChunkSize,
            onError: .skip { rejections.add($0) })

        var summary = IngestSummary()
        var batch = Batch(capacity: configuration.sinkBatchSize)
        var reportedRejections = 0
        /// Hands the batch to the sink and brings the counters up to date.
        func deliver() async throws {
            let accepted = batch.events.count
            if accepted > 0 {
                do { try await sink.consume(batch.events) } catch { throw APIError.sinkFailed(error) }
                batch.events.removeAll(keepingCapacity: true)
            }
            summary.accepted += accepted
            metrics.add(accepted: accepted, rejected: rejections.count - reportedRejections)
            reportedRejections = rejections.count
            do { try deadLetters.checkHealth() } catch { throw APIError.deadLetterFailed(error) }
        }

        do {
            for try await status in lines {
                batch.events.append(status)
                if batch.events.count >= batch.capacity { try await deliver() }
            }
        } catch let limit as BodyLimitError {
            summary.stoppedEarly = limit.description
        } catch let error as APIError {
            // The sink or the dead-letter file failed: nothing more can be delivered or saved.
            try? deadLetters.close()
            throw error
        } catch {
            // The client went away (or the reader failed): what was decoded is still delivered, and the
            // refused records so far are saved, then the request fails.
            try? await deliver()
            try? deadLetters.close()
            throw error
        }
        try await deliver()
        do { try deadLetters.close() } catch { throw APIError.deadLetterFailed(error) }

        summary.rejected = rejections.count
        summary.bytes = bytes.value
        summary.rejections = rejections.listed
        summary.rejectionsOmitted = rejections.count - rejections.listed.count
        if rejections.count > 0 {
            summary.deadLetterFile = deadLetters.rawPath
            summary.deadLetterErrorsFile = deadLetters.errorsPath
        }
        return summary
    }
}

/// Decoded events waiting for the sink.
private struct Batch {
    var events: [Status] = []
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        events.reserveCapacity(self.capacity)
    }
}

/// A count shared between the body wrapper and the ingestor, within one request's task.
private final class Counter {
    var value = 0
}
