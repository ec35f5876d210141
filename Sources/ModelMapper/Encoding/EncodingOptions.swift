/// How models are written as JSON.
///
/// An option set (`[.sortedKeys, .prettyPrinted]`) that also carries the date strategy.
public struct EncodingOptions: OptionSet, Sendable {
    public let rawValue: Int
    /// How `Date` properties are written; ISO 8601 in UTC by default (fraction only when non-zero).
    public var dateStrategy: DateStrategy = .default

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Object keys in lexicographic order of their UTF-8 bytes (as JSONEncoder's `.sortedKeys`).
    public static let sortedKeys = EncodingOptions(rawValue: 1 << 0)
    /// Two-space indentation and one member per line.
    public static let prettyPrinted = EncodingOptions(rawValue: 1 << 1)
    /// Write `null` for nil optionals instead of omitting the key.
    public static let writesNulls = EncodingOptions(rawValue: 1 << 2)
    /// Same as ``writesNulls``.
    public static let nulls = writesNulls
    /// Escape `/` as `\/` (as JSONSerialization does by default); off by default.
    public static let escapesSlashes = EncodingOptions(rawValue: 1 << 3)

    /// Options with a date strategy.
    public static func dates(_ strategy: DateStrategy) -> EncodingOptions {
        var options = EncodingOptions()
        options.dateStrategy = strategy
        return options
    }
}
