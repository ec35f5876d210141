// Unsafe code: writes a value of exactly the type named by `FieldKind` at `field`, which the decoding loop
// computes from the model's reflected layout (see the invariants in ModelCodec.swift).
//
// Invariants: `field` addresses an initialized value of `kind.valueType` inside model memory: a slot gets a
// built-in kind only from a codec of that very type, and the decoding loop checks the field's bounds
// (both asserted; see ModelMeta.swift and PropertyDecoding.swift).

/// The hot built-in property types, decoded by a switch in the decoding loop rather than through a codec:
/// no dynamic dispatch and no generic metadata lookups per value (an unspecialized `Optional<Wrapped>`
/// costs a runtime metadata lookup on every access). Other types use their codec.
enum FieldKind: UInt8 {
    case codec
    case string, optionalString
    case int, optionalInt
    case int64, optionalInt64
    case double, optionalDouble
    case bool, optionalBool

    /// The Swift type a field of this kind has (nil for `.codec`).
    var valueType: Any.Type? {
        switch self {
        case .codec: return nil
        case .string: return String.self
        case .optionalString: return String?.self
        case .int: return Int.self
        case .optionalInt: return Int?.self
        case .int64: return Int64.self
        case .optionalInt64: return Int64?.self
        case .double: return Double.self
        case .optionalDouble: return Double?.self
        case .bool: return Bool.self
        case .optionalBool: return Bool?.self
        }
    }

    /// The Optional counterpart of a non-optional kind.
    var optional: FieldKind {
        switch self {
        case .string: return .optionalString
        case .int: return .optionalInt
        case .int64: return .optionalInt64
        case .double: return .optionalDouble
        case .bool: return .optionalBool
        default: return .codec
        }
    }
}

/// Decodes the value at `index` into a field of the type `kind` names (not `.codec`).
@inline(__always)
func decodeBuiltin(_ kind: FieldKind, _ c: DecodeContext, _ index: Int, _ field: UnsafeMutableRawPointer) throws(MappingError) {
    let isNull = c.tape[index].kind == .null
    switch kind {
    case .string:
        field.assumingMemoryBound(to: String.self).pointee = try readString(c, index)
    case .optionalString:
        field.assumingMemoryBound(to: String?.self).pointee = isNull ? nil : try readString(c, index)
    case .int:
        field.assumingMemoryBound(to: Int.self).pointee = try IntegerCodec<Int>.read(c, index)
    case .optionalInt:
        field.assumingMemoryBound(to: Int?.self).pointee = isNull ? nil : try IntegerCodec<Int>.read(c, index)
    case .int64:
        field.assumingMemoryBound(to: Int64.self).pointee = try IntegerCodec<Int64>.read(c, index)
    case .optionalInt64:
        field.assumingMemoryBound(to: Int64?.self).pointee = isNull ? nil : try IntegerCodec<Int64>.read(c, index)
    case .double:
        field.assumingMemoryBound(to: Double.self).pointee = try DoubleCodec.read(c, index)
    case .optionalDouble:
        field.assumingMemoryBound(to: Double?.self).pointee = isNull ? nil : try DoubleCodec.read(c, index)
    case .bool:
        field.assumingMemoryBound(to: Bool.self).pointee = try BoolCodec.read(c, index)
    case .optionalBool:
        field.assumingMemoryBound(to: Bool?.self).pointee = isNull ? nil : try BoolCodec.read(c, index)
    case .codec:
        preconditionFailure("codec fields are not built in")
    }
}

/// Arrays of the hot built-in element types as concrete (non-generic) codecs, so their element loops
/// are specialized: `ArrayCodec<Element>` is shared generic code that looks up metadata at run time,
/// which costs more than decoding a short `[Int]` such as Twitter's `indices`.
enum BuiltinArrays {
    static func codec(for element: Any.Type) -> FieldCodec? {
        switch ObjectIdentifier(element) {
        case ObjectIdentifier(String.self): return StringArrayCodec()
        case ObjectIdentifier(Int.self): return IntArrayCodec()
        case ObjectIdentifier(Int64.self): return Int64ArrayCodec()
        case ObjectIdentifier(Double.self): return DoubleArrayCodec()
        case ObjectIdentifier(Bool.self): return BoolArrayCodec()
        default: return nil
        }
    }
}

final class StringArrayCodec: ValueCodec<[String]>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> [String] {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        return try decodeArray(c, index, takesNull: false) { i throws(MappingError) in try StringCodec.read(c, i) }
    }
    override func encode(_ value: [String], _ e: inout EncodeContext) throws(MappingError) {
        try encodeElements(value, StringCodec(), &e)
    }
}

final class IntArrayCodec: ValueCodec<[Int]>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> [Int] {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        return try decodeArray(c, index, takesNull: false) { i throws(MappingError) in try IntegerCodec<Int>.read(c, i) }
    }
    override func encode(_ value: [Int], _ e: inout EncodeContext) throws(MappingError) {
        try encodeElements(value, IntegerCodec<Int>(), &e)
    }
}

final class Int64ArrayCodec: ValueCodec<[Int64]>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> [Int64] {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        return try decodeArray(c, index, takesNull: false) { i throws(MappingError) in try IntegerCodec<Int64>.read(c, i) }
    }
    override func encode(_ value: [Int64], _ e: inout EncodeContext) throws(MappingError) {
        try encodeElements(value, IntegerCodec<Int64>(), &e)
    }
}

final class DoubleArrayCodec: ValueCodec<[Double]>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> [Double] {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        return try decodeArray(c, index, takesNull: false) { i throws(MappingError) in try DoubleCodec.read(c, i) }
    }
    override func encode(_ value: [Double], _ e: inout EncodeContext) throws(MappingError) {
        try encodeElements(value, DoubleCodec(), &e)
    }
}

final class BoolArrayCodec: ValueCodec<[Bool]>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> [Bool] {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        return try decodeArray(c, index, takesNull: false) { i throws(MappingError) in try BoolCodec.read(c, i) }
    }
    override func encode(_ value: [Bool], _ e: inout EncodeContext) throws(MappingError) {
        try encodeElements(value, BoolCodec(), &e)
    }
}
