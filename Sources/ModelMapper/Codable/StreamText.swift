// Unsafe code: JSON strings assembled in a stack buffer before they are appended to the output.
//
// Each `Array.append(contentsOf:)` costs far more than the bytes it copies, and a string with escapes
// (JSONEncoder escapes `/` by default: every URL has several) would take one per run and per escape. Here
// the quoted, escaped text goes into a 256-byte stack buffer and reaches the output in one append per
// buffer full.
//
// Invariants:
// - `buffer` holds `capacity` bytes; `o` (bytes used) never exceeds it: a run is copied only when it fits
//   (the buffer is flushed first, and a run longer than the buffer is appended directly), and an escape
//   (at most 6 bytes) or the closing quote only after checking that it fits.
// - Reads of the source stay below `count`: whole 8-byte words only while `i + 8 <= count`, single bytes
//   while `i < count`.

enum StreamText {
    private static let capacity = 256

    /// Appends `"text"`, escaped as JSONEncoder escapes it (the same as `JSONWriter.string`).
    static func appendQuoted(_ text: String, to bytes: inout [UInt8], escapeSlashes: Bool) {
        var text = text
        text.withUTF8 { appendQuoted($0, to: &bytes, escapeSlashes: escapeSlashes) }
    }

    static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8], escapeSlashes: Bool) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let out = buffer.baseAddress!
            let count = utf8.count
            var o = 0
            out[0] = UInt8(ascii: "\"")
            o = 1
            guard let src = utf8.baseAddress, count > 0 else {
                out[1] = UInt8(ascii: "\"")
                bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: 2))
                return
            }
            var i = 0
            while i < count {
                // The run up to the next byte to escape.
                var j = i
                var found = false
                while j &+ 8 <= count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(src + j).loadUnaligned(as: UInt64.self))
                    let flagged = escapeMask(word, escapeSlashes: escapeSlashes)
                    if flagged != 0 {
                        j &+= flagged.trailingZeroBitCount >> 3
                        found = true
                        break
                    }
                    j &+= 8
                }
                if !found {
                    while j < count && !needsEscape(src[j], escapeSlashes: escapeSlashes) { j &+= 1 }
                }
                let run = j &- i
                if run > 0 {
                    if o &+ run > capacity {
                        bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: o))
                        o = 0
                    }
                    if run > capacity {
                        bytes.append(contentsOf: UnsafeBufferPointer(start: src + i, count: run))
                    } else {
                        (out + o).update(from: src + i, count: run)
                        o &+= run
                    }
                }
                if j < count {
                    if o &+ 6 > capacity {
                        bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: o))
                        o = 0
                    }
                    o = writeEscape(src[j], to: out, at: o)
                    j &+= 1
                }
                i = j
            }
            if o &+ 1 > capacity {
                bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: o))
                o = 0
            }
            assert(o < capacity, "the stack buffer overflows")
            out[o] = UInt8(ascii: "\"")
            bytes.append(contentsOf: UnsafeBufferPointer(start: out, count: o &+ 1))
        }
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8, escapeSlashes: Bool) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (escapeSlashes && byte == UInt8(ascii: "/"))
    }

    /// High bit set in (at least) the lowest byte of `word` that needs escaping; zero when none does.
    @inline(__always)
    private static func escapeMask(_ word: UInt64, escapeSlashes: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
        var mask = ((word &- ones &* 0x20) & ~word & highs)           // bytes < 0x20
            | zeroBytes(word ^ (ones &* 0x22))                         // '"'
            | zeroBytes(word ^ (ones &* 0x5C))                         // '\\'
        if escapeSlashes { mask |= zeroBytes(word ^ (ones &* 0x2F)) }  // '/'
        return mask
    }

    /// Writes the escape of `byte` (2 or 6 bytes) at `out + o`; returns the new length.
    @inline(__always)
    private static func writeEscape(_ byte: UInt8, to out: UnsafeMutablePointer<UInt8>, at o: Int) -> Int {
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
