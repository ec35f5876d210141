// Unsafe code: lends a ByteBuffer's readable bytes to the standard library's UTF-8 check as a Span. The
// span is made and dropped inside `withUnsafeReadableBytes`, so it never outlives the bytes it views.
import NIOCore

extension ByteBuffer {
    /// Whether the readable bytes are valid UTF-8: the standard library's check (`UTF8Span`), without
    /// making a `String` of them (which allocates and copies).
    var isValidUTF8: Bool {
        withUnsafeReadableBytes { bytes in
            (try? UTF8Span(validating: Span<UInt8>(_unsafeBytes: bytes))) != nil
        }
    }
}
