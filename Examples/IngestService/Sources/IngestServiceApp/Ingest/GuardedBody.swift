import Foundation
import NIOCore
import NIOFoundationCompat

/// A request body as the JSON Lines reader reads it: the chunks as `ByteBufferView`s (no copy), counted,
/// cut off with a ``BodyLimitError`` past the body limit, and with every record longer than the record
/// limit cut short (``OversizedRecords``): the reader gets its first `limit` bytes, the rest is dropped,
/// so neither a huge line nor a huge array element can make the reader (or the raw-record tap) buffer
/// without bound. A body that starts as UTF-16 or UTF-32 text does is refused (``BodyEncoding``) before the
/// reader sees it. Before each read from the network it lets the ingestor store a full batch
/// (`beforeRead`), so that records the reader rejects on its own, without handing out a model, are
/// stored as they come too.
struct GuardedBody<Base: AsyncSequence>: AsyncSequence where Base.Element == ByteBuffer {
    typealias Element = ByteBufferView

    let base: Base
    /// The most body bytes read; nil for no limit.
    let maxBodySize: Int?
    let isArray: Bool
    /// The cut records (and the record limit).
    let oversized: OversizedRecords
    /// How far the reader has got (its `bytesConsumed`, in the stream it is given).
    let readerPosition: () -> Int
    /// Top-level array: bytes the reader may hold past the record limit (its read chunk and blank space)
    /// before the upload is stopped with 413: should the scanner and the reader ever disagree on where an
    /// element ends, memory stays bounded all the same. (The reader's position moves at records, so more
    /// than this much blank space between two elements also stops the upload. JSON Lines need no such
    /// check: a line ends at a newline for both.)
    let readerSlack: Int
    /// Called with each chunk as received (for counters).
    let onChunk: (ByteBuffer) -> Void
    /// Called with each piece the reader is given (for the raw-record tap).
    let onForward: (ByteBuffer) -> Void
    /// Called before each read from the network.
    let beforeRead: () async throws -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        let body: GuardedBody
        var base: Base.AsyncIterator
        var scanner: RecordScanner
        var pending: [ByteBuffer] = []
        var bodySize = 0
        /// Bytes given to the reader.
        var forwarded = 0
        /// Whether the rest of a cut record is being dropped.
        var dropping = false
        /// The body's first bytes, until there are enough to tell UTF-16 and UTF-32 from UTF-8.
        var head: [UInt8] = []

        mutating func next() async throws -> ByteBufferView? {
            while pending.isEmpty {
                if body.isArray, forwarded - body.readerPosition() > body.oversized.limit + body.readerSlack {
                    // The reader moves at elements: blank space between two is held until the next one
                    // (JSON Lines skip theirs as they stream; here it is bounded by this check, issue #44).
                    throw scanner.isBetweenValues
                        ? BodyLimitError.blankTooLong(limit: body.oversized.limit + body.readerSlack)
                        : BodyLimitError.recordTooLarge(limit: body.oversized.limit)
                }
                try await body.beforeRead()
                guard let chunk = try await base.next() else { return nil }
                bodySize += chunk.readableBytes
                body.onChunk(chunk)
                if let maxBodySize = body.maxBodySize, bodySize > maxBodySize {
                    throw BodyLimitError.bodyTooLarge(limit: maxBodySize)
                }
                if head.count < BodyEncoding.headLength {
                    head += chunk.readableBytesView.prefix(BodyEncoding.headLength - head.count)
                    if BodyEncoding.isUTF16Or32(head) { throw UnsupportedEncodingError() }
                }
                pending = cut(chunk)
                pending.reverse()
            }
            return pending.removeLast().readableBytesView
        }

        /// The pieces of `chunk` the reader gets: all of it, unless a record passes the limit in it (then
        /// the record's bytes past the limit are left out, and a terminator put in for an array element).
        private mutating func cut(_ chunk: ByteBuffer) -> [ByteBuffer] {
            var pieces: [ByteBuffer] = []
            let limit = body.oversized.limit
            var keepFrom: Int? = dropping ? nil : 0
            let count = chunk.readableBytes
            chunk.withUnsafeReadableBytes { bytes in
                var p = 0
                while p < count {
                    if dropping {
                        // The cut record may end at the chunk's last byte (an array element's closing
                        // bracket): it has ended all the same, and the next chunk is the reader's again.
                        let found = scanner.findEnd(bytes, from: p)
                        let end = found ?? count
                        body.oversized.dropped(end - p, newlines: Self.newlines(bytes, p, end))
                        p = end
                        if found != nil {
                            dropping = false
                            keepFrom = end
                        }
                        continue
                    }
                    guard let overflow = scanner.findOverflow(bytes, from: p, limit: limit) else {
                        p = count
                        break
                    }
                    let start = keepFrom ?? overflow
                    if overflow > start { pieces.append(chunk.getSlice(at: chunk.readerIndex + start, length: overflow - start)!) }
                    let point = forwarded + pieces.reduce(0) { $0 + $1.readableBytes }
                    let terminator = scanner.terminator
                    body.oversized.recordCut(recordStart: point - limit, point: point, terminator: terminator)
                    if !terminator.isEmpty { pieces.append(ByteBuffer(bytes: terminator)) }
                    dropping = true
                    keepFrom = nil
                    p = overflow
                }
            }
            if let keepFrom, keepFrom < count {
                pieces.append(keepFrom == 0 ? chunk : chunk.getSlice(at: chunk.readerIndex + keepFrom, length: count - keepFrom)!)
            }
            for piece in pieces {
                forwarded += piece.readableBytes
                body.onForward(piece)
            }
            return pieces
        }

        private static func newlines(_ bytes: UnsafeRawBufferPointer, _ from: Int, _ to: Int) -> Int {
            guard let base = bytes.baseAddress, from < to else { return 0 }
            var n = 0
            var p = from
            while p < to, let hit = memchr(base + p, 0x0A, to - p) {
                n += 1
                p = UnsafeRawPointer(hit) - base + 1
            }
            return n
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(body: self, base: base.makeAsyncIterator(), scanner: RecordScanner(isArray: isArray))
    }
}

/// Why ``GuardedBody`` stopped reading.
enum BodyLimitError: Error, CustomStringConvertible {
    case bodyTooLarge(limit: Int)
    /// The reader held more than a record's worth of bytes: a record could not be cut where it passed the
    /// limit (the scanner and the reader disagreed on where it ends).
    case recordTooLarge(limit: Int)
    /// The upload passed its cap of rejected records (``RejectionLog/isFull``).
    case tooManyRejected
    /// A gzip body inflated past `--max-gzip-ratio` times its compressed bytes.
    case inflationTooHigh(ratio: Int)
    /// Top-level array: more blank space between two elements than the reader may hold.
    case blankTooLong(limit: Int)

    var description: String {
        switch self {
        case .bodyTooLarge(let limit): "the body is larger than \(limit) bytes"
        case .recordTooLarge(let limit): "a record is longer than \(limit) bytes"
        case .tooManyRejected: "too many rejected records"
        case .inflationTooHigh(let ratio): "the gzip body inflates to more than \(ratio) times its compressed size"
        case .blankTooLong(let limit): "more than \(limit) bytes of blank space between two array elements"
        }
    }
}
