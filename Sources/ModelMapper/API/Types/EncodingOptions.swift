/// How models are written as JSON.
///
/// An option set (`[.sortedKeys, .prettyPrinted]`) that also carries the date strategy.
public struct EncodingOptions: OptionSet, Sendable {
    public private(set) var rawValue: Int
    /// How `Date` properties are written; ISO 8601 in UTC by default (fraction only when non-zero).
    public var dateStrategy: DateStrategy = .default
    /// The key strategy of every model whose ``ModelMapping/keyStrategy`` is nil (JSONEncoder's
    /// `keyEncodingStrategy`); nil: `.identity`. `[.sortedKeys, .keys(.snakeCase)]` sets it too.
    public var keyStrategy: KeyStrategy? = nil
    /// Values handed to encoding hooks and transformers in ``MappingContext/userInfo``; empty by default.
    /// Like the strategies, kept by the set algebra, and taken from the other side of a union when empty.
    public var userInfo: [String: any Sendable] = [:]

    public init(rawValue: Int) { self.rawValue = rawValue }

    // MARK: Set algebra that keeps the date strategy
    //
    // OptionSet's default implementations rebuild the value from `rawValue` alone, which would reset the
    // strategy: here `options.subtracting(.prettyPrinted)`, `options.insert(.sortedKeys)` and the rest keep
    // `options.dateStrategy`, `keyStrategy` and `userInfo`, and a union also takes the other side's strategies when
    // this one's are `.default` / nil (so `[.sortedKeys, .dates(.iso8601), .keys(.snakeCase)]` has them).

    public mutating func formUnion(_ other: EncodingOptions) {
        rawValue |= other.rawValue
        if case .default = dateStrategy { dateStrategy = other.dateStrategy }
        if keyStrategy == nil { keyStrategy = other.keyStrategy }
        if userInfo.isEmpty { userInfo = other.userInfo }
    }

    public mutating func formIntersection(_ other: EncodingOptions) { rawValue &= other.rawValue }

    public mutating func formSymmetricDifference(_ other: EncodingOptions) { rawValue ^= other.rawValue }

    public mutating func subtract(_ other: EncodingOptions) { rawValue &= ~other.rawValue }

    public func union(_ other: EncodingOptions) -> EncodingOptions {
        var result = self
        result.formUnion(other)
        return result
    }

    public func intersection(_ other: EncodingOptions) -> EncodingOptions {
        var result = self
        result.formIntersection(other)
        return result
    }

    public func symmetricDifference(_ other: EncodingOptions) -> EncodingOptions {
        var result = self
        result.formSymmetricDifference(other)
        return result
    }

    public func subtracting(_ other: EncodingOptions) -> EncodingOptions {
        var result = self
        result.subtract(other)
        return result
    }

    @discardableResult
    public mutating func insert(_ newMember: EncodingOptions) -> (inserted: Bool, memberAfterInsert: EncodingOptions) {
        let inserted = rawValue & newMember.rawValue != newMember.rawValue
        formUnion(newMember)
        return (inserted, newMember)
    }

    @discardableResult
    public mutating func remove(_ member: EncodingOptions) -> EncodingOptions? {
        let present = rawValue & member.rawValue
        subtract(member)
        return present == 0 ? nil : EncodingOptions(rawValue: present)
    }

    @discardableResult
    public mutating func update(with newMember: EncodingOptions) -> EncodingOptions? {
        let present = rawValue & newMember.rawValue
        formUnion(newMember)
        return present == 0 ? nil : EncodingOptions(rawValue: present)
    }

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

    /// Options with a default key strategy (``keyStrategy``).
    public static func keys(_ strategy: KeyStrategy) -> EncodingOptions {
        var options = EncodingOptions()
        options.keyStrategy = strategy
        return options
    }

    /// Options with a date strategy.
    public static func dates(_ strategy: DateStrategy) -> EncodingOptions {
        var options = EncodingOptions()
        options.dateStrategy = strategy
        return options
    }
}

extension JSONWriter {
    /// A writer laid out as `options` say (pretty printing, sorted keys, escaped slashes).
    init(options: EncodingOptions, capacity: Int = 256) {
        self.init(layout: Layout(prettyPrinted: options.contains(.prettyPrinted),
                                 sortedKeys: options.contains(.sortedKeys),
                                 escapesSlashes: options.contains(.escapesSlashes)),
                  capacity: capacity)
    }
}
