/// A raw-value enum that decodes raw values it does not know to a fallback case instead of failing
/// (for APIs that add cases over time).
///
/// ```swift
/// enum Status: String, JSONUnknownCaseRepresentable {
///     case active, closed, unknown
///     static var unknownCase: Status { .unknown }
/// }
/// // {"status": "archived"} decodes `status` as .unknown
/// ```
///
/// Only a raw value that reads as the raw type but names no case falls back; a value of the wrong JSON
/// type (an object for a `String` enum, or a number in `.strict` mode) is still an error. Each fallback is
/// passed to ``DecodingOptions/invalidValueHandler`` (kind `.invalidValue`, with path and position) when
/// one is installed, so nothing is replaced silently. An Optional enum still takes JSON null as nil.
/// Applies to properties, collection elements, and (for enums that are also `Decodable`) to values
/// decoded through `ModelDecoder`'s Codable entry points, where the raw value is decoded and
/// `init(rawValue:)` called as the synthesized `init(from:)` does. Encoding writes `unknownCase`'s raw
/// value. Conforming a type that is not a raw-value enum has no effect.
public protocol JSONUnknownCaseRepresentable {
    /// The case for raw values no case has.
    static var unknownCase: Self { get }
}
