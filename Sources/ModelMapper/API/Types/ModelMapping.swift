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
/// Names in `keys`, `ignored`, `only`, `required`, `transformers`, `encodingKeys`, `ignoredWhenEncoding`,
/// `ignoredWhenDecoding`, `flattened` and `lossy` must be stored properties of the model; an unknown name is
/// reported as a ``MappingError`` of kind `.unsupportedType` the first time the model is used. See
/// <doc:Mapping> and <doc:ConversionsAndErrors>.
public struct ModelMapping: Sendable {
    /// Property name -> JSON key, key path or list of keys.
    public var keys: [String: MappingKey]
    /// How properties without an entry in `keys` derive their JSON key. `nil` (the default): the mapping
    /// does not choose, so the decoder's or encoder's default applies (``DecodingOptions/keyStrategy``,
    /// ``EncodingOptions/keyStrategy``), else `.identity`. An explicit `.identity` keeps property names even
    /// when the options set a strategy.
    public var keyStrategy: KeyStrategy?
    /// Properties never read or written (blacklist).
    public var ignored: [String]
    /// When non-nil, only these properties are read or written (whitelist).
    public var only: [String]?
    /// Properties whose key must be present; a missing key throws `.missingKey`. A required key must also
    /// not be `null` unless its property can hold `null`: `null` is an error (`.missingKey`, "is null") for
    /// `var year = 0`, and `nil` for an Optional (present, null allowed: Codable's `decode(Int?.self,
    /// forKey:)`, not `decodeIfPresent`). One error names every missing key of an object
    /// (``MappingError/missingProperties``). An update (``MappedJSONModel/update(json:options:)``) checks only
    /// the keys it carries: absent ones keep their values; nested models it decodes check theirs.
    public var required: [String]
    /// Per-property conversions between JSON and the property type (Mantle's JSON transformers).
    public var transformers: [String: JSONTransformer]
    /// Property name -> the key or key path written when encoding (`["name": "full_name"]`); decoding
    /// still reads `keys` (or the key strategy). Alternatives are not allowed here: one key is written.
    public var encodingKeys: [String: MappingKey]
    /// Properties decoded but never encoded (a password read from a form, never echoed back).
    public var ignoredWhenEncoding: [String]
    /// Properties encoded but never decoded (a checksum the server computes).
    public var ignoredWhenDecoding: [String]
    /// Nested struct models whose properties are read from, and written to, this model's own object
    /// (their own mapping applied there) instead of a nested object:
    ///
    /// ```swift
    /// struct Address: JSONMappable { var city = ""; var zip = "" }
    /// struct User: JSONMappable {
    ///     var name = ""; var address = Address()
    ///     static let mapping = ModelMapping(flattened: ["address"])
    /// }
    /// // {"name": "Ann", "city": "Oslo", "zip": "0150"}
    /// ```
    ///
    /// A flattened property is a model (struct or class) or an Optional of one; an Optional, a class or a
    /// model with hooks is read from this model's whole object by its own codec (its hooks see that
    /// object). A key of the flattened model may also be a key of this model (SmartCodable's `@SmartFlat`):
    /// decoding sets both; encoding writes it once, with this model's value (between flattened models,
    /// the first declared one's).
    public var flattened: [String]
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
        keyStrategy: KeyStrategy? = nil,
        ignored: [String] = [],
        only: [String]? = nil,
        required: [String] = [],
        transformers: [String: JSONTransformer] = [:],
        encodingKeys: [String: MappingKey] = [:],
        ignoredWhenEncoding: [String] = [],
        ignoredWhenDecoding: [String] = [],
        flattened: [String] = [],
        lossy: [String] = []
    ) {
        self.keys = keys
        self.keyStrategy = keyStrategy
        self.ignored = ignored
        self.only = only
        self.required = required
        self.transformers = transformers
        self.encodingKeys = encodingKeys
        self.ignoredWhenEncoding = ignoredWhenEncoding
        self.ignoredWhenDecoding = ignoredWhenDecoding
        self.flattened = flattened
        self.lossy = lossy
    }

    /// This mapping with `other`'s entries added (a subclass's `mapping` merging with `super.mapping`):
    /// keys, encoding keys, transformers and lists are combined, `other`'s key strategy and whitelist win
    /// when set.
    public func merging(_ other: ModelMapping) -> ModelMapping {
        var merged = self
        merged.keys.merge(other.keys) { _, new in new }
        if let strategy = other.keyStrategy { merged.keyStrategy = strategy }
        merged.ignored += other.ignored
        if let only = other.only { merged.only = (self.only ?? []) + only }
        merged.required += other.required
        merged.transformers.merge(other.transformers) { _, new in new }
        merged.encodingKeys.merge(other.encodingKeys) { _, new in new }
        merged.ignoredWhenEncoding += other.ignoredWhenEncoding
        merged.ignoredWhenDecoding += other.ignoredWhenDecoding
        merged.flattened += other.flattened
        merged.lossy += other.lossy
        return merged
    }
}

/// Where a property's value is in the JSON: a key, a key path (`"ext.desc"`), a literal key containing
/// dots (`.literal("a.b")`) or a list of alternatives (`["id", "ID"]`: the first present in list order wins).
/// A string whose dots leave an empty component (`".ext"`, `"a..b"`) is a literal key, not a path.
///
/// In a string, a backslash before a dot makes it a literal dot inside one key (HandyJSON's spelling:
/// the Swift literal `"a\\.b"`, the text `a\.b`, is the one key `a.b`; `"data.a\\.b"` is the path
/// `data` → `a.b`). A backslash before anything else is an error (`.unsupportedType`) at the model's first
/// use and in ``ModelMapping/validate(_:)``: write a key holding a backslash with ``literal(_:)``.
public struct MappingKey: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    CustomStringConvertible
{
    /// A struct rather than an enum of `path([String])` and `alternatives([[String]])`: such an enum
    /// keeps its case in the spare bits of the array's pointer, which leak checkers (valgrind) cannot
    /// follow, so a mapping held only by a model's `static let` was reported as "definitely lost" once no
    /// meta held its arrays (a custom key strategy's metas, freed with it).
    struct Storage: Sendable, Hashable {
        /// The alternatives as key paths (one element for a single key or path).
        let paths: [[String]]
        /// Whether the key was given as alternatives (even of one key path).
        let isAlternatives: Bool

        /// Path components; one component is a plain key.
        static func path(_ components: [String]) -> Storage { Storage(paths: [components], isAlternatives: false) }
        static func alternatives(_ paths: [[String]]) -> Storage { Storage(paths: paths, isAlternatives: true) }
    }

    let storage: Storage
    /// The text of a string given to this key with a backslash that is not before a dot (`"a\\b"`), which
    /// the model's metadata build refuses; nil when every string was well formed.
    let invalidEscape: String?

    /// A key, or a key path when it contains dots between non-empty components (`"ext.desc"`); `\.` is a
    /// literal dot.
    public init(stringLiteral value: String) {
        let parsed = MappingKey.split(value)
        storage = .path(parsed.components)
        invalidEscape = parsed.isWellFormed ? nil : value
    }

    /// Alternatives tried in order; each may be a key path.
    public init(arrayLiteral elements: String...) {
        let parsed = elements.map(MappingKey.split)
        storage = .alternatives(parsed.map(\.components))
        invalidEscape = zip(elements, parsed).first { !$0.1.isWellFormed }?.0
    }

    /// A key, or a key path when it contains dots.
    public static func key(_ key: String) -> MappingKey { MappingKey(stringLiteral: key) }
    /// A key taken literally, even if it contains dots.
    public static func literal(_ key: String) -> MappingKey { MappingKey(storage: .path([key])) }
    /// A key path given as components.
    public static func path(_ components: [String]) -> MappingKey { MappingKey(storage: .path(components)) }
    /// Alternatives tried in list order; the first present (null counts as present) wins.
    public static func anyOf(_ keys: [MappingKey]) -> MappingKey {
        MappingKey(storage: .alternatives(keys.flatMap(\.paths)),
                   invalidEscape: keys.lazy.compactMap(\.invalidEscape).first)
    }

    init(storage: Storage, invalidEscape: String? = nil) {
        self.storage = storage
        self.invalidEscape = invalidEscape
    }

    /// The one reading of a mapped key's text: a dot separates key path components and `\.` is a dot
    /// inside a component; a backslash before anything else (or at the end) makes the text ill-formed (it
    /// is kept as written, and refused at the meta build). A key whose dots leave an empty component
    /// (`".ext"`, `"a..b"`, `"a."`) is one literal key, as YYModel reads `".ext"`.
    private static func split(_ key: String) -> (components: [String], isWellFormed: Bool) {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "\\") }) else { return ([key], true) }
        var components: [String] = []
        var current = String.UnicodeScalarView()
        var isWellFormed = true
        var scalars = key.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "\\":
                let next = scalars.next()
                if next == "." {
                    current.append(".")
                } else {
                    isWellFormed = false
                    current.append(scalar)
                    if let next { current.append(next) }
                }
            case ".":
                components.append(String(current))
                current = String.UnicodeScalarView()
            default:
                current.append(scalar)
            }
        }
        components.append(String(current))
        if components.count > 1 && components.contains(where: \.isEmpty) {
            return ([components.joined(separator: ".")], isWellFormed)
        }
        return (components, isWellFormed)
    }

    /// The alternatives as key paths (one element for a single key or path).
    var paths: [[String]] { storage.paths }

    public var description: String {
        paths.map { $0.joined(separator: ".") }.joined(separator: " | ")
    }
}

/// How the JSON key of a property without an explicit key is derived from its name.
///
/// The word styles split names as Foundation's `convertToSnakeCase` does: a word ends before an uppercase
/// letter, and a run of capitals followed by a lowercase letter ends before its last capital. Digits stay
/// in their word.
///
/// | strategy | `userID` | `addressLine1` | `urlString` |
/// |:--|:--|:--|:--|
/// | `.snakeCase` | `user_id` | `address_line1` | `url_string` |
/// | `.kebabCase` | `user-id` | `address-line1` | `url-string` |
/// | `.screamingSnakeCase` | `USER_ID` | `ADDRESS_LINE1` | `URL_STRING` |
/// | `.pascalCase` | `UserID` | `AddressLine1` | `UrlString` |
///
/// `.pascalCase` uppercases the first letter of each word and keeps the rest as written.
/// `.firstLetterLowercased` only lowercases the first letter (`UserID` -> `userID`, `URL` -> `uRL`).
public enum KeyStrategy: Sendable, Hashable {
    /// The property name as is.
    case identity
    /// Foundation's `convertToSnakeCase`: `userID` -> `user_id`, `addressLine1` -> `address_line1`.
    case snakeCase
    /// Words lowercased and joined by hyphens: `userID` -> `user-id`.
    case kebabCase
    /// Words with their first letter uppercased, joined: `userID` -> `UserID`, `addressLine1` -> `AddressLine1`.
    case pascalCase
    /// Words uppercased and joined by underscores: `userID` -> `USER_ID`.
    case screamingSnakeCase
    /// The name with its first letter lowercased, the rest as written: `UserName` -> `userName`, `ID` -> `iD`.
    /// For models whose property names start with a capital read from keys that do not (SmartCodable's
    /// `.firstLetterUpper` decoding strategy, seen from the model's side).
    case firstLetterLowercased
    /// A custom function of the property name, made by ``custom(_:)-swift.type.method``
    /// (`.custom { $0.uppercased() }`). The function is boxed once, when the strategy is made: that
    /// strategy value, wherever it is copied or passed, is one strategy (equal to itself, sharing the
    /// metadata built for it); two strategies made separately are two, even from the same closure. Any
    /// number may be made; the metadata built for one is held by it and freed with its last copy.
    case custom(Transform)

    /// A custom strategy: `transform` derives each property's JSON key from its name.
    ///
    /// ```swift
    /// let upper = KeyStrategy.custom { $0.uppercased() }   // make it once, reuse it
    /// ```
    ///
    /// Metadata is built for each strategy value on its first use and kept while the strategy is: options
    /// made once and reused build it once. A strategy made anew for every call works too (there is no
    /// limit), and builds its metadata anew each time.
    public static func custom(_ transform: @escaping @Sendable (String) -> String) -> KeyStrategy {
        .custom(Transform(transform))
    }

    /// The function of a ``KeyStrategy/custom(_:)-swift.enum.case`` strategy, boxed when the strategy is made:
    /// its identity is the strategy's. Call it as a function (`transform("userID")`).
    public final class Transform: Sendable, Hashable {
        let body: @Sendable (String) -> String
        /// What the library builds for this strategy (its metadata, per combination of the options that
        /// select metadata), freed with the box; nil in the copies the metadata itself holds.
        let caches: StrategyCaches?

        init(_ body: @escaping @Sendable (String) -> String, keepsCaches: Bool = true) {
            self.body = body
            caches = keepsCaches ? StrategyCaches() : nil
        }

        /// The same function in a box that keeps no caches (held by the metadata built for this strategy,
        /// which this box's caches hold: no cycle).
        var detached: Transform { Transform(body, keepsCaches: false) }

        /// The key for property `name`.
        public func callAsFunction(_ name: String) -> String { body(name) }

        /// The same box: strategies made separately are different even when their closures are the same.
        public static func == (lhs: Transform, rhs: Transform) -> Bool { lhs === rhs }

        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    func key(for name: String) -> String {
        switch self {
        case .identity: return name
        case .snakeCase: return KeyStrategy.snakeCased(name)
        case .kebabCase: return KeyStrategy.words(name).map { $0.lowercased() }.joined(separator: "-")
        case .screamingSnakeCase: return KeyStrategy.words(name).map { $0.uppercased() }.joined(separator: "_")
        case .pascalCase: return KeyStrategy.words(name).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        case .firstLetterLowercased: return name.prefix(1).lowercased() + name.dropFirst()
        case .custom(let transform): return transform.body(name)
        }
    }

    /// Foundation's `convertToSnakeCase` (the Codable bridge uses it too).
    static func snakeCased(_ name: String) -> String {
        words(name).map { $0.lowercased() }.joined(separator: "_")
    }

    /// Foundation's snake-case word split (`JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`): a word
    /// ends before an uppercase letter; a run of capitals followed by a lowercase letter is a word up to its
    /// last capital. Words keep their case. As Foundation, letters are found among the scalars and the steps
    /// after and before them are whole characters, so a combining mark stays in its letter's word
    /// (`theÉ\u{301}nd` is `the`, `É\u{301}nd`). Also as Foundation (its `uppercaseLetters` and
    /// `lowercaseLetters` sets), a letter's case is its general category — Lu or Lt, Ll — not the Unicode
    /// `Uppercase`/`Lowercase` properties, which also hold marks, numerals and modifiers (`U+0345`, `ⅰ`,
    /// `ª`) that JSONEncoder does not count as letters of either case.
    static func words(_ name: String) -> [String] {
        guard !name.isEmpty else { return [name] }
        let scalars = name.unicodeScalars
        func first(from start: String.Index, where test: (Unicode.Scalar.Properties) -> Bool) -> String.Index? {
            var i = start
            while i < scalars.endIndex {
                if test(scalars[i].properties) { return i }
                scalars.formIndex(after: &i)
            }
            return nil
        }
        var words: [Range<String.Index>] = []
        var wordStart = name.startIndex
        var searchStart = name.index(after: wordStart)
        while let upper = first(from: searchStart, where: { $0.generalCategory == .uppercaseLetter || $0.generalCategory == .titlecaseLetter }) {
            words.append(wordStart..<upper)
            guard let lower = first(from: upper, where: { $0.generalCategory == .lowercaseLetter }) else {
                wordStart = upper
                break
            }
            if lower == name.index(after: upper) {
                wordStart = upper
            } else {
                let beforeLower = name.index(before: lower)
                words.append(upper..<beforeLower)
                wordStart = beforeLower
            }
            searchStart = scalars.index(after: lower)
        }
        words.append(wordStart..<name.endIndex)
        return words.map { String(name[$0]) }
    }
}
