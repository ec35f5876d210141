// Unsafe code: `unsafeBitCast(value, to: X.self)` only after `T.self == X.self` was checked (a same-type
// cast, no dynamic cast), and one rebased buffer inside a string's own UTF-8.
import Foundation

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
        if usesMapping, let model = value as? any MappedJSONModel { return try modelNode(model, path()) }
        let encoder = TapeEncoder(state: self, codingPath: path(),
                                  rawKeys: isFoundation && T.self is any StringKeyedDictionaryMarker.Type)
        try value.encode(to: encoder)
        return encoder.node ?? .object(EncodedObject())
    }

    /// A model written by its codec when the tree is written.
    func modelNode(_ model: any MappedJSONModel, _ path: [any CodingKey]) throws -> EncodedNode {
        func open<M: MappedJSONModel>(_ model: M) throws -> EncodedNode {
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
