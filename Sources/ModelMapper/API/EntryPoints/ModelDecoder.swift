// Unsafe code: the two `update(_:from…)` methods hand `ModelCodec.update` a pointer to the caller's model
// (`withUnsafeMutablePointer(to: &model)`), and `decodeDocument` passes the input's bytes
// (`withJSONBytes`) on to `decodeBytes`. Nothing here reads or writes through a pointer itself.
//
// Invariants: the pointer addresses the initialized `M` that `model` holds and is used only during the
// call, like the `inout` it comes from (the decode closures are non-escaping); the writes through it follow
// ModelCodec.swift's invariants. The bytes are valid only during `withJSONBytes` (DocumentDecoding.swift).
// Both are guaranteed by the closures' scopes, so there is nothing to assert here.

import Foundation

/// Decodes models from JSON with a fixed set of options — the shape of Foundation's `JSONDecoder`, for
/// those who prefer it to the initializers on ``JSONMappable``.
///
/// ```swift
/// let decoder = ModelDecoder(options: .strict)
/// let user = try decoder.decode(User.self, from: data)
/// ```
public struct ModelDecoder: Sendable {
    /// The conversion, date and limit options.
    public var options: DecodingOptions

    // Codable (`decode(_:from:)` for any `Decodable`): JSONDecoder's options, with its defaults.

    /// How keys of Codable types are matched to JSON keys (JSONDecoder's strategy; `[String: T]`
    /// dictionary keys are used as they are, as JSONDecoder does). ``JSONCodable`` models get it too
    /// (`.convertFromSnakeCase` as ``KeyStrategy/snakeCase``) unless `options.keyStrategy` is set.
    public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    /// How `Date` values of Codable types are read (`.deferredToDate` by default, as JSONDecoder).
    /// A ``JSONCodable`` model's `Date` properties get every strategy but `.deferredToDate` (`.formatted` and
    /// `.custom` too, applied as JSONDecoder applies them) when `options.dateStrategy` is the default;
    /// otherwise they follow `options.dateStrategy`.
    public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
    /// How `Data` values of Codable types are read (`.base64` by default); ``JSONCodable`` models' `Data`
    /// properties too.
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
    /// Whether strings stand for infinity and NaN in Codable `Double`/`Float` values (``JSONCodable``
    /// models' `Double`/`Float` properties too).
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    /// Passed to `init(from:)` as `decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Whether input that does not open an object is read as an object's members without their braces
    /// (`"a":1,"b":2` as `{"a":1,"b":2}`), as JSONDecoder's `assumesTopLevelDictionary`. Error positions
    /// then count one more column on the first line (the brace added in front). UTF-8 input only.
    public var assumesTopLevelDictionary = false

    /// A decoder with `options` (lenient by default).
    public init(options: DecodingOptions = .lenient) {
        self.options = options
    }

    /// Decodes a model from a JSON object.
    ///
    /// - Throws: ``MappingError``; a model that is also `Decodable` (``JSONCodable``, known here only as
    ///   `JSONMappable`, say inside `func f<T: JSONMappable>`) throws what the `Decodable` overloads throw,
    ///   `DecodingError`: the error depends on the type, never on the static type at the call site.
    public func decode<M: MappedJSONModel, Input: JSONInput>(_ type: M.Type, from json: Input) throws -> M {
        if let decodable = type as? any Decodable.Type { return try decodeCodable(decodable, from: json, as: M.self) }
        return try decodeMapped(M.self, from: json)
    }

    /// Decodes a top-level array of models (errors as for one model, above).
    public func decode<M: MappedJSONModel, Input: JSONInput>(_ type: [M].Type, from json: Input) throws -> [M] {
        if let decodable = type as? any Decodable.Type { return try decodeCodable(decodable, from: json, as: [M].self) }
        return try decodeMapped([M].self, from: json)
    }

    /// Decodes a top-level object whose values are models (errors as for one model, above).
    public func decode<M: MappedJSONModel, Input: JSONInput>(_ type: [String: M].Type, from json: Input) throws -> [String: M] {
        if let decodable = type as? any Decodable.Type { return try decodeCodable(decodable, from: json, as: [String: M].self) }
        return try decodeMapped([String: M].self, from: json)
    }

    // MARK: Root paths

    /// Decodes the model at a key path of the document, without a wrapper model:
    /// `try decoder.decode(User.self, from: data, at: "data.user")`. Only the members on the path are
    /// recorded while parsing; the rest of the document is skipped (and only checked for syntax).
    ///
    /// - Throws: ``MappingError``: `.missingKey` with the path when a key on it is absent, `.typeMismatch`
    ///   when a value on it is not an object; errors inside the model have the root path in front of
    ///   theirs (`data.user.id`). A model that is also `Decodable` throws `DecodingError`, as
    ///   the `Decodable` overloads do.
    public func decode<M: MappedJSONModel, Input: JSONInput>(_ type: M.Type, from json: Input, at path: MappingKey) throws -> M {
        if let decodable = type as? any Decodable.Type { return try decodeCodable(decodable, from: json, at: path, as: M.self) }
        return try decodeMapped(M.self, from: json, at: path)
    }

    /// Decodes the array of models at a key path of the document (`"data.items"`).
    public func decode<M: MappedJSONModel, Input: JSONInput>(_ type: [M].Type, from json: Input, at path: MappingKey) throws -> [M] {
        if let decodable = type as? any Decodable.Type { return try decodeCodable(decodable, from: json, at: path, as: [M].self) }
        return try decodeMapped([M].self, from: json, at: path)
    }

    /// Decodes the object of models at a key path of the document (`"result"`).
    public func decode<M: MappedJSONModel, Input: JSONInput>(_ type: [String: M].Type, from json: Input,
                                                          at path: MappingKey) throws -> [String: M] {
        if let decodable = type as? any Decodable.Type { return try decodeCodable(decodable, from: json, at: path, as: [String: M].self) }
        return try decodeMapped([String: M].self, from: json, at: path)
    }

    // MARK: The mapper's route (MappingError), for the initializers on JSONMappable

    func decodeMapped<M: MappedJSONModel, Input: JSONInput>(_ type: M.Type, from json: Input) throws -> M {
        let codec = try MetaCache.forDecoding(options).codec(for: M.self)
        return try decodeDocument(json, filter: codec.tapeFilter, tracksPath: codec.reachesContext) { c throws(MappingError) in try codec.decode(c, 0) }
    }

    func decodeMapped<M: MappedJSONModel, Input: JSONInput>(_ type: [M].Type, from json: Input) throws -> [M] {
        let codec = try MetaCache.forDecoding(options).rootArrayCodec(of: M.self)
        return try decodeDocument(json, filter: codec.tapeFilter, tracksPath: codec.reachesContext) { c throws(MappingError) in try codec.decode(c, 0) }
    }

    func decodeMapped<M: MappedJSONModel, Input: JSONInput>(_ type: [String: M].Type, from json: Input) throws -> [String: M] {
        let codec = try MetaCache.forDecoding(options).rootDictionaryCodec(of: M.self)
        return try decodeDocument(json, filter: codec.tapeFilter, tracksPath: codec.reachesContext) { c throws(MappingError) in try codec.decode(c, 0) }
    }

    func decodeMapped<M: MappedJSONModel, Input: JSONInput>(_ type: M.Type, from json: Input, at path: MappingKey) throws -> M {
        let codec = try MetaCache.forDecoding(options).codec(for: M.self)
        return try decodeDocument(json, at: path, leaf: codec.tapeFilter, tracksPath: codec.reachesContext) { c, i throws(MappingError) in try codec.decode(c, i) }
    }

    func decodeMapped<M: MappedJSONModel, Input: JSONInput>(_ type: [M].Type, from json: Input, at path: MappingKey) throws -> [M] {
        let codec = try MetaCache.forDecoding(options).rootArrayCodec(of: M.self)
        return try decodeDocument(json, at: path, leaf: codec.tapeFilter, tracksPath: codec.reachesContext) { c, i throws(MappingError) in try codec.decode(c, i) }
    }

    func decodeMapped<M: MappedJSONModel, Input: JSONInput>(_ type: [String: M].Type, from json: Input,
                                                         at path: MappingKey) throws -> [String: M] {
        let codec = try MetaCache.forDecoding(options).rootDictionaryCodec(of: M.self)
        return try decodeDocument(json, at: path, leaf: codec.tapeFilter, tracksPath: codec.reachesContext) { c, i throws(MappingError) in try codec.decode(c, i) }
    }

    /// `type` (the dynamic type of a `JSONMappable` call that is `Decodable`) by the `Decodable` route, as `R`.
    private func decodeCodable<R, Input: JSONInput>(_ type: any Decodable.Type, from json: Input, at path: MappingKey? = nil,
                                                    as _: R.Type) throws -> R {
        func open<D: Decodable>(_: D.Type) throws -> R {
            try decodeCodable(D.self, from: json, usesMapping: true, at: try path.map { key throws(MappingError) in try RootPath(key) }) as! R
        }
        return try open(type)
    }

    /// Decodes into an existing model: keys absent from the JSON keep their current values, and nested
    /// class models are merged into the instances `model` holds (every other decode makes new ones).
    public func update<M: MappedJSONModel, Input: JSONInput>(_ model: inout M, from json: Input) throws {
        let codec = try MetaCache.forDecoding(options).codec(for: M.self)
        try withUnsafeMutablePointer(to: &model) { pointer in
            try decodeDocument(json, filter: codec.tapeFilter, tracksPath: codec.reachesContext) { c throws(MappingError) in try codec.update(c, 0, pointer) }
        }
    }

    /// Decodes a model from a `JSONSerialization` object (`[String: Any]`) or a ``JSONValue``.
    public func decode<M: MappedJSONModel>(_ type: M.Type, fromJSONObject object: Any) throws -> M {
        let codec = try MetaCache.forDecoding(options).codec(for: M.self)
        return try decodeObject(object, filter: codec.tapeFilter, tracksPath: codec.reachesContext) { c throws(MappingError) in try codec.decode(c, 0) }
    }

    /// Decodes an array of models from a `JSONSerialization` array or a ``JSONValue``.
    public func decode<M: MappedJSONModel>(_ type: [M].Type, fromJSONObject object: Any) throws -> [M] {
        let codec = try MetaCache.forDecoding(options).rootArrayCodec(of: M.self)
        return try decodeObject(object, filter: codec.tapeFilter, tracksPath: codec.reachesContext) { c throws(MappingError) in try codec.decode(c, 0) }
    }

    /// Decodes an object of models from a `JSONSerialization` dictionary (`[String: Any]`) or a ``JSONValue``.
    public func decode<M: MappedJSONModel>(_ type: [String: M].Type, fromJSONObject object: Any) throws -> [String: M] {
        let codec = try MetaCache.forDecoding(options).rootDictionaryCodec(of: M.self)
        return try decodeObject(object, filter: codec.tapeFilter, tracksPath: codec.reachesContext) { c throws(MappingError) in try codec.decode(c, 0) }
    }

    /// Updates an existing model from a `JSONSerialization` object or a ``JSONValue``.
    public func update<M: MappedJSONModel>(_ model: inout M, fromJSONObject object: Any) throws {
        let codec = try MetaCache.forDecoding(options).codec(for: M.self)
        try withUnsafeMutablePointer(to: &model) { pointer in
            try decodeObject(object, filter: codec.tapeFilter, tracksPath: codec.reachesContext) { c throws(MappingError) in try codec.update(c, 0, pointer) }
        }
    }

    // MARK: Plumbing

    /// Parses `json`, runs `body` on the tape, and resolves error positions against the bytes. `filter`
    /// (the root codec's) lets the tape skip what the model does not read.
    func decodeDocument<R, Input: JSONInput>(_ json: Input, filter: TapeFilterNode? = nil, tracksPath: Bool = false,
                                             _ body: (DecodeContext) throws(MappingError) -> R) throws -> R {
        if let braced = bracedIfAssumed(json) { return try decodeDocument(braced, filter: filter, tracksPath: tracksPath, body) }
        let options = self.options
        return try json.withJSONBytes { bytes throws(MappingError) -> R in
            try decodeBytes(bytes, options: options, filter: filter, tracksPath: tracksPath, body)
        }
    }

    /// Parses `json` keeping only the way to `path` (and what `leaf` keeps below it), then runs `body` on
    /// the value there.
    func decodeDocument<R, Input: JSONInput>(_ json: Input, at path: MappingKey, leaf: TapeFilterNode?, tracksPath: Bool = false,
                                             _ body: (DecodeContext, Int) throws(MappingError) -> R) throws -> R {
        let root = try RootPath(path)
        let filter = root.filter(leaf: leaf)
        return try withExtendedLifetime(filter) {
            try decodeDocument(json, filter: filter, tracksPath: tracksPath) { c throws(MappingError) in try root.decode(c, body) }
        }
    }

    /// Copies `object` into a tape (only what `filter`, the root codec's, keeps) and runs `body` on it.
    private func decodeObject<R>(_ object: Any, filter: TapeFilterNode?, tracksPath: Bool,
                                 _ body: (DecodeContext) throws(MappingError) -> R) throws(MappingError) -> R {
        try decodeFoundationObject(object, options: options, filter: filter, tracksPath: tracksPath, body)
    }
}

extension MappedJSONModel {
    /// Decodes a model from JSON: `Data`, `[UInt8]`, `String` or `UnsafeRawBufferPointer`.
    ///
    /// - Throws: ``MappingError`` with the kind, the property path and the line and column.
    public init<Input: JSONInput>(json: Input, options: DecodingOptions = .lenient) throws {
        self = try ModelDecoder(options: options).decodeMapped(Self.self, from: json)
    }

    /// Decodes the model at a key path of the document, without a wrapper model:
    /// `try User(json: data, at: "data.user")`. The rest of the document is skipped while parsing.
    ///
    /// - Throws: ``MappingError``; `.missingKey` with the path when a key on it is absent, `.typeMismatch`
    ///   when a value on it is not an object; errors inside the model have the root path in front
    ///   (`data.user.id`).
    public init<Input: JSONInput>(json: Input, at path: MappingKey, options: DecodingOptions = .lenient) throws {
        self = try ModelDecoder(options: options).decodeMapped(Self.self, from: json, at: path)
    }

    /// Decodes a model from a `JSONSerialization` object (`[String: Any]`) or a ``JSONValue``.
    ///
    /// As YYModel's `yy_modelWithDictionary:`, the object may also hold values JSON has no type for: a
    /// `Set` or `NSSet` is read as an array; a `Date`, `URL`, `Data`, `UUID` or model instance is taken by
    /// a property of its own type; lenient mode turns a `URL`, an `NSAttributedString` or UTF-8 `Data`
    /// into a `String` (strict mode rejects them). Any other value is a `.typeMismatch` of the property
    /// reading it, which ``DecodingOptions/skippingInvalidValues(_:)`` forgives.
    public init(jsonObject: Any, options: DecodingOptions = .lenient) throws {
        self = try ModelDecoder(options: options).decode(Self.self, fromJSONObject: jsonObject)
    }

    /// Merges JSON into this model: keys absent from the JSON keep their current values, and nested class
    /// models are updated in the instances this model holds (YYModel's `yy_modelSetWithDictionary:`).
    public mutating func update<Input: JSONInput>(json: Input, options: DecodingOptions = .lenient) throws {
        try ModelDecoder(options: options).update(&self, from: json)
    }

    /// Merges a `JSONSerialization` object or a ``JSONValue`` into this model.
    public mutating func update(jsonObject: Any, options: DecodingOptions = .lenient) throws {
        try ModelDecoder(options: options).update(&self, fromJSONObject: jsonObject)
    }
}

extension Array where Element: MappedJSONModel {
    /// Decodes a top-level JSON array of models.
    public init<Input: JSONInput>(json: Input, options: DecodingOptions = .lenient) throws {
        self = try ModelDecoder(options: options).decodeMapped([Element].self, from: json)
    }

    /// Decodes the JSON array of models at a key path of the document: `try [User](json: data, at: "data.items")`.
    ///
    /// - Throws: ``MappingError``; `.missingKey` / `.typeMismatch` with the path when it cannot be followed.
    public init<Input: JSONInput>(json: Input, at path: MappingKey, options: DecodingOptions = .lenient) throws {
        self = try ModelDecoder(options: options).decodeMapped([Element].self, from: json, at: path)
    }

    /// Decodes an array of models from a `JSONSerialization` array or a ``JSONValue``.
    public init(jsonObject: Any, options: DecodingOptions = .lenient) throws {
        self = try ModelDecoder(options: options).decode([Element].self, fromJSONObject: jsonObject)
    }
}

extension Dictionary where Key == String, Value: MappedJSONModel {
    /// Decodes a top-level JSON object whose values are models.
    public init<Input: JSONInput>(json: Input, options: DecodingOptions = .lenient) throws {
        self = try ModelDecoder(options: options).decodeMapped([String: Value].self, from: json)
    }

    /// Decodes the JSON object of models at a key path of the document: `try [String: User](json: data, at: "result")`.
    public init<Input: JSONInput>(json: Input, at path: MappingKey, options: DecodingOptions = .lenient) throws {
        self = try ModelDecoder(options: options).decodeMapped([String: Value].self, from: json, at: path)
    }

    /// Decodes an object of models from a `JSONSerialization` dictionary (`[String: Any]`) or a ``JSONValue``.
    public init(jsonObject: Any, options: DecodingOptions = .lenient) throws {
        self = try ModelDecoder(options: options).decode([String: Value].self, fromJSONObject: jsonObject)
    }
}
