// Unsafe code: a second yajl pass with counting callbacks.
//
// Invariants: the context pointer is a `LocatorState` on this function's stack, alive for the whole
// `yajl_parse` call that uses it; the handle is freed before returning.
import CYajl

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
