// Unsafe code: `Context.locateNextToken(in:start:)` reads the chunk yajl just accepted, lent by the tokenizer
// as an `UnsafeRawBufferPointer`; the rest of the file reads bytes through the `byte` closure.
//
// Invariants: the chunk is valid for the call and never kept (only offsets are); it holds the absolute
// offsets `start..<start + count`, and the scan reads only those: `i` starts at `max(scanned, start)` and
// the loop stops below `start + count`, so `chunk[i - start]` is in bounds by construction (no assert).

/// Turns yajl's error offset into the position a user expects. Error path only.
///
/// yajl's reported offset depends on the error: after the offending token for parse errors (but at the
/// token start, or two bytes into a string token, for "after key and value, inside map"), at the
/// offending byte for most lexical errors, just after it for "invalid char" and invalid UTF-8, and
/// relative to a one-byte " " buffer for errors found by `yajl_complete_parse`. The convention here:
///
/// - a token that is not allowed where it stands (parse errors, invalid literals such as `tru`,
///   trailing garbage): the offset of the token's first byte;
/// - a bad byte inside a token (bad escape, control character or invalid character in a string, a
///   number missing a digit, a character that starts no token): the offset of that byte;
/// - invalid UTF-8: the first byte of the invalid or incomplete sequence;
/// - the input ends inside a value: the end of the input.
enum SyntaxErrorPosition {
    /// What yajl delivered last before the error; known exactly when the input is re-parsed.
    struct Context {
        enum Previous { case none, containerStart, key, value }
        /// Byte offset just past the last delivered token (0 when none).
        var end = 0
        var previous: Previous = .none
        /// Open containers after the last delivered token.
        var depth = 0
        /// Where the next token starts, once a chunk showed it (chunked input: the bytes after `end` may be
        /// gone when a long offending token ends chunks later). See ``locateNextToken(in:start:)``.
        var nextStart: Int? = nil
        /// The line and column of `nextStart`, when the tokenizer tracks lines.
        var nextPosition: TextPosition? = nil
        /// The `end` that `nextStart`, `scanned` and `sawSeparator` belong to.
        var scannedFor = -1
        /// Offset up to which the bytes after `end` were scanned without finding the next token.
        var scanned = 0
        var sawSeparator = false

        /// Scans a chunk yajl accepted (starting at absolute offset `start`) for the start of the token after
        /// the last delivered one: whitespace and one separator that is valid after it, then its first byte.
        mutating func locateNextToken(in chunk: UnsafeRawBufferPointer, start: Int) {
            if scannedFor != end {
                scannedFor = end
                scanned = end
                sawSeparator = false
                nextStart = nil
                nextPosition = nil
            }
            guard nextStart == nil else { return }
            var i = max(scanned, start)
            while i < start + chunk.count {
                let b = chunk[i - start]
                if SyntaxErrorPosition.isWhitespace(b) {
                    i += 1
                } else if !sawSeparator && ((b == UInt8(ascii: ":") && previous == .key)
                                            || (b == UInt8(ascii: ",") && previous == .value && depth > 0)) {
                    sawSeparator = true
                    i += 1
                } else {
                    nextStart = i
                    break
                }
            }
            scanned = i
        }
    }

    /// The error offset.
    /// - Parameters:
    ///   - message: yajl's error text.
    ///   - detected: yajl's offset made absolute (ignored when `atEnd`).
    ///   - inputEnd: the number of bytes fed so far.
    ///   - atEnd: the error was found by `yajl_complete_parse`.
    ///   - context: the last delivered token, when known; otherwise the token is found from `detected`.
    ///   - byte: the input byte at an absolute offset, or nil when it is no longer (or not) available.
    static func offset(message: String, detected: Int, inputEnd: Int, atEnd: Bool, context: Context?,
                       byte: (Int) -> UInt8?) -> Int {
        let detected = atEnd ? inputEnd : min(max(0, detected), inputEnd)
        if message.contains("premature EOF") { return inputEnd }
        if message.hasPrefix("lexical error") {
            if message.contains("invalid bytes in UTF8 string") {
                // yajl stops just after the byte that broke the sequence (EOF at the end).
                return utf8SequenceStart(breaker: atEnd ? inputEnd : max(0, detected - 1), byte: byte)
            }
            if message.contains("invalid char in json text") {
                return atEnd ? inputEnd : max(0, detected - 1)
            }
            if message.contains("invalid string in json text") || message.contains("invalid literal") {
                // A bad literal (`tru`, `nul`, `fals e`): point at its first letter.
                if let context { return offendingTokenStart(context, inputEnd: inputEnd, byte: byte) }
                return runStart(endingAt: detected - 1, byte: byte, isLiteralByte)
            }
            // Escapes, control characters in strings, malformed numbers, comments: yajl backed up to
            // the offending byte.
            return detected
        }
        // Parse errors: the whole offending token was read.
        if let context { return offendingTokenStart(context, inputEnd: inputEnd, byte: byte) }
        if message.contains("after key and value, inside map") {
            return tokenStartAfterMapValue(detected, byte: byte)
        }
        return tokenStart(endingAt: detected - 1, byte: byte)
    }

    // MARK: Exact: the token after the last delivered one

    static func offendingTokenStart(_ context: Context, inputEnd: Int, byte: (Int) -> UInt8?) -> Int {
        if context.scannedFor == context.end, let next = context.nextStart { return min(next, inputEnd) }
        var i = max(0, context.end)
        func skipWhitespace() {
            // Bytes no longer available (long runs before a chunk) lay between tokens: skip them too.
            while i < inputEnd {
                if let b = byte(i), !isWhitespace(b) { break }
                i += 1
            }
        }
        skipWhitespace()
        // yajl accepted one separator that is valid after the last token.
        if i < inputEnd, let b = byte(i) {
            if (b == UInt8(ascii: ":") && context.previous == .key)
                || (b == UInt8(ascii: ",") && context.previous == .value && context.depth > 0) {
                i += 1
                skipWhitespace()
            }
        }
        return min(i, inputEnd)
    }

    // MARK: Heuristic: from yajl's offset

    /// The first byte of the token whose last byte is at `last`.
    static func tokenStart(endingAt last: Int, byte: (Int) -> UInt8?) -> Int {
        guard last >= 0, let b = byte(last) else { return max(0, last) }
        if b == UInt8(ascii: "\"") {
            // The opening quote is the nearest quote before that is not escaped.
            var j = last - 1
            while j >= 0, let c = byte(j) {
                if c == UInt8(ascii: "\"") && !isEscaped(j, byte: byte) { return j }
                j -= 1
            }
            return j + 1
        }
        if isNumberOrLiteralByte(b) { return runStart(endingAt: last, byte: byte, isNumberOrLiteralByte) }
        return last
    }

    /// "after key and value, inside map": yajl moved its offset back by the token's length, which for a
    /// string excludes the quotes, so the offset is the token start or two bytes into a string.
    static func tokenStartAfterMapValue(_ detected: Int, byte: (Int) -> UInt8?) -> Int {
        guard detected >= 2, byte(detected - 2) == UInt8(ascii: "\""), let before = byte(detected - 1) else {
            return detected
        }
        guard let b = byte(detected) else { return detected - 2 }
        // Reading 1: a string token whose opening quote is at detected-2.
        // Reading 2: a non-string token at `detected`; the quote at detected-2 then ends the previous
        // value, so `before` is whitespace or the end of a container or string that ends in a quote.
        guard isNonStringTokenStart(b) else { return detected - 2 }
        let closer = before == UInt8(ascii: "]") || before == UInt8(ascii: "}") || before == UInt8(ascii: "\"")
        guard isWhitespace(before) || closer else { return detected - 2 }
        guard let beforeQuote = byte(detected - 3), isWhitespace(beforeQuote) || isValueEnd(beforeQuote) else {
            return detected
        }
        // Both fit: `"" ` (an empty string token) is likelier than `""1`; otherwise a value ending in a quote
        // followed by a non-string token is likelier than a string starting with whitespace or a bracket.
        return before == UInt8(ascii: "\"") ? detected - 2 : detected
    }

    /// The start of an invalid or incomplete UTF-8 sequence, given the byte yajl stopped at.
    static func utf8SequenceStart(breaker: Int, byte: (Int) -> UInt8?) -> Int {
        var j = breaker - 1
        var continuations = 0
        while continuations < 3, j >= 0, let c = byte(j), c & 0xC0 == 0x80 {
            j -= 1
            continuations += 1
        }
        if j >= 0, let lead = byte(j), lead >= 0xC0 {
            let needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
            if continuations + 1 < needed { return j }
        }
        return breaker
    }

    static func runStart(endingAt last: Int, byte: (Int) -> UInt8?, _ belongs: (UInt8) -> Bool) -> Int {
        var j = last
        while j >= 0, let c = byte(j), belongs(c) { j -= 1 }
        return min(j + 1, max(0, last))
    }

    static func isEscaped(_ index: Int, byte: (Int) -> UInt8?) -> Bool {
        var backslashes = 0
        var j = index - 1
        while j >= 0, byte(j) == UInt8(ascii: "\\") {
            backslashes += 1
            j -= 1
        }
        return backslashes % 2 == 1
    }

    @inline(__always)
    static func isWhitespace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 || b == 0x0B || b == 0x0C
    }

    static func isLiteralByte(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z"))
    }

    static func isNumberOrLiteralByte(_ b: UInt8) -> Bool {
        isLiteralByte(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-")
            || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
    }

    static func isNonStringTokenStart(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "t")
            || b == UInt8(ascii: "f") || b == UInt8(ascii: "n") || b == UInt8(ascii: "[") || b == UInt8(ascii: "{")
            || b == UInt8(ascii: "]") || b == UInt8(ascii: ":")
    }

    static func isValueEnd(_ b: UInt8) -> Bool {
        (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "\"") || b == UInt8(ascii: "e")
            || b == UInt8(ascii: "l") || b == UInt8(ascii: "]") || b == UInt8(ascii: "}")
    }
}
