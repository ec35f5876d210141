// Unsafe code: the `withEncodedBytes` methods lend the encoder's output buffer to `body` as an
// `UnsafeRawBufferPointer` (`JSONWriter.withBytes`).
//
// Invariants: the bytes are valid only during `body`, which must not keep them (the documented contract, as
// for `JSONInput.withJSONBytes`); the writer that owns them lives until `withBytes` returns. Guaranteed by
// the closure's scope, so there is nothing to assert here.

import Foundation

// For writing JSON into a buffer of the caller's (a server's `ByteBuffer`: ModelMapperNIO) without the
// `Data` that `encode(_:)` returns: the same encodings, the bytes lent instead of handed over.
extension ModelEncoder {
    /// Encodes the model as `encode(_:)` does and lends its UTF-8 JSON to `body`, valid only during
    /// the call: for copying it straight into a buffer of your own (such as a SwiftNIO `ByteBuffer`) with
    /// no `Data` in between.
    ///
    /// - Throws: what `encode(_:)` throws, or what `body` throws.
    public func withEncodedBytes<M: MappedJSONModel, R>(of model: M, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try encodeOutput(model).withBytes { try body(UnsafeRawBufferPointer($0)) }
    }

    /// Encodes any `Encodable` value as `encode(_:)` does (JSONEncoder's settings) and lends its UTF-8 JSON
    /// to `body`, valid only during the call.
    ///
    /// - Throws: `EncodingError` as `encode(_:)` does, or what `body` throws.
    public func withEncodedBytes<T: Encodable, R>(of value: T, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try encodeCodable(value, usesMapping: true).withBytes { try body(UnsafeRawBufferPointer($0)) }
    }

    /// A model that is also `Encodable` (a ``JSONCodable`` or `@JSONModel` model), encoded by its mapping as
    /// `encode(_:)` encodes it, its UTF-8 JSON lent to `body`, valid only during the call.
    public func withEncodedBytes<M: MappedJSONModel & Encodable, R>(of model: M, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard mapsCodableModelsDirectly else {
            return try encodeCodable(model, usesMapping: true).withBytes { try body(UnsafeRawBufferPointer($0)) }
        }
        let writer: JSONWriter
        do {
            writer = try encodeOutput(model, options: try codableModelSetting().options)
        } catch {
            if let thrown = error.codableError { throw thrown }
            throw error
        }
        return try writer.withBytes { try body(UnsafeRawBufferPointer($0)) }
    }
}
