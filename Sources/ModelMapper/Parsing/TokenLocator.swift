// Unsafe code: a second yajl pass with counting callbacks.
//
// Invariants: the context pointer is a `LocatorState` (`ErrorLocatorState`) on the calling function's stack,
// alive for every `yajl_parse` call that uses it; yajl keeps the callbacks pointer, which comes from
// `withUnsafePointer` and so is valid only inside its closure: the handle is made and freed inside it.
import CModelMapperYajl

/// Finds where the token with a given tape index starts in the input, by parsing again and counting
/// callbacks. Decoding errors refer to tokens by index so the hot path never tracks positions; this runs
/// only when an error is reported.
enum TokenLocator {
    private struct LocatorState {
        var handle: yajl_handle?
        var remaining: Int
        var endOfPrevious = -1
    }

    /// The byte offset where token `index` starts, or nil if the input has fewer tokens.
    static func offset(ofToken index: Int, in input: UnsafeRawBufferPointer, allowsMultipleValues: Bool = false) -> Int? {
        guard let base = input.baseAddress else { return nil }
        var endOfPrevious = 0
        if index > 0 {
            var state = LocatorState(handle: nil, remaining: index)
            withUnsafeMutablePointer(to: &state) { statePointer in
                withUnsafePointer(to: locatorCallbacks) { callbacks in
                    guard let handle = yajl_alloc(callbacks, nil, UnsafeMutableRawPointer(statePointer)) else { return }
                    if allowsMultipleValues { _ = cyajl_allow_multiple_values(handle, 1) }
                    statePointer.pointee.handle = handle
                    _ = yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), input.count)
                    if statePointer.pointee.endOfPrevious < 0 { _ = yajl_complete_parse(handle) }
                    yajl_free(handle)
                }
            }
            guard state.endOfPrevious >= 0 else { return nil }
            endOfPrevious = state.endOfPrevious
        }
        var i = endOfPrevious
        while i < input.count {
            switch input[i] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"),
                 UInt8(ascii: ","), UInt8(ascii: ":"):
                i += 1
            default:
                return i
            }
        }
        return min(endOfPrevious, input.count)
    }

    @inline(__always)
    private static func count(_ context: UnsafeMutableRawPointer?) -> Int32 {
        let state = context.unsafelyUnwrapped.assumingMemoryBound(to: LocatorState.self)
        assert(state.pointee.remaining > 0, "a callback after the locator cancelled the parse")
        state.pointee.remaining -= 1
        if state.pointee.remaining == 0 {
            if let handle = state.pointee.handle { state.pointee.endOfPrevious = Int(yajl_get_bytes_consumed(handle)) }
            return 0
        }
        return 1
    }

    private static let locatorCallbacks = yajl_callbacks(
        yajl_null: { count($0) },
        yajl_boolean: { c, _ in count(c) },
        yajl_integer: nil,
        yajl_double: nil,
        yajl_number: { c, _, _ in count(c) },
        yajl_string: { c, _, _ in count(c) },
        yajl_start_map: { count($0) },
        yajl_map_key: { c, _, _ in count(c) },
        yajl_end_map: { count($0) },
        yajl_start_array: { count($0) },
        yajl_end_array: { count($0) }
    )
}

extension MappingError {
    /// Fills in offset, line and column from the input the error's token or offset refers to.
    mutating func resolvePosition(in input: UnsafeRawBufferPointer, allowsMultipleValues: Bool = false) {
        if positionIsEstimated {
            positionIsEstimated = false
            var exact = TokenLocator.syntaxErrorOffset(in: input, allowsMultipleValues: allowsMultipleValues)
            // What yajl let through before its error comes first (the estimate may have hidden it), judged
            // from the bytes before yajl's error only, as the tokenizer does.
            var check = RawInputCheck()
            if let violation = check.firstViolation(in: input, start: 0, limit: exact ?? input.count),
               violation.decidedBy < exact ?? Int.max {
                exact = violation.offset
                message = violation.message
            }
            if let exact, exact != offset {
                offset = exact
                line = nil
                column = nil
            }
        }
        if offset == nil, let tokenIndex {
            offset = TokenLocator.offset(ofToken: tokenIndex, in: input, allowsMultipleValues: allowsMultipleValues)
        }
        if line == nil, let offset {
            let p = TextPosition.of(offset: offset, in: input)
            line = p.line
            column = p.column
        }
    }
}

// MARK: - Syntax errors in a whole buffer

extension TokenLocator {
    private struct ErrorLocatorState {
        var handle: yajl_handle?
        var context = SyntaxErrorPosition.Context()
    }

    /// The exact offset of the first syntax error in `input` (see ``SyntaxErrorPosition`` for the
    /// convention), found by parsing again with callbacks that remember where the last token ended.
    /// Nil when yajl finds no error (the error came from elsewhere, such as the depth limit).
    static func syntaxErrorOffset(in input: UnsafeRawBufferPointer, allowsMultipleValues: Bool = false) -> Int? {
        var state = ErrorLocatorState()
        var located: Int? = nil
        withUnsafeMutablePointer(to: &state) { statePointer in
            withUnsafePointer(to: errorLocatorCallbacks) { callbacks in
                guard let handle = yajl_alloc(callbacks, nil, UnsafeMutableRawPointer(statePointer)) else { return }
                defer { yajl_free(handle) }
                if allowsMultipleValues { _ = cyajl_allow_multiple_values(handle, 1) }
                statePointer.pointee.handle = handle
                var atEnd = false
                var status = yajl_status_ok
                if let base = input.baseAddress, input.count > 0 {
                    status = yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), input.count)
                }
                if status == yajl_status_ok {
                    atEnd = true
                    status = yajl_complete_parse(handle)
                    if status == yajl_status_ok && !allowsMultipleValues {
                        status = Tokenizer.rejectUnterminatedTrailingString(handle)
                    }
                }
                guard status != yajl_status_ok else { return }
                let detected = Int(yajl_get_bytes_consumed(handle))
                var message = ""
                if let text = yajl_get_error(handle, 0, nil, 0) {
                    message = String(cString: text)
                    yajl_free_error(handle, text)
                }
                located = SyntaxErrorPosition.offset(
                    message: message, detected: detected, inputEnd: input.count, atEnd: atEnd,
                    context: statePointer.pointee.context,
                    byte: { $0 >= 0 && $0 < input.count ? input[$0] : nil })
            }
        }
        return located
    }

    @inline(__always)
    private static func record(_ context: UnsafeMutableRawPointer?, _ previous: SyntaxErrorPosition.Context.Previous,
                               depthChange: Int = 0) -> Int32 {
        let state = context.unsafelyUnwrapped.assumingMemoryBound(to: ErrorLocatorState.self)
        if let handle = state.pointee.handle { state.pointee.context.end = Int(yajl_get_bytes_consumed(handle)) }
        state.pointee.context.previous = previous
        state.pointee.context.depth += depthChange
        return 1
    }

    private static let errorLocatorCallbacks = yajl_callbacks(
        yajl_null: { record($0, .value) },
        yajl_boolean: { c, _ in record(c, .value) },
        yajl_integer: nil,
        yajl_double: nil,
        yajl_number: { c, _, _ in record(c, .value) },
        yajl_string: { c, _, _ in record(c, .value) },
        yajl_start_map: { record($0, .containerStart, depthChange: 1) },
        yajl_map_key: { c, _, _ in record(c, .key) },
        yajl_end_map: { record($0, .value, depthChange: -1) },
        yajl_start_array: { record($0, .containerStart, depthChange: 1) },
        yajl_end_array: { record($0, .value, depthChange: -1) }
    )
}
