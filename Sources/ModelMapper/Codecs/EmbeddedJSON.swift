// Unsafe code: `startsContainer` scans a string token's bytes (`c.tape.bytes`, an `UnsafeRawBufferPointer`
// into the tape, Tape.swift), and `decodeEmbedded` parses the string's UTF-8 (`withUTF8`) as a document of
// its own, whose tape references those bytes.
//
// Invariants: the token's bytes are read only during the check, after its kind is known to be `.string`
// (`TapeView.bytes` asserts that and the bounds). The embedded text is a local copy that outlives its tape:
// the tape and its view exist only inside `withParsedDocument`, inside `withUTF8`, and what leaves it is the
// decoded value or an error (whose token indices are pointed at the outer string), never a pointer.

/// Embedded JSON: in `.lenient` mode, a JSON string where a model, array, set or dictionary is expected,
/// whose content starts (after whitespace) with `{` or `[`, is parsed as JSON and decoded by the same
/// codec (APIs that double-encode payloads: `"user": "{\"id\":1}"`). Other strings keep the existing rules
/// (a type mismatch, or a one-element array with ``DecodingOptions/wrapsSingleValues``); `.strict` never
/// parses strings.
///
/// Positions: every error from inside the embedded text, thrown or reported (a syntax error in it, a bad
/// value in it), points at the string in the outer document (its line, column and offset). Embedded text
/// that is not JSON is `.invalidValue` (the document itself is valid), its message giving the byte offset
/// inside the embedded text. Paths continue through the string as
/// if the embedded value were in its place (`user.id`).
extension ValueCodec {
    /// Whether the value at `index` is a string to decode as embedded JSON (a cold check: codecs call it
    /// only where their container is not found, or once per value before their own type check).
    @inline(__always)
    final func isEmbeddedJSON(_ c: DecodeContext, _ index: Int) -> Bool {
        c.tape[index].kind == .string && c.lenient && Self.startsContainer(c.tape.bytes(c.tape[index]))
    }

    private static func startsContainer(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for b in bytes {
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): return true
            default: return false
            }
        }
        return false
    }

    /// Parses the string at `index` and runs `body` on the embedded document's root (index 0).
    @inline(never)
    final func decodeEmbedded<R>(_ c: DecodeContext, _ index: Int,
                                 _ body: (DecodeContext, Int) throws(MappingError) -> R) throws(MappingError) -> R {
        guard StackGuard.hasRoom() else { throw StackGuard.error(at: index) }
        let text = try c.tape.string(at: index)
        let reportedBefore = c.report?.errors.count ?? 0
        defer {
            // Reported errors hold token indices of the embedded tape: point them at the string.
            if let report = c.report {
                for k in reportedBefore..<report.errors.count { Self.pointAtString(&report.errors[k], index) }
            }
        }
        do throws(MappingError) {
            var text = text
            var result: Result<R, MappingError>? = nil
            text.withUTF8 { utf8 in
                do throws(MappingError) {
                    result = .success(try withParsedDocument(UnsafeRawBufferPointer(utf8), depthLimit: c.options.depthLimit,
                                                             filter: tapeFilter) { tape throws(MappingError) in
                        try body(c.over(tape), 0)
                    })
                } catch {
                    result = .failure(error)
                }
            }
            return try result.unsafelyUnwrapped.get()
        } catch {
            var error = error
            if error.kind == .syntax {
                // The document itself is valid JSON: a string that is not is a bad value (forgivable like
                // any other), never the input's `.syntax` error.
                error.kind = .invalidValue
                error.message = "the string is not valid embedded JSON: " + error.message
                if let offset = error.offset { error.message += " (at byte \(offset) of the JSON embedded in the string)" }
            }
            Self.pointAtString(&error, index)
            throw error
        }
    }

    private static func pointAtString(_ error: inout MappingError, _ index: Int) {
        error.tokenIndex = index
        error.offset = nil
        error.line = nil
        error.column = nil
        error.positionIsEstimated = false
    }
}
