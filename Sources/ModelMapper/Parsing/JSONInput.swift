import Foundation

/// Contiguous UTF-8 JSON text that ModelMapper can read without copying: `Data`, `[UInt8]`, `String`,
/// `Substring`, `ArraySlice<UInt8>`, `UnsafeRawBufferPointer` and `UnsafeBufferPointer<UInt8>`.
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

/// Parses a whole buffer into a tape and runs `body` on it; errors get their line and column from the
/// buffer. Tokens reference the buffer directly (it outlives `body`). With a `filter`, the tape keeps only
/// what the filter's model reads (see ``TapeFilterNode``); the caller keeps the filter alive.
func withParsedDocument<R>(
    _ bytes: UnsafeRawBufferPointer, depthLimit: Int, filter: TapeFilterNode? = nil,
    _ body: (TapeView) throws(MappingError) -> R
) throws(MappingError) -> R {
    let tokenizer = TokenizerCache.take(expectedInputSize: bytes.count, depthLimit: depthLimit)
    defer { TokenizerCache.give(tokenizer) }
    tokenizer.buffers.pointee.setFilter(filter)
    do {
        try tokenizer.feed(bytes, referencingInput: true)
        try tokenizer.finish()
        return try body(tokenizer.view)
    } catch {
        var error = error
        tokenizer.view.locate(&error)
        error.resolvePosition(in: bytes)
        throw error
    }
}
