// Unsafe code: only `withLiteralBytes`, which lends the literal's UTF-8 (`withUTF8` of a copy of `text`) to
// `NumberParsing` as an `UnsafeRawBufferPointer`. The buffer is valid during `body` only; every caller
// returns a parsed value (a flag, an integer, a `Double`, a `Decimal`), never the pointer.

import Foundation

/// A JSON number that keeps its literal text, so nothing is lost: integers beyond 64 bits, `-0`, `1e400`
/// and 10000-digit literals survive a round trip exactly.
///
/// The accessors convert on demand and return `nil` rather than a rounded or truncated value when the
/// number does not fit the requested type exactly (``doubleValue`` rounds to nearest, as `strtod` does).
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
{
    /// The number's literal text, as it appeared in the JSON (or as produced by the initializer).
    public let text: String

    /// Wraps a literal as it appeared in JSON. The text is not validated; encoding an invalid literal
    /// fails with ``MappingError/Kind/invalidValue``.
    public init(text: String) { self.text = text }

    /// A number from an integer.
    public init(_ value: Int) { text = String(value) }
    /// A number from a 64-bit integer.
    public init(_ value: Int64) { text = String(value) }
    /// A number from an unsigned 64-bit integer.
    public init(_ value: UInt64) { text = String(value) }
    /// A number from a `Double`, in its shortest round-trip form (`8.8` stays `8.8`).
    /// NaN and infinity have no JSON form; encoding such a number fails.
    public init(_ value: Double) { text = value.description }
    /// A number from a `Decimal`, exactly.
    public init(_ value: Decimal) { text = value.description }

    public init(integerLiteral value: Int) { self.init(value) }
    public init(floatLiteral value: Double) { self.init(value) }

    public var description: String { text }

    /// Whether the text is a valid JSON number literal.
    public var isValidJSON: Bool { withLiteralBytes { NumberParsing.isJSONNumber($0) } }

    /// The exact value as `Int64`, or nil when it is not an integer in range (`2.0` and `1e2` are integers).
    public var int64Value: Int64? { withLiteralBytes { NumberParsing.int64($0) } }
    /// The exact value as `UInt64`, or nil when it is not a non-negative integer in range.
    public var uint64Value: UInt64? { withLiteralBytes { NumberParsing.uint64($0) } }
    /// The exact value as `Int`, or nil when it is not an integer in range.
    public var intValue: Int? { int64Value.flatMap { Int(exactly: $0) } }
    /// The value correctly rounded to `Double`, or nil when it overflows.
    public var doubleValue: Double? { withLiteralBytes { NumberParsing.double($0) } }
    /// The exact value as `Decimal`, or nil when the literal has more precision than `Decimal` holds.
    public var decimalValue: Decimal? { withLiteralBytes { NumberParsing.decimal($0) } }

    func withLiteralBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        var copy = text
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// Numbers are equal when their texts are equal or when they denote the same value exactly
    /// (`1`, `1.0` and `1e0`).
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if lhs.text == rhs.text { return true }
        if let a = lhs.decimalValue, let b = rhs.decimalValue { return a == b }
        return false
    }

    public func hash(into hasher: inout Hasher) {
        if let d = decimalValue { hasher.combine(d) } else { hasher.combine(text) }
    }
}
