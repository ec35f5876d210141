import Foundation

// The tree encoder's unkeyed container: elements of an `EncodedArray`.

struct TapeUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: TapeEncoder
    let array: EncodedArray

    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { array.values.count }
    private var state: TapeEncodingState { encoder.state }

    @inline(__always)
    private func path() -> [any CodingKey] { encoder.childPath(JSONIndexKey(array.values.count)) }

    mutating func encodeNil() throws { array.values.append(.null) }
    mutating func encode(_ value: Bool) throws { array.values.append(.bool(value)) }
    mutating func encode(_ value: String) throws { array.values.append(.string(value)) }
    mutating func encode(_ value: Double) throws { array.values.append(try state.double(value, path())) }
    mutating func encode(_ value: Float) throws { array.values.append(try state.float(value, path())) }
    mutating func encode(_ value: Int) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { array.values.append(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { array.values.append(.int(value)) }
    mutating func encode(_ value: UInt) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { array.values.append(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { array.values.append(.uint(value)) }
    mutating func encode(_ value: Int128) throws { array.values.append(.number(String(value))) }
    mutating func encode(_ value: UInt128) throws { array.values.append(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { array.values.append(try state.box(value, path())) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let nested = EncodedObject()
        let child = TapeEncoder(state: state, codingPath: path())
        child.node = .object(nested)
        array.values.append(.object(nested))
        return KeyedEncodingContainer(TapeKeyedEncodingContainer<NestedKey>(encoder: child, object: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        let child = TapeEncoder(state: state, codingPath: path())
        child.node = .array(nested)
        array.values.append(.array(nested))
        return TapeUnkeyedEncodingContainer(encoder: child, array: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let child = TapeEncoder(state: state, codingPath: path())
        array.values.append(.encoder(child))
        return child
    }
}
