// Unsafe code: the string escaper reads UTF-8 through a raw base address, eight bytes at a time.
//
// Invariants: `appendEscaped` reads only `utf8[0..<count]` (a word load only when `i + 8 <= count`, a byte
// only when `i < count`) and appends only runs inside it; `writeEscape` writes at most 6 bytes at `out + o`
// (its callers provide the room); `literal` reads exactly a static string's bytes.

/// Appends JSON text to a byte buffer: strings escaped per RFC 8259, numbers as literal text, and the
/// layout (`prettyPrinted`) handled in one place for values and models alike.
struct JSONWriter {
    /// What the writer needs of the encoding options (`EncodingOptions` in the API maps onto it).
    struct Layout {
        var prettyPrinted = false
        var sortedKeys = false
        var escapesSlashes = false
    }

    var bytes: [UInt8] = []
    let layout: Layout
    private let pretty: Bool
    private var indent = 0

    init(layout: Layout, capacity: Int = 256) {
        self.layout = layout
        pretty = layout.prettyPrinted
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        indent += 1
    }

    /// Closes an object; `empty` when no member was written.
    mutating func endObject(empty: Bool) {
        indent -= 1
        if pretty && !empty { newline() }
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        indent += 1
    }

    mutating func endArray(empty: Bool) {
        indent -= 1
        if pretty && !empty { newline() }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Starts an array element; `first` for the first one.
    @inline(__always)
    mutating func element(first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        if pretty { newline() }
    }

    /// Writes a member's key and colon; `first` for the first member.
    @inline(__always)
    mutating func key(_ key: String, first: Bool) {
        element(first: first)
        string(key)
        nameSeparator()
    }

    /// The colon after a member's key (` : ` when pretty-printing).
    @inline(__always)
    private mutating func nameSeparator() {
        if pretty {
            bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: ":")); bytes.append(UInt8(ascii: " "))
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
    }

    /// Writes a key given as pre-escaped bytes including quotes.
    @inline(__always)
    mutating func key(escaped: [UInt8], first: Bool) {
        element(first: first)
        bytes.append(contentsOf: escaped)
        nameSeparator()
    }

    /// Writes a key given as pre-escaped bytes including quotes.
    @inline(__always)
    mutating func key(escaped: UnsafeBufferPointer<UInt8>, first: Bool) {
        element(first: first)
        bytes.append(contentsOf: escaped)
        nameSeparator()
    }

    /// Where the output is (its length and nesting), to go back to with `reset(to:)`.
    struct Mark {
        fileprivate let count: Int
        fileprivate let indent: Int
    }

    var mark: Mark { Mark(count: bytes.count, indent: indent) }

    /// Drops what was written after `mark`.
    mutating func reset(to mark: Mark) {
        bytes.removeSubrange(mark.count...)
        indent = mark.indent
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: " ")) }
    }

    // MARK: Scalars

    mutating func null() { literal("null") }

    mutating func bool(_ value: Bool) {
        if value { literal("true") } else { literal("false") }
    }

    /// Appends static ASCII text (no array literal built per call).
    @inline(__always)
    private mutating func literal(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends ASCII literal text (numbers).
    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A finite number as its `description` (the shortest text that reads back as `value`), without a
    /// String: the standard library writes its digits into the sink. `dropsPointZero`: JSONEncoder's form,
    /// `2.0` written `2`.
    @inline(__always)
    mutating func number<F: BinaryFloatingPoint & TextOutputStreamable>(_ value: F, dropsPointZero: Bool) {
        var sink = NumberSink()
        swap(&sink.bytes, &bytes)
        let start = sink.bytes.count
        value.write(to: &sink)
        swap(&sink.bytes, &bytes)
        let n = bytes.count
        if dropsPointZero && n - start > 2 && bytes[n - 2] == UInt8(ascii: ".") && bytes[n - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
        }
    }

    private struct NumberSink: TextOutputStream {
        var bytes: [UInt8] = []
        mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }
        // The standard library writes numbers through this (ASCII, no String built).
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
    }

    mutating func integer<I: BinaryInteger>(_ value: I) {
        raw(String(value))
    }

    /// Integers up to 64 bits, formatted into a stack buffer (no String built).
    @inline(__always)
    mutating func integer<I: FixedWidthInteger>(_ value: I) {
        guard I.bitWidth <= 64 else { return raw(String(value)) }
        decimal(UInt64(truncatingIfNeeded: value.magnitude), negative: value < 0)
    }

    private mutating func decimal(_ magnitude: UInt64, negative: Bool) {
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)        // 24 bytes: a sign and 20 digits fit
        withUnsafeMutableBytes(of: &buffer) { p in
            var m = magnitude
            var i = 24
            repeat {
                let (q, r) = m.quotientAndRemainder(dividingBy: 10)
                i -= 1
                p[i] = UInt8(truncatingIfNeeded: r) &+ 0x30
                m = q
            } while m != 0
            if negative {
                i -= 1
                p[i] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: p[i..<24]))
        }
    }

    /// A quoted, escaped string.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in JSONWriter.appendEscaped(utf8, to: &bytes, escapeSlashes: layout.escapesSlashes) }
    }

    static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8], escapeSlashes: Bool) {
        bytes.append(UInt8(ascii: "\""))
        guard let base = utf8.baseAddress else {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        let count = utf8.count
        var runStart = 0
        var i = 0
        while true {
            // Fast path: skip 8 bytes at a time while none of them needs escaping; on a hit, stop at the
            // first byte that does (the lowest flagged byte is exact).
            while i &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let flagged = escapeMask(word, escapeSlashes: escapeSlashes)
                if flagged != 0 {
                    i &+= flagged.trailingZeroBitCount >> 3
                    assert(i < count, "an escape found past the string")
                    break
                }
                i &+= 8
            }
            // The tail (and the byte found above): one at a time up to the next byte to escape.
            while i < count && !needsEscape(base[i], escapeSlashes: escapeSlashes) { i &+= 1 }
            if i >= count { break }
            assert(runStart <= i && i < count, "an escaped run outside the string")
            if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: i &- runStart)) }
            appendEscape(base[i], to: &bytes)
            i &+= 1
            runStart = i
        }
        if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(start: base + runStart, count: count &- runStart)) }
        bytes.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    static func needsEscape(_ byte: UInt8, escapeSlashes: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapeSlashes && byte == UInt8(ascii: "/"))
    }

    /// High bit set in (at least) the lowest byte of `word` that needs escaping; zero when none does.
    @inline(__always)
    static func escapeMask(_ word: UInt64, escapeSlashes: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        var mask = ((word &- ones &* 0x20) & ~word & highs)           // bytes < 0x20
            | zeroBytes(word ^ (ones &* 0x22))                         // '"'
            | zeroBytes(word ^ (ones &* 0x5C))                         // '\\'
        if escapeSlashes { mask |= zeroBytes(word ^ (ones &* 0x2F)) }  // '/'
        return mask
    }

    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6) { escape in
            let count = writeEscape(byte, to: escape.baseAddress!, at: 0)
            bytes.append(contentsOf: UnsafeBufferPointer(start: escape.baseAddress!, count: count))
        }
    }

    /// Writes the escape of `byte` (2 or 6 bytes, JSONEncoder's spelling) at `out + o`, which must have room
    /// for 6; returns the new length. The one place the escape sequences are spelled.
    @inline(__always)
    static func writeEscape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>, at o: Int) -> Int {
        let escaped: UInt8
        switch byte {
        case UInt8(ascii: "\""): escaped = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): escaped = UInt8(ascii: "/")
        case 0x08: escaped = UInt8(ascii: "b")
        case 0x0C: escaped = UInt8(ascii: "f")
        case 0x0A: escaped = UInt8(ascii: "n")
        case 0x0D: escaped = UInt8(ascii: "r")
        case 0x09: escaped = UInt8(ascii: "t")
        default:
            // \u00XX with lowercase hex digits (as JSONEncoder writes them).
            @inline(__always) func hex(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 &+ v : 0x57 &+ v }
            out[o] = UInt8(ascii: "\\")
            out[o &+ 1] = UInt8(ascii: "u")
            out[o &+ 2] = UInt8(ascii: "0")
            out[o &+ 3] = UInt8(ascii: "0")
            out[o &+ 4] = hex(byte >> 4)
            out[o &+ 5] = hex(byte & 0xF)
            return o &+ 6
        }
        out[o] = UInt8(ascii: "\\")
        out[o &+ 1] = escaped
        return o &+ 2
    }
}
