// The libFuzzer target of the ingest path (issue 37.10), built by scripts/fuzz-ingest into the
// IngestServiceApp module itself (so it calls the internal `StreamIngestor` as the `POST /events` handler
// does), with -sanitize=fuzzer,address: the service's code is coverage-instrumented, its dependencies
// (ModelMapper, SwiftNIO, SQLiteNIO) come from the package's debug build and are not.
//
// One input is one upload, made of the input's bytes:
//   byte 0: bit 0 JSON Lines (0) or a top-level array (1); bit 1 (array form) the elements are the input's
//           lines, each a record, or the rest of the input is the body as is; bits 2-3 the record limit
//           (--max-record-bytes): 256, 1024, 4096 or 4096 bytes.
//   byte 1: the reader's chunk size (--read-chunk-size): 1 to 4096 bytes.
//   byte 2: the seed of the body's chunking (the pieces the HTTP server would hand over): 1 to 64·(byte 3
//           & 0x3F)+1 bytes each.
//   byte 3: bits 6-7 the store batch size: 1, 2, 16 or 1024 records.
//   the rest: the body (lines form), or the array's elements (one per line of it) or its body.
// It is ingested twice, with the same client, into a SQLite store on /dev/shm (in memory; WAL needs a
// file, so not `:memory:`), and then the client's rows are deleted. Checked on every input:
//   - no crash, no ASan report, no error thrown (but 415 for a body that starts as UTF-16/32: then
//     nothing stored);
//   - accepted + duplicates + conflicts + rejected == the records sent, counted here the way the service
//     defines them (JSON Lines: the non-blank lines, a UTF-8 BOM skipped; the array made of lines: the
//     elements, when each is a JSON value on its own); for a raw array body, where this target cannot
//     count the elements independently, the two passes must count the same number;
//   - the second pass accepts nothing (everything is a duplicate, or a conflict of an id sent twice with
//     other bytes), and rejects as many as the first;
//   - the client's rows in `events` == accepted; its rows in `rejected_records` == the rejected of both
//     passes;
//   - every 256 inputs, the process's RSS is under $INGEST_FUZZ_RSS_MIB (default 1536 MiB, ASan
//     included); its peak is printed then.
#if INGEST_FUZZING
    import Foundation
    import ModelMapper
    import NIOCore
    import SQLiteNIO

    /// The process-wide state: the store, a second connection to count and clear rows, the counters.
    private final class FuzzState: @unchecked Sendable {
        let store: SQLiteStore
        let reader: SQLiteConnection
        let metrics = IngestMetrics()
        var inputs = 0
        var peakRSS = 0
        var uncounted = 0
        var stopped = 0
        var refused = 0

        init(store: SQLiteStore, reader: SQLiteConnection) {
            self.store = store
            self.reader = reader
        }

        nonisolated(unsafe) static var shared: FuzzState?
    }

    /// The body's pieces, as the HTTP server hands them over.
    private struct Chunks: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let pieces: [ByteBuffer]
        struct AsyncIterator: AsyncIteratorProtocol {
            var pieces: [ByteBuffer]
            var next = 0
            mutating func next() async throws -> ByteBuffer? {
                guard next < pieces.count else { return nil }
                defer { next += 1 }
                return pieces[next]
            }
        }
        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(pieces: pieces) }
    }

    /// Runs `body` on the concurrency pool and waits for it (libFuzzer calls in synchronously).
    private func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        switch box.result! {
        case .success(let value): return value
        case .failure(let error): fuzzFail("unexpected error: \(error)")
        }
    }

    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    private func fuzzFail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("INGEST FUZZ FAILURE: \(message)\n".utf8))
        abort()
    }

    private func residentMiB() -> (current: Int, peak: Int) {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
            return (Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0) / 1024
        }
        return (field("VmRSS:"), field("VmHWM:"))
    }

    private func setUp() -> FuzzState {
        if let state = FuzzState.shared { return state }
        let path = "\(ProcessInfo.processInfo.environment["INGEST_FUZZ_DIR"] ?? "/dev/shm")/ingest-fuzz-\(getpid()).sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        let state = blocking {
            let store = try await SQLiteStore.open(path: path)
            let reader = try await SQLiteConnection.open(storage: .file(path: path))
            _ = try await reader.query("PRAGMA busy_timeout=5000")
            return FuzzState(store: store, reader: reader)
        }
        // The file goes with the process (its name stays open while the process runs).
        atexit {
            let path = "\(ProcessInfo.processInfo.environment["INGEST_FUZZ_DIR"] ?? "/dev/shm")/ingest-fuzz-\(getpid()).sqlite"
            for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        }
        FuzzState.shared = state
        return state
    }

    /// Records in a JSON Lines body as the service counts them: non-blank lines (space, tab, CR only),
    /// after a UTF-8 byte-order mark at the start.
    private func countLines(_ body: [UInt8]) -> Int {
        var start = body.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var count = 0
        while start < body.count {
            let end = body[start...].firstIndex(of: 0x0A) ?? body.count
            if body[start..<end].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) { count += 1 }
            start = end + 1
        }
        return count
    }

    /// Whether `bytes` is one JSON value (with blank space around it), no raw line break in a string.
    private func isOneValue(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return false }
        return (try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])) != nil
    }

    @_cdecl("LLVMFuzzerTestOneInput")
    public func ingestFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        guard size >= 4 else { return 0 }
        let input = Array(UnsafeBufferPointer(start: data, count: size))
        let state = setUp()
        let isArray = input[0] & 1 != 0
        let linesAreElements = input[0] & 2 == 0
        let recordLimit = [256, 1024, 4096, 4096][Int(input[0] >> 2 & 3)]
        let readChunk = 1 + Int(input[1]) * 16
        let maxPiece = 1 + 64 * Int(input[3] & 0x3F + 1)
        let batchSize = [1, 2, 16, 1024][Int(input[3] >> 6)]
        let rest = input[4...]

        var body: [UInt8]
        var expected: Int?  // nil: not countable here
        if !isArray {
            body = Array(rest)
            expected = countLines(body)
        } else if linesAreElements {
            let elements = rest.split(separator: 0x0A, omittingEmptySubsequences: true)
            body = [UInt8(ascii: "[")]
            for (i, element) in elements.enumerated() {
                if i > 0 { body += [UInt8(ascii: ","), 0x0A] }
                body += element
            }
            body += [UInt8(ascii: "]"), 0x0A]
            expected = elements.allSatisfy { isOneValue($0) } ? elements.count : nil
        } else {
            body = Array(rest)
            expected = nil
        }
        var rng = SplitMix64(seed: UInt64(input[2]) &* 0x1_0000_0001 &+ UInt64(size))
        var pieces: [ByteBuffer] = []
        var at = 0
        while at < body.count {
            let length = min(body.count - at, 1 + Int(rng.next() % UInt64(maxPiece)))
            pieces.append(ByteBuffer(bytes: body[at..<(at + length)]))
            at += length
        }
        if pieces.isEmpty || rng.next() % 4 == 0 { pieces.append(ByteBuffer()) }  // an empty piece, as NIO may send
        let head = Array(body.prefix(BodyEncoding.headLength))
        let refused = BodyEncoding.isUTF16Or32(head)

        let configuration = IngestConfiguration(
            deadLetterDirectory: nil, maxEventsBodySize: nil, maxRecordSize: recordLimit, rejectionListLimit: 8,
            readChunkSize: readChunk, storeBatchSize: batchSize)
        let ingestor = StreamIngestor(configuration: configuration, store: state.store, metrics: state.metrics)
        let format: JSONStreamFormat = isArray ? .array : .lines
        let client = "fuzz"
        let chunks = Chunks(pieces: pieces)
        let summaries: [IngestSummary]? = blocking {
            var summaries: [IngestSummary] = []
            for pass in 0..<2 {
                do {
                    summaries.append(
                        try await ingestor.ingest(chunks, format: format, uploadID: "pass-\(pass)", client: client))
                } catch let error as APIError where refused && error.status == .unsupportedMediaType {
                    return nil
                }
            }
            return summaries
        }
        let rows: (events: Int, rejected: Int) = blocking {
            let events = try await state.reader.query("SELECT count(*) AS n FROM events WHERE client = ?", [.text(client)])
            let rejected = try await state.reader.query(
                "SELECT count(*) AS n FROM rejected_records WHERE client = ?", [.text(client)])
            _ = try await state.reader.query("DELETE FROM events WHERE client = ?", [.text(client)])
            _ = try await state.reader.query("DELETE FROM rejected_records WHERE client = ?", [.text(client)])
            return (events.first?.column("n")?.integer ?? -1, rejected.first?.column("n")?.integer ?? -1)
        }
        let what = "\(isArray ? "array" : "lines") body of \(body.count) bytes in \(pieces.count) pieces, limit \(recordLimit), read chunk \(readChunk), batch \(batchSize)"
        if let summaries {
            guard !refused else { fuzzFail("a body starting \(head) was not refused (415)") }
            let (first, second) = (summaries[0], summaries[1])
            func total(_ s: IngestSummary) -> Int { s.accepted + s.duplicates + s.conflicts + s.rejected }
            func show(_ s: IngestSummary) -> String {
                "accepted \(s.accepted) duplicates \(s.duplicates) conflicts \(s.conflicts) rejected \(s.rejected) stopped \(s.stoppedEarly ?? "no")"
            }
            let counts = "first pass: \(show(first)); second pass: \(show(second)); \(what)"
            if first.stoppedEarly != nil || second.stoppedEarly != nil {
                // A limit stopped the upload (413): only what was committed is counted.
                state.stopped += 1
                guard first.stoppedEarly == second.stoppedEarly else { fuzzFail("the passes stopped differently: \(counts)") }
            } else if let expected {
                guard total(first) == expected, total(second) == expected else {
                    fuzzFail("\(expected) records sent, not all accounted for: \(counts)")
                }
            } else {
                state.uncounted += 1
                guard total(first) == total(second) else { fuzzFail("the passes count different records: \(counts)") }
            }
            guard second.accepted == 0 else { fuzzFail("the second pass accepted records: \(counts)") }
            guard first.stoppedEarly != nil || second.rejected == first.rejected else {
                fuzzFail("the passes rejected different records: \(counts)")
            }
            guard rows.events == first.accepted else { fuzzFail("\(rows.events) rows stored: \(counts)") }
            guard rows.rejected == first.rejected + second.rejected else {
                fuzzFail("\(rows.rejected) rejected rows stored: \(counts)")
            }
        } else {
            state.refused += 1
            guard rows.events == 0, rows.rejected == 0 else { fuzzFail("a refused body stored rows: \(what)") }
        }
        state.inputs += 1
        if state.inputs % 256 == 0 {
            let (current, peak) = residentMiB()
            state.peakRSS = max(state.peakRSS, peak)
            let cap = Int(ProcessInfo.processInfo.environment["INGEST_FUZZ_RSS_MIB"] ?? "") ?? 1536
            FileHandle.standardError.write(
                Data(
                    "ingest-fuzz: \(state.inputs) inputs, RSS \(current) MiB (peak \(peak)), raw-array inputs \(state.uncounted), stopped by a limit \(state.stopped), refused 415 \(state.refused)\n"
                        .utf8))
            guard current <= cap else { fuzzFail("RSS \(current) MiB over the cap of \(cap) MiB after \(state.inputs) inputs") }
        }
        return 0
    }
#endif
