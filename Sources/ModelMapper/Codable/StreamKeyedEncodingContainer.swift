import Foundation

// The streaming encoder's keyed container: writes `"key":value` into its frame.

struct StreamKeyedContainer<Key: CodingKey>: OptionalMemberEncoding {
    let state: TapeEncodingState
    /// The frame it writes to.
    let id: Int
    let depth: Int
    let rawKeys: Bool
    let names: StreamKeyNames

    var codingPath: [any CodingKey] { state.streamPath(depth, of: id) }

    @inline(__always)
    private func member(_ key: Key) -> Bool {
        state.enter(id, depth) && state.beginMember(key, names, rawKeys: rawKeys, depth: depth)
    }

    mutating func encodeNil(forKey key: Key) throws { if member(key) { state.out.writer.null() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { if member(key) { state.out.writer.bool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { if member(key) { state.writeString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        if member(key) { try state.streamDouble(value, depth: depth, key: key) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        if member(key) { try state.streamFloat(value, depth: depth, key: key) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int128, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if member(key) { try state.streamValue(value, depth: depth, key: key) }
    }

    // encodeIfPresent comes from OptionalMemberEncoding; a nil member goes to encodeAbsent.

    @inline(__always)
    mutating func encodeAbsent(forKey key: Key) {
        if state.writesNulls, member(key) { state.out.writer.null() }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        var nestedID = -1
        if member(key) {
            nestedID = state.pushFrame(kind: .object, lazy: true, key: key)
            state.out.writer.beginObject()
        }
        return state.keyedContainer(NestedKey.self, id: nestedID, depth: depth + 1, rawKeys: false)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        var nestedID = -1
        if member(key) {
            nestedID = state.pushFrame(kind: .array, lazy: true, key: key)
            state.out.writer.beginArray()
        }
        return StreamUnkeyedContainer(state: state, id: nestedID, depth: Int32(depth + 1))
    }

    /// The member `super` (its name is not converted by the key strategy, as JSONEncoder).
    mutating func superEncoder() -> any Encoder {
        let key = JSONStringKey("super")
        var nestedID = -1
        if state.enter(id, depth) && state.beginNamedMember("super", checked: true) {
            nestedID = state.pushFrame(kind: .empty, lazy: true, key: key)
        }
        return StreamEncoder(state: state, id: nestedID, depth: Int32(depth + 1), rawKeys: false)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        var nestedID = -1
        if member(key) { nestedID = state.pushFrame(kind: .empty, lazy: true, key: key) }
        return StreamEncoder(state: state, id: nestedID, depth: Int32(depth + 1), rawKeys: false)
    }
}
