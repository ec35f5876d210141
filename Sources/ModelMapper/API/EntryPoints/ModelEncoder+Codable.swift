import Foundation

extension ModelEncoder {
    /// Encodes any `Encodable` value as JSONEncoder would (``outputFormatting``, key, date, data and
    /// non-conforming float strategies, `userInfo`), writing the bytes directly.
    ///
    /// `JSONMappable` values met on the way are written by their mapping with ``options``.
    ///
    /// - Throws: `EncodingError.invalidValue` (NaN or infinity with `.throw`, a top-level value that
    ///   encodes nothing), with the coding path.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        try encodeCodable(value, usesMapping: true).takeData()
    }

    /// Encodes any `Encodable` value through `encode(to:)` only, ignoring `JSONMappable` conformances —
    /// what `JSONEncoder` does with the same type. For the benchmarks (which compare the two this way) and
    /// tests only: not part of the public API (`@_spi(Benchmarks) import ModelMapper`).
    @_spi(Benchmarks)
    public func encodeUsingCodable<T: Encodable>(_ value: T) throws -> Data {
        try encodeCodable(value, usesMapping: false).takeData()
    }

    /// Encodes an `EncodableWithConfiguration` value (its `encode(to:configuration:)`), as JSONEncoder's
    /// `encode(_:configuration:)`.
    public func encode<T: EncodableWithConfiguration>(_ value: T, configuration: T.EncodingConfiguration) throws -> Data {
        try encodeCodable(ConfiguredValue(value: value, configuration: configuration), usesMapping: true).takeData()
    }

    /// Encodes an `EncodableWithConfiguration` value with the configuration `C` provides.
    public func encode<T: EncodableWithConfiguration, C: EncodingConfigurationProviding>(
        _ value: T, configuration: C.Type
    ) throws -> Data where T.EncodingConfiguration == C.EncodingConfiguration {
        try encode(value, configuration: C.encodingConfiguration)
    }

    /// A model that is also `Encodable` (a ``JSONCodable`` model) takes the mapper's path, with the
    /// settings JSONEncoder applies to a Codable type (``outputFormatting`` with slash escaping,
    /// ``keyEncodingStrategy``, ``dateEncodingStrategy``, ``userInfo``) where ``options`` leave them unset.
    public func encode<M: MappedJSONModel & Encodable>(_ model: M) throws -> Data {
        guard mapsCodableModelsDirectly else { return try encodeCodable(model, usesMapping: true).takeData() }
        return try encodeModels { options throws(MappingError) in try encodeOutput(model, options: options) }
    }

    /// Models that are also `Encodable`, as a JSON array: the mapper's path with the same settings as for one model.
    public func encode<M: MappedJSONModel & Encodable>(_ models: [M]) throws -> Data {
        guard mapsCodableModelsDirectly else { return try encodeCodable(models, usesMapping: true).takeData() }
        return try encodeModels { options throws(MappingError) in try encodeOutput(models, options: options) }
    }

    /// Models that are also `Encodable`, as a JSON object: the mapper's path with the same settings as for one model.
    public func encode<M: MappedJSONModel & Encodable>(_ models: [String: M]) throws -> Data {
        guard mapsCodableModelsDirectly else { return try encodeCodable(models, usesMapping: true).takeData() }
        return try encodeModels { options throws(MappingError) in try encodeOutput(models, options: options) }
    }

    /// A ``JSONCodable`` model's JSON by its mapping with the coder's settings; what a coder's `.custom`
    /// strategy threw is thrown as it is, as JSONEncoder does.
    private func encodeModels(_ encode: (EncodingOptions) throws(MappingError) -> JSONWriter) throws -> Data {
        do {
            return try encode(try codableModelSetting().options).takeData()
        } catch {
            if let thrown = error.codableError { throw thrown }
            throw error
        }
    }

    /// ``options`` with the layout of ``outputFormatting`` (for models).
    var modelOptions: EncodingOptions {
        var o = options
        if outputFormatting.contains(.sortedKeys) { o.sortedKeys = true }
        if outputFormatting.contains(.prettyPrinted) { o.prettyPrinted = true }
        return o
    }

    /// ``options`` with the layout of ``outputFormatting``, slashes escaped unless
    /// `.withoutEscapingSlashes` (for Codable values, as JSONEncoder).
    var codableOptions: EncodingOptions {
        var o = modelOptions
        o.escapesSlashes = !outputFormatting.contains(.withoutEscapingSlashes)
        return o
    }

    func encodeCodable<T: Encodable>(_ value: T, usesMapping: Bool) throws -> JSONWriter {
        let strategies = foundationStrategies
        let (options, models) = try codableModelSetting()
        // A `.custom` key strategy: models are written through `encode(to:)`, as JSONEncoder writes them.
        let usesMapping = usesMapping && strategies.mapsModelsDirectly
        // Written as `encode(to:)` goes when it can be (no sorted keys, containers used in order).
        if !options.sortedKeys {
            let stream = TapeEncodingState(mode: .foundation, options: options, models: models, strategies: strategies, usesMapping: usesMapping)
            stream.out = EncodeContext(options: options, capacity: 4096)
            if try stream.streamRoot(value) { return stream.out.writer }
        }
        let state = TapeEncodingState(mode: .foundation, options: options, models: models, strategies: strategies, usesMapping: usesMapping)
        let node: EncodedNode
        if usesMapping, let model = value as? any MappedJSONModel {
            node = try state.modelNode(model, [])
        } else {
            let encoder = TapeEncoder(state: state, codingPath: [],
                                      rawKeys: T.self is any StringKeyedDictionaryMarker.Type)
            if T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self
                || T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self
                || T.self == JSONValue.self {
                encoder.node = try state.box(value, [])
            } else {
                try value.encode(to: encoder)
            }
            guard let encoded = encoder.node else {
                throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
            }
            node = encoded
        }
        try state.throwRefusal()
        var context = EncodeContext(options: options, capacity: 4096)
        try state.write(node, &context)
        return context.writer
    }
}

/// An `EncodableWithConfiguration` value with its configuration, encoded as the value's
/// `encode(to:configuration:)` writes it.
private struct ConfiguredValue<Value: EncodableWithConfiguration>: Encodable {
    let value: Value
    let configuration: Value.EncodingConfiguration

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder, configuration: configuration)
    }
}
