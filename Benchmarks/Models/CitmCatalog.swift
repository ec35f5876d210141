// Benchmark model types for citm_catalog.json (shared/data/bench).
// Shape required by ModelMapper: struct, `var` stored properties with defaults, `init() {}`.
// Also: Codable (CodingKeys with the JSON keys) for JSONDecoder, and handwritten
// `init(dictionary:)` / `dictionary()` for the JSONSerialization "Manually" rows.

import Foundation

/// Root of citm_catalog.json. All keys are camelCase, so every multi-word property is in
/// `explicitKeys` (with `keyStrategy: .identity` none would be needed). Maps are keyed by id strings;
/// `blockNames` and `subjectNames` are empty in the data.
struct CitmCatalog: Codable, Equatable {
    var areaNames: [String: String] = [:]
    var audienceSubCategoryNames: [String: String] = [:]
    var blockNames: [String: String] = [:]
    var events: [String: CitmEvent] = [:]
    var performances: [CitmPerformance] = []
    var seatCategoryNames: [String: String] = [:]
    var subTopicNames: [String: String] = [:]
    var subjectNames: [String: String] = [:]
    var topicNames: [String: String] = [:]
    var topicSubTopics: [String: [Int]] = [:]
    var venueNames: [String: String] = [:]

    init() {}

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
    static let explicitKeys: [String: String] = [
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
    init(dictionary d: [String: Any]) {
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
    func dictionary() -> [String: Any] {
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
struct CitmEvent: Codable, Equatable {
    var description: String? = nil
    var id: Int = 0
    var logo: String? = nil
    var name: String = ""
    var subTopicIds: [Int] = []
    var subjectCode: String? = nil
    var subtitle: String? = nil
    var topicIds: [Int] = []

    init() {}

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
    static let explicitKeys: [String: String] = [
        "subTopicIds": "subTopicIds",
        "subjectCode": "subjectCode",
        "topicIds": "topicIds",
    ]
}

extension CitmEvent {
    /// Handwritten mapping from `JSONSerialization` output.
    init(dictionary d: [String: Any]) {
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
    func dictionary() -> [String: Any] {
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
struct CitmPerformance: Codable, Equatable {
    var eventId: Int = 0
    var id: Int = 0
    var logo: String? = nil
    var name: String? = nil
    var prices: [CitmPrice] = []
    var seatCategories: [CitmSeatCategory] = []
    var seatMapImage: String? = nil
    var start: Int64 = 0
    var venueCode: String = ""

    init() {}

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
    static let explicitKeys: [String: String] = [
        "eventId": "eventId",
        "seatCategories": "seatCategories",
        "seatMapImage": "seatMapImage",
        "venueCode": "venueCode",
    ]
}

extension CitmPerformance {
    /// Handwritten mapping from `JSONSerialization` output.
    init(dictionary d: [String: Any]) {
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
    func dictionary() -> [String: Any] {
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

struct CitmPrice: Codable, Equatable {
    var amount: Int = 0
    var audienceSubCategoryId: Int = 0
    var seatCategoryId: Int = 0

    init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case amount
        case audienceSubCategoryId
        case seatCategoryId
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    static let explicitKeys: [String: String] = [
        "audienceSubCategoryId": "audienceSubCategoryId",
        "seatCategoryId": "seatCategoryId",
    ]
}

extension CitmPrice {
    /// Handwritten mapping from `JSONSerialization` output.
    init(dictionary d: [String: Any]) {
        if let v = d["amount"] as? Int { amount = v }
        if let v = d["audienceSubCategoryId"] as? Int { audienceSubCategoryId = v }
        if let v = d["seatCategoryId"] as? Int { seatCategoryId = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 3)
        d["amount"] = amount
        d["audienceSubCategoryId"] = audienceSubCategoryId
        d["seatCategoryId"] = seatCategoryId
        return d
    }
}

struct CitmSeatCategory: Codable, Equatable {
    var areas: [CitmArea] = []
    var seatCategoryId: Int = 0

    init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case areas
        case seatCategoryId
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    static let explicitKeys: [String: String] = [
        "seatCategoryId": "seatCategoryId",
    ]
}

extension CitmSeatCategory {
    /// Handwritten mapping from `JSONSerialization` output.
    init(dictionary d: [String: Any]) {
        if let v = d["areas"] as? [[String: Any]] { areas = v.map { CitmArea(dictionary: $0) } }
        if let v = d["seatCategoryId"] as? Int { seatCategoryId = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["areas"] = areas.map { $0.dictionary() }
        d["seatCategoryId"] = seatCategoryId
        return d
    }
}

/// `blockIds` is always empty in the data.
struct CitmArea: Codable, Equatable {
    var areaId: Int = 0
    var blockIds: [Int] = []

    init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case areaId
        case blockIds
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    static let explicitKeys: [String: String] = [
        "areaId": "areaId",
        "blockIds": "blockIds",
    ]
}

extension CitmArea {
    /// Handwritten mapping from `JSONSerialization` output.
    init(dictionary d: [String: Any]) {
        if let v = d["areaId"] as? Int { areaId = v }
        if let v = d["blockIds"] as? [Int] { blockIds = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["areaId"] = areaId
        d["blockIds"] = blockIds
        return d
    }
}
