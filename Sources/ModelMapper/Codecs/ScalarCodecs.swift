// Unsafe code: number and boolean texts are read as `UnsafeRawBufferPointer`s into the parsed input (or the
// tape's arena), not copied.
//
// Invariants: a literal is a token's bytes from the tape (`numericLiteral`, `TapeView.bytes`), valid while the
// tape is (the decode's duration) and never kept past the conversion; reads are at indices `0..<count`.
// Asserted where a literal is taken and where fixed-width words are compared.
import Foundation

/// Integers of every width: exact, range-checked (300 into `Int8` and 1.5 into `Int` are `.invalidValue`).
/// Lenient adds integral floats (`2.0`, `1e2`) and decimal strings (`"100"`, `" 42 "`).
final class IntegerCodec<Value: FixedWidthInteger>: ValueCodec<Value>, @unchecked Sendable {
    override var fieldKind: FieldKind { Value.self == Int.self ? .int : Value.self == Int64.self ? .int64 : .codec }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Value {
        try Self.read(c, index)
    }

    /// The conversion itself, callable without a codec instance (the decoding loop's fast path).
    @inline(__always)
    static func read(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Value {
        let token = c.tape[index]
        let literal: UnsafeRawBufferPointer
        switch token.kind {
        case .number:
            literal = c.tape.bytes(token)
            if !c.lenient && !NumberParsing.isPlainInteger(literal) {
                throw c.invalid("\(c.describe(at: index)) is not an integer", at: index)
            }
        case .string where c.lenient:
            guard let trimmed = NumberParsing.trimmedNumericLiteral(c.tape.bytes(token)) else {
                throw c.invalid("\(c.describe(at: index)) is not a number", at: index)
            }
            literal = trimmed
        default:
            throw c.mismatch(expected: "an integer", at: index)
        }
        if Value.isSigned {
            if let v = NumberParsing.int64(literal), let exact = Value(exactly: v) { return exact }
        } else {
            if let v = NumberParsing.uint64(literal), let exact = Value(exactly: v) { return exact }
        }
        // Int128 and UInt128: an integer past Int64's range (UInt64's for UInt128), exactly, written as the
        // 64-bit types may be ("18446744073709551615.0"; nil past the type's range).
        if Value.bitWidth > 64, Value.bitWidth <= 128, let wide = NumberParsing.wideInteger(literal, as: Value.self) {
            return wide
        }
        let text = String(decoding: literal, as: UTF8.self)
        if NumberParsing.int64(literal) != nil || NumberParsing.uint64(literal) != nil || NumberParsing.isPlainInteger(literal) {
            throw c.invalid("\(DecodeContext.shortened(text)) is out of range for \(Value.self)", at: index)
        }
        throw c.invalid("\(DecodeContext.shortened(text)) is not an integer", at: index)
    }

    override func encode(_ value: Value, _ e: inout EncodeContext) throws(MappingError) {
        e.writer.integer(value)
    }
}

/// `Double`: numbers, correctly rounded; out of range (`1e400`, or `1e-400`, which would read as 0) is
/// `.invalidValue`. Lenient adds numeric strings.
final class DoubleCodec: ValueCodec<Double>, @unchecked Sendable {
    override var fieldKind: FieldKind { .double }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Double {
        try Self.read(c, index)
    }

    /// The conversion itself, callable without a codec instance (the decoding loop's fast path).
    @inline(__always)
    static func read(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Double {
        if _slowPath(c.tape[index].kind == .string), let special = nonConforming(c, index) { return special }
        let literal = try numericLiteral(c, index)
        guard let value = NumberParsing.doubleValue(literal) else {
            throw c.invalid("\(c.describe(at: index)) is out of range for Double", at: index)
        }
        return value
    }

    override func encode(_ value: Double, _ e: inout EncodeContext) throws(MappingError) {
        try Self.write(value, &e)
    }

    /// Writes `value` (the encode loop's built-in path too): its shortest round-trip text.
    @inline(__always)
    static func write(_ value: Double, _ e: inout EncodeContext) throws(MappingError) {
        guard value.isFinite else { return try writeNonConforming(value, &e) }
        e.writer.number(value, dropsPointZero: false)
    }
}

/// `Float`: numbers, correctly rounded from the literal (not via `Double`); out of range (`1e39`, `1e-46`) is
/// `.invalidValue`.
final class FloatCodec: ValueCodec<Float>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Float {
        if c.tape[index].kind == .string, let special = nonConforming(c, index) { return Float(special) }
        let literal = try numericLiteral(c, index)
        guard let value = NumberParsing.floatValue(literal) else {
            throw c.invalid("\(c.describe(at: index)) is out of range for Float", at: index)
        }
        return value
    }

    override func encode(_ value: Float, _ e: inout EncodeContext) throws(MappingError) {
        guard value.isFinite else { return try writeNonConforming(Double(value), &e) }
        e.writer.number(value, dropsPointZero: false)
    }
}

#if !(os(Windows) || os(Android)) && (arch(i386) || arch(x86_64))
/// `Float80` (x86 only; YYModel's `long double`): numbers, correctly rounded from the literal text (not via
/// `Double`, which YYModel's `doubleValue` goes through); out of range (`1e5000`, `1e-5000`) is `.invalidValue`. Lenient
/// adds numeric strings. Written as its shortest text that reads back as the same `Float80`.
final class Float80Codec: ValueCodec<Float80>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Float80 {
        let literal = try numericLiteral(c, index)
        // strtold, correctly rounded; a JSON literal is always in its syntax.
        guard let value = Float80(String(decoding: literal, as: UTF8.self)), value.isFinite,
              value != 0 || !NumberParsing.isNonzero(literal) else {
            throw c.invalid("\(c.describe(at: index)) is out of range for Float80", at: index)
        }
        return value
    }

    override func encode(_ value: Float80, _ e: inout EncodeContext) throws(MappingError) {
        guard value.isFinite else { throw MappingError(.invalidValue, "\(value) cannot be written as JSON") }
        e.writer.raw(value.description)
    }
}
#endif

/// `Decimal`: exact from the literal text. Lenient adds numeric strings.
final class DecimalCodec: ValueCodec<Decimal>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Decimal {
        let literal = try numericLiteral(c, index)
        guard let value = NumberParsing.decimal(literal) else {
            throw c.invalid("\(c.describe(at: index)) does not fit Decimal exactly", at: index)
        }
        return value
    }

    override func encode(_ value: Decimal, _ e: inout EncodeContext) throws(MappingError) {
        guard value.isFinite else { throw MappingError(.invalidValue, "\(value) cannot be written as JSON") }
        e.writer.raw(value.description)
    }
}

/// Infinity or NaN from a string, for the models of a Codable decoding whose coder reads them
/// (`nonConformingFloatDecodingStrategy = .convertFromString`, ``CodableValueStrategies``).
@inline(never)
private func nonConforming(_ c: DecodeContext, _ index: Int) -> Double? {
    guard let codable = c.options.codableStrategies, let text = try? c.tape.string(at: index) else { return nil }
    return NonConformingFloats.value(of: text, codable.nonConformingFloats)
}

/// Infinity or NaN written as the Codable coder's strings (`.convertToString`), else an error.
@inline(never)
private func writeNonConforming(_ value: Double, _ e: inout EncodeContext) throws(MappingError) {
    if let codable = e.options.codableStrategies, let text = NonConformingFloats.text(of: value, codable.nonConformingFloats) {
        return e.writer.string(text)
    }
    throw MappingError(.invalidValue, "\(value) cannot be written as JSON")
}

/// The literal of a number token, or (lenient) of a numeric string.
@inline(__always)
private func numericLiteral(_ c: DecodeContext, _ index: Int) throws(MappingError) -> UnsafeRawBufferPointer {
    let token = c.tape[index]
    switch token.kind {
    case .number:
        let literal = c.tape.bytes(token)
        assert(!literal.isEmpty && literal.baseAddress != nil, "a number token without its text")
        return literal
    case .string where c.lenient:
        guard let trimmed = NumberParsing.trimmedNumericLiteral(c.tape.bytes(token)) else {
            throw c.invalid("\(c.describe(at: index)) is not a number", at: index)
        }
        return trimmed
    default:
        throw c.mismatch(expected: "a number", at: index)
    }
}

/// `Bool`: `true`/`false`. Lenient adds the numbers 0 and 1 and the strings true/false/yes/no/1/0 in any case.
final class BoolCodec: ValueCodec<Bool>, @unchecked Sendable {
    override var fieldKind: FieldKind { .bool }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Bool {
        try Self.read(c, index)
    }

    /// The conversion itself, callable without a codec instance (the decoding loop's fast path).
    @inline(__always)
    static func read(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Bool {
        let token = c.tape[index]
        switch token.kind {
        case .trueValue: return true
        case .falseValue: return false
        case .number where c.lenient:
            switch NumberParsing.int64(c.tape.bytes(token)) {
            case 0: return false
            case 1: return true
            default: throw c.invalid("\(c.describe(at: index)) is not a Boolean (0 or 1)", at: index)
            }
        case .string where c.lenient:
            let bytes = c.tape.bytes(token)
            if let value = BoolCodec.word(bytes) { return value }
            throw c.invalid("\(c.describe(at: index)) is not a Boolean", at: index)
        default:
            throw c.mismatch(expected: "a Boolean", at: index)
        }
    }

    /// true/false/yes/no/1/0 in any case, surrounding whitespace ignored (not whitespace inside: "tr ue"
    /// is not a Boolean). Packs the lowered bytes into an integer: no allocation.
    static func word(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        var lo = 0
        var hi = bytes.count
        while lo < hi && isSpace(bytes[lo]) { lo += 1 }
        while hi > lo && isSpace(bytes[hi - 1]) { hi -= 1 }
        guard hi - lo >= 1 && hi - lo <= 5 else { return nil }
        assert(0 <= lo && hi <= bytes.count, "Boolean word read outside its text")
        var packed: UInt64 = 0
        for i in lo..<hi {
            let byte = bytes[i]
            if byte == 0 { return nil }   // would vanish from the packed value
            packed = packed << 8 | UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        switch packed {
        case 0x74_72_75_65, 0x79_65_73, 0x31: return true          // "true", "yes", "1"
        case 0x66_61_6C_73_65, 0x6E_6F, 0x30: return false         // "false", "no", "0"
        default: return nil
        }
    }

    override func encode(_ value: Bool, _ e: inout EncodeContext) throws(MappingError) {
        e.writer.bool(value)
    }
}

/// A string value (the decoding loop's fast path): only the string case is inlined; the conversions are
/// out of line. A function rather than a static method of ``StringCodec``: the decoding loop still calls it
/// out of line for `String?` fields, the slots of every `@JSONModel` String property (sharing one call site
/// with `String` fields put both out of line, measured by scripts/counts), and a static method would first
/// fetch the class's metadata (`self`) on every string.
@inline(__always)
func readString(_ c: DecodeContext, _ index: Int) throws(MappingError) -> String {
    if c.tape[index].kind == .string { return try c.tape.string(at: index) }
    return try StringCodec.convert(c, index)
}

/// `String`: strings (one copy from the input). Lenient adds numbers (their literal text exactly: `8.8`
/// stays `"8.8"`) and Booleans (`"true"`/`"false"`).
final class StringCodec: ValueCodec<String>, @unchecked Sendable {
    override var fieldKind: FieldKind { .string }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> String {
        try Self.read(c, index)
    }

    /// The conversion itself, callable without a codec instance: ``readString(_:_:)``.
    @inline(__always)
    static func read(_ c: DecodeContext, _ index: Int) throws(MappingError) -> String {
        try readString(c, index)
    }

    /// A value that is not a JSON string: converted (lenient), or a mismatch.
    @inline(never)
    static func convert(_ c: DecodeContext, _ index: Int) throws(MappingError) -> String {
        let token = c.tape[index]
        switch token.kind {
        case .string:
            return try c.tape.string(at: index)
        case .number where c.lenient:
            return c.tape.text(token)
        case .trueValue where c.lenient:
            return "true"
        case .falseValue where c.lenient:
            return "false"
        case .foreign:
            return try ForeignValues.string(c, index)
        default:
            throw c.mismatch(expected: "a string", at: index)
        }
    }

    override func encode(_ value: String, _ e: inout EncodeContext) throws(MappingError) {
        e.writer.string(value)
    }
}

/// `JSONValue`: any JSON, as is (null included).
final class JSONValueCodec: ValueCodec<JSONValue>, @unchecked Sendable {
    init() { super.init(takesNull: true) }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> JSONValue {
        var i = index
        return try JSONValue(tape: c.tape, index: &i)
    }

    override func encode(_ value: JSONValue, _ e: inout EncodeContext) throws(MappingError) {
        try JSONValueCodec.validateNumbers(value)
        e.writer.write(value)
    }

    /// Numbers built in code (``JSONNumber/init(text:)``, `JSONNumber(Double.nan)`) may not be valid JSON.
    /// Iterative (a value built in code may nest deeper than the thread's stack allows recursion).
    static func validateNumbers(_ value: JSONValue) throws(MappingError) {
        var open: [JSONValue.Members] = []
        /// The member of each open container being visited: its key, or its index in an array.
        var path: [(key: String?, index: Int)] = []
        var current = value
        while true {
            switch current {
            case .number(let n) where !n.isValidJSON:
                var error = MappingError(.invalidValue, "\(n.text) is not a valid JSON number")
                // Spelled from the outside in, once (prepending per level would be quadratic).
                error.path = path.reduce(into: "") { text, step in
                    if let key = step.key { text += text.isEmpty ? key : "." + key } else { text += "[\(step.index)]" }
                }
                throw error
            case .array(let elements) where !elements.isEmpty:
                open.append(JSONValue.Members(elements))
                path.append((nil, 0))
            case .object(let object) where !object.isEmpty:
                open.append(JSONValue.Members(object))
                path.append((nil, 0))
            default:
                break
            }
            while let last = open.indices.last {
                if let (position, key, member) = open[last].next() {
                    path[last] = (key, position)
                    current = member
                    break
                }
                open.removeLast()
                path.removeLast()
            }
            if open.isEmpty { return }
        }
    }
}

/// `JSONObject`: any JSON object.
final class JSONObjectCodec: ValueCodec<JSONObject>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> JSONObject {
        guard c.tape[index].kind == .objectStart else { throw c.mismatch(expected: "an object", at: index) }
        var i = index
        return try JSONObject(tape: c.tape, index: &i)
    }

    override func encode(_ value: JSONObject, _ e: inout EncodeContext) throws(MappingError) {
        let json = JSONValue.object(value)
        try JSONValueCodec.validateNumbers(json)
        e.writer.write(json)
    }
}

extension NumberParsing {
    /// Whether a JSON number literal has neither fraction nor exponent (`-12`, not `2.0` or `1e2`).
    static func isPlainInteger(_ literal: UnsafeRawBufferPointer) -> Bool {
        guard !literal.isEmpty else { return false }
        for byte in literal where byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            return false
        }
        return true
    }
}
