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

    /// Appends `"text"`, escaped as JSONEncoder escapes it, with `JSONWriter`'s escape rules (only the buffering is here).
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
                    let flagged = JSONWriter.escapeMask(word, escapeSlashes: escapeSlashes)
                    if flagged != 0 {
                        j &+= flagged.trailingZeroBitCount >> 3
                        found = true
                        break
                    }
                    j &+= 8
                }
                if !found {
                    while j < count && !JSONWriter.needsEscape(src[j], escapeSlashes: escapeSlashes) { j &+= 1 }
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
                    o = JSONWriter.writeEscape(src[j], to: out, at: o)
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
}
