/// A model that ModelMapper can decode from and encode to JSON.
///
/// Conform a plain `struct` or `class` with `var` stored properties and an `init()`; no coding keys or
/// per-field code are needed. Every `var` stored property is mapped by its name unless ``MappedJSONModel/mapping`` says
/// otherwise. `let` properties of structs are never written.
///
/// ```swift
/// struct Book: JSONMappable {
///     var name = ""; var bookID = 0
///     static let mapping = ModelMapping(keys: ["bookID": ["id", "ID", "book_id"]])
/// }
/// let book = try Book(json: data)
/// ```
public protocol JSONMappable: MappedJSONModel {
    /// Creates a model with default values; decoding overwrites the properties the JSON provides.
    init()
}

/// A model ModelMapper maps, however its stored properties are found: by reflection (``JSONMappable``)
/// or at compile time (``GeneratedJSONModel``, what `@JSONModel` conforms a type to). Every entry point
/// (`init(json:)`, arrays, dictionaries, `update(json:)`, `jsonData()`, ``ModelDecoder``, ``JSONLines``,
/// ``ModelMapping/validate(_:)``) takes either; conform to one of those two, not to this one.
public protocol MappedJSONModel {
    /// How properties map to JSON keys. Defaults to ``ModelMapping/init(keys:keyStrategy:ignored:only:required:transformers:encodingKeys:ignoredWhenEncoding:ignoredWhenDecoding:flattened:lossy:)``
    /// with no arguments: every property by its own name.
    static var mapping: ModelMapping { get }
}

extension MappedJSONModel {
    public static var mapping: ModelMapping { ModelMapping() }
}

/// Optional hooks around decoding a model (YYModel's `modelCustomWillTransformFromDictionary` and
/// `modelCustomTransformFromDictionary`, Mantle's validation).
///
/// Types that do not conform pay nothing: the model's metadata records whether it conforms.
public protocol JSONDecodingHooks {
    /// Rewrites the JSON object before it is mapped. The default returns it unchanged.
    static func willDecode(_ object: JSONObject) throws -> JSONObject
    /// Called after all properties are set, with the object as `willDecode` returned it; derive values or
    /// validate here. A thrown error becomes a ``MappingError`` of kind `.validation` with the path.
    mutating func didDecode(from object: JSONObject) throws
    /// ``willDecode(_:)`` with the mapping's context (the options' `userInfo`, the model's path). The
    /// mapper calls this one; the default calls ``willDecode(_:)``, so implement either.
    static func willDecode(_ object: JSONObject, context: MappingContext) throws -> JSONObject
    /// ``didDecode(from:)`` with the mapping's context (the options' `userInfo`, the model's path). The
    /// mapper calls this one; the default calls ``didDecode(from:)``, so implement either.
    mutating func didDecode(from object: JSONObject, context: MappingContext) throws
}

extension JSONDecodingHooks {
    public static func willDecode(_ object: JSONObject) throws -> JSONObject { object }
    public mutating func didDecode(from object: JSONObject) throws {}
    public static func willDecode(_ object: JSONObject, context: MappingContext) throws -> JSONObject {
        try willDecode(object)
    }
    public mutating func didDecode(from object: JSONObject, context: MappingContext) throws {
        try didDecode(from: object)
    }
}

/// A hook after encoding a model: edit the JSON object (add, rename or remove members).
public protocol JSONEncodingHooks {
    /// Called with the model's encoded object; changes are written out. A thrown error becomes a
    /// ``MappingError`` of kind `.validation`.
    func didEncode(into object: inout JSONObject) throws
    /// ``didEncode(into:)`` with the mapping's context (the options' `userInfo`, the model's path). The
    /// mapper calls this one; the default calls ``didEncode(into:)``, so implement either.
    func didEncode(into object: inout JSONObject, context: MappingContext) throws
}

extension JSONEncodingHooks {
    /// Does nothing: a type implementing only ``didEncode(into:context:)`` needs no other method.
    public func didEncode(into object: inout JSONObject) throws {}
    public func didEncode(into object: inout JSONObject, context: MappingContext) throws {
        try didEncode(into: &object)
    }
}

/// A class hierarchy whose JSON picks the concrete class (YYModel's `modelCustomClassForDictionary`).
///
/// Applies wherever a model of the conforming class is made: at the top level, in properties, and in
/// elements of arrays, sets and dictionaries. The returned type must be the conforming class or one of its
/// subclasses; returning nil keeps the declared class.
public protocol JSONPolymorphic {
    /// The class to instantiate for `object`, or nil for the declared class.
    static func modelType(for object: JSONObject) -> (any JSONMappable.Type)?
}
