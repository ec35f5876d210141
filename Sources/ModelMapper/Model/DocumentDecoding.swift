// Unsafe code: `decodeBytes` passes the caller's `UnsafeRawBufferPointer` on to the tokenizer, and hands the
// codecs a `TapeView` (pointers into the tape and into those bytes or their UTF-8 copy); `decodeFoundationObject`
// a view of a `ValueTape`. Nothing here reads through a pointer itself.
//
// Invariants: the bytes, the text and the view are valid only during the call (`withParsedInput`,
// `ValueTape.withView`) and never escape it: `body` and `locate` are non-escaping closures, and `locate` runs
// in `decodeReporting`'s `defer`, inside that call. What the view may be used for is Tape.swift's rule.

// Running a codec over one parsed document, and delivering what it reported.
//
// Every single-value decode ends here: `decodeBytes` (JSON bytes, through `withParsedDocument`),
// `decodeFoundationObject` (dictionary input, through `ValueTape`) and the streaming `RecordDecoder` (one
// record of a JSON Lines or array stream). `decodeReporting` is the one place where the errors the codecs
// recorded in `.lenient` mode with a handler installed (`DecodingOptions.invalidValueHandler`) are
// positioned and handed to the handler, when the decode ends (whether it succeeded or threw).

/// Runs `body` with a context over `tape`; when the options have an invalid-value handler, the errors the
/// codecs reported are positioned by `locate` and handed to it, in document order, after `body` returns —
/// also when it throws (then before the error propagates): a value that was forgiven is reported even if
/// a later error fails the decode, so nothing the handler was promised is lost.
///
/// `tracksPath` (the root codec's ``FieldCodec/reachesContext``): a hook or transformer may run, so the
/// path is tracked for its ``MappingContext`` — by the report, or without a handler by a report that only
/// tracks (forgiving nothing, delivering nothing). `contextPrefix` goes in front of that path.
@inline(__always)
func decodeReporting<R>(
    _ tape: TapeView, options: DecodingOptions, tracksPath: Bool = false, contextPrefix: @autoclosure () -> [String] = [],
    locate: (inout MappingError) -> Void, _ body: (DecodeContext) throws(MappingError) -> R
) throws(MappingError) -> R {
    guard let handler = options.invalidValueHandler else {
        guard tracksPath else { return try body(DecodeContext(tape: tape, options: options, report: nil)) }
        let tracker = ErrorReport(forgiving: false)
        tracker.contextPrefix = contextPrefix()
        return try body(DecodeContext(tape: tape, options: options, report: tracker))
    }
    let report = ErrorReport()
    if tracksPath { report.contextPrefix = contextPrefix() }
    defer {
        for error in report.errors {
            var error = error
            locate(&error)
            handler(error)
        }
    }
    return try body(DecodeContext(tape: tape, options: options, report: report))
}

/// Decodes one document from bytes (any input JSONDecoder reads, see `withParsedInput`): the tape
/// references the bytes or their UTF-8 text, errors (thrown and reported) get their line and column.
func decodeBytes<R>(_ bytes: UnsafeRawBufferPointer, options: DecodingOptions, filter: TapeFilterNode? = nil,
                    tracksPath: Bool = false, _ body: (DecodeContext) throws(MappingError) -> R) throws(MappingError) -> R {
    try withParsedInput(bytes, depthLimit: options.depthLimit, filter: filter, allowsTrailingCommas: true) { tape, text throws(MappingError) in
        try decodeReporting(tape, options: options, tracksPath: tracksPath, locate: { error in
            tape.locate(&error)
            error.resolvePosition(in: text)
            InputEncoding.mapPosition(&error, text: text, input: bytes)
        }, body)
    }
}

/// Decodes from a `JSONSerialization` object or a ``JSONValue`` (dictionary input): the object is copied
/// into a tape first, so the same codecs run (with `filter`, only what the model reads is copied); errors
/// have paths but no line and column.
func decodeFoundationObject<R>(_ object: Any, options: DecodingOptions, filter: TapeFilterNode? = nil, tracksPath: Bool = false,
                               _ body: (DecodeContext) throws(MappingError) -> R) throws(MappingError) -> R {
    let tape = try ValueTape(foundation: object, depthLimit: options.depthLimit, filter: filter)
    return try tape.withView { view throws(MappingError) in
        try decodeReporting(view, options: options, tracksPath: tracksPath, locate: { error in error.tokenIndex = nil }, body)
    }
}
