// Unsafe code: a hash table of member-key spellings in memory it allocates itself, read per member of
// every object decoded with `.convertFromSnakeCase`. Invariants:
// - `slots` holds `capacity` (a power of two) initialized `Slot`s (trivial values); `bytes` holds
//   `byteCapacity` bytes of which `byteCount` are in use. Allocated in `init`, grown only by `insert`
//   (contents copied), freed in `deinit`.
// - A slot in use (`count >= 0`) describes `bytes[start ..< start + count]`, inside `byteCount`, and
//   `names[name]` is that spelling after the conversion.
// - A table belongs to one key type's entry of one decoding state, which one thread uses at a time: no
//   lock, and no other thread reads it.

import Foundation

/// Per key type and decoding state (`TapeDecodingState.KeyTypeEntry`): each JSON key spelling met under
/// `.convertFromSnakeCase`, converted once, with the tag of the key type's key of that name. The
/// conversion depends on the spelling alone, so the answer holds for every object and every decoding that
/// reuses the state; the tags are worked out again (`resolve`) whenever the key type's table learns a
/// name. At most `maxSpellings` spellings of at most `maxBytes` bytes: a table that would grow past
/// either starts over, so objects with ever-new keys cost a conversion per key, not unbounded memory.
final class SnakeCaseSpellings {
    struct Slot {
        var hash: UInt32
        /// The key's tag (below 64), or -1: no key of the type has this name (so far), or more than one.
        var tag: Int16
        var start: Int32
        /// -1: empty.
        var count: Int32
        /// Index into `names`.
        var name: Int32
    }

    static let maxSpellings = 1024
    static let maxBytes = 64 * 1024

    private var slots: UnsafeMutablePointer<Slot>
    private var capacity: Int
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCount = 0
    private var byteCapacity: Int
    /// The converted names, by `Slot.name`.
    @exclusivity(unchecked) private(set) var names: [String] = []

    init() {
        capacity = 64
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Self.empty, count: capacity)
        byteCapacity = 1024
        bytes = .allocate(capacity: byteCapacity)
    }

    deinit {
        slots.deallocate()
        bytes.deallocate()
    }

    private static let empty = Slot(hash: 0, tag: -1, start: 0, count: -1, name: 0)

    /// A hash of the key's bytes: its length and its first and last eight (or fewer) bytes.
    @inline(__always)
    static func hash(_ key: UnsafeRawBufferPointer) -> UInt32 {
        let n = key.count
        var h = UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15
        if n >= 8 {
            h = (h ^ key.loadUnaligned(as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h = (h ^ key.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)) &* 0xC4CE_B9FE_1A85_EC53
        } else {
            var i = 0
            while i < n {
                h = (h ^ UInt64(key[i])) &* 0x0100_0000_01B3
                i &+= 1
            }
            h = h &* 0xFF51_AFD7_ED55_8CCD
        }
        return UInt32(truncatingIfNeeded: h ^ (h >> 32))
    }

    /// The slot of `key` (its hash `hash`), nil when the spelling was not met yet.
    @inline(__always)
    func slot(_ key: UnsafeRawBufferPointer, hash: UInt32) -> Slot? {
        let mask = capacity &- 1
        var i = Int(hash) & mask
        while true {
            let slot = slots[i]
            if slot.count < 0 { return nil }
            if slot.hash == hash && Int(slot.count) == key.count
                && (key.count == 0 || KeyTable.equal(bytes + Int(slot.start), key.baseAddress!, count: key.count)) {
                return slot
            }
            i = (i &+ 1) & mask
        }
    }

    /// Adds `key` (not in the table), converted to `name`, whose tag in `keyNames` is looked up here.
    @discardableResult
    func insert(_ key: UnsafeRawBufferPointer, hash: UInt32, name: String, keyNames: StreamKeyNames) -> Slot {
        if names.count >= Self.maxSpellings || byteCount + key.count > Self.maxBytes { clear() }
        if (names.count + 1) * 2 > capacity { rehash(capacity * 2) }
        if byteCount + key.count > byteCapacity {
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(byteCapacity * 2, byteCount + key.count))
            grown.update(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = grown
            byteCapacity = max(byteCapacity * 2, byteCount + key.count)
        }
        if let base = key.baseAddress { (bytes + byteCount).update(from: base.assumingMemoryBound(to: UInt8.self), count: key.count) }
        let slot = Slot(hash: hash, tag: Self.tag(of: name, in: keyNames), start: Int32(byteCount),
                        count: Int32(key.count), name: Int32(names.count))
        byteCount += key.count
        names.append(name)
        place(slot)
        return slot
    }

    /// Works every spelling's tag out again (the key type's table learned a name).
    func resolve(_ keyNames: StreamKeyNames) {
        for i in 0..<capacity where slots[i].count >= 0 {
            slots[i].tag = Self.tag(of: names[Int(slots[i].name)], in: keyNames)
        }
    }

    /// The tag (below 64) of the one key named `name` in `keyNames`, else -1.
    private static func tag(of name: String, in keyNames: StreamKeyNames) -> Int16 {
        var found = -1
        for (tag, known) in keyNames.names.enumerated() where known == name && keyNames.slot(tag) != nil {
            if found >= 0 { return -1 }
            found = tag
        }
        return found < 64 ? Int16(found) : -1
    }

    private func place(_ slot: Slot) {
        let mask = capacity &- 1
        var i = Int(slot.hash) & mask
        while slots[i].count >= 0 { i = (i &+ 1) & mask }
        slots[i] = slot
    }

    private func rehash(_ newCapacity: Int) {
        let old = slots, oldCapacity = capacity
        slots = .allocate(capacity: newCapacity)
        slots.initialize(repeating: Self.empty, count: newCapacity)
        capacity = newCapacity
        for i in 0..<oldCapacity where old[i].count >= 0 { place(old[i]) }
        old.deallocate()
    }

    private func clear() {
        slots.update(repeating: Self.empty, count: capacity)
        byteCount = 0
        names.removeAll(keepingCapacity: true)
    }
}
