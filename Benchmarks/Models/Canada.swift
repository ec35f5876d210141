// Benchmark model types for canada.json (data/bench).
// Shape required by ModelMapper: struct, `var` stored properties with defaults, `init() {}`.
// Also: Codable (CodingKeys with the JSON keys) for JSONDecoder, and handwritten
// `init(dictionary:)` / `dictionary()` for the JSONSerialization "Manually" rows.

import Foundation

/// Root of canada.json (GeoJSON).
public struct CanadaFeatureCollection: Codable, Equatable {
    public var type: String = ""
    public var features: [CanadaFeature] = []

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type
        case features
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension CanadaFeatureCollection {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["type"] as? String { type = v }
        if let v = d["features"] as? [[String: Any]] { features = v.map { CanadaFeature(dictionary: $0) } }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["type"] = type
        d["features"] = features.map { $0.dictionary() }
        return d
    }
}

public struct CanadaFeature: Codable, Equatable {
    public var type: String = ""
    public var properties: CanadaProperties = CanadaProperties()
    public var geometry: CanadaGeometry = CanadaGeometry()

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type
        case properties
        case geometry
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension CanadaFeature {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["type"] as? String { type = v }
        if let v = d["properties"] as? [String: Any] { properties = CanadaProperties(dictionary: v) }
        if let v = d["geometry"] as? [String: Any] { geometry = CanadaGeometry(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 3)
        d["type"] = type
        d["properties"] = properties.dictionary()
        d["geometry"] = geometry.dictionary()
        return d
    }
}

public struct CanadaProperties: Codable, Equatable {
    public var name: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension CanadaProperties {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["name"] as? String { name = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 1)
        d["name"] = name
        return d
    }
}

/// A polygon: rings of [longitude, latitude] points.
public struct CanadaGeometry: Codable, Equatable {
    public var type: String = ""
    public var coordinates: [[[Double]]] = []

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type
        case coordinates
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension CanadaGeometry {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["type"] as? String { type = v }
        if let a = d["coordinates"] as? [Any] {
            coordinates = a.map { (($0 as? [Any]) ?? []).map { (($0 as? [Any]) ?? []).compactMap(manualDouble) } }
        }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["type"] = type
        d["coordinates"] = coordinates
        return d
    }
}

/// Number -> Double for the handwritten mappings. swift-corelibs-foundation's JSONSerialization returns
/// `NSDecimalNumber` for long literals (most of canada's coordinates, e.g. -65.613616999999977), and its
/// `doubleValue` is not correctly rounded (off by a few ulps). Rebuilding "<integer significand>e<exponent>" and
/// parsing that gives the same Double as JSONDecoder (and is ~8x faster than parsing `stringValue`).
private func manualDouble(_ value: Any?) -> Double? {
    guard let n = value as? NSDecimalNumber else { return value as? Double }
    let decimal = n.decimalValue
    let significand = decimal.significand
    let digits = NSDecimalNumber(decimal: significand).uint64Value
    guard Decimal(digits) == significand else { return Double(n.stringValue) }  // more than 19 digits
    return Double((decimal.sign == .minus ? "-" : "") + String(digits) + "e" + String(decimal.exponent))
}
