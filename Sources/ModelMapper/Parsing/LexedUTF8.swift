// Unsafe code: word loads from a raw buffer, and Strings made without the standard library's validation.
//
// Invariants:
// - Every word load lies inside `bytes` (`i + 8 <= count`, asserted); the byte after a lead byte is read
//   only below `count` (checked: yajl guarantees it, but a short sequence is treated as invalid anyway).
// - `string(_:)` makes a String without validation only from bytes `isValid` accepted. `isValid` is exact
//   only for bytes whose multi-byte sequences have the shape yajl's lexer checks (a lead byte C0–F7 and
//   the right number of continuation bytes 80–BF; no stray continuation bytes, no F8–FF): callers pass
//   string and key bytes of a tape, which yajl lexed with its UTF-8 check on (the tokenizers never set
//   `yajl_dont_validate_strings`). Debug builds compare every verdict with the standard library's.

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
    @inline(__always)
    static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        var isASCII = false
        let valid = isValid(bytes, isASCII: &isASCII)
        #if DEBUG
        let reference = String(validating: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
        assert(valid == (reference != nil), "the lead-byte check disagrees with UTF-8 validation")
        #endif
        guard valid else { return nil }
        guard bytes.count > 0, let base = bytes.baseAddress else { return "" }
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            let span = Span(_unsafeElements: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self),
                                                                 count: bytes.count))
            return String(copying: UTF8Span(unchecked: span, isKnownASCII: isASCII))
        } else {
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Whether `bytes`, whose sequences have the shape yajl checks, are valid UTF-8; `isASCII` tells
    /// whether they are all below 0x80.
    @inline(__always)
    static func isValid(_ bytes: UnsafeRawBufferPointer, isASCII: inout Bool) -> Bool {
        let n = bytes.count
        guard n > 0, let base = bytes.baseAddress else {
            isASCII = true
            return true
        }
        var i = 0
        var high: UInt64 = 0
        while i + 8 <= n {
            assert(i >= 0 && i + 8 <= n, "a word load outside the string")
            let w = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            high |= w
            if w & 0x8080_8080_8080_8080 != 0 && mayHoldSuspectLead(w) {
                for j in i..<i + 8 where !leadIsValid(base, j, n) { return false }
            }
            i += 8
        }
        while i < n {
            let b = base.load(fromByteOffset: i, as: UInt8.self)
            high |= UInt64(b)
            if b >= 0xC0 && !leadIsValid(base, i, n) { return false }
            i += 1
        }
        isASCII = high & 0x8080_8080_8080_8080 == 0
        return true
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
        switch lead {
        case 0xC0, 0xC1, 0xF5...0xFF:
            return false
        case 0xE0, 0xED, 0xF0, 0xF4:
            guard i + 1 < n else { return false }
            let next = base.load(fromByteOffset: i + 1, as: UInt8.self)
            switch lead {
            case 0xE0: return next >= 0xA0          // below: overlong (U+0000–U+07FF in three bytes)
            case 0xED: return next < 0xA0           // at or above: a surrogate (U+D800–U+DFFF)
            case 0xF0: return next >= 0x90          // below: overlong (below U+10000 in four bytes)
            default: return next < 0x90             // F4 and at or above: beyond U+10FFFF
            }
        default:
            return true
        }
    }
}
