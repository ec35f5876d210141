/// How models are written as JSON: configuration as a value.
///
/// Written as a list of options, each a static member that sets one thing, or one option alone:
///
/// ```swift
/// let options: EncodingOptions = [.sortedKeys, .keys(.snakeCase), .dates(.iso8601)]
/// try model.jsonString(options: .dates(.secondsSince1970))
/// ```
///
/// or as a value whose properties are read and set (`options.sortedKeys = true`,
/// `options.dateStrategy = .iso8601`). The list is not a set: it is applied element by element, in order,
/// onto the defaults (``init()``), and the result is one value with one setting per property. Two options
/// are equal when their settings are, whatever the order they were written in. `[]` is the defaults.
public struct EncodingOptions: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// Object keys in lexicographic order of their UTF-8 bytes (as JSONEncoder's `.sortedKeys`); off by
    /// default.
    public var sortedKeys = false
    /// Two-space indentation and one member per line; off by default.
    public var prettyPrinted = false
    /// Write `null` for nil optionals instead of omitting the key; off by default.
    public var writesNulls = false
    /// Escape `/` as `\/` (as JSONSerialization does by default); off by default.
    public var escapesSlashes = false
    /// How `Date` properties are written; ISO 8601 in UTC by default (fraction only when non-zero).
    public var dateStrategy: DateStrategy = .default
    /// The key strategy of every model whose ``ModelMapping/keyStrategy`` is nil (JSONEncoder's
    /// `keyEncodingStrategy`); nil: `.identity`. `[.sortedKeys, .keys(.snakeCase)]` sets it too.
    public var keyStrategy: KeyStrategy? = nil
    /// Values handed to encoding hooks and transformers in ``MappingContext/userInfo``; empty by default.
    public var userInfo: [String: any Sendable] = [:]
    /// A Codable coder's date, data and float strategies for the mapped models of its encoding (set only by
    /// `ModelEncoder`'s Codable API, for a `JSONCodable` model); nil everywhere else.
    var codableStrategies: CodableEncodingStrategies? = nil

    /// The defaults: compact output in the models' key order, nil optionals omitted, `/` not escaped,
    /// the default date strategy, no key strategy and no `userInfo` (the same as `[]`).
    public init() {}

    /// The defaults with each element applied in order: a flag any element sets is set, and a later
    /// element's date strategy or key strategy replaces an earlier one's (`[.dates(.iso8601),
    /// .dates(.secondsSince1970)]` writes seconds). `userInfo` entries are merged, a later element's value
    /// winning for the same key. An element that leaves a setting at its default (`.dates(.default)`
    /// included) changes nothing, so `[base, .prettyPrinted]` is `base` with pretty printing; to turn a
    /// flag off or clear a strategy, set the property (`options.prettyPrinted = false`).
    public init(arrayLiteral elements: EncodingOptions...) {
        for element in elements { apply(element) }
    }

    /// Sets here what `other` sets: its flags that are on, its strategies that are not the defaults, its
    /// `userInfo` entries.
    private mutating func apply(_ other: EncodingOptions) {
        sortedKeys = sortedKeys || other.sortedKeys
        prettyPrinted = prettyPrinted || other.prettyPrinted
        writesNulls = writesNulls || other.writesNulls
        escapesSlashes = escapesSlashes || other.escapesSlashes
        if !other.dateStrategy.isDefault { dateStrategy = other.dateStrategy }
        if let strategy = other.keyStrategy { keyStrategy = strategy }
        userInfo.merge(other.userInfo) { _, later in later }
    }

    /// Options with ``sortedKeys-swift.property`` on.
    public static var sortedKeys: EncodingOptions {
        var options = EncodingOptions()
        options.sortedKeys = true
        return options
    }

    /// Options with ``prettyPrinted-swift.property`` on.
    public static var prettyPrinted: EncodingOptions {
        var options = EncodingOptions()
        options.prettyPrinted = true
        return options
    }

    /// Options with ``writesNulls-swift.property`` on.
    public static var writesNulls: EncodingOptions {
        var options = EncodingOptions()
        options.writesNulls = true
        return options
    }

    /// Same as ``writesNulls-swift.type.property``.
    public static var nulls: EncodingOptions { writesNulls }

    /// Options with ``escapesSlashes-swift.property`` on.
    public static var escapesSlashes: EncodingOptions {
        var options = EncodingOptions()
        options.escapesSlashes = true
        return options
    }

    /// Options with a default key strategy (``keyStrategy``).
    public static func keys(_ strategy: KeyStrategy) -> EncodingOptions {
        var options = EncodingOptions()
        options.keyStrategy = strategy
        return options
    }

    /// Options with a date strategy (``dateStrategy``).
    public static func dates(_ strategy: DateStrategy) -> EncodingOptions {
        var options = EncodingOptions()
        options.dateStrategy = strategy
        return options
    }

    /// Whether the settings are the same. Strategies are the same when they have the same case and
    /// arguments; a `.custom` one only as the same strategy value (made once, by one `.custom { … }`).
    /// `userInfo` values are compared as `AnyHashable` when they are `Hashable`, else by their
    /// `String(reflecting:)`.
    public static func == (lhs: EncodingOptions, rhs: EncodingOptions) -> Bool {
        lhs.sortedKeys == rhs.sortedKeys && lhs.prettyPrinted == rhs.prettyPrinted
            && lhs.writesNulls == rhs.writesNulls && lhs.escapesSlashes == rhs.escapesSlashes
            && lhs.dateStrategy == rhs.dateStrategy && lhs.keyStrategy == rhs.keyStrategy
            && Self.userInfo(lhs.userInfo, equals: rhs.userInfo) && lhs.codableStrategies === rhs.codableStrategies
    }

    private static func userInfo(_ a: [String: any Sendable], equals b: [String: any Sendable]) -> Bool {
        a.count == b.count && a.allSatisfy { key, value in b[key].map { Self.value($0, equals: value) } ?? false }
    }

    private static func value(_ a: any Sendable, equals b: any Sendable) -> Bool {
        if let a = a as? any Hashable, let b = b as? any Hashable { return AnyHashable(a) == AnyHashable(b) }
        return String(reflecting: a) == String(reflecting: b)
    }
}

extension JSONWriter {
    /// A writer laid out as `options` say (pretty printing, sorted keys, escaped slashes).
    init(options: EncodingOptions, capacity: Int = 256) {
        let layout = Layout(
            prettyPrinted: options.prettyPrinted,
            sortedKeys: options.sortedKeys,
            escapesSlashes: options.escapesSlashes
        )
        self.init(layout: layout, capacity: capacity)
    }
}
