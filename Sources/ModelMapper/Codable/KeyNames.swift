// Unsafe code: per-key-type name tables read on every member the Codable coders write or look up.
//
// The tables keep their slots and bytes in memory they allocate themselves, so that the hot paths read
// them through plain pointers: no array retains, releases or uniqueness checks per key.
//
// Invariants:
// - `slots` holds `slotCapacity` initialized `Slot`s (trivial values) of which `slotCount` are in use;
//   `bytes` holds `byteCapacity` bytes of which `byteCount` are in use. Both are allocated in `init`,
//   reallocated only by `fill`/`load` (growing, contents copied) and freed in `deinit`.
// - A slot in use with `start >= 0` describes `bytes[start ..< start + count]`, inside `byteCount`.
// - Pointers from `slot(_:)`/`bytes(of:)` are used before the next `fill`/`load` of the same table (the
//   callers read a slot, then its bytes, then return).
// - A table is changed only by the one coding (one thread) that made it, and only until it is published
//   to the shared cache (`freeze`); frozen tables are only read, by any thread (`fill` and `load`
//   check `frozen`).

import Foundation

/// Key names per key type and key options, kept for the next codings (filled on first use of each key,
/// published when a coding ends). The tables here are frozen: never changed again, so codings on any
/// thread read them directly; a coding that meets a new key fills a copy and publishes that.
final class StreamKeyNameCache: @unchecked Sendable {
    static let shared = StreamKeyNameCache()

    struct Entry: Hashable {
        let type: ObjectIdentifier
        /// Escaped slashes (bit 0), snake-cased keys (bit 1), the decoder's raw names (bit 2).
        let variant: UInt8
    }

    /// By `key(entry)`, read without a lock.
    private let table = PublishedTable<StreamKeyNames>()

    /// The type's identity with the variant in its low bits (metadata is aligned to 8 bytes).
    private func key(_ entry: Entry) -> UInt {
        let type = UInt(bitPattern: entry.type)
        assert(type & 7 == 0 && entry.variant < 8, "the variant fits under the type's alignment")
        return type | UInt(entry.variant)
    }

    /// The frozen table of `entry`, if any.
    func names(_ entry: Entry) -> StreamKeyNames? {
        table.value(for: key(entry))
    }

    /// Freezes `names` and keeps it, unless a table with more keys is there already.
    func publish(_ names: StreamKeyNames, for entry: Entry) {
        names.freeze()
        table.update(key(entry)) { current in
            if let current, current.byteCount >= names.byteCount { return nil }
            return names
        }
    }
}

/// Per `CodingKey` type and coding: the name of each key, found by the key's tag when the key type is a
/// plain enum (one byte, no payload: the synthesized `CodingKeys`). The encoder's tables hold
/// `,"name":` (quoted, escaped, converted by the key strategy); the decoder's (`raw`) the name's UTF-8.
final class StreamKeyNames {
    struct Slot {
        var start: Int32
        var count: Int32
        /// The key's bit for duplicate checks (keys with the same name share it); 0: checked by name.
        var bit: UInt64
    }

    /// Keys are identified by their single byte.
    let tagged: Bool
    /// The key type has a single value (tag 0).
    let empty: Bool
    /// The decoder's table: the names' UTF-8 as is (compared with the tape's key bytes).
    let raw: Bool
    private var slots: UnsafeMutablePointer<Slot>
    private var slotCount = 0
    private var slotCapacity: Int
    private var bytes: UnsafeMutablePointer<UInt8>
    private(set) var byteCount = 0
    private var byteCapacity: Int
    /// Published to the cache: read by any coding, never changed again.
    private(set) var frozen = false
    /// The names by tag ("" where unknown), for duplicate checks by name.
    @exclusivity(unchecked) private(set) var names: [String] = []
    /// Names were added during this coding (to be published to `StreamKeyNameCache`).
    var added = false

    init<Key: CodingKey>(_: Key.Type, raw: Bool = false) {
        tagged = _isPOD(Key.self) && MemoryLayout<Key>.size <= 1
        empty = MemoryLayout<Key>.size == 0
        self.raw = raw
        slotCapacity = 8
        slots = .allocate(capacity: slotCapacity)
        slots.initialize(repeating: Slot(start: -1, count: 0, bit: 0), count: slotCapacity)
        byteCapacity = 128
        bytes = .allocate(capacity: byteCapacity)
    }

    /// A table with the names of `other`, not frozen (to be filled, or published as a snapshot).
    init(copyOf other: StreamKeyNames) {
        tagged = other.tagged
        empty = other.empty
        raw = other.raw
        slotCapacity = max(8, other.slotCount)
        slots = .allocate(capacity: slotCapacity)
        slots.initialize(repeating: Slot(start: -1, count: 0, bit: 0), count: slotCapacity)
        byteCapacity = max(128, other.byteCount)
        bytes = .allocate(capacity: byteCapacity)
        load(other)
    }

    deinit {
        slots.deallocate()
        bytes.deallocate()
    }

    /// The key's byte (only for `tagged` key types).
    @inline(__always)
    func tag<Key: CodingKey>(_ key: Key) -> Int {
        assert(tagged && MemoryLayout<Key>.size == (empty ? 0 : 1), "a key read by its byte is not a plain enum of this table")
        return empty ? 0 : Int(unsafeBitCast(key, to: UInt8.self))
    }

    /// The slot of `tag`, nil when the key was not seen yet.
    @inline(__always)
    func slot(_ tag: Int) -> Slot? {
        guard tag < slotCount else { return nil }
        let slot = slots[tag]
        return slot.start >= 0 ? slot : nil
    }

    /// The bytes of `slot` (valid until the next `fill`).
    @inline(__always)
    func bytes(of slot: Slot) -> UnsafeBufferPointer<UInt8> {
        assert(slot.start >= 0 && Int(slot.start) + Int(slot.count) <= byteCount, "a slot outside the table")
        return UnsafeBufferPointer(start: bytes + Int(slot.start), count: Int(slot.count))
    }

    private func reserveSlots(_ count: Int) {
        guard count > slotCapacity else { return }
        let capacity = max(count, slotCapacity * 2)
        let grown = UnsafeMutablePointer<Slot>.allocate(capacity: capacity)
        grown.moveInitialize(from: slots, count: slotCapacity)
        (grown + slotCapacity).initialize(repeating: Slot(start: -1, count: 0, bit: 0), count: capacity - slotCapacity)
        slots.deallocate()
        slots = grown
        slotCapacity = capacity
    }

    private func appendBytes(_ source: UnsafeBufferPointer<UInt8>) {
        let needed = byteCount + source.count
        if needed > byteCapacity {
            let capacity = max(needed, byteCapacity * 2)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: bytes, count: byteCount)
            bytes.deallocate()
            bytes = grown
            byteCapacity = capacity
        }
        if let base = source.baseAddress { (bytes + byteCount).update(from: base, count: source.count) }
        byteCount = needed
    }

    func freeze() { frozen = true }

    /// Adds the key of `tag` named `name`.
    func fill(_ tag: Int, name: String, escapeSlashes: Bool) {
        precondition(!frozen, "a published key table is filled")
        assert(tag >= 0, "a negative key tag")
        added = true
        reserveSlots(tag + 1)
        if slotCount <= tag { slotCount = tag + 1 }
        while names.count < slotCount { names.append("") }
        var bit: UInt64 = tag < 64 ? 1 << UInt64(tag) : 0
        for t in 0..<slotCount where slots[t].start >= 0 && names[t] == name {
            bit = slots[t].bit
            break
        }
        var text: [UInt8] = []
        if raw {
            text.append(contentsOf: name.utf8)
        } else {
            // `,"name":` — the separator and colon of the compact layout around the quoted name.
            text.append(UInt8(ascii: ","))
            var name = name
            name.withUTF8 { JSONWriter.appendEscaped($0, to: &text, escapeSlashes: escapeSlashes) }
            text.append(UInt8(ascii: ":"))
        }
        let start = byteCount
        text.withUnsafeBufferPointer { appendBytes($0) }
        slots[tag] = Slot(start: Int32(start), count: Int32(text.count), bit: bit)
        names[tag] = name
    }

    /// Takes the names of `other` (a table of the same key type and variant).
    func load(_ other: StreamKeyNames) {
        precondition(!frozen, "a published key table is changed")
        reserveSlots(other.slotCount)
        assert(other.slotCount <= slotCapacity && other.byteCount <= other.byteCapacity, "a table copied past its end")
        slots.update(from: other.slots, count: other.slotCount)
        slotCount = other.slotCount
        names = other.names
        byteCount = 0
        appendBytes(UnsafeBufferPointer(start: other.bytes, count: other.byteCount))
    }

    /// The name of the key with `bit` (for duplicate checks across key types).
    func name(ofBit bit: UInt64) -> String? {
        for t in 0..<slotCount where slots[t].start >= 0 && slots[t].bit == bit { return names[t] }
        return nil
    }
}
