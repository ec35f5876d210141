// Unsafe code: the tape's growable buffers, written by yajl's callbacks and read by the decoders.
//
// Invariants:
// - `TapeBuffers` lives in memory allocated and freed only by its owner, a `Tokenizer` or a `ValueTape`
//   (init/deinit); the C callbacks reach it through yajl's context pointer, which the `Tokenizer` frees
//   together with the yajl handle.
// - Every buffer owns `capacity` elements and `count <= capacity`; growth reallocates, so no pointer into
//   a buffer is kept across an append. A `TapeView` is a snapshot of the buffers: valid until the next
//   `feed`, `finish`, `reset` or compaction, and never after its owner or the input buffer is gone.
// - A token with `inArena == false` refers to the input chunk given to `Tokenizer.feed`; such tokens are
//   only recorded when the caller promised (`referencingInput`) that the chunk outlives every `TapeView`,
//   and only from the first chunk (`TapeView.input`). Its bytes lie in `0..<inputCount` of that chunk; an
//   arena token's in `0..<arenaCount`.
// - Containers: `stack[1...depth]` are the open ones, `depth <= depthLimit`; a start token's payload is
//   its end token's index (once closed) and an end token's payload its start token's, both below the
//   token count.
// - `Token` and `StackEntry` are trivial types, so buffers are filled and moved with plain memory copies
//   (`StackEntry.filter` is an unretained reference; see the invariants in TapeFilter.swift).
// - With a filter, tape index and callback ordinal differ by the callbacks skipped before the token:
//   `skipRuns` records them, in increasing tape index, so `documentOrdinal(of:)` can map an error's token
//   back to the input (TokenLocator counts callbacks).

/// Growable storage written by the tokenizer's callbacks. All fields are trivial; see the file comment.
struct TapeBuffers {
    struct StackEntry {
        /// Index of the container's start token.
        var start: Int
        /// Values plus keys seen directly inside the container.
        var items: Int
        /// What is recorded inside the container (nil: everything).
        var filter: UnsafePointer<TapeFilterTable>? = nil
    }

    /// A point where skipped callbacks end: tokens from `tapeIndex` on come after `skippedBefore`
    /// callbacks that recorded nothing.
    struct SkipRun {
        var tapeIndex: Int
        var skippedBefore: Int

        /// The callback ordinal (what ``TokenLocator`` counts) of the token at tape index `index`, given the
        /// runs of a tape in increasing `tapeIndex`.
        static func documentOrdinal(of index: Int, runs: UnsafePointer<SkipRun>, count: Int) -> Int {
            var low = 0, high = count
            while low < high {
                let mid = (low + high) / 2
                if runs[mid].tapeIndex <= index { low = mid + 1 } else { high = mid }
            }
            return low == 0 ? index : index + runs[low - 1].skippedBefore
        }
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
    /// The whole document is valid UTF-8 (``UTF8Shape``): strings need no check of their own.
    var stringsAreValidUTF8 = false

    // MARK: Filtering (whole-document decodes of models; see TapeFilter.swift)

    /// Whether `rootFilter` applies: the document's top-level value is filtered by it.
    var filtering = false
    var rootFilter: UnsafePointer<TapeFilterTable>? = nil
    /// In an object of a filtered model, the member entry of the key just seen (for its value's node).
    var pendingMember: UnsafeMutablePointer<TapeFilterTable.Member>? = nil
    /// The next value is skipped (its key was not kept).
    var skipsNextValue = false
    /// Containers open inside a skipped value.
    var skipDepth = 0
    /// Callbacks that recorded nothing, so far.
    var skippedCallbacks = 0
    var skipRuns: UnsafeMutablePointer<SkipRun>
    var skipRunCount = 0
    var skipRunCapacity: Int

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
        skipRunCapacity = 16
        skipRuns = .allocate(capacity: skipRunCapacity)
    }

    func deallocate() {
        tokens.deallocate()
        arena.deallocate()
        stack.deallocate()
        recordEnds.deallocate()
        skipRuns.deallocate()
    }

    /// Starts filtering the next document with `root` (nil: record everything).
    mutating func setFilter(_ root: TapeFilterNode?) {
        precondition(tokenCount == 0 && depth == 0 && recordDepth < 0, "a filter is set before a whole-document parse")
        rootFilter = root.map { UnsafePointer($0.table) }
        filtering = root != nil
    }

    /// Clears the filter state (the buffers stay).
    mutating func resetFilter() {
        filtering = false
        rootFilter = nil
        pendingMember = nil
        skipsNextValue = false
        skipDepth = 0
        skippedCallbacks = 0
        skipRunCount = 0
    }

    /// The value after a skipped key is skipped by the caller, which does not append it at all (a
    /// ``ValueTape`` walking values in memory): it counts as one skipped callback.
    mutating func skipPendingValue() {
        assert(filtering && skipsNextValue, "no value is pending a skip")
        skipsNextValue = false
        skippedCallbacks += 1
        endSkipRun()
    }

    // MARK: Appending (called from the C callbacks)

    @inline(__always)
    mutating func appendToken(_ kind: TokenKind, inArena: Bool = false, hint: UInt16 = 0, length: UInt32 = 0, payload: Int = 0) {
        if tokenCount == tokenCapacity { growTokens() }
        assert(tokenCount < tokenCapacity, "token write past the tape's capacity")
        tokens[tokenCount] = Token(kind: kind, inArena: inArena, hint: hint, length: length, payload: payload)
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

    /// Appends a scalar value (string, number, literal); returns false to cancel the parse.
    @inline(__always)
    mutating func appendScalar(_ kind: TokenKind, bytes: UnsafeRawPointer?, count: Int) -> Bool {
        assert(kind != .key, "keys are appended by appendKey")
        if filtering {
            if skipDepth > 0 {
                skippedCallbacks += 1
                return true
            }
            if skipsNextValue {
                // A skipped member's scalar value.
                skipsNextValue = false
                skippedCallbacks += 1
                endSkipRun()
                return true
            }
        }
        stack[depth].items += 1
        if kind == .string || kind == .number {
            guard appendBytes(kind, bytes: bytes, count: count) else { return false }
        } else {
            appendToken(kind)
        }
        if depth == recordDepth { appendRecordEnd() }
        return true
    }

    /// Appends a member key (yajl's map-key callback): `appendScalar` for keys, without the checks that
    /// only values need (a key never follows a key, never ends a record).
    @inline(__always)
    mutating func appendKey(bytes: UnsafeRawPointer?, count: Int) -> Bool {
        var hint: UInt16 = 0
        if filtering {
            if skipDepth > 0 {
                skippedCallbacks += 1
                return true
            }
            assert(!skipsNextValue, "a key cannot follow a key")
            if let filter = stack[depth].filter {
                let (kept, member) = keptMember(filter, bytes: bytes, count: count)
                guard kept else {
                    skipsNextValue = true
                    skippedCallbacks += 1
                    return true
                }
                hint = member?.pointee.hint ?? 0
                pendingMember = member
            }
        }
        stack[depth].items += 1
        return appendBytes(.key, hint: hint, bytes: bytes, count: count)
    }

    /// Appends a token of text (string, number or key): referencing the input chunk when the bytes lie in
    /// it, else copied into the arena. False (the parse is cancelled) when the text is too long for a token.
    @inline(__always)
    private mutating func appendBytes(_ kind: TokenKind, hint: UInt16 = 0, bytes: UnsafeRawPointer?, count: Int) -> Bool {
        guard count <= Int(UInt32.max) else {
            failure = .valueTooLong(tokenCount)
            return false
        }
        if let input, let bytes, bytes >= input, bytes + count <= input + inputCount {
            appendToken(kind, hint: hint, length: UInt32(truncatingIfNeeded: count), payload: bytes - input)
        } else {
            let offset = copyToArena(bytes, count: count)
            appendToken(kind, inArena: true, hint: hint, length: UInt32(truncatingIfNeeded: count), payload: offset)
        }
        return true
    }

    @inline(__always)
    mutating func copyToArena(_ bytes: UnsafeRawPointer?, count: Int) -> Int {
        let offset = arenaCount
        guard count > 0, let bytes else { return offset }
        if arenaCount + count > arenaCapacity { growArena(minimum: arenaCount + count) }
        assert(arenaCount + count <= arenaCapacity, "arena write past its capacity")
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
        guard depth + skipDepth < depthLimit else {
            failure = .depthLimit(tokenCount)
            return false
        }
        var filter: UnsafePointer<TapeFilterTable>? = nil
        if filtering {
            if skipDepth > 0 || skipsNextValue {
                skipsNextValue = false
                skipDepth += 1
                skippedCallbacks += 1
                return true
            }
            filter = TapeFilterTable.table(childFilter(), for: kind)
        }
        stack[depth].items += 1
        depth += 1
        assert(depth <= depthLimit, "container depth beyond the limit")
        if depth == stackCapacity { growStack() }
        assert(depth < stackCapacity, "container stack too small for the depth")
        stack[depth] = StackEntry(start: tokenCount, items: 0, filter: filter)
        appendToken(kind)
        return true
    }

    mutating func closeContainer(_ kind: TokenKind) -> Bool {
        if skipDepth > 0 {
            skipDepth -= 1
            skippedCallbacks += 1
            if skipDepth == 0 { endSkipRun() }
            return true
        }
        assert(depth > 0, "a container closes that was never opened")
        let entry = stack[depth]
        assert(entry.start >= 0 && entry.start < tokenCount, "an open container's start index is outside the tape")
        assert(tokens[entry.start].kind == (kind == .objectEnd ? .objectStart : .arrayStart), "a container closes with the other kind")
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

    /// The node expected for a value starting now: the root's at the top level, the pending member's in
    /// a model's object, the element's in an array or dictionary node, none inside a value recorded whole.
    @inline(__always)
    private func childFilter() -> UnsafePointer<TapeFilterTable>? {
        if depth == 0 { return rootFilter }
        guard let parent = stack[depth].filter else { return nil }
        return parent.pointee.shape == .object ? pendingMember?.pointee.child : parent.pointee.child
    }

    /// Whether a key is kept, and its member entry in an object node (dictionary nodes keep every key and
    /// have no entries; an object node keeps only the keys its model reads).
    @inline(__always)
    private func keptMember(_ filter: UnsafePointer<TapeFilterTable>, bytes: UnsafeRawPointer?,
                            count: Int) -> (Bool, UnsafeMutablePointer<TapeFilterTable.Member>?) {
        guard filter.pointee.shape == .object else { return (true, nil) }
        guard let keys = filter.pointee.keys, let members = filter.pointee.members else { return (false, nil) }
        let found = keys.find(UnsafeRawBufferPointer(start: bytes, count: count))
        assert(found >= -1 && found < keys.count, "a filter's key table value is not a member index")
        return found >= 0 ? (true, members + found) : (false, nil)
    }

    /// Notes that the callbacks skipped so far end before the token recorded next.
    @inline(__always)
    private mutating func endSkipRun() {
        if skipRunCount > 0 && skipRuns[skipRunCount - 1].tapeIndex == tokenCount {
            skipRuns[skipRunCount - 1].skippedBefore = skippedCallbacks
            return
        }
        if skipRunCount < skipRunCapacity {
            skipRuns[skipRunCount] = SkipRun(tapeIndex: tokenCount, skippedBefore: skippedCallbacks)
            skipRunCount += 1
            return
        }
        appendSkipRun()
    }

    /// `endSkipRun` when the runs are full: grows them, then appends.
    @inline(never)
    private mutating func appendSkipRun() {
        if skipRunCount == skipRunCapacity {
            let newCapacity = skipRunCapacity * 2
            let newRuns = UnsafeMutablePointer<SkipRun>.allocate(capacity: newCapacity)
            newRuns.moveInitialize(from: skipRuns, count: skipRunCount)
            skipRuns.deallocate()
            skipRuns = newRuns
            skipRunCapacity = newCapacity
        }
        skipRuns[skipRunCount] = SkipRun(tapeIndex: tokenCount, skippedBefore: skippedCallbacks)
        skipRunCount += 1
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
    /// Where a filter skipped callbacks (see `TapeBuffers.SkipRun`); none for unfiltered tapes.
    var skipRuns: UnsafePointer<TapeBuffers.SkipRun>? = nil
    var skipRunCount = 0
    /// Every string and key is valid UTF-8 (``TapeBuffers/stringsAreValidUTF8``).
    var stringsAreValidUTF8 = false
    #if DEBUG
    /// Debug builds only (the release layout stays as it is): the bytes of `input` and of `arena` that
    /// token payloads may refer to, checked by `bytes(_:)`.
    var inputCount = Int.max
    var arenaCount = Int.max
    #endif

    /// Rewrites an error's token index from this tape's numbering to the input's callback ordinal, which
    /// `MappingError.resolvePosition(in:)` locates. Call once, before resolving.
    func locate(_ error: inout MappingError) {
        guard let index = error.tokenIndex else { return }
        error.tokenIndex = documentOrdinal(of: index)
    }

    /// The callback ordinal (what ``TokenLocator`` counts) of the token at tape index `index`: the same
    /// index on an unfiltered tape.
    func documentOrdinal(of index: Int) -> Int {
        guard let skipRuns, skipRunCount > 0 else { return index }
        return TapeBuffers.SkipRun.documentOrdinal(of: index, runs: skipRuns, count: skipRunCount)
    }

    @inline(__always)
    subscript(index: Int) -> Token {
        assert(index >= 0 && index < count, "tape index out of bounds")
        return tokens[index]
    }

    /// The bytes of a string, key or number token.
    @inline(__always)
    func bytes(_ token: Token) -> UnsafeRawBufferPointer {
        assert(token.kind == .string || token.kind == .key || token.kind == .number, "only strings, keys and numbers have bytes")
        assert(token.inArena || input != nil, "an input token on a tape without input")
        #if DEBUG
        assert(token.payload >= 0 && token.payload + Int(token.length) <= (token.inArena ? arenaCount : inputCount),
               token.inArena ? "token bytes outside the arena" : "token bytes outside the input")
        #endif
        let base = token.inArena ? UnsafeRawPointer(arena) : input.unsafelyUnwrapped
        return UnsafeRawBufferPointer(start: base + token.payload, count: Int(token.length))
    }

    /// The string or key token at `index` as a new String (one copy).
    ///
    /// yajl checks only the shape of UTF-8 sequences (a lead byte and its continuation bytes), not overlong
    /// forms (`C0 AF`), surrogates (`ED A0 80`) or values past U+10FFFF (`F4 90 80 80`): `LexedUTF8` finds
    /// those from the lead bytes, so text that is not valid UTF-8 is an error, not a silent change to U+FFFD.
    @inline(__always)
    func string(at index: Int) throws(MappingError) -> String {
        guard let string = LexedUTF8.string(bytes(self[index]), isKnownValid: stringsAreValidUTF8) else { throw invalidUTF8(at: index) }
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
        let token = self[index]
        assert(!token.kind.isContainerStart || (token.payload > index && token.payload < count),
               "a container's end index is outside the tape")
        return token.kind.isContainerStart ? token.payload + 1 : index + 1
    }
}
