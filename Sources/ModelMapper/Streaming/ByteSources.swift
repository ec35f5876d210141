// Unsafe code: the streaming window buffer and POSIX file reads.
//
// Invariants: `StreamWindow.storage` owns `capacity` bytes, of which `0..<count` hold input starting at
// global offset `base`; it is reallocated or compacted only in `prepare(keepFrom:free:)` and
// `continue(_:from:free:)`, which the reader calls only on a window no span is in use in (the engine asked
// for input, or the spare window of a read ahead). A
// `FileReader` reads only into the buffer it is given, at most `buffer.count` bytes; its descriptor is
// closed once (by `close()` or `deinit`) and only when the reader opened it.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A growable byte buffer holding the input from global offset `base` on.
final class StreamWindow {
    private(set) var storage: UnsafeMutableRawPointer
    private(set) var capacity: Int
    private(set) var count = 0
    /// Global offset of `storage[0]`.
    private(set) var base = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }

    /// Drops the bytes before `keep` and makes room for at least `free` more bytes.
    func prepare(keepFrom keep: Int, free: Int) {
        if keep > 0 {
            let kept = count - keep
            if kept > 0 { storage.copyMemory(from: storage + keep, byteCount: kept) }
            count = kept
            base += keep
        }
        if capacity - count < free {
            var newCapacity = capacity * 2
            while newCapacity - count < free { newCapacity *= 2 }
            let newStorage = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
            newStorage.copyMemory(from: storage, byteCount: count)
            storage.deallocate()
            storage = newStorage
            capacity = newCapacity
        }
    }

    /// Makes this window continue `other` from its byte `keep` (copying the bytes from there), with room
    /// for `free` more. `other` is only read.
    func `continue`(_ other: StreamWindow, from keep: Int, free: Int) {
        let kept = other.count - keep
        if capacity < kept + free {
            storage.deallocate()
            capacity = Swift.max(capacity * 2, kept + free)
            storage = .allocate(byteCount: capacity, alignment: 16)
        }
        if kept > 0 { storage.copyMemory(from: other.storage + keep, byteCount: kept) }
        count = kept
        base = other.base + keep
    }

    /// Empties the window (global offset 0) with room for `free` bytes.
    func reset(free: Int) {
        count = 0
        base = 0
        prepare(keepFrom: 0, free: free)
    }

    /// The free space after the bytes held.
    var freeSpace: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: storage + count, count: capacity - count)
    }

    func didAppend(_ n: Int) {
        count += n
    }
}

/// Reads a file descriptor with `read(2)`.
final class FileReader {
    let fd: Int32
    /// Whether this reader opened the descriptor (and so closes it); a caller's handle is never closed.
    private var closesOnDeinit: Bool

    init(fd: Int32, closesOnDeinit: Bool) {
        self.fd = fd
        self.closesOnDeinit = closesOnDeinit
    }

    /// Opens a file for reading. `nonBlocking` opens it with `O_NONBLOCK` (for an asynchronous iterator:
    /// opening a FIFO then does not wait for a writer, and a read that would wait says so instead).
    convenience init(path: String, nonBlocking: Bool = false) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0))
        guard fd >= 0 else { throw StreamIOError(operation: "open", path: path, errno: errno) }
        self.init(fd: fd, closesOnDeinit: true)
    }

    deinit {
        close()
    }

    /// Closes the descriptor now if this reader opened it (at most once); later reads fail.
    func close() {
        guard closesOnDeinit else { return }
        closesOnDeinit = false
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #elseif canImport(Musl)
        _ = Musl.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            if let n = try readIfAvailable(into: buffer) { return n }
            // Only a descriptor in non-blocking mode says "would block": wait until it is readable.
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, -1)
        }
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file, nil when the descriptor is in
    /// non-blocking mode and has nothing to read now (`EAGAIN`).
    func readIfAvailable(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            #elseif canImport(Musl)
            let n = Musl.read(fd, buffer.baseAddress, buffer.count)
            #else
            let n = Darwin.read(fd, buffer.baseAddress, buffer.count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            throw StreamIOError(operation: "read", path: nil, errno: errno)
        }
    }

    /// Whether the descriptor is a regular file (always readable: `poll(2)` has nothing to wait for).
    var isRegularFile: Bool { fileType == S_IFREG }

    /// Whether the descriptor is a pipe or FIFO.
    var isFIFO: Bool { fileType == S_IFIFO }

    /// The descriptor's file type (`S_IFMT` bits of `fstat(2)`'s mode), nil when `fstat` fails.
    private var fileType: mode_t? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// Asks the kernel for a pipe buffer of up to `size` bytes (at most 1 MiB), on Linux; elsewhere, or
    /// when refused (a lower `pipe-max-size`, a buffer already larger), the pipe keeps its buffer.
    func growPipeBuffer(toward size: Int) {
        #if os(Linux)
        let F_GETPIPE_SZ: Int32 = 1032, F_SETPIPE_SZ: Int32 = 1031  // <fcntl.h>, behind _GNU_SOURCE
        let wanted = Int32(Swift.min(size, 1 << 20))
        let current = fcntl(fd, F_GETPIPE_SZ)
        if current >= 0, current < wanted { _ = fcntl(fd, F_SETPIPE_SZ, wanted) }
        #endif
    }

    /// Whether a read would return without waiting now (data, the end of the input, or an error), by a
    /// `poll(2)` that does not wait.
    var isReadableNow: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, 0)
            if result >= 0 { return result > 0 }
            if errno != EINTR { return true }  // let the read report the error
        }
    }
}

/// Reads a file descriptor for an asynchronous iterator without ever blocking the thread it runs on:
/// a regular file is read directly (in chunks of the reader's size; such a read does not wait for
/// input), anything else — a pipe, a FIFO, a socket, a terminal — only once `poll(2)` says it is readable.
/// While it is not, the task suspends on the process's one ``ReadinessPoller`` thread, so a stream that
/// waits holds no thread; cancelling the task ends that wait with `CancellationError`.
///
/// A descriptor the stream opened itself is in non-blocking mode; a caller's `FileHandle` keeps its flags
/// (they belong to an open file description other processes may share, such as a terminal's): it is read
/// only after `poll(2)` reported it readable, which for a descriptor that nothing else reads means the
/// read returns at once.
///
/// A read goes on reading while the descriptor stays readable, up to the buffer's size: a pipe hands
/// over at most what its kernel buffer holds (64 KiB on Linux), and decoding each such piece as a batch
/// of its own costs more than the records in it. On Linux a FIFO's kernel buffer is also grown toward
/// the read size (at most 1 MiB, the unprivileged limit), so the writer is not stopped every 64 KiB;
/// that buffer belongs to the pipe, so a caller's pipe keeps the larger buffer after the stream ends.
final class DescriptorReader: AsyncByteReader {
    private var file: FileReader?
    private let isRegularFile: Bool
    /// Whether the pipe's kernel buffer is still to be grown (a FIFO on Linux, before its first read).
    private var growsPipeBuffer: Bool

    init(file: FileReader) {
        self.file = file
        isRegularFile = file.isRegularFile
        growsPipeBuffer = file.isFIFO
    }

    /// Releases the descriptor (closing it if the stream opened it); later reads throw `CancellationError`.
    func close() {
        file?.close()
        file = nil
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, isolation: isolated (any Actor)?) async throws -> Int {
        while true {
            if let n = try readIfReady(into: buffer) { return n }
            guard let file else { throw CancellationError() }
            try await ReadinessPoller.shared.waitUntilReadable(file.fd, isolation: isolation)
        }
    }

    func readIfReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        try Task.checkCancellation()
        guard let file else { throw CancellationError() }
        if isRegularFile { return try file.read(into: buffer) }
        if growsPipeBuffer {
            growsPipeBuffer = false
            file.growPipeBuffer(toward: buffer.count)
        }
        guard file.isReadableNow, var n = try file.readIfAvailable(into: buffer) else { return nil }
        // More without waiting: each read is checked readable first, so a blocking handle never blocks.
        while n > 0, n < buffer.count, file.isReadableNow,
              let more = try file.readIfAvailable(into: UnsafeMutableRawBufferPointer(rebasing: buffer[n...])),
              more > 0 {
            n += more
        }
        return n
    }
}

/// A failed system call while reading a stream's input.
public struct StreamIOError: Error, CustomStringConvertible, Sendable {
    /// The call that failed (`open`, `read`; for an asynchronous iteration waiting for input, `poll` or `pipe`).
    public var operation: String
    /// The file, when known.
    public var path: String?
    /// The `errno` value.
    public var errno: Int32

    public var description: String {
        let reason = String(cString: strerror(errno))
        if let path { return "\(operation) \(path): \(reason)" }
        return "\(operation): \(reason)"
    }
}

/// A type-erased asynchronous byte source that fills a buffer.
protocol AsyncByteReader: AnyObject {
    /// Copies up to `buffer.count` bytes into `buffer`; 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawBufferPointer, isolation: isolated (any Actor)?) async throws -> Int
    /// ``read(into:isolation:)`` if it would not wait: nil when no input is ready now (or the source cannot
    /// tell without waiting).
    func readIfReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int?
}

extension AsyncByteReader {
    /// An `AsyncSequence` cannot be asked whether its next element is ready: nothing is read ahead.
    func readIfReady(into buffer: UnsafeMutableRawBufferPointer) throws -> Int? { nil }
}

/// Reads an `AsyncSequence` of single bytes. A read returns at the end of a line (or when the buffer is
/// full), so records of a slow live stream are decoded as soon as their line is complete.
final class AsyncSequenceByteReader<S: AsyncSequence>: AsyncByteReader where S.Element == UInt8 {
    private var iterator: S.AsyncIterator

    init(_ sequence: S) {
        iterator = sequence.makeAsyncIterator()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, isolation: isolated (any Actor)?) async throws -> Int {
        var n = 0
        while n < buffer.count, let byte = try await iterator.next(isolation: isolation) {
            buffer[n] = byte
            n += 1
            if byte == 0x0A { break }
        }
        return n
    }
}

/// Reads an `AsyncSequence` of byte chunks (`[UInt8]`, `Data`, `ArraySlice<UInt8>`, …).
final class AsyncSequenceChunkReader<S: AsyncSequence>: AsyncByteReader where S.Element: DataProtocol {
    private var iterator: S.AsyncIterator
    /// The chunk being copied out and how much of it is done.
    private var chunk: S.Element?
    private var copied = 0

    init(_ sequence: S) {
        iterator = sequence.makeAsyncIterator()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, isolation: isolated (any Actor)?) async throws -> Int {
        var n = 0
        while n < buffer.count {
            if chunk == nil {
                guard let next = try await iterator.next(isolation: isolation) else { break }
                chunk = next
                copied = 0
            }
            guard let current = chunk else { break }
            let remaining = current.count - copied
            if remaining <= 0 {
                chunk = nil
                continue
            }
            let take = min(remaining, buffer.count - n)
            let start = current.index(current.startIndex, offsetBy: copied)
            let end = current.index(start, offsetBy: take)
            let target = UnsafeMutableRawBufferPointer(rebasing: buffer[n..<(n + take)])
            current[start..<end].copyBytes(to: target)
            copied += take
            n += take
            if copied == current.count {
                // Hand over each chunk as it arrives rather than wait for the next one.
                chunk = nil
                break
            }
        }
        return n
    }
}

/// Where a reader's bytes come from.
enum StreamSource: Sendable {
    case data(Data)
    case bytes([UInt8])
    case path(String)
    case fileHandle(FileHandle)
    /// An asynchronous source: makes a fresh reader for each iteration.
    case async(AsyncSourceMaker)
    /// The source could not be set up (the error is thrown by the first `next`).
    case invalid(MappingError)
}

/// Makes a fresh ``AsyncByteReader`` over a caller's `AsyncSequence` for each iteration. The sequence
/// need not be `Sendable` (the public initializers never required it): a stream built on one that is not
/// may be handed to another task, and each iteration calls its `makeAsyncIterator()` on the iterating
/// task, but two iterations of such a stream must not run at the same time (what any non-`Sendable`
/// sequence asks of its users).
struct AsyncSourceMaker: @unchecked Sendable {
    let make: () -> AsyncByteReader
}
