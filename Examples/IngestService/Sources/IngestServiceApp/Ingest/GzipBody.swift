import CompressNIO
import NIOCore

/// A `Content-Encoding: gzip` body inflated as it streams in (compress-nio's streaming zlib): each chunk
/// handed on is at most `outputChunkSize` bytes, whatever the ratio, so a decompression bomb (1 GB of one
/// byte is ~1 MB of gzip) costs one output chunk at a time and meets the decompressed-size limits
/// downstream (``GuardedBody``: `--max-events-bytes`; ``RecordScanner``: `--max-record-bytes`) like any
/// other body. The compressed bytes are held to the same `--max-events-bytes` (a stream of empty deflate
/// blocks inflates to nothing, and would otherwise be read for ever).
///
/// Several gzip members one after the other (what `cat a.gz b.gz` makes, and RFC 1952 allows) are one
/// body, as `gzip -d` and Go's and Python's readers take them. A body that is not gzip, or that ends inside
/// a member, is ``APIError/invalidGzip`` (400): what was read before it is treated as for a client that
/// went away (its committed batches stay). The gzip trailer's CRC is checked at the end of each member, so
/// a body corrupted near its end has had its earlier batches committed by then.
struct GzipBody<Base: AsyncSequence>: AsyncSequence where Base.Element == ByteBuffer {
    typealias Element = ByteBuffer

    let base: Base
    /// The most compressed bytes read; nil for no limit.
    let maxCompressedBytes: Int?
    /// `--max-gzip-ratio`: past its first ``ratioGrace`` bytes, the body may inflate to at most this many
    /// times the compressed bytes read (else ``BodyLimitError/inflationTooHigh(ratio:)``); nil for no limit.
    var maxRatio: Int? = nil
    /// The largest chunk handed on.
    var outputChunkSize = 64 << 10

    /// Inflated bytes before the ratio is checked (a small body of one repeated line compresses far).
    static var ratioGrace: Int { 1 << 20 }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: base.makeAsyncIterator(), maxCompressedBytes: maxCompressedBytes, maxRatio: maxRatio,
            outputChunkSize: outputChunkSize)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let maxCompressedBytes: Int?
        let maxRatio: Int?
        let outputChunkSize: Int
        private var inflated = 0
        private var decompressor: ZlibDecompressor?
        /// The compressed bytes not yet inflated.
        private var input = ByteBuffer()
        /// Whether zlib may hold output it could not hand out (the last output chunk filled up).
        private var outputPending = false
        private var compressed = 0
        private var finished = false
        /// Whether the decompressor was reset for a next member and has taken nothing since.
        private var justReset = false

        init(base: Base.AsyncIterator, maxCompressedBytes: Int?, maxRatio: Int?, outputChunkSize: Int) {
            self.base = base
            self.maxCompressedBytes = maxCompressedBytes
            self.maxRatio = maxRatio
            self.outputChunkSize = outputChunkSize
        }

        mutating func next() async throws -> ByteBuffer? {
            guard let output = try await inflateNext() else { return nil }
            inflated += output.readableBytes
            if let maxRatio, inflated > GzipBody.ratioGrace, inflated / maxRatio > compressed {
                throw BodyLimitError.inflationTooHigh(ratio: maxRatio)
            }
            return output
        }

        private mutating func inflateNext() async throws -> ByteBuffer? {
            guard !finished else { return nil }
            let decompressor = try self.decompressor ?? Self.makeDecompressor()
            self.decompressor = decompressor
            var output = ByteBuffer()
            output.reserveCapacity(outputChunkSize)
            while true {
                if input.readableBytes == 0, !outputPending {
                    if output.readableBytes > 0 { return output }
                    guard let chunk = try await base.next() else {
                        finished = true
                        guard Self.isComplete(decompressor) else { throw APIError.invalidGzip }
                        return nil
                    }
                    compressed += chunk.readableBytes
                    if let maxCompressedBytes, compressed > maxCompressedBytes {
                        throw BodyLimitError.bodyTooLarge(limit: maxCompressedBytes)
                    }
                    input = chunk
                    continue
                }
                let before = (input.readableBytes, output.readableBytes)
                do {
                    try decompressor.inflate(from: &input, to: &output)
                    outputPending = false
                    let progressed = (input.readableBytes, output.readableBytes) != before
                    if input.readableBytes > 0 {
                        // Returned with input left: that member ended (Z_STREAM_END), and the rest is
                        // another member. A fresh member always takes its header's bytes: one that takes
                        // none is not gzip (and is not reset again for ever).
                        guard progressed || !justReset else { throw APIError.invalidGzip }
                        do { try decompressor.reset() } catch { throw APIError.invalidGzip }
                        justReset = true
                        continue
                    }
                    justReset = false
                } catch let error as CompressNIOError where error == .bufferOverflow {
                    // The output chunk is full; zlib may hold more for the next one.
                    outputPending = true
                    justReset = false
                    return output
                } catch let error as CompressNIOError where error == .inputBufferOverflow {
                    // No progress without more input.
                    outputPending = false
                } catch is CompressNIOError {
                    throw APIError.invalidGzip
                }
            }
        }

        private static func makeDecompressor() throws -> ZlibDecompressor {
            do { return try ZlibDecompressor(algorithm: .gzip) } catch { throw APIError.invalidGzip }
        }

        /// Whether the member being inflated has ended (its trailer read and checked), at the end of the
        /// body: zlib answers a finished stream without taking input, and takes (or refuses) a byte
        /// otherwise.
        private static func isComplete(_ decompressor: ZlibDecompressor) -> Bool {
            var probe = ByteBuffer(bytes: [0])
            var scratch = ByteBuffer()
            scratch.reserveCapacity(64)
            do { try decompressor.inflate(from: &probe, to: &scratch) } catch { return false }
            return probe.readableBytes == 1 && scratch.readableBytes == 0
        }
    }
}
