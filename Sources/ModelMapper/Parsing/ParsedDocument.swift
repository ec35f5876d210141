// Unsafe code: the tape references the caller's buffer instead of copying its strings.
//
// Invariants: `bytes` is valid for the whole call, and the `TapeView` handed to `body` is used only inside
// `body` (it must not escape): the tokenizer goes back to the per-thread cache, to be reset and reused,
// only after `body` and error positioning are done. A comma-blanked copy (`TrailingCommas`) is freed after
// that, never while the tokenizer still references it.

// Parsing one whole document: the entry every single-document decode goes through (the caller's bytes come
// through `withParsedInput`, InputNormalization.swift, first).

/// Parses a whole buffer of UTF-8 JSON text into a tape and runs `body` on it; errors get their line and
/// column from the buffer. Tokens reference the buffer directly (it outlives `body`). With a `filter`, the
/// tape keeps only what the filter's model reads (see ``TapeFilterNode``); the caller keeps the filter alive.
func withParsedDocument<R>(
    _ bytes: UnsafeRawBufferPointer, depthLimit: Int, filter: TapeFilterNode? = nil,
    _ body: (TapeView) throws(MappingError) -> R
) throws(MappingError) -> R {
    try withParsedText(bytes, depthLimit: depthLimit, filter: filter, allowsTrailingCommas: false) { tape, _ throws(MappingError) in
        try body(tape)
    }
}

/// ``withParsedDocument(_:depthLimit:filter:_:)``, and with `allowsTrailingCommas`, a document yajl rejects at
/// a `]` or `}` right after a comma is parsed again from a copy of `text` with its trailing commas blanked
/// (``TrailingCommas``). `body` gets the tape and the bytes it references: `text` or that copy, which has
/// `text`'s length, so positions in either are positions in `text`.
func withParsedText<R>(
    _ text: UnsafeRawBufferPointer, depthLimit: Int, filter: TapeFilterNode?, allowsTrailingCommas: Bool,
    _ body: (TapeView, UnsafeRawBufferPointer) throws(MappingError) -> R
) throws(MappingError) -> R {
    var blanked: UnsafeMutableRawBufferPointer? = nil
    defer { blanked?.deallocate() }
    let tokenizer = TokenizerCache.take(expectedInputSize: text.count, depthLimit: depthLimit)
    defer { TokenizerCache.give(tokenizer) }
    var bytes = text
    while true {
        tokenizer.buffers.pointee.setFilter(filter)
        if UTF8Shape.isWorthChecking(bytes) { tokenizer.adopt(UTF8Shape.check(bytes)) }
        do {
            try tokenizer.feed(bytes, referencingInput: true)
            try tokenizer.finish()
            break
        } catch {
            var error = error
            tokenizer.view.locate(&error)
            error.resolvePosition(in: bytes)
            guard allowsTrailingCommas, blanked == nil, TrailingCommas.endsAt(error, in: bytes),
                  let copy = TrailingCommas.blankedCopy(of: bytes) else { throw error }
            blanked = copy
            bytes = UnsafeRawBufferPointer(rebasing: copy[0..<text.count])
            tokenizer.reset()
        }
    }
    do {
        return try body(tokenizer.view, bytes)
    } catch {
        var error = error
        tokenizer.view.locate(&error)
        error.resolvePosition(in: bytes)
        throw error
    }
}
