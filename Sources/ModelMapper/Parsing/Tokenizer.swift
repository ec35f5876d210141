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
// - yajl allocates from `arena` (YajlArena.swift); the handle is freed before the arena is reset or freed.
// - A tokenizer is used by one thread at a time and its methods are never re-entered (the callbacks touch
//   `buffers` only), so its stored properties skip the runtime's exclusivity checks.
// - `RecentInput` copies the last bytes of each chunk into its ring, within the ring's capacity; a chunk
//   fed with `referencingInput` is kept by pointer instead, valid until `reset` by that promise.
import CModelMapperYajl
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Drives yajl over one or more chunks of input and records the tokens on a tape.
///
/// Not thread-safe: one tokenizer per thread (it is cheap to create).
final class Tokenizer {
    let buffers: UnsafeMutablePointer<TapeBuffers>
    /// The memory of `handle`, reused for the next document's handle after `reset`.
    private let arena: UnsafeMutablePointer<YajlArena>
    @exclusivity(unchecked) private var handle: yajl_handle?
    /// The `TokenizerCache` level this tokenizer was taken from (-1: made, not taken), where it goes back.
    @exclusivity(unchecked) var spareLevel = -1
    /// Bytes fed before the current chunk (for error offsets).
    @exclusivity(unchecked) private(set) var consumedBeforeChunk = 0
    /// The size of the first chunk when tokens may reference it (0 otherwise): `TapeView.input`'s extent.
    @exclusivity(unchecked) private var referencedInputCount = 0
    /// Lines and columns counted over fed chunks (only when `tracksLines`), so errors in chunked input
    /// can say where. Whole-buffer callers leave it off and resolve positions from the buffer on error.
    @exclusivity(unchecked) private var position = TextPosition()
    /// The end of the input fed before the current chunk, so error positions can look back across chunks.
    @exclusivity(unchecked) private var recent = RecentInput()
    /// Finds what yajl accepts but JSON does not, across chunks.
    @exclusivity(unchecked) private var rawInputCheck = RawInputCheck()
    /// The line and column of the violation `rawInputCheck` holds back, taken while its chunk was at hand.
    @exclusivity(unchecked) private var heldBackPosition: (offset: Int, position: TextPosition)? = nil
    let tracksLines: Bool
    let allowsMultipleValues: Bool
    @exclusivity(unchecked) private(set) var isFinished = false

    /// - Parameters:
    ///   - expectedInputSize: a hint for the initial buffer sizes.
    ///   - depthLimit: maximum nesting of arrays and objects.
    ///   - allowsMultipleValues: accept several whitespace-separated top-level values (JSON Lines).
    ///   - recordDepth: track completed values at this depth as records (see `TapeBuffers.recordDepth`).
    init(expectedInputSize: Int, depthLimit: Int, allowsMultipleValues: Bool = false, recordDepth: Int = -1,
         tracksLines: Bool = false) {
        self.tracksLines = tracksLines
        buffers = .allocate(capacity: 1)
        buffers.initialize(to: TapeBuffers(tokenCapacity: expectedInputSize / 8 + 16,
                                           arenaCapacity: min(expectedInputSize, 1 << 16) / 4 + 64,
                                           depthLimit: depthLimit))
        buffers.pointee.recordDepth = recordDepth
        self.allowsMultipleValues = allowsMultipleValues
        arena = .allocate(capacity: 1)
        arena.initialize(to: YajlArena())
        Self.madeCounter.add(1, ordering: .relaxed)
        handle = Self.makeHandle(context: buffers, arena: arena, allowsMultipleValues: allowsMultipleValues, tracksPositions: tracksLines)
    }

    /// How many tokenizers this process has made (for tests: a whole-document decoding makes none after
    /// its thread's first).
    static var made: Int { madeCounter.load(ordering: .relaxed) }
    private static let madeCounter = Atomic<Int>(0)

    deinit {
        if let handle { yajl_free(handle) }
        arena.pointee.deallocate()
        arena.deinitialize(count: 1)
        arena.deallocate()
        buffers.pointee.deallocate()
        buffers.deinitialize(count: 1)
        buffers.deallocate()
    }

    private static func makeHandle(context: UnsafeMutablePointer<TapeBuffers>, arena: UnsafeMutablePointer<YajlArena>,
                                   allowsMultipleValues: Bool, tracksPositions: Bool) -> yajl_handle? {
        var memory = YajlArena.functions(arena)
        let handle = yajl_alloc(tracksPositions ? trackingCallbacks : tokenizerCallbacks, &memory,
                                UnsafeMutableRawPointer(context))
        if allowsMultipleValues, let handle { _ = cyajl_allow_multiple_values(handle, 1) }
        context.pointee.positionHandle = tracksPositions ? handle : nil
        context.pointee.lastToken = SyntaxErrorPosition.Context()
        return handle
    }

    /// Takes ``UTF8Shape``'s verdict on the whole document about to be fed: when it is well shaped, yajl's
    /// UTF-8 check goes (yajl then accepts and rejects exactly what it would with it, see there); when it
    /// is valid, the tape's strings are also made without checking them again. Only before the first
    /// `feed` after creation or `reset`.
    func adopt(_ verdict: UTF8Shape.Verdict) {
        precondition(consumedBeforeChunk == 0 && !isFinished, "yajl's UTF-8 check is chosen before the document is fed")
        guard verdict != .illShaped, let handle else { return }
        _ = cyajl_dont_validate_strings(handle, 1)
        buffers.pointee.stringsAreValidUTF8 = verdict == .valid
    }

    /// A view of the tokens recorded so far. Valid until the next `feed`, `finish` or compaction.
    var view: TapeView {
        let b = buffers.pointee
        var view = TapeView(tokens: UnsafePointer(b.tokens), count: b.tokenCount, input: b.input,
                            arena: UnsafePointer(b.arena), skipRuns: UnsafePointer(b.skipRuns), skipRunCount: b.skipRunCount,
                            stringsAreValidUTF8: b.stringsAreValidUTF8)
        #if DEBUG
        view.inputCount = referencedInputCount
        view.arenaCount = b.arenaCount
        #endif
        return view
    }

    /// Parses one chunk. When `referencingInput` is true, tokens (and error positions) may point into
    /// `chunk`, which must then stay valid and unchanged until `reset`, and while any `TapeView` of this
    /// tokenizer is used.
    func feed(_ chunk: UnsafeRawBufferPointer, referencingInput: Bool = false) throws(MappingError) {
        guard let handle, !isFinished else { throw MappingError(.syntax, "input after the end of the document") }
        if consumedBeforeChunk == 0 {
            buffers.pointee.input = referencingInput ? chunk.baseAddress : nil
            buffers.pointee.inputCount = referencingInput ? chunk.count : 0
            referencedInputCount = buffers.pointee.inputCount
        } else {
            // Token offsets are relative to one base (`TapeView.input`): tokens of the first chunk may
            // reference it, so keep its base and copy everything from later chunks.
            buffers.pointee.inputCount = 0
        }
        buffers.pointee.chunkStart = consumedBeforeChunk
        buffers.pointee.chunkEnd = consumedBeforeChunk + chunk.count
        let status: yajl_status
        if let base = chunk.baseAddress, chunk.count > 0 {
            status = yajl_parse(handle, base.assumingMemoryBound(to: UInt8.self), chunk.count)
        } else {
            status = yajl_status_ok
        }
        if status != yajl_status_ok {
            throw failure(status: status, chunk: chunk)
        }
        // What yajl accepts but JSON does not (raw form feed, lone surrogate escapes), checked after yajl
        // accepted the chunk so that yajl's own errors keep their precedence otherwise.
        if let violation = rawInputCheck.firstViolation(in: chunk, start: consumedBeforeChunk) {
            isFinished = true
            throw positionedAbsolute(MappingError(.syntax, violation.message), at: violation.offset, chunk: chunk)
        }
        if tracksLines, let held = rawInputCheck.heldBack, heldBackPosition?.offset != held.offset {
            // Reported when its string ends, maybe chunks later, when these bytes are gone.
            let located = positionedAbsolute(MappingError(.syntax, held.message), at: held.offset, chunk: chunk)
            if let line = located.line, let column = located.column {
                heldBackPosition = (held.offset, TextPosition(line: line, column: column))
            }
        }
        if tracksLines {
            // Remember where the token after the last delivered one starts, with its line and column: if
            // it turns out to be an error chunks later, its bytes may no longer be at hand.
            let wasKnown = buffers.pointee.lastToken.nextPosition != nil
                && buffers.pointee.lastToken.scannedFor == buffers.pointee.lastToken.end
            buffers.pointee.lastToken.locateNextToken(in: chunk, start: consumedBeforeChunk)
            if !wasKnown, let next = buffers.pointee.lastToken.nextStart, next >= consumedBeforeChunk {
                let split = next - consumedBeforeChunk
                position.advance(over: UnsafeRawBufferPointer(rebasing: chunk[0..<split]))
                buffers.pointee.lastToken.nextPosition = position
                position.advance(over: UnsafeRawBufferPointer(rebasing: chunk[split...]))
            } else {
                position.advance(over: chunk)
            }
        }
        recent.record(chunk, start: consumedBeforeChunk, referenced: referencingInput)
        consumedBeforeChunk += chunk.count
    }

    /// Ends the input: reports a truncated document. The tape is complete afterwards.
    func finish() throws(MappingError) {
        guard let handle, !isFinished else { return }
        isFinished = true
        buffers.pointee.chunkStart = consumedBeforeChunk
        buffers.pointee.chunkEnd = consumedBeforeChunk
        var status = yajl_complete_parse(handle)
        if status == yajl_status_ok && !allowsMultipleValues {
            status = Self.rejectUnterminatedTrailingString(handle)
        }
        if status != yajl_status_ok {
            throw failure(status: status, chunk: UnsafeRawBufferPointer(start: nil, count: 0))
        }
        if buffers.pointee.tokenCount == 0 && !allowsMultipleValues {
            throw positioned(MappingError(.syntax, "empty input: expected a JSON value"), chunk: .init(start: nil, count: 0),
                             offsetInChunk: 0)
        }
    }

    /// yajl accepts an unterminated string after a complete top-level value (`[] "abc`): its lexer is still
    /// waiting for the closing quote when `yajl_complete_parse` returns, and a pending token is not an
    /// error there. Feeding a closing quote completes that string, which yajl then reports as trailing
    /// garbage; without a pending string the quote only opens one, which is not an error. Call after
    /// `yajl_complete_parse` succeeded, for single-document parses.
    static func rejectUnterminatedTrailingString(_ handle: yajl_handle) -> yajl_status {
        var quote = UInt8(ascii: "\"")
        return yajl_parse(handle, &quote, 1)
    }

    /// Bytes held by the tape's buffers.
    var retainedBytes: Int {
        let b = buffers.pointee
        return b.tokenCapacity * MemoryLayout<Token>.stride + b.arenaCapacity
            + b.stackCapacity * MemoryLayout<TapeBuffers.StackEntry>.stride + b.recordEndCapacity * MemoryLayout<Int>.stride
    }

    /// Clears the tape and the parser so another document can be parsed with the same buffers.
    func reset() {
        if let handle { yajl_free(handle) }
        arena.pointee.reset()
        handle = Self.makeHandle(context: buffers, arena: arena, allowsMultipleValues: allowsMultipleValues, tracksPositions: tracksLines)
        buffers.pointee.tokenCount = 0
        buffers.pointee.arenaCount = 0
        buffers.pointee.depth = 0
        buffers.pointee.stack[0] = .init(start: -1, items: 0)
        buffers.pointee.recordEndCount = 0
        buffers.pointee.resetFilter()
        buffers.pointee.failure = .none
        buffers.pointee.stringsAreValidUTF8 = false
        buffers.pointee.input = nil
        buffers.pointee.inputCount = 0
        referencedInputCount = 0
        consumedBeforeChunk = 0
        position = TextPosition()
        recent.reset()
        rawInputCheck.reset()
        heldBackPosition = nil
        isFinished = false
    }

    private func failure(status: yajl_status, chunk: UnsafeRawBufferPointer) -> MappingError {
        isFinished = true
        let offsetInChunk = handle.map { Int(yajl_get_bytes_consumed($0)) } ?? 0
        switch buffers.pointee.failure {
        case .depthLimit:
            // A form feed or lone surrogate that yajl let through earlier is the first error.
            if let earlier = rawInputError(chunk, before: max(0, offsetInChunk - 1)) { return earlier }
            return positioned(MappingError(.depthLimit, "nesting deeper than \(buffers.pointee.depthLimit) levels"),
                              chunk: chunk, offsetInChunk: max(0, offsetInChunk - 1))
        case .valueTooLong:
            if let earlier = rawInputError(chunk, before: offsetInChunk) { return earlier }
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
        let atEnd = chunk.baseAddress == nil
        let end = consumedBeforeChunk + chunk.count
        let recent = self.recent
        let start = consumedBeforeChunk
        let byte = { (offset: Int) -> UInt8? in recent.byte(at: offset, current: chunk, currentStart: start) }
        let context = buffers.pointee.positionHandle != nil ? buffers.pointee.lastToken : nil
        var at = SyntaxErrorPosition.offset(message: detail, detected: start + min(offsetInChunk, chunk.count),
                                            inputEnd: end, atEnd: atEnd, context: context, byte: byte)
        let yajlDetail = detail
        detail = SyntaxMessages.inOurWords(yajlDetail)
        if atEnd && at == end && !yajlDetail.contains("premature EOF") && yajlDetail.hasPrefix("lexical error") {
            detail = "unexpected end of input (" + detail + ")"
        }
        // A form feed or lone surrogate that yajl let through before the error is the first error, if the
        // bytes that decide it come before yajl's error. Without tracking, `at` is only an estimate: then
        // `resolvePosition` decides from the whole input, with the exact position.
        if context != nil, let violation = rawInputCheck.firstViolation(in: chunk, start: start, limit: max(0, at - start)),
           violation.decidedBy < at {
            detail = violation.message
            at = violation.offset
        }
        var error = positionedAbsolute(MappingError(.syntax, detail), at: at, chunk: chunk)
        error.positionIsEstimated = context == nil
        return error
    }

    /// The syntax error for what yajl let through in `chunk` before `end`, if there is any.
    private func rawInputError(_ chunk: UnsafeRawBufferPointer, before end: Int) -> MappingError? {
        guard let violation = rawInputCheck.firstViolation(in: chunk, start: consumedBeforeChunk, limit: max(0, end)),
              violation.decidedBy < consumedBeforeChunk + end else {
            return nil
        }
        return positionedAbsolute(MappingError(.syntax, violation.message), at: violation.offset, chunk: chunk)
    }

    /// Sets the offset (and, when tracking lines, line and column) of an error at absolute offset `at`,
    /// which may lie before the current chunk.
    private func positionedAbsolute(_ error: MappingError, at: Int, chunk: UnsafeRawBufferPointer) -> MappingError {
        if at >= consumedBeforeChunk { return positioned(error, chunk: chunk, offsetInChunk: at - consumedBeforeChunk) }
        var error = error
        error.offset = at
        // Positions noted while their chunks were at hand: the token after the last delivered one, and a
        // held-back raw input violation.
        let last = buffers.pointee.lastToken
        var known: TextPosition? = nil
        if last.scannedFor == last.end, last.nextStart == at { known = last.nextPosition }
        if let held = heldBackPosition, held.offset == at { known = held.position }
        if tracksLines, let known {
            error.line = known.line
            error.column = known.column
            return error
        }
        if tracksLines {
            // Work back from the position at the chunk start over the recent input.
            let byte = { (i: Int) -> UInt8? in self.recent.byte(at: i, current: chunk, currentStart: self.consumedBeforeChunk) }
            var newlines = 0
            var scalars = 0
            var known = true
            var i = consumedBeforeChunk - 1
            while i >= at {
                guard let b = byte(i) else { known = false; break }
                if b == UInt8(ascii: "\n") { newlines += 1 } else if newlines == 0 && b & 0xC0 != 0x80 { scalars += 1 }
                i -= 1
            }
            if known && newlines == 0 {
                error.line = position.line
                error.column = position.column - scalars
            } else if known {
                // Count the scalars between the start of the error's line and the error.
                var column = 1
                var j = at - 1
                while j >= 0, let b = byte(j), b != UInt8(ascii: "\n") {
                    if b & 0xC0 != 0x80 { column += 1 }
                    j -= 1
                }
                if j < 0 || byte(j) == UInt8(ascii: "\n") {
                    error.line = position.line - newlines
                    error.column = column
                }
            }
        }
        return error
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

// MARK: - Recent input

/// The last bytes fed to a tokenizer before the current chunk, so error positions can look back over a
/// chunk boundary. Chunks the caller keeps alive (`referencingInput`) are remembered by pointer instead.
struct RecentInput {
    static let capacity = 1024
    private var ring: [UInt8] = []
    /// Absolute offset one past the last byte in `ring`.
    private var ringEnd = 0
    private var ringCount = 0
    private var kept: UnsafeRawBufferPointer? = nil
    private var keptStart = 0

    mutating func reset() {
        ringEnd = 0
        ringCount = 0
        kept = nil
        keptStart = 0
    }

    /// Records a chunk that started at absolute offset `start`.
    mutating func record(_ chunk: UnsafeRawBufferPointer, start: Int, referenced: Bool) {
        if referenced {
            kept = chunk
            keptStart = start
            return
        }
        if ring.isEmpty { ring = [UInt8](repeating: 0, count: Self.capacity) }
        let take = min(chunk.count, Self.capacity)
        let first = chunk.count - take
        if take > 0, let source = chunk.baseAddress {
            ring.withUnsafeMutableBytes { r in
                // At most two copies: up to the end of the ring, then from its start.
                let at = (start + first) % Self.capacity
                let head = min(take, Self.capacity - at)
                assert(at + head <= r.count && take - head <= at, "recent input copied past the ring")
                r.baseAddress!.advanced(by: at).copyMemory(from: source + first, byteCount: head)
                if head < take {
                    r.baseAddress!.copyMemory(from: source + first + head, byteCount: take - head)
                }
            }
        }
        if start != ringEnd { ringCount = 0 }
        ringEnd = start + chunk.count
        ringCount = min(Self.capacity, ringCount + chunk.count)
    }

    /// The byte at `offset`, looking at `current` (starting at `currentStart`) first.
    func byte(at offset: Int, current: UnsafeRawBufferPointer, currentStart: Int) -> UInt8? {
        if offset < 0 { return nil }
        if offset >= currentStart && offset < currentStart + current.count { return current[offset - currentStart] }
        if let kept, offset >= keptStart && offset < keptStart + kept.count { return kept[offset - keptStart] }
        if offset < ringEnd && offset >= ringEnd - ringCount { return ring[offset % Self.capacity] }
        return nil
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

/// The same callbacks, also remembering where each token ended (tokenizers that track positions).
private nonisolated(unsafe) let trackingCallbacks: UnsafeMutablePointer<yajl_callbacks> = {
    let table = UnsafeMutablePointer<yajl_callbacks>.allocate(capacity: 1)
    table.initialize(to: trackingCallbackTable)
    return table
}()

@inline(__always)
private func tracked(_ context: UnsafeMutableRawPointer?, _ ok: Bool,
                     _ previous: SyntaxErrorPosition.Context.Previous) -> Int32 {
    guard ok else { return 0 }
    let t = tape(context)
    if let handle = t.pointee.positionHandle {
        t.pointee.lastToken.end = min(t.pointee.chunkStart + Int(yajl_get_bytes_consumed(handle)), t.pointee.chunkEnd)
    }
    t.pointee.lastToken.previous = previous
    t.pointee.lastToken.depth = t.pointee.depth
    return 1
}

private let trackingCallbackTable = yajl_callbacks(
    yajl_null: { tracked($0, tape($0).pointee.appendScalar(.null, bytes: nil, count: 0), .value) },
    yajl_boolean: { tracked($0, tape($0).pointee.appendScalar($1 != 0 ? .trueValue : .falseValue, bytes: nil, count: 0), .value) },
    yajl_integer: nil,
    yajl_double: nil,
    yajl_number: { tracked($0, tape($0).pointee.appendScalar(.number, bytes: UnsafeRawPointer($1), count: $2), .value) },
    yajl_string: { tracked($0, tape($0).pointee.appendScalar(.string, bytes: UnsafeRawPointer($1), count: $2), .value) },
    yajl_start_map: { tracked($0, tape($0).pointee.openContainer(.objectStart), .containerStart) },
    yajl_map_key: { tracked($0, tape($0).pointee.appendKey(bytes: UnsafeRawPointer($1), count: $2), .key) },
    yajl_end_map: { tracked($0, tape($0).pointee.closeContainer(.objectEnd), .value) },
    yajl_start_array: { tracked($0, tape($0).pointee.openContainer(.arrayStart), .containerStart) },
    yajl_end_array: { tracked($0, tape($0).pointee.closeContainer(.arrayEnd), .value) }
)

private let tokenizerCallbackTable = yajl_callbacks(
    yajl_null: { tape($0).pointee.appendScalar(.null, bytes: nil, count: 0) ? 1 : 0 },
    yajl_boolean: { tape($0).pointee.appendScalar($1 != 0 ? .trueValue : .falseValue, bytes: nil, count: 0) ? 1 : 0 },
    yajl_integer: nil,
    yajl_double: nil,
    yajl_number: { tape($0).pointee.appendScalar(.number, bytes: UnsafeRawPointer($1), count: $2) ? 1 : 0 },
    yajl_string: { tape($0).pointee.appendScalar(.string, bytes: UnsafeRawPointer($1), count: $2) ? 1 : 0 },
    yajl_start_map: { tape($0).pointee.openContainer(.objectStart) ? 1 : 0 },
    yajl_map_key: { tape($0).pointee.appendKey(bytes: UnsafeRawPointer($1), count: $2) ? 1 : 0 },
    yajl_end_map: { tape($0).pointee.closeContainer(.objectEnd) ? 1 : 0 },
    yajl_start_array: { tape($0).pointee.openContainer(.arrayStart) ? 1 : 0 },
    yajl_end_array: { tape($0).pointee.closeContainer(.arrayEnd) ? 1 : 0 }
)
