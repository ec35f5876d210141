import Foundation

// The streaming encoder's `Encoder` and its single value container (StreamingEncoder.swift).

struct StreamEncoder: Encoder {
    let state: TapeEncodingState
    /// The value slot this encoder writes.
    let id: Int
    let depth: Int32
    /// `[String: Value]` dictionaries: keys as they are (no key strategy, as JSONEncoder).
    let rawKeys: Bool

    var codingPath: [any CodingKey] { state.streamPath(Int(depth), of: id) }
    var userInfo: [CodingUserInfoKey: Any] { state.strategies.userInfo }

    /// The same object for every call (a subclass and its superclass share one object).
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if state.enter(id, Int(depth)) {
            switch state.topFrame.kind {
            case .empty:
                state.topFrame.kind = .object
                state.out.writer.beginObject()
            case .object: break
            default: state.poison()
            }
        }
        return state.keyedContainer(Key.self, id: id, depth: Int(depth), rawKeys: rawKeys)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if state.enter(id, Int(depth)) {
            switch state.topFrame.kind {
            case .empty:
                state.topFrame.kind = .array
                state.out.writer.beginArray()
            case .array: break
            default: state.poison()
            }
        }
        return StreamUnkeyedContainer(state: state, id: id, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamSingleValueContainer(state: state, id: id, depth: depth)
    }
}

// MARK: - Single value

struct StreamSingleValueContainer: SingleValueEncodingContainer {
    let state: TapeEncodingState
    let id: Int
    let depth: Int32

    var codingPath: [any CodingKey] { state.streamPath(Int(depth), of: id) }

    /// Claims the slot for one value; false (poisoned) when something was written to it already.
    @inline(__always)
    private func claim() -> Bool {
        guard state.enter(id, Int(depth)) else { return false }
        guard state.topFrame.kind == .empty else {
            state.poison()
            return false
        }
        state.topFrame.kind = .filled
        return true
    }

    mutating func encodeNil() throws { if claim() { state.out.writer.null() } }
    mutating func encode(_ value: Bool) throws { if claim() { state.out.writer.bool(value) } }
    mutating func encode(_ value: String) throws { if claim() { state.writeString(value) } }
    mutating func encode(_ value: Double) throws {
        if claim() { try state.streamDouble(value, depth: Int(depth), key: StreamNoKey()) }
    }
    mutating func encode(_ value: Float) throws {
        if claim() { try state.streamFloat(value, depth: Int(depth), key: StreamNoKey()) }
    }
    mutating func encode(_ value: Int) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int8) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int16) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int32) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int64) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt8) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt16) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt32) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt64) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int128) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt128) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if claim() { try state.streamValue(value, depth: Int(depth), key: StreamNoKey()) }
    }
}
