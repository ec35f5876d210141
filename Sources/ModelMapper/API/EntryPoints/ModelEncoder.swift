import Foundation

/// Encodes models as JSON with a fixed set of options — the shape of Foundation's `JSONEncoder`.
public struct ModelEncoder: Sendable {
    /// Layout, null and date options.
    public var options: EncodingOptions

    // Codable (`encode(_:)` for any `Encodable`): JSONEncoder's options, with its defaults.

    /// Sorted keys, pretty printing and slash escaping as JSONEncoder. Applies to Codable values; for
    /// models, `.sortedKeys` and `.prettyPrinted` are added to ``options`` (slashes follow ``options``).
    public var outputFormatting: JSONEncoder.OutputFormatting = []
    /// How keys of Codable types are written (`[String: T]` dictionary keys as they are, as JSONEncoder).
    public var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    /// How `Date` values of Codable types are written (`.deferredToDate` by default, as JSONEncoder).
    /// A ``JSONCodable`` model's `Date` properties get every strategy but `.deferredToDate` when
    /// `options.dateStrategy` is the default; otherwise they follow `options.dateStrategy`.
    public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate
    /// How `Data` values of Codable types are written (`.base64` by default); ``JSONCodable`` models'
    /// `Data` properties too.
    public var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy = .base64
    /// How infinity and NaN in Codable `Double`/`Float` values are written (`.throw` by default;
    /// ``JSONCodable`` models' `Double`/`Float` properties too).
    public var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
    /// Passed to `encode(to:)` as `encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// An encoder with `options` (compact, nil omitted, ISO 8601 dates by default).
    public init(options: EncodingOptions = []) {
        self.options = options
    }

    /// The model as UTF-8 JSON bytes.
    public func encode<M: MappedJSONModel>(_ model: M) throws -> Data {
        try encodeOutput(model).takeData()
    }

    /// The models as a JSON array.
    public func encode<M: MappedJSONModel>(_ models: [M]) throws -> Data {
        try encodeOutput(models).takeData()
    }

    /// The models as a JSON object.
    public func encode<M: MappedJSONModel>(_ models: [String: M]) throws -> Data {
        try encodeOutput(models).takeData()
    }

    func encodeOutput<M: MappedJSONModel>(_ model: M, options: EncodingOptions? = nil) throws(MappingError) -> JSONWriter {
        let options = options ?? modelOptions
        let codec = try MetaCache.forEncoding(options).codec(for: M.self)
        return try run(codec, model, options)
    }

    func encodeOutput<M: MappedJSONModel>(_ models: [M], options: EncodingOptions? = nil) throws(MappingError) -> JSONWriter {
        let options = options ?? modelOptions
        let codec = ArrayCodec<M>(element: try MetaCache.forEncoding(options).codec(for: M.self))
        return try run(codec, models, options)
    }

    func encodeOutput<M: MappedJSONModel>(_ models: [String: M], options: EncodingOptions? = nil) throws(MappingError) -> JSONWriter {
        let options = options ?? modelOptions
        let codec = DictionaryCodec<M>(value: try MetaCache.forEncoding(options).codec(for: M.self))
        return try run(codec, models, options)
    }

    private func run<V>(_ codec: ValueCodec<V>, _ value: V, _ options: EncodingOptions) throws(MappingError) -> JSONWriter {
        var context = EncodeContext(options: options)
        if codec.reachesContext { context.path = [] }
        try codec.encode(value, &context)
        return context.writer
    }
}

extension MappedJSONModel {
    /// The model as UTF-8 JSON.
    ///
    /// - Throws: ``MappingError`` (`.invalidValue` with the path for NaN or infinity).
    public func jsonData(options: EncodingOptions = []) throws -> Data {
        try ModelEncoder(options: options).encode(self)
    }

    /// The model as a JSON string.
    public func jsonString(options: EncodingOptions = []) throws -> String {
        try ModelEncoder(options: options).encodeOutput(self).withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The model as a ``JSONValue``.
    public func jsonValue(options: EncodingOptions = []) throws -> JSONValue {
        try JSONValue(json: ModelEncoder(options: options.compact).encodeOutput(self).bytes)
    }

    /// The model as a `JSONSerialization`-compatible object (`[String: Any]`).
    public func jsonObject(options: EncodingOptions = []) throws -> Any {
        try jsonValue(options: options).foundationObject
    }
}

extension Array where Element: MappedJSONModel {
    /// The models as a JSON array.
    public func jsonData(options: EncodingOptions = []) throws -> Data {
        try ModelEncoder(options: options).encode(self)
    }

    /// The models as a JSON array string.
    public func jsonString(options: EncodingOptions = []) throws -> String {
        try ModelEncoder(options: options).encodeOutput(self).withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The models as a ``JSONValue`` array.
    public func jsonValue(options: EncodingOptions = []) throws -> JSONValue {
        try JSONValue(json: ModelEncoder(options: options.compact).encodeOutput(self).bytes)
    }

    /// The models as a `JSONSerialization`-compatible array.
    public func jsonObject(options: EncodingOptions = []) throws -> Any {
        try jsonValue(options: options).foundationObject
    }
}

extension Dictionary where Key == String, Value: MappedJSONModel {
    /// The models as a JSON object.
    public func jsonData(options: EncodingOptions = []) throws -> Data {
        try ModelEncoder(options: options).encode(self)
    }

    /// The models as a JSON object string.
    public func jsonString(options: EncodingOptions = []) throws -> String {
        try ModelEncoder(options: options).encodeOutput(self).withBytes { String(decoding: $0, as: UTF8.self) }
    }
}

extension JSONValue {
    /// The value as `JSONSerialization` would produce it: `[String: Any]`, `[Any]`, `String`, `NSNumber`
    /// (`Bool` for booleans; integers as `Int`/`UInt64`, other numbers as `Double`, or `Decimal` when a
    /// `Double` would lose digits), `NSNull`.
    public var foundationObject: Any { AnyCodec.foundationObject(self) }

    /// The value as UTF-8 JSON text.
    public func jsonData(options: EncodingOptions = []) throws -> Data {
        try JSONValueCodec.validateNumbers(self)
        var writer = JSONWriter(options: options)
        writer.write(self)
        return writer.takeData()
    }
}

extension EncodingOptions {
    /// These options without pretty printing (what is parsed again needs no layout).
    var compact: EncodingOptions {
        var options = self
        options.prettyPrinted = false
        return options
    }
}
