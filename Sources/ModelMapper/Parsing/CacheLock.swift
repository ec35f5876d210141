import Foundation
import Synchronization

/// The lock of a process-wide cache, taken only to add to it (never to read it: see ``PublishedTable``).
///
/// Every acquisition is counted (``acquisitions``), so a test can show that a decode or encode after a
/// type's first use takes none: a lock on a server's request path serialises its threads.
final class CacheLock: Sendable {
    private let lock = NSLock()

    /// How many times any cache lock has been taken in this process.
    static var acquisitions: Int { counter.load(ordering: .relaxed) }
    private static let counter = Atomic<Int>(0)

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        Self.counter.add(1, ordering: .relaxed)
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
