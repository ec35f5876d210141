// Unsafe code: a read-only hash table from JSON key bytes to property slots, built once per model type.
//
// Invariants: all three buffers are allocated in `init` and never mutated afterwards; they are freed
// (`deallocate`) once, by the table's single owner after its last use: a filter node's deinit (TapeFilter.swift)
// or a model meta's (ModelMeta.swift: a meta is freed only when no decode can reach it, with a custom key
// strategy's cache or as the loser of a race to first use); `buckets` has a power-of-two count greater than
// the entry count, so probing always finds an empty bucket; a bucket holds -1 or an entry index below
// `count`; every entry's key bytes lie inside `keyBytes` (`keyByteCount` bytes); `equal` reads only the
// `count` bytes of each side it is given (loads at offsets 0 and count - width, width <= count).
//
// `@unchecked Sendable`: the buffers are immutable after `init`, so sharing them between threads is safe.

/// Maps a JSON key, given as raw UTF-8 bytes, to the index of the first property reading it — without
/// creating a String. The hash looks at the length and at most eight bytes, so it costs the same for any key;
/// a match is confirmed by comparing all bytes.
struct KeyTable: @unchecked Sendable {
    private struct Entry {
        var start: Int32
        var length: Int32
        var value: Int32
    }

    private let keyBytes: UnsafeMutablePointer<UInt8>
    private let entries: UnsafeMutablePointer<Entry>
    private let buckets: UnsafeMutablePointer<Int32>
    private let mask: Int
    private let keyByteCount: Int
    /// Number of keys.
    let count: Int

    /// A table of `pairs` (key, value); keys must be distinct.
    init(_ pairs: [(key: [UInt8], value: Int)]) {
        count = pairs.count
        #if DEBUG
        MetadataBuffers.allocated()
        #endif
        let totalBytes = pairs.reduce(0) { $0 + $1.key.count }
        keyByteCount = totalBytes
        keyBytes = .allocate(capacity: max(1, totalBytes))
        entries = .allocate(capacity: max(1, pairs.count))
        // At most a quarter full: most lookups are of keys a model does not read, and a miss probes until
        // an empty bucket (about 1.4 buckets at this load, 2.5 at half full).
        var size = 8
        while size < pairs.count * 4 { size *= 2 }
        mask = size - 1
        buckets = .allocate(capacity: size)
        buckets.initialize(repeating: -1, count: size)
        var offset = 0
        for (n, pair) in pairs.enumerated() {
            pair.key.withUnsafeBufferPointer { source in
                if let base = source.baseAddress { (keyBytes + offset).initialize(from: base, count: source.count) }
            }
            entries[n] = Entry(start: Int32(offset), length: Int32(pair.key.count), value: Int32(pair.value))
            offset += pair.key.count
            assert(offset <= totalBytes, "key bytes past the table's allocation")
            var bucket = pair.key.withUnsafeBytes { KeyTable.hash($0) } & mask
            while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(n)
        }
    }

    /// The first and last four bytes (or the first, middle and last of a shorter key) and the length,
    /// mixed by one multiplication; the table uses the product's upper half, where every input bit counts.
    @inline(__always)
    static func hash(_ key: UnsafeRawBufferPointer) -> Int {
        let n = key.count
        var x = UInt64(truncatingIfNeeded: n)
        if n >= 4 {
            x ^= UInt64(key.loadUnaligned(as: UInt32.self)) << 8
                ^ UInt64(key.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)) << 32
        } else if n > 0 {
            x ^= UInt64(key[0]) << 8 ^ UInt64(key[n &>> 1]) << 16 ^ UInt64(key[n &- 1]) << 24
        }
        return Int(truncatingIfNeeded: (x &* 0x9E37_79B9_7F4A_7C15) &>> 40)
    }

    /// Frees the buffers; for the table's single owner, after its last use.
    func deallocate() {
        #if DEBUG
        MetadataBuffers.freed()
        #endif
        keyBytes.deallocate()
        entries.deallocate()
        buckets.deallocate()
    }

    /// Whether `count` (> 0) bytes at `a` and `b` are equal. Keys are short: up to 16 bytes take two
    /// overlapping loads per side that stay inside the `count` bytes, with no call.
    @inline(__always)
    static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count n: Int) -> Bool {
        assert(n > 0, "an empty key compared by loads")
        if n >= 8 {
            guard n <= 16 else { return memcmp(a, b, n) == 0 }
            return a.loadUnaligned(as: UInt64.self) == b.loadUnaligned(as: UInt64.self)
                && a.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) == b.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        }
        if n >= 4 {
            return a.loadUnaligned(as: UInt32.self) == b.loadUnaligned(as: UInt32.self)
                && a.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self) == b.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
        }
        // One to three bytes: the first, the middle and the last cover them.
        return a.load(as: UInt8.self) == b.load(as: UInt8.self)
            && a.load(fromByteOffset: n &>> 1, as: UInt8.self) == b.load(fromByteOffset: n &>> 1, as: UInt8.self)
            && a.load(fromByteOffset: n &- 1, as: UInt8.self) == b.load(fromByteOffset: n &- 1, as: UInt8.self)
    }

    /// The value for `key`, or -1.
    @inline(__always)
    func find(_ key: UnsafeRawBufferPointer) -> Int {
        var bucket = KeyTable.hash(key) & mask
        while true {
            let entryIndex = Int(buckets[bucket])
            if entryIndex < 0 { return -1 }
            assert(entryIndex < count, "a key table bucket holds an entry index out of bounds")
            let entry = entries[entryIndex]
            assert(entry.start >= 0 && Int(entry.start) + Int(entry.length) <= keyByteCount, "a key's bytes lie outside the key table")
            if Int(entry.length) == key.count
                && (key.count == 0 || KeyTable.equal(keyBytes + Int(entry.start), key.baseAddress!, count: key.count))
            {
                return Int(entry.value)
            }
            bucket = (bucket + 1) & mask
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
