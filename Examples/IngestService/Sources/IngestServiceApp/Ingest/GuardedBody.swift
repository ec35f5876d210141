import Foundation
import NIOCore
import NIOFoundationCompat

/// A request body as the JSON Lines reader reads it: the chunks as `ByteBufferView`s (no copy),
/// counted, and cut off with a ``BodyLimitError`` when the body or one line grows past its limit — so
/// that neither a huge body nor a body without newlines can make the reader buffer without bound.
struct GuardedBody<Base: AsyncSequence>: AsyncSequence where Base.Element == ByteBuffer {
    typealias Element = ByteBufferView

    let base: Base
    /// The most body bytes read; nil for no limit.
    let maxBodySize: Int?
    /// The longest line accepted; nil to not look at lines (a top-level array is one line).
    let maxLineLength: Int?
    /// Called with each chunk as it passes (for counters and the raw-record tap).
    let onChunk: (ByteBuffer) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let maxBodySize: Int?
        let maxLineLength: Int?
        let onChunk: (ByteBuffer) -> Void
        var bodySize = 0
        /// Bytes since the last newline.
        var openLine = 0

        mutating func next() async throws -> ByteBufferView? {
            guard let chunk = try await base.next() else { return nil }
            bodySize += chunk.readableBytes
            onChunk(chunk)
            if let maxBodySize, bodySize > maxBodySize {
                throw BodyLimitError.bodyTooLarge(limit: maxBodySize)
            }
            if let maxLineLength {
                try checkLines(chunk, limit: maxLineLength)
            }
            return chunk.readableBytesView
        }

        /// Tracks the line still open at the end of the chunk; throws if a line is longer than `limit`.
        private mutating func checkLines(_ chunk: ByteBuffer, limit: Int) throws {
            var longest = 0
            chunk.withUnsafeReadableBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                var lineStart = 0
                var open = openLine
                while lineStart < bytes.count {
                    guard let found = memchr(base + lineStart, Int32(UInt8(ascii: "\n")), bytes.count - lineStart) else {
                        open += bytes.count - lineStart
                        break
                    }
                    let newline = UnsafeRawPointer(found) - base
                    longest = Swift.max(longest, open + newline - lineStart)
                    open = 0
                    lineStart = newline + 1
                }
                openLine = open
            }
            if Swift.max(longest, openLine) > limit {
                throw BodyLimitError.lineTooLong(limit: limit)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: base.makeAsyncIterator(), maxBodySize: maxBodySize, maxLineLength: maxLineLength,
            onChunk: onChunk)
    }
}

/// Why ``GuardedBody`` stopped reading.
enum BodyLimitError: Error, CustomStringConvertible {
    case bodyTooLarge(limit: Int)
    case lineTooLong(limit: Int)

    var description: String {
        switch self {
        case .bodyTooLarge(let limit): "the body is larger than \(limit) bytes"
        case .lineTooLong(let limit): "a line is longer than \(limit) bytes"
        }
    }
}
