// Unsafe code: literal bytes read eight and four at a time (`loadUnaligned`), a NUL-terminated copy for libc
// in a temporary allocation, and the powers-of-five table in a never-freed allocation.
//
// Exact conversion of raw JSON number literals (bytes as they appear in the input, not NUL-terminated)
// into Swift numeric types.
//
// Invariants:
// - Word loads only where `n - i` covers them; the libc copy is `count + 1` bytes; `powersOfFive` holds
//   `powersOfFiveCount` entries, written once before first use, and is indexed by `q + 342` for q in
//   -342...308 only.
// - Every entry point validates the RFC 8259 grammar `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`
//   and reads only bytes `0..<count` of the buffer it is given.
// - Integers: a value is returned only when the literal is mathematically an integer that fits the type;
//   "2.50e1" is 25, "1.5" and "1e400" are nil. Never rounds.
// - Double/Float: the result is the IEEE round-to-nearest-even value of the literal, bit-identical to
//   glibc `strtod`/`strtof`, except that a result that would overflow to ±infinity is nil. Underflow returns
//   the correctly rounded subnormal or signed zero. Float is rounded once, directly from the decimal digits.
// - Decimal: built from the literal's digits, never through a binary float; nil when the value cannot be
//   held exactly (more than 38 significant digits, or an exponent outside Decimal's range after removing
//   trailing zeros).
// - The common paths allocate nothing: plain integers, Clinger's exact fast path and the 128-bit
//   Eisel–Lemire path. Anything the fast paths cannot decide with certainty goes to libc in the C locale.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

enum NumberParsing {

    // MARK: - Grammar

    /// True when `b` is exactly one JSON number (RFC 8259), with nothing before or after it.
    static func isJSONNumber(_ b: UnsafeRawBufferPointer) -> Bool {
        let n = b.count
        if n == 0 { return false }
        var i = 0
        if b[0] == UInt8(ascii: "-") {
            i = 1
            if n == 1 { return false }
        }
        let first = b[i]
        if first == UInt8(ascii: "0") {
            i += 1
        } else if first &- 0x31 < 9 {
            i += 1
            while i < n && b[i] &- 0x30 < 10 { i += 1 }
        } else {
            return false
        }
        if i < n && b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < n && b[i] &- 0x30 < 10 { i += 1 }
            if i == start { return false }
        }
        if i < n && b[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < n && (b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-")) { i += 1 }
            let start = i
            while i < n && b[i] &- 0x30 < 10 { i += 1 }
            if i == start { return false }
        }
        return i == n
    }

    /// For lenient string-to-number conversion: strips ASCII whitespace (space, tab, CR, LF) from both ends
    /// and returns the inner slice when it is a valid JSON number (strict grammar: no '+', no hex, no
    /// leading zeros, no bare '.'), else nil.
    static func trimmedNumericLiteral(_ b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var start = 0
        var end = b.count
        while start < end && isJSONWhitespace(b[start]) { start += 1 }
        while end > start && isJSONWhitespace(b[end - 1]) { end -= 1 }
        let inner = UnsafeRawBufferPointer(rebasing: b[start..<end])
        return isJSONNumber(inner) ? inner : nil
    }

    @inline(__always)
    private static func isJSONWhitespace(_ c: UInt8) -> Bool {
        c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D
    }

    // MARK: - Integers

    /// The exact value when the literal is an integer in Int64's range ("-0", "2.0", "2.50e1", "100e-2" are
    /// accepted; "1.5", "1e400", "9223372036854775808" are nil).
    static func int64(_ b: UnsafeRawBufferPointer) -> Int64? {
        let n = b.count
        if n == 0 { return nil }
        // Fast path: optional '-' and 1...18 digits without a leading zero; 18 digits cannot overflow.
        let negative = b[0] == UInt8(ascii: "-")
        let start = negative ? 1 : 0
        let digits = n - start
        if digits >= 1 && digits <= 18 && (b[start] != UInt8(ascii: "0") || digits == 1) {
            var v: Int64 = 0
            var i = start
            while i < n {
                let d = b[i] &- 0x30
                if d >= 10 { break }
                v = v &* 10 &+ Int64(d)
                i += 1
            }
            if i == n { return negative ? -v : v }
        }
        guard let (neg, mag) = integerMagnitude(b, as: UInt64.self) else { return nil }
        if neg {
            if mag <= UInt64(Int64.max) { return -Int64(mag) }
            return mag == UInt64(Int64.max) + 1 ? Int64.min : nil
        }
        return mag <= UInt64(Int64.max) ? Int64(mag) : nil
    }

    /// The exact value when the literal is an integer in UInt64's range ("-0" is 0, "-1" is nil).
    static func uint64(_ b: UnsafeRawBufferPointer) -> UInt64? {
        let n = b.count
        if n == 0 { return nil }
        // Fast path: 1...19 digits without a leading zero; 10^19 - 1 < 2^64, so no overflow.
        if n <= 19 && (b[0] &- 0x31 < 9 || n == 1) {
            var v: UInt64 = 0
            var i = 0
            while i < n {
                let d = b[i] &- 0x30
                if d >= 10 { break }
                v = v &* 10 &+ UInt64(d)
                i += 1
            }
            if i == n { return v }
        }
        guard let (neg, mag) = integerMagnitude(b, as: UInt64.self) else { return nil }
        if neg && mag != 0 { return nil }
        return mag
    }

    /// The exact value when the literal is an integer in the range of `T`, a type of at most 128 bits, in any
    /// form ("18446744073709551616", "18446744073709551616.0", "1.8446744073709551616e19"); nil past the range.
    /// For Int128 and UInt128 (the 64-bit types have `int64`/`uint64`, with their fast paths).
    static func wideInteger<T: FixedWidthInteger>(_ b: UnsafeRawBufferPointer, as _: T.Type) -> T? {
        assert(T.bitWidth <= 128, "the magnitude is read as a UInt128")
        guard let (negative, magnitude) = integerMagnitude(b, as: UInt128.self) else { return nil }
        if !negative || magnitude == 0 { return T(exactly: magnitude) }
        // -magnitude, down to T.min (whose magnitude is T.max + 1).
        guard T.isSigned, magnitude - 1 <= UInt128(T.max) else { return nil }
        return T(truncatingIfNeeded: 0 &- magnitude)
    }

    /// Sign and magnitude of an integral literal whose magnitude fits `M`; nil if the literal is not a
    /// JSON number, has a nonzero fractional part, or is too large.
    private static func integerMagnitude<M: FixedWidthInteger & UnsignedInteger>(_ b: UnsafeRawBufferPointer,
                                                                               as _: M.Type) -> (Bool, M)? {
        guard let l = Layout(b) else { return nil }
        guard let (first, last) = l.nonzeroRange(b) else { return (l.negative, 0) }
        // value = digits[first...last] * 10^q
        let q = l.exponent + (l.intCount - 1 - last)
        if q < 0 { return nil }                       // last nonzero digit is below the units place
        let count = last - first + 1
        // At least 10^20 > UInt64.max, 10^39 > UInt128.max: too large whatever the digits.
        if count + q > (M.bitWidth == 64 ? 20 : 39) { return nil }
        var m: M = 0
        for k in first...last {
            let (a, o1) = m.multipliedReportingOverflow(by: 10)
            let (s, o2) = a.addingReportingOverflow(M(l.digit(b, k)))
            if o1 || o2 { return nil }
            m = s
        }
        var e = 0
        while e < q {
            let (a, o) = m.multipliedReportingOverflow(by: 10)
            if o { return nil }
            m = a
            e += 1
        }
        return (l.negative, m)
    }

    // MARK: - Binary floating point

    /// The correctly rounded (nearest-even) Double, identical to glibc `strtod`; nil if `b` is not a JSON
    /// number or the value overflows to infinity. Underflow yields the rounded subnormal or ±0.
    static func double(_ b: UnsafeRawBufferPointer) -> Double? {
        guard let s = DecimalScan(b) else { return nil }
        if s.w == 0 { return s.negative ? -0.0 : 0.0 }
        if !s.truncated && s.w <= 1 << 53 && s.q >= -22 && s.q <= 22 {
            // Clinger: w and 10^|q| are exact doubles, so one IEEE operation gives the rounded result.
            var d = Double(s.w)
            if s.q < 0 { d /= doublePowersOfTen[-s.q] } else { d *= doublePowersOfTen[s.q] }
            return s.negative ? -d : d
        }
        let bits: UInt64
        if let fast = fastBinaryBits(s, explicitBits: 52, bias: 1023, maxBiased: 2047, zeroBelow: -342, infAbove: 308) {
            bits = fast
        } else {
            let d = libcStrtod(b)
            if d.isInfinite { return nil }
            return d
        }
        if bits == 0x7FF0_0000_0000_0000 { return nil }
        return Double(bitPattern: bits | (s.negative ? 1 << 63 : 0))
    }

    /// The correctly rounded Float (identical to glibc `strtof`, rounded once from the decimal digits, not via
    /// Double); nil if `b` is not a JSON number or the value overflows.
    static func float(_ b: UnsafeRawBufferPointer) -> Float? {
        guard let s = DecimalScan(b) else { return nil }
        if s.w == 0 { return s.negative ? -0.0 : 0.0 }
        if !s.truncated && s.w <= 1 << 24 && s.q >= -10 && s.q <= 10 {
            // Clinger for Float: 10^10 = 2^10 * 5^10 and 5^10 < 2^24, so both operands are exact floats.
            var f = Float(s.w)
            if s.q < 0 { f /= floatPowersOfTen[-s.q] } else { f *= floatPowersOfTen[s.q] }
            return s.negative ? -f : f
        }
        let bits: UInt64
        if let fast = fastBinaryBits(s, explicitBits: 23, bias: 127, maxBiased: 255, zeroBelow: -64, infAbove: 38) {
            bits = fast
        } else {
            let f = libcStrtof(b)
            if f.isInfinite { return nil }
            return f
        }
        if bits == 0x7F80_0000 { return nil }
        return Float(bitPattern: UInt32(truncatingIfNeeded: bits) | (s.negative ? 1 << 31 : 0))
    }

    /// ``double(_:)`` for a `Double` value: nil also when the number is not zero but rounds to ±0 (`1e-400`).
    /// Out of range either way, as JSONDecoder rules: reading it as 0 would lose that it is not zero.
    /// Subnormals are kept (`5e-324`).
    @inline(__always)
    static func doubleValue(_ b: UnsafeRawBufferPointer) -> Double? {
        guard let value = double(b) else { return nil }
        return value != 0 || !isNonzero(b) ? value : nil
    }

    /// ``float(_:)`` for a `Float` value, with the rule of ``doubleValue(_:)`` (`1e-46` is out of range).
    @inline(__always)
    static func floatValue(_ b: UnsafeRawBufferPointer) -> Float? {
        guard let value = float(b) else { return nil }
        return value != 0 || !isNonzero(b) ? value : nil
    }

    /// Whether the JSON number `b` has a nonzero digit (its value is not ±0).
    static func isNonzero(_ b: UnsafeRawBufferPointer) -> Bool {
        (DecimalScan(b)?.w ?? 0) != 0
    }

    private static let doublePowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
    private static let floatPowersOfTen: [Float] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10]

    /// Significant digits of a validated literal: value = (w + f) * 10^q with 0 <= f < 1, where w holds the
    /// first (up to) 19 significant digits and f == 0 unless `truncated`.
    private struct DecimalScan {
        var w: UInt64 = 0
        var q = 0
        var negative = false
        var truncated = false

        @inline(__always)
        init?(_ b: UnsafeRawBufferPointer) {
            let n = b.count
            if n == 0 { return nil }
            var i = 0
            if b[0] == UInt8(ascii: "-") {
                negative = true
                i = 1
                if n == 1 { return nil }
            }
            var stored = 0      // significant digits held in w (at most 19: 10^19 - 1 < 2^64)
            let c = b[i]
            if c == UInt8(ascii: "0") {
                i += 1
            } else if c &- 0x31 < 9 {
                // Eight digits at a time while they fit in w, then one at a time.
                while stored <= 11 && n - i >= 8, let chunk = eightDigits(b, i) {
                    w = w &* 100_000_000 &+ chunk
                    stored += 8
                    i += 8
                }
                if stored <= 15 && n - i >= 4, let chunk = fourDigits(b, i) {
                    w = w &* 10_000 &+ chunk
                    stored += 4
                    i += 4
                }
                while i < n {
                    let d = b[i] &- 0x30
                    if d >= 10 { break }
                    if stored < 19 {
                        w = w &* 10 &+ UInt64(d)
                        stored += 1
                    } else {
                        q += 1
                        if d != 0 { truncated = true }
                    }
                    i += 1
                }
            } else {
                return nil
            }
            if i < n && b[i] == UInt8(ascii: ".") {
                i += 1
                let start = i
                if stored == 0 {
                    // Leading zeros of 0.000ddd only move q.
                    while i < n && b[i] == UInt8(ascii: "0") { i += 1 }
                    q -= i - start
                }
                while stored <= 11 && n - i >= 8, let chunk = eightDigits(b, i) {
                    w = w &* 100_000_000 &+ chunk
                    stored += 8
                    q -= 8
                    i += 8
                }
                if stored <= 15 && n - i >= 4, let chunk = fourDigits(b, i) {
                    w = w &* 10_000 &+ chunk
                    stored += 4
                    q -= 4
                    i += 4
                }
                while i < n {
                    let d = b[i] &- 0x30
                    if d >= 10 { break }
                    if stored < 19 {
                        w = w &* 10 &+ UInt64(d)
                        stored += 1
                        q -= 1
                    } else if d != 0 {
                        truncated = true
                    }
                    i += 1
                }
                if i == start { return nil }
            }
            if i < n {
                guard b[i] | 0x20 == UInt8(ascii: "e") else { return nil }
                i += 1
                guard let e = parseExponent(b, &i) else { return nil }
                q += e
            }
            if i != n { return nil }
        }
    }

    /// The value of the eight ASCII digits at `b[i..<i+8]` (caller guarantees they are in bounds), or nil if
    /// any of them is not a digit. SWAR: bytes in a little-endian UInt64, first digit in the lowest byte.
    @inline(__always)
    private static func eightDigits(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt64? {
        let v = UInt64(littleEndian: b.loadUnaligned(fromByteOffset: i, as: UInt64.self))
        // Every byte must be 0x30...0x39: high nibble 3, and adding 6 must not carry into the high nibble.
        let check = (v & 0xF0F0_F0F0_F0F0_F0F0) | (((v &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4)
        if check != 0x3333_3333_3333_3333 { return nil }
        var x = v &- 0x3030_3030_3030_3030
        // Even bytes become two-digit pairs d0d1, d2d3, d4d5, d6d7 (< 100, no carries between bytes).
        x = x &* 10 &+ (x >> 8)
        let pairs02 = x & 0x0000_00FF_0000_00FF            // d0d1 at bit 0, d4d5 at bit 32
        let pairs13 = (x >> 16) & 0x0000_00FF_0000_00FF    // d2d3 at bit 0, d6d7 at bit 32
        // High halves: d0d1 * 10^6 + d4d5 * 100 and d2d3 * 10^4 + d6d7.
        return (pairs02 &* (100 + (1_000_000 << 32)) &+ pairs13 &* (1 + (10_000 << 32))) >> 32
    }

    /// Same for four digits at `b[i..<i+4]`.
    @inline(__always)
    private static func fourDigits(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt64? {
        let v = UInt32(littleEndian: b.loadUnaligned(fromByteOffset: i, as: UInt32.self))
        let check = (v & 0xF0F0_F0F0) | (((v &+ 0x0606_0606) & 0xF0F0_F0F0) >> 4)
        if check != 0x3333_3333 { return nil }
        var x = v &- 0x3030_3030
        x = x &* 10 &+ (x >> 8)                             // d0d1 in byte 0, d2d3 in byte 2
        return UInt64((x & 0xFF) &* 100 &+ ((x >> 16) & 0xFF))
    }

    /// Parses `[+-]?[0-9]+` at `i` (just after 'e'); saturates far beyond any meaningful exponent so that
    /// adding digit counts can never overflow Int.
    @inline(__always)
    private static func parseExponent(_ b: UnsafeRawBufferPointer, _ i: inout Int) -> Int? {
        let n = b.count
        if i == n { return nil }
        var negative = false
        if b[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        } else if b[i] == UInt8(ascii: "+") {
            i += 1
        }
        let start = i
        var e = 0
        while i < n {
            let d = b[i] &- 0x30
            if d >= 10 { break }
            if e < 1_000_000_000_000 { e = e * 10 + Int(d) }
            i += 1
        }
        if i == start { return nil }
        return negative ? -e : e
    }

    /// IEEE bits (without sign) of the correctly rounded value of `s`, or nil when this path cannot decide
    /// with certainty (possible exact tie, result too close to a rounding boundary, subnormal result);
    /// the caller then asks libc. Returns the bits of +infinity on certain overflow.
    @inline(__always)
    private static func fastBinaryBits(_ s: DecimalScan, explicitBits: Int, bias: Int, maxBiased: Int,
                                       zeroBelow: Int, infAbove: Int) -> UInt64? {
        // (w + 1) <= 10^19, so for q < zeroBelow the value is below half the least subnormal: rounds to 0.
        if s.q < zeroBelow { return 0 }
        // w >= 1, so the value is at least 10^q, above the largest finite value.
        if s.q > infAbove { return UInt64(maxBiased) << explicitBits }
        guard let low = eiselLemire(s.w, s.q, explicitBits: explicitBits, bias: bias, maxBiased: maxBiased) else {
            return nil
        }
        if !s.truncated { return low }
        // Dropped digits: the true value lies in (w * 10^q, (w + 1) * 10^q); rounding is monotonic, so if both
        // ends round to the same value, so does everything between them.
        guard let high = eiselLemire(s.w + 1, s.q, explicitBits: explicitBits, bias: bias, maxBiased: maxBiased),
              high == low else { return nil }
        return low
    }

    /// Rounds w * 10^q (w != 0, q within the table) to `explicitBits + 1` significant bits using a 128-bit
    /// truncated approximation T of 5^q * 2^shift. The 192-bit product w * T, truncated to 128 bits, is at
    /// most 2 units (of its last bit) below the exact w * 5^q * 2^shift, so the rounding decision is certain
    /// unless the discarded bits are within that distance of a boundary; those cases return nil.
    @inline(__always)
    static func eiselLemire(_ w0: UInt64, _ q: Int, explicitBits: Int, bias: Int, maxBiased: Int) -> UInt64? {
        assert(q >= -powersOfFiveMinExponent && q <= powersOfFiveMaxExponent, "10^q outside the powers-of-five table")
        let entry = powersOfFive[q + powersOfFiveMinExponent]
        let lz = w0.leadingZeroBitCount
        let w = w0 << UInt64(lz)
        let (h1, _) = w.multipliedFullWidth(by: entry.lo)
        let (h2, l2) = w.multipliedFullWidth(by: entry.hi)
        let (lo, carry) = l2.addingReportingOverflow(h1)
        let hi = h2 &+ (carry ? 1 : 0)
        // w >= 2^63 and T >= 2^127, so the product is >= 2^190: the top bit of hi is bit 62 or 63.
        let upper = Int(hi >> 63)
        let shift = 62 + upper - (explicitBits + 1)           // keep explicitBits + 2 bits (incl. round bit)
        let lowMask = (UInt64(1) << UInt64(shift)) &- 1
        let rest = hi & lowMask
        // The exact value may carry into the kept bits.
        if rest == lowMask && lo >= UInt64.max - 1 { return nil }
        var m = hi >> UInt64(shift)
        // Round bit set and nothing visible below it: possibly an exact tie, where even-ness decides.
        if m & 1 == 1 && rest == 0 && lo == 0 && m & 2 == 0 { return nil }
        m = (m + 1) >> 1
        // value = w0 * 5^q * 2^q = (w * T) * 2^(q - lz - shift_q); the leading bit of w * T is 190 + upper.
        var biased = 190 + upper + q - lz - Int(entry.shift) + bias
        if m == UInt64(1) << UInt64(explicitBits + 1) {
            m >>= 1
            biased += 1
        }
        if biased >= maxBiased { return UInt64(maxBiased) << UInt64(explicitBits) }
        if biased <= 0 { return nil }
        return UInt64(biased) << UInt64(explicitBits) | (m & ((UInt64(1) << UInt64(explicitBits)) &- 1))
    }

    // MARK: - libc fallback (C locale, NUL-terminated copy)

    /// A C locale for the fallback conversions, created once. strtod/strtof use the thread's locale, so the
    /// calls below switch this thread to it with `uselocale` and switch back; other threads are unaffected.
    nonisolated(unsafe) private static let cLocale: locale_t? = newlocale(LC_NUMERIC_MASK | LC_CTYPE_MASK, "C", nil)

    private static func withCLiteral<R>(_ b: UnsafeRawBufferPointer, _ body: (UnsafePointer<CChar>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: b.count + 1) { buf in
            let base = buf.baseAddress!
            if let src = b.baseAddress, b.count > 0 {
                UnsafeMutableRawPointer(base).copyMemory(from: src, byteCount: b.count)
            }
            base[b.count] = 0
            let previous: locale_t? = cLocale.flatMap { uselocale($0) }
            defer { if let previous { _ = uselocale(previous) } }
            return body(base)
        }
    }

    private static func libcStrtod(_ b: UnsafeRawBufferPointer) -> Double {
        withCLiteral(b) { strtod($0, nil) }
    }

    private static func libcStrtof(_ b: UnsafeRawBufferPointer) -> Float {
        withCLiteral(b) { strtof($0, nil) }
    }

    // MARK: - Powers of five

    /// T = floor(5^q * 2^shift) normalized so that 2^127 <= T < 2^128 (T = hi * 2^64 + lo).
    struct PowerOfFive: Equatable {
        var hi: UInt64
        var lo: UInt64
        var shift: Int32
    }

    static let powersOfFiveMinExponent = 342
    static let powersOfFiveMaxExponent = 308

    /// Entries for q in -342...308, computed once with exact big-integer arithmetic. Kept in a never-freed
    /// allocation so that lookups on the hot path involve no reference counting; immutable after creation.
    nonisolated(unsafe) static let powersOfFive: UnsafePointer<PowerOfFive> = {
        let table = makePowersOfFive()
        let storage = UnsafeMutablePointer<PowerOfFive>.allocate(capacity: table.count)
        storage.initialize(from: table, count: table.count)
        return UnsafePointer(storage)
    }()
    static let powersOfFiveCount = powersOfFiveMinExponent + powersOfFiveMaxExponent + 1

    private static func makePowersOfFive() -> [PowerOfFive] {
        var table: [PowerOfFive] = []
        table.reserveCapacity(powersOfFiveMinExponent + powersOfFiveMaxExponent + 1)
        // Negative q: T = floor(2^(L + 127) / 5^n) with L the bit length of 5^n, n = -q.
        var p: [UInt32] = [1]
        var negatives: [PowerOfFive] = []
        for _ in 1...powersOfFiveMinExponent {
            BigNat.multiply(&p, by: 5)
            negatives.append(reciprocalEntry(p))
        }
        table.append(contentsOf: negatives.reversed())
        // q >= 0: the leading 128 bits of 5^q.
        p = [1]
        for _ in 0...powersOfFiveMaxExponent {
            let length = BigNat.bitLength(p)
            var hi: UInt64 = 0
            var lo: UInt64 = 0
            for j in 0..<64 {
                hi = hi << 1 | BigNat.bit(p, length - 1 - j)
                lo = lo << 1 | BigNat.bit(p, length - 65 - j)
            }
            table.append(PowerOfFive(hi: hi, lo: lo, shift: Int32(128 - length)))
            BigNat.multiply(&p, by: 5)
        }
        return table
    }

    private static func reciprocalEntry(_ d: [UInt32]) -> PowerOfFive {
        let length = BigNat.bitLength(d)
        // 2^(L-1) < d < 2^L, so the quotient's top bit (bit 127) is 1 and the remainder starts as 2^L - d.
        var r = [UInt32](repeating: 0, count: d.count + 1)
        r[length / 32] = 1 << UInt32(length % 32)
        BigNat.subtract(&r, d)
        var hi: UInt64 = 0
        var lo: UInt64 = 1
        for _ in 0..<127 {
            BigNat.shiftLeftOne(&r)
            hi = hi << 1 | lo >> 63
            lo <<= 1
            if BigNat.compare(r, d) >= 0 {
                BigNat.subtract(&r, d)
                lo |= 1
            }
        }
        return PowerOfFive(hi: hi, lo: lo, shift: Int32(length + 127))
    }

    /// Minimal little-endian natural-number arithmetic, used only to build the table.
    private enum BigNat {
        static func multiply(_ a: inout [UInt32], by m: UInt32) {
            var carry: UInt64 = 0
            for k in a.indices {
                let t = UInt64(a[k]) * UInt64(m) + carry
                a[k] = UInt32(truncatingIfNeeded: t)
                carry = t >> 32
            }
            if carry != 0 { a.append(UInt32(carry)) }
        }

        static func bitLength(_ a: [UInt32]) -> Int {
            var k = a.count - 1
            while k > 0 && a[k] == 0 { k -= 1 }
            return k * 32 + (32 - a[k].leadingZeroBitCount)
        }

        static func bit(_ a: [UInt32], _ index: Int) -> UInt64 {
            if index < 0 || index / 32 >= a.count { return 0 }
            return UInt64(a[index / 32] >> UInt32(index % 32) & 1)
        }

        /// a -= b, requires a >= b and a.count >= b.count.
        static func subtract(_ a: inout [UInt32], _ b: [UInt32]) {
            var borrow: Int64 = 0
            for k in a.indices {
                var t = Int64(a[k]) - borrow - (k < b.count ? Int64(b[k]) : 0)
                if t < 0 {
                    t += 1 << 32
                    borrow = 1
                } else {
                    borrow = 0
                }
                a[k] = UInt32(t)
            }
        }

        static func shiftLeftOne(_ a: inout [UInt32]) {
            var carry: UInt32 = 0
            for k in a.indices {
                let v = a[k]
                a[k] = v << 1 | carry
                carry = v >> 31
            }
        }

        static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
            var k = max(a.count, b.count) - 1
            while k >= 0 {
                let x = k < a.count ? a[k] : 0
                let y = k < b.count ? b[k] : 0
                if x != y { return x < y ? -1 : 1 }
                k -= 1
            }
            return 0
        }
    }

    // MARK: - Decimal

    /// The exact Decimal of the literal (trailing zeros normalized away). nil if `b` is not a JSON number or
    /// Decimal cannot hold the value exactly: more than 38 significant digits, or an exponent outside
    /// -128...127 once trailing zeros are removed (e.g. "1e400", "1e-200").
    static func decimal(_ b: UnsafeRawBufferPointer) -> Decimal? {
        guard let l = Layout(b) else { return nil }
        guard let (first, last) = l.nonzeroRange(b) else { return Decimal() }   // +0 ("-0" too: -0 is NaN in Decimal)
        let count = last - first + 1
        if count > 39 { return nil }
        var q = l.exponent + (l.intCount - 1 - last)
        // The significand exactly, in 128 bits (Decimal's mantissa size).
        var significand: UInt128 = 0
        for j in 0..<count {
            let (times10, o1) = significand.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt128(l.digit(b, first + j)))
            if o1 || o2 { return nil }
            significand = sum
        }
        // An exponent above Decimal's range may still fit by moving trailing zeros back into the significand.
        while q > 127 {
            let (times10, overflow) = significand.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            significand = times10
            q -= 1
        }
        if q < -128 { return nil }
        // Decimal from the 128-bit significand: high * 2^64 + low, exact below 2^128.
        var value = Decimal(UInt64(truncatingIfNeeded: significand))
        let high = UInt64(truncatingIfNeeded: significand >> 64)
        if high != 0 {
            var h = Decimal(high)
            var twoTo64 = NumberParsing.twoTo64
            var product = Decimal()
            guard NSDecimalMultiply(&product, &h, &twoTo64, .plain) == .noError else { return nil }
            var low = value
            guard NSDecimalAdd(&value, &product, &low, .plain) == .noError else { return nil }
        }
        let result = Decimal(sign: l.negative ? .minus : .plus, exponent: q, significand: value)
        if result.isNaN || result.isZero {
            // Foundation compacts trailing zeros out of `value`, which can push the exponent past 127 for
            // values Decimal can hold only uncompacted (`951356538038340277092100000000000000000e127`);
            // its own parser builds those. The literal fits 128 bits (checked above), so this is exact.
            guard q > 0, let parsed = Decimal(string: String(decoding: b, as: UTF8.self)), parsed.isFinite else { return nil }
            return parsed
        }
        return result
    }

    private static let twoTo64 = Decimal(UInt64.max) + 1

    /// Positions of the parts of a validated literal (slow paths: integers with fraction/exponent, Decimal).
    private struct Layout {
        var negative = false
        var intStart = 0
        var intCount = 0
        var fracStart = 0
        var fracCount = 0
        var exponent = 0

        init?(_ b: UnsafeRawBufferPointer) {
            let n = b.count
            if n == 0 { return nil }
            var i = 0
            if b[0] == UInt8(ascii: "-") {
                negative = true
                i = 1
                if n == 1 { return nil }
            }
            intStart = i
            if b[i] == UInt8(ascii: "0") {
                i += 1
            } else if b[i] &- 0x31 < 9 {
                i += 1
                while i < n && b[i] &- 0x30 < 10 { i += 1 }
            } else {
                return nil
            }
            intCount = i - intStart
            if i < n && b[i] == UInt8(ascii: ".") {
                i += 1
                fracStart = i
                while i < n && b[i] &- 0x30 < 10 { i += 1 }
                fracCount = i - fracStart
                if fracCount == 0 { return nil }
            }
            if i < n {
                guard b[i] | 0x20 == UInt8(ascii: "e") else { return nil }
                i += 1
                guard let e = NumberParsing.parseExponent(b, &i) else { return nil }
                exponent = e
            }
            if i != n { return nil }
        }

        /// Digit k of the integer digits followed by the fraction digits; digit k weighs 10^(intCount-1-k+exponent).
        @inline(__always)
        func digit(_ b: UnsafeRawBufferPointer, _ k: Int) -> UInt8 {
            (k < intCount ? b[intStart + k] : b[fracStart + k - intCount]) &- 0x30
        }

        /// Indices of the first and last nonzero digit, or nil when the value is zero.
        func nonzeroRange(_ b: UnsafeRawBufferPointer) -> (Int, Int)? {
            let total = intCount + fracCount
            var first = 0
            while first < total && digit(b, first) == 0 { first += 1 }
            if first == total { return nil }
            var last = total - 1
            while digit(b, last) == 0 { last -= 1 }
            return (first, last)
        }
    }
}
