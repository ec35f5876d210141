/// How a model's properties map to JSON keys: configuration as a value, built once per type.
///
/// ```swift
/// static let mapping = ModelMapping(
///     keys: ["name": "n", "desc": "ext.desc", "bookID": ["id", "ID", "book_id"]],
///     keyStrategy: .snakeCase,
///     ignored: ["cache"],
///     required: ["bookID"])
/// ```
///
/// Names in `keys`, `ignored`, `only`, `required`, `transformers` and `lossy` must be stored properties of the
/// model; an unknown name is reported as a ``MappingError`` of kind `.unsupportedType` the first time the
/// model is used.
public struct ModelMapping: Sendable {
    /// Property name -> JSON key, key path or list of keys.
    public var keys: [String: MappingKey]
    /// How properties without an entry in `keys` derive their JSON key.
    public var keyStrategy: KeyStrategy
    /// Properties never read or written (blacklist).
    public var ignored: [String]
    /// When non-nil, only these properties are read or written (whitelist).
    public var only: [String]?
    /// Properties whose key must be present; a missing key throws `.missingKey`.
    public var required: [String]
    /// Per-property conversions between JSON and the property type (Mantle's JSON transformers).
    public var transformers: [String: JSONTransformer]
    /// Array, set and dictionary properties (or Optionals of them) that keep their valid elements and
    /// drop invalid ones: a value of the wrong type, one that cannot be converted, null where the element
    /// type is not Optional, a nested model that fails. Each drop is passed to
    /// ``DecodingOptions/invalidValueHandler`` (when one is installed) with the element's path
    /// (`items[3].price`) and position. A JSON value that is not a collection at all is still an error.
    /// Only the property's own elements are lossy: in `[[Int]]`, a bad inner array is dropped whole.
    public var lossy: [String]

    /// Creates a mapping; every argument is optional.
    public init(
        keys: [String: MappingKey] = [:],
        keyStrategy: KeyStrategy = .identity,
        ignored: [String] = [],
        only: [String]? = nil,
        required: [String] = [],
        transformers: [String: JSONTransformer] = [:],
        lossy: [String] = []
    ) {
        self.keys = keys
        self.keyStrategy = keyStrategy
        self.ignored = ignored
        self.only = only
        self.required = required
        self.transformers = transformers
        self.lossy = lossy
    }

    /// This mapping with `other`'s entries added (a subclass's `mapping` merging with `super.mapping`):
    /// keys, transformers and lists are combined, `other`'s key strategy and whitelist win when set.
    public func merging(_ other: ModelMapping) -> ModelMapping {
        var merged = self
        merged.keys.merge(other.keys) { _, new in new }
        if case .identity = other.keyStrategy {} else { merged.keyStrategy = other.keyStrategy }
        merged.ignored += other.ignored
        if let only = other.only { merged.only = (self.only ?? []) + only }
        merged.required += other.required
        merged.transformers.merge(other.transformers) { _, new in new }
        merged.lossy += other.lossy
        return merged
    }
}

/// Where a property's value is in the JSON: a key, a key path (`"ext.desc"`), a literal key containing
/// dots (`.literal("a.b")`) or a list of alternatives (`["id", "ID"]`: the first present in list order wins).
public struct MappingKey: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    enum Storage: Sendable, Hashable {
        /// Path components; one component is a plain key.
        case path([String])
        case alternatives([[String]])
    }

    let storage: Storage

    /// A key, or a key path when it contains dots (`"ext.desc"`).
    public init(stringLiteral value: String) {
        storage = .path(MappingKey.split(value))
    }

    /// Alternatives tried in order; each may be a key path.
    public init(arrayLiteral elements: String...) {
        storage = .alternatives(elements.map(MappingKey.split))
    }

    /// A key, or a key path when it contains dots.
    public static func key(_ key: String) -> MappingKey { MappingKey(stringLiteral: key) }
    /// A key taken literally, even if it contains dots.
    public static func literal(_ key: String) -> MappingKey { MappingKey(storage: .path([key])) }
    /// A key path given as components.
    public static func path(_ components: [String]) -> MappingKey { MappingKey(storage: .path(components)) }
    /// Alternatives tried in list order; the first present (null counts as present) wins.
    public static func anyOf(_ keys: [MappingKey]) -> MappingKey {
        MappingKey(storage: .alternatives(keys.flatMap { key -> [[String]] in
            switch key.storage {
            case .path(let p): return [p]
            case .alternatives(let a): return a
            }
        }))
    }

    init(storage: Storage) { self.storage = storage }

    private static func split(_ key: String) -> [String] {
        key.contains(".") ? key.split(separator: ".", omittingEmptySubsequences: false).map(String.init) : [key]
    }

    /// The alternatives as key paths (one element for a single key or path).
    var paths: [[String]] {
        switch storage {
        case .path(let p): return [p]
        case .alternatives(let a): return a
        }
    }

    public var description: String {
        paths.map { $0.joined(separator: ".") }.joined(separator: " | ")
    }
}

/// How the JSON key of a property without an explicit key is derived from its name.
public enum KeyStrategy: Sendable {
    /// The property name as is.
    case identity
    /// Foundation's `convertToSnakeCase`: `userID` -> `user_id`, `addressLine1` -> `address_line1`.
    case snakeCase
    /// A custom function of the property name.
    case custom(@Sendable (String) -> String)

    func key(for name: String) -> String {
        switch self {
        case .identity: return name
        case .snakeCase: return KeyStrategy.snakeCased(name)
        case .custom(let transform): return transform(name)
        }
    }

    /// Foundation's `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` algorithm: a word ends before an
    /// uppercase letter; a run of capitals followed by a lowercase letter is a word up to its last capital;
    /// words are lowercased and joined by underscores.
    static func snakeCased(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        guard scalars.count > 1 else { return name.lowercased() }
        func isUpper(_ i: Int) -> Bool { scalars[i].properties.isUppercase }
        func isLower(_ i: Int) -> Bool { scalars[i].properties.isLowercase }
        let end = scalars.count
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        while let upper = (searchStart..<end).first(where: isUpper) {
            words.append(wordStart..<upper)
            guard let lower = (upper..<end).first(where: isLower) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
            if searchStart >= end { break }
        }
        words.append(wordStart..<end)
        return words.map { String(String.UnicodeScalarView(scalars[$0])).lowercased() }.joined(separator: "_")
    }
}
