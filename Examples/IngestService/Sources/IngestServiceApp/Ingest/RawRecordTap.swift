import ModelMapper
import NIOCore

/// Keeps the body's bytes from the end of the last record handed out to the newest chunk the reader
/// took, so that each decoded record's JSON text can be stored exactly as received. The reader says
/// where a record ends (`bytesConsumed`); the record is what lies before that, after the separators
/// (blank space, and for a top-level array `[` and `,`). Memory is bounded by the reader's own window.
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
    /// removed) and the line it starts on.
    func take(upTo end: Int) -> (raw: [UInt8], line: Int) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(end - position)
        var offset = base
        for chunk in chunks {
            let chunkEnd = offset + chunk.readableBytes
            defer { offset = chunkEnd }
            if chunkEnd <= position { continue }
            if offset >= end { break }
            let from = max(position, offset) - offset
            let to = min(end, chunkEnd) - offset
            chunk.withUnsafeReadableBytes { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[from..<to])) }
        }
        var start = 0
        while start < bytes.count, isSeparator(bytes[start]) { start += 1 }
        var stop = bytes.count
        while stop > start, Self.isBlank(bytes[stop - 1]) { stop -= 1 }
        let recordLine = line + Self.newlines(in: bytes[..<start])
        // A JSON Lines record holds no newline; an array element may span lines.
        line = recordLine + (isArray ? Self.newlines(in: bytes[start...]) : 0)
        position = end
        dropConsumed()
        if start > 0 || stop < bytes.count { bytes = Array(bytes[start..<stop]) }
        return (bytes, recordLine)
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

    private static func newlines(in bytes: ArraySlice<UInt8>) -> Int {
        var count = 0
        for byte in bytes where byte == 0x0A { count += 1 }
        return count
    }
}
