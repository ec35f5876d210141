// Unsafe code: reads UTF-8 bytes from an `UnsafeRawBufferPointer` the caller lends (a tokenizer chunk, the
// input of an error being positioned).
//
// Invariants: the buffer is valid for the call and never kept; `of(offset:in:)` reads only the first
// `min(max(0, offset), count)` bytes: the offset is clamped to the buffer, so no assert is needed.

/// A line and column in UTF-8 text, advanced over bytes.
///
/// Lines are 1-based and end at `\n` (a `\r\n` pair counts once); columns are 1-based and count Unicode
/// scalars (UTF-8 continuation bytes do not advance the column), which is what editors show.
struct TextPosition: Equatable {
    var line = 1
    var column = 1

    mutating func advance(over bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
    }

    /// The position of byte `offset` in `bytes`.
    static func of(offset: Int, in bytes: UnsafeRawBufferPointer) -> TextPosition {
        var p = TextPosition()
        p.advance(over: UnsafeRawBufferPointer(rebasing: bytes[0..<min(max(0, offset), bytes.count)]))
        return p
    }
}
