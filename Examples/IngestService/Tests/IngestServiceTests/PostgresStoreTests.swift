import Foundation
import IngestServiceApp
import Logging
import ModelMapper
import NIOCore
import NIOPosix
import PostgresNIO
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The PostgreSQL store against a real server (INGEST_TEST_DATABASE_URL; scripts/test-ingest-service
/// starts one). Without a server these tests skip with a message, except under CI=true, where they fail.
@Suite("PostgreSQL store", .serialized)
struct PostgresStoreTests {
    static let url = ProcessInfo.processInfo.environment["INGEST_TEST_DATABASE_URL"]
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The URL, after emptying the database; nil (a recorded failure under CI) when there is no server.
    static func freshDatabase() async throws -> String? {
        guard let url else {
            if isCI { Issue.record("CI=true but INGEST_TEST_DATABASE_URL is not set: no PostgreSQL server to test against") }
            return nil
        }
        // A test that stopped halfway may have left the database refusing connections.
        try await DatabaseBreaker(url: url).restore()
        _ = try await TestPostgres.with(url) { database in
            try await database.connection.query("DROP TABLE IF EXISTS events, rejected_records, api_keys, schema_version", logger: testLogger)
        }
        return url
    }

    static func withServer<R: Sendable>(
        url: String, batchSize: Int = 1024, timeout: Duration = .seconds(10),
        _ body: @Sendable (TestServer) async throws -> R
    ) async throws -> R {
        let metrics = IngestMetrics()
        let store = try await PostgresStore.open(url: url, timeout: timeout, metrics: metrics)
        return try await TestServer.with(store: store, metrics: metrics, {
            $0.storeBatchSize = batchSize
            $0.deadLetterDirectory = nil  // the store keeps the rejected records
        }, body)
    }

    @Test(.enabled(if: url != nil || isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL (scripts/test-ingest-service starts one)"))
    func eachGoodRecordIsStoredOnceWhateverTheRetries() async throws {
        guard let url = try await Self.freshDatabase() else { return }
        let lines = TweetLines(corruptEvery: 25)
        let (body, sent) = lines.body(lines: 2500)
        let first = try await Self.withServer(url: url, batchSize: 300) { server in
            try await server.postEvents(.bytes(body))
        }
        #expect(first.accepted == sent.acceptedIDs.count && first.duplicates == 0)
        #expect(first.rejected == sent.rejected.count)
        // The retry, through another server process's worth of state (a new pool).
        let second = try await Self.withServer(url: url) { server in
            try await server.postEvents(.stream(body.chunked(7_000), length: .unknown))
        }
        #expect(second.accepted == 0 && second.duplicates == sent.acceptedIDs.count)
        try await TestPostgres.with(url) { database in
            let events = try await database.events()
            #expect(events.map(\.id) == sent.acceptedIDs)
            let expectedText = Dictionary(uniqueKeysWithValues: (0..<2500).map { (lines.firstID + Int64($0), lines.line($0).text) })
            #expect(events.allSatisfy { $0.raw == expectedText[$0.id] }, "raw is each line exactly as sent")
            let rejected = try await database.rejections(upload: first.uploadId)
            #expect(rejected.map(\.index) == sent.rejected.map(\.index))
            #expect(rejected.map(\.raw) == sent.rejected.map { Array(lines.line($0.index).text.utf8) })
            #expect(try await database.count("rejected_records") == 2 * sent.rejected.count)
            #expect(try await database.count("schema_version") == ClientTests.latestVersion)
        }
    }

    /// The typed columns hold the model's fields, through the binary array binds: a text with a tab,
    /// newline, carriage return and backslash (the characters a text format would escape), a NULL `lang`
    /// (bound as text plus a flag), dates to the second.
    @Test(.enabled(if: url != nil || isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL"))
    func typedColumnsHoldTheModelsFields() async throws {
        guard let url = try await Self.freshDatabase() else { return }
        var lines = (0..<40).map { TweetLines.tweet(id: 7000 + Int64($0), index: $0) }
        lines.append(
            #"{"id":8000,"created_at":"Sun Aug 31 00:29:15 +0000 2014","text":"tab\tnewline\ncr\rbackslash\\ end","lang":null,"user":{"id":1,"screen_name":"a\\b","followers_count":3,"verified":false},"entities":{"hashtags":[{"text":"x\\y"}],"urls":[]}}"#)
        let body = ByteBuffer(string: lines.joined(separator: "\n") + "\n")
        let summary = try await Self.withServer(url: url) { server in try await server.postEvents(.bytes(body)) }
        #expect(summary.accepted == lines.count)
        let query: PostgresQuery = """
            SELECT id, created_at, text, lang, retweet_count, favorite_count, user_id, user_screen_name,
                   user_followers_count, user_verified, hashtags, urls, upload_id, raw FROM events ORDER BY id
            """
        var rows = 0
        try await TestPostgres.with(url) { database in
            for try await (id, createdAt, text, lang, retweets, favorites, userID, screenName, followers, verified, hashtags, urls, upload, raw)
                in try await database.connection.query(query, logger: testLogger).decode(
                    (Int64, Date, String, String?, Int64, Int64, Int64, String, Int64, Bool, String, String, String, String).self)
            {
                rows += 1
                #expect(raw == lines[rows - 1], "raw is the line as sent")
                let status = try Status(json: Array(raw.utf8))
                #expect(id == status.id)
                #expect(createdAt == status.createdAt)
                #expect(text == status.text)
                #expect(lang == status.lang)
                #expect(retweets == Int64(status.retweetCount) && favorites == Int64(status.favoriteCount))
                #expect(userID == status.user.id && screenName == status.user.screenName)
                #expect(followers == Int64(status.user.followersCount) && verified == status.user.verified)
                #expect(hashtags == status.entities.hashtags.map(\.text).joined(separator: " "))
                #expect(urls == status.entities.urls.compactMap { $0.expandedUrl?.absoluteString }.joined(separator: " "))
                #expect(upload == summary.uploadId)
            }
        }
        #expect(rows == lines.count)
        #expect(lines.last!.contains(#"tab\tnewline\ncr\rbackslash\\ end"#))
    }

    /// Two replicas — two `IngestService` processes, each with its own pool, on one database — given the
    /// same body at the same moment: each record is stored once, the two answers' `accepted` add up to the
    /// good records and so do their `duplicates`. Both insert the batches in the same (id) order, so the
    /// replica behind waits on the other's row locks and then counts those ids as duplicates.
    @Test(.enabled(if: url != nil || isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL"))
    func twoReplicaProcessesGivenTheSameBodyAtOnce() async throws {
        guard let url = try await Self.freshDatabase() else { return }
        let (body, sent) = TweetLines(corruptEvery: 40).body(lines: 4000)
        let replicas = try [1, 2].map { _ in try ServiceProcess(["--database-url", url, "--batch-size", "200"]) }
        async let first = replicas[0].postEvents(stream: body.chunked(16 << 10))
        async let second = replicas[1].postEvents(stream: body.chunked(16 << 10))
        let answers = try await [first, second]
        for replica in replicas { replica.signal(SIGTERM) }
        for replica in replicas { #expect(await replica.exitStatus() == 0, "\(replica.standardError())") }
        #expect(answers.map(\.accepted).reduce(0, +) == sent.acceptedIDs.count)
        #expect(answers.map(\.duplicates).reduce(0, +) == sent.acceptedIDs.count)
        #expect(answers.allSatisfy { $0.rejected == sent.rejected.count })
        let (stored, rejectedRows) = try await TestPostgres.with(url) { database in
            (try await database.events().map(\.id), try await database.count("rejected_records"))
        }
        #expect(stored == sent.acceptedIDs)
        // Each upload keeps its own rejected records (under its own upload id).
        #expect(rejectedRows == 2 * sent.rejected.count)
    }

    /// The database going away mid-upload, while a batch's INSERT is running: 503 with `storeUnavailable`;
    /// what is in the table is whole batches, a prefix of the upload; once the database is back, the same
    /// server (its pool recovered) stores exactly the rest.
    ///
    /// The database is taken away at a chosen moment: the test's own session locks `events`, so the next
    /// batch's INSERT waits on the lock; then new connections are refused and every other session of the
    /// database is terminated, so the service's connection dies mid-statement. (That is where the service
    /// used to hang: postgres-nio's `withTransaction` then writes a ROLLBACK to the dead connection, and a
    /// query written to a connection whose channel is torn down never completes.) The database is let back
    /// in before the server stops, whatever happened, and the answer is awaited at most 60 s.
    @Test(.enabled(if: url != nil || isCI, "no PostgreSQL server: set INGEST_TEST_DATABASE_URL"), .timeLimit(.minutes(3)))
    func databaseGoingAwayMidUploadIs503() async throws {
        guard let url = try await Self.freshDatabase() else { return }
        let batch = 100
        let (body, sent) = TweetLines(corruptEvery: 0).body(lines: 3000)
        let breaker = try DatabaseBreaker(url: url)
        let (reply, storedBefore, retry) = try await Self.withServer(url: url, batchSize: batch, timeout: .seconds(3)) { server in
            let (slowBody, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
            let producer = Task {
                var rest = body
                var sentChunks = 0
                while let chunk = rest.readSlice(length: min(20_000, rest.readableBytes)), chunk.readableBytes > 0 {
                    continuation.yield(chunk)
                    sentChunks += 1
                    do {
                        // About a quarter in, lock `events`; once a batch waits on the lock, break the database.
                        if sentChunks == 40 { try await breaker.lockEvents() }
                        if sentChunks > 40 { try await breaker.breakWhenAnInsertWaits() }
                    } catch {
                        Issue.record("could not take the database away: \(String(reflecting: error))")
                    }
                    // Slow until the database is gone, then the rest at once (the answer may be out already).
                    if !breaker.broke { try? await Task.sleep(for: .milliseconds(5)) }
                }
                continuation.finish()
            }
            let reply: Result<HTTPReply, any Error>
            do {
                reply = .success(try await server.post(
                    "/events", contentType: "application/x-ndjson", body: .stream(slowBody, length: .unknown),
                    timeout: .seconds(60)))
            } catch {
                reply = .failure(error)
            }
            await producer.value
            try await breaker.restore()
            let storedBefore = try await TestPostgres.with(url) { database in try await database.events().map(\.id) }
            let retry = try await server.postEvents(.bytes(body))
            return (reply, storedBefore, retry)
        }
        #expect(breaker.broke, "the database was not taken away during the upload")
        let answer = try reply.get()
        #expect(answer.status == 503)
        #expect(answer.text.contains(#""error":"storeUnavailable""#), "\(answer.text)")
        #expect(storedBefore.count % batch == 0, "whole batches only: \(storedBefore.count)")
        #expect(storedBefore.count < sent.acceptedIDs.count)
        #expect(storedBefore == Array(sent.acceptedIDs.prefix(storedBefore.count)))
        #expect(retry.accepted == sent.acceptedIDs.count - storedBefore.count)
        #expect(retry.duplicates == storedBefore.count)
        let stored = try await TestPostgres.with(url) { database in try await database.events().map(\.id) }
        #expect(stored == sent.acceptedIDs)
    }

    /// A malformed URL or a server that is not there: a clear error at start, no hang.
    @Test func invalidURLAndUnreachableServerFailAtStart() async throws {
        for bad in ["mysql://u:p@localhost/db", "postgres://u:p@/db", "postgres://localhost:5432/db", "postgres://u:p@localhost:5432"] {
            await #expect(throws: StoreError.self, "\(bad)") { _ = try await PostgresStore.open(url: bad) }
        }
        let start = ContinuousClock.now
        do {
            _ = try await PostgresStore.open(url: "postgres://u:p@127.0.0.1:1/db", timeout: .seconds(5))
            Issue.record("opened a store on a closed port")
        } catch let error as StoreError {
            #expect("\(error)".contains("127.0.0.1:1"))
        }
        #expect(ContinuousClock.now - start < .seconds(6))
    }
}

/// A connection of the tests' own to the database (to look at or break what the service wrote).
struct TestPostgres {
    let connection: PostgresConnection

    struct Event { let id: Int64; let raw: String }
    struct Rejected { let index: Int; let raw: [UInt8] }

    static func configuration(_ url: String, database: String? = nil) throws -> PostgresConnection.Configuration {
        guard let components = URLComponents(string: url), let host = components.host, let user = components.user
        else { throw TestFailure("bad test database URL \(url)") }
        return PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database ?? String(components.path.dropFirst()), tls: .disable)
    }

    static func with<R>(_ url: String, _ body: (TestPostgres) async throws -> R) async throws -> R {
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration(url), id: 1,
            logger: Logger(label: "TestPostgres"))
        do {
            let result = try await body(TestPostgres(connection: connection))
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Through the `postgres` maintenance database (for a change to the test database itself).
    static func withAdmin<R>(_ url: String, _ body: (PostgresConnection) async throws -> R) async throws -> R {
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: configuration(url, database: "postgres"),
            id: 2, logger: Logger(label: "TestPostgres"))
        defer { Task { try? await connection.close() } }
        return try await body(connection)
    }

    func events() async throws -> [Event] {
        var events: [Event] = []
        for try await (id, raw) in try await connection.query("SELECT id, raw FROM events ORDER BY id", logger: testLogger).decode((Int64, String).self) {
            events.append(Event(id: id, raw: raw))
        }
        return events
    }

    func rejections(upload: String) async throws -> [Rejected] {
        var rows: [Rejected] = []
        let query: PostgresQuery = "SELECT record_index, raw FROM rejected_records WHERE upload_id = \(upload) ORDER BY record_index"
        for try await (index, raw) in try await connection.query(query, logger: testLogger).decode((Int64, ByteBuffer).self) {
            rows.append(Rejected(index: Int(index), raw: Array(raw.readableBytesView)))
        }
        return rows
    }

    func count(_ table: String) async throws -> Int {
        for try await (n) in try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: testLogger).decode(Int64.self) {
            return Int(n)
        }
        return 0
    }
}

let testLogger = Logger(label: "TestPostgres")

/// Takes the test database away at a chosen moment and lets it back in: ``lockEvents()`` holds a lock
/// on `events` in a session of the test's own, so the service's next INSERT waits;
/// ``breakWhenAnInsertWaits()``, once one does, makes the database refuse new connections and terminates
/// every other session in it (the waiting INSERT dies mid-statement), then lets the lock go;
/// ``restore()`` lets connections in again.
final class DatabaseBreaker: @unchecked Sendable {
    private let url: String
    private let database: String
    private let lock = NSLock()
    private var locker: PostgresConnection?
    private var _broke = false

    init(url: String) throws {
        self.url = url
        database = try TestPostgres.configuration(url).database ?? "ingest_test"
    }

    /// Whether the database was taken away.
    var broke: Bool { lock.withLock { _broke } }

    func lockEvents() async throws {
        let connection = try await PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: TestPostgres.configuration(url), id: 3,
            logger: testLogger)
        lock.withLock { locker = connection }
        try await connection.query("BEGIN", logger: testLogger)
        try await connection.query("LOCK TABLE events IN EXCLUSIVE MODE", logger: testLogger)
    }

    func breakWhenAnInsertWaits() async throws {
        guard let locker = lock.withLock({ _broke ? nil : locker }) else { return }
        let waiting = try await Self.count(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
            on: locker)
        guard waiting > 0 else { return }
        let database = self.database
        _ = try await TestPostgres.withAdmin(url) { admin in
            try await admin.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(database) ALLOW_CONNECTIONS false"), logger: testLogger)
        }
        lock.withLock { _broke = true }
        let lockerPID = try await Self.pid(of: locker)
        _ = try await TestPostgres.withAdmin(url) { admin in
            try await admin.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(database) AND pid <> \(lockerPID)",
                logger: testLogger)
        }
        // The lock goes only when the sessions are gone, so the INSERT cannot slip through.
        let others = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        let deadline = ContinuousClock.now + .seconds(10)
        while try await Self.count(others, on: locker) > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        try await locker.query("ROLLBACK", logger: testLogger)
        try await locker.close()
        lock.withLock { self.locker = nil }
    }

    /// Makes the database refuse new connections and ends every session in it (as a failover or an
    /// administrator would): the service's pool loses its connections and cannot open new ones.
    func takeAway() async throws {
        let database = self.database
        _ = try await TestPostgres.withAdmin(url) { admin in
            try await admin.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(database) ALLOW_CONNECTIONS false"), logger: testLogger)
            try await admin.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(database)", logger: testLogger)
        }
        lock.withLock { _broke = true }
    }

    /// Lets connections in again and drops the lock if it is still held.
    func restore() async throws {
        if let locker = lock.withLock({ () -> PostgresConnection? in defer { locker = nil }; return locker }) {
            try? await locker.close()
        }
        let database = self.database
        _ = try await TestPostgres.withAdmin(url) { admin in
            try await admin.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(database) ALLOW_CONNECTIONS true"), logger: testLogger)
        }
    }

    /// A count from `pg_stat_activity`, read afresh (in a transaction it is otherwise a snapshot taken
    /// at its first read).
    private static func count(_ sql: String, on connection: PostgresConnection) async throws -> Int {
        try await connection.query("SELECT pg_stat_clear_snapshot()", logger: testLogger)
        for try await (n) in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: testLogger).decode(Int64.self) {
            return Int(n)
        }
        return 0
    }

    private static func pid(of connection: PostgresConnection) async throws -> Int32 {
        for try await (pid) in try await connection.query("SELECT pg_backend_pid()", logger: testLogger).decode(Int32.self) {
            return pid
        }
        throw TestFailure("no backend pid")
    }
}
