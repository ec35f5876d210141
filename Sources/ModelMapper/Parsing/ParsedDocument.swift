// Unsafe code: the tape references the caller's buffer instead of copying its strings.
//
// Invariants: `bytes` is valid for the whole call, and the `TapeView` handed to `body` is used only inside
// `body` (it must not escape): the tokenizer goes back to the per-thread cache, to be reset and reused,
// only after `body` and error positioning are done.

// Parsing one whole document: the entry every single-document decode goes through.

/// Parses a whole buffer into a tape and runs `body` on it; errors get their line and column from the
/// buffer. Tokens reference the buffer directly (it outlives `body`). With a `filter`, the tape keeps only
/// what the filter's model reads (see ``TapeFilterNode``); the caller keeps the filter alive.
func withParsedDocument<R>(
    _ bytes: UnsafeRawBufferPointer, depthLimit: Int, filter: TapeFilterNode? = nil,
    _ body: (TapeView) throws(MappingError) -> R
) throws(MappingError) -> R {
    let tokenizer = TokenizerCache.take(expectedInputSize: bytes.count, depthLimit: depthLimit)
    defer { TokenizerCache.give(tokenizer) }
    tokenizer.buffers.pointee.setFilter(filter)
    if UTF8Shape.isWorthChecking(bytes) { tokenizer.adopt(UTF8Shape.check(bytes)) }
    do {
        try tokenizer.feed(bytes, referencingInput: true)
        try tokenizer.finish()
        return try body(tokenizer.view)
    } catch {
        var error = error
        tokenizer.view.locate(&error)
        error.resolvePosition(in: bytes)
        throw error
    }
}
