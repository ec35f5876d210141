// Unsafe code: reads this thread's stack bounds and compares them with the current frame address.
//
// Invariants: the bounds come from `pthread_getattr_np` (Linux; `pthread_get_stackaddr_np` and
// `pthread_get_stacksize_np` on Darwin, CModelMapperYajl/shim.h) for the calling thread and are cached per thread
// (a thread's stack does not move); the position is the C frame address (`cyajl_frame_address`), which is
// on the real thread stack even under AddressSanitizer, whose use-after-return detection moves Swift
// locals to a heap "fake stack"; nothing is dereferenced.
import CModelMapperYajl
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Stops recursion (nested models) before it can overflow the stack of the thread it runs on, whatever
/// that stack's size and however large frames are (a debug build uses about 16 KB per model level,
/// sanitizers more): the depth limit alone cannot promise that on a 512 KB dispatch thread.
enum StackGuard {
    /// Head room kept free below the deepest decoding frame.
    private static func reserve(stackSize: Int) -> Int { min(256 << 10, stackSize / 4) }

    /// Per thread: the lowest usable stack address, plus the reserve (1 when unknown: no guard).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Whether there is room for another level of recursion.
    @inline(__always)
    static func hasRoom() -> Bool {
        UInt(bitPattern: cyajl_frame_address()) > limit()
    }

    private static func limit() -> UInt {
        if let cached = pthread_getspecific(key) { return UInt(bitPattern: cached) }
        var limit: UInt = 1
        var low: UnsafeMutableRawPointer? = nil
        var size = 0
        if cyajl_current_stack(&low, &size) == 0, let low {
            limit = UInt(bitPattern: low) + UInt(reserve(stackSize: size))
        }
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: limit))
        return limit
    }

    /// The error for input nested too deeply for the remaining stack.
    static func error(at index: Int?) -> MappingError {
        var error = MappingError(.depthLimit, "nesting too deep for this thread's stack")
        error.tokenIndex = index
        return error
    }
}
