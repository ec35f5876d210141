// Benchmark model types for citm_catalog.json (data/bench).
// Shape required by ModelMapper: struct, `var` stored properties with defaults, `init() {}`.
// Also: Codable (CodingKeys with the JSON keys) for JSONDecoder, and handwritten
// `init(dictionary:)` / `dictionary()` for the JSONSerialization "Manually" rows.

import Foundation

/// Root of citm_catalog.json. All keys are camelCase, so every multi-word property is in
/// `explicitKeys` (with `keyStrategy: .identity` none would be needed). Maps are keyed by id strings;
/// `blockNames` and `subjectNames` are empty in the data.
public struct CitmCatalog: Codable, Equatable {
    public var areaNames: [String: String] = [:]
    public var audienceSubCategoryNames: [String: String] = [:]
    public var blockNames: [String: String] = [:]
    public var events: [String: CitmEvent] = [:]
    public var performances: [CitmPerformance] = []
    public var seatCategoryNames: [String: String] = [:]
    public var subTopicNames: [String: String] = [:]
    public var subjectNames: [String: String] = [:]
    public var topicNames: [String: String] = [:]
    public var topicSubTopics: [String: [Int]] = [:]
    public var venueNames: [String: String] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case areaNames
        case audienceSubCategoryNames
        case blockNames
        case events
        case performances
        case seatCategoryNames
        case subTopicNames
        case subjectNames
        case topicNames
        case topicSubTopics
        case venueNames
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "areaNames": "areaNames",
        "audienceSubCategoryNames": "audienceSubCategoryNames",
        "blockNames": "blockNames",
        "seatCategoryNames": "seatCategoryNames",
        "subTopicNames": "subTopicNames",
        "subjectNames": "subjectNames",
        "topicNames": "topicNames",
        "topicSubTopics": "topicSubTopics",
        "venueNames": "venueNames",
    ]
}

extension CitmCatalog {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["areaNames"] as? [String: String] { areaNames = v }
        if let v = d["audienceSubCategoryNames"] as? [String: String] { audienceSubCategoryNames = v }
        if let v = d["blockNames"] as? [String: String] { blockNames = v }
        if let v = d["events"] as? [String: [String: Any]] { events = v.mapValues { CitmEvent(dictionary: $0) } }
        if let v = d["performances"] as? [[String: Any]] { performances = v.map { CitmPerformance(dictionary: $0) } }
        if let v = d["seatCategoryNames"] as? [String: String] { seatCategoryNames = v }
        if let v = d["subTopicNames"] as? [String: String] { subTopicNames = v }
        if let v = d["subjectNames"] as? [String: String] { subjectNames = v }
        if let v = d["topicNames"] as? [String: String] { topicNames = v }
        if let v = d["topicSubTopics"] as? [String: [Int]] { topicSubTopics = v }
        if let v = d["venueNames"] as? [String: String] { venueNames = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 11)
        d["areaNames"] = areaNames
        d["audienceSubCategoryNames"] = audienceSubCategoryNames
        d["blockNames"] = blockNames
        d["events"] = events.mapValues { $0.dictionary() }
        d["performances"] = performances.map { $0.dictionary() }
        d["seatCategoryNames"] = seatCategoryNames
        d["subTopicNames"] = subTopicNames
        d["subjectNames"] = subjectNames
        d["topicNames"] = topicNames
        d["topicSubTopics"] = topicSubTopics
        d["venueNames"] = venueNames
        return d
    }
}

/// `description`, `subjectCode`, `subtitle` are always null in the data.
public struct CitmEvent: Codable, Equatable {
    public var description: String? = nil
    public var id: Int = 0
    public var logo: String? = nil
    public var name: String = ""
    public var subTopicIds: [Int] = []
    public var subjectCode: String? = nil
    public var subtitle: String? = nil
    public var topicIds: [Int] = []

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case description
        case id
        case logo
        case name
        case subTopicIds
        case subjectCode
        case subtitle
        case topicIds
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "subTopicIds": "subTopicIds",
        "subjectCode": "subjectCode",
        "topicIds": "topicIds",
    ]
}

extension CitmEvent {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        description = d["description"] as? String
        if let v = d["id"] as? Int { id = v }
        logo = d["logo"] as? String
        if let v = d["name"] as? String { name = v }
        if let v = d["subTopicIds"] as? [Int] { subTopicIds = v }
        subjectCode = d["subjectCode"] as? String
        subtitle = d["subtitle"] as? String
        if let v = d["topicIds"] as? [Int] { topicIds = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 8)
        if let v = description { d["description"] = v }
        d["id"] = id
        if let v = logo { d["logo"] = v }
        d["name"] = name
        d["subTopicIds"] = subTopicIds
        if let v = subjectCode { d["subjectCode"] = v }
        if let v = subtitle { d["subtitle"] = v }
        d["topicIds"] = topicIds
        return d
    }
}

/// `name` and `seatMapImage` are always null in the data; `start` is milliseconds since 1970.
public struct CitmPerformance: Codable, Equatable {
    public var eventId: Int = 0
    public var id: Int = 0
    public var logo: String? = nil
    public var name: String? = nil
    public var prices: [CitmPrice] = []
    public var seatCategories: [CitmSeatCategory] = []
    public var seatMapImage: String? = nil
    public var start: Int64 = 0
    public var venueCode: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case eventId
        case id
        case logo
        case name
        case prices
        case seatCategories
        case seatMapImage
        case start
        case venueCode
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "eventId": "eventId",
        "seatCategories": "seatCategories",
        "seatMapImage": "seatMapImage",
        "venueCode": "venueCode",
    ]
}

extension CitmPerformance {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["eventId"] as? Int { eventId = v }
        if let v = d["id"] as? Int { id = v }
        logo = d["logo"] as? String
        name = d["name"] as? String
        if let v = d["prices"] as? [[String: Any]] { prices = v.map { CitmPrice(dictionary: $0) } }
        if let v = d["seatCategories"] as? [[String: Any]] { seatCategories = v.map { CitmSeatCategory(dictionary: $0) } }
        seatMapImage = d["seatMapImage"] as? String
        if let v = d["start"] as? Int64 { start = v }
        if let v = d["venueCode"] as? String { venueCode = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 9)
        d["eventId"] = eventId
        d["id"] = id
        if let v = logo { d["logo"] = v }
        if let v = name { d["name"] = v }
        d["prices"] = prices.map { $0.dictionary() }
        d["seatCategories"] = seatCategories.map { $0.dictionary() }
        if let v = seatMapImage { d["seatMapImage"] = v }
        d["start"] = start
        d["venueCode"] = venueCode
        return d
    }
}

public struct CitmPrice: Codable, Equatable {
    public var amount: Int = 0
    public var audienceSubCategoryId: Int = 0
    public var seatCategoryId: Int = 0

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case amount
        case audienceSubCategoryId
        case seatCategoryId
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "audienceSubCategoryId": "audienceSubCategoryId",
        "seatCategoryId": "seatCategoryId",
    ]
}

extension CitmPrice {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["amount"] as? Int { amount = v }
        if let v = d["audienceSubCategoryId"] as? Int { audienceSubCategoryId = v }
        if let v = d["seatCategoryId"] as? Int { seatCategoryId = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 3)
        d["amount"] = amount
        d["audienceSubCategoryId"] = audienceSubCategoryId
        d["seatCategoryId"] = seatCategoryId
        return d
    }
}

public struct CitmSeatCategory: Codable, Equatable {
    public var areas: [CitmArea] = []
    public var seatCategoryId: Int = 0

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case areas
        case seatCategoryId
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "seatCategoryId": "seatCategoryId",
    ]
}

extension CitmSeatCategory {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["areas"] as? [[String: Any]] { areas = v.map { CitmArea(dictionary: $0) } }
        if let v = d["seatCategoryId"] as? Int { seatCategoryId = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["areas"] = areas.map { $0.dictionary() }
        d["seatCategoryId"] = seatCategoryId
        return d
    }
}

/// `blockIds` is always empty in the data.
public struct CitmArea: Codable, Equatable {
    public var areaId: Int = 0
    public var blockIds: [Int] = []

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case areaId
        case blockIds
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "areaId": "areaId",
        "blockIds": "blockIds",
    ]
}

extension CitmArea {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["areaId"] as? Int { areaId = v }
        if let v = d["blockIds"] as? [Int] { blockIds = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["areaId"] = areaId
        d["blockIds"] = blockIds
        return d
    }
}
