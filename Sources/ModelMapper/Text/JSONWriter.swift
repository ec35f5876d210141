// Unsafe code: the writer appends into a malloc'd buffer through its raw address, and the string escaper
// reads UTF-8 through a raw base address, eight bytes at a time.
//
// Invariants: `count <= capacity`, and `base` addresses `capacity` allocated bytes of which the first `count`
// are the output; every write is preceded by `reserve(n)` for at least the bytes it writes (word stores of
// the escaper included). `OutputBuffer` owns the allocation (frees it when the last writer copy goes) and
// holds the same address as the writer: a writer is used through one variable (`EncodeContext.writer`, a
// local); a copy of a writer is never written after another copy has grown the buffer (`reserve` asserts
// the addresses agree). `takeData()` hands the allocation to `Data` and leaves the writer empty.
// `string(utf8:escapeSlashes:)` reads only `utf8[0..<count]` (a word load only when `i + 8 <= count`, a byte only when
// `i < count`); `writeEscape` writes at most 6 bytes at `out + o` (its callers reserve the room); `literal`
// reads exactly a static string's bytes.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Owns a writer's output allocation (malloc'd, so that `Data` can take it over without a copy).
final class OutputBuffer {
    var base: UnsafeMutablePointer<UInt8>?

    init(capacity: Int) {
        base = malloc(max(capacity, 16))?.assumingMemoryBound(to: UInt8.self)
        precondition(base != nil, "out of memory")
    }

    deinit { free(base) }
}

/// Appends JSON text to a byte buffer: strings escaped per RFC 8259, numbers as literal text, and the
/// layout (`prettyPrinted`) handled in one place for values and models alike.
struct JSONWriter {
    /// What the writer needs of the encoding options (`EncodingOptions` in the API maps onto it).
    struct Layout {
        var prettyPrinted = false
        var sortedKeys = false
        var escapesSlashes = false
    }

    private let buffer: OutputBuffer
    /// The buffer's address and size, kept here so that a write touches no class instance.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0
    let layout: Layout
    private let pretty: Bool
    private var indent = 0

    init(layout: Layout, capacity: Int = 256) {
        self.layout = layout
        pretty = layout.prettyPrinted
        let capacity = max(capacity, 16)
        buffer = OutputBuffer(capacity: capacity)
        base = buffer.base!
        self.capacity = capacity
    }

    // MARK: Output

    /// A copy of the output.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Calls `body` with the output (valid only during the call).
    func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The output as `Data`, which takes over the buffer (no copy).
    consuming func takeData() -> Data {
        assert(buffer.base == base, "a stale copy of a writer")
        guard count > 0 else { return Data() }
        var address = base
        // Give back a large unused tail (more than a quarter of the buffer).
        if capacity - count > capacity / 4, let shrunk = realloc(base, count) {
            address = shrunk.assumingMemoryBound(to: UInt8.self)
        }
        buffer.base = nil
        return Data(bytesNoCopy: address, count: count, deallocator: .free)
    }

    /// Makes room for `n` more bytes.
    @inline(__always)
    mutating func reserve(_ n: Int) {
        assert(buffer.base == base, "a stale copy of a writer")
        if _slowPath(capacity &- count < n) { grow(n) }
    }

    @inline(never)
    private mutating func grow(_ n: Int) {
        let needed = count + n
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        guard let grown = realloc(base, newCapacity) else { preconditionFailure("out of memory") }
        base = grown.assumingMemoryBound(to: UInt8.self)
        buffer.base = base
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    /// Appends bytes as they are.
    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        let n = bytes.count
        guard n > 0 else { return }
        reserve(n)
        (base + count).update(from: bytes.baseAddress!, count: n)
        count &+= n
    }

    /// Appends bytes as they are.
    @inline(__always)
    mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Appends bytes as they are.
    mutating func append(contentsOf bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(contentsOf: $0) }
    }

    // MARK: Structure

    mutating func beginObject() {
        append(UInt8(ascii: "{"))
        indent += 1
    }

    /// Closes an object; `empty` when no member was written.
    mutating func endObject(empty: Bool) {
        indent -= 1
        if pretty && !empty { newline() }
        append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        append(UInt8(ascii: "["))
        indent += 1
    }

    mutating func endArray(empty: Bool) {
        indent -= 1
        if pretty && !empty { newline() }
        append(UInt8(ascii: "]"))
    }

    /// Starts an array element; `first` for the first one.
    @inline(__always)
    mutating func element(first: Bool) {
        if !first { append(UInt8(ascii: ",")) }
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
    mutating func nameSeparator() {
        if pretty {
            literal(" : ")
        } else {
            append(UInt8(ascii: ":"))
        }
    }

    /// Writes a key given as pre-escaped bytes including quotes.
    @inline(__always)
    mutating func key(escaped: [UInt8], first: Bool) {
        element(first: first)
        append(contentsOf: escaped)
        nameSeparator()
    }

    /// Writes a key given as pre-escaped bytes including quotes.
    @inline(__always)
    mutating func key(escaped: UnsafeBufferPointer<UInt8>, first: Bool) {
        element(first: first)
        append(contentsOf: escaped)
        nameSeparator()
    }

    /// Whether members and elements are laid out on lines (then keys go through ``key(escaped:first:)``).
    var isPretty: Bool { pretty }

    /// Where the output is (its length and nesting), to go back to with `reset(to:)`.
    struct Mark {
        fileprivate let count: Int
        fileprivate let indent: Int
    }

    var mark: Mark { Mark(count: count, indent: indent) }

    /// Drops what was written after `mark`.
    mutating func reset(to mark: Mark) {
        assert(mark.count <= count, "a mark past the output")
        count = mark.count
        indent = mark.indent
    }

    private mutating func newline() {
        let n = 1 + 2 * indent
        reserve(n)
        base[count] = UInt8(ascii: "\n")
        (base + count + 1).update(repeating: UInt8(ascii: " "), count: n - 1)
        count &+= n
    }

    // MARK: Scalars

    mutating func null() { literal("null") }

    mutating func bool(_ value: Bool) {
        if value { literal("true") } else { literal("false") }
    }

    /// Appends static ASCII text (no array literal built per call).
    @inline(__always)
    private mutating func literal(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends ASCII literal text (numbers).
    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// A finite number as its `description` (the shortest text that reads back as `value`), without a
    /// String: the standard library writes its digits into the sink. `dropsPointZero`: JSONEncoder's form,
    /// `2.0` written `2`.
    @inline(__always)
    mutating func number<F: BinaryFloatingPoint & TextOutputStreamable>(_ value: F, dropsPointZero: Bool) {
        var sink = NumberSink()
        value.write(to: &sink)
        var n = sink.count
        withUnsafeBytes(of: &sink.digits) { digits in
            if dropsPointZero && n > 2 && digits[n - 2] == UInt8(ascii: ".") && digits[n - 1] == UInt8(ascii: "0") { n -= 2 }
            append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[0..<n]))
        }
    }

    /// Receives a number's text from the standard library: at most 32 bytes (`description` of a Double
    /// or Float is at most 24), longer text is cut, which the assertion catches.
    private struct NumberSink: TextOutputStream {
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0
        mutating func write(_ string: String) {
            var string = string
            string.withUTF8 { _writeASCII($0) }
        }
        // The standard library writes numbers through this (ASCII, no String built).
        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            assert(count + buffer.count <= 32, "number text longer than 32 bytes")
            let n = min(buffer.count, 32 - count)
            guard n > 0 else { return }
            let start = count
            withUnsafeMutableBytes(of: &digits) { d in
                d.baseAddress!.advanced(by: start).copyMemory(from: buffer.baseAddress!, byteCount: n)
            }
            count += n
        }
    }

    mutating func integer<I: BinaryInteger>(_ value: I) {
        raw(String(value))
    }

    /// Integers up to 64 bits, formatted straight into the output (no String built).
    @inline(__always)
    mutating func integer<I: FixedWidthInteger>(_ value: I) {
        guard I.bitWidth <= 64 else { return raw(String(value)) }
        decimal(UInt64(truncatingIfNeeded: value.magnitude), negative: value < 0)
    }

    /// Two ASCII digits for each value below 100.
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    private mutating func decimal(_ magnitude: UInt64, negative: Bool) {
        // Digits: count first, then written backwards two at a time.
        var digits = 1
        var m = magnitude
        while m >= 10_000 { m /= 10_000; digits &+= 4 }
        if m >= 100 { digits &+= m >= 1000 ? 3 : 2 } else if m >= 10 { digits &+= 1 }
        let length = digits &+ (negative ? 1 : 0)
        reserve(length)
        let out = base + count
        if negative { out[0] = UInt8(ascii: "-") }
        let pairs = JSONWriter.digitPairs.utf8Start
        var end = length
        m = magnitude
        while m >= 100 {
            let (q, r) = m.quotientAndRemainder(dividingBy: 100)
            let r2 = Int(truncatingIfNeeded: r) &* 2
            out[end &- 1] = pairs[r2 &+ 1]
            out[end &- 2] = pairs[r2]
            end &-= 2
            m = q
        }
        if m >= 10 {
            let r2 = Int(truncatingIfNeeded: m) &* 2
            out[end &- 1] = pairs[r2 &+ 1]
            out[end &- 2] = pairs[r2]
        } else {
            out[end &- 1] = UInt8(truncatingIfNeeded: m) &+ 0x30
        }
        count &+= length
    }

    // MARK: Strings

    /// A quoted, escaped string.
    @inline(__always)
    mutating func string(_ value: String) {
        string(value, escapeSlashes: layout.escapesSlashes)
    }

    /// A quoted, escaped string, `/` escaped or not whatever the layout says.
    @inline(__always)
    mutating func string(_ value: String, escapeSlashes: Bool) {
        if let done: Void = value.utf8.withContiguousStorageIfAvailable({ utf8 in
            string(utf8: utf8, escapeSlashes: escapeSlashes)
        }) {
            return done
        }
        var value = value
        value.withUTF8 { string(utf8: $0, escapeSlashes: escapeSlashes) }
    }

    /// `"utf8"`, escaped: runs without a byte to escape are copied eight bytes at a time while they are
    /// scanned (a word is stored before it is checked; on a hit only the bytes before the flagged one
    /// count).
    mutating func string(utf8: UnsafeBufferPointer<UInt8>, escapeSlashes: Bool) {
        let length = utf8.count
        // The quotes, the text, and slack for one whole-word store past the end.
        reserve(length &+ 10)
        base[count] = UInt8(ascii: "\"")
        var o = count &+ 1
        guard let src = utf8.baseAddress else {
            base[o] = UInt8(ascii: "\"")
            count = o &+ 1
            return
        }
        var i = 0
        while true {
            while i &+ 8 <= length {
                let word = UnsafeRawPointer(src + i).loadUnaligned(as: UInt64.self)
                UnsafeMutableRawPointer(base + o).storeBytes(of: word, as: UInt64.self)
                let flagged = JSONWriter.escapeMask(UInt64(littleEndian: word), escapeSlashes: escapeSlashes)
                if flagged != 0 {
                    let k = flagged.trailingZeroBitCount >> 3
                    i &+= k
                    o &+= k
                    break
                }
                i &+= 8
                o &+= 8
            }
            // The tail (and the byte found above): one at a time up to the next byte to escape.
            while i < length && !JSONWriter.needsEscape(src[i], escapeSlashes: escapeSlashes) {
                base[o] = src[i]
                i &+= 1
                o &+= 1
            }
            if i >= length { break }
            assert(i < length, "an escape past the string")
            // An escape adds at most 5 bytes over its source byte: room for it and what remains.
            count = o
            reserve(length &- i &+ 5 &+ 10)
            o = JSONWriter.writeEscape(src[i], to: base, at: o)
            i &+= 1
        }
        base[o] = UInt8(ascii: "\"")
        count = o &+ 1
        assert(count <= capacity, "the escaper wrote past the buffer")
    }

    /// Appends `"utf8"`, escaped, to `bytes` (for text escaped once, such as a plan's keys).
    static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8], escapeSlashes: Bool) {
        var writer = JSONWriter(layout: Layout(), capacity: utf8.count + 16)
        writer.string(utf8: utf8, escapeSlashes: escapeSlashes)
        writer.withBytes { bytes.append(contentsOf: $0) }
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
