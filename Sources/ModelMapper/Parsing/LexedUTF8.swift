// Unsafe code: word loads from a raw buffer, and Strings made without the standard library's validation.
//
// Invariants:
// - Every load lies inside `bytes` (word loads at `i + 8 <= count`, asserted; shorter text is read with
//   4-, 2- and 1-byte loads covering exactly its bytes); the byte after a lead byte is read
//   only below `count` (checked: yajl guarantees it, but a short sequence is treated as invalid anyway).
// - `string(_:)` makes a String without validation only from bytes `isValid` accepted. `isValid` is exact
//   only for bytes whose multi-byte sequences have the shape yajl's lexer checks (a lead byte C0–F7 and
//   the right number of continuation bytes 80–BF; no stray continuation bytes, no F8–FF): callers pass
//   string and key bytes of a tape, which yajl lexed with its UTF-8 check on, or without it only after
//   `UTF8Shape.check` found the same shape in the whole document (`withParsedDocument`); `isKnownValid`
//   only when that check found the document valid. Debug builds compare every verdict with the standard
//   library's.

/// UTF-8 checks for text yajl has lexed.
///
/// yajl checks only the *shape* of each multi-byte sequence. What it lets through — overlong forms
/// (`C0 AF`, `E0 80 AF`, `F0 80 80 AF`), encoded surrogates (`ED A0 80`) and values past U+10FFFF
/// (`F4 90 80 80`, leads F5–F7) — is recognisable from the lead byte and the byte after it alone. So a
/// String can be made from such text by looking only at lead bytes, eight bytes at a time, instead of
/// decoding every scalar (the standard library's validation costs about ten instructions per byte of
/// non-ASCII text; this check costs about three, and under one for ASCII).
enum LexedUTF8 {
    /// A String of `bytes` (yajl-lexed string or key text), or nil if they are not valid UTF-8.
    ///
    /// Text whose first and last eight bytes are ASCII (keys, URLs, identifiers, dates) takes the standard
    /// library's decoding, whose ASCII path is the cheapest there is; given yajl's shape check, each
    /// sequence it would replace with U+FFFD makes the text longer (a 2–4-byte sequence becomes 2–4 three-byte
    /// U+FFFD), so an unchanged length proves validity. Other text is judged here by its lead bytes and made
    /// into a String without a second validation.
    ///
    /// With `isKnownValid` (the document passed ``UTF8Shape``'s full check), no text is checked again: it
    /// is made into a String after a word-at-a-time ASCII test (the String keeps that flag); mixed text
    /// with ASCII ends, which the standard library would validate scalar by scalar, included.
    @inline(__always)
    static func string(_ bytes: UnsafeRawBufferPointer, isKnownValid: Bool = false) -> String? {
        let result: String?
        if isKnownValid, let base = bytes.baseAddress, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            let span = Span(_unsafeElements: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self),
                                                                 count: bytes.count))
            result = String(copying: UTF8Span(unchecked: span, isKnownASCII: isASCII(bytes)))
        } else if endsAreASCII(bytes) {
            let decoded = String(decoding: bytes, as: UTF8.self)
            result = decoded.utf8.count == bytes.count ? decoded : nil
        } else {
            var isASCII = false
            if isKnownValid || isValid(bytes, isASCII: &isASCII), let base = bytes.baseAddress {
                if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                    let span = Span(_unsafeElements: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self),
                                                                         count: bytes.count))
                    result = String(copying: UTF8Span(unchecked: span, isKnownASCII: isASCII))
                } else {
                    result = String(decoding: bytes, as: UTF8.self)
                }
            } else {
                result = nil
            }
        }
        #if DEBUG
        let reference = String(validating: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        assert((result == nil) == (reference == nil), "the UTF-8 check disagrees with the standard library's validation")
        #endif
        return result
    }

    /// Whether all of `bytes` are below 0x80: whole words, the tail covered by the last word again.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return true }
        guard n >= 8 else { return shortWord(base, n) & 0x8080_8080_8080_8080 == 0 }
        var high: UInt64 = 0
        var i = 0
        while i + 8 < n {
            assert(i >= 0 && i + 8 <= n, "a word load outside the string")
            high |= base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        high |= base.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Whether the first and the last eight bytes (all bytes, when fewer) are ASCII.
    @inline(__always)
    private static func endsAreASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        guard let base = bytes.baseAddress else { return true }
        guard n >= 8 else { return shortWord(base, n) & 0x8080_8080_8080_8080 == 0 }
        let first = base.loadUnaligned(as: UInt64.self), last = base.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
        return (first | last) & 0x8080_8080_8080_8080 == 0
    }

    /// Whether `bytes`, whose sequences have the shape yajl checks, are valid UTF-8; `isASCII` tells
    /// whether they are all below 0x80. Whole words only: a tail shorter than a word is covered by the
    /// last eight bytes again (or, in text under eight bytes, by one word assembled from 4-, 2- and
    /// 1-byte loads), so no byte loop runs for ASCII text.
    @inline(__always)
    static func isValid(_ bytes: UnsafeRawBufferPointer, isASCII: inout Bool) -> Bool {
        let n = bytes.count
        guard n > 0, let base = bytes.baseAddress else {
            isASCII = true
            return true
        }
        var high: UInt64 = 0
        if n >= 8 {
            var i = 0
            while true {
                assert(i >= 0 && i + 8 <= n, "a word load outside the string")
                let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                high |= w
                if w & 0x8080_8080_8080_8080 != 0 && mayHoldSuspectLead(w) {
                    for j in i..<i + 8 where !leadIsValid(base, j, n) { return false }
                }
                if i + 8 == n { break }
                i = min(i + 8, n - 8)
            }
        } else {
            let w = shortWord(base, n)
            high = w
            if w & 0x8080_8080_8080_8080 != 0 && mayHoldSuspectLead(w) {
                for j in 0..<n where !leadIsValid(base, j, n) { return false }
            }
        }
        isASCII = high & 0x8080_8080_8080_8080 == 0
        return true
    }

    /// The `n` (< 8) bytes at `base` as the low bytes of a word (the others zero), from 4-, 2- and 1-byte
    /// loads that stay inside them.
    @inline(__always)
    private static func shortWord(_ base: UnsafeRawPointer, _ n: Int) -> UInt64 {
        assert(n >= 0 && n < 8, "a short word of more than seven bytes")
        var w: UInt64 = 0
        var k = 0
        if n & 4 != 0 {
            w = UInt64(UInt32(littleEndian: base.loadUnaligned(as: UInt32.self)))
            k = 4
        }
        if n & 2 != 0 {
            w |= UInt64(UInt16(littleEndian: base.loadUnaligned(fromByteOffset: k, as: UInt16.self))) << UInt64(k * 8)
            k += 2
        }
        if n & 1 != 0 {
            w |= UInt64(base.load(fromByteOffset: k, as: UInt8.self)) << UInt64(k * 8)
        }
        return w
    }

    /// Whether some byte of `w` may be C0, C1, E0, ED or F0–F7: the leads whose sequences yajl may let
    /// through invalid. (A zero-byte test per pattern; its rare false positives only cost the exact check.)
    @inline(__always)
    private static func mayHoldSuspectLead(_ w: UInt64) -> Bool {
        @inline(__always) func hasZeroByte(_ x: UInt64) -> Bool {
            (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080 != 0
        }
        return hasZeroByte((w & 0xFEFE_FEFE_FEFE_FEFE) ^ 0xC0C0_C0C0_C0C0_C0C0)
            || hasZeroByte(w ^ 0xE0E0_E0E0_E0E0_E0E0)
            || hasZeroByte(w ^ 0xEDED_EDED_EDED_EDED)
            || hasZeroByte((w & 0xF8F8_F8F8_F8F8_F8F8) ^ 0xF0F0_F0F0_F0F0_F0F0)
    }

    /// Whether the byte at `i`, if it is a lead byte, starts a valid sequence given yajl's shape check.
    @inline(__always)
    private static func leadIsValid(_ base: UnsafeRawPointer, _ i: Int, _ n: Int) -> Bool {
        let lead = base.load(fromByteOffset: i, as: UInt8.self)
        guard isSuspectLead(lead) else { return true }
        guard i + 1 < n else { return false }
        return sequenceIsValid(lead: lead, next: base.load(fromByteOffset: i + 1, as: UInt8.self))
    }

    /// The lead bytes whose well-shaped sequences may still not be valid UTF-8.
    @inline(__always)
    static func isSuspectLead(_ lead: UInt8) -> Bool {
        switch lead {
        case 0xC0, 0xC1, 0xE0, 0xED, 0xF0, 0xF4...0xFF: return true
        default: return false
        }
    }

    /// Whether a well-shaped sequence of a suspect lead (``isSuspectLead``) followed by `next` is valid
    /// UTF-8: the one place the rule past yajl's shape check is written.
    @inline(__always)
    static func sequenceIsValid(lead: UInt8, next: UInt8) -> Bool {
        switch lead {
        case 0xE0: return next >= 0xA0          // below: overlong (U+0000–U+07FF in three bytes)
        case 0xED: return next < 0xA0           // at or above: a surrogate (U+D800–U+DFFF)
        case 0xF0: return next >= 0x90          // below: overlong (below U+10000 in four bytes)
        case 0xF4: return next < 0x90           // at or above: beyond U+10FFFF
        case 0xC0, 0xC1, 0xF5...0xFF: return false  // overlong two-byte forms; beyond U+10FFFF
        default: return true
        }
    }
}
