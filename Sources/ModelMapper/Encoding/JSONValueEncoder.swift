import Foundation

// The Codable bridge, encoding side: an `Encoder` that builds a ``JSONValue``.
//
// Containers write into reference-type nodes (`JSONValueNode`), so nested containers and super encoders
// can be filled in any order; the tree becomes a `JSONValue` at the end. Objects keep the order in which
// keys were first encoded; encoding a key again replaces its value in place.

/// Encodes `Encodable` values into a ``JSONValue`` the way ModelMapper writes its own properties.
struct JSONValueEncoder {
    /// Date strategy, and `.writesNulls` for nil optionals encoded with `encodeIfPresent`.
    let options: EncodingOptions

    init(options: EncodingOptions = []) {
        self.options = options
    }

    /// The value as JSON.
    ///
    /// - Throws: ``MappingError`` with the coding path (`items[2].score`), e.g. `.invalidValue` for NaN.
    func encode(_ value: any Encodable) throws -> JSONValue {
        func open<T: Encodable>(_ value: T) throws -> JSONValue {
            let root = JSONValueNode()
            try JSONValueEncoderImpl.encode(value, into: root, options: options, codingPath: [])
            return root.finish()
        }
        return try open(value)
    }
}

/// A JSON value under construction.
final class JSONValueNode {
    enum Shape { case unset, scalar, array, object }

    private(set) var shape: Shape = .unset
    private var scalar: JSONValue = .null
    private var elements: [JSONValueNode] = []
    private var keys: [String] = []
    private var members: [String: JSONValueNode] = [:]

    init() {}

    init(_ value: JSONValue) {
        shape = .scalar
        scalar = value
    }

    func set(_ value: JSONValue) {
        clear()
        shape = .scalar
        scalar = value
    }

    /// Makes this node an object (kept as is when it already is one, so several keyed containers on
    /// one encoder write into the same object).
    func becomeObject() {
        if shape != .object { clear(); shape = .object }
    }

    /// Makes this node an array (kept as is when it already is one).
    func becomeArray() {
        if shape != .array { clear(); shape = .array }
    }

    private func clear() {
        scalar = .null
        elements = []
        keys = []
        members = [:]
    }

    /// Sets a member of an object node; an existing key keeps its position.
    func set(_ node: JSONValueNode, forKey key: String) {
        if members.updateValue(node, forKey: key) == nil { keys.append(key) }
    }

    /// Appends an element to an array node.
    func append(_ node: JSONValueNode) {
        elements.append(node)
    }

    var count: Int { shape == .array ? elements.count : keys.count }

    /// The finished value. A node nothing was written to is an empty object (as with `JSONEncoder`).
    func finish() -> JSONValue {
        switch shape {
        case .unset:
            return .object(JSONObject())
        case .scalar:
            return scalar
        case .array:
            return .array(elements.map { $0.finish() })
        case .object:
            var object = JSONObject()
            object.reserveCapacity(keys.count)
            for key in keys { object.appendUnchecked(key, members[key]!.finish()) }
            return .object(object)
        }
    }
}

/// The `Encoder`: writes whatever its value encodes into `node`.
final class JSONValueEncoderImpl: Encoder {
    let options: EncodingOptions
    let codingPath: [any CodingKey]
    let node: JSONValueNode
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(options: EncodingOptions, codingPath: [any CodingKey], node: JSONValueNode) {
        self.options = options
        self.codingPath = codingPath
        self.node = node
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(JSONKeyedEncodingContainer<Key>(encoder: self, node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return JSONUnkeyedEncodingContainer(encoder: self, node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONSingleValueEncodingContainer(encoder: self)
    }

    // MARK: Values

    /// Encodes `value` into `node`: special types natively, `JSONMappable` models through ModelMapper,
    /// everything else through its `encode(to:)`.
    static func encode<T: Encodable>(_ value: T, into node: JSONValueNode, options: EncodingOptions,
                                     codingPath: [any CodingKey]) throws {
        if let json = try special(value, options: options, codingPath: codingPath) {
            node.set(json)
            return
        }
        do {
            try value.encode(to: JSONValueEncoderImpl(options: options, codingPath: codingPath, node: node))
        } catch let error as MappingError {
            throw error
        } catch {
            if let mapped = CodingPathRendering.mappingError(from: error) { throw mapped }
            throw MappingError(.invalidValue, "\(T.self) could not be encoded: \(error)",
                               path: CodingPathRendering.render(codingPath))
        }
    }

    /// A child value at `key` of this encoder's path, as a new node.
    func node<T: Encodable>(for value: T, at key: any CodingKey) throws -> JSONValueNode {
        let child = JSONValueNode()
        var path = codingPath
        path.append(key)
        try Self.encode(value, into: child, options: options, codingPath: path)
        return child
    }

    private static func special<T: Encodable>(_ value: T, options: EncodingOptions,
                                              codingPath: [any CodingKey]) throws -> JSONValue? {
        switch value {
        case let json as JSONValue:
            return json
        case let date as Date:
            return try encodeDate(date, options: options, codingPath: codingPath)
        case let url as URL:
            return .string(url.absoluteString)
        case let data as Data:
            return .string(data.base64EncodedString())
        case let decimal as Decimal:
            guard decimal.isFinite else {
                throw MappingError(.invalidValue, "\(decimal) cannot be written as JSON",
                                   path: CodingPathRendering.render(codingPath))
            }
            return .number(JSONNumber(decimal))
        case let model as any JSONMappable:
            do {
                return try model.jsonValue(options: options)
            } catch var error as MappingError {
                error.tokenIndex = nil
                CodingPathRendering.prepend(CodingPathRendering.render(codingPath), to: &error)
                throw error
            }
        default:
            return nil
        }
    }

    static func encodeDate(_ date: Date, options: EncodingOptions, codingPath: [any CodingKey]) throws -> JSONValue {
        switch options.dateStrategy {
        case .secondsSince1970:
            return try number(date.timeIntervalSince1970, codingPath: codingPath)
        case .millisecondsSince1970:
            return try number((date.timeIntervalSince1970 * 1000).rounded(), codingPath: codingPath)
        case .formatted(let format):
            guard let pattern = DateFormatPattern(format) else {
                throw MappingError(.unsupportedType, "unsupported date pattern \"\(format)\"",
                                   path: CodingPathRendering.render(codingPath))
            }
            return .string(DateFormatting.string(date, pattern: pattern))
        case .default, .iso8601, .custom:
            return .string(DateFormatting.iso8601String(date))
        }
    }

    /// A finite `Double` in its shortest round-trip form; NaN and infinity are errors.
    static func number(_ value: Double, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw MappingError(.invalidValue, "\(value) cannot be written as JSON", path: CodingPathRendering.render(codingPath))
        }
        return .number(JSONNumber(value))
    }

    /// A finite `Float` in its own shortest form (`0.1` stays `0.1`, not `0.10000000149011612`).
    static func number(_ value: Float, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw MappingError(.invalidValue, "\(value) cannot be written as JSON", path: CodingPathRendering.render(codingPath))
        }
        return .number(JSONNumber(text: value.description))
    }

    static func number<I: FixedWidthInteger>(_ value: I) -> JSONValue {
        .number(JSONNumber(text: String(value)))
    }
}

// MARK: - Keyed

struct JSONKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONValueEncoderImpl
    let node: JSONValueNode
    let codingPath: [any CodingKey]

    private var writesNulls: Bool { encoder.options.contains(.writesNulls) }

    private func path(_ key: Key) -> [any CodingKey] {
        var path = codingPath
        path.append(key)
        return path
    }

    private func put(_ value: JSONValue, _ key: Key) {
        node.set(JSONValueNode(value), forKey: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        put(try JSONValueEncoderImpl.number(value, codingPath: path(key)), key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        put(try JSONValueEncoderImpl.number(value, codingPath: path(key)), key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(JSONValueEncoderImpl.number(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(JSONValueEncoderImpl.number(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(JSONValueEncoderImpl.number(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(JSONValueEncoderImpl.number(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(JSONValueEncoderImpl.number(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(JSONValueEncoderImpl.number(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(JSONValueEncoderImpl.number(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(JSONValueEncoderImpl.number(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(JSONValueEncoderImpl.number(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(JSONValueEncoderImpl.number(value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        node.set(try encoder.node(for: value, at: key), forKey: key.stringValue)
    }

    // nil is omitted, or written as null with `.writesNulls` (as for ModelMapper's own properties).
    private mutating func absent(_ key: Key) throws {
        if writesNulls { try encodeNil(forKey: key) }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = JSONValueNode()
        child.becomeObject()
        node.set(child, forKey: key.stringValue)
        return KeyedEncodingContainer(JSONKeyedEncodingContainer<NestedKey>(encoder: encoder, node: child, codingPath: path(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = JSONValueNode()
        child.becomeArray()
        node.set(child, forKey: key.stringValue)
        return JSONUnkeyedEncodingContainer(encoder: encoder, node: child, codingPath: path(key))
    }

    /// An encoder writing the member `super`.
    mutating func superEncoder() -> any Encoder {
        let child = JSONValueNode()
        node.set(child, forKey: "super")
        var path = codingPath
        path.append(JSONStringKey("super"))
        return JSONValueEncoderImpl(options: encoder.options, codingPath: path, node: child)
    }

    /// An encoder writing the member `key`.
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = JSONValueNode()
        node.set(child, forKey: key.stringValue)
        return JSONValueEncoderImpl(options: encoder.options, codingPath: path(key), node: child)
    }
}

// MARK: - Unkeyed

struct JSONUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: JSONValueEncoderImpl
    let node: JSONValueNode
    let codingPath: [any CodingKey]

    var count: Int { node.count }

    private var nextPath: [any CodingKey] {
        var path = codingPath
        path.append(JSONIndexKey(node.count))
        return path
    }

    private func put(_ value: JSONValue) {
        node.append(JSONValueNode(value))
    }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try JSONValueEncoderImpl.number(value, codingPath: nextPath)) }
    mutating func encode(_ value: Float) throws { put(try JSONValueEncoderImpl.number(value, codingPath: nextPath)) }
    mutating func encode(_ value: Int) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: Int8) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: Int16) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: Int32) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: Int64) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: UInt) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: UInt8) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: UInt16) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: UInt32) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: UInt64) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try encoder.node(for: value, at: JSONIndexKey(node.count)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = nextPath
        let child = JSONValueNode()
        child.becomeObject()
        node.append(child)
        return KeyedEncodingContainer(JSONKeyedEncodingContainer<NestedKey>(encoder: encoder, node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = nextPath
        let child = JSONValueNode()
        child.becomeArray()
        node.append(child)
        return JSONUnkeyedEncodingContainer(encoder: encoder, node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = nextPath
        let child = JSONValueNode()
        node.append(child)
        return JSONValueEncoderImpl(options: encoder.options, codingPath: path, node: child)
    }
}

// MARK: - Single value

struct JSONSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: JSONValueEncoderImpl

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func put(_ value: JSONValue) { encoder.node.set(value) }

    mutating func encodeNil() throws { put(.null) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(try JSONValueEncoderImpl.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { put(try JSONValueEncoderImpl.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: Int8) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: Int16) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: Int32) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: Int64) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: UInt) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: UInt8) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: UInt16) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: UInt32) throws { put(JSONValueEncoderImpl.number(value)) }
    mutating func encode(_ value: UInt64) throws { put(JSONValueEncoderImpl.number(value)) }

    /// Encodes into this encoder's own node, with the same path (a wrapper's value takes its place).
    mutating func encode<T: Encodable>(_ value: T) throws {
        try JSONValueEncoderImpl.encode(value, into: encoder.node, options: encoder.options, codingPath: codingPath)
    }
}
