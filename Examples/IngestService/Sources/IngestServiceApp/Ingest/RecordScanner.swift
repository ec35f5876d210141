// Unsafe code: scans a body chunk through a raw pointer (`memchr`, unchecked reads at `p < count`). Every
// read is at an index checked against the chunk's count in the same loop.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Follows where ModelMapper's reader will find records in a `POST /events` body, without parsing them,
/// so that a record longer than `--max-record-bytes` can be cut before the reader buffers it whole.
///
/// JSON Lines: a record is a line. A top-level array: a record is an element, found the way the reader's
/// structural splitter finds it (strings and escapes, brackets, a mismatched closing bracket or a raw line
/// break inside a string ending the value early), so that both agree on where a record ends. Should they
/// ever disagree on hostile input, ``GuardedBody`` still stops the upload when the reader holds more than
/// a record's worth of bytes.
struct RecordScanner {
    private let isArray: Bool
    /// Bytes of the record being scanned (JSON Lines: since the last newline).
    private var recordLength = 0

    // Top-level array state, mirroring the reader's splitter.
    private var opened = false
    private var inValue = false
    private var bare = false
    private var inString = false
    private var escaped = false
    private var depth = 0
    /// One bit per open container up to ``trackedDepth`` (1 = object), to catch `{…]` as the reader does.
    private var kinds = [UInt64](repeating: 0, count: Self.trackedDepth / 64 + 1)
    /// Bytes of a UTF-8 byte-order mark matched at the start (the reader skips one).
    private var byteOrderMark = 0

    /// The reader tracks container kinds to its depth limit (DecodingOptions' default, 512).
    private static let trackedDepth = 512

    init(isArray: Bool) {
        self.isArray = isArray
    }

    /// Top-level array: whether the scan is between elements (in blank space or punctuation), not in one.
    var isBetweenValues: Bool { !inValue }

    /// Scans `bytes[from...]`: the index of the first byte that would make the open record longer than
    /// `limit` (the record is cut there; the scanner's state is that before the byte), or nil when the
    /// chunk ends first.
    mutating func findOverflow(_ bytes: UnsafeRawBufferPointer, from: Int, limit: Int) -> Int? {
        guard let raw = bytes.baseAddress else { return nil }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let count = bytes.count
        var p = from
        if !isArray {
            while p < count {
                if let hit = memchr(base + p, 0x0A, count - p) {
                    let newline = UnsafeRawPointer(hit) - raw
                    if recordLength + (newline - p) > limit { return p + (limit - recordLength) }
                    recordLength = 0
                    p = newline + 1
                } else {
                    if recordLength + (count - p) > limit { return p + (limit - recordLength) }
                    recordLength += count - p
                    return nil
                }
            }
            return nil
        }
        var specials = StringSpecials()
        while p < count {
            if !inValue {
                p = between(base, p, count)
                continue
            }
            if valueEndsBefore(base[p]) {
                inValue = false
                continue
            }
            if recordLength >= limit { return p }
            if inString && !escaped {
                // Bytes of a string up to its next special byte are part of the value: take them at once.
                let next = specials.next(base, p, count)
                let run = min(next, p + (limit - recordLength))
                if run > p {
                    recordLength += run - p
                    p = run
                    continue
                }
            }
            recordLength += 1
            if consume(base[p]) { inValue = false }
            p += 1
        }
        return nil
    }

    /// While a cut record is being dropped: the index where it ends (bytes from there on are the
    /// reader's again), or nil when the chunk ends first.
    mutating func findEnd(_ bytes: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let raw = bytes.baseAddress else { return nil }
        let base = raw.assumingMemoryBound(to: UInt8.self)
        let count = bytes.count
        if !isArray {
            guard let hit = memchr(base + from, 0x0A, count - from) else { return nil }
            recordLength = 0
            return UnsafeRawPointer(hit) - raw
        }
        var specials = StringSpecials()
        var p = from
        while p < count {
            if valueEndsBefore(base[p]) {
                inValue = false
                return p
            }
            if inString && !escaped {
                let next = specials.next(base, p, count)
                if next > p {
                    p = next
                    continue
                }
            }
            if consume(base[p]) {
                inValue = false
                return p + 1
            }
            p += 1
        }
        return nil
    }

    /// The bytes that end the reader's record where it was cut (the state is that before the cut): a
    /// delimiter after a bare value, a raw line break inside a string (the reader ends a value there),
    /// or a string opened and broken the same way inside a container. JSON Lines: nothing (the record
    /// ends at the line's own newline, after the dropped bytes).
    var terminator: [UInt8] {
        guard isArray else { return [] }
        if bare { return [0x20] }
        if inString { return [0x0A] }
        return [UInt8(ascii: "\""), 0x0A]
    }

    // MARK: The reader's structural splitter, mirrored

    /// Between records: consumes one byte (space, framing punctuation, the array's `[`) or begins a value.
    private mutating func between(_ base: UnsafePointer<UInt8>, _ p: Int, _ count: Int) -> Int {
        let byte = base[p]
        if byteOrderMark < 3 && !opened {
            if byte == [0xEF, 0xBB, 0xBF][byteOrderMark] {
                byteOrderMark += 1
                return p + 1
            }
            byteOrderMark = 3
        }
        switch byte {
        case 0x20, 0x09, 0x0D, 0x0A:
            return p + 1
        case UInt8(ascii: "[") where !opened:
            opened = true
            byteOrderMark = 3
            return p + 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"):
            return p + 1
        default:
            byteOrderMark = 3
            inValue = true
            recordLength = 1
            depth = 0
            inString = false
            escaped = false
            bare = false
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["): push(isObject: byte == UInt8(ascii: "{"))
            case UInt8(ascii: "\""): inString = true
            default: bare = true
            }
            return p + 1
        }
    }

    /// Whether `byte` ends the value without being part of it: a delimiter after a bare value, a raw line
    /// break in a string.
    private func valueEndsBefore(_ byte: UInt8) -> Bool {
        if bare {
            switch byte {
            case 0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "{"), UInt8(ascii: "}"),
                UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\""):
                return true
            default: return false
            }
        }
        return inString && byte == 0x0A
    }

    /// Takes `byte` into the value; true when it ends the value.
    private mutating func consume(_ byte: UInt8) -> Bool {
        if bare { return false }
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                return depth == 0
            }
            return false
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            push(isObject: byte == UInt8(ascii: "{"))
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            let matches = pop(isObject: byte == UInt8(ascii: "}"))
            return depth == 0 || !matches
        default:
            break
        }
        return false
    }

    private mutating func push(isObject: Bool) {
        if depth < Self.trackedDepth {
            let (word, bit) = (depth >> 6, UInt64(1) << UInt64(depth & 63))
            if isObject { kinds[word] |= bit } else { kinds[word] &= ~bit }
        }
        depth += 1
    }

    private mutating func pop(isObject: Bool) -> Bool {
        depth -= 1
        guard depth < Self.trackedDepth else { return true }
        return (kinds[depth >> 6] & (UInt64(1) << UInt64(depth & 63)) != 0) == isObject
    }
}

/// The next `"`, `\` or newline at or after a position within one chunk, each found with `memchr` and
/// remembered until passed, so a string full of escapes costs one pass per kind of byte, not one per escape.
private struct StringSpecials {
    private var quote = -1
    private var backslash = -1
    private var newline = -1

    mutating func next(_ base: UnsafePointer<UInt8>, _ p: Int, _ count: Int) -> Int {
        func find(_ byte: UInt8, _ cached: inout Int) -> Int {
            if cached < p {
                if let hit = memchr(base + p, Int32(byte), count - p) {
                    cached = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                } else {
                    cached = count
                }
            }
            return cached
        }
        return min(find(UInt8(ascii: "\""), &quote), find(UInt8(ascii: "\\"), &backslash), find(0x0A, &newline))
    }
}
