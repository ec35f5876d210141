import ModelMapper
import NIOCore

/// Keeps the body's bytes from the end of the last record handed out to the newest chunk the reader
/// took, so that each decoded record's JSON text can be stored exactly as received. The reader says
/// where a record ends (`bytesConsumed`); the record is what lies before that, after the separators
/// (blank space, and for a top-level array `[` and `,`). Memory is bounded by the reader's own window;
/// a record taken is a slice of its chunk, so the batch holding it keeps that chunk's storage (not a copy).
///
/// Lives in the request's task: the body wrapper appends, the ingestor takes (not `Sendable`).
final class RawRecordTap {
    private var chunks: [ByteBuffer] = []
    /// Global offset of the first byte of `chunks[0]`.
    private var base = 0
    /// Global offset just past the last record taken or rejected.
    private(set) var position = 0
    /// The 1-based line at `position`.
    private(set) var line = 1
    private let isArray: Bool

    init(format: JSONStreamFormat) {
        isArray = format == .array
    }

    func append(_ chunk: ByteBuffer) {
        if chunk.readableBytes > 0 { chunks.append(chunk) }
    }

    /// A rejected record was skipped: the next record starts after it.
    func skip(_ offset: Int, raw: [UInt8], line recordLine: Int) {
        position = offset + raw.count
        line = recordLine + Self.newlines(in: raw[...])
        dropConsumed()
    }

    /// The record that ends at global offset `end`: its bytes (separators and surrounding blank space
    /// removed), the line it starts on and the global offset of its first byte. A record within one chunk is a slice of it (no copy: the
    /// batch then keeps that chunk's storage alive until it is stored); one that spans chunks is copied.
    func take(upTo end: Int) -> (raw: ByteBuffer, line: Int, start: Int) {
        var bytes: ByteBuffer?
        var offset = base
        for chunk in chunks {
            let chunkEnd = offset + chunk.readableBytes
            defer { offset = chunkEnd }
            if chunkEnd <= position { continue }
            if offset >= end { break }
            let from = max(position, offset) - offset
            let to = min(end, chunkEnd) - offset
            let piece = chunk.getSlice(at: chunk.readerIndex + from, length: to - from)!
            if bytes == nil, offset <= position, end <= chunkEnd {
                bytes = piece  // the whole record lies in this chunk
                break
            }
            if bytes == nil { bytes = ByteBufferAllocator().buffer(capacity: end - position) }
            bytes!.writeImmutableBuffer(piece)
        }
        var record = bytes ?? ByteBuffer()
        let view = record.readableBytesView
        var start = view.startIndex
        while start < view.endIndex, isSeparator(view[start]) { start += 1 }
        var stop = view.endIndex
        while stop > start, Self.isBlank(view[stop - 1]) { stop -= 1 }
        let recordLine = line + Self.newlines(in: view[view.startIndex..<start])
        let recordStart = position + (start - view.startIndex)
        // A JSON Lines record holds no newline; an array element may span lines.
        line = recordLine + (isArray ? Self.newlines(in: view[start..<stop]) : 0)
        position = end
        dropConsumed()
        record = record.getSlice(at: record.readerIndex + (start - view.startIndex), length: stop - start)!
        return (record, recordLine, recordStart)
    }

    private func dropConsumed() {
        var drop = 0
        for chunk in chunks {
            guard base + chunk.readableBytes <= position else { break }
            base += chunk.readableBytes
            drop += 1
        }
        if drop > 0 { chunks.removeFirst(drop) }
    }

    private func isSeparator(_ byte: UInt8) -> Bool {
        Self.isBlank(byte) || (isArray && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "[")))
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func newlines<Bytes: Collection<UInt8>>(in bytes: Bytes) -> Int {
        var count = 0
        for byte in bytes where byte == 0x0A { count += 1 }
        return count
    }
}
