// Unsafe code: only `date(format:)`'s decode closure, which lends the string's UTF-8 (`withUTF8`) to
// `DateParsing.parseFormatted` as an `UnsafeRawBufferPointer`; the buffer is valid during that call and the
// parser returns a `Date`, not a pointer, so nothing can outlive it (no assert needed).

import Foundation

/// A per-property conversion between JSON and the property's type, in both directions (Mantle's
/// `<key>JSONTransformer`, JSONModel's custom setters).
///
/// ```swift
/// static let mapping = ModelMapping(transformers: [
///     "state": .valueMap(["open": State.open, "closed": .closed]),
///     "day": .date(format: "dd/MM/yyyy"),
/// ])
/// ```
public struct JSONTransformer: Sendable {
    /// The property type the transformer produces and consumes.
    let valueType: Any.Type
    let decodeBody: @Sendable (JSONValue, MappingContext) throws -> Any
    let encodeBody: @Sendable (Any, MappingContext) throws -> JSONValue

    /// A transformer for properties of type `T` (for an Optional property, `T` may be the wrapped type).
    public init<T>(
        _ type: T.Type = T.self,
        decode: @escaping @Sendable (JSONValue) throws -> T,
        encode: @escaping @Sendable (T) throws -> JSONValue
    ) {
        self.init(T.self, decodeInContext: { json, _ in try decode(json) }, encodeInContext: { value, _ in try encode(value) })
    }

    /// A transformer for properties of type `T` whose conversions see the mapping's context: the options'
    /// `userInfo` and the property's path.
    ///
    /// ```swift
    /// "price": JSONTransformer(Double.self, decodeInContext: { json, context in
    ///     (json.doubleValue ?? 0) * (context.userInfo["rate"] as? Double ?? 1)
    /// }, encodeInContext: { value, context in
    ///     .number(JSONNumber(value / (context.userInfo["rate"] as? Double ?? 1)))
    /// })
    /// ```
    public init<T>(
        _ type: T.Type = T.self,
        decodeInContext: @escaping @Sendable (JSONValue, MappingContext) throws -> T,
        encodeInContext: @escaping @Sendable (T, MappingContext) throws -> JSONValue
    ) {
        valueType = T.self
        decodeBody = { try decodeInContext($0, $1) }
        encodeBody = { value, context in
            guard let typed = value as? T else {
                throw MappingError(.unsupportedType, "transformer for \(T.self) received \(Swift.type(of: value))")
            }
            return try encodeInContext(typed, context)
        }
    }

    /// Maps JSON strings to values and back (for enums without raw values, or renamed raw values).
    /// An unknown string is an `.invalidValue` error unless `default` is given.
    public static func valueMap<T: Equatable & Sendable>(_ map: [String: T], default fallback: T? = nil) -> JSONTransformer {
        JSONTransformer(T.self, decode: { json in
            if let s = json.stringValue, let value = map[s] { return value }
            if let fallback { return fallback }
            throw MappingError(.invalidValue, "\(json) is not one of \(map.keys.sorted())")
        }, encode: { value in
            guard let key = map.first(where: { $0.value == value })?.key else {
                throw MappingError(.invalidValue, "\(value) has no JSON string in the value map")
            }
            return .string(key)
        })
    }

    /// Dates in one Unicode date pattern (`"dd/MM/yyyy HH:mm"`), parsed by hand in UTC unless the
    /// pattern has a zone field, and written in UTC.
    public static func date(format: String) -> JSONTransformer {
        date(format: format, timeZone: TimeZone(secondsFromGMT: 0)!)
    }

    /// Dates in one Unicode date pattern read and written in `timeZone` (Mantle's and JSONModel's date
    /// formatters with a `timeZone` set): `"September 25, 2015"` with `"MMMM d, yyyy"` in
    /// America/Los_Angeles is 2015-09-25T07:00:00Z, and that date is written back as that text. The
    /// zone's offset at each date applies (daylight saving included); a zone field in the pattern, when
    /// present, is read from the text and written with the zone's offset (`"-0700"`).
    ///
    /// ```swift
    /// "released": .date(format: "MMMM d, yyyy", timeZone: TimeZone(identifier: "America/Los_Angeles")!)
    /// ```
    public static func date(format: String, timeZone: TimeZone) -> JSONTransformer {
        let pattern = DateFormatPattern(format)
        // UTC by name needs no zone lookups (date(format:) and the zones that are UTC by definition).
        let zone: TimeZone? = ["GMT", "UTC"].contains(timeZone.identifier) ? nil : timeZone
        return JSONTransformer(Date.self, decode: { json in
            guard let pattern else { throw MappingError(.unsupportedType, "unsupported date pattern \"\(format)\"") }
            guard case .string(var text) = json else {
                throw MappingError(.typeMismatch, "expected a date string, found \(json.typeDescription)")
            }
            let date = text.withUTF8 { DateParsing.parseFormatted(UnsafeRawBufferPointer($0), format: pattern, timeZone: zone) }
            guard let date else { throw MappingError(.invalidValue, "\"\(text)\" does not match \"\(format)\"") }
            return date
        }, encode: { date in
            guard let pattern else { throw MappingError(.unsupportedType, "unsupported date pattern \"\(format)\"") }
            var bytes: [UInt8] = []
            DateFormatting.format(date, pattern: pattern, timeZone: zone, into: &bytes)
            return .string(String(decoding: bytes, as: UTF8.self))
        })
    }
}
