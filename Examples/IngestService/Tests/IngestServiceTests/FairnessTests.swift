import AsyncHTTPClient
import Foundation
import IngestServiceApp
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// Issue #44.6: the store's single writer is shared fairly. Turns go round-robin by client (one client's
/// four uploads get one turn a round, like another client's one), and the readiness probe goes before every
/// queued batch, so `GET /ready` never waits for the queue.
@Suite("Fairness on the writer", .serialized)
struct FairnessTests {
    /// Waits (bounded) until a task holds a turn of `writer`.
    static func waitForHolder(_ writer: FairWriter) async throws {
        for _ in 0..<2000 where writer.holding == 0 { try await Task.sleep(for: .milliseconds(5)) }
        guard writer.holding == 1 else { throw TestFailure("no holder") }
    }

    /// Waits (bounded) until `writer` has `count` waiters.
    static func waitForWaiters(_ writer: FairWriter, _ count: Int) async throws {
        for _ in 0..<2000 where writer.waiting < count { try await Task.sleep(for: .milliseconds(5)) }
        guard writer.waiting == count else { throw TestFailure("\(writer.waiting) waiters, not \(count)") }
    }

    /// Client A queues three turns, then B one, then the probe: the probe goes first, then A and B take
    /// turns (A1 B1 A2 A3), not first come first served (A1 A2 A3 B1).
    @Test func theProbeGoesFirstAndClientsTakeTurns() async throws {
        let writer = FairWriter()
        let order = NIOLockedValueBox<[String]>([])
        let (held, release) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await writer.withTurn(.client("A")) {
                    for await _ in held { break }
                }
            }
            try await Self.waitForHolder(writer)
            var queued = 0
            for (name, turn) in [("A1", FairWriter.Turn.client("A")), ("A2", .client("A")), ("A3", .client("A")),
                ("B1", .client("B")), ("probe", .priority)]
            {
                group.addTask { try await writer.withTurn(turn) { order.withLockedValue { $0.append(name) } } }
                queued += 1
                try await Self.waitForWaiters(writer, queued)
            }
            release.yield()
            release.finish()
            try await group.waitForAll()
        }
        #expect(order.withLockedValue { $0 } == ["probe", "A1", "B1", "A2", "A3"])
    }

    /// A waiter whose task is cancelled leaves the queue at once (a batch past its deadline is never
    /// written later), and the turns go on for the others.
    @Test func aCancelledWaiterLeavesTheQueue() async throws {
        let writer = FairWriter()
        let ran = NIOLockedValueBox<[String]>([])
        let (held, release) = AsyncStream.makeStream(of: Void.self)
        let holder = Task { try await writer.withTurn(.client("A")) { for await _ in held { break } } }
        try await Self.waitForHolder(writer)
        let cancelled = Task { try await writer.withTurn(.client("B")) { ran.withLockedValue { $0.append("B") } } }
        try await Self.waitForWaiters(writer, 1)
        let other = Task { try await writer.withTurn(.client("C")) { ran.withLockedValue { $0.append("C") } } }
        try await Self.waitForWaiters(writer, 2)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(writer.waiting == 1)
        release.yield()
        try await holder.value
        try await other.value
        #expect(ran.withLockedValue { $0 } == ["C"])
    }

    /// Client A sends four uploads at once, B one, to a SQLite store with small batches: B's batches are
    /// not queued behind all of A's. First come first served gives A four turns for each of B's (each of
    /// A's uploads has a batch waiting); round-robin gives one. The bound is generous (at most two of A's
    /// between two of B's on average), so a loaded machine that makes B miss a turn now and then passes.
    @Test func oneClientsUploadsCannotHoldTheWriter() async throws {
        try await SQLiteStoreTests.withDatabase { path in
            let metrics = IngestMetrics()
            let sqlite = try await SQLiteStore.open(path: path, metrics: metrics)
            let store = OrderRecordingStore(base: sqlite)
            let keys = APIKeys(store: sqlite)
            let alice = APIKey.generate()
            let bob = APIKey.generate()
            for (client, key) in [("alice", alice), ("bob", bob)] {
                try await sqlite.addKey(APIKeyRecord(client: client, keyID: key.keyID, keyHash: key.hash, created: Date()))
            }
            try await TestServer.with(store: store, keys: keys, metrics: metrics, {
                $0.allowAnonymous = false
                $0.deadLetterDirectory = nil
                $0.storeBatchSize = 20
            }) { server in
                try await keys.refresh()
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for upload in 0..<4 {
                        let (body, _) = TweetLines(firstID: Int64(1_000_000 * (upload + 1)), corruptEvery: 0).body(lines: 2000)
                        group.addTask { try await server.postEvents(.bytes(body), key: alice.text).accepted }
                    }
                    try await Task.sleep(for: .milliseconds(200))  // A's uploads have begun
                    let (body, _) = TweetLines(firstID: 9_000_000, corruptEvery: 0).body(lines: 400)
                    group.addTask { try await server.postEvents(.bytes(body), key: bob.text).accepted }
                    var accepted = 0
                    for try await count in group { accepted += count }
                    #expect(accepted == 4 * 2000 + 400)
                }
            }
            let order = store.order
            guard let first = order.firstIndex(of: "bob"), let last = order.lastIndex(of: "bob") else {
                throw TestFailure("no batch of bob's")
            }
            let bobs = order[first...last].filter { $0 == "bob" }.count
            let alices = order[first...last].filter { $0 == "alice" }.count
            print("batches while bob's upload was stored: bob \(bobs), alice \(alices)")
            #expect(bobs == 20)
            #expect(alices <= 2 * bobs, "alice's batches between bob's first and last: \(alices), bob's \(bobs)")
        }
    }
}

/// A store that passes batches on to `base` and notes whose each was, in the order they were committed.
final class OrderRecordingStore: EventStore {
    let base: SQLiteStore
    private let committed = NIOLockedValueBox<[String]>([])

    init(base: SQLiteStore) { self.base = base }

    var order: [String] { committed.withLockedValue { $0 } }

    func store(_ batch: StoreBatch) async throws -> StoreOutcome {
        let outcome = try await base.store(batch)
        committed.withLockedValue { $0.append(batch.client) }
        return outcome
    }

    func ping() async throws { try await base.ping() }

    func run() async throws { try await base.run() }
}
