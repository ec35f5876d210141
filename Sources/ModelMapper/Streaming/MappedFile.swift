// Unsafe code: a file mapped read-only into memory with mmap, read through a raw buffer.
//
// Invariants: the mapping covers exactly `bytes` and lives until `deinit` unmaps it; the bytes are handed
// out only inside `withBytes`, which keeps the object (and so the mapping) alive for the whole call.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file mapped read-only into memory for the lifetime of the object.
final class MappedFile {
    private let bytes: UnsafeRawBufferPointer
    private let mapping: UnsafeMutableRawPointer?

    init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StreamIOError(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw StreamIOError(operation: "stat", path: path, errno: errno) }
        let size = Int(info.st_size)
        guard size > 0 else {
            mapping = nil
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let pointer = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), pointer != MAP_FAILED else {
            throw StreamIOError(operation: "mmap", path: path, errno: errno)
        }
        _ = madvise(pointer, size, MADV_WILLNEED)
        mapping = pointer
        bytes = UnsafeRawBufferPointer(start: pointer, count: size)
    }

    deinit {
        if let mapping { munmap(mapping, bytes.count) }
    }

    /// Runs `body` with the file's bytes, which are valid only during the call. (Reading `bytes` from a
    /// local `MappedFile` and passing them on would let the object, and the mapping, end after that read.)
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(bytes) }
    }
}
