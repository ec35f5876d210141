import Foundation

// The Codable bridge, decoding side: a `Decoder` over an owned ``JSONValue``.
//
// Property types ModelMapper does not handle natively but that are `Decodable` are decoded with this
// decoder (see `DecodableFallback`). It converts scalars with the same table as ModelMapper's own codecs
// (`.strict` / `.lenient`), decodes `Date`, `URL`, `Data`, `Decimal` and `JSONValue` natively, hands
// `JSONMappable` types back to ModelMapper, and throws `MappingError` (never `DecodingError`) whose path is
// the coding path: keys joined by ".", array positions as "[n]" (`items[2].count`).

/// The key of an element of an unkeyed container; rendered as `[n]` in error paths.
struct JSONIndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// A plain string key (`super`, and keys made up by the bridge).
struct JSONStringKey: CodingKey {
    let stringValue: String
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
    var intValue: Int? { nil }
}

enum CodingPathRendering {
    /// `items[2].count`: keys by their string value joined by ".", unkeyed positions as `[n]` — ours and
    /// the standard library's (`Index 4`, as in `DecodingError.dataCorruptedError(in: unkeyedContainer)`).
    /// Other integer keys (`Int`-keyed dictionaries, `Int` coding keys) are object members: by name.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key as? JSONIndexKey {
                text += "[\(index.index)]"
            } else if let n = key.intValue, key.stringValue == "Index \(n)" {
                text += "[\(n)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }

    /// Puts `prefix` (a rendered coding path) in front of an error's path, which is relative to it.
    static func prepend(_ prefix: String, to error: inout MappingError) {
        guard !prefix.isEmpty else { return }
        if error.path.isEmpty {
            error.path = prefix
        } else if error.path.first == "[" {
            error.path = prefix + error.path
        } else {
            error.path = prefix + "." + error.path
        }
    }

    /// A Foundation coding error thrown by user code (`init(from:)`, `encode(to:)`) as a `MappingError`.
    static func mappingError(from error: any Error) -> MappingError? {
        if let decoding = error as? DecodingError {
            switch decoding {
            case .typeMismatch(_, let context):
                return MappingError(.typeMismatch, context.debugDescription, path: render(context.codingPath))
            case .valueNotFound(_, let context):
                return MappingError(.typeMismatch, context.debugDescription, path: render(context.codingPath))
            case .keyNotFound(let key, let context):
                return MappingError(.missingKey, context.debugDescription, path: render(context.codingPath + [key]))
            case .dataCorrupted(let context):
                return MappingError(.invalidValue, context.debugDescription, path: render(context.codingPath))
            @unknown default:
                return MappingError(.invalidValue, "\(decoding)")
            }
        }
        if let encoding = error as? EncodingError {
            switch encoding {
            case .invalidValue(_, let context):
                return MappingError(.invalidValue, context.debugDescription, path: render(context.codingPath))
            @unknown default:
                return MappingError(.invalidValue, "\(encoding)")
            }
        }
        return nil
    }
}

/// A `Decoder` reading a ``JSONValue`` with ModelMapper's conversion rules. It is also the single-value
/// container of its value.
struct JSONValueDecoder: Decoder, SingleValueDecodingContainer {
    /// The value being decoded.
    let value: JSONValue
    /// Conversion and date options.
    let options: DecodingOptions
    /// Keys from the root value to this one.
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// A decoder for a root value.
    init(value: JSONValue, options: DecodingOptions) {
        self.init(value: value, options: options, codingPath: [])
    }

    init(value: JSONValue, options: DecodingOptions, codingPath: [any CodingKey]) {
        self.value = value
        self.options = options
        self.codingPath = codingPath
    }

    /// A decoder for a member or element of this value.
    func child(_ value: JSONValue, key: any CodingKey) -> JSONValueDecoder {
        var path = codingPath
        path.append(key)
        return JSONValueDecoder(value: value, options: options, codingPath: path)
    }

    private var lenient: Bool { options.conversion == .lenient }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let object) = value else { throw mismatch(expected: "an object") }
        return KeyedDecodingContainer(JSONKeyedDecodingContainer<Key>(object: object, decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch(expected: "an array") }
        return JSONUnkeyedDecodingContainer(elements: elements, decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { value.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decodeBool() }
    func decode(_ type: String.Type) throws -> String { try decodeString() }
    func decode(_ type: Double.Type) throws -> Double { try decodeDouble() }
    func decode(_ type: Float.Type) throws -> Float { try decodeFloat() }
    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(T.self) }

    // MARK: Errors

    /// The rendered coding path.
    var path: String { CodingPathRendering.render(codingPath) }

    func error(_ kind: MappingError.Kind, _ message: String) -> MappingError {
        MappingError(kind, message, path: path)
    }

    func mismatch(expected: String) -> MappingError {
        error(.typeMismatch, "expected \(expected), found \(Self.describe(value))")
    }

    func invalid(_ message: String) -> MappingError {
        error(.invalidValue, message)
    }

    /// A value for messages: scalars with their (shortened) text, containers by type.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .number(let n): return "the number " + shortened(n.text)
        case .string(let s): return "the string \"" + shortened(s) + "\""
        case .bool(let b): return b ? "true" : "false"
        default: return value.typeDescription
        }
    }

    static func shortened(_ text: String) -> String {
        text.utf8.count <= 40 ? text : String(text.prefix(37)) + "..."
    }

    // MARK: Scalars

    /// `true`/`false`; lenient adds the numbers 0 and 1 and the strings true/false/yes/no/1/0 in any case.
    func decodeBool() throws -> Bool {
        switch value {
        case .bool(let b):
            return b
        case .number(let n) where lenient:
            switch n.int64Value {
            case 0: return false
            case 1: return true
            default: throw invalid("\(Self.describe(value)) is not a Boolean (0 or 1)")
            }
        case .string(let s) where lenient:
            var copy = s
            if let b = copy.withUTF8({ BoolCodec.word(UnsafeRawBufferPointer($0)) }) { return b }
            throw invalid("\(Self.describe(value)) is not a Boolean")
        default:
            throw mismatch(expected: "a Boolean")
        }
    }

    /// Strings; lenient adds numbers (their literal text exactly) and Booleans.
    func decodeString() throws -> String {
        switch value {
        case .string(let s): return s
        case .number(let n) where lenient: return n.text
        case .bool(let b) where lenient: return b ? "true" : "false"
        default: throw mismatch(expected: "a string")
        }
    }

    /// A number, or (lenient) a string holding exactly one JSON number, surrounding whitespace ignored.
    private func number(expected: String) throws -> JSONNumber {
        switch value {
        case .number(let n):
            return n
        case .string(let s) where lenient:
            if let n = Self.numericString(s) { return n }
            throw invalid("\(Self.describe(value)) is not a number")
        default:
            throw mismatch(expected: expected)
        }
    }

    static func numericString(_ s: String) -> JSONNumber? {
        var copy = s
        return copy.withUTF8 { utf8 -> JSONNumber? in
            guard let literal = NumberParsing.trimmedNumericLiteral(UnsafeRawBufferPointer(utf8)) else { return nil }
            return JSONNumber(text: String(decoding: literal, as: UTF8.self))
        }
    }

    /// Integers, exact and range-checked. Strict accepts only literals without fraction or exponent;
    /// lenient adds integral floats (`2.0`, `1e2`) and numeric strings.
    func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let n = try number(expected: "an integer")
        if !lenient, case .number = value, !n.withLiteralBytes({ NumberParsing.isPlainInteger($0) }) {
            throw invalid("\(Self.describe(value)) is not an integer")
        }
        if I.isSigned {
            if let v = n.int64Value, let exact = I(exactly: v) { return exact }
        } else {
            if let v = n.uint64Value, let exact = I(exactly: v) { return exact }
        }
        let isInteger = n.int64Value != nil || n.uint64Value != nil
            || n.withLiteralBytes({ NumberParsing.isPlainInteger($0) })
            || (n.doubleValue.map { $0.rounded(.towardZero) == $0 } ?? false)
        if isInteger {
            throw invalid("\(Self.shortened(n.text)) is out of range for \(I.self)")
        }
        throw invalid("\(Self.shortened(n.text)) is not an integer")
    }

    /// Numbers correctly rounded; overflow is an error. Lenient adds numeric strings.
    func decodeDouble() throws -> Double {
        let n = try number(expected: "a number")
        guard let d = n.doubleValue else { throw invalid("\(Self.shortened(n.text)) is out of range for Double") }
        return d
    }

    /// Numbers rounded once from the literal (not via Double); overflow is an error.
    func decodeFloat() throws -> Float {
        let n = try number(expected: "a number")
        guard let f = n.withLiteralBytes({ NumberParsing.float($0) }) else {
            throw invalid("\(Self.shortened(n.text)) is out of range for Float")
        }
        return f
    }

    /// Exact from the literal text.
    func decodeDecimal() throws -> Decimal {
        let n = try number(expected: "a number")
        guard let d = n.decimalValue else { throw invalid("\(Self.shortened(n.text)) does not fit Decimal exactly") }
        return d
    }

    // MARK: Foundation types

    /// Per `options.dateStrategy`, as ModelMapper's own `Date` properties.
    func decodeDate() throws -> Date {
        switch options.dateStrategy {
        case .default:
            switch value {
            case .string(let s):
                if let date = Self.parse(s, DateParsing.parseYYModel) { return date }
                throw invalid("\(Self.describe(value)) is not a date in a supported format")
            case .number:
                return try timestamp(scale: 1)
            default:
                throw mismatch(expected: "a date string or number")
            }
        case .iso8601:
            guard case .string(let s) = value else { throw mismatch(expected: "an ISO 8601 date string") }
            if let date = Self.parse(s, DateParsing.parseISO8601) { return date }
            throw invalid("\(Self.describe(value)) is not an ISO 8601 date-time")
        case .secondsSince1970:
            return try timestamp(scale: 1)
        case .millisecondsSince1970:
            return try timestamp(scale: 1000)
        case .formatted(let format):
            guard let pattern = DateFormatPattern(format) else {
                throw error(.unsupportedType, "unsupported date pattern \"\(format)\"")
            }
            guard case .string(let s) = value else { throw mismatch(expected: "a date string") }
            if let date = Self.parse(s, { DateParsing.parseFormatted($0, format: pattern) }) { return date }
            throw invalid("\(Self.describe(value)) does not match \"\(format)\"")
        case .custom(let transform):
            do {
                return try transform(value)
            } catch let mapping as MappingError {
                var mapping = mapping
                if mapping.path.isEmpty { mapping.path = path }
                throw mapping
            } catch {
                throw invalid("date conversion failed: \(error)")
            }
        }
    }

    private static func parse(_ s: String, _ parser: (UnsafeRawBufferPointer) -> Date?) -> Date? {
        var copy = s
        return copy.withUTF8 { parser(UnsafeRawBufferPointer($0)) }
    }

    /// A number of seconds (`scale` 1) or milliseconds (1000) since 1970; lenient adds numeric strings.
    private func timestamp(scale: Double) throws -> Date {
        let n = try number(expected: "a timestamp number")
        guard let seconds = n.doubleValue else { throw invalid("\(Self.shortened(n.text)) is out of range for a date") }
        return Date(timeIntervalSince1970: seconds / scale)
    }

    /// A string, trimmed; an empty string is an error (`decodeIfPresent` makes it nil).
    func decodeURL() throws -> URL {
        guard case .string(let s) = value else { throw mismatch(expected: "a URL string") }
        let text = s.trimmingWhitespace()
        if text.isEmpty { throw invalid("an empty string is not a URL") }
        guard let url = URL(string: text) else { throw invalid("\(Self.describe(value)) is not a URL") }
        return url
    }

    /// A base64 string.
    func decodeData() throws -> Data {
        guard case .string(let s) = value else { throw mismatch(expected: "a base64 string") }
        guard let data = Data(base64Encoded: s) else { throw invalid("\(Self.describe(value)) is not valid base64") }
        return data
    }

    // MARK: Any Decodable

    /// Special types natively, `JSONMappable` models through ModelMapper, everything else through its
    /// `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        if T.self == Date.self { return try decodeDate() as! T }
        if T.self == URL.self { return try decodeURL() as! T }
        if T.self == Data.self { return try decodeData() as! T }
        if T.self == Decimal.self { return try decodeDecimal() as! T }
        if let model = T.self as? any JSONMappable.Type {
            return try decodeModel(model) as! T
        }
        do {
            return try T(from: self)
        } catch let error as MappingError {
            throw error
        } catch {
            if let mapped = CodingPathRendering.mappingError(from: error) { throw mapped }
            throw invalid("\(T.self) could not be decoded: \(error)")
        }
    }

    /// Decodes a model with ModelMapper. The model's errors are thrown rather than reported (the whole
    /// Codable value fails, and the property holding it follows the caller's options), with this
    /// decoder's path in front and no input position (it would refer to another tape).
    private func decodeModel(_ type: any JSONMappable.Type) throws -> Any {
        var nested = options
        nested.invalidValueHandler = nil
        let decoder = ModelDecoder(options: nested)
        func open<M: JSONMappable>(_: M.Type) throws -> M {
            try decoder.decode(M.self, fromJSONObject: value)
        }
        do {
            return try open(type)
        } catch var error as MappingError {
            error.tokenIndex = nil
            error.line = nil
            error.column = nil
            error.offset = nil
            CodingPathRendering.prepend(path, to: &error)
            throw error
        }
    }
}

// MARK: - Keyed

struct JSONKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONObject
    let decoder: JSONValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The object's keys that `Key` accepts, in object order.
    var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

    /// True for `null` and for a missing key.
    func decodeNil(forKey key: Key) throws -> Bool {
        object[key.stringValue]?.isNull ?? true
    }

    private func member(_ key: Key) throws -> JSONValueDecoder {
        guard let value = object[key.stringValue] else {
            var path = codingPath
            path.append(key)
            throw MappingError(.missingKey, "key \"\(key.stringValue)\" is missing",
                               path: CodingPathRendering.render(path))
        }
        return decoder.child(value, key: key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try member(key).decodeBool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try member(key).decodeString() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try member(key).decodeDouble() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try member(key).decodeFloat() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try member(key).decodeInteger(Int.self) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try member(key).decodeInteger(Int8.self) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try member(key).decodeInteger(Int16.self) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try member(key).decodeInteger(Int32.self) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try member(key).decodeInteger(Int64.self) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try member(key).decodeInteger(UInt.self) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try member(key).decodeInteger(UInt8.self) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try member(key).decodeInteger(UInt16.self) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try member(key).decodeInteger(UInt32.self) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try member(key).decodeInteger(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try member(key).decodeValue(T.self) }

    /// Missing and `null` are nil; so is an empty (or blank) string for `URL?`, as for ModelMapper's own
    /// `URL?` properties.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let value = object[key.stringValue], !value.isNull else { return nil }
        if T.self == URL.self, case .string(let s) = value, s.trimmingWhitespace().isEmpty { return nil }
        return try decoder.child(value, key: key).decodeValue(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try member(key).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try member(key).unkeyedContainer()
    }

    /// A decoder for the member `super` (`null` when absent).
    func superDecoder() throws -> any Decoder {
        decoder.child(object["super"] ?? .null, key: JSONStringKey("super"))
    }

    /// A decoder for the member `key` (`null` when absent).
    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(object[key.stringValue] ?? .null, key: key)
    }
}

// MARK: - Unkeyed

struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let decoder: JSONValueDecoder
    private(set) var currentIndex = 0

    init(elements: [JSONValue], decoder: JSONValueDecoder) {
        self.elements = elements
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private func current() throws -> JSONValueDecoder {
        guard !isAtEnd else {
            var path = codingPath
            path.append(JSONIndexKey(currentIndex))
            throw MappingError(.missingKey, "the array has only \(elements.count) elements",
                               path: CodingPathRendering.render(path))
        }
        return decoder.child(elements[currentIndex], key: JSONIndexKey(currentIndex))
    }

    /// Decodes the current element and moves past it only on success.
    private mutating func next<R>(_ body: (JSONValueDecoder) throws -> R) throws -> R {
        let result = try body(try current())
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        let element = try current()
        if element.value.isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.decodeBool() } }
    mutating func decode(_ type: String.Type) throws -> String { try next { try $0.decodeString() } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.decodeDouble() } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next { try $0.decodeFloat() } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.decodeInteger(Int.self) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.decodeInteger(Int8.self) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.decodeInteger(Int16.self) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.decodeInteger(Int32.self) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.decodeInteger(Int64.self) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.decodeInteger(UInt.self) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.decodeInteger(UInt8.self) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.decodeInteger(UInt16.self) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.decodeInteger(UInt32.self) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.decodeInteger(UInt64.self) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next { try $0.decodeValue(T.self) } }

    /// At the end, `null`, and (for `URL?`) an empty string are nil.
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if isAtEnd { return nil }
        if try decodeNil() { return nil }
        if T.self == URL.self, case .string(let s) = elements[currentIndex], s.trimmingWhitespace().isEmpty {
            currentIndex += 1
            return nil
        }
        return try decode(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next { try $0.container(keyedBy: NestedKey.self) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next { $0 }
    }
}
