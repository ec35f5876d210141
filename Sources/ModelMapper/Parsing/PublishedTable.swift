// Unsafe code: an open-addressed hash table whose slots are read by any thread without a lock while one
// writer at a time (under `lock`) adds to it. Invariants:
// - `current` points to a `Storage` retained by `storages` (every storage ever made is kept: a reader may
//   still be searching one the writer has replaced); storages are freed only with the table;
// - a storage's `keys` and `values` hold `capacity` (a power of two) initialized atomics; a slot's value
//   is stored (releasing) before its key, so a reader that sees a key (acquiring) sees its value;
// - a key, once in a slot, never changes; a value may be replaced, and the old object stays alive in
//   `owned` (a reader may hold its unretained pointer), so every pointer in a slot is one of `owned`;
// - the load factor stays at most 3/4, so every search reaches an empty slot.
import Synchronization

/// A map from nonzero word keys (type identities, possibly with a few low tag bits) to objects, read
/// without a lock and added to under a ``CacheLock``: a process-wide cache's hot path (every decode after
/// a type's first use) takes no lock and writes no shared memory. It only grows, as the caches it serves.
final class PublishedTable<Value: AnyObject>: @unchecked Sendable {
    private final class Storage {
        let capacity: Int
        let keys: UnsafeMutablePointer<Atomic<UInt>>
        let values: UnsafeMutablePointer<Atomic<UnsafeRawPointer?>>
        /// Keys in use (read and written under the table's lock).
        var count = 0

        init(capacity: Int) {
            assert(capacity > 0 && capacity & (capacity - 1) == 0, "capacity is a power of two")
            self.capacity = capacity
            keys = .allocate(capacity: capacity)
            values = .allocate(capacity: capacity)
            for i in 0..<capacity {
                (keys + i).initialize(to: Atomic(0))
                (values + i).initialize(to: Atomic(nil))
            }
        }

        deinit {
            keys.deinitialize(count: capacity)
            keys.deallocate()
            values.deinitialize(count: capacity)
            values.deallocate()
        }

        @inline(__always)
        func firstSlot(_ key: UInt) -> Int {
            Int(truncatingIfNeeded: ((key >> 3) &* 0x9E37_79B9_7F4A_7C15) >> 32) & (capacity - 1)
        }

        @inline(__always)
        func find(_ key: UInt) -> UnsafeRawPointer? {
            var slot = firstSlot(key)
            while true {
                let present = keys[slot].load(ordering: .acquiring)
                if present == key { return values[slot].load(ordering: .acquiring) }
                if present == 0 { return nil }
                slot = (slot + 1) & (capacity - 1)
            }
        }

        /// Under the lock: the value of `key` becomes `value` (its slot made if needed; room checked).
        func store(_ key: UInt, _ value: UnsafeRawPointer) {
            var slot = firstSlot(key)
            while true {
                let present = keys[slot].load(ordering: .relaxed)
                if present == key {
                    values[slot].store(value, ordering: .releasing)
                    return
                }
                if present == 0 {
                    assert((count + 1) * 4 <= capacity * 3, "room made before storing")
                    values[slot].store(value, ordering: .releasing)
                    keys[slot].store(key, ordering: .releasing)
                    count += 1
                    return
                }
                slot = (slot + 1) & (capacity - 1)
            }
        }
    }

    private let lock = CacheLock()
    private let current: Atomic<UnsafeRawPointer>
    /// Under `lock`: every storage made (the last is `current`) and every value stored.
    private var storages: [Storage]
    private var owned: [Value] = []

    init(capacity: Int = 64) {
        let storage = Storage(capacity: capacity)
        storages = [storage]
        current = Atomic(UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque()))
    }

    /// The value of `key`, if any; takes no lock.
    @inline(__always)
    func value(for key: UInt) -> Value? {
        assert(key != 0, "0 marks an empty slot")
        let storage = Unmanaged<Storage>.fromOpaque(current.load(ordering: .acquiring))
        guard let found = storage._withUnsafeGuaranteedRef({ $0.find(key) }) else { return nil }
        return Unmanaged<Value>.fromOpaque(found).takeUnretainedValue()
    }

    /// Under the lock: `update` is given the current value of `key` (nil if none) and returns the value to
    /// keep (nil: keep the current one); returns the value kept.
    @discardableResult
    func update(_ key: UInt, _ update: (Value?) -> Value?) -> Value? {
        assert(key != 0, "0 marks an empty slot")
        return lock.withLock {
            var storage = storages[storages.count - 1]
            let present = storage.find(key).map { Unmanaged<Value>.fromOpaque($0).takeUnretainedValue() }
            guard let replacement = update(present) else { return present }
            if present == nil && (storage.count + 1) * 4 > storage.capacity * 3 {
                storage = grown(storage)
            }
            owned.append(replacement)
            storage.store(key, UnsafeRawPointer(Unmanaged.passUnretained(replacement).toOpaque()))
            return replacement
        }
    }

    /// Calls `body` with every value stored (under the lock).
    func forEachValue(_ body: (Value) -> Void) {
        lock.withLock { for value in owned { body(value) } }
    }

    /// Stores `value` for `key` unless the key has one; returns the value kept.
    func insertIfAbsent(_ key: UInt, _ value: Value) -> Value {
        update(key) { $0 == nil ? value : nil }!
    }

    /// Under the lock: a storage of twice the capacity with every entry of `old`, published.
    private func grown(_ old: Storage) -> Storage {
        let storage = Storage(capacity: old.capacity * 2)
        for slot in 0..<old.capacity {
            let key = old.keys[slot].load(ordering: .relaxed)
            if key != 0, let value = old.values[slot].load(ordering: .relaxed) { storage.store(key, value) }
        }
        storages.append(storage)
        current.store(UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque()), ordering: .releasing)
        return storage
    }
}
