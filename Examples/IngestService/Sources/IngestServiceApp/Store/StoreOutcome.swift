import NIOCore

/// What became of a batch's events: newly stored, stored before with the same bytes (a duplicate: a
/// retry, another replica), or stored before under the same (client, id) with other bytes (a conflict:
/// not stored, the stored row unchanged).
public struct StoreOutcome: Sendable, Equatable {
    public var inserted = 0
    public var duplicates = 0
    /// Positions in the batch's `events` of the conflicting records, in batch order.
    public var conflicts: [Int] = []

    public init(inserted: Int = 0, duplicates: Int = 0, conflicts: [Int] = []) {
        self.inserted = inserted
        self.duplicates = duplicates
        self.conflicts = conflicts
    }

    /// The ids a store must read back (their stored `raw`) to tell duplicates from conflicts, given the
    /// ids its `INSERT … ON CONFLICT DO NOTHING RETURNING id` returned: those not inserted, and those
    /// sent more than once in the batch (one of them was inserted, which one the database chose).
    static func idsToCompare(_ events: [StoredEvent], inserted: [Int64]) -> Set<Int64> {
        let insertedIDs = Set(inserted)
        var seen = Set<Int64>()
        var compare = Set<Int64>()
        for event in events {
            let id = event.status.id
            if !insertedIDs.contains(id) || !seen.insert(id).inserted { compare.insert(id) }
        }
        return compare
    }

    /// The outcome from the inserted ids and the stored `raw` of the ids in ``idsToCompare(_:inserted:)``:
    /// an event whose stored bytes equal its own is the inserted one (once per inserted id) or a
    /// duplicate, one with other bytes a conflict.
    static func resolve(_ events: [StoredEvent], inserted: [Int64], stored: [Int64: ByteBuffer]) -> StoreOutcome {
        var uncredited = Set(inserted)
        var outcome = StoreOutcome()
        for (position, event) in events.enumerated() {
            let id = event.status.id
            guard let bytes = stored[id] else {
                // Not read back: inserted, alone of its id in the batch.
                outcome.inserted += 1
                uncredited.remove(id)
                continue
            }
            if bytes != event.raw {
                outcome.conflicts.append(position)
            } else if uncredited.remove(id) != nil {
                outcome.inserted += 1
            } else {
                outcome.duplicates += 1
            }
        }
        return outcome
    }
}
