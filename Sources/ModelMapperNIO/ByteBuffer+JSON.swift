// Unsafe code: `ByteBuffer`'s `JSONInput` conformance lends the buffer's readable bytes to `body`
// (`withUnsafeReadableBytes`), and `encode(_:into:)` copies the bytes ModelEncoder lends
// (`withEncodedBytes`) into the buffer (`writeBytes`).
//
// Invariants: the bytes are valid only during `body`, which must not keep them (JSONInput's contract);
// SwiftNIO's and ModelEncoder's closures scope them. Nothing here reads or writes through a pointer itself.

#if NIO
@_exported public import ModelMapper
public import NIOCore

/// A `ByteBuffer`'s readable bytes are JSON input, read in place (no copy):
/// `try Book(json: buffer)`, `try ModelDecoder().decode(Book.self, from: buffer)`. The reader index does
/// not move.
extension ByteBuffer: JSONInput {
    /// Calls `body` with the readable bytes, valid only during the call.
    public func withJSONBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeReadableBytes(body)
    }
}

extension ModelEncoder {
    /// Appends the model's JSON to `buffer` (at its writer index), encoded as `encode(_:)` encodes it: the
    /// encoder's bytes are copied once, into the buffer, with no `Data` in between.
    ///
    /// - Throws: ``MappingError`` as `encode(_:)`; `buffer` is then unchanged.
    public func encode<M: MappedJSONModel>(_ model: M, into buffer: inout ByteBuffer) throws {
        try withEncodedBytes(of: model) { _ = buffer.writeBytes($0) }
    }

    /// Appends any `Encodable` value's JSON to `buffer`, encoded as `encode(_:)` encodes it (JSONEncoder's
    /// settings; mapped models inside by their mapping).
    ///
    /// - Throws: `EncodingError` as `encode(_:)`; `buffer` is then unchanged.
    public func encode<T: Encodable>(_ value: T, into buffer: inout ByteBuffer) throws {
        try withEncodedBytes(of: value) { _ = buffer.writeBytes($0) }
    }

    /// Appends a model that is also `Encodable` (``JSONCodable``, `@JSONModel`) to `buffer`, by its mapping
    /// as `encode(_:)` encodes it.
    public func encode<M: MappedJSONModel & Encodable>(_ model: M, into buffer: inout ByteBuffer) throws {
        try withEncodedBytes(of: model) { _ = buffer.writeBytes($0) }
    }
}
#endif
