import Foundation

// The Codable encoder's tree: `encode(to:)` fills a light tree of nodes (scalars inline, one class per
// array or object — the Codable API lets a value write to a container after its nested containers, so
// output cannot be streamed in general); the tree is then written with `JSONWriter` in one pass, which
// also sorts keys and indents. Values are first encoded by the streaming encoder (StreamingEncoder.swift),
// which writes straight into the output and falls back to this tree when sorted keys are asked for or
// `encode(to:)` uses its containers out of order. The state both share is TapeEncodingState.swift's. Two modes,
// as the decoder:
//
// - `.foundation` (`ModelEncoder().encode(value)` for any Encodable): JSONEncoder's behaviour and
//   strategies, `EncodingError` for invalid values.
// - `.mapping` (`Encodable` fields of `JSONMappable` models): the model's `EncodingOptions` (date
//   strategy, nulls), errors as `MappingError` with the property path.

// MARK: - Encoder

final class TapeEncoder: Encoder {
    let state: TapeEncodingState
    let codingPath: [any CodingKey]
    /// `[String: Value]` dictionaries: keys as they are (no key strategy, as JSONEncoder).
    let rawKeys: Bool
    @exclusivity(unchecked) var node: EncodedNode?

    init(state: TapeEncodingState, codingPath: [any CodingKey], rawKeys: Bool = false) {
        self.state = state
        self.codingPath = codingPath
        self.rawKeys = rawKeys
    }

    var userInfo: [CodingUserInfoKey: Any] { state.strategies.userInfo }

    @inline(__always)
    func childPath(_ key: any CodingKey) -> [any CodingKey] {
        var path = codingPath
        path.append(key)
        return path
    }

    /// The same object for every call (a subclass and its superclass share one object). Where another kind
    /// of value was encoded, JSONEncoder stops on a precondition: the encoding is refused (thrown by the
    /// entry point), and the container writes to an object nobody reads.
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedObject
        switch node {
        case .object(let existing)?:
            object = existing
        case nil:
            object = EncodedObject()
            node = .object(object)
        default:
            state.refuse(node, codingPath, "Attempt to push new keyed encoding container when already previously encoded at this path.")
            object = EncodedObject()
        }
        return KeyedEncodingContainer(TapeKeyedEncodingContainer<Key>(encoder: self, object: object))
    }

    /// The same array for every call; refused where another kind of value was encoded (see above).
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedArray
        switch node {
        case .array(let existing)?:
            array = existing
        case nil:
            array = EncodedArray()
            node = .array(array)
        default:
            state.refuse(node, codingPath, "Attempt to push new unkeyed encoding container when already previously encoded at this path.")
            array = EncodedArray()
        }
        return TapeUnkeyedEncodingContainer(encoder: self, array: array)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TapeSingleValueEncodingContainer(encoder: self)
    }
}

/// One value per encoder: a second one (or one after a container) is what JSONEncoder refuses with a
/// precondition; here it is an `EncodingError`, thrown at once (these methods throw).
struct TapeSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: TapeEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }
    private var state: TapeEncodingState { encoder.state }

    @inline(__always)
    private func set(_ node: @autoclosure () throws -> EncodedNode) throws {
        guard encoder.node == nil else {
            throw EncodingError.invalidValue(EncodedNode.errorValue(encoder.node), .init(
                codingPath: codingPath, debugDescription: "Attempt to encode value through single value container when previously value already encoded."))
        }
        encoder.node = try node()
    }

    mutating func encodeNil() throws { try set(.null) }
    mutating func encode(_ value: Bool) throws { try set(.bool(value)) }
    mutating func encode(_ value: String) throws { try set(.string(value)) }
    mutating func encode(_ value: Double) throws { try set(try state.double(value, codingPath)) }
    mutating func encode(_ value: Float) throws { try set(try state.float(value, codingPath)) }
    mutating func encode(_ value: Int) throws { try set(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { try set(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { try set(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { try set(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { try set(.int(value)) }
    mutating func encode(_ value: UInt) throws { try set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { try set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { try set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { try set(.uint(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { try set(.uint(value)) }
    mutating func encode(_ value: Int128) throws { try set(.number(String(value))) }
    mutating func encode(_ value: UInt128) throws { try set(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { try set(try state.box(value, codingPath)) }
}
