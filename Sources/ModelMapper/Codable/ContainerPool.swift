// Unsafe code: reusing the standard library's keyed container boxes.
//
// `KeyedEncodingContainer<Key>(_:)` and `KeyedDecodingContainer<Key>(_:)` allocate a box (a generic class
// instance) per container, and in unspecialized code each call also looks up the generic metadata of the
// box and of our container type — together the largest per-object cost of Codable after the values
// themselves. A pool keeps the containers it made and hands one out again once nobody else holds it.
//
// Invariants:
// - `KeyedEncodingContainer<K>` / `KeyedDecodingContainer<K>` are exactly one strong reference to a native
//   Swift box object, whatever `K` (the struct's one stored property is the box). The callers check it once
//   per process (`poolsContainers`: `ContainerPool.isSupported` for the size and alignment, and the box's
//   type name); without it the pool is not used. `unsafeBitCast` checks the size again on each use.
// - A pool holds the boxes as `PooledBox` references: a placeholder native class whose members are never
//   used; the references are only retained, released and checked for uniqueness, which do not depend on
//   the static type. The box is released through its own (dynamic) metadata.
// - A container is handed out again only when the pool's reference is the only one
//   (`isKnownUniquelyReferenced`): the code it was handed to has dropped it, so pointing its `Ref` (where
//   the container reads and writes) at a new place is not observable through an older copy.
// - A pool serves one container type (one per key type and coder): its boxes are cast back to that type.
// - `take` hands an entry out unretained: the pool's array keeps it until `removeAll` (at the end of a
//   coding), and the caller borrows it only inside the call that took it (`_withUnsafeGuaranteedRef`).
// - The decoder's boxes hold their `Ref` unretained (TapeKeyedContainerHandle.swift), so its pools call
//   `removeAll` only when `hasHeldEntries()` is false; a decoding whose value kept a container
//   (`TapeDecodingState.end`) keeps its pools, and its state, until every kept box is let go
//   (KeptDecodingStates.swift).
// - Pooling can be switched off for the process (`isEnabled`, read once): every coder then makes plain
//   containers, the path taken when the layout check fails.

import Foundation

/// Stands for a pooled container box: only retained, released and checked for uniqueness.
final class PooledBox {}

final class PooledContainer<Ref: AnyObject> {
    @exclusivity(unchecked) var box: PooledBox
    let ref: Ref

    init(box: PooledBox, ref: Ref) {
        self.box = box
        self.ref = ref
    }
}

struct ContainerPool<Ref: AnyObject> {
    private var entries: [PooledContainer<Ref>] = []
    /// Most containers are taken and dropped in stack order: the search starts at the last one given.
    private var hint = 0

    /// Whether pooling is allowed: `MODELMAPPER_CONTAINER_POOL=off` in the environment switches it off for
    /// the process (read once), so that the tests run the path a Swift release with another container
    /// layout would take.
    static var isEnabled: Bool { ContainerPoolSwitch.isEnabled }

    /// Whether a container of type `C` is one reference (see the invariants).
    static func isSupported<C>(_ type: C.Type) -> Bool {
        MemoryLayout<C>.size == MemoryLayout<PooledBox>.size && MemoryLayout<C>.alignment == MemoryLayout<PooledBox>.alignment
    }

    /// A container of the pool nobody else holds (`unsafeBitCast(entry.box, to: C.self)` is the container;
    /// point `entry.ref` at the new place). Not generic over the container type: no metadata lookup.
    /// Unretained: the pool keeps the entry until `removeAll`, so the caller borrows it (a retain and a
    /// release per object less); the box it hands out is retained by that cast.
    @inline(__always)
    mutating func take() -> Unmanaged<PooledContainer<Ref>>? {
        let n = entries.count
        guard n > 0 else { return nil }
        var i = hint < n ? hint : 0
        for _ in 0..<n {
            if isKnownUniquelyReferenced(&entries[i].box) {
                hint = i
                return Unmanaged.passUnretained(entries[i])
            }
            i = i + 1 == n ? 0 : i + 1
        }
        return nil
    }

    /// Keeps a container just made (`box` is `unsafeBitCast(container, to: PooledBox.self)`, writing
    /// through `ref`) for reuse; at most `limit` are kept.
    @inline(__always)
    mutating func add(_ box: PooledBox, ref: Ref, limit: Int = 16) {
        guard entries.count < limit else { return }
        entries.append(PooledContainer(box: box, ref: ref))
        hint = entries.count - 1
    }

    /// Whether code outside the pool still holds one of its containers (kept it past its coding).
    mutating func hasHeldEntries() -> Bool {
        for i in entries.indices where !isKnownUniquelyReferenced(&entries[i].box) { return true }
        return false
    }

    /// Calls `body` with the `Ref` of every container of the pool.
    func forEach(_ body: (Ref) -> Void) {
        for entry in entries { body(entry.ref) }
    }

    /// Drops the containers (they reference the coder's state: call at the end of a coding, and for the
    /// decoder's pools only when `hasHeldEntries()` is false).
    mutating func removeAll() {
        entries.removeAll()
        hint = 0
    }
}

/// The process's setting for `ContainerPool.isEnabled` (a stored static cannot be in a generic type).
enum ContainerPoolSwitch {
    static let isEnabled: Bool = {
        guard let value = getenv("MODELMAPPER_CONTAINER_POOL") else { return true }
        return String(cString: value) != "off"
    }()
}

/// A keyed decoding container that is never used: only wrapped once, to look at the box type.
struct ProbeKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) throws -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "probe"))
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "probe"))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "probe"))
    }
    func superDecoder() throws -> any Decoder {
        throw DecodingError.keyNotFound(JSONStringKey("super"), .init(codingPath: [], debugDescription: "probe"))
    }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: "probe"))
    }
}
