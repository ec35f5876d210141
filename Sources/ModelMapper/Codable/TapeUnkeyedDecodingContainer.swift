import Foundation

// The Codable decoder's unkeyed container.

/// Three words (32-bit token indices), so that `any UnkeyedDecodingContainer` holds it inline (no
/// allocation per array); a value, so copies keep their own position (as JSONDecoder's).
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let state: TapeDecodingState
    /// The array's start token.
    private let array: Int32
    /// The decoder's path (`TapeDecoder.packed`).
    private let packedPath: Int32
    /// Token index of the current element (the array's end token when at the end).
    private var position32: Int32
    private var currentIndex32: Int32 = 0

    init(decoder: TapeDecoder) {
        state = decoder.state
        precondition(state.tape.count < Int(Int32.max) && decoder.packed >= Int(Int32.min) && decoder.packed <= Int(Int32.max),
                     "tape too large for 32-bit token indices")
        array = Int32(truncatingIfNeeded: decoder.index)
        packedPath = Int32(truncatingIfNeeded: decoder.packed)
        position32 = Int32(truncatingIfNeeded: decoder.index + 1)
    }

    var decoder: TapeDecoder { TapeDecoder(state: state, index: Int(array), packed: Int(packedPath)) }
    private var position: Int {
        get { Int(position32) }
        set { position32 = Int32(truncatingIfNeeded: newValue) }
    }
    /// Index of the array's end token.
    private var end: Int { state.tape[Int(array)].payload }
    var currentIndex: Int {
        get { Int(currentIndex32) }
        set { currentIndex32 = Int32(truncatingIfNeeded: newValue) }
    }
    var count: Int? { Int(state.tape[Int(array)].length) }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var isAtEnd: Bool { position >= end }

    @inline(__always)
    private func path() -> [any CodingKey] { decoder.childPath(JSONIndexKey(currentIndex)) }

    private func atEnd(_ type: Any.Type) -> DecodingError {
        .valueNotFound(type, .init(codingPath: path(), debugDescription: "Unkeyed container is at end.",
                                   underlyingError: state.location(decoder.index)))
    }

    /// Decodes the current element and moves past it only on success.
    @inline(__always)
    private mutating func next<R>(_ type: Any.Type, _ body: (TapeDecodingState, Int, () -> [any CodingKey]) throws -> R) throws -> R {
        guard position < end else { throw atEnd(type) }
        let decoder = self.decoder
        let n = currentIndex
        let result = try body(state, position, { decoder.childPath(JSONIndexKey(n)) })
        position = state.tape.indexAfterValue(at: position)
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard position < end else { throw atEnd(Any?.self) }
        if state.tape[position].kind == .null {
            position += 1
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { s, i, p in try s.decodeBool(i, p()) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { s, i, p in try s.decodeString(i, p()) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { s, i, p in try s.decodeDouble(i, p()) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { s, i, p in try s.decodeFloat(i, p()) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { s, i, p in try s.decodeInteger(Int.self, i, p()) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { s, i, p in try s.decodeInteger(Int8.self, i, p()) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { s, i, p in try s.decodeInteger(Int16.self, i, p()) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { s, i, p in try s.decodeInteger(Int32.self, i, p()) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { s, i, p in try s.decodeInteger(Int64.self, i, p()) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { s, i, p in try s.decodeInteger(UInt.self, i, p()) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { s, i, p in try s.decodeInteger(UInt8.self, i, p()) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { s, i, p in try s.decodeInteger(UInt16.self, i, p()) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { s, i, p in try s.decodeInteger(UInt32.self, i, p()) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { s, i, p in try s.decodeInteger(UInt64.self, i, p()) } }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try next(type) { s, i, p in try s.decodeInteger(Int128.self, i, p()) } }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try next(type) { s, i, p in try s.decodeInteger(UInt128.self, i, p()) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard position < end else { throw atEnd(type) }
        let result = try state.decodeChild(type, position, parent: decoder, key: JSONIndexKey(currentIndex))
        position = state.tape.indexAfterValue(at: position)
        currentIndex += 1
        return result
    }

    /// At the end and `null` are nil; in mapping mode so is an empty string for `URL?`.
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if isAtEnd { return nil }
        if try decodeNil() { return nil }
        if !state.isFoundation, T.self == URL.self, state.tape[position].kind == .string {
            let url: URL?
            do {
                url = try state.urlCodec.decodeOptional(state.c, position)
            } catch {
                throw state.converted(error, URL.self, position, path())
            }
            position += 1
            currentIndex += 1
            return url as! T?
        }
        return try decode(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next(KeyedDecodingContainer<NestedKey>.self) { s, i, p in
            try TapeDecoder(state: s, index: i, codingPath: p()).container(keyedBy: NestedKey.self)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) { s, i, p in
            try TapeDecoder(state: s, index: i, codingPath: p()).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next((any Decoder).self) { s, i, p in TapeDecoder(state: s, index: i, codingPath: p()) }
    }
}
