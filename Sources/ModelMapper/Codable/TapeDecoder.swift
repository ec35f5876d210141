import Foundation

// The Codable decoder: a `Decoder` over the tape.
//
// Keyed containers find keys by comparing the raw UTF-8 key bytes on the tape (a cursor makes the usual
// in-order lookups O(1)); numbers are converted from their literal text by the codecs (ScalarCodecs,
// FoundationCodecs), never by rules restated here. Two modes:
//
// - `.foundation` (`ModelDecoder().decode(T.self, from:)` for any Decodable): JSONDecoder's behaviour —
//   only the matching JSON type (integers also from integral number literals such as `2.0`, as
//   JSONDecoder), its key/date/data/non-conforming-float strategies, `DecodingError`s with the coding path.
// - `.mapping` (`Decodable` fields of `JSONMappable` models): the model's `DecodingOptions` (lenient or
//   strict conversions, `dateStrategy`), errors turned into `MappingError` with the property path by
//   `DecodableCodec`.
//
// Every error carries the token index of the failing value (see `TapeLocation`), resolved into line and
// column by the entry point that owns the input.

// MARK: - Decoder

/// A `Decoder` for the value at one tape index; also its single-value container.
/// Where a decoder's coding path is: on the state's stack (`keyStack[0..<depth]`), or fixed.
enum PathRef {
    case stack(Int)
    case fixed([any CodingKey])
}

/// Three words, so that passing it as `any Decoder` needs no box.
struct TapeDecoder: Decoder, SingleValueDecodingContainer {
    let state: TapeDecodingState
    let index: Int
    /// Bit 0: `rawKeys`. The rest: the depth of a path on the key stack (>= 0), or `-(n + 1)` for the
    /// fixed path `state.fixedPaths[n]`.
    let packed: Int

    init(state: TapeDecodingState, index: Int, ref: PathRef, rawKeys: Bool = false) {
        self.state = state
        self.index = index
        let path: Int
        switch ref {
        case .stack(let depth):
            path = depth
        case .fixed(let keys):
            path = -(state.fixedPaths.count + 1)
            state.fixedPaths.append(keys)
        }
        packed = path << 1 | (rawKeys ? 1 : 0)
    }

    /// A decoder with a packed path (see `packed`).
    init(state: TapeDecodingState, index: Int, packed: Int) {
        self.state = state
        self.index = index
        self.packed = packed
    }

    /// Keys are used as they are (a `[String: Value]` dictionary: no key strategy, as JSONDecoder).
    @inline(__always)
    var rawKeys: Bool { packed & 1 != 0 }

    /// The depth of the path on the key stack, nil for a fixed path.
    @inline(__always)
    var stackDepth: Int? {
        let path = packed >> 1
        return path >= 0 ? path : nil
    }

    var ref: PathRef {
        let path = packed >> 1
        return path >= 0 ? .stack(path) : .fixed(state.fixedPaths[-path - 1])
    }

    /// A decoder with a fixed coding path (handed out for later use).
    init(state: TapeDecodingState, index: Int, codingPath: [any CodingKey]) {
        self.init(state: state, index: index, ref: .fixed(codingPath))
    }

    var codingPath: [any CodingKey] { state.resolve(ref) }

    var userInfo: [CodingUserInfoKey: Any] { state.strategies.userInfo }

    @inline(__always)
    func childPath(_ key: any CodingKey) -> [any CodingKey] {
        var path = codingPath
        path.append(key)
        return path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let kind = state.kind(index)
        guard kind == .objectStart else {
            if kind == .null, state.isFoundation {
                throw DecodingError.valueNotFound([String: Any].self, .init(
                    codingPath: codingPath, debugDescription: "Cannot get keyed decoding container -- found null value instead",
                    underlyingError: state.location(index)))
            }
            throw state.typeMismatch([String: Any].self, index, codingPath, state.isFoundation ? nil
                : "expected an object, found \(state.c.describe(at: index))")
        }
        return try state.keyedContainer(Key.self, self)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let kind = state.kind(index)
        guard kind == .arrayStart else {
            if kind == .null, state.isFoundation {
                throw DecodingError.valueNotFound([Any].self, .init(
                    codingPath: codingPath, debugDescription: "Cannot get unkeyed decoding container -- found null value instead",
                    underlyingError: state.location(index)))
            }
            throw state.typeMismatch([Any].self, index, codingPath, state.isFoundation ? nil
                : "expected an array, found \(state.c.describe(at: index))")
        }
        return TapeUnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { state.kind(index) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try state.decodeBool(index, codingPath) }
    func decode(_ type: String.Type) throws -> String { try state.decodeString(index, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try state.decodeDouble(index, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try state.decodeFloat(index, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try state.decodeInteger(Int.self, index, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try state.decodeInteger(Int8.self, index, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try state.decodeInteger(Int16.self, index, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try state.decodeInteger(Int32.self, index, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try state.decodeInteger(Int64.self, index, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try state.decodeInteger(UInt.self, index, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try state.decodeInteger(UInt8.self, index, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try state.decodeInteger(UInt16.self, index, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try state.decodeInteger(UInt32.self, index, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try state.decodeInteger(UInt64.self, index, codingPath) }
    func decode(_ type: Int128.Type) throws -> Int128 { try state.decodeInteger(Int128.self, index, codingPath) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try state.decodeInteger(UInt128.self, index, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.decodeValue(type, index, ref)
    }
}
