import AsyncHTTPClient
import Foundation
import IngestServiceApp
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// Issue #44.6: the store's single writer is shared fairly. Each turn goes to the client served least
/// recently (one client's four uploads get one turn a round, like another client's one), and the readiness probe goes before every
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

    /// Client A sends four uploads at once, B one, to a store whose writer takes its turns as the stores
    /// do (``FairWriter``) and holds each for 30 ms (so that B's next batch, decoded meanwhile, is always
    /// waiting when a turn ends, however loaded the machine): between B's first and last batch A gets at
    /// most about one turn for each of B's. First come first served gives A four (each of A's uploads has
    /// a batch waiting). The bound is generous (2 per B batch, plus 2).
    @Test func oneClientsUploadsCannotHoldTheWriter() async throws {
        let store = TurnTakingStore(hold: .milliseconds(30))
        try await OverloadTests.withClients(events: { sqlite in
            store.base = sqlite
            return store
        }, { $0.storeBatchSize = 20 }) { server, alice, bob in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for upload in 0..<4 {
                    let (body, _) = TweetLines(firstID: Int64(1_000_000 * (upload + 1)), corruptEvery: 0).body(lines: 600)
                    group.addTask { try await server.postEvents(.bytes(body), key: alice).accepted }
                }
                for _ in 0..<400 where store.order.count < 4 { try await Task.sleep(for: .milliseconds(10)) }
                let (body, _) = TweetLines(firstID: 9_000_000, corruptEvery: 0).body(lines: 200)
                group.addTask { try await server.postEvents(.bytes(body), key: bob).accepted }
                var accepted = 0
                for try await count in group { accepted += count }
                #expect(accepted == 4 * 600 + 200)
            }
        }
        let order = store.order
        guard let first = order.firstIndex(of: "bob"), let last = order.lastIndex(of: "bob") else {
            throw TestFailure("no batch of bob's")
        }
        let bobs = order[first...last].filter { $0 == "bob" }.count
        let alices = order[first...last].filter { $0 == "alice" }.count
        print("batches while bob's upload was stored: bob \(bobs), alice \(alices)")
        #expect(bobs == 10)
        #expect(alices <= 2 * bobs + 2, "alice's batches between bob's first and last: \(alices), bob's \(bobs)")
    }
}

/// A store whose batches take turns at a ``FairWriter`` as the real stores' do, each holding its turn for
/// `hold`, then stored in `base` (the clients' SQLite store); notes whose each batch was, in turn order.
final class TurnTakingStore: EventStore, @unchecked Sendable {
    private let writer = FairWriter()
    private let hold: Duration
    private let committed = NIOLockedValueBox<[String]>([])
    /// Set before the server starts.
    var base: (any EventStore)?

    init(hold: Duration) { self.hold = hold }

    var order: [String] { committed.withLockedValue { $0 } }

    func store(_ batch: StoreBatch) async throws -> StoreOutcome {
        try await writer.withTurn(.client(batch.client)) {
            committed.withLockedValue { $0.append(batch.client) }
            try await Task.sleep(for: hold)
            return try await base!.store(batch)
        }
    }

    func run() async throws { try await base?.run() }
}

