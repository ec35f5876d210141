// Unsafe code: `unsafeBitCast(value, to: X.self)` only after `T.self == X.self` was checked (a same-type
// cast, no dynamic cast), and one rebased buffer inside a string's own UTF-8.
import Foundation

// The Codable encoder's tree: `encode(to:)` fills a light tree of nodes (scalars inline, one class per
// array or object — the Codable API lets a value write to a container after its nested containers, so
// output cannot be streamed in general); the tree is then written with `JSONWriter` in one pass, which
// also sorts keys and indents. Values are first encoded by the streaming encoder (StreamingEncoder.swift),
// which writes straight into the output and falls back to this tree when sorted keys are asked for or
// `encode(to:)` uses its containers out of order. This file also holds the state both share. Two modes,
// as the decoder:
//
// - `.foundation` (`ModelEncoder().encode(value)` for any Encodable): JSONEncoder's behaviour and
//   strategies, `EncodingError` for invalid values.
// - `.mapping` (`Encodable` fields of `JSONMappable` models): the model's `EncodingOptions` (date
//   strategy, nulls), errors as `MappingError` with the property path.

/// One encoded value.
enum EncodedNode {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    /// Number text written as is (Decimal).
    case number(String)
    case array(EncodedArray)
    case object(EncodedObject)
    /// A value written by another encoder (`superEncoder`), resolved when writing.
    case encoder(TapeEncoder)
    /// A value written by a codec (`JSONMappable` models, mapping-mode dates and data).
    case custom(EncodedCustom)
}

extension EncodedNode {
    /// What an `EncodingError` shows of an encoded value: what `JSONSerialization` would give for it
    /// (`NSNull`, `Bool`, a number, `String`, `[Any]`, `[String: Any]`), never this internal type. A value a
    /// mapped model's codec writes when the tree is written is shown by its kind.
    static func errorValue(_ node: EncodedNode?) -> Any {
        switch node {
        case nil, .null?: return NSNull()
        case .bool(let v)?: return v
        case .int(let v)?: return v
        case .uint(let v)?: return v
        case .double(let v)?: return v
        case .float(let v)?: return v
        case .string(let v)?, .number(let v)?: return v
        case .array(let array)?: return array.values.map { errorValue($0) }
        case .object(let object)?:
            return Dictionary(object.members.map { ($0.key, errorValue($0.value)) }, uniquingKeysWith: { _, last in last })
        case .encoder(let encoder)?: return errorValue(encoder.node)
        case .custom?: return "a value written by a mapped model's codec"
        }
    }
}

final class EncodedArray {
    @exclusivity(unchecked) var values: [EncodedNode] = []
}

/// Members in insertion order; encoding a key again replaces its value in place (found by comparing
/// UTF-8 lengths first, so distinct keys rarely cost a string comparison).
final class EncodedObject {
    struct Member {
        var key: String
        var length: Int
        var value: EncodedNode
    }

    @exclusivity(unchecked) var members: [Member] = []
    /// Key -> member index, once the object is large (dictionaries): lookups stay O(1).
    @exclusivity(unchecked) var index: [String: Int]? = nil

    init() {
        members.reserveCapacity(16)
    }

    @inline(__always)
    func set(_ key: String, _ value: EncodedNode) {
        if members.count >= 16 { return setIndexed(key, value) }
        let length = key.utf8.count
        for i in members.indices where members[i].length == length && members[i].key == key {
            members[i].value = value
            return
        }
        members.append(Member(key: key, length: length, value: value))
    }

    /// The value of member `key`, if there is one.
    func value(_ key: String) -> EncodedNode? {
        if let index { return index[key].map { members[$0].value } }
        for member in members where member.key == key { return member.value }
        return nil
    }

    private func setIndexed(_ key: String, _ value: EncodedNode) {
        if index == nil {
            var built = [String: Int](minimumCapacity: members.count * 2)
            for (i, member) in members.enumerated() { built[member.key] = i }
            index = built
        }
        if let i = index![key] {
            members[i].value = value
        } else {
            index![key] = members.count
            members.append(Member(key: key, length: 0, value: value))
        }
    }
}

final class EncodedCustom {
    let path: [any CodingKey]
    let write: (inout EncodeContext) throws(MappingError) -> Void
    init(path: [any CodingKey], write: @escaping (inout EncodeContext) throws(MappingError) -> Void) {
        self.path = path
        self.write = write
    }
}

/// The options of the Foundation mode (`ModelEncoder`'s JSONEncoder-style properties).
struct FoundationEncodingStrategies {
    var keys: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    var dates: JSONEncoder.DateEncodingStrategy = .deferredToDate
    var data: JSONEncoder.DataEncodingStrategy = .base64
    var nonConformingFloats: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
    var userInfo: [CodingUserInfoKey: Any] = [:]
}

final class TapeEncodingState {
    /// Where `JSONMappable` values inside the Codable value find their codecs.
    let models: any MappedModelCodecs
    let isFoundation: Bool
    let strategies: FoundationEncodingStrategies
    /// Whether `JSONMappable` values are written by their mapping.
    let usesMapping: Bool
    /// Mapping mode: `encodeIfPresent(nil)` writes null (`EncodingOptions.writesNulls`).
    let writesNulls: Bool
    let convertsKeys: Bool
    lazy var dateCodec = DateCodec()
    lazy var dataCodec = DataCodec()

    // The streaming encoder's state (StreamingEncoder.swift).

    /// The output.
    @exclusivity(unchecked) var out: EncodeContext
    /// The open objects, arrays and value slots below the top one, outermost first.
    @exclusivity(unchecked) var frames: [StreamFrame] = []
    /// The innermost open frame (when `openFrames > 0`).
    @exclusivity(unchecked) var topFrame = StreamFrame(id: 0, kind: .filled, lazy: false, hasKey: false)
    @exclusivity(unchecked) var openFrames = 0
    /// The coding keys of the frames that have one, outermost first.
    @exclusivity(unchecked) var pathKeys: [any CodingKey] = []
    /// The id of the top frame (0: none, -1: poisoned).
    @exclusivity(unchecked) var topID = 0
    @exclusivity(unchecked) var nextFrameID = 0
    /// The stream cannot express what `encode(to:)` did: the output is to be made again with the tree.
    @exclusivity(unchecked) var poisoned = false
    /// The root value wrote nothing.
    var rootWasEmpty = false
    /// Member names written per frame id, for frames whose keys are not all checked by their tag.
    @exclusivity(unchecked) var frameNames: [Int: Set<String>] = [:]
    /// Key names per `CodingKey` type.
    @exclusivity(unchecked) var keyTables: [(ObjectIdentifier, StreamKeyNames)] = []
    /// How values of a type are written, by type (direct-mapped).
    @exclusivity(unchecked) var kindCache = [(ObjectIdentifier?, EncodingKind)](repeating: (nil, .other), count: 32)
    /// The key strategy is `.custom`: names depend on the coding path, no key is cached.
    let customKeys: Bool
    let escapesSlashes: Bool
    /// `.prettyPrinted` (keys are written by the writer, which indents).
    let pretty: Bool

    /// The first call sequence JSONEncoder refuses (with a precondition) that `encode(to:)` made: a
    /// container asked for where a value of another kind was encoded. The containers' methods cannot
    /// throw, so the entry point throws it (`throwRefusal`) instead of writing only the last value.
    @exclusivity(unchecked) var refusal: EncodingError?

    /// Records a refused call sequence (the first one is thrown), with the value already encoded there.
    func refuse(_ existing: EncodedNode?, _ path: [any CodingKey], _ message: String) {
        if refusal == nil { refusal = .invalidValue(EncodedNode.errorValue(existing), .init(codingPath: path, debugDescription: message)) }
    }

    /// Throws the refusal recorded while encoding, if any: call before writing the tree.
    func throwRefusal() throws {
        if let refusal { throw refusal }
    }

    init(mode: TapeCodingMode, options: EncodingOptions, models: any MappedModelCodecs,
         strategies: FoundationEncodingStrategies = FoundationEncodingStrategies(), usesMapping: Bool = true) {
        self.models = models
        isFoundation = mode == .foundation
        self.strategies = strategies
        self.usesMapping = usesMapping
        writesNulls = mode == .mapping && options.writesNulls
        if case .useDefaultKeys = strategies.keys { convertsKeys = false } else { convertsKeys = mode == .foundation }
        if case .custom = strategies.keys { customKeys = convertsKeys } else { customKeys = false }
        escapesSlashes = options.escapesSlashes
        pretty = options.prettyPrinted
        out = EncodeContext(options: options, capacity: 0)
    }

    func key(_ key: some CodingKey, _ codingPath: [any CodingKey], raw: Bool) -> String {
        guard convertsKeys && !raw else { return key.stringValue }
        switch strategies.keys {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return FoundationKeys.toSnakeCase(key.stringValue)
        case .custom(let transform): return transform(codingPath + [key]).stringValue
        @unknown default: return key.stringValue
        }
    }

    // MARK: Scalars

    func invalidFloat(_ value: Any, _ path: [any CodingKey]) -> EncodingError {
        .invalidValue(value, .init(codingPath: path, debugDescription: "Unable to encode \(type(of: value)).\(value) directly in JSON."))
    }

    @inline(__always)
    func double(_ value: Double, _ path: @autoclosure () -> [any CodingKey]) throws -> EncodedNode {
        if value.isFinite { return .double(value) }
        return try nonConforming(value, Double(value), path())
    }

    @inline(__always)
    func float(_ value: Float, _ path: @autoclosure () -> [any CodingKey]) throws -> EncodedNode {
        if value.isFinite { return .float(value) }
        return try nonConforming(value, Double(value), path())
    }

    private func nonConforming(_ value: Any, _ d: Double, _ path: [any CodingKey]) throws -> EncodedNode {
        if isFoundation, let text = NonConformingFloats.text(of: d, strategies.nonConformingFloats) { return .string(text) }
        throw invalidFloat(value, path)
    }

    // MARK: Any Encodable

    /// Special types natively, `JSONMappable` models by their mapping, everything else by `encode(to:)`.
    func box<T: Encodable>(_ value: T, _ path: @autoclosure () -> [any CodingKey]) throws -> EncodedNode {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .int(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Double.self { return try double(unsafeBitCast(value, to: Double.self), path()) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Date.self { return try date(unsafeBitCast(value, to: Date.self), path()) }
        if T.self == Data.self { return try data(value as! Data, path()) }
        if T.self == URL.self { return .string((value as! URL).absoluteString) }
        if T.self == TimeZone.self && !isFoundation { return .string((value as! TimeZone).identifier) }   // TimeZoneCodec's form
        if T.self == Decimal.self {
            let v = value as! Decimal
            guard v.isFinite else { throw EncodingError.invalidValue(v, .init(codingPath: path(), debugDescription: "\(v) cannot be written as JSON")) }
            return .number(v.description)
        }
        if T.self == JSONValue.self { return try node(value as! JSONValue, path()) }
        if usesMapping, let model = value as? any JSONMappable { return try modelNode(model, path()) }
        let encoder = TapeEncoder(state: self, codingPath: path(),
                                  rawKeys: isFoundation && T.self is any StringKeyedDictionaryMarker.Type)
        try value.encode(to: encoder)
        return encoder.node ?? .object(EncodedObject())
    }

    /// A model written by its codec when the tree is written.
    func modelNode(_ model: any JSONMappable, _ path: [any CodingKey]) throws -> EncodedNode {
        func open<M: JSONMappable>(_ model: M) throws -> EncodedNode {
            let codec: ValueCodec<M>
            do { codec = try models.mappedCodec(for: M.self) } catch { throw encodingError(error, model, path) }
            return .custom(EncodedCustom(path: path) { (e: inout EncodeContext) throws(MappingError) in
                guard codec.reachesContext else { return try codec.encode(model, &e) }
                e.path = CodingPathRendering.components(path)
                defer { e.path = nil }
                try codec.encode(model, &e)
            })
        }
        return try open(model)
    }

    func encodingError(_ error: MappingError, _ value: Any, _ path: [any CodingKey]) -> EncodingError {
        .invalidValue(value, .init(codingPath: path + CodingPathRendering.keys(error.path), debugDescription: error.message,
                                   underlyingError: error))
    }

    func node(_ value: JSONValue, _ path: [any CodingKey]) throws -> EncodedNode {
        switch value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let n):
            guard n.isValidJSON else {
                throw EncodingError.invalidValue(n.text, .init(codingPath: path, debugDescription: "\(n.text) is not a valid JSON number"))
            }
            return .number(n.text)
        case .string(let s): return .string(s)
        case .array(let elements):
            let array = EncodedArray()
            for (i, element) in elements.enumerated() { array.values.append(try node(element, path + [JSONIndexKey(i)])) }
            return .array(array)
        case .object(let members):
            let object = EncodedObject()
            for (k, v) in members { object.set(k, try node(v, path + [JSONStringKey(k)])) }
            return .object(object)
        }
    }

    func date(_ date: Date, _ path: [any CodingKey]) throws -> EncodedNode {
        guard isFoundation else {
            let codec = dateCodec
            return .custom(EncodedCustom(path: path) { (e: inout EncodeContext) throws(MappingError) in try codec.encode(date, &e) })
        }
        return try node(DateStrategies.output(date, strategies.dates), of: date, path)
    }

    func data(_ data: Data, _ path: [any CodingKey]) throws -> EncodedNode {
        guard isFoundation else {
            let codec = dataCodec
            return .custom(EncodedCustom(path: path) { (e: inout EncodeContext) throws(MappingError) in try codec.encode(data, &e) })
        }
        return try node(DataStrategies.output(data, strategies.data), of: data, path)
    }

    /// What a strategy's output is in the tree.
    private func node(_ output: StrategyOutput, of value: some Encodable, _ path: [any CodingKey]) throws -> EncodedNode {
        switch output {
        case .number(let d): return try double(d, path)
        case .string(let s): return .string(s)
        case .encoder(let body): return try byEncoder(path, body)
        case .deferred: return try byEncoder(path) { try value.encode(to: $0) }
        case .unsupported(let message): throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: message))
        }
    }

    private func byEncoder(_ path: [any CodingKey], _ body: (any Encoder) throws -> Void) throws -> EncodedNode {
        let encoder = TapeEncoder(state: self, codingPath: path)
        try body(encoder)
        return encoder.node ?? .object(EncodedObject())
    }

    // MARK: Writing

    func write(_ node: EncodedNode, _ e: inout EncodeContext) throws {
        switch node {
        case .null: e.writer.null()
        case .bool(let b): e.writer.bool(b)
        case .int(let i): e.writer.integer(i)
        case .uint(let u): e.writer.integer(u)
        case .double(let d):
            Self.writeNumber(isFoundation ? d.description : NumberFormatting.shortest(d), dropsPointZero: isFoundation, &e)
        case .float(let f):
            Self.writeNumber(isFoundation ? f.description : NumberFormatting.shortest(f), dropsPointZero: isFoundation, &e)
        case .string(let s): e.writer.string(s)
        case .number(let text): e.writer.raw(text)
        case .array(let array):
            e.writer.beginArray()
            for (i, element) in array.values.enumerated() {
                e.writer.element(first: i == 0)
                try write(element, &e)
            }
            e.writer.endArray(empty: array.values.isEmpty)
        case .object(let object):
            e.writer.beginObject()
            let members = object.members
            if e.sortsKeys && members.count > 1 {
                let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                for (n, member) in sorted.enumerated() {
                    e.writer.key(member.key, first: n == 0)
                    try write(member.value, &e)
                }
            } else {
                for i in members.indices {
                    e.writer.key(members[i].key, first: i == 0)
                    try write(members[i].value, &e)
                }
            }
            e.writer.endObject(empty: members.isEmpty)
        case .encoder(let encoder):
            try write(encoder.node ?? .object(EncodedObject()), &e)
        case .custom(let custom):
            do {
                try custom.write(&e)
            } catch {
                if isFoundation { throw encodingError(error, custom, custom.path) }
                var error = error
                CodingPathRendering.prepend(CodingPathRendering.render(custom.path), to: &error)
                throw error
            }
        }
    }

    /// Writes number text; JSONEncoder's form drops a trailing `.0` (`2.0` is written `2`).
    @inline(__always)
    static func writeNumber(_ text: String, dropsPointZero: Bool, _ e: inout EncodeContext) {
        var text = text
        text.withUTF8 { utf8 in
            var n = utf8.count
            if dropsPointZero && n > 2 && utf8[n - 2] == UInt8(ascii: ".") && utf8[n - 1] == UInt8(ascii: "0") { n -= 2 }
            e.writer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[0..<n]))
        }
    }
}

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

struct TapeKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TapeEncoder
    let object: EncodedObject

    var codingPath: [any CodingKey] { encoder.codingPath }
    private var state: TapeEncodingState { encoder.state }

    @inline(__always)
    private func name(_ key: Key) -> String {
        state.convertsKeys ? state.key(key, encoder.codingPath, raw: encoder.rawKeys) : key.stringValue
    }

    @inline(__always)
    private func path(_ key: Key) -> [any CodingKey] { encoder.childPath(key) }

    mutating func encodeNil(forKey key: Key) throws { object.set(name(key), .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { object.set(name(key), .bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { object.set(name(key), .string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { object.set(name(key), try state.double(value, path(key))) }
    mutating func encode(_ value: Float, forKey key: Key) throws { object.set(name(key), try state.float(value, path(key))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { object.set(name(key), .int(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { object.set(name(key), .int(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { object.set(name(key), .int(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { object.set(name(key), .int(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { object.set(name(key), .int(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { object.set(name(key), .uint(UInt64(value))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { object.set(name(key), .uint(UInt64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { object.set(name(key), .uint(UInt64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { object.set(name(key), .uint(UInt64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { object.set(name(key), .uint(value)) }
    mutating func encode(_ value: Int128, forKey key: Key) throws { object.set(name(key), .number(String(value))) }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { object.set(name(key), .number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.set(name(key), try state.box(value, path(key)))
    }

    // encodeIfPresent: nil is omitted, or (mapping mode with `writesNulls`) written as null.

    @inline(__always)
    private mutating func absent(_ key: Key) {
        if state.writesNulls { object.set(name(key), .null) }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }

    /// As JSONEncoder: a key that holds an object already (a nested container's, or an encoded value's)
    /// gets the same object, so both writers' members are kept; a key holding another kind of value is
    /// refused (JSONEncoder's precondition; thrown by the entry point).
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let name = name(key)
        let child = TapeEncoder(state: state, codingPath: path(key))
        let nested: EncodedObject
        switch object.value(name).map(Self.resolved) {
        case .object(let existing)?:
            nested = existing
        case nil:
            nested = EncodedObject()
            object.set(name, .object(nested))
        case let other?:
            state.refuse(other, child.codingPath, "Attempt to re-encode into nested KeyedEncodingContainer<\(Key.self)> for key \"\(name)\" is invalid: non-keyed container already encoded for this key")
            nested = EncodedObject()
        }
        child.node = .object(nested)
        return KeyedEncodingContainer(TapeKeyedEncodingContainer<NestedKey>(encoder: child, object: nested))
    }

    /// As `nestedContainer(keyedBy:forKey:)`, for arrays.
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let name = name(key)
        let child = TapeEncoder(state: state, codingPath: path(key))
        let nested: EncodedArray
        switch object.value(name).map(Self.resolved) {
        case .array(let existing)?:
            nested = existing
        case nil:
            nested = EncodedArray()
            object.set(name, .array(nested))
        case let other?:
            state.refuse(other, child.codingPath, "Attempt to re-encode into nested UnkeyedEncodingContainer for key \"\(name)\" is invalid: keyed container/single value already encoded for this key")
            nested = EncodedArray()
        }
        child.node = .array(nested)
        return TapeUnkeyedEncodingContainer(encoder: child, array: nested)
    }

    /// A member's value, seen through a super encoder that wrote it.
    private static func resolved(_ node: EncodedNode) -> EncodedNode {
        if case .encoder(let encoder) = node, let written = encoder.node { return resolved(written) }
        return node
    }

    mutating func superEncoder() -> any Encoder {
        let key = JSONStringKey("super")
        let child = TapeEncoder(state: state, codingPath: encoder.childPath(key))
        object.set("super", .encoder(child))
        return child
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = TapeEncoder(state: state, codingPath: path(key))
        object.set(name(key), .encoder(child))
        return child
    }
}

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
