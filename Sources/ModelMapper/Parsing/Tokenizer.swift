// Unsafe code: the yajl handle and its C callbacks.
//
// Invariants:
// - The callbacks' context pointer is the `TapeBuffers` allocation of the `Tokenizer` that created the
//   handle; both are freed together in `deinit`, so the pointer is valid whenever yajl calls back.
// - yajl's string/key/number pointers are valid only during the callback: they are either recorded as
//   offsets into the caller's chunk (when the caller promised the chunk outlives the tape and the pointer
//   lies inside it) or copied into the arena before the callback returns.
// - A callback returns 0 to cancel; the reason is stored in `TapeBuffers.failure` first.
// - yajl keeps the callbacks *pointer*, so the table lives in memory allocated once and never freed.
import CYajl

/// Drives yajl over one or more chunks of input and records the tokens on a tape.
///
/// Not thread-safe: one tokenizer per thread (it is cheap to create).
final class Tokenizer {
    let buffers: UnsafeMutablePointer<TapeBuffers>
    private var handle: yajl_handle?
    /// Bytes fed before the current chunk (for error offsets).
    private(set) var consumedBeforeChunk = 0
    /// Lines and columns counted over fed chunks (only when `tracksLines`), so errors in chunked input
    /// can say where. Whole-buffer callers leave it off and resolve positions from the buffer on error.
    private var position = TextPosition()
    let tracksLines: Bool
    let allowsMultipleValues: Bool
    private(set) var isFinished = false

    /// - Parameters:
    ///   - expectedInputSize: a hint for the initial buffer sizes.
    ///   - depthLimit: maximum nesting of arrays and objects.
    ///   - allowsMultipleValues: accept several whitespace-separated top-level values (JSON Lines).
    ///   - recordDepth: track completed values at this depth as records (see `TapeBuffers.recordDepth`).
    init(expectedInputSize: Int, depthLimit: Int, allowsMultipleValues: Bool = false, recordDepth: Int = -1,
         tracksLines: Bool = false) {
        self.tracksLines = tracksLines
        buffers = .allocate(capacity: 1)
        buffers.initialize(to: TapeBuffers(tokenCapacity: expectedInputSize / 6 + 16,
                                           arenaCapacity: min(expectedInputSize, 1 << 16) / 4 + 64,
                                           depthLimit: depthLimit))
        buffers.pointee.recordDepth = recordDepth
        self.allowsMultipleValues = allowsMultipleValues
        handle = Self.makeHandle(context: buffers, allowsMultipleValues: allowsMultipleValues)
    }

    deinit {
        if let handle { yajl_free(handle) }
        buffers.pointee.deallocate()
        buffers.deinitialize(count: 1)
        buffers.deallocate()
    }

    private static func makeHandle(context: UnsafeMutablePointer<TapeBuffers>, allowsMultipleValues: Bool) -> yajl_handle? {
        let handle = yajl_alloc(tokenizerCallbacks, nil, UnsafeMutableRawPointer(context))
        if allowsMultipleValues, let handle { _ = cyajl_allow_multiple_values(handle, 1) }
        return handle
    }

    /// A view of the tokens recorded so far. Valid until the next `feed`, `finish` or compaction.
    var view: TapeView {
        let b = buffers.pointee
        return TapeView(tokens: UnsafePointer(b.tokens), count: b.tokenCount, input: b.input,
                        arena: UnsafePointer(b.arena))
    }

    /// Parses one chunk. When `referencingInput` is true, tokens may point into `chunk`, which must then
    /// stay valid and unchanged for as long as any `TapeView` of this tokenizer is used.
    func feed(_ chunk: UnsafeRawBufferPointer, referencingInput: Bool = false) throws(MappingError) {
        guard let handle, !isFinished else { throw MappingError(.syntax, "input after the end of the document") }
        buffers.pointee.input = referencingInput ? chunk.baseAddress : nil
        buffers.pointee.inputCount = referencingInput ? chunk.count : 0
        let status: yajl_status
        if let base = chunk.baseAddress, chunk.count > 0 {
            status = yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), chunk.count)
        } else {
            status = yajl_status_ok
        }
        if status != yajl_status_ok {
            throw failure(status: status, chunk: chunk)
        }
        if tracksLines { position.advance(over: chunk) }
        consumedBeforeChunk += chunk.count
    }

    /// Ends the input: reports a truncated document. The tape is complete afterwards.
    func finish() throws(MappingError) {
        guard let handle, !isFinished else { return }
        isFinished = true
        let status = yajl_complete_parse(handle)
        if status != yajl_status_ok {
            throw failure(status: status, chunk: UnsafeRawBufferPointer(start: nil, count: 0))
        }
        if buffers.pointee.tokenCount == 0 && !allowsMultipleValues {
            throw positioned(MappingError(.syntax, "empty input: expected a JSON value"), chunk: .init(start: nil, count: 0),
                             offsetInChunk: 0)
        }
    }

    /// Clears the tape and the parser so another document can be parsed with the same buffers.
    func reset() {
        if let handle { yajl_free(handle) }
        handle = Self.makeHandle(context: buffers, allowsMultipleValues: allowsMultipleValues)
        buffers.pointee.tokenCount = 0
        buffers.pointee.arenaCount = 0
        buffers.pointee.depth = 0
        buffers.pointee.stack[0] = .init(start: -1, items: 0)
        buffers.pointee.recordEndCount = 0
        buffers.pointee.failure = .none
        buffers.pointee.input = nil
        buffers.pointee.inputCount = 0
        consumedBeforeChunk = 0
        position = TextPosition()
        isFinished = false
    }

    private func failure(status: yajl_status, chunk: UnsafeRawBufferPointer) -> MappingError {
        isFinished = true
        let offsetInChunk = handle.map { Int(yajl_get_bytes_consumed($0)) } ?? 0
        switch buffers.pointee.failure {
        case .depthLimit:
            return positioned(MappingError(.depthLimit, "nesting deeper than \(buffers.pointee.depthLimit) levels"),
                              chunk: chunk, offsetInChunk: max(0, offsetInChunk - 1))
        case .valueTooLong:
            return positioned(MappingError(.invalidValue, "value longer than 2^32 bytes or members"),
                              chunk: chunk, offsetInChunk: offsetInChunk)
        case .none:
            break
        }
        var detail = "invalid JSON"
        if let handle, let message = yajl_get_error(handle, 0, nil, 0) {
            detail = String(cString: message).trimmingWhitespace()
            yajl_free_error(handle, message)
        }
        if status == yajl_status_error && chunk.baseAddress == nil {
            detail = "unexpected end of input (" + detail + ")"
        }
        // yajl reports the offset after the offending token; point at the token itself when possible.
        var at = offsetInChunk
        if at > 0 && at <= chunk.count { at -= 1 }
        return positioned(MappingError(.syntax, detail), chunk: chunk, offsetInChunk: at)
    }

    private func positioned(_ error: MappingError, chunk: UnsafeRawBufferPointer, offsetInChunk: Int) -> MappingError {
        var error = error
        let clamped = min(offsetInChunk, chunk.count)
        error.offset = consumedBeforeChunk + clamped
        if tracksLines {
            var p = position
            if clamped > 0 { p.advance(over: UnsafeRawBufferPointer(rebasing: chunk[0..<clamped])) }
            error.line = p.line
            error.column = p.column
        }
        return error
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}

// MARK: - Callbacks

@inline(__always)
private func tape(_ context: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<TapeBuffers> {
    context.unsafelyUnwrapped.assumingMemoryBound(to: TapeBuffers.self)
}

private nonisolated(unsafe) let tokenizerCallbacks: UnsafeMutablePointer<yajl_callbacks> = {
    let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
    table.initialize(to: tokenizerCallbackTable)
    return table
}()

private let tokenizerCallbackTable = yajl_callbacks(
    yajl_null: { tape($0).pointee.appendScalar(.null, bytes: nil, count: 0) ? 1 : 0 },
    yajl_boolean: { tape($0).pointee.appendScalar($1 != 0 ? .trueValue : .falseValue, bytes: nil, count: 0) ? 1 : 0 },
    yajl_integer: nil,
    yajl_double: nil,
    yajl_number: { tape($0).pointee.appendScalar(.number, bytes: UnsafeRawPointer($1), count: $2) ? 1 : 0 },
    yajl_string: { tape($0).pointee.appendScalar(.string, bytes: UnsafeRawPointer($1), count: $2) ? 1 : 0 },
    yajl_start_map: { tape($0).pointee.openContainer(.objectStart) ? 1 : 0 },
    yajl_map_key: { tape($0).pointee.appendScalar(.key, bytes: UnsafeRawPointer($1), count: $2) ? 1 : 0 },
    yajl_end_map: { tape($0).pointee.closeContainer(.objectEnd) ? 1 : 0 },
    yajl_start_array: { tape($0).pointee.openContainer(.arrayStart) ? 1 : 0 },
    yajl_end_array: { tape($0).pointee.closeContainer(.arrayEnd) ? 1 : 0 }
)
