// Unsafe code: the `JSONInput` conformances lend the input's bytes to `body` as an `UnsafeRawBufferPointer`
// (`withUnsafeBytes`, or `withUTF8` of a copy of a string), or pass on the buffer the caller gave.
//
// Invariants: the bytes are valid only during `body`, which must not keep them (the protocol's contract;
// ModelMapper's decoders copy what they keep). For `UnsafeRawBufferPointer` and `UnsafeBufferPointer<UInt8>`
// input, the caller guarantees the memory is initialized and valid for the call. The conformances only
// forward buffers, so there is nothing here to assert.

import Foundation

/// Contiguous JSON text that ModelMapper can read without copying: `Data`, `[UInt8]`, `String`,
/// `Substring`, `ArraySlice<UInt8>`, `UnsafeRawBufferPointer` and `UnsafeBufferPointer<UInt8>`.
///
/// The bytes are UTF-8 (a byte-order mark is skipped), or UTF-16 or UTF-32 in either byte order, detected as
/// JSONDecoder detects them (see <doc:ConversionsAndErrors>); JSON Lines streams are UTF-8.
public protocol JSONInput {
    /// Calls `body` with the input's bytes, valid only during the call.
    func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

extension Data: JSONInput {
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(body)
    }
}

extension Array: JSONInput where Element == UInt8 {
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(body)
    }
}

extension ArraySlice: JSONInput where Element == UInt8 {
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(body)
    }
}

extension String: JSONInput {
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var copy = self
        return try copy.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}

extension Substring: JSONInput {
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        var copy = self
        return try copy.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}

extension UnsafeRawBufferPointer: JSONInput {
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(self)
    }
}

extension UnsafeBufferPointer: JSONInput where Element == UInt8 {
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(self))
    }
}
