// Unsafe code: a per-thread slot holding one retained object as an opaque pointer, reachable from other
// threads so that idle spares can be released.
//
// Invariants:
// - A thread's pthread value for a `ThreadSpare`'s key is nil or a +1 reference to its `SpareSlot`, made on
//   the thread's first `give` and registered in the spare's registry; the thread-exit destructor removes it
//   from the registry (under the registry's lock, so `releaseIdle` never sees a slot being freed) and
//   releases it.
// - A slot holds nil or a +1 reference made by `Unmanaged.passRetained` of an `Object`. Every change of it is
//   one atomic exchange: `take` (the owning thread) swaps nil in before handing the object out, `give` (the
//   owning thread) swaps the object in only if the slot is empty, `releaseIdle` (any thread) swaps nil in
//   and drops what it got. So an object is used by one thread at a time: the owner between `take` and
//   `give`, or the releaser after taking it out of the slot (then the owner finds nil and makes a new one).
// - A nested use on the same thread (a hook or `init(from:)` that decodes again) finds nil and makes its
//   own; `give` retires an object it does not keep. A `NestedThreadSpare` is one `ThreadSpare` per nesting
//   level, each with the invariants above: a nested use takes the next level's object, and every object
//   goes back into one empty slot of the calling thread (`keep` stores it only into an empty slot, else
//   hands it back untouched) or is retired, never into two.
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An object worth keeping per thread between uses (its buffers, pools and caches).
protocol ThreadSpareObject: AnyObject {
    /// Drops what the object holds that refers back to it, before its last release.
    func retire()
}

/// One thread's slot of one ``ThreadSpare``.
/// (`@unchecked`: the pointer it holds is an owned reference handed over only by the atomic exchanges above.)
final class SpareSlot: @unchecked Sendable {
    let object = Atomic<UnsafeMutableRawPointer?>(nil)
    unowned let registry: SpareRegistry

    init(registry: SpareRegistry) {
        self.registry = registry
    }

    /// Retires and releases an object taken out of a slot (without its static type, as at thread exit).
    static func drop(_ pointer: UnsafeMutableRawPointer) {
        let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
        (object as? any ThreadSpareObject)?.retire()
    }
}

/// The slots of one ``ThreadSpare``, one per thread that ever gave an object back and has not exited.
final class SpareRegistry: Sendable {
    private let slots = LockedValue<[ObjectIdentifier: SpareSlot]>([:])

    func add(_ slot: SpareSlot) {
        slots.withLock { $0[ObjectIdentifier(slot)] = slot }
    }

    func remove(_ slot: SpareSlot) {
        _ = slots.withLock { $0.removeValue(forKey: ObjectIdentifier(slot)) }
    }

    /// Empties every slot; returns how many objects were dropped.
    func releaseIdle() -> Int {
        let taken: [UnsafeMutableRawPointer] = slots.withLock { slots in
            slots.values.compactMap { $0.object.exchange(nil, ordering: .acquiringAndReleasing) }
        }
        // Outside the lock: a retiring object's deinit may free a lot (and must not wait for a thread exit).
        for pointer in taken { SpareSlot.drop(pointer) }
        return taken.count
    }

    /// How many slots hold an object right now (for tests and diagnostics).
    func keptCount() -> Int {
        slots.withLock { slots in slots.values.count { $0.object.load(ordering: .acquiring) != nil } }
    }
}

/// Every ``ThreadSpare`` of the process, so that ``ThreadSpares/releaseIdle()`` reaches them all.
enum ThreadSpares {
    private static let all = LockedValue<[SpareRegistry]>([])

    static func register(_ registry: SpareRegistry) {
        all.withLock { $0.append(registry) }
    }

    /// Drops the spare objects of every thread that is not using them right now; returns how many.
    @discardableResult
    static func releaseIdle() -> Int {
        all.withLock { $0 }.reduce(0) { $0 + $1.releaseIdle() }
    }
}

/// One spare object per thread: `take` it at the start of a use, `give` it back at the end.
final class ThreadSpare<Object: ThreadSpareObject>: Sendable {
    private let key: pthread_key_t
    let registry = SpareRegistry()

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            // Runs at thread exit, without `Object`'s type at hand: the slot drops its object by a cast.
            let slot = Unmanaged<SpareSlot>.fromOpaque(pointer).takeRetainedValue()
            slot.registry.remove(slot)
            if let object = slot.object.exchange(nil, ordering: .acquiringAndReleasing) { SpareSlot.drop(object) }
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        self.key = key
        ThreadSpares.register(registry)
    }

    /// The thread's spare, taken out of its slot; nil when there is none (first use on the thread, the
    /// spare is in use further up the stack, or it was released).
    @inline(__always)
    func take() -> Object? {
        guard let slot = pthread_getspecific(key) else { return nil }
        let taken = Unmanaged<SpareSlot>.fromOpaque(slot)._withUnsafeGuaranteedRef {
            $0.object.exchange(nil, ordering: .acquiringAndReleasing)
        }
        guard let taken else { return nil }
        return Unmanaged<Object>.fromOpaque(taken).takeRetainedValue()
    }

    /// Keeps `object` as the thread's spare, or retires it when the thread has one already.
    @inline(__always)
    func give(_ object: Object) {
        if !keep(object) { object.retire() }
    }

    /// Keeps `object` as the thread's spare if the thread has none; false (and `object` left as it was)
    /// when it has one already.
    @inline(__always)
    func keep(_ object: Object) -> Bool {
        let slot = pthread_getspecific(key) ?? makeSlot()
        let pointer = Unmanaged.passRetained(object).toOpaque()
        let kept = Unmanaged<SpareSlot>.fromOpaque(slot)._withUnsafeGuaranteedRef {
            $0.object.compareExchange(expected: nil, desired: pointer, ordering: .acquiringAndReleasing).exchanged
        }
        if !kept { Unmanaged<Object>.fromOpaque(pointer).release() }
        return kept
    }

    /// The calling thread's slot, made and registered on its first `give`.
    private func makeSlot() -> UnsafeMutableRawPointer {
        let slot = SpareSlot(registry: registry)
        registry.add(slot)
        let pointer = Unmanaged.passRetained(slot).toOpaque()
        pthread_setspecific(key, pointer)
        return pointer
    }

    /// The object the calling thread keeps (for tests), left in place.
    var currentThreadSpare: Object? {
        guard let slot = pthread_getspecific(key) else { return nil }
        let pointer = Unmanaged<SpareSlot>.fromOpaque(slot)._withUnsafeGuaranteedRef {
            $0.object.load(ordering: .acquiring)
        }
        return pointer.map { Unmanaged<Object>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// Spare objects per thread for uses that nest on one thread (a decoding inside another one: a `Codable`
/// value holding a mapped model that has a `Decodable` field, or an `init(from:)` that decodes again):
/// one ``ThreadSpare`` per nesting level. `take` takes from the shallowest level holding an object; `give`
/// gives it back to the level it came from (a new object: to the first empty level), so after first use
/// each depth of nesting reuses its own object and a nested use makes nothing and takes no lock. Deeper
/// nesting than `levels` makes its own object and retires it, as a single spare does.
final class NestedThreadSpare<Object: ThreadSpareObject>: Sendable {
    private let levels: [ThreadSpare<Object>]
    /// `levels[0]`, the level a decoding that nests in nothing uses: reached without the array.
    private let first: ThreadSpare<Object>

    init(levels: Int) {
        precondition(levels >= 1, "a nested spare needs a level")
        self.levels = (0..<levels).map { _ in ThreadSpare<Object>() }
        first = self.levels[0]
    }

    /// The thread's spare at the shallowest level holding one, with that level; nil when every level is
    /// empty (in use further up the stack, never given, or released).
    @inline(__always)
    func take() -> (object: Object, level: Int)? {
        if let object = first.take() { return (object, 0) }
        return takeNested()
    }

    @inline(never)
    private func takeNested() -> (object: Object, level: Int)? {
        for level in levels.indices.dropFirst() {
            if let object = levels[level].take() { return (object, level) }
        }
        return nil
    }

    /// Keeps `object` at `level` (where `take` found it) if that level is empty, else at the first empty
    /// level; retires it when every level holds one. `level` is -1 for an object `take` did not hand out.
    @inline(__always)
    func give(_ object: Object, level: Int) {
        assert(level >= -1 && level < levels.count, "a spare level out of range")
        if level == 0 && first.keep(object) { return }
        giveElsewhere(object, level: level)
    }

    @inline(never)
    private func giveElsewhere(_ object: Object, level: Int) {
        if level > 0, levels[level].keep(object) { return }
        for other in levels.indices where other != level {
            if levels[other].keep(object) { return }
        }
        object.retire()
    }

    /// How many levels there are (for tests).
    var levelCount: Int { levels.count }

    /// How many threads keep an object at each level right now (for tests and diagnostics).
    func keptCounts() -> [Int] { levels.map { $0.registry.keptCount() } }

    /// The objects the calling thread keeps (for tests), left in place.
    var currentThreadSpares: [Object] { levels.compactMap(\.currentThreadSpare) }
}

/// A value behind an `NSLock`. Not `Synchronization.Mutex`: on Linux it waits on futexes the thread
/// sanitizer does not see, so every access under it was reported as a race.
/// (`@unchecked`: `value` is read and written only inside `withLock`.)
final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
