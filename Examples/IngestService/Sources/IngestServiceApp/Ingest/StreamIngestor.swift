import ModelMapper
import NIOCore

/// Decodes a `POST /events` body while it streams in: the body's chunks go straight into
/// `JSONLines(chunks:)`, and each batch of decoded events (with their raw text) and rejected records goes
/// to the store in one transaction. The next batch is decoded while the store commits the previous one
/// (at most one batch in flight, so batches are stored in input order and the upload's answer still
/// waits for the last commit). Memory per request is bounded by the read chunk, the record limit and two
/// batches, each bounded in records (`--batch-size`) and in bytes (`--batch-bytes`): within
/// ``IngestConfiguration/uploadReservation``. Past the upload's cap of rejected records it stops
/// (`tooManyRejected`), after storing what it read.
struct StreamIngestor: Sendable {
    let configuration: IngestConfiguration
    let store: any EventStore
    let metrics: IngestMetrics
    /// Whether the upload's API key is still good, asked before each batch goes to the store: a key
    /// revoked while its upload streams stops it at the next batch (issue #44.7), answered 401
    /// `keyRevoked` with what was committed before.
    var isAuthorized: @Sendable () async -> Bool = { true }

    /// Reads `body` to its end (or to a limit) and answers what became of each record. Returns only
    /// after every batch is committed.
    ///
    /// - Throws: ``APIError`` when the store or the dead-letter file fails; the body's own error when the
    ///   client goes away. A body or line limit is not an error here: the summary's `stoppedEarly` says so.
    func ingest<Body: AsyncSequence>(
        _ body: Body, format: JSONStreamFormat, uploadID: String, client: String
    ) async throws -> IngestSummary where Body.Element == ByteBuffer {
        let deadLetters = configuration.deadLetterDirectory.map {
            DeadLetterFile(directory: $0, name: "events-\(uploadID)")
        }
        let rejections = RejectionLog(
            deadLetters: deadLetters, listLimit: configuration.rejectionListLimit,
            keptBytes: configuration.rejectedRawBytes, maxCount: configuration.maxRejectedPerUpload,
            maxBytes: configuration.maxRejectedBytesPerUpload)
        let oversized = OversizedRecords(limit: configuration.maxRecordSize)
        let tap = RawRecordTap(format: format)
        let bytes = Counter()
        let metrics = self.metrics
        var batch = StoreBatch(uploadID: uploadID, client: client)
        /// What the batch being filled holds in memory (``RawRecordTap/lastRetained``, the models, the
        /// rejected records' kept bytes), against `--batch-bytes`.
        var batchBytes = 0
        let capacity = max(1, configuration.storeBatchSize)
        let maxBatchBytes = max(1, configuration.maxBatchBytes)
        func isFull() -> Bool { batch.events.count + batch.rejected.count >= capacity || batchBytes >= maxBatchBytes }
        func addRejected(_ record: StoredRejection?) {
            guard let record else { return }
            batch.rejected.append(record)
            batchBytes += record.raw.count + Self.recordOverhead
        }

        var summary = IngestSummary()
        summary.uploadId = uploadID
        let store = self.store
        /// The batch being stored while the next one is decoded: at most one. Its task is always awaited
        /// (``settle()``) before the upload answers or fails, so nothing is counted that was not committed.
        var inFlight: Task<(StoreOutcome, [StoredEvent]), any Error>?
        var inFlightRejected = 0
        /// Waits for the batch in flight and brings the counters up to date; throws if it failed.
        func settle() async throws {
            guard let task = inFlight else { return }
            inFlight = nil
            let outcome: StoreOutcome
            let conflicts: [StoredEvent]
            do { (outcome, conflicts) = try await task.value } catch { throw APIError.storeFailed(error) }
            summary.accepted += outcome.inserted
            summary.duplicates += outcome.duplicates
            summary.conflicts += conflicts.count
            summary.rejected += inFlightRejected
            for event in conflicts { rejections.addConflict(event) }
            metrics.add(
                accepted: outcome.inserted, duplicates: outcome.duplicates, rejected: inFlightRejected,
                conflicts: conflicts.count, client: client)
            if let deadLetters {
                do { try deadLetters.checkHealth() } catch { throw APIError.deadLetterFailed(error) }
            }
        }
        /// Hands the batch to the store once the one before it is committed, and starts a new batch.
        func deliver() async throws {
            guard !batch.isEmpty else { return }
            try await settle()
            guard await isAuthorized() else { throw KeyRevokedError() }
            let full = batch
            batch = StoreBatch(uploadID: uploadID, client: client)
            batchBytes = 0
            batch.events.reserveCapacity(full.events.count)
            inFlightRejected = full.rejected.count
            inFlight = Task {
                let start = ContinuousClock.now
                let outcome = try await store.store(full)
                metrics.batchStored(events: full.events.count, rejected: full.rejected.count, after: ContinuousClock.now - start)
                return (outcome, outcome.conflicts.map { full.events[$0] })
            }
        }

        let progress = ReaderProgress()
        let guarded = GuardedBody(
            base: body,
            maxBodySize: configuration.maxEventsBodySize,
            isArray: format == .array,
            oversized: oversized,
            readerPosition: { progress.position() },
            readerSlack: 2 * configuration.readChunkSize + (64 << 10),
            onChunk: { chunk in
                bytes.value += chunk.readableBytes
                metrics.add(bytes: chunk.readableBytes)
            },
            onForward: { piece in tap.append(piece) },
            beforeRead: {
                // Records the reader rejects are handed to `onError` without the loop below seeing them:
                // a body of nothing but bad records fills batches here, between reads.
                if isFull() { try await deliver() }
                if rejections.isFull { throw BodyLimitError.tooManyRejected }
            })
        // The library's `.skip` closure is `@Sendable` (readers are `Sendable`); the reader calls it on this
        // task, inside `next()`, never while the loop below touches the batch, the tap or the log.
        nonisolated(unsafe) let onRejected: (RejectedRecord) -> Void = { record in
            tap.skip(record.offset, raw: record.raw, line: record.line)
            addRejected(rejections.add(record, oversized: oversized))
        }
        let lines = JSONLines<Status>(
            chunks: guarded, format: format, chunkSize: configuration.readChunkSize,
            // GuardedBody hands the reader at most --max-record-bytes of a record (then a terminator) and
            // reports the cut as `tooLarge`: the library's own cut (16 MiB by default) must never come
            // first, whatever the operator sets.
            maxRecordBytes: configuration.maxRecordSize + 16,
            onError: .skip { record in onRejected(record) })

        var iterator = lines.makeAsyncIterator()
        let probe = iterator
        progress.position = { probe.bytesConsumed }
        // The closure holds the reader, which holds the body, which holds `progress`: a cycle, broken when
        // the upload ends (or every upload's reader and its buffers stayed in memory).
        defer { progress.position = { 0 } }
        /// Records decoded and kept (the record index is these plus the rejected ones).
        var decoded = 0
        do {
            while let status = try await iterator.next() {
                let (raw, line, start) = tap.take(upTo: iterator.bytesConsumed)
                let index = decoded + rejections.total
                if oversized.isCut(recordStartingAt: start) {
                    // Its first bytes happened to decode: it is still a record past the limit.
                    addRejected(
                        rejections.add(
                            tooLarge: Array(raw.readableBytesView.prefix(RejectionLog.tooLargeKeptBytes)), limit: oversized.limit, index: index,
                            line: oversized.bodyLine(line, at: start), offset: oversized.bodyOffset(start)))
                } else if raw.isValidUTF8, !raw.containsNUL, status.unstorableReason == nil,
                    raw.firstRepeatedKey == nil
                {
                    // yajl's UTF-8 check does not cover every sequence (an overlong form or an encoded
                    // surrogate in a string the model skips decodes), and `raw` goes to a text column.
                    decoded += 1
                    batch.events.append(
                        StoredEvent(
                            status: status, raw: raw, index: index, line: oversized.bodyLine(line, at: start),
                            offset: oversized.bodyOffset(start)))
                    // The model's strings are about the size of the raw text they came from.
                    batchBytes += tap.lastRetained + raw.readableBytes + Self.recordOverhead
                } else {
                    let reason =
                        status.unstorableReason
                        ?? (raw.containsNUL
                            ? "the record holds a NUL byte"
                            : !raw.isValidUTF8
                                ? "the record is not valid UTF-8" : Self.repeatedKeyReason(raw.firstRepeatedKey ?? ""))
                    addRejected(
                        rejections.add(
                            unstorable: Array(raw.readableBytesView), reason: reason, index: index,
                            line: oversized.bodyLine(line, at: start), offset: oversized.bodyOffset(start)))
                }
                if isFull() { try await deliver() }
            }
        } catch is DrainCutError {
            // The drain's deadline: what was read is stored (whole records only), the rest is not read.
            try await deliver()
            try await settle()
            summary.error = "shuttingDown"
            summary.stoppedEarly = "the server is shutting down: its drain deadline passed before the body ended (the rest of the body was not read)"
        } catch is KeyRevokedError {
            // The batch being filled is dropped; the one in flight was let through before the revocation was seen.
            batch = StoreBatch(uploadID: uploadID, client: client)
            try? await settle()
            summary.error = "keyRevoked"
            summary.stoppedEarly = "the API key was revoked during the upload: nothing after the records committed was stored"
        } catch BodyLimitError.tooManyRejected {
            // The upload's cap of rejected records: what was read is stored, the rest is not read.
            try await deliver()
            try await settle()
            summary.error = "tooManyRejected"
            summary.stoppedEarly =
                "more than \(rejections.count) rejected records or \(rejections.bytes) of their bytes (the upload's cap): "
                + "\(rejections.count) are kept, \(rejections.notKept) more were refused and not kept, and the rest of the body was not read"
        } catch let limit as BodyLimitError {
            // Reading stops: what was committed stays, the batch being filled is dropped (the 413
            // counts only committed records).
            batch = StoreBatch(uploadID: uploadID, client: client)
            summary.stoppedEarly = limit.description
        } catch is UnsupportedEncodingError {
            // Found in the body's first bytes: nothing of it is stored.
            batch = StoreBatch(uploadID: uploadID, client: client)
            try? await settle()
            throw APIError.unsupportedMediaType
        } catch let error as APIError {
            // The store or the dead-letter file failed: nothing more can be stored or saved (a batch
            // still in flight is awaited, so nothing of this upload is written after its answer).
            try? await settle()
            try? deadLetters?.close()
            throw error
        } catch {
            // The client went away (or the reader failed): what was decoded is still stored, and the
            // refused records so far are saved, then the request fails.
            try? await deliver()
            try? await settle()
            try? deadLetters?.close()
            throw error
        }
        try await deliver()
        try await settle()
        if let deadLetters {
            do { try deadLetters.close() } catch { throw APIError.deadLetterFailed(error) }
        }

        summary.bytes = bytes.value
        if rejections.notKept > 0 { summary.rejectedNotKept = rejections.notKept }
        // Batches are stored in input order: the committed records are the first ones. Conflicts are
        // known once their batch is committed, so the list is put back in input order.
        let committed = summary.accepted + summary.duplicates + summary.conflicts + summary.rejected
        summary.rejections = rejections.listed.filter { $0.index < committed }.sorted { $0.index < $1.index }
        summary.rejectionsOmitted = summary.rejected + summary.conflicts - summary.rejections.count
        if rejections.count > 0, let deadLetters {
            summary.deadLetterFile = deadLetters.rawPath
            summary.deadLetterErrorsFile = deadLetters.errorsPath
        }
        return summary
    }
}

extension StreamIngestor {
    /// Why a record with a key repeated in one of its objects is refused (``ByteBuffer/firstRepeatedKey``).
    static func repeatedKeyReason(_ key: String) -> String {
        "the key \"\(key.prefix(100))\" is repeated in an object (readers differ on which value counts)"
    }

    /// Bytes counted per record for what it holds besides its raw bytes (its position, kind, message, model).
    static let recordOverhead = 512
}

/// The upload's key was revoked while it streamed.
struct KeyRevokedError: Error {}

/// A count shared between the body wrapper and the ingestor, within one request's task.
private final class Counter {
    var value = 0
}

/// The reader's position (`bytesConsumed`) for the body wrapper, which exists before the reader does.
private final class ReaderProgress {
    var position: () -> Int = { 0 }
}
