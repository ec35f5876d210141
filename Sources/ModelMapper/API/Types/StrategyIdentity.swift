import Synchronization

// A `.custom` strategy's identity is its box (`KeyStrategy.Transform`, `DateStrategy.Transform`), made when
// the strategy value is made: equality is the box's identity (synthesized `Hashable` of the enums), and
// what the library builds for a strategy is held by its box, so it goes with the strategy's last copy.

extension DateStrategy {
    var isDefault: Bool {
        if case .default = self { return true }
        return false
    }
}

/// What the library keeps for one custom strategy: one object per slot (the metadata built for the
/// strategy under each combination of the options that select metadata), made on first use and held
/// until the strategy's box goes. Bounded: at most ``count`` objects per strategy. Read without a lock.
///
/// `@unchecked Sendable`: the slots are atomic; the objects stored are `Sendable` (`MetaCache`), which this
/// layer cannot name.
final class StrategyCaches: @unchecked Sendable {
    /// The number of slots.
    static let count = 8

    private let s0 = AtomicLazyReference<AnyObject>()
    private let s1 = AtomicLazyReference<AnyObject>()
    private let s2 = AtomicLazyReference<AnyObject>()
    private let s3 = AtomicLazyReference<AnyObject>()
    private let s4 = AtomicLazyReference<AnyObject>()
    private let s5 = AtomicLazyReference<AnyObject>()
    private let s6 = AtomicLazyReference<AnyObject>()
    private let s7 = AtomicLazyReference<AnyObject>()

    private func withSlot<R>(_ slot: Int, _ body: (borrowing AtomicLazyReference<AnyObject>) -> R) -> R {
        switch slot {
        case 0: return body(s0)
        case 1: return body(s1)
        case 2: return body(s2)
        case 3: return body(s3)
        case 4: return body(s4)
        case 5: return body(s5)
        case 6: return body(s6)
        case 7: return body(s7)
        default: preconditionFailure("a strategy cache slot out of range")
        }
    }

    /// The object in `slot`, made by `make` if there is none yet (two threads may both make one; the
    /// first stored is kept and returned to both).
    func object(_ slot: Int, _ make: () throws(MappingError) -> AnyObject) throws(MappingError) -> AnyObject {
        if let kept = withSlot(slot, { $0.load() }) { return kept }
        let made = try make()
        return withSlot(slot) { $0.storeIfNil(made) }
    }
}
