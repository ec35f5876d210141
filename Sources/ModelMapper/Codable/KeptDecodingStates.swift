import Foundation
import Synchronization

/// Decoding states detached while a pooled keyed container of theirs is held outside the pool (a
/// `Decodable` kept the container its `init(from:)` got). Such a container refers to its state unretained and
/// is owned by the state's pool, and its box refers to it unretained (TapeKeyedContainerHandle.swift): this
/// list keeps the state, its pools and its tape copy alive until every kept box is let go.
///
/// Swept when a thread makes a new decoding state (its first decoding at a nesting depth, or the first after
/// a detach), so a state is freed at most one detach or new state after its last kept container went. The
/// sweep takes the lock only while some state is registered: a decoding that keeps nothing never takes it.
final class KeptDecodingStates: @unchecked Sendable {
    static let shared = KeptDecodingStates()
    private let lock = NSLock()
    private var states: [TapeDecodingState] = []
    /// `states.count`, written under the lock: a sweep with nothing registered returns without the lock
    /// (one that misses a state registered meanwhile leaves it to the next sweep).
    private let count = Atomic<Int>(0)

    func register(_ state: TapeDecodingState) {
        lock.lock()
        states.append(state)
        count.store(states.count, ordering: .releasing)
        lock.unlock()
        sweep()
    }

    /// Lets go of the states whose kept containers are all let go. (A kept container is used only on its
    /// own thread; the check reads reference counts, which are atomic.)
    func sweep() {
        guard count.load(ordering: .acquiring) > 0 else { return }
        lock.lock()
        guard !states.isEmpty else {
            lock.unlock()
            return
        }
        var released: [TapeDecodingState] = []
        states.removeAll { state in
            guard !state.holdsKeptContainers else { return false }
            released.append(state)
            return true
        }
        count.store(states.count, ordering: .releasing)
        lock.unlock()
        // Freed outside the lock (a state's deinit releases user values, whose deinit may decode).
        released.removeAll()
    }
}
