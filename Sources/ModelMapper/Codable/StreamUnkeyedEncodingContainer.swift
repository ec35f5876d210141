import Foundation

// The streaming encoder's unkeyed container.

struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let state: TapeEncodingState
    let id: Int
    let depth: Int32

    var codingPath: [any CodingKey] { state.streamPath(Int(depth), of: id) }

    var count: Int {
        let d = Int(depth)
        guard d >= 0 && d < state.frameCount, state.frame(at: d).id == id else {
            state.poison()
            return 0
        }
        return state.frame(at: d).count
    }

    /// Starts the next element; its index, or nil when poisoned.
    @inline(__always)
    private func element() -> Int? {
        state.enter(id, Int(depth)) ? state.beginElement() : nil
    }

    mutating func encodeNil() throws { if element() != nil { state.out.writer.null() } }
    mutating func encode(_ value: Bool) throws { if element() != nil { state.out.writer.bool(value) } }
    mutating func encode(_ value: String) throws { if element() != nil { state.writeString(value) } }
    mutating func encode(_ value: Double) throws {
        if let n = element() { try state.streamDouble(value, depth: Int(depth), key: JSONIndexKey(n)) }
    }
    mutating func encode(_ value: Float) throws {
        if let n = element() { try state.streamFloat(value, depth: Int(depth), key: JSONIndexKey(n)) }
    }
    mutating func encode(_ value: Int) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int8) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int16) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int32) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int64) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt8) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt16) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt32) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt64) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int128) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt128) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if let n = element() { try state.streamValue(value, depth: Int(depth), key: JSONIndexKey(n)) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        var nestedID = -1
        if let n = element() {
            nestedID = state.pushFrame(kind: .object, lazy: true, key: JSONIndexKey(n))
            state.out.writer.beginObject()
        }
        return state.keyedContainer(NestedKey.self, id: nestedID, depth: Int(depth) + 1, rawKeys: false)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        var nestedID = -1
        if let n = element() {
            nestedID = state.pushFrame(kind: .array, lazy: true, key: JSONIndexKey(n))
            state.out.writer.beginArray()
        }
        return StreamUnkeyedContainer(state: state, id: nestedID, depth: depth + 1)
    }

    mutating func superEncoder() -> any Encoder {
        var nestedID = -1
        if let n = element() { nestedID = state.pushFrame(kind: .empty, lazy: true, key: JSONIndexKey(n)) }
        return StreamEncoder(state: state, id: nestedID, depth: depth + 1, rawKeys: false)
    }
}
