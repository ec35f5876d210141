// Unsafe code: word loads from the caller's buffer.
//
// Invariants:
// - Every load lies inside `bytes`: 8-byte loads at `i + 64 <= count` (eight per step) or `i + 8 <= count`,
//   4-byte loads at `i + 4 <= count`, single bytes at `i < count` (each asserted).
// - The shape verdict is exactly yajl's string check (`yajl_lex_utf8_char`) applied to every non-ASCII
//   byte of the buffer, in or out of strings: a lead byte C0–DF, E0–EF or F0–F7 followed by one, two or
//   three continuation bytes 80–BF. The validity verdict adds `LexedUTF8.sequenceIsValid`. Tests compare
//   both with byte-by-byte references.

/// Checks a whole document's UTF-8 once, so that neither yajl nor each string has to.
///
/// yajl checks the shape of each multi-byte sequence byte by byte inside its string lexer, at about
/// seventeen instructions per non-ASCII byte (1.6M of its 14.6M on twitter.json); ``LexedUTF8`` then
/// checks each kept string for what that shape check lets through. This pass looks at eight bytes at a
/// time and at whole sequences: a third of an instruction per ASCII byte, about seven per byte of CJK text.
///
/// Why the verdict can be taken over the whole buffer, ignoring where strings are: a sequence of that
/// shape contains no ASCII byte, so it never spans a quote, and every string starts after an ASCII quote —
/// the sequences this pass sees inside strings are the ones yajl sees. A non-ASCII byte outside a string is
/// a syntax error for yajl with or without its check (it is not a token's first byte). So, when the
/// verdict is not `.illShaped`, yajl without its check accepts and rejects exactly what it would with it,
/// with the same errors; when it is, the parse keeps yajl's check and reports exactly what it did before.
/// When it is `.valid`, every string of the document is valid UTF-8: raw text is, and yajl writes escapes
/// as valid UTF-8 except for the surrogate escapes `RawInputCheck` rejects.
enum UTF8Shape {
    enum Verdict: Equatable {
        /// Some non-ASCII byte is not part of a sequence of the shape yajl checks: keep yajl's check.
        case illShaped
        /// Well shaped, but some sequence is not valid UTF-8 (an overlong form, an encoded surrogate, a
        /// value past U+10FFFF): yajl's check can go, each string is still checked (``LexedUTF8``).
        case wellShaped
        /// Valid UTF-8 throughout: neither check is needed.
        case valid
    }

    /// For each byte: the length of the sequence it leads in the low nibble (0: not a lead byte, 1:
    /// ASCII), and 0x10 when its sequence may be well shaped yet invalid (`LexedUTF8.isSuspectLead`).
    private static let leads: [UInt8] = (0...255).map { byte in
        let suspect: UInt8 = LexedUTF8.isSuspectLead(UInt8(byte)) ? 0x10 : 0
        switch byte {
        case 0..<0x80: return 1
        case 0xC0..<0xE0: return 2 | suspect
        case 0xE0..<0xF0: return 3 | suspect
        case 0xF0..<0xF8: return 4 | suspect
        default: return 0                                       // 80–BF (a continuation byte), F8–FF
        }
    }

    /// For each non-ASCII byte: the mask (low half) and the value (high half) the little-endian 4-byte word
    /// starting at it must have when it leads a well-shaped sequence: the lead itself, then each
    /// continuation byte's top two bits 10. Bytes that lead nothing get a value no word can have.
    private static let patterns: [UInt64] = (0...255).map { byte in
        let lead = UInt64(byte)
        switch byte {
        case 0xC0..<0xE0: return (lead | 0x0080_00) << 32 | 0x0000_C0FF
        case 0xE0..<0xF0: return (lead | 0x8080_00) << 32 | 0x00C0_C0FF
        case 0xF0..<0xF8: return (lead | 0x8080_8000) << 32 | 0xC0C0_C0FF
        default: return 0x100 << 32 | 0xFF
        }
    }

    /// Bit k set when lead byte 0xE0 + k (three-byte sequences) is not suspect (`LexedUTF8.isSuspectLead`):
    /// a well-shaped sequence it leads is valid, so runs of them are checked by word compares alone.
    private static let plainThreeByteLeads: UInt64 = (0..<16).reduce(0) { mask, k in
        LexedUTF8.isSuspectLead(UInt8(0xE0 + k)) ? mask : mask | 1 << UInt64(k)
    }
    /// The same for two-byte sequences: bit k for lead byte 0xC0 + k.
    private static let plainTwoByteLeads: UInt64 = (0..<32).reduce(0) { mask, k in
        LexedUTF8.isSuspectLead(UInt8(0xC0 + k)) ? mask : mask | 1 << UInt64(k)
    }

    /// Whether `bytes` look like text with enough non-ASCII bytes for ``check(_:)`` to pay for itself
    /// (yajl's check costs nothing extra on ASCII, this pass a third of an instruction per byte): any of
    /// 16 words spread evenly over the buffer holds one. About 100 instructions, whatever the size; under
    /// 4 KB not even that (what the check could save there is about as small).
    static func isWorthChecking(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= 4096 else { return false }
        let n = bytes.count
        let samples = min(16, n / 8)
        let stride = (n - 8) / max(1, samples - 1)
        var high: UInt64 = 0
        for k in 0..<samples {
            let at = min(k * stride, n - 8)
            assert(at >= 0 && at + 8 <= n, "a sample outside the buffer")
            high |= base.loadUnaligned(fromByteOffset: at, as: UInt64.self)
        }
        return high & 0x8080_8080_8080_8080 != 0
    }

    /// The document's verdict: whether every non-ASCII byte belongs to a sequence of the shape yajl
    /// checks, and whether every such sequence is valid UTF-8.
    static func check(_ bytes: UnsafeRawBufferPointer) -> Verdict {
        guard let base = bytes.baseAddress else { return .valid }
        let n = bytes.count
        let high: UInt64 = 0x8080_8080_8080_8080
        var i = 0
        var isValid = true
        // Sequences starting below `wordLimit` have their 4-byte word inside the buffer.
        let wordLimit = n &- 3
        let plainThree = UTF8Shape.plainThreeByteLeads, plainTwo = UTF8Shape.plainTwoByteLeads
        return leads.withUnsafeBufferPointer { leads in patterns.withUnsafeBufferPointer { patterns in
            while true {
                // ASCII: 64 bytes a step, then 8; from a word holding a non-ASCII byte, straight to that byte.
                while i &+ 64 <= n {
                    assert(i >= 0, "a word load before the buffer")
                    var any: UInt64 = 0
                    for k in stride(from: 0, to: 64, by: 8) { any |= base.loadUnaligned(fromByteOffset: i &+ k, as: UInt64.self) }
                    if any & high != 0 { break }
                    i &+= 64
                }
                while i &+ 8 <= n {
                    let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) & high
                    if word != 0 {
                        i &+= word.trailingZeroBitCount &>> 3
                        break
                    }
                    i &+= 8
                }
                while i < n && base.load(fromByteOffset: i, as: UInt8.self) < 0x80 { i &+= 1 }
                if i >= n { return isValid ? .valid : .wellShaped }
                // A run of sequences, up to the next ASCII byte. (Wrapping arithmetic: `i < n` throughout.)
                repeat {
                    // The common sequences first, by word compares: three bytes with a lead that is not
                    // suspect (most CJK text) two at a time, then one at a time with such two-byte ones.
                    while i &+ 8 <= n {
                        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                        guard word & 0xC0C0_F0C0_C0F0 == 0x8080_E080_80E0,
                              (plainThree &>> (word & 0x0F)) & (plainThree &>> ((word &>> 24) & 0x0F)) & 1 != 0 else { break }
                        i &+= 6
                    }
                    while i < wordLimit {
                        assert(i >= 0 && i &+ 4 <= n, "a word load outside the buffer")
                        let word = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt32.self))
                        if word & 0x00C0_C0F0 == 0x0080_80E0 && (plainThree &>> UInt64(word & 0x0F)) & 1 != 0 {
                            i &+= 3
                        } else if word & 0xC0E0 == 0x80C0 && (plainTwo &>> UInt64(word & 0x1F)) & 1 != 0 {
                            i &+= 2
                        } else {
                            break
                        }
                    }
                    if i >= n || base.load(fromByteOffset: i, as: UInt8.self) < 0x80 { break }
                    assert(i >= 0 && i < n, "a byte read outside the buffer")
                    let lead = base.load(fromByteOffset: i, as: UInt8.self)
                    let info = leads[Int(lead)]
                    if i < wordLimit {
                        let word = UInt32(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt32.self))
                        let pattern = patterns[Int(lead)]
                        guard word & UInt32(truncatingIfNeeded: pattern) == UInt32(truncatingIfNeeded: pattern &>> 32) else {
                            return .illShaped
                        }
                    } else {
                        // The last bytes: a sequence cut by the end is not well shaped (yajl would wait).
                        let length = Int(info & 0x0F)
                        guard length > 1, i &+ length <= n else { return .illShaped }
                        for k in 1..<length where base.load(fromByteOffset: i &+ k, as: UInt8.self) & 0xC0 != 0x80 {
                            return .illShaped
                        }
                    }
                    if info & 0x10 != 0 && !LexedUTF8.sequenceIsValid(lead: lead, next: base.load(fromByteOffset: i &+ 1, as: UInt8.self)) {
                        isValid = false
                    }
                    i &+= Int(info & 0x0F)
                } while i < n && base.load(fromByteOffset: i, as: UInt8.self) >= 0x80
            }
        } }
    }
}
