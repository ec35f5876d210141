import ModelMapper
import NIOCore

/// Keeps the body's bytes from the end of the last record handed out to the newest chunk the reader
/// took, so that each decoded record's JSON text can be stored exactly as received. The reader says
/// where a record ends (`bytesConsumed`); the record is what lies before that, after the separators
/// (blank space, and for a top-level array `[` and `,`). Memory is bounded by the reader's own window;
/// a record taken is a slice of its chunk, so the batch holding it keeps that chunk's storage (not a copy).
/// Separators between records are skipped as they arrive (a chunk of nothing else is not kept), so blank
/// lines cost neither memory nor a copy into the next record.
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
    /// Whether every byte held past `position` is a separator (then `position` is past them: they were
    /// skipped, and the next chunk's leading separators are skipped as it comes).
    private var betweenRecords = true
    /// The chunk storage (by its global start) the last record sliced out of keeps alive.
    private var pinnedChunk = -1

    init(format: JSONStreamFormat) {
        isArray = format == .array
    }

    func append(_ chunk: ByteBuffer) {
        guard chunk.readableBytes > 0 else { return }
        chunks.append(chunk)
        if betweenRecords { skipSeparators() }
    }

    /// A rejected record was skipped: the next record starts after it.
    func skip(_ offset: Int, raw: [UInt8], line recordLine: Int) {
        position = offset + raw.count
        line = recordLine + Self.newlines(in: raw[...])
        skipSeparators()
    }

    /// Moves `position` over the separators that follow it in the held chunks (counting their lines) up
    /// to the next record's first byte, dropping the chunks passed.
    private func skipSeparators() {
        var offset = base
        var found = false
        scan: for chunk in chunks {
            let chunkEnd = offset + chunk.readableBytes
            defer { offset = chunkEnd }
            if chunkEnd <= position { continue }
            let view = chunk.readableBytesView
            var index = view.startIndex + (max(position, offset) - offset)
            while index < view.endIndex {
                let byte = view[index]
                guard isSeparator(byte) else {
                    found = true
                    break
                }
                if byte == 0x0A { line += 1 }
                index += 1
            }
            position = offset + (index - view.startIndex)
            if found { break scan }
        }
        betweenRecords = !found
        dropConsumed()
    }

    /// Bytes the last ``take(upTo:)`` newly kept alive: a new chunk's storage for a record sliced out of
    /// it (the first record from that chunk), or the copy of a record that spans chunks.
    private(set) var lastRetained = 0

    /// The record that ends at global offset `end`: its bytes (separators and surrounding blank space
    /// removed), the line it starts on and the global offset of its first byte. A record within one chunk is a slice of it (no copy: the
    /// batch then keeps that chunk's storage alive until it is stored); one that spans chunks is copied.
    func take(upTo end: Int) -> (raw: ByteBuffer, line: Int, start: Int) {
        var bytes: ByteBuffer?
        var offset = base
        lastRetained = 0
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
                lastRetained = pinnedChunk == offset ? 0 : chunk.storageCapacity
                pinnedChunk = offset
                break
            }
            if bytes == nil {
                bytes = ByteBufferAllocator().buffer(capacity: end - position)
                lastRetained = end - position
            }
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
        skipSeparators()
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
