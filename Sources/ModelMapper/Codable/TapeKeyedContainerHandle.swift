// Unsafe code: an unretained reference to a pooled keyed container.
//
// Invariants:
// - A handle is made only for a container its key type's pool owns (`TapeDecodingState.keyedContainer`
//   adds every container it makes to the pool, with the box that holds the handle), and a handle lives
//   only in that box.
// - A key type's pool lets its entries go only when nothing else holds any entry's box
//   (`TapeDecodingState.retire` after `hasHeldEntries()` is false; a detached state whose boxes are held is
//   kept alive with its pools by `KeptDecodingStates`), so the container outlives every handle to it.
// - Each call borrows the container for its duration (`_withUnsafeGuaranteedRef`).

/// The keyed container `init(from:)` gets when containers are pooled: a plain value naming a pooled
/// ``TapeKeyedContainer``.
///
/// `KeyedDecodingContainer`'s box copies its container for every call it forwards. A class reference is
/// retained and released by each copy (two atomic operations per decoded value); this handle is copied
/// as plain bytes.
struct TapeKeyedContainerHandle<Key: CodingKey>: KeyedDecodingContainerProtocol {
    private let container: Unmanaged<TapeKeyedContainer<Key>>

    /// A handle to `container`, which its pool must own (see the invariants).
    init(_ container: TapeKeyedContainer<Key>) {
        self.container = .passUnretained(container)
    }

    @inline(__always)
    private func with<R>(_ body: (TapeKeyedContainer<Key>) throws -> R) rethrows -> R {
        try container._withUnsafeGuaranteedRef(body)
    }

    var codingPath: [any CodingKey] { with { $0.codingPath } }
    var allKeys: [Key] { with { $0.allKeys } }
    func contains(_ key: Key) -> Bool { with { $0.contains(key) } }
    func decodeNil(forKey key: Key) throws -> Bool { try with { try $0.decodeNil(forKey: key) } }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try with { try $0.decode(type, forKey: key) } }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try with { try $0.decode(type, forKey: key) } }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try with { try $0.decode(type, forKey: key) } }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try with { try $0.decodeIfPresent(type, forKey: key) } }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try with { try $0.decodeIfPresent(type, forKey: key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try with { try $0.nestedContainer(keyedBy: type, forKey: key) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try with { try $0.nestedUnkeyedContainer(forKey: key) }
    }

    func superDecoder() throws -> any Decoder { try with { try $0.superDecoder() } }
    func superDecoder(forKey key: Key) throws -> any Decoder { try with { try $0.superDecoder(forKey: key) } }
}
