// Unsafe code: a per-thread slot holding one retained `Tokenizer` as an opaque pointer.
//
// Invariants: the slot holds either nil or a +1 reference produced by `Unmanaged.passRetained`; `take`
// empties the slot before handing its tokenizer out (so a nested decode on the same thread, from a hook,
// gets a fresh one and nothing is shared), and the thread-exit destructor releases what is left.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One spare tokenizer per thread, so decoding many documents reuses the tape's buffers instead of
/// allocating (and page-faulting) megabytes for every document.
enum TokenizerCache {
    /// Tokenizers that grew beyond this are not kept, so a one-off huge document does not pin memory.
    static let maximumRetainedBytes = 8 << 20

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<Tokenizer>.fromOpaque(pointer).release() }
        }
        return key
    }()

    /// A reset tokenizer for one whole document.
    static func take(expectedInputSize: Int, depthLimit: Int) -> Tokenizer {
        if let pointer = pthread_getspecific(key) {
            pthread_setspecific(key, nil)
            let tokenizer = Unmanaged<Tokenizer>.fromOpaque(pointer).takeRetainedValue()
            assert(tokenizer.buffers.pointee.tokenCount == 0 && !tokenizer.isFinished, "a cached tokenizer was not reset")
            tokenizer.buffers.pointee.depthLimit = depthLimit
            return tokenizer
        }
        return Tokenizer(expectedInputSize: expectedInputSize, depthLimit: depthLimit)
    }

    /// Returns a tokenizer from `take` for reuse on this thread.
    static func give(_ tokenizer: Tokenizer) {
        guard tokenizer.retainedBytes <= maximumRetainedBytes, pthread_getspecific(key) == nil else { return }
        tokenizer.reset()
        pthread_setspecific(key, Unmanaged.passRetained(tokenizer).toOpaque())
    }
}
