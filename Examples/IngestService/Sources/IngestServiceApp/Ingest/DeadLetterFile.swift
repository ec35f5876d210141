import Foundation
import ModelMapper

#if canImport(Glibc)
    import Glibc
    private let systemClose = Glibc.close
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemClose = Darwin.close
    private let systemWrite = Darwin.write
#endif

/// The refused records of one request, in two files created on the first refusal:
/// `NAME.jsonl` holds each refused record's raw bytes followed by a newline, exactly as received (fix
/// and re-post it), and `NAME.errors.jsonl` one ``Rejection`` per line, in the same order.
///
/// Writes are buffered (64 KiB) and blocking; a failed write is kept and reported by ``checkHealth()``
/// so that the request fails rather than losing a record silently.
final class DeadLetterFile {
    let rawPath: String
    let errorsPath: String
    private var raw: Descriptor?
    private var errors: Descriptor?
    private var rawBuffer: [UInt8] = []
    private var errorsBuffer: [UInt8] = []
    private var failure: (any Error)?
    private(set) var count = 0

    private static let flushThreshold = 1 << 16

    /// Names the files of one request in `directory` (nothing is created yet).
    init(directory: String, name: String) {
        rawPath = (directory as NSString).appendingPathComponent(name + ".jsonl")
        errorsPath = (directory as NSString).appendingPathComponent(name + ".errors.jsonl")
    }

    /// Appends a refused record.
    func append(_ record: StoredRejection) {
        guard failure == nil else { return }
        count += 1
        rawBuffer += record.raw
        rawBuffer.append(UInt8(ascii: "\n"))
        do {
            errorsBuffer += try record.rejection.jsonData()
            errorsBuffer.append(UInt8(ascii: "\n"))
        } catch {
            failure = error
        }
        if rawBuffer.count >= Self.flushThreshold || errorsBuffer.count >= Self.flushThreshold { flush() }
    }

    /// Throws the first write failure, if any.
    func checkHealth() throws {
        if let failure { throw failure }
    }

    /// Writes what is buffered and closes the files; throws the first failure.
    func close() throws {
        flush()
        raw = nil
        errors = nil
        try checkHealth()
    }

    private func flush() {
        guard failure == nil, !rawBuffer.isEmpty || !errorsBuffer.isEmpty else { return }
        do {
            if raw == nil { raw = try Descriptor(creating: rawPath) }
            if errors == nil { errors = try Descriptor(creating: errorsPath) }
            try raw?.write(rawBuffer)
            try errors?.write(errorsBuffer)
            rawBuffer.removeAll(keepingCapacity: true)
            errorsBuffer.removeAll(keepingCapacity: true)
        } catch {
            failure = error
        }
    }
}

/// A write-only file descriptor, closed on deinit.
private final class Descriptor {
    let fd: Int32
    let path: String

    /// Creates a new file; fails if it exists (each request has its own files).
    init(creating path: String) throws {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        self.path = path
        guard fd >= 0 else { throw DeadLetterError(operation: "open", path: path, errno: errno) }
    }

    deinit { _ = systemClose(fd) }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < buffer.count {
                let n = systemWrite(fd, base + done, buffer.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw DeadLetterError(operation: "write", path: path, errno: errno)
                }
                done += n
            }
        }
    }
}

/// A failed system call on a dead-letter file.
struct DeadLetterError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let errno: Int32

    var description: String { "\(operation) \(path): \(String(cString: strerror(errno)))" }
}
