import NIOConcurrencyHelpers

/// `--memory-budget`: one process-wide budget of bytes over everything a request may hold in memory
/// (uploads, `POST /event` documents, `GET /rejected` listings). A request reserves its worst case before
/// it reads its body or queries the store, and gives it back when it ends; a request that does not fit is
/// refused with 503 `overloaded` and `Retry-After` rather than allocating. The reservations are fixed
/// sizes that the code holds to (``IngestConfiguration/uploadReservation`` and its siblings), so the
/// budget bounds the process's memory whatever the bodies.
public final class MemoryBudget: Sendable {
    /// The budget, in bytes.
    public let limit: Int
    private let reserved = NIOLockedValueBox(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// Bytes reserved now.
    public var inUse: Int { reserved.withLockedValue { $0 } }

    /// Reserves `bytes`, or returns nil when they do not fit in what is left.
    func reserve(_ bytes: Int) -> Reservation? {
        let taken = reserved.withLockedValue { reserved in
            guard reserved + bytes <= limit else { return false }
            reserved += bytes
            return true
        }
        return taken ? Reservation(budget: self, bytes: bytes) : nil
    }

    fileprivate func release(_ bytes: Int) {
        reserved.withLockedValue { $0 -= bytes }
    }

    /// Bytes held for one request, given back by ``release()`` (once; later calls do nothing).
    final class Reservation: Sendable {
        private let budget: MemoryBudget
        private let bytes: NIOLockedValueBox<Int>

        fileprivate init(budget: MemoryBudget, bytes: Int) {
            self.budget = budget
            self.bytes = NIOLockedValueBox(bytes)
        }

        func release() {
            let bytes = self.bytes.withLockedValue { value in
                defer { value = 0 }
                return value
            }
            if bytes > 0 { budget.release(bytes) }
        }

        deinit { release() }
    }
}
