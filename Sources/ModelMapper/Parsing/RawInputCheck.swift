// Unsafe code: reads the caller's chunk through a raw buffer pointer, within `0..<chunk.count` only.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds what yajl accepts but RFC 8259 does not, in the raw input, so it becomes a `.syntax` error
/// instead of a silent change:
/// - a raw form feed or vertical tab, which yajl skips as whitespace;
/// - a `\u` escape that is not a Unicode scalar: a lone low surrogate (yajl writes invalid UTF-8 that
///   String repairs to U+FFFD), a high surrogate not followed by `\u` + low surrogate (yajl writes `?`,
///   or combines it with whatever `\u` follows into a wrong scalar).
///
/// Both checks run over each chunk yajl has just accepted, with `memchr` (vectorized in libc): about 2% of
/// a parse. Backslashes only occur inside strings in input yajl accepted, where every backslash starts an
/// escape, so escapes are found by skipping from one backslash past its escape to the next.
///
/// Across chunks: an escape cut by a chunk boundary is kept (at most 11 bytes) and finished with the next
/// chunk. A bad escape in a string that has not ended yet is held back until the string ends, because
/// yajl judges the string as a token only then and may report an earlier error at its start (`[1 "\udc00"`
/// lacks a comma before the string).
struct RawInputCheck {
    /// What was found and where (absolute byte offset, possibly before the current chunk).
    struct Violation: Equatable {
        let offset: Int
        let message: String
        /// The last byte that was read to decide (absolute): yajl's own error at or before it comes first,
        /// since that byte may be part of it (`"\uD800` then a truncated UTF-8 sequence).
        let decidedBy: Int
    }

    /// An escape cut by the end of the previous chunk: its bytes from the backslash, and its offset.
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    /// A bad escape in a string that had not ended with the chunk it was found in.
    private(set) var heldBack: Violation?
    /// Bytes of the next chunk that continue an escape of the held-back string (0 or 1).
    private var heldBackSkip = 0

    mutating func reset() {
        pending.removeAll(keepingCapacity: true)
        heldBack = nil
    }

    /// The first violation in `chunk` (whose first byte is at absolute offset `start`), once yajl has
    /// accepted the chunk.
    ///
    /// With `limit`, the chunk is one yajl rejected and only its first `limit` bytes are looked at: the
    /// result is then a candidate the caller compares with yajl's own error (the earlier one wins), and
    /// held-back violations are returned as such candidates.
    mutating func firstViolation(in chunk: UnsafeRawBufferPointer, start: Int, limit: Int? = nil) -> Violation? {
        let count = min(limit ?? chunk.count, chunk.count)
        let bytes = UnsafeRawBufferPointer(start: count > 0 ? chunk.baseAddress : nil, count: count)
        let isCandidate = limit != nil
        if let waiting = heldBack {
            if isCandidate || Self.closingQuote(in: bytes, from: heldBackSkip, resume: &heldBackSkip) != nil {
                return waiting
            }
            return nil
        }
        guard count > 0 else { return nil }
        let control = Self.firstFormFeedOrVerticalTab(bytes).map {
            Violation(offset: start + $0, message: "invalid character \(bytes[$0] == 0x0C ? "form feed (U+000C)" : "vertical tab (U+000B)"): not JSON whitespace",
                      decidedBy: start + $0)
        }
        guard let (escape, stringEnded) = firstBadEscape(bytes, start: start, isCandidate: isCandidate),
              control.map({ escape.offset < $0.offset }) ?? true else {
            return control
        }
        if isCandidate || stringEnded { return escape }
        heldBack = escape
        return nil
    }

    /// The first 0x0B or 0x0C byte. Neither can appear raw in valid JSON (inside strings control
    /// characters must be escaped, and UTF-8 multi-byte sequences have no bytes below 0x80).
    /// Two `memchr` passes cost about 2% of a parse; a Swift loop cost 50%.
    static func firstFormFeedOrVerticalTab(_ bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        var end = bytes.count
        if let p = memchr(base, 0x0C, end) { end = base.distance(to: UnsafeRawPointer(p)) }
        if end > 0, let p = memchr(base, 0x0B, end) { end = base.distance(to: UnsafeRawPointer(p)) }
        return end < bytes.count ? end : nil
    }

    /// Scans the escapes of `bytes`, first finishing one left pending by the previous chunk. Returns the
    /// first bad one and whether its string ends within `bytes` (if not, `heldBackSkip` is set to where
    /// the search for its end resumes in the next chunk).
    /// `isCandidate`: the bytes are the part of a chunk before a yajl error; nothing is kept pending then.
    private mutating func firstBadEscape(_ bytes: UnsafeRawBufferPointer, start: Int,
                                         isCandidate: Bool) -> (Violation, stringEnded: Bool)? {
        var resume = 0
        if !pending.isEmpty {
            // Complete the cut escape with the chunk's first bytes (an escape pair is at most 12 bytes).
            let joined = pending + bytes.prefix(12)
            let carried = pending.count
            let offset = pendingOffset
            pending.removeAll(keepingCapacity: true)
            switch joined.withUnsafeBytes({ Self.classifyEscape(in: $0, at: 0) }) {
            case .valid(let length):
                resume = length - carried
            case .invalid(let message, let decidedBy):
                // The cut escape holds no quote: look for the string's end from the joined bytes on.
                var skip = 0
                var ended = joined.withUnsafeBytes { Self.closingQuote(in: $0, from: 0, resume: &skip) } != nil
                if !ended {
                    ended = Self.closingQuote(in: bytes, from: joined.count - carried + skip, resume: &heldBackSkip) != nil
                }
                return (Violation(offset: offset, message: message, decidedBy: offset + decidedBy), ended)
            case .incomplete:
                if !isCandidate { pending = joined; pendingOffset = offset }
                return nil
            }
        }
        guard let base = bytes.baseAddress else { return nil }
        var i = resume
        while i < bytes.count, let found = memchr(base + i, Int32(UInt8(ascii: "\\")), bytes.count - i) {
            let at = base.distance(to: UnsafeRawPointer(found))
            assert(at >= i && at < bytes.count, "a backslash found outside the bytes searched")
            switch Self.classifyEscape(in: bytes, at: at) {
            case .valid(let length):
                i = at + length
            case .invalid(let message, let decidedBy):
                let ended = Self.closingQuote(in: bytes, from: at, resume: &heldBackSkip) != nil
                return (Violation(offset: start + at, message: message, decidedBy: start + at + decidedBy), ended)
            case .incomplete:
                if !isCandidate { pending = Array(bytes[at...]); pendingOffset = start + at }
                return nil
            }
        }
        return nil
    }

    /// The index of the closing quote of the string being scanned, from `from` on. Inside a string every
    /// backslash starts an escape whose second byte is never the closing quote (and the rest of a `\u`
    /// escape holds neither quotes nor backslashes). When the string does not end in `bytes`: nil, and
    /// `resume` is where the search continues in the bytes that follow. Only runs after a violation.
    private static func closingQuote(in bytes: UnsafeRawBufferPointer, from: Int, resume: inout Int) -> Int? {
        var i = from
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""): return i
            case UInt8(ascii: "\\"): i += 2
            default: i += 1
            }
        }
        resume = i - bytes.count
        return nil
    }

    private enum EscapeOutcome {
        /// A well-formed escape (or one yajl reports itself) of this many bytes.
        case valid(Int)
        /// Not a scalar; decided by the byte this far from the backslash.
        case invalid(String, decidedBy: Int)
        /// The bytes end before the escape can be judged.
        case incomplete
    }

    /// Judges the escape starting with the backslash at `at`.
    private static func classifyEscape(in bytes: UnsafeRawBufferPointer, at: Int) -> EscapeOutcome {
        let n = bytes.count
        guard at + 1 < n else { return .incomplete }
        guard bytes[at + 1] == UInt8(ascii: "u") else { return .valid(2) }
        guard at + 6 <= n else { return .incomplete }
        // Not four hex digits: a lexical error yajl reports.
        guard let unit = hex4(bytes, at + 2) else { return .valid(2) }
        switch unit {
        case 0xDC00...0xDFFF:
            return .invalid("invalid \\u escape: lone low surrogate \\u\(hexText(unit)) is not a Unicode scalar", decidedBy: 5)
        case 0xD800...0xDBFF:
            let expectation = "invalid \\u escape: high surrogate \\u\(hexText(unit)) must be followed by a \\u escape of a low surrogate (DC00-DFFF)"
            // Judge as soon as a byte disagrees; wait only while the available bytes could still be a pair.
            if at + 6 < n && bytes[at + 6] != UInt8(ascii: "\\") { return .invalid(expectation, decidedBy: 6) }
            if at + 7 < n && bytes[at + 7] != UInt8(ascii: "u") { return .invalid(expectation, decidedBy: 7) }
            guard at + 12 <= n else { return .incomplete }
            // `\u` without four hex digits after it: yajl's lexical error, at the bad digit.
            guard let low = hex4(bytes, at + 8) else { return .valid(6) }
            guard (0xDC00...0xDFFF).contains(low) else { return .invalid(expectation, decidedBy: 11) }
            return .valid(12)
        default:
            return .valid(6)
        }
    }

    private static func hex4(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32? {
        var value: UInt32 = 0
        for i in at..<at + 4 {
            let c = bytes[i]
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = c &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func hexText(_ unit: UInt32) -> String {
        String(unit, radix: 16, uppercase: true)
    }
}
