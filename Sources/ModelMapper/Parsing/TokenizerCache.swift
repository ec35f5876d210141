// Unsafe code: `take` reads and sets the depth limit in a spare tokenizer's `buffers` (`.pointee` of the
// `TapeBuffers` the tokenizer allocates, Tape.swift).
//
// Invariants: `buffers` is valid while the tokenizer lives (it is freed in the tokenizer's deinit), and the
// tokenizer is used by this thread only, from `take` to `give`. The per-thread slot and its invariants are
// ThreadSpare.swift's: a nested decode on the same thread (from a hook) finds the slot empty and gets a
// fresh tokenizer, so nothing is shared. A spare is reset before it is kept (`give`), asserted in `take`.

/// One spare tokenizer per thread, so decoding many documents reuses the tape's buffers instead of
/// allocating (and page-faulting) megabytes for every document. `DecodingBuffers.releaseIdle()` frees the
/// spares of every thread that is not decoding.
enum TokenizerCache {
    /// Tokenizers that grew beyond this are not kept, so a one-off huge document does not pin memory: a
    /// thread keeps at most this much between decodings.
    static let maximumRetainedBytes = 8 << 20

    private static let spare = ThreadSpare<Tokenizer>()

    /// A reset tokenizer for one whole document.
    static func take(expectedInputSize: Int, depthLimit: Int) -> Tokenizer {
        if let tokenizer = spare.take() {
            assert(tokenizer.buffers.pointee.tokenCount == 0 && !tokenizer.isFinished, "a cached tokenizer was not reset")
            tokenizer.buffers.pointee.depthLimit = depthLimit
            return tokenizer
        }
        return Tokenizer(expectedInputSize: expectedInputSize, depthLimit: depthLimit)
    }

    /// Bytes of the tokenizer the calling thread keeps (0 if none), for tests.
    static var retainedBytesOnThisThread: Int { spare.currentThreadSpare?.retainedBytes ?? 0 }

    /// Threads keeping a spare tokenizer right now, for tests.
    static var threadsKeepingOne: Int { spare.registry.keptCount() }

    /// Returns a tokenizer from `take` for reuse on this thread.
    static func give(_ tokenizer: Tokenizer) {
        guard tokenizer.retainedBytes <= maximumRetainedBytes else { return }
        tokenizer.reset()
        spare.give(tokenizer)
    }
}

extension Tokenizer: ThreadSpareObject {
    /// Nothing refers back to a tokenizer: its release frees everything.
    func retire() {}
}
