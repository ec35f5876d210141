/// A JSON object: key/value pairs in document order.
///
/// Keys are unique: assigning an existing key replaces its value in place, and a parsed document with a
/// duplicate key keeps the last value (as most parsers do). Lookup is linear for small objects and
/// hashed once an object grows past a few keys, so hostile documents with many keys stay linear.
/// Equality ignores order, as JSON's data model does.
public struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    private var storedKeys: [String] = []
    private var storedValues: [JSONValue] = []
    /// Key -> position, maintained once the object has more than `indexThreshold` keys.
    private var index: [String: Int]? = nil
    private static var indexThreshold: Int { 12 }

    /// An empty object.
    public init() {}

    /// An object from pairs in order; a repeated key keeps its last value at its first position.
    public init<S: Sequence>(_ pairs: S) where S.Element == (String, JSONValue) {
        for (key, value) in pairs { self[key] = value }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The keys in order.
    public var keys: [String] { storedKeys }
    /// The values in key order.
    public var values: [JSONValue] { storedValues }
    /// The number of keys.
    public var count: Int { storedKeys.count }
    /// Whether the object has no keys.
    public var isEmpty: Bool { storedKeys.isEmpty }

    /// The position of `key`, if present.
    public func position(of key: String) -> Int? {
        if let index { return index[key] }
        return storedKeys.firstIndex(of: key)
    }

    /// The value for `key`; setting `nil` removes the key, setting a value replaces or appends it.
    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { storedValues[$0] } }
        set {
            if let newValue {
                if let i = position(of: key) {
                    storedValues[i] = newValue
                } else {
                    storedKeys.append(key)
                    storedValues.append(newValue)
                    if index != nil {
                        index![key] = storedKeys.count - 1
                    } else if storedKeys.count > Self.indexThreshold {
                        rebuildIndex()
                    }
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Removes `key` and returns its value, if present.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let i = position(of: key) else { return nil }
        storedKeys.remove(at: i)
        let value = storedValues.remove(at: i)
        if index != nil { rebuildIndex() }
        return value
    }

    private mutating func rebuildIndex() {
        var map = [String: Int](minimumCapacity: storedKeys.count)
        for (i, key) in storedKeys.enumerated() { map[key] = i }
        index = map
    }

    /// Appends a pair known not to be present yet (used by the parser after its own duplicate check).
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        storedKeys.append(key)
        storedValues.append(value)
        if index != nil {
            index![key] = storedKeys.count - 1
        } else if storedKeys.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    mutating func reserveCapacity(_ n: Int) {
        storedKeys.reserveCapacity(n)
        storedValues.reserveCapacity(n)
    }

    public func makeIterator() -> Zip2Sequence<[String], [JSONValue]>.Iterator {
        zip(storedKeys, storedValues).makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (key, value) in lhs where rhs[key] != value { return false }
        return true
    }

    public var description: String { JSONValue.object(self).description }
}
