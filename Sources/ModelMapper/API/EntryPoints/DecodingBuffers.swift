/// The memory ModelMapper keeps between decodings, and how to give it back.
///
/// To avoid allocating (and page-faulting) buffers for every document, each thread that decodes keeps
/// one spare tokenizer (the tape of the last document, at most 8 MiB: a larger one is freed after its
/// decoding; two when a document is decoded while a JSON Lines reader or another decoding holds the first)
/// and, after a Codable decoding, one spare decoding state (the key tables of at most 32 key types; one
/// per nesting depth, at most 4, when decodings nest on the thread). They are freed when the thread exits. Parallel work (``JSONLines/decodeAll(_:format:options:workers:maxRecordBytes:onError:progress:)``
/// and the batches of an asynchronous source) runs on at most `activeProcessorCount` long-lived threads
/// that are started on first use and reused by every later call, so neither the threads nor what they keep
/// grow with the number of calls.
///
/// A server that wants this memory back — after a burst of large documents, or when the system reports
/// memory pressure — calls ``releaseIdle()``; decoding keeps working and the next decoding on each thread
/// allocates its buffers again.
public enum DecodingBuffers {
    /// Frees the spare buffers of every thread that is not decoding at this moment (a thread in the middle
    /// of a decoding keeps its own until it has finished, then keeps it as a spare again). Safe to call
    /// from any thread at any time.
    ///
    /// - Returns: the number of spare objects freed.
    @discardableResult
    public static func releaseIdle() -> Int {
        ThreadSpares.releaseIdle()
    }
}
