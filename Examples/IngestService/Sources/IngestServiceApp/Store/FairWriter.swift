import NIOConcurrencyHelpers

/// Turns at a store's writer for async code, `permits` holders at a time across suspension points (an
/// actor would let a second transaction interleave at each `await`), handed out fairly (issue #44.6):
///
/// - a *priority* turn (the readiness probe, the API keys' refresh: short and not a client's) goes before
///   every client's: `GET /ready` waits for at most the batches being written, never for the queue;
/// - clients' turns go to the client served least recently, first come first served within a client: a
///   client with four uploads queued gets one turn in each round, like a client with one, so it cannot
///   hold the writer (each turn is one batch, bounded by `--batch-size` and `--batch-bytes`). A client whose
///   queue empties between its batches (one upload, its next batch decoded while the last commits) comes
///   back as the one that waited longest, so it alternates with a client that always has one queued.
///
/// A waiter whose task is cancelled leaves the queue at once (throws `CancellationError`), so a batch given
/// up on (its deadline passed) is never written later.
public final class FairWriter: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var holders = 0
        var nextID: UInt64 = 0
        var priority: [Waiter] = []
        /// Each client's waiters, first come first.
        var queues: [String: [Waiter]] = [:]
        /// When each client with waiters last had a turn (a count of turns); a client that comes back with
        /// an empty queue starts at 0: it has waited longest.
        var served: [String: UInt64] = [:]
        var turns: UInt64 = 0
        /// Turns asked for whose waiter is not queued yet, and those of them cancelled meanwhile.
        var pending: Set<UInt64> = []
        var cancelled: Set<UInt64> = []

        var waiting: Int { priority.count + queues.values.reduce(0) { $0 + $1.count } }

        /// The next waiter to resume, taken out of its queue: a priority one, else the first of the client
        /// served least recently (so a client whose next batch comes just after its turn is not passed by
        /// one that always has a batch queued: they alternate).
        mutating func next() -> Waiter? {
            if !priority.isEmpty { return priority.removeFirst() }
            guard let client = queues.keys.min(by: { (served[$0] ?? 0, $0) < (served[$1] ?? 0, $1) }) else { return nil }
            var queue = queues[client]!
            let waiter = queue.removeFirst()
            turns += 1
            if queue.isEmpty {
                queues[client] = nil
                served[client] = nil
            } else {
                queues[client] = queue
                served[client] = turns
            }
            return waiter
        }

        /// Takes the waiter `id` out of its queue; returns it if it was still waiting.
        mutating func remove(_ id: UInt64) -> Waiter? {
            if let index = priority.firstIndex(where: { $0.id == id }) { return priority.remove(at: index) }
            for (client, queue) in queues {
                guard let index = queue.firstIndex(where: { $0.id == id }) else { continue }
                var queue = queue
                let waiter = queue.remove(at: index)
                if queue.isEmpty {
                    queues[client] = nil
                    served[client] = nil
                } else {
                    queues[client] = queue
                }
                return waiter
            }
            return nil
        }
    }

    private let state = NIOLockedValueBox(State())
    private let permits: Int

    /// - Parameter permits: how many may hold a turn at once (SQLite's writer: 1).
    public init(permits: Int = 1) {
        precondition(permits > 0)
        self.permits = permits
    }

    /// Whose turn it is for: a client's (round-robin among clients) or a priority turn.
    public enum Turn: Sendable {
        case client(String)
        case priority
    }

    /// Runs `body` in `turn`'s turn, once a permit is free.
    public func withTurn<T: Sendable>(_ turn: Turn, _ body: () async throws -> T) async throws -> T {
        try await acquire(turn)
        defer { release() }
        return try await body()
    }

    /// How many are waiting for a turn (for the tests).
    public var waiting: Int { state.withLockedValue { $0.waiting } }
    /// How many hold a turn now (for the tests).
    public var holding: Int { state.withLockedValue { $0.holders } }

    private func acquire(_ turn: Turn) async throws {
        let id = state.withLockedValue { state -> UInt64 in
            state.nextID += 1
            state.pending.insert(state.nextID)
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Decision { case run, wait, cancelled }
                let decision = state.withLockedValue { state -> Decision in
                    state.pending.remove(id)
                    if state.cancelled.remove(id) != nil { return .cancelled }
                    if state.holders < permits, state.waiting == 0 {
                        state.holders += 1
                        return .run
                    }
                    let waiter = Waiter(id: id, continuation: continuation)
                    switch turn {
                    case .priority: state.priority.append(waiter)
                    case .client(let client):
                        state.queues[client, default: []].append(waiter)
                    }
                    return .wait
                }
                switch decision {
                case .run: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> Waiter? in
                if let waiter = state.remove(id) { return waiter }
                // Not queued yet: its queueing finds this and gives up (a turn already running goes on).
                if state.pending.contains(id) { state.cancelled.insert(id) }
                return nil
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    private func release() {
        let next = state.withLockedValue { state -> Waiter? in
            if let waiter = state.next() { return waiter }  // the permit passes on
            state.holders -= 1
            return nil
        }
        next?.continuation.resume()
    }
}
