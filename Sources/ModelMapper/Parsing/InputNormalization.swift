// Unsafe code: reads the caller's bytes through raw buffers and writes UTF-8 text into buffers allocated here.
//
// Invariants:
// - A transcoded or comma-blanked copy is allocated before the parse and freed after `body` returns or
//   throws; the tape references it only inside `body`, which must not let the tape escape (as for
//   `withParsedDocument`).
// - The UTF-8 written for UTF-16 or UTF-32 input never exceeds the capacity computed from the input's length
//   (at most 3 bytes per UTF-16 code unit, 4 per surrogate pair or UTF-32 code unit); asserted per scalar.
// - A blanked copy has exactly the length of the text it copies, so offsets in it are offsets in that text.

// What JSONDecoder reads besides plain UTF-8 JSON, turned into UTF-8 JSON text for yajl. One step for every
// entry point that takes a whole document (mapped models, Codable `ModelDecoder.decode`, `JSONValue(json:)`):
//
// - the text's encoding, detected from its first four bytes as swift-foundation's JSONDecoder does: a UTF-8
//   byte-order mark is skipped; UTF-16 and UTF-32 in either byte order, with or without a BOM, are
//   transcoded to UTF-8 (`withParsedInput`);
// - trailing commas (`[1,]`, `{"a":1,}`): yajl rejects them; when its error is at a `]` or `}` right after a
//   comma, the text is parsed again from a copy with every such comma blanked (`TrailingCommas`, called by
//   `withParsedText`).
//
// Plain UTF-8 pays one look at its first four bytes: nothing is copied, and a trailing comma is looked for
// only after yajl failed.
//
// Positions: an error's `offset` is a byte offset in the caller's bytes (a BOM, a transcoding, a blanked
// comma do not move it); `line` and `column` count characters (Unicode scalars) of the text after the BOM,
// whatever the encoding — what an editor shows.

/// The encodings JSONDecoder reads (RFC 4627 section 3).
enum InputEncoding: Equatable {
    case utf8
    case utf16BigEndian, utf16LittleEndian
    case utf32BigEndian, utf32LittleEndian

    /// Bytes per code unit.
    var unitSize: Int {
        switch self {
        case .utf8: return 1
        case .utf16BigEndian, .utf16LittleEndian: return 2
        case .utf32BigEndian, .utf32LittleEndian: return 4
        }
    }

    var name: String {
        switch self {
        case .utf8: return "UTF-8"
        case .utf16BigEndian: return "UTF-16BE"
        case .utf16LittleEndian: return "UTF-16LE"
        case .utf32BigEndian: return "UTF-32BE"
        case .utf32LittleEndian: return "UTF-32LE"
        }
    }

    /// Whether `bytes` may be other than plain UTF-8 without a BOM: a BOM's first byte or a zero byte among
    /// the first four. JSON text in UTF-8 starts with neither, so this is the whole cost for it.
    @inline(__always)
    static func mayNeedNormalizing(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 2, let base = bytes.baseAddress else { return false }
        let b0 = base.load(as: UInt8.self)
        if b0 == 0 || b0 >= 0xEF || base.load(fromByteOffset: 1, as: UInt8.self) == 0 { return true }
        return bytes.count >= 4
            && (base.load(fromByteOffset: 2, as: UInt8.self) == 0 || base.load(fromByteOffset: 3, as: UInt8.self) == 0)
    }

    /// The encoding and the length of the byte-order mark, by swift-foundation's table
    /// (`JSONDecoder.withUTF8Representation`): a BOM first, then the pattern of zero bytes among the first
    /// four (or two, for a two-byte input). One deliberate difference: `FF FE 00 00`, the UTF-32LE BOM, is
    /// UTF-32LE here; JSONDecoder takes it for a UTF-16LE BOM followed by U+0000 and so rejects every such
    /// document (it reads `FE FF 00 00` as UTF-32LE, and so do we).
    static func detect(_ bytes: UnsafeRawBufferPointer) -> (encoding: InputEncoding, bomLength: Int) {
        let n = bytes.count
        let b0: UInt8? = n > 0 ? bytes[0] : nil
        let b1: UInt8? = n > 1 ? bytes[1] : nil
        let b2: UInt8? = n > 2 ? bytes[2] : nil
        let b3: UInt8? = n > 3 ? bytes[3] : nil
        switch (b0, b1, b2, b3) {
        case (0?, 0?, 0xFE?, 0xFF?): return (.utf32BigEndian, 4)
        case (0xFE?, 0xFF?, 0?, 0?), (0xFF?, 0xFE?, 0?, 0?): return (.utf32LittleEndian, 4)
        case (0xFE?, 0xFF?, _, _): return (.utf16BigEndian, 2)
        case (0xFF?, 0xFE?, _, _): return (.utf16LittleEndian, 2)
        case (0xEF?, 0xBB?, 0xBF?, _): return (.utf8, 3)
        case (0?, 0?, 0?, let x?) where x != 0: return (.utf32BigEndian, 0)
        case (0?, let x?, 0?, let y?) where x != 0 && y != 0: return (.utf16BigEndian, 0)
        case (let x?, 0?, 0?, 0?) where x != 0: return (.utf32LittleEndian, 0)
        case (let x?, 0?, let y?, 0?) where x != 0 && y != 0: return (.utf16LittleEndian, 0)
        // Two bytes: a one-digit UTF-16 document (JSONDecoder extends the table to it).
        case (0?, let x?, nil, nil) where x != 0: return (.utf16BigEndian, 0)
        case (let x?, 0?, nil, nil) where x != 0: return (.utf16LittleEndian, 0)
        default: return (.utf8, 0)
        }
    }

    /// Calls `body` with the UTF-8 text of `input`: the bytes after a UTF-8 BOM (no copy), or the UTF-8
    /// transcoding of UTF-16 or UTF-32 input (without its BOM).
    ///
    /// - Throws: `.syntax` when the input is not valid in its encoding (a lone surrogate, a value that is no
    ///   Unicode scalar, a last code unit cut short), at that code unit's offset in `input`.
    static func withUTF8Text<R>(of input: UnsafeRawBufferPointer,
                                _ body: (UnsafeRawBufferPointer) throws(MappingError) -> R) throws(MappingError) -> R {
        let (encoding, bomLength) = detect(input)
        let payload = UnsafeRawBufferPointer(rebasing: input[bomLength...])
        if encoding == .utf8 { return try body(payload) }
        let units = payload.count / encoding.unitSize
        let capacity = encoding.unitSize == 2 ? units * 3 : units * 4
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, capacity), alignment: 1)
        defer { buffer.deallocate() }
        let count = try transcode(payload, from: encoding, bomLength: bomLength, into: buffer)
        return try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// Writes `payload` (UTF-16 or UTF-32 in `encoding`, after a BOM of `bomLength` bytes) as UTF-8 into
    /// `out` and returns the number of bytes written.
    private static func transcode(_ payload: UnsafeRawBufferPointer, from encoding: InputEncoding, bomLength: Int,
                                  into out: UnsafeMutableRawBufferPointer) throws(MappingError) -> Int {
        let size = encoding.unitSize
        let bigEndian = encoding == .utf16BigEndian || encoding == .utf32BigEndian
        @inline(__always) func unit(at i: Int) -> UInt32 {
            var v: UInt32 = 0
            for k in 0..<size { v |= UInt32(payload[i + (bigEndian ? k : size - 1 - k)]) << UInt32(8 * (size - 1 - k)) }
            return v
        }
        var written = 0
        func failure(_ message: String, at i: Int) -> MappingError {
            // The characters before it were all transcoded: count them for the line and column.
            let p = TextPosition.of(offset: written, in: UnsafeRawBufferPointer(rebasing: out[0..<written]))
            return MappingError(.syntax, "invalid \(encoding.name) text: " + message, line: p.line, column: p.column,
                                offset: bomLength + i)
        }
        let end = payload.count - payload.count % size
        var i = 0
        while i < end {
            var scalar = unit(at: i)
            var length = size
            if size == 2 && (0xD800...0xDBFF).contains(scalar) {
                guard i + 2 < end, case let low = unit(at: i + 2), (0xDC00...0xDFFF).contains(low) else {
                    throw failure("a high surrogate not followed by a low surrogate", at: i)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                length = 4
            }
            guard let value = Unicode.Scalar(scalar) else {
                throw failure(size == 2 ? "a low surrogate without a high surrogate"
                                        : "0x\(String(scalar, radix: 16, uppercase: true)) is not a Unicode scalar value", at: i)
            }
            let utf8 = UTF8.encode(value)!
            assert(written + utf8.count <= out.count, "transcoded text past its buffer")
            for byte in utf8 {
                out[written] = byte
                written += 1
            }
            i += length
        }
        if end < payload.count {
            // JSONDecoder drops an incomplete last code unit silently; it can only be a cut-short text.
            throw failure("the input ends inside a code unit (\(payload.count - end) of \(size) bytes)", at: end)
        }
        return written
    }

    /// Moves an error's offset from `text` (what `withUTF8Text` gave for `input`) to the same place in
    /// `input`; line and column already count characters. Identity for plain UTF-8.
    static func mapPosition(_ error: inout MappingError, text: UnsafeRawBufferPointer, input: UnsafeRawBufferPointer) {
        guard let offset = error.offset, text.baseAddress != input.baseAddress || text.count != input.count else { return }
        let (encoding, bomLength) = detect(input)
        if encoding == .utf8 {
            error.offset = bomLength + offset
            return
        }
        // Each scalar of the UTF-8 text is one code unit in UTF-32, one or (past U+FFFF) two in UTF-16.
        var mapped = bomLength
        var i = 0
        let end = min(offset, text.count)
        while i < end {
            let lead = text[i]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            mapped += encoding.unitSize == 4 || length < 4 ? encoding.unitSize : 4
            i += length
        }
        error.offset = mapped
    }
}

/// Trailing commas, which JSONDecoder accepts and yajl does not: `[1,]`, `{"a":1,}` (one comma after a value,
/// then whitespace and the container's own closing bracket; `[,]`, `[1,,]` and `{"a",}` stay errors).
enum TrailingCommas {
    /// Whether a syntax error, positioned in `text`, is yajl's at a `]` or `}` that follows a comma.
    static func endsAt(_ error: MappingError, in text: UnsafeRawBufferPointer) -> Bool {
        guard error.kind == .syntax, let offset = error.offset, offset < text.count,
              text[offset] == UInt8(ascii: "]") || text[offset] == UInt8(ascii: "}") else { return false }
        var i = offset - 1
        while i >= 0 && isWhitespace(text[i]) { i -= 1 }
        return i >= 0 && text[i] == UInt8(ascii: ",")
    }

    /// A copy of `text` with every trailing comma replaced by a space, or nil when it has none. The caller
    /// deallocates the copy. Scans strings, brackets and whether an object's string is a key, as a parser
    /// would, without validating anything else (the parse that follows does).
    static func blankedCopy(of text: UnsafeRawBufferPointer) -> UnsafeMutableRawBufferPointer? {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, text.count), alignment: 1)
        if let base = text.baseAddress { copy.baseAddress!.copyMemory(from: base, byteCount: text.count) }
        let n = text.count
        var isObject: [Bool] = []
        var afterValue = false
        var expectsKey = false
        var blanked = 0
        var i = 0
        while i < n {
            let b = copy[i]
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                i += 1
            case UInt8(ascii: "\""):
                i += 1
                while i < n && copy[i] != UInt8(ascii: "\"") { i += copy[i] == UInt8(ascii: "\\") ? 2 : 1 }
                i += 1
                afterValue = !expectsKey
                expectsKey = false
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                isObject.append(b == UInt8(ascii: "{"))
                expectsKey = b == UInt8(ascii: "{")
                afterValue = false
                i += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                _ = isObject.popLast()
                afterValue = true
                expectsKey = false
                i += 1
            case UInt8(ascii: ","):
                if afterValue, let inObject = isObject.last {
                    var k = i + 1
                    while k < n && isWhitespace(copy[k]) { k += 1 }
                    if k < n && copy[k] == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        copy[i] = UInt8(ascii: " ")
                        blanked += 1
                    }
                }
                afterValue = false
                expectsKey = isObject.last == true
                i += 1
            case UInt8(ascii: ":"):
                afterValue = false
                expectsKey = false
                i += 1
            default:
                // A number, a literal or a stray byte: up to the next delimiter.
                while i < n && !isDelimiter(copy[i]) { i += 1 }
                afterValue = !expectsKey
                expectsKey = false
            }
        }
        if blanked == 0 {
            copy.deallocate()
            return nil
        }
        return copy
    }

    @inline(__always)
    private static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    private static func isDelimiter(_ b: UInt8) -> Bool {
        switch b {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"),
             UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "\""):
            return true
        default:
            return false
        }
    }
}

/// Parses a whole document given as the caller's bytes, in any form JSONDecoder reads (see the top of this
/// file), and runs `body` on its tape with the UTF-8 text the tape references. Errors thrown out of here
/// (the parse's and `body`'s) are positioned in the caller's bytes; an error `body` positions itself in the
/// text (a reported one) goes through ``InputEncoding/mapPosition(_:text:input:)``.
///
/// `allowsTrailingCommas`: JSONDecoder's reading (the decoders); `JSONValue(json:)` reads RFC 8259 exactly.
func withParsedInput<R>(
    _ input: UnsafeRawBufferPointer, depthLimit: Int, filter: TapeFilterNode? = nil, allowsTrailingCommas: Bool,
    _ body: (TapeView, UnsafeRawBufferPointer) throws(MappingError) -> R
) throws(MappingError) -> R {
    guard InputEncoding.mayNeedNormalizing(input) else {
        return try withParsedText(input, depthLimit: depthLimit, filter: filter, allowsTrailingCommas: allowsTrailingCommas, body)
    }
    return try InputEncoding.withUTF8Text(of: input) { text throws(MappingError) in
        do throws(MappingError) {
            return try withParsedText(text, depthLimit: depthLimit, filter: filter, allowsTrailingCommas: allowsTrailingCommas, body)
        } catch {
            var error = error
            InputEncoding.mapPosition(&error, text: text, input: input)
            throw error
        }
    }
}
