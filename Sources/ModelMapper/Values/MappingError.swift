import Foundation

/// An error thrown when JSON cannot be read or mapped onto a model.
///
/// Every error says what went wrong (``kind``), where in the model it happened (``path``, such as
/// `statuses[3].user.id`) and, when the input bytes are known, where in the input (``line``, ``column``,
/// ``offset``). Its ``description`` reads well on one line:
/// `line 3, column 12: typeMismatch at statuses[3].user.id: expected an integer, found a string`.
public struct MappingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The category of failure.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// The input is not well-formed JSON.
        case syntax
        /// The JSON value has a type the property cannot accept (a string where an object is expected).
        case typeMismatch
        /// A required key is absent, or `null` where its property cannot hold `null` (see
        /// ``ModelMapping/required``); ``MappingError/missingProperties`` names every such property of
        /// the object.
        case missingKey
        /// The JSON value has the right type but cannot be converted without loss (300 into `Int8`).
        case invalidValue
        /// A hook or validator rejected the value.
        case validation
        /// The model or its mapping uses something ModelMapper cannot handle (or names unknown properties).
        case unsupportedType
        /// Nesting is deeper than the configured limit.
        case depthLimit
    }

    /// The category of failure.
    public var kind: Kind
    /// The property path from the root model, such as `statuses[3].user.id`; empty at the root.
    public var path: String
    /// The same place as the document spells it: the keys as they were matched in the input (after key
    /// strategies and mapped keys, the alternative that was present, a key path's components), such as
    /// `statuses[3].user.id_str` for ``path`` `statuses[3].user.id` — what a service tells its client, or
    /// writes to a dead-letter log. For a missing key, the key that was looked for (the first alternative);
    /// for an encoding error, the key written. Equal to ``path`` where no key differs from its property.
    public var jsonPath: String {
        get { extra.jsonPath ?? path }
        set { if newValue != path || extra.jsonPath != nil { extra.jsonPath = newValue } }
    }
    /// The 1-based line of the offending input, when known.
    public var line: Int? { get { extra.line } set { extra.line = newValue } }
    /// The 1-based column (in Unicode scalars) of the offending input, when known.
    public var column: Int? { get { extra.column } set { extra.column = newValue } }
    /// The 0-based byte offset of the offending input, when known.
    public var offset: Int? { get { extra.offset } set { extra.offset = newValue } }
    /// A human-readable explanation.
    public var message: String
    /// For a `.missingKey` error about ``ModelMapping/required`` keys: the names of all the required
    /// properties of the model whose keys are missing from its object (declaration order), or the one
    /// whose key is `null`. They are properties of the same model: the first is the last component of
    /// ``path`` (`user.a` for `["a", "b"]`), and ``message`` names their JSON keys. Empty for other errors.
    public var missingProperties: [String] { get { extra.missingProperties } set { extra.missingProperties = newValue } }

    /// The rarely set fields, out of line: a decode that succeeds moves Result<V, MappingError> values
    /// around, and their size is MappingError's.
    struct Extra: Sendable, Equatable {
        var jsonPath: String? = nil
        var line: Int? = nil
        var column: Int? = nil
        var offset: Int? = nil
        var missingProperties: [String] = []
        var tokenIndex: Int? = nil
        var positionIsEstimated = false
        /// A `.missingKey` error about a key that is present with `null` (not absent): the Codable
        /// entry points throw `valueNotFound` for it, as JSONDecoder does.
        var valueIsNull = false
        /// What a Codable strategy (a JSONDecoder or JSONEncoder `.custom` closure, a `Decoder` it used)
        /// threw, when a mapped model's value was read or written through one: the Codable entry points
        /// throw it again, as JSONDecoder and JSONEncoder would.
        var codableError: (any Error)? = nil

        static func == (a: Extra, b: Extra) -> Bool {
            a.jsonPath == b.jsonPath && a.line == b.line && a.column == b.column && a.offset == b.offset
                && a.missingProperties == b.missingProperties && a.tokenIndex == b.tokenIndex
                && a.positionIsEstimated == b.positionIsEstimated && a.valueIsNull == b.valueIsNull
                && (a.codableError == nil) == (b.codableError == nil)
        }
    }
    indirect enum ExtraBox: Sendable { case value(Extra) }
    private var box: ExtraBox? = nil
    var extra: Extra {
        get { if case .value(let e)? = box { return e }; return Extra() }
        set { box = .value(newValue) }
    }

    /// Creates an error.
    public init(_ kind: Kind, _ message: String, path: String = "", line: Int? = nil, column: Int? = nil,
                offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.path = path
        if line != nil || column != nil || offset != nil {
            self.extra = Extra(line: line, column: column, offset: offset)
        }
    }

    public var description: String {
        var text = ""
        if let line, let column {
            text += "line \(line), column \(column): "
        } else if let offset {
            text += "byte \(offset): "
        }
        text += kind.rawValue
        if !path.isEmpty { text += " at \(path)" }
        if jsonPath != path { text += " (JSON \(jsonPath.isEmpty ? "root" : jsonPath))" }
        text += ": " + message
        return text
    }

    // MARK: - Internal plumbing

    /// The tape token the error refers to, resolved into line/column by the entry point that owns the input.
    var tokenIndex: Int? { get { extra.tokenIndex } set { extra.tokenIndex = newValue } }
    /// See ``Extra/codableError``.
    var codableError: (any Error)? { get { extra.codableError } set { extra.codableError = newValue } }

    /// The tokenizer estimated `offset` from yajl's report without knowing where the last token ended;
    /// `resolvePosition(in:)` then finds the exact position by parsing the input again.
    var positionIsEstimated: Bool { get { extra.positionIsEstimated } set { extra.positionIsEstimated = newValue } }
    /// See ``Extra/valueIsNull``.
    var valueIsNull: Bool { get { extra.valueIsNull } set { extra.valueIsNull = newValue } }

    /// Prepends a property name to the path as the error travels up through a model, and the JSON key it
    /// was read from (or written to) to ``jsonPath``: `jsonKey`, or the name itself when nil.
    mutating func prependKey(_ name: String, jsonKey: String? = nil) {
        if extra.jsonPath != nil || (jsonKey != nil && jsonKey != name) {
            var json = jsonPath
            Self.prepend(key: jsonKey ?? name, to: &json)
            Self.prepend(key: name, to: &path)
            extra.jsonPath = json
        } else {
            Self.prepend(key: name, to: &path)
        }
    }

    private static func prepend(key: String, to path: inout String) {
        if path.isEmpty { path = key } else if path.first == "[" { path = key + path } else { path = key + "." + path }
    }

    /// Prepends an array index (`[3]`) or a dictionary key (`["k"]`) to the path.
    mutating func prependIndex(_ index: Int) {
        prependComponent("[\(index)]")
    }

    mutating func prependComponent(_ component: String) {
        Self.prepend(component: component, to: &path)
        if var json = extra.jsonPath {
            Self.prepend(component: component, to: &json)
            extra.jsonPath = json
        }
    }

    private static func prepend(component: String, to path: inout String) {
        if path.isEmpty || path.first == "[" { path = component + path } else { path = component + "." + path }
    }

    public static func == (lhs: MappingError, rhs: MappingError) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.jsonPath == rhs.jsonPath && lhs.line == rhs.line && lhs.column == rhs.column
            && lhs.offset == rhs.offset && lhs.message == rhs.message && lhs.missingProperties == rhs.missingProperties
    }
}

/// What Foundation's `localizedDescription` and frameworks that print it (a server's error response, a
/// log line) show: ``MappingError/description``, not "The operation could not be completed".
extension MappingError: LocalizedError {
    public var errorDescription: String? { description }
}
