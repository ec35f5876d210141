// Unsafe code: a per-thread slot holding one retained object as an opaque pointer.
//
// Invariants:
// - The slot holds nil or a +1 reference made by `Unmanaged.passRetained` of an `Object`.
// - `take` empties the slot before handing its object out, so a nested use on the same thread (a hook or
//   `init(from:)` that decodes again) finds nil and makes its own: an object is never used by two at once,
//   and never by two threads (a thread's slot is its own).
// - The thread-exit destructor retires and releases what is left; `give` retires an object it does not keep.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An object worth keeping per thread between uses (its buffers, pools and caches).
protocol ThreadSpareObject: AnyObject {
    /// Drops what the object holds that refers back to it, before its last release.
    func retire()
}

/// One spare object per thread: `take` it at the start of a use, `give` it back at the end.
final class ThreadSpare<Object: ThreadSpareObject>: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            // Runs at thread exit, without `Object`'s type at hand: the protocol is found by a cast.
            let object = Unmanaged<AnyObject>.fromOpaque(pointer).takeRetainedValue()
            (object as? any ThreadSpareObject)?.retire()
        }
        precondition(status == 0, "pthread_key_create failed (\(status))")
        self.key = key
    }

    /// The thread's spare, taken out of its slot; nil when there is none (first use on the thread, or the
    /// spare is in use further up the stack).
    @inline(__always)
    func take() -> Object? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        pthread_setspecific(key, nil)
        return Unmanaged<Object>.fromOpaque(pointer).takeRetainedValue()
    }

    /// Keeps `object` as the thread's spare, or retires it when the thread has one already.
    @inline(__always)
    func give(_ object: Object) {
        guard pthread_getspecific(key) == nil else {
            object.retire()
            return
        }
        pthread_setspecific(key, Unmanaged.passRetained(object).toOpaque())
    }
}
