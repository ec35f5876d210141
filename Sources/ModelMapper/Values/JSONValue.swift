import Foundation

/// Any JSON document or fragment, owned, with numbers kept lossless (see ``JSONNumber``).
///
/// A `JSONValue` property on a model takes whatever JSON sits at its key, as is.
///
/// Writing (``description``, `jsonData()`, encoding), hashing and comparing walk the value without
/// recursion, so any nesting works on any thread. Releasing cannot: Swift's runtime frees nested arrays
/// and objects recursively (about 140 bytes of stack per level), so the library builds no value nested
/// deeper than ``maximumDepth`` (parsing refuses it with `.depthLimit`, whatever the options' depth
/// limit), and a value built in code should not nest much deeper either.
public enum JSONValue: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its literal text (`1.10` stays `1.10`; see ``JSONNumber``).
    case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array, in document order.
    case array([JSONValue])
    /// An object, its members in document order (a duplicate key keeps the last value).
    case object(JSONObject)

    /// The deepest nesting of arrays and objects in a value the library builds (1,000): releasing a value
    /// that deep takes about 140 KB of stack in Swift's runtime, which a 512 KiB thread has to spare.
    /// Parsing deeper input (``init(json:depthLimit:)``, a `JSONValue` or `Any` property, a transformer's
    /// input) throws `.depthLimit` even when the depth limit is raised above it.
    public static var maximumDepth: Int { 1_000 }

    /// The member `key` of an object, or nil (also when this is not an object).
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array, or nil (also when out of bounds or not an array).
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The exact integer, when this is a number that is an integer in `Int`'s range.
    public var intValue: Int? {
        if case .number(let n) = self { return n.intValue }
        return nil
    }

    /// The number rounded to `Double`, when this is a number that does not overflow.
    public var doubleValue: Double? {
        if case .number(let n) = self { return n.doubleValue }
        return nil
    }

    /// The Boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number, when this is a number.
    public var numberValue: JSONNumber? {
        if case .number(let n) = self { return n }
        return nil
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The object, when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The JSON type's name, for messages ("a string", "an object").
    var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Compact JSON text. Numbers print their literal text.
    public var description: String {
        var writer = JSONWriter(layout: .init())
        writer.write(self)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Hashes the value (equal values, as `==` compares them, hash alike: an object's members in any
    /// order). Iterative, like every walk over a `JSONValue` here: see ``maximumDepth``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(digest())
    }

    /// A hash of the whole value, computed bottom-up with the open containers on an explicit stack: an
    /// array's digest combines its elements' in order, an object's the sum of its members' (key and
    /// value digest), so that member order does not count.
    private func digest() -> Int {
        var open: [DigestFrame] = []
        var current = self
        var key: String? = nil  // `current`'s key in its object
        while true {
            switch current {
            case .array(let elements) where !elements.isEmpty:
                open.append(DigestFrame(Members(elements), tag: 4, count: elements.count, key: key))
            case .object(let object) where !object.isEmpty:
                open.append(DigestFrame(Members(object), tag: 5, count: object.count, key: key))
            default:
                var result = current.leafDigest
                // Hand the digest to its container, and each container finished so to its own.
                while true {
                    guard let last = open.indices.last else { return result }
                    open[last].absorb(result, key: key)
                    if open[last].members.hasNext { break }
                    let done = open.removeLast()
                    result = done.finish()
                    key = done.key
                }
            }
            let (_, nextKey, next) = open[open.count - 1].members.next()!
            (current, key) = (next, nextKey)
        }
    }

    /// The digest of a scalar or an empty container.
    private var leafDigest: Int {
        var h = Hasher()
        switch self {
        case .null: h.combine(0)
        case .bool(let b): h.combine(1); h.combine(b)
        case .number(let n): h.combine(2); h.combine(n)
        case .string(let s): h.combine(3); h.combine(s)
        case .array(let a): h.combine(4); h.combine(a.count)
        case .object(let o): h.combine(5); h.combine(o.count)
        }
        return h.finalize()
    }

    /// A container whose digest is being computed.
    private struct DigestFrame {
        var members: Members
        var hasher = Hasher()
        /// Objects: the sum of the members' digests.
        var sum = 0
        /// The container's own key in its parent object.
        let key: String?

        init(_ members: Members, tag: Int, count: Int, key: String?) {
            self.members = members
            self.key = key
            hasher.combine(tag)
            hasher.combine(count)
        }

        mutating func absorb(_ digest: Int, key: String?) {
            if members.isObject {
                var member = Hasher()
                member.combine(key)
                member.combine(digest)
                sum &+= member.finalize()
            } else {
                hasher.combine(digest)
            }
        }

        consuming func finish() -> Int {
            if members.isObject { hasher.combine(sum) }
            return hasher.finalize()
        }
    }

    /// Whether two values are equal: the same type and value; arrays element by element; objects with the
    /// same keys and equal values, in any order. Iterative (see ``maximumDepth``).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = [(lhs, rhs)]
        while let (a, b) = pending.popLast() {
            switch (a, b) {
            case (.null, .null): continue
            case (.bool(let x), .bool(let y)): if x != y { return false }
            case (.number(let x), .number(let y)): if x != y { return false }
            case (.string(let x), .string(let y)): if x != y { return false }
            case (.array(let x), .array(let y)):
                guard x.count == y.count else { return false }
                pending.append(contentsOf: zip(x, y))
            case (.object(let x), .object(let y)):
                guard x.count == y.count else { return false }
                for (key, value) in x {
                    guard let other = y[key] else { return false }
                    pending.append((value, other))
                }
            default:
                return false
            }
        }
        return true
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = .number(JSONNumber(value)) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
}
