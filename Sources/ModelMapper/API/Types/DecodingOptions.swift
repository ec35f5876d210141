import Foundation

/// How JSON values are converted into properties: configuration as a value.
///
/// `.lenient` (the default) converts where no information is lost, as YYModel does (`"100"` into an
/// `Int`, `8.8` into a `String` as `"8.8"`); `.strict` accepts only the matching JSON type (Mantle 2).
/// In both, a value that cannot be converted exactly is an error with its property path — unless
/// ``invalidValueHandler`` is set, in which case the property keeps its value and the error is reported.
public struct DecodingOptions: Sendable {
    /// Which conversions between JSON types and property types are allowed.
    public enum Conversion: Sendable, Equatable {
        /// Lossless conversions across JSON types (the conversion table's "lenient adds" column).
        case lenient
        /// Only the matching JSON type.
        case strict
    }

    /// The default maximum nesting of arrays and objects.
    public static let defaultDepthLimit = 512

    /// Which conversions are allowed.
    public var conversion: Conversion
    /// How `Date` properties are read.
    public var dateStrategy: DateStrategy {
        get { references.dateStrategy }
        set { references = references.with { $0.dateStrategy = newValue } }
    }
    /// Maximum nesting of arrays and objects; deeper input fails with `.depthLimit`. Parsed JSON counts
    /// every level, read or not; dictionary input (`init(jsonObject:)`) counts the levels the model reads,
    /// since a value under a key it does not read is never walked. A `JSONValue` (or `Any`) read from the
    /// input nests at most ``JSONValue/maximumDepth`` levels itself, whatever this limit.
    public var depthLimit: Int = DecodingOptions.defaultDepthLimit
    /// Whether a single non-array value for an array or set property becomes a one-element collection.
    public var wrapsSingleValues = false
    /// When set, a property whose value cannot be converted (`.typeMismatch`, `.invalidValue`) keeps
    /// its current value and the error (with path and position) is passed here instead of thrown —
    /// YYModel's forgiving behaviour, without the silence.
    public var invalidValueHandler: (@Sendable (MappingError) -> Void)? {
        get { references.invalidValueHandler }
        set {
            // Clearing an absent handler (every Codable decode does) makes no box.
            if newValue == nil && references.invalidValueHandler == nil { return }
            references = references.with { $0.invalidValueHandler = newValue }
        }
    }
    /// The key strategy of every model whose ``ModelMapping/keyStrategy`` is nil (JSONDecoder's
    /// `keyDecodingStrategy`, JSONModel's global key mapper); nil: `.identity`. Explicit `keys` and a
    /// mapping's own strategy still win.
    ///
    /// ```swift
    /// var options = DecodingOptions.lenient
    /// options.keyStrategy = .snakeCase        // userID <- "user_id" in every model without its own strategy
    /// ```
    ///
    /// Metadata for each strategy is built once and kept, like a type's own. A `.custom` strategy is
    /// known by its value (``KeyStrategy/Transform``): make it once and reuse it, and its metadata is built
    /// once; its metadata is freed with the strategy's last copy.
    public var keyStrategy: KeyStrategy? {
        get { references.keyStrategy }
        set {
            if newValue == nil && references.keyStrategy == nil { return }
            references = references.with { $0.keyStrategy = newValue }
        }
    }
    /// Whether a JSON key that matches no property exactly may match one ignoring ASCII case
    /// (`"UserName"` for `userName`); an exact match in the same object always wins. Applies to every
    /// key a model reads (plain keys, key paths, alternatives), not to a root path given with `at:`. Off
    /// by default; when on, objects are recorded whole while parsing (no skipping of unread members).
    public var caseInsensitiveKeys = false
    /// Whether every collection of the decode is lossy, the root included: a top-level `[User](json:)`,
    /// an array or dictionary at a root path, and every array, set and dictionary inside the models. An
    /// element that cannot be decoded is dropped and reported to ``invalidValueHandler``, exactly as for a
    /// property listed in ``ModelMapping/lossy`` (a bad value inside an element drops that element).
    /// Collections inside plain `Decodable` values follow their own `init(from:)`. Off by default.
    ///
    /// ```swift
    /// var options = DecodingOptions.lenient.skippingInvalidValues { rejected in log(rejected) }
    /// options.lossyCollections = true
    /// let users = try [User](json: data, options: options)   // [null, {"name": "a"}] -> one user, one report
    /// ```
    ///
    /// Like ``keyStrategy``, this selects metadata built for it once and kept: decodes without it pay nothing.
    public var lossyCollections = false
    /// Whether every property that can be decoded and cannot hold `nil` must have its key in the object,
    /// as if listed in its model's ``ModelMapping/required``: an absent key (or a `null` for it) is
    /// `.missingKey`, one error naming every such key of the object (``MappingError/missingProperties``).
    /// Optionals, `let`s, properties in ``ModelMapping/ignoredWhenDecoding`` and those a mapping leaves
    /// out are not required. Off by default: a missing key keeps the property's value (YYModel's rule).
    ///
    /// Use it where a silent default would hide a mistake: a nested model without the parent's
    /// ``ModelMapping/keyStrategy``, a forgotten `.snakeCase`, a client that renamed a field.
    ///
    /// ```swift
    /// var options = DecodingOptions.strict
    /// options.requiresAllKeys = true
    /// ```
    ///
    /// An update (``MappedJSONModel/update(json:options:)``) checks only the keys it carries, as for
    /// `required`. Like ``keyStrategy``, this selects metadata built for it once and kept.
    public var requiresAllKeys = false
    /// Values handed to hooks and transformers in ``MappingContext/userInfo`` (a tenant, a locale, a
    /// clock); empty by default. Reading them costs nothing to models without hooks or transformers.
    ///
    /// ```swift
    /// var options = DecodingOptions.lenient
    /// options.userInfo = ["tenant": "a"]
    /// ```
    public var userInfo: [String: any Sendable] {
        get { references.userInfo }
        set { references = references.with { $0.userInfo = newValue } }
    }

    /// A Codable coder's date, data and float strategies for the mapped models of its decoding (set only
    /// by `ModelDecoder`'s Codable API, for a `JSONCodable` model); nil everywhere else.
    var codableStrategies: CodableValueStrategies? {
        get { references.codableStrategies }
        set {
            if newValue == nil && references.codableStrategies == nil { return }
            references = references.with { $0.codableStrategies = newValue }
        }
    }

    /// The options that hold references (closures, strings, a dictionary), in one immutable box: the
    /// options are copied several times per decode, and then cost one retain instead of one per field.
    private var references = References.none

    private final class References: Sendable {
        struct Fields {
            var dateStrategy: DateStrategy = .default
            var invalidValueHandler: (@Sendable (MappingError) -> Void)? = nil
            var keyStrategy: KeyStrategy? = nil
            var userInfo: [String: any Sendable] = [:]
            var codableStrategies: CodableValueStrategies? = nil
        }
        let dateStrategy: DateStrategy
        let invalidValueHandler: (@Sendable (MappingError) -> Void)?
        let keyStrategy: KeyStrategy?
        let userInfo: [String: any Sendable]
        let codableStrategies: CodableValueStrategies?

        static let none = References(Fields())

        init(_ fields: Fields) {
            dateStrategy = fields.dateStrategy
            invalidValueHandler = fields.invalidValueHandler
            keyStrategy = fields.keyStrategy
            userInfo = fields.userInfo
            codableStrategies = fields.codableStrategies
        }

        /// A new box with `change` applied.
        func with(_ change: (inout Fields) -> Void) -> References {
            var fields = Fields(dateStrategy: dateStrategy, invalidValueHandler: invalidValueHandler,
                                keyStrategy: keyStrategy, userInfo: userInfo, codableStrategies: codableStrategies)
            change(&fields)
            return References(fields)
        }
    }

    /// Creates options.
    public init(conversion: Conversion = .lenient, dateStrategy: DateStrategy = .default,
                depthLimit: Int = DecodingOptions.defaultDepthLimit, wrapsSingleValues: Bool = false,
                invalidValueHandler: (@Sendable (MappingError) -> Void)? = nil) {
        self.conversion = conversion
        self.depthLimit = depthLimit
        self.wrapsSingleValues = wrapsSingleValues
        if case .default = dateStrategy, invalidValueHandler == nil { return }
        references = References(.init(dateStrategy: dateStrategy, invalidValueHandler: invalidValueHandler))
    }

    /// Lossless conversions across JSON types (default).
    public static let lenient = DecodingOptions(conversion: .lenient)
    /// Only the matching JSON type.
    public static let strict = DecodingOptions(conversion: .strict)

    /// These options with another date strategy.
    public func dates(_ strategy: DateStrategy) -> DecodingOptions {
        var copy = self
        copy.dateStrategy = strategy
        return copy
    }

    /// These options, keeping current values for unconvertible properties and reporting each error.
    public func skippingInvalidValues(_ handler: @escaping @Sendable (MappingError) -> Void) -> DecodingOptions {
        var copy = self
        copy.invalidValueHandler = handler
        return copy
    }
}

/// How dates are read and written.
public enum DateStrategy: Sendable, Hashable {
    /// Every format YYModel reads (`yyyy-MM-dd`, `yyyy-MM-dd'T'HH:mm:ss` with optional `.SSS` and zone
    /// `Z`/`+08:00`/`+0800`, `EEE MMM dd HH:mm:ss Z yyyy` as Twitter and Weibo send it), plus numbers as
    /// seconds since 1970. Strings without a zone are UTC. Written as ISO 8601 in UTC.
    case `default`
    /// ISO 8601 / RFC 3339 date-time with zone (fraction optional).
    case iso8601
    /// A number of seconds since 1970-01-01T00:00:00Z.
    case secondsSince1970
    /// A number of milliseconds since 1970-01-01T00:00:00Z.
    case millisecondsSince1970
    /// A Unicode date pattern such as `"dd/MM/yyyy HH:mm"` (UTC unless the pattern has a zone).
    case formatted(String)
    /// A custom conversion from the JSON value (dates written as ISO 8601), made by
    /// ``custom(_:)-swift.type.method``. Like ``KeyStrategy/custom(_:)-swift.enum.case``, the closure is boxed when
    /// the strategy is made: one strategy value is one strategy wherever it is passed, two made separately
    /// are two.
    case custom(Transform)

    /// A custom strategy: `transform` makes the date from the JSON value.
    public static func custom(_ transform: @escaping @Sendable (JSONValue) throws -> Date) -> DateStrategy {
        .custom(Transform(transform))
    }

    /// The function of a ``DateStrategy/custom(_:)-swift.enum.case`` strategy, boxed when the strategy is made: its
    /// identity is the strategy's. Call it as a function (`try transform(value)`).
    public final class Transform: Sendable, Hashable {
        let body: @Sendable (JSONValue) throws -> Date

        init(_ body: @escaping @Sendable (JSONValue) throws -> Date) { self.body = body }

        /// The date for `value`.
        public func callAsFunction(_ value: JSONValue) throws -> Date { try body(value) }

        /// The same box: strategies made separately are different even when their closures are the same.
        public static func == (lhs: Transform, rhs: Transform) -> Bool { lhs === rhs }

        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }
}
