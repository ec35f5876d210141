import Foundation

// A `JSONCodable` model is a Codable type: through `ModelDecoder`'s and `ModelEncoder`'s Codable API it
// gets the settings JSONDecoder and JSONEncoder would apply to a Codable type (issue 39.1). The model is
// still read and written by its mapping, on the same tape; this file is the one place where the coder's
// Codable settings become the mapping options the model is decoded or encoded with:
//
// - keys: `.convertFromSnakeCase` / `.convertToSnakeCase` are the mapping's `.snakeCase` (Foundation's word
//   split); a `.custom` key strategy has no mapping equivalent, so the model is read or written as
//   JSONDecoder and JSONEncoder do it: as its JSON value through the Codable containers, which apply it
//   (`mapsModelsDirectly` false);
// - dates: `.secondsSince1970`, `.millisecondsSince1970` and `.iso8601` are the mapping's strategies of the
//   same name (`DateStrategies.mapped`); `.deferredToDate` (the default) leaves the options' own; the others
//   (`.custom`, and `.formatted`, which is a `.custom` strategy in swift-corelibs-foundation) are applied to
//   the model's `Date` properties as JSONDecoder and JSONEncoder apply them, through a Codable decoder or
//   encoder at the value (`CodableValueStrategies`, `CodableEncodingStrategies`);
// - data: `.base64` (the default) is the mapping's own rule; `.deferredToData` and `.custom` are applied
//   to `Data` properties the same way;
// - non-conforming floats: `.convertFromString`/`.convertToString` read and write infinity and NaN of
//   `Double` and `Float` properties as JSONDecoder and JSONEncoder do;
// - slash escaping and layout: as JSONEncoder (`codableOptions`);
// - userInfo: each entry under its key's `rawValue`, where the options have none.
//
// A setting the options themselves make (a `keyStrategy`, a `dateStrategy`) wins, as a model's own
// mapping wins over the options.

extension ModelDecoder {
    /// ``options`` as a ``JSONCodable`` model (and the models it holds) is decoded with through the
    /// Codable API (``decode(_:from:)-(T.Type,_)``).
    var codableModelOptions: DecodingOptions {
        var o = options
        if o.keyStrategy == nil, case .convertFromSnakeCase = keyDecodingStrategy { o.keyStrategy = .snakeCase }
        if o.dateStrategy.isDefault, let dates = DateStrategies.mapped(dateDecodingStrategy) { o.dateStrategy = dates }
        if !userInfo.isEmpty {
            var info = o.userInfo
            for (key, value) in userInfo where info[key.rawValue] == nil { info[key.rawValue] = value }
            o.userInfo = info
        }
        return o
    }
}

extension ModelEncoder {
    /// ``codableOptions`` (JSONEncoder's layout and slash escaping) as a ``JSONCodable`` model is encoded
    /// with through the Codable API.
    var codableModelOptions: EncodingOptions {
        var o = codableOptions
        if o.keyStrategy == nil, case .convertToSnakeCase = keyEncodingStrategy { o.keyStrategy = .snakeCase }
        if o.dateStrategy.isDefault, let dates = DateStrategies.mapped(dateEncodingStrategy) { o.dateStrategy = dates }
        for (key, value) in userInfo where o.userInfo[key.rawValue] == nil { o.userInfo[key.rawValue] = value }
        return o
    }

    /// Whether models can be written by their mapping with ``codableModelOptions`` (no `.custom` key strategy).
    var mapsCodableModelsDirectly: Bool {
        if case .custom = keyEncodingStrategy { return false }
        return true
    }
}

extension FoundationDecodingStrategies {
    /// Whether a ``JSONCodable`` model is read by its mapping on the tape (every setting has a mapping
    /// equivalent) rather than as its JSON value through the Codable containers.
    var mapsModelsDirectly: Bool {
        if case .custom = keys { return false }
        return true
    }
}

extension FoundationEncodingStrategies {
    /// See ``FoundationDecodingStrategies/mapsModelsDirectly``.
    var mapsModelsDirectly: Bool {
        if case .custom = keys { return false }
        return true
    }
}

extension ModelDecoder {
    /// The coder's date, data and float strategies that a mapped model cannot apply by its own rules, for
    /// `options` (whose own date strategy wins); nil when there are none.
    func codableValueStrategies(for options: DecodingOptions, models: any MappedModelCodecs) -> CodableValueStrategies? {
        var dates: JSONDecoder.DateDecodingStrategy? = nil
        if options.dateStrategy.isDefault, DateStrategies.mapped(dateDecodingStrategy) == nil {
            if case .deferredToDate = dateDecodingStrategy {} else { dates = dateDecodingStrategy }
        }
        var data: JSONDecoder.DataDecodingStrategy? = nil
        if case .base64 = dataDecodingStrategy {} else { data = dataDecodingStrategy }
        var convertsFloats = false
        if case .convertFromString = nonConformingFloatDecodingStrategy { convertsFloats = true }
        guard dates != nil || data != nil || convertsFloats else { return nil }
        return CodableValueStrategies(dates: dates, data: data, nonConformingFloats: nonConformingFloatDecodingStrategy,
                                      reader: CodableValueReader(models: models, strategies: foundationStrategies))
    }
}

extension ModelEncoder {
    /// The coder's date, data and float strategies that a mapped model cannot apply by its own rules, for
    /// `options` (whose own date strategy wins); nil when there are none.
    func codableEncodingStrategies(for options: EncodingOptions, models: any MappedModelCodecs) -> CodableEncodingStrategies? {
        var dates: JSONEncoder.DateEncodingStrategy? = nil
        if options.dateStrategy.isDefault, DateStrategies.mapped(dateEncodingStrategy) == nil {
            if case .deferredToDate = dateEncodingStrategy {} else { dates = dateEncodingStrategy }
        }
        var data: JSONEncoder.DataEncodingStrategy? = nil
        if case .base64 = dataEncodingStrategy {} else { data = dataEncodingStrategy }
        var convertsFloats = false
        if case .convertToString = nonConformingFloatEncodingStrategy { convertsFloats = true }
        guard dates != nil || data != nil || convertsFloats else { return nil }
        return CodableEncodingStrategies(dates: dates, data: data, nonConformingFloats: nonConformingFloatEncodingStrategy,
                                         writer: CodableValueWriter(models: models, strategies: foundationStrategies))
    }

    var foundationStrategies: FoundationEncodingStrategies {
        var strategies = FoundationEncodingStrategies()
        strategies.keys = keyEncodingStrategy
        strategies.dates = dateEncodingStrategy
        strategies.data = dataEncodingStrategy
        strategies.nonConformingFloats = nonConformingFloatEncodingStrategy
        strategies.userInfo = userInfo
        return strategies
    }

    /// ``codableModelOptions`` with the strategies a mapped model cannot apply by its own rules, and the
    /// cache of its metadata.
    func codableModelSetting() throws(MappingError) -> (options: EncodingOptions, models: MetaCache) {
        var options = codableModelOptions
        let models = try MetaCache.forEncoding(options)
        options.codableStrategies = codableEncodingStrategies(for: options, models: models)
        return (options, models)
    }
}
