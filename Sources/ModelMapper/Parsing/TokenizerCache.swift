// Unsafe code: `take` reads and sets the depth limit in a spare tokenizer's `buffers` (`.pointee` of the
// `TapeBuffers` the tokenizer allocates, Tape.swift).
//
// Invariants: `buffers` is valid while the tokenizer lives (it is freed in the tokenizer's deinit), and the
// tokenizer is used by this thread only, from `take` to `give`. A spare is reset before it is kept
// (`give`), asserted in `take`. The per-thread slots and their invariants are ThreadSpare.swift's
// (`NestedThreadSpare`): a nested use on the same thread (a JSON Lines reader's record decoder holds one
// while its caller's body decodes a document; a hook that decodes again) takes the next level's
// tokenizer, so nothing is shared.

/// A spare tokenizer per thread (and per nesting level, at most `levels`), so decoding many documents
/// reuses the tape's buffers instead of allocating (and page-faulting) megabytes for every document, and a
/// JSON Lines reader's record decoders reuse them per call. `DecodingBuffers.releaseIdle()` frees the spares
/// of every thread that is not decoding.
enum TokenizerCache {
    /// Tokenizers that grew beyond this are not kept, so a one-off huge document does not pin memory: a
    /// thread keeps at most this much per level (`levels`) between decodings.
    static let maximumRetainedBytes = 8 << 20

    /// The nesting levels that keep a tokenizer: a document decoded inside a JSON Lines reader's loop (or a
    /// hook) is the second.
    static let levels = 2

    private static let spare = NestedThreadSpare<Tokenizer>(levels: levels)

    /// A reset tokenizer (default configuration) for one whole document or a reader's records.
    static func take(expectedInputSize: Int, depthLimit: Int) -> Tokenizer {
        if let taken = spare.take() {
            let tokenizer = taken.object
            assert(tokenizer.buffers.pointee.tokenCount == 0 && !tokenizer.isFinished, "a cached tokenizer was not reset")
            tokenizer.buffers.pointee.depthLimit = depthLimit
            tokenizer.spareLevel = taken.level
            return tokenizer
        }
        return Tokenizer(expectedInputSize: expectedInputSize, depthLimit: depthLimit)
    }

    /// Bytes of the tokenizers the calling thread keeps (0 if none), for tests.
    static var retainedBytesOnThisThread: Int { spare.currentThreadSpares.reduce(0) { $0 + $1.retainedBytes } }

    /// Spare tokenizers kept right now (every thread, every level), for tests.
    static var threadsKeepingOne: Int { spare.keptCounts().reduce(0, +) }

    /// Returns a tokenizer from `take` for reuse on this thread.
    static func give(_ tokenizer: Tokenizer) {
        guard tokenizer.retainedBytes <= maximumRetainedBytes else { return }
        tokenizer.reset()
        spare.give(tokenizer, level: tokenizer.spareLevel)
    }
}

extension Tokenizer: ThreadSpareObject {
    /// Nothing refers back to a tokenizer: its release frees everything.
    func retire() {}
}
