/// How models are written as JSON.
///
/// An option set (`[.sortedKeys, .prettyPrinted, .dates(.iso8601), .keys(.snakeCase)]`) of flags and of
/// strategies: a date strategy, a key strategy and `userInfo` are members like the flags, so equality and
/// `contains` see them (`.dates(.iso8601) != []`).
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

    // MARK: Set algebra over the flags and the strategies
    //
    // The options are a set of flags (`rawValue`) and of at most one date strategy, one key strategy and one
    // `userInfo`: a strategy that is not the default (`.default`, nil, empty) is a member like a flag. So
    // `.dates(.iso8601) != []`, `.keys(.snakeCase).contains(.keys(.kebabCase))` is false, and the operations
    // below keep the strategies (OptionSet's default implementations rebuild the value from `rawValue` alone,
    // which would drop them). Strategies are the same when they have the same case and arguments; a
    // `.custom` one is the same only as the same closure value. `userInfo` values are compared as
    // `AnyHashable` when they are `Hashable`, else by their `String(reflecting:)`.

    public static func == (lhs: EncodingOptions, rhs: EncodingOptions) -> Bool {
        lhs.rawValue == rhs.rawValue && lhs.dateStrategy.isSame(as: rhs.dateStrategy)
            && KeyStrategy.isSame(lhs.keyStrategy, rhs.keyStrategy) && Self.userInfo(lhs.userInfo, equals: rhs.userInfo)
    }

    /// Whether every flag of `member` is set here and every strategy `member` carries is this one's.
    public func contains(_ member: EncodingOptions) -> Bool {
        rawValue & member.rawValue == member.rawValue
            && (member.dateStrategy.isDefault || dateStrategy.isSame(as: member.dateStrategy))
            && (member.keyStrategy == nil || KeyStrategy.isSame(keyStrategy, member.keyStrategy))
            && member.userInfo.allSatisfy { key, value in userInfo[key].map { Self.value($0, equals: value) } ?? false }
    }

    public func isSubset(of other: EncodingOptions) -> Bool { other.contains(self) }

    public func isSuperset(of other: EncodingOptions) -> Bool { contains(other) }

    public func isDisjoint(with other: EncodingOptions) -> Bool { intersection(other).isEmpty }

    public var isEmpty: Bool { self == EncodingOptions() }

    /// A union takes the other side's strategies where this one has none (its own win where both have one).
    public mutating func formUnion(_ other: EncodingOptions) {
        rawValue |= other.rawValue
        if dateStrategy.isDefault { dateStrategy = other.dateStrategy }
        if keyStrategy == nil { keyStrategy = other.keyStrategy }
        if userInfo.isEmpty { userInfo = other.userInfo }
    }

    /// An intersection keeps a strategy both sides have.
    public mutating func formIntersection(_ other: EncodingOptions) {
        rawValue &= other.rawValue
        if !dateStrategy.isSame(as: other.dateStrategy) { dateStrategy = .default }
        if !KeyStrategy.isSame(keyStrategy, other.keyStrategy) { keyStrategy = nil }
        if !Self.userInfo(userInfo, equals: other.userInfo) { userInfo = [:] }
    }

    /// A symmetric difference keeps a strategy one side has; where both have the same one it goes, where
    /// they differ this side's stays (one value has room for one strategy).
    public mutating func formSymmetricDifference(_ other: EncodingOptions) {
        rawValue ^= other.rawValue
        if dateStrategy.isSame(as: other.dateStrategy) { dateStrategy = .default } else if dateStrategy.isDefault { dateStrategy = other.dateStrategy }
        if KeyStrategy.isSame(keyStrategy, other.keyStrategy) { keyStrategy = nil } else if keyStrategy == nil { keyStrategy = other.keyStrategy }
        if Self.userInfo(userInfo, equals: other.userInfo) { userInfo = [:] } else if userInfo.isEmpty { userInfo = other.userInfo }
    }

    /// Subtracting removes the flags of `other` and each strategy of `other` that this one has.
    public mutating func subtract(_ other: EncodingOptions) {
        rawValue &= ~other.rawValue
        if !other.dateStrategy.isDefault && dateStrategy.isSame(as: other.dateStrategy) { dateStrategy = .default }
        if other.keyStrategy != nil && KeyStrategy.isSame(keyStrategy, other.keyStrategy) { keyStrategy = nil }
        if !other.userInfo.isEmpty && Self.userInfo(userInfo, equals: other.userInfo) { userInfo = [:] }
    }

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
        if contains(newMember) { return (false, newMember) }
        // Where both carry a strategy this one's stays, as in a union: then `newMember` is not a member.
        formUnion(newMember)
        return (contains(newMember), newMember)
    }

    @discardableResult
    public mutating func remove(_ member: EncodingOptions) -> EncodingOptions? {
        let present = intersection(member)
        subtract(member)
        return present.isEmpty ? nil : present
    }

    @discardableResult
    public mutating func update(with newMember: EncodingOptions) -> EncodingOptions? {
        // Unlike a union, the new member's strategies replace this one's.
        let present = intersection(newMember)
        rawValue |= newMember.rawValue
        if !newMember.dateStrategy.isDefault { dateStrategy = newMember.dateStrategy }
        if let strategy = newMember.keyStrategy { keyStrategy = strategy }
        if !newMember.userInfo.isEmpty { userInfo = newMember.userInfo }
        return present.isEmpty ? nil : present
    }

    private static func userInfo(_ a: [String: any Sendable], equals b: [String: any Sendable]) -> Bool {
        a.count == b.count && a.allSatisfy { key, value in b[key].map { Self.value($0, equals: value) } ?? false }
    }

    private static func value(_ a: any Sendable, equals b: any Sendable) -> Bool {
        if let a = a as? any Hashable, let b = b as? any Hashable { return AnyHashable(a) == AnyHashable(b) }
        return String(reflecting: a) == String(reflecting: b)
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
