// Unsafe code: the tape's growable buffers, written by yajl's callbacks and read by the decoders.
//
// Invariants:
// - `TapeBuffers` lives in memory allocated and freed only by `Tape` (init/deinit); the C callbacks
//   reach it through yajl's context pointer, which is valid for exactly the lifetime of the `Tape`.
// - Every buffer pointer is either nil with capacity 0 or owns `capacity` elements; `count <= capacity`;
//   growth reallocates, so no pointer into a buffer is kept across an append (readers take a `TapeView`
//   only after parsing has finished, and the view must not outlive the tape nor the input buffer).
// - A token with `inArena == false` refers to the input buffer given to `parse`; such tokens are only
//   created when the caller promised (`referencesInput`) that the buffer outlives every `TapeView`.
// - `Token` and `StackEntry` are trivial types, so buffers are filled and moved with plain memory copies.

/// Growable storage written by the tokenizer's callbacks. All fields are trivial; see the file comment.
struct TapeBuffers {
    struct StackEntry {
        /// Index of the container's start token.
        var start: Int
        /// Values plus keys seen directly inside the container.
        var items: Int
    }

    var tokens: UnsafeMutablePointer<Token>
    var tokenCount = 0
    var tokenCapacity: Int

    var arena: UnsafeMutablePointer<UInt8>
    var arenaCount = 0
    var arenaCapacity: Int

    /// The chunk being parsed, when tokens may reference it instead of copying.
    var input: UnsafeRawPointer? = nil
    var inputCount = 0

    /// `stack[0]` is the document level; `stack[d]` the container at depth `d`.
    var stack: UnsafeMutablePointer<StackEntry>
    var stackCapacity: Int
    var depth = 0
    var depthLimit: Int

    /// Values at this depth are records (0: concatenated values / JSON Lines, 1: elements of a top-level
    /// array); -1: records are not tracked.
    var recordDepth = -1
    /// Token index one past each completed record, in order.
    var recordEnds: UnsafeMutablePointer<Int>
    var recordEndCount = 0
    var recordEndCapacity: Int

    /// Why a callback cancelled the parse, if one did.
    var failure: TapeFailure = .none

    /// Only for tokenizers that track positions (chunked input): the yajl handle, the absolute offset
    /// and end of the chunk being parsed, and where the last token ended, for exact error positions.
    var positionHandle: OpaquePointer? = nil
    var chunkStart = 0
    var chunkEnd = 0
    var lastToken = SyntaxErrorPosition.Context()

    init(tokenCapacity: Int, arenaCapacity: Int, depthLimit: Int) {
        self.tokenCapacity = max(16, tokenCapacity)
        tokens = .allocate(capacity: self.tokenCapacity)
        self.arenaCapacity = max(64, arenaCapacity)
        arena = .allocate(capacity: self.arenaCapacity)
        self.depthLimit = depthLimit
        stackCapacity = min(depthLimit, 64) + 1
        stack = .allocate(capacity: stackCapacity)
        stack[0] = StackEntry(start: -1, items: 0)
        recordEndCapacity = 16
        recordEnds = .allocate(capacity: recordEndCapacity)
    }

    func deallocate() {
        tokens.deallocate()
        arena.deallocate()
        stack.deallocate()
        recordEnds.deallocate()
    }

    // MARK: Appending (called from the C callbacks)

    @inline(__always)
    mutating func appendToken(_ kind: TokenKind, inArena: Bool = false, length: UInt32 = 0, payload: Int = 0) {
        if tokenCount == tokenCapacity { growTokens() }
        tokens[tokenCount] = Token(kind: kind, inArena: inArena, length: length, payload: payload)
        tokenCount += 1
    }

    @inline(never)
    mutating func growTokens() {
        let newCapacity = tokenCapacity * 2
        let newTokens = UnsafeMutablePointer<Token>.allocate(capacity: newCapacity)
        newTokens.moveInitialize(from: tokens, count: tokenCount)
        tokens.deallocate()
        tokens = newTokens
        tokenCapacity = newCapacity
    }

    /// Appends a scalar (string, number, literal); returns false to cancel the parse.
    @inline(__always)
    mutating func appendScalar(_ kind: TokenKind, bytes: UnsafeRawPointer?, count: Int) -> Bool {
        stack[depth].items += 1
        if kind == .string || kind == .number || kind == .key {
            guard count <= Int(UInt32.max) else {
                failure = .valueTooLong(tokenCount)
                return false
            }
            if let input, let bytes, bytes >= input, bytes + count <= input + inputCount {
                appendToken(kind, length: UInt32(truncatingIfNeeded: count), payload: bytes - input)
            } else {
                let offset = copyToArena(bytes, count: count)
                appendToken(kind, inArena: true, length: UInt32(truncatingIfNeeded: count), payload: offset)
            }
        } else {
            appendToken(kind)
        }
        if depth == recordDepth && kind != .key { appendRecordEnd() }
        return true
    }

    @inline(__always)
    mutating func copyToArena(_ bytes: UnsafeRawPointer?, count: Int) -> Int {
        let offset = arenaCount
        guard count > 0, let bytes else { return offset }
        if arenaCount + count > arenaCapacity { growArena(minimum: arenaCount + count) }
        (arena + arenaCount).update(from: bytes.assumingMemoryBound(to: UInt8.self), count: count)
        arenaCount += count
        return offset
    }

    @inline(never)
    mutating func growArena(minimum: Int) {
        var newCapacity = arenaCapacity * 2
        while newCapacity < minimum { newCapacity *= 2 }
        let newArena = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newArena.update(from: arena, count: arenaCount)
        arena.deallocate()
        arena = newArena
        arenaCapacity = newCapacity
    }

    mutating func openContainer(_ kind: TokenKind) -> Bool {
        guard depth < depthLimit else {
            failure = .depthLimit(tokenCount)
            return false
        }
        stack[depth].items += 1
        depth += 1
        if depth == stackCapacity { growStack() }
        stack[depth] = StackEntry(start: tokenCount, items: 0)
        appendToken(kind)
        return true
    }

    mutating func closeContainer(_ kind: TokenKind) -> Bool {
        let entry = stack[depth]
        let isObject = kind == .objectEnd
        let members = isObject ? entry.items / 2 : entry.items
        guard members <= Int(UInt32.max) else {
            failure = .valueTooLong(tokenCount)
            return false
        }
        tokens[entry.start].payload = tokenCount
        tokens[entry.start].length = UInt32(truncatingIfNeeded: members)
        appendToken(kind, payload: entry.start)
        depth -= 1
        if depth == recordDepth { appendRecordEnd() }
        return true
    }

    @inline(never)
    mutating func growStack() {
        let newCapacity = stackCapacity * 2
        let newStack = UnsafeMutablePointer<StackEntry>.allocate(capacity: newCapacity)
        newStack.moveInitialize(from: stack, count: stackCapacity)
        stack.deallocate()
        stack = newStack
        stackCapacity = newCapacity
    }

    mutating func appendRecordEnd() {
        if recordEndCount == recordEndCapacity {
            let newCapacity = recordEndCapacity * 2
            let newEnds = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
            newEnds.moveInitialize(from: recordEnds, count: recordEndCount)
            recordEnds.deallocate()
            recordEnds = newEnds
            recordEndCapacity = newCapacity
        }
        recordEnds[recordEndCount] = tokenCount
        recordEndCount += 1
    }

    // MARK: Compaction (streaming)

    /// Drops the first `dropped` tokens (whole records, no open container among them) and the first
    /// `droppedBytes` arena bytes; see `discardRange`.
    mutating func discardPrefix(tokens dropped: Int, arenaBytes droppedBytes: Int) {
        discardRange(tokens: 0..<dropped, arenaBytes: droppedBytes)
    }

    /// Drops the tokens in `range` and the first `droppedBytes` arena bytes, moving later tokens and bytes
    /// down and rebasing token indices (container links, the open-container stack, record ends) and arena
    /// offsets. Keeping a head (`range.lowerBound > 0`) lets a reader drop finished elements of a
    /// top-level array while the array's start token stays.
    ///
    /// Preconditions: the dropped tokens are whole values (every container in the range starts and ends
    /// in it; no open container starts in it); no kept token uses the dropped arena bytes.
    mutating func discardRange(tokens range: Range<Int>, arenaBytes droppedBytes: Int) {
        precondition(range.lowerBound >= 0 && range.upperBound <= tokenCount, "token range out of bounds")
        precondition(droppedBytes >= 0 && droppedBytes <= arenaCount, "arena range out of bounds")
        let (lo, hi, n) = (range.lowerBound, range.upperBound, range.count)
        if depth > 0 {
            for d in 1...depth {
                precondition(!range.contains(stack[d].start), "cannot drop the start of an open container")
                if stack[d].start >= hi { stack[d].start -= n }
            }
        }
        let tail = tokenCount - hi
        if n > 0 && tail > 0 {
            // copyMemory has memmove semantics (the regions overlap).
            UnsafeMutableRawPointer(tokens + lo).copyMemory(from: tokens + hi, byteCount: tail * MemoryLayout<Token>.stride)
        }
        tokenCount -= n
        for i in 0..<tokenCount {
            switch tokens[i].kind {
            case .objectStart, .arrayStart, .objectEnd, .arrayEnd:
                // Links into the moved tail move with it (including from a kept head, such as the start
                // of a top-level array closed in the tail); an open container's start has no link yet.
                if tokens[i].payload >= hi { tokens[i].payload -= n }
            case .string, .number, .key:
                if tokens[i].inArena && droppedBytes > 0 {
                    assert(tokens[i].payload >= droppedBytes, "a kept token uses dropped arena bytes")
                    tokens[i].payload -= droppedBytes
                }
            default:
                break
            }
        }
        if droppedBytes > 0 {
            let keptBytes = arenaCount - droppedBytes
            if keptBytes > 0 { UnsafeMutableRawPointer(arena).copyMemory(from: arena + droppedBytes, byteCount: keptBytes) }
            arenaCount = keptBytes
        }
        // Record ends inside the dropped range go; later ones move down.
        var kept = 0
        for r in 0..<recordEndCount {
            let end = recordEnds[r]
            if end <= lo {
                recordEnds[kept] = end
            } else if end > hi {
                recordEnds[kept] = end - n
            } else {
                continue
            }
            kept += 1
        }
        recordEndCount = kept
    }
}

/// Why the tokenizer's callbacks stopped a parse.
enum TapeFailure: Equatable {
    case none
    /// Nesting exceeded the limit at this token index.
    case depthLimit(Int)
    /// A string, number or container exceeded 4 GiB / 2^32 members at this token index.
    case valueTooLong(Int)
}

/// Read-only access to a finished tape: raw pointers, no reference counting, valid while the owning
/// ``Tape`` and (for tokens that reference it) the input buffer are alive.
struct TapeView {
    let tokens: UnsafePointer<Token>
    let count: Int
    let input: UnsafeRawPointer?
    let arena: UnsafePointer<UInt8>

    @inline(__always)
    subscript(index: Int) -> Token { tokens[index] }

    /// The bytes of a string, key or number token.
    @inline(__always)
    func bytes(_ token: Token) -> UnsafeRawBufferPointer {
        let base = token.inArena ? UnsafeRawPointer(arena) : input.unsafelyUnwrapped
        return UnsafeRawBufferPointer(start: base + token.payload, count: Int(token.length))
    }

    /// The string or key token at `index` as a new String (one copy).
    ///
    /// yajl checks only the shape of UTF-8 sequences (a lead byte and its continuation bytes), not overlong
    /// forms (`C0 AF`), surrogates (`ED A0 80`) or values past U+10FFFF (`F4 90 80 80`). String's decoding
    /// replaces each of those with U+FFFD, and given the shape yajl checked, every replacement makes the
    /// text longer (a 2–4-byte sequence becomes 2–4 three-byte U+FFFD): an unchanged length proves valid
    /// UTF-8 at no cost beyond the decoding itself, and a changed one is an error, not a silent change.
    @inline(__always)
    func string(at index: Int) throws(MappingError) -> String {
        let raw = bytes(tokens[index])
        let string = String(decoding: raw, as: UTF8.self)
        guard string.utf8.count == raw.count else { throw invalidUTF8(at: index) }
        return string
    }

    @inline(never)
    private func invalidUTF8(at index: Int) -> MappingError {
        var error = MappingError(.syntax, "invalid UTF-8 in a string (overlong form, surrogate, or beyond U+10FFFF)")
        error.tokenIndex = index
        return error
    }

    /// The text of a number token, or of any token for messages (no validation: numbers are ASCII).
    @inline(__always)
    func text(_ token: Token) -> String {
        String(decoding: bytes(token), as: UTF8.self)
    }

    /// The index just past the value starting at `index`.
    @inline(__always)
    func indexAfterValue(at index: Int) -> Int {
        let token = tokens[index]
        return token.kind.isContainerStart ? token.payload + 1 : index + 1
    }
}
