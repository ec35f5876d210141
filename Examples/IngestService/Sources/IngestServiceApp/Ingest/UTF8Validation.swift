// Unsafe code: lends a ByteBuffer's readable bytes to the standard library's UTF-8 check as a Span. The
// span is made and dropped inside `withUnsafeReadableBytes`, so it never outlives the bytes it views.
import NIOCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ByteBuffer {
    /// Whether the readable bytes are valid UTF-8: the standard library's check (`UTF8Span`), without
    /// making a `String` of them (which allocates and copies).
    var isValidUTF8: Bool {
        withUnsafeReadableBytes { bytes in
            (try? UTF8Span(validating: Span<UInt8>(_unsafeBytes: bytes))) != nil
        }
    }
}

extension ByteBuffer {
    /// Whether the readable bytes hold a NUL byte (which no JSON text holds raw, and no text column takes).
    var containsNUL: Bool {
        withUnsafeReadableBytes { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0, bytes.count) != nil
        }
    }
}
