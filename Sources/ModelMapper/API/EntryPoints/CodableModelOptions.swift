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
//   same name; `.deferredToDate` (the default) and `.formatted`/`.custom` leave the options' own;
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
        if o.dateStrategy.isDefault, let dates = DateStrategy(codable: dateDecodingStrategy) { o.dateStrategy = dates }
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
        if o.dateStrategy.isDefault, let dates = DateStrategy(codable: dateEncodingStrategy) { o.dateStrategy = dates }
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

extension DateStrategy {
    /// The mapping's equivalent of JSONDecoder's date strategy; nil where the options' own applies.
    init?(codable strategy: JSONDecoder.DateDecodingStrategy) {
        switch strategy {
        case .secondsSince1970: self = .secondsSince1970
        case .millisecondsSince1970: self = .millisecondsSince1970
        case .iso8601: self = .iso8601
        default: return nil
        }
    }

    /// The mapping's equivalent of JSONEncoder's date strategy; nil where the options' own applies.
    init?(codable strategy: JSONEncoder.DateEncodingStrategy) {
        switch strategy {
        case .secondsSince1970: self = .secondsSince1970
        case .millisecondsSince1970: self = .millisecondsSince1970
        case .iso8601: self = .iso8601
        default: return nil
        }
    }
}
