// Unsafe code: a copy of a tape and of the bytes its tokens refer to, owned by this object.
//
// Invariants:
// - `view` points only into the four buffers allocated in `init` and freed in `deinit`: valid while this
//   object lives. Whoever reads `view` holds the object (`TapeDecodingState.Setting.keepsAlive`).
// - The copy has the same token indices, payloads and skip runs as the source, so token indices (kept by
//   decoders and containers) mean the same token in both; only the base pointers differ.
// - `.foreign` tokens (dictionary input) point to boxes their `ValueTape` holds: `foreignValues` holds them
//   too, so they live as long as the copy.
// - The source is read only inside `init`, while the caller guarantees it is valid (before the decoding
//   that made it ends).

/// The tape of a decoding whose decoder or container was kept by the value it decoded (JSONDecoder allows
/// that): when the decoding ends, its tape (the tokenizer's buffers, the caller's input bytes) is copied
/// here so that the kept decoder reads the same tokens later.
final class DetachedTape {
    let view: TapeView
    private let tokens: UnsafeMutablePointer<Token>
    private let input: UnsafeMutableRawPointer?
    private let arena: UnsafeMutablePointer<UInt8>
    private let skipRuns: UnsafeMutablePointer<TapeBuffers.SkipRun>?
    private var foreignValues: [ForeignValue] = []

    init(copying source: TapeView) {
        // The bytes tokens refer to: up to the end of the furthest one, in the input and in the arena.
        var inputEnd = 0
        var arenaEnd = 0
        for i in 0..<source.count {
            let token = source[i]
            if token.kind == .foreign {
                foreignValues.append(Unmanaged<ForeignValue>.fromOpaque(UnsafeRawPointer(bitPattern: token.payload).unsafelyUnwrapped)
                    .takeUnretainedValue())
            }
            guard token.kind == .string || token.kind == .key || token.kind == .number else { continue }
            let end = token.payload + Int(token.length)
            if token.inArena { arenaEnd = max(arenaEnd, end) } else { inputEnd = max(inputEnd, end) }
        }
        tokens = .allocate(capacity: max(source.count, 1))
        tokens.initialize(from: source.tokens, count: source.count)
        if let sourceInput = source.input {
            let copy = UnsafeMutableRawPointer.allocate(byteCount: max(inputEnd, 1), alignment: 1)
            copy.copyMemory(from: sourceInput, byteCount: inputEnd)
            input = copy
        } else {
            assert(inputEnd == 0, "input tokens on a tape without input")
            input = nil
        }
        arena = .allocate(capacity: max(arenaEnd, 1))
        arena.initialize(from: source.arena, count: arenaEnd)
        if let sourceRuns = source.skipRuns, source.skipRunCount > 0 {
            let copy = UnsafeMutablePointer<TapeBuffers.SkipRun>.allocate(capacity: source.skipRunCount)
            copy.initialize(from: sourceRuns, count: source.skipRunCount)
            skipRuns = copy
        } else {
            skipRuns = nil
        }
        var view = TapeView(tokens: UnsafePointer(tokens), count: source.count, input: input.map { UnsafeRawPointer($0) },
                            arena: UnsafePointer(arena), skipRuns: skipRuns.map { UnsafePointer($0) },
                            skipRunCount: skipRuns == nil ? 0 : source.skipRunCount,
                            stringsAreValidUTF8: source.stringsAreValidUTF8)
        #if DEBUG
        view.inputCount = inputEnd
        view.arenaCount = arenaEnd
        #endif
        self.view = view
    }

    deinit {
        tokens.deallocate()
        input?.deallocate()
        arena.deallocate()
        skipRuns?.deallocate()
    }
}
