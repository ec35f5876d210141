import Foundation

// The tree encoder's keyed container: members of an `EncodedObject`.

struct TapeKeyedEncodingContainer<Key: CodingKey>: OptionalMemberEncoding {
    let encoder: TapeEncoder
    let object: EncodedObject

    var codingPath: [any CodingKey] { encoder.codingPath }
    private var state: TapeEncodingState { encoder.state }

    @inline(__always)
    private func name(_ key: Key) -> String {
        state.convertsKeys ? state.key(key, encoder.codingPath, raw: encoder.rawKeys) : key.stringValue
    }

    @inline(__always)
    private func path(_ key: Key) -> [any CodingKey] { encoder.childPath(key) }

    mutating func encodeNil(forKey key: Key) throws { object.set(name(key), .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(name(key), .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(name(key), .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { object.set(name(key), try state.double(value, path(key))) }
    mutating func encode(_ value: Float, forKey key: Key) throws { object.set(name(key), try state.float(value, path(key))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(name(key), .int(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(name(key), .int(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(name(key), .int(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(name(key), .int(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(name(key), .int(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(name(key), .uint(UInt64(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(name(key), .uint(UInt64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(name(key), .uint(UInt64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(name(key), .uint(UInt64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(name(key), .uint(value)) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { object.set(name(key), .number(String(value))) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { object.set(name(key), .number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(name(key), try state.box(value, path(key)))
    }

    // encodeIfPresent comes from OptionalMemberEncoding; a nil member goes to encodeAbsent.

    @inline(__always)
    mutating func encodeAbsent(forKey key: Key) {
        if state.writesNulls { object.set(name(key), .null) }
    }

    /// As JSONEncoder: a key that holds an object already (a nested container's, or an encoded value's)
    /// gets the same object, so both writers' members are kept; a key holding another kind of value is
    /// refused (JSONEncoder's precondition; thrown by the entry point).
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let name = name(key)
        let child = TapeEncoder(state: state, codingPath: path(key))
        let nested: EncodedObject
        switch object.value(name).map(Self.resolved) {
        case .object(let existing)?:
            nested = existing
        case nil:
            nested = EncodedObject()
            object.set(name, .object(nested))
        case let other?:
            state.refuse(other, child.codingPath, "Attempt to re-encode into nested KeyedEncodingContainer<\(Key.self)> for key \"\(name)\" is invalid: non-keyed container already encoded for this key")
            nested = EncodedObject()
        }
        child.node = .object(nested)
        return KeyedEncodingContainer(TapeKeyedEncodingContainer<NestedKey>(encoder: child, object: nested))
    }

    /// As `nestedContainer(keyedBy:forKey:)`, for arrays.
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let name = name(key)
        let child = TapeEncoder(state: state, codingPath: path(key))
        let nested: EncodedArray
        switch object.value(name).map(Self.resolved) {
        case .array(let existing)?:
            nested = existing
        case nil:
            nested = EncodedArray()
            object.set(name, .array(nested))
        case let other?:
            state.refuse(other, child.codingPath, "Attempt to re-encode into nested UnkeyedEncodingContainer for key \"\(name)\" is invalid: keyed container/single value already encoded for this key")
            nested = EncodedArray()
        }
        child.node = .array(nested)
        return TapeUnkeyedEncodingContainer(encoder: child, array: nested)
    }

    /// A member's value, seen through a super encoder that wrote it.
    private static func resolved(_ node: EncodedNode) -> EncodedNode {
        if case .encoder(let encoder) = node, let written = encoder.node { return resolved(written) }
        return node
    }

    mutating func superEncoder() -> any Encoder {
        let key = JSONStringKey("super")
        let child = TapeEncoder(state: state, codingPath: encoder.childPath(key))
        object.set("super", .encoder(child))
        return child
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = TapeEncoder(state: state, codingPath: path(key))
        object.set(name(key), .encoder(child))
        return child
    }
}
