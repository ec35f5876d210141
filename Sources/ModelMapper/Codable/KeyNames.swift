import Foundation

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
// - A table belongs to one coding (one thread); the shared cache holds copies (`Names`), under its lock.

/// Key names per key type and key options, kept for the next codings (filled on first use of each key,
/// published when a coding ends).
final class StreamKeyNameCache: @unchecked Sendable {
    static let shared = StreamKeyNameCache()

    struct Names {
        var slots: [StreamKeyNames.Slot]
        var names: [String]
        var quoted: [UInt8]
    }

    struct Entry: Hashable {
        let type: ObjectIdentifier
        /// Escaped slashes (bit 0), snake-cased keys (bit 1), the decoder's raw names (bit 2).
        let variant: UInt8
    }

    private let lock = NSLock()
    private var table: [Entry: Names] = [:]

    func names(_ entry: Entry) -> Names? {
        lock.lock()
        defer { lock.unlock() }
        return table[entry]
    }

    /// Keeps `names` unless a table with more keys is there already.
    func publish(_ names: Names, for entry: Entry) {
        lock.lock()
        defer { lock.unlock() }
        if let current = table[entry], current.quoted.count >= names.quoted.count { return }
        table[entry] = names
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
    private var byteCount = 0
    private var byteCapacity: Int
    /// The names by tag ("" where unknown), for duplicate checks by name.
    @exclusivity(unchecked) private(set) var names: [String] = []
    /// Names were added during this coding (to be published to `StreamKeyNameCache`).
    var added = false
    /// The encoder's containers of this key type, for reuse (see `TapeEncodingState.keyedContainer`).
    @exclusivity(unchecked) var pool = ContainerPool<StreamContainerRef>()

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

    deinit {
        slots.deallocate()
        bytes.deallocate()
    }

    /// The key's byte (only for `tagged` key types).
    @inline(__always)
    func tag<Key: CodingKey>(_ key: Key) -> Int {
        empty ? 0 : Int(unsafeBitCast(key, to: UInt8.self))
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

    /// Adds the key of `tag` named `name`.
    func fill(_ tag: Int, name: String, escapeSlashes: Bool) {
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
            StreamText.appendQuoted(name, to: &text, escapeSlashes: escapeSlashes)
            text.append(UInt8(ascii: ":"))
        }
        let start = byteCount
        text.withUnsafeBufferPointer { appendBytes($0) }
        slots[tag] = Slot(start: Int32(start), count: Int32(text.count), bit: bit)
        names[tag] = name
    }

    /// The names as they are now, for later codings.
    var snapshot: StreamKeyNameCache.Names {
        StreamKeyNameCache.Names(slots: Array(UnsafeBufferPointer(start: slots, count: slotCount)), names: names,
                                 quoted: Array(UnsafeBufferPointer(start: bytes, count: byteCount)))
    }

    func load(_ cached: StreamKeyNameCache.Names) {
        reserveSlots(cached.slots.count)
        cached.slots.withUnsafeBufferPointer { slots.update(from: $0.baseAddress!, count: $0.count) }
        slotCount = cached.slots.count
        names = cached.names
        byteCount = 0
        cached.quoted.withUnsafeBufferPointer { appendBytes($0) }
    }

    /// The name of the key with `bit` (for duplicate checks across key types).
    func name(ofBit bit: UInt64) -> String? {
        for t in 0..<slotCount where slots[t].start >= 0 && slots[t].bit == bit { return names[t] }
        return nil
    }
}
