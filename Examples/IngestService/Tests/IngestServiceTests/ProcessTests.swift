import AsyncHTTPClient
import Foundation
import IngestServiceApp
import NIOCore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `IngestService` executable, killed and stopped the ways deployments do it.
@Suite("The service process", .serialized)
struct ProcessTests {
    /// SIGKILL in the middle of an upload, restart, retry the same upload: every good record is stored
    /// exactly once, and what the killed process left is whole batches only.
    @Test func sigkillMidUploadThenRetryStoresEachRecordOnce() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let batch = 100
            let (body, sent) = TweetLines(corruptEvery: 0).body(lines: 4000)
            let bytes = Array(body.readableBytesView)
            let service = try ServiceProcess(["--sqlite-path", path, "--batch-size", "\(batch)"])
            let client = try RawClient(port: service.port)
            try client.send(
                "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-ndjson\r\nContent-Length: \(bytes.count)\r\n\r\n")
            // Send about half, in pieces, then kill the server while it is reading.
            var offset = 0
            while offset < bytes.count / 2 {
                let end = min(offset + 8192, bytes.count)
                try client.send(Array(bytes[offset..<end]))
                offset = end
                try await Task.sleep(for: .milliseconds(2))
            }
            try await Task.sleep(for: .milliseconds(300))
            service.signal(SIGKILL)
            #expect(await service.exitStatus() == SIGKILL)
            client.abort()

            let database = try await TestDatabase(path: path)
            let left = try await database.events().map(\.id)
            try await database.close()
            #expect(left.count > 0 && left.count < sent.acceptedIDs.count)
            #expect(left.count % batch == 0, "only whole batches: \(left.count) rows")
            #expect(left == Array(sent.acceptedIDs.prefix(left.count)))

            let restarted = try ServiceProcess(["--sqlite-path", path, "--batch-size", "\(batch)"])
            let summary = try await restarted.postEvents(body)
            restarted.signal(SIGTERM)
            #expect(await restarted.exitStatus() == 0)
            #expect(summary.accepted == sent.acceptedIDs.count - left.count)
            #expect(summary.duplicates == left.count)
            let after = try await TestDatabase(path: path)
            #expect(try await after.events().map(\.id) == sent.acceptedIDs)
            try await after.close()
        }
    }

    /// SIGTERM during an upload: the server stops accepting connections, finishes the upload (200 with
    /// every record stored), then exits 0.
    @Test func sigtermDrainsTheUploadInFlight() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let (body, sent) = TweetLines(corruptEvery: 30).body(lines: 3000)
            let service = try ServiceProcess(["--sqlite-path", path, "--batch-size", "200"])
            let signalled = SignalOnce()
            let slowBody = AsyncStream<ByteBuffer> { continuation in
                Task {
                    var rest = body
                    var chunks = 0
                    while let chunk = rest.readSlice(length: min(16_384, rest.readableBytes)), chunk.readableBytes > 0 {
                        continuation.yield(chunk)
                        chunks += 1
                        if chunks == 100 {
                            service.signal(SIGTERM)
                            signalled.mark()
                            try? await Task.sleep(for: .milliseconds(500))
                            // Draining: no new connection is taken.
                            signalled.newConnectionRefused = (try? RawClient(port: service.port)) == nil
                        }
                        try? await Task.sleep(for: .milliseconds(2))
                    }
                    continuation.finish()
                }
            }
            let summary = try await service.postEvents(stream: slowBody)
            #expect(signalled.done)
            #expect(signalled.newConnectionRefused, "a new connection was accepted while draining")
            #expect(summary.accepted == sent.acceptedIDs.count)
            #expect(summary.rejected == sent.rejected.count)
            #expect(await service.exitStatus() == 0)
            let database = try await TestDatabase(path: path)
            #expect(try await database.events().map(\.id) == sent.acceptedIDs)
            #expect(try await database.rejections().count == sent.rejected.count)
            try await database.close()
        }
    }

    /// `--shutdown-delay 2`: on SIGTERM, `GET /ready` answers 503 `draining` at once while the server
    /// still takes new connections (and `GET /health` is 200); after the delay it stops accepting; the
    /// upload in flight through all of it is answered 200 with every record; exit 0.
    @Test func readyIs503WhileSIGTERMDrains() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let (body, sent) = TweetLines(corruptEvery: 0).body(lines: 3000)
            let service = try ServiceProcess(["--sqlite-path", path, "--batch-size", "200", "--shutdown-delay", "2"])
            var ready = try await service.get("/ready")
            for _ in 0..<100 where ready.status != 200 {
                try await Task.sleep(for: .milliseconds(50))
                ready = try await service.get("/ready")
            }
            #expect(ready.status == 200)
            let signalled = ContinuousClock.now
            let observed = DrainObservations()
            let slowBody = AsyncStream<ByteBuffer> { continuation in
                Task {
                    var rest = body
                    var chunks = 0
                    while let chunk = rest.readSlice(length: min(16_384, rest.readableBytes)), chunk.readableBytes > 0 {
                        continuation.yield(chunk)
                        chunks += 1
                        if chunks == 50 {
                            service.signal(SIGTERM)
                            try? await Task.sleep(for: .milliseconds(300))
                            observed.ready = try? await service.get("/ready")
                            observed.health = try? await service.get("/health")
                            try? await Task.sleep(for: .milliseconds(2700))
                            observed.refusedAfterDelay = (try? RawClient(port: service.port)) == nil
                        }
                        try? await Task.sleep(for: .milliseconds(5))
                    }
                    continuation.finish()
                }
            }
            let summary = try await service.postEvents(stream: slowBody)
            #expect(ContinuousClock.now - signalled > .seconds(3), "the upload outlasted the delay")
            #expect(observed.ready?.status == 503 && observed.ready?.body.contains(#""error":"draining""#) == true,
                "\(String(describing: observed.ready))")
            #expect(observed.health?.status == 200)
            #expect(observed.refusedAfterDelay, "a new connection was taken after the shutdown delay")
            #expect(summary.accepted == sent.acceptedIDs.count)
            #expect(await service.exitStatus() == 0)
            let database = try await TestDatabase(path: path)
            #expect(try await database.events().map(\.id) == sent.acceptedIDs)
            try await database.close()
        }
    }

    /// One JSON line per POST on standard error (issue #37, point 7), whatever `--log-level`: request id
    /// (the `X-Request-Id` answered), route, client, status, error code, counts, bytes, upload id, duration.
    @Test func eachUploadIsOneJSONLogLine() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let (body, sent) = TweetLines(corruptEvery: 10).body(lines: 100)
            let service = try ServiceProcess(["--sqlite-path", path])
            let upload = try await service.post("/events", body: body, key: nil)
            let document = try await service.post("/event", body: ByteBuffer(string: TweetLines.tweet(id: 7, index: 7)), key: nil)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(service.port)/events")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "text/plain")
            request.body = .bytes(body)
            let refused = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            _ = try await refused.body.collect(upTo: 1 << 20)
            service.signal(SIGTERM)
            #expect(await service.exitStatus() == 0)

            var lines: [String: [String: Any]] = [:]
            for line in service.standardError().split(separator: "\n") where line.hasPrefix("{") {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["message"] as? String == "upload", let id = object["requestId"] as? String
                else { continue }
                lines[id] = object
            }
            #expect(lines.count == 3, "\(service.standardError())")
            let firstID = try #require(upload.requestID)
            let first = try #require(lines[firstID])
            #expect(first["route"] as? String == "/events" && first["status"] as? Int == 200)
            #expect(first["client"] as? String == "anonymous" && first["level"] as? String == "info")
            #expect(first["accepted"] as? Int == sent.acceptedIDs.count && first["rejected"] as? Int == sent.rejected.count)
            #expect(first["duplicates"] as? Int == 0 && first["conflicts"] as? Int == 0)
            #expect(first["bytes"] as? Int == body.readableBytes && (first["uploadId"] as? String)?.count == 36)
            #expect((first["durationSeconds"] as? Double ?? 0) > 0 && first["time"] is String)
            let secondID = try #require(document.requestID)
            let second = try #require(lines[secondID])
            #expect(second["route"] as? String == "/event" && second["status"] as? Int == 200 && second["accepted"] as? Int == 1)
            let thirdID = try #require(refused.headers["X-Request-Id"].first)
            let third = try #require(lines[thirdID])
            #expect(third["status"] as? Int == 415 && third["error"] as? String == "unsupportedMediaType")
        }
    }

    /// The server's peak RSS (VmHWM of the real process, reset before each upload) through a flood of
    /// 200,000 bad lines, a 300 MB JSON line and a 300 MB array element (INGEST_TEST_RECORD_MB to change
    /// the size), each between good records: under 96 MiB, and each answer and the store are right.
    @Test func memoryStaysBoundedThroughAFloodAndAHugeRecord() async throws {
        let megabytes = ProcessInfo.processInfo.environment["INGEST_TEST_RECORD_MB"].flatMap { Int($0) } ?? 300
        try await SQLiteStoreTests.withDatabase { path in
            // The flood is past the default cap of rejected records per upload (LimitsTests has that).
            let service = try ServiceProcess([
                "--sqlite-path", path, "--max-rejected-per-upload", "1000000", "--rejected-keep-per-client", "1000000",
            ])
            let good = { (id: Int64) in ByteBuffer(string: TweetLines.tweet(id: id, index: Int(id)) + "\n") }
            let filler = ByteBuffer(repeating: UInt8(ascii: "a"), count: 1 << 20)
            var peaks: [String: Int] = [:]

            service.resetPeakRSS()
            let flood = try await service.postEvents(
                stream: GeneratedBody([
                    .bytes(good(1)), .lines(count: 200_000, line: { "{\"id\":\($0),\"user\":" }), .bytes(good(2)),
                ]))
            peaks["flood"] = service.peakRSS()
            #expect(flood.accepted == 2 && flood.rejected == 200_000 && flood.rejectionsOmitted == 199_900)

            service.resetPeakRSS()
            let line = try await service.postEvents(
                stream: GeneratedBody([
                    .bytes(good(3)), .bytes(ByteBuffer(string: #"{"id":5,"user":{"id":1},"text":""#)),
                    .repeated(filler, times: megabytes), .bytes(ByteBuffer(string: "\"}\n")), .bytes(good(4)),
                ]))
            peaks["line"] = service.peakRSS()
            #expect(line.accepted == 2 && line.rejected == 1)
            #expect(line.rejections.first?.kind == "tooLarge" && line.rejections.first?.index == 1)

            service.resetPeakRSS()
            let array = try await service.postEvents(
                stream: GeneratedBody([
                    .bytes(ByteBuffer(string: "[")), .bytes(good(6)), .bytes(ByteBuffer(string: #",{"id":7,"text":""#)),
                    .repeated(filler, times: megabytes), .bytes(ByteBuffer(string: "\"},")), .bytes(good(8)),
                    .bytes(ByteBuffer(string: "]")),
                ]), contentType: "application/json")
            peaks["array"] = service.peakRSS()
            #expect(array.accepted == 2 && array.rejected == 1)
            #expect(array.rejections.first?.kind == "tooLarge" && array.rejections.first?.index == 1)

            service.signal(SIGTERM)
            #expect(await service.exitStatus() == 0)
            print("server peak RSS: \(peaks.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value >> 20) MiB" }.joined(separator: ", ")) (\(megabytes) MB records)")
            for (name, peak) in peaks {
                #expect(peak < 96 << 20, "\(name): peak RSS \(peak >> 20) MiB")
            }
            let database = try await TestDatabase(path: path)
            #expect(try await database.events().map(\.id) == [1, 2, 3, 4, 6, 8])
            let tooLarge = try await database.connection.query(
                "SELECT length(raw) AS n FROM rejected_records WHERE kind = 'tooLarge'")
            #expect(tooLarge.map { $0.column("n")?.integer } == [4096, 4096], "the first 4 KiB of each are kept")
            try await database.close()
        }
    }

    /// Issue #44.1 and .3 against the real process with the default limits: ten uploads at once (the cap
    /// per client raised to 16, so only the memory budget stands in the way), each of 8 good events and 8
    /// bad lines of 1,040,000 bytes (just under the record limit); then 40 MiB of blank lines before one
    /// record. Each upload is answered 200 with its counts or 503 `overloaded`; the peak RSS stays under
    /// 256 MiB (the target) and under 128 MiB through the blank space.
    @Test func memoryStaysBoundedWithRecordsJustUnderTheLimitAndBlankSpace() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let service = try ServiceProcess(["--sqlite-path", path, "--max-uploads-per-client", "16"])
            var text = ""
            for id in 1...8 {
                text += LimitsTests.bigEvent(id: Int64(id), length: 1_040_000) + "\n" + LimitsTests.badLine(length: 1_040_000) + "\n"
            }
            let body = ByteBuffer(string: text)
            service.resetPeakRSS()
            let statuses = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        var request = HTTPClientRequest(url: "http://127.0.0.1:\(service.port)/events")
                        request.method = .POST
                        request.headers.add(name: "Content-Type", value: "application/x-ndjson")
                        request.body = .bytes(body)
                        do {
                            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
                            let answer = try await response.body.collect(upTo: 1 << 20)
                            return (Int(response.status.code), String(buffer: answer))
                        } catch {
                            // A 503 comes before the body is read, and the server closes the connection
                            // after it: the client, still sending, may see the close rather than the answer.
                            return (0, "\(error)")
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let manyPeak = service.peakRSS()
            for (status, answer) in statuses {
                if status == 200 {
                    let summary = try IngestSummary(json: Array(answer.utf8))
                    #expect(summary.accepted + summary.duplicates == 8 && summary.rejected == 8, "\(answer)")
                } else if status != 0 {
                    #expect(status == 503 && answer.contains("overloaded"), "\(status) \(answer)")
                }
            }
            #expect(statuses.contains { $0.0 == 200 })
            // Every upload not answered 200 was refused by the budget: one log line each says so.
            let overloaded = service.standardError().split(separator: "\n").filter { $0.contains("\"error\":\"overloaded\"") }
            #expect(overloaded.count == statuses.filter { $0.0 != 200 }.count, "\(statuses.map(\.0))")

            service.resetPeakRSS()
            let blank = try await service.postEvents(
                stream: GeneratedBody([
                    .repeated(ByteBuffer(string: String(repeating: " \n", count: 1 << 19)), times: 40),
                    .bytes(ByteBuffer(string: TweetLines.tweet(id: 100, index: 0) + "\n")),
                ]))
            let blankPeak = service.peakRSS()
            #expect(blank.accepted == 1)
            service.signal(SIGTERM)
            #expect(await service.exitStatus() == 0)
            print("server peak RSS: 10 uploads at once \(manyPeak >> 20) MiB (\(statuses.filter { $0.0 == 200 }.count) answered 200), 40 MiB of blank lines \(blankPeak >> 20) MiB")
            #expect(manyPeak < 256 << 20, "10 uploads: peak RSS \(manyPeak >> 20) MiB")
            #expect(blankPeak < 128 << 20, "blank lines: peak RSS \(blankPeak >> 20) MiB")
        }
    }

    /// Options out of the range a `Duration` and the token bucket hold (`--rate-limit 1e-19` and
    /// `--idle-timeout 1e17` crashed the process, issue #44.7): refused at start with a message naming the
    /// option, exit code 64 (a usage error), before anything is opened.
    @Test func outOfRangeOptionsAreRefusedAtStart() async throws {
        for (option, value) in [
            ("--rate-limit", "1e-19"), ("--rate-limit", "1e300"), ("--idle-timeout", "1e17"), ("--shutdown-delay", "1e17"),
            ("--head-timeout", "1e17"), ("--drain-timeout", "0"), ("--drain-timeout", "1e17"), ("--metrics-key", "short"),
            ("--min-free-disk", "-1"), ("--max-connections", "0"),
        ] {
            let service = try ServiceProcess([option, value], waitForPort: false)
            let status = await service.exitStatus()
            #expect(status == 64, "\(option) \(value): exit \(status) \(service.standardError())")
            #expect(service.standardError().contains(option), "\(option) \(value): \(service.standardError())")
        }
    }

    /// A bad --database-url or a database that is not there: a clear message and a non-zero exit.
    @Test func badDatabaseAtStartExitsNonZero() async throws {
        for (url, message) in [
            ("mysql://u:p@127.0.0.1/db", "not a postgres:// URL"), ("postgres://u:p@127.0.0.1:1/db", "127.0.0.1:1"),
            ("postgres://u:s3cret@127.0.0.1/db?sslmode=verify-everything", "sslmode 'verify-everything' is not supported"),
        ] {
            let service = try ServiceProcess(["--database-url", url], waitForPort: false)
            let status = await service.exitStatus()
            #expect(status == 2, "\(url): exit \(status)")
            #expect(service.standardError().contains(message), "\(url): \(service.standardError())")
            #expect(!service.standardError().contains("s3cret"), "\(url): \(service.standardError())")
        }
    }
}

final class DrainObservations: @unchecked Sendable {
    private let lock = NSLock()
    private var _ready: (status: Int, body: String)?
    private var _health: (status: Int, body: String)?
    private var _refused = false
    var ready: (status: Int, body: String)? {
        get { lock.withLock { _ready } }
        set { lock.withLock { _ready = newValue } }
    }
    var health: (status: Int, body: String)? {
        get { lock.withLock { _health } }
        set { lock.withLock { _health = newValue } }
    }
    var refusedAfterDelay: Bool {
        get { lock.withLock { _refused } }
        set { lock.withLock { _refused = newValue } }
    }
}

final class SignalOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var _done = false
    private var _refused = false
    func mark() { lock.withLock { _done = true } }
    var done: Bool { lock.withLock { _done } }
    var newConnectionRefused: Bool {
        get { lock.withLock { _refused } }
        set { lock.withLock { _refused = newValue } }
    }
}

/// The built `IngestService` executable (beside the test bundle) running on a free loopback port.
final class ServiceProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let errors: URL

    /// The built executable (beside the test bundle).
    static func executable() throws -> URL {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var executable = directory.appendingPathComponent("IngestService")
        if !FileManager.default.fileExists(atPath: executable.path) {
            // swift test may run the bundle from inside the build directory's .xctest folder.
            executable = directory.deletingLastPathComponent().appendingPathComponent("IngestService")
        }
        guard FileManager.default.fileExists(atPath: executable.path) else {
            throw TestFailure("no IngestService executable near \(directory.path): build it first (swift build)")
        }
        return executable
    }

    /// Starts the service with `arguments` (and `--allow-anonymous` unless the test is about keys).
    init(_ arguments: [String], waitForPort: Bool = true, allowAnonymous: Bool = true) throws {
        let executable = try Self.executable()
        port = try freePort()
        errors = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.executableURL = executable
        process.arguments =
            ["--port", "\(port)", "--log-level", "warning"] + (allowAnonymous ? ["--allow-anonymous"] : []) + arguments
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        guard waitForPort else { return }
        let deadline = ContinuousClock.now + .seconds(60)
        while (try? RawClient(port: port)) == nil {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw TestFailure("IngestService did not start: \(standardError())")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: errors)
    }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// The exit code, or the signal that ended the process.
    func exitStatus() async -> Int32 {
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        return process.terminationStatus
    }

    func standardError() -> String {
        (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
    }

    /// The process's peak resident memory (VmHWM), in bytes; 0 when it cannot be read.
    func peakRSS() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kilobytes * 1024
    }

    /// Resets the peak to the current resident size (Linux: /proc/PID/clear_refs).
    func resetPeakRSS() {
        if let clear = FileHandle(forWritingAtPath: "/proc/\(process.processIdentifier)/clear_refs") {
            try? clear.write(contentsOf: Data("5".utf8))
            try? clear.close()
        }
    }

    /// POSTs `body` as JSON Lines with `Authorization: Bearer KEY` (or `key` as the whole header when
    /// `raw`; none when nil).
    func post(_ path: String, body: ByteBuffer, key: String?, raw: Bool = false) async throws
        -> (status: Int, wwwAuthenticate: String?, requestID: String?, body: String)
    {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: path == "/event" ? "application/json" : "application/x-ndjson")
        if let key { request.headers.add(name: "Authorization", value: raw ? key : "Bearer \(key)") }
        request.body = .bytes(body)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (
            Int(response.status.code), response.headers["WWW-Authenticate"].first, response.headers["X-Request-Id"].first,
            String(buffer: bytes))
    }

    /// `GET path` on a new connection.
    func get(_ path: String) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.headers.add(name: "Connection", value: "close")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: bytes))
    }

    func postEvents(_ body: ByteBuffer) async throws -> IngestSummary {
        try await postEvents(request: .bytes(body))
    }

    func postEvents<S: AsyncSequence & Sendable>(stream: S, contentType: String = "application/x-ndjson") async throws
        -> IngestSummary where S.Element == ByteBuffer
    {
        try await postEvents(request: .stream(stream, length: .unknown), contentType: contentType)
    }

    private func postEvents(request body: HTTPClientRequest.Body, contentType: String = "application/x-ndjson")
        async throws -> IngestSummary
    {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/events")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        request.body = body
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(600))
        let bytes = try await response.body.collect(upTo: 64 << 20)
        guard response.status == .ok else {
            throw TestFailure("POST /events: \(response.status) \(String(buffer: bytes))")
        }
        return try IngestSummary(json: Array(bytes.readableBytesView))
    }
}

/// A loopback port nothing listens on now (the system's pick for an unbound socket).
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            guard bind(fd, pointer, length) == 0 else { return -1 }
            return getsockname(fd, pointer, &length)
        }
    }
    guard bound == 0 else { throw TestFailure("bind: \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}
