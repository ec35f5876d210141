// Unsafe code: writes a value of exactly the type named by `FieldKind` at `field`, which the decoding loop
// computes from the model's reflected layout (see the invariants in ModelCodec.swift).

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
        field.assumingMemoryBound(to: String.self).pointee = try StringCodec.read(c, index)
    case .optionalString:
        field.assumingMemoryBound(to: String?.self).pointee = isNull ? nil : try StringCodec.read(c, index)
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
