import NIOCore

/// A body made of parts while it is sent (pull-based: nothing is made before the client asks for it):
/// bytes, or one buffer repeated many times — a 300 MB record costs one 1 MiB buffer.
struct GeneratedBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    enum Part: Sendable {
        case bytes(ByteBuffer)
        case repeated(ByteBuffer, times: Int)
        /// `count` lines made by `line(i)`, sent about 64 KiB at a time.
        case lines(count: Int, line: @Sendable (Int) -> String)
    }

    let parts: [Part]

    init(_ parts: [Part]) {
        self.parts = parts
    }

    /// Total bytes (the lines part is measured by making its lines once).
    var byteCount: Int {
        parts.reduce(0) { total, part in
            switch part {
            case .bytes(let buffer): total + buffer.readableBytes
            case .repeated(let buffer, let times): total + buffer.readableBytes * times
            case .lines(let count, let line): total + (0..<count).reduce(0) { $0 + line($1).utf8.count + 1 }
            }
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let parts: [Part]
        var part = 0
        var step = 0

        mutating func next() async throws -> ByteBuffer? {
            while part < parts.count {
                switch parts[part] {
                case .bytes(let buffer):
                    part += 1
                    return buffer
                case .repeated(let buffer, let times):
                    if step < times {
                        step += 1
                        return buffer
                    }
                case .lines(let count, let line):
                    if step < count {
                        var buffer = ByteBuffer()
                        while step < count, buffer.readableBytes < 64 << 10 {
                            buffer.writeString(line(step))
                            buffer.writeInteger(UInt8(ascii: "\n"))
                            step += 1
                        }
                        return buffer
                    }
                }
                part += 1
                step = 0
            }
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(parts: parts) }
}
