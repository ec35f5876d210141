// Unsafe code: a bump allocator handed to yajl through `yajl_alloc_funcs`.
//
// Invariants:
// - One arena serves one yajl handle at a time; `reset()` is called only after `yajl_free` of that handle,
//   when yajl holds no block any more (yajl frees everything it allocated in `yajl_free`; error strings are
//   freed with `yajl_free_error` right after they are copied).
// - A block inside the arena is `header` bytes of size followed by the caller's bytes; blocks are 16-byte
//   aligned (as malloc's) and lie inside `0..<capacity` (asserted). Blocks outside the arena came from libc
//   and go back to libc (`free`, `realloc`).
// - `free` of an arena block does nothing: the memory is reused after `reset()`. `realloc` of the last block
//   grows it in place when it fits, otherwise moves it (to the arena or libc), copying the smaller size.
// - The arena (and its `yajl_alloc_funcs` context pointer) outlives every handle made with it: the tokenizer
//   frees its handle before the arena.
import CModelMapperYajl
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The memory of a yajl handle (its handle, lexer, state stack and string buffers, about 2.5 KB for a
/// document): taken from one block that a tokenizer keeps and reuses, so that starting a new document
/// costs no malloc/free pairs (about 1,300 instructions per document, measured with callgrind).
struct YajlArena {
    static let capacity = 8 * 1024
    private static let header = 16

    private let base: UnsafeMutableRawPointer
    private var used = 0

    init() {
        base = .allocate(byteCount: Self.capacity, alignment: 16)
    }

    func deallocate() {
        base.deallocate()
    }

    /// Forgets every block; only after the handle using them was freed.
    mutating func reset() {
        used = 0
    }

    private func contains(_ p: UnsafeMutableRawPointer) -> Bool {
        p >= base && p < base + Self.capacity
    }

    mutating func allocate(_ size: Int) -> UnsafeMutableRawPointer? {
        let need = (Self.header + size + 15) & ~15
        guard size >= 0, need <= Self.capacity - used else { return malloc(max(size, 1)) }
        let block = base + used
        block.storeBytes(of: size, as: Int.self)
        used += need
        assert(used <= Self.capacity && Int(bitPattern: block + Self.header) % 16 == 0, "an arena block out of bounds or misaligned")
        return block + Self.header
    }

    mutating func deallocateBlock(_ p: UnsafeMutableRawPointer?) {
        guard let p else { return }
        if !contains(p) { free(p) }
    }

    mutating func reallocate(_ p: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
        guard let p else { return allocate(size) }
        guard contains(p) else { return realloc(p, max(size, 1)) }
        let block = p - Self.header
        let oldSize = block.load(as: Int.self)
        assert(oldSize >= 0 && block - base + Self.header + oldSize <= used, "an arena block's size runs past the used bytes")
        let oldNeed = (Self.header + oldSize + 15) & ~15
        if block - base + oldNeed == used {
            // The last block: grow (or shrink) in place when it fits.
            let need = (Self.header + size + 15) & ~15
            if block - base + need <= Self.capacity {
                block.storeBytes(of: size, as: Int.self)
                used = block - base + need
                return p
            }
        }
        guard let moved = allocate(size) else { return nil }
        moved.copyMemory(from: p, byteCount: min(oldSize, size))
        return moved
    }

    /// The functions for `yajl_alloc`, with `arena` as their context.
    static func functions(_ arena: UnsafeMutablePointer<YajlArena>) -> yajl_alloc_funcs {
        yajl_alloc_funcs(
            malloc: { context, size in context.unsafelyUnwrapped.assumingMemoryBound(to: YajlArena.self).pointee.allocate(size) },
            realloc: { context, p, size in
                context.unsafelyUnwrapped.assumingMemoryBound(to: YajlArena.self).pointee.reallocate(p, size)
            },
            free: { context, p in context.unsafelyUnwrapped.assumingMemoryBound(to: YajlArena.self).pointee.deallocateBlock(p) },
            ctx: UnsafeMutableRawPointer(arena))
    }
}
