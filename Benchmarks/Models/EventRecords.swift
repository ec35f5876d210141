// Models for data/events/events.jsonl (scripts/gen-events): the event records a server logs and reads
// back, one JSON object a line, ~770 bytes each, snake_case keys. Two shapes of the same fields:
//
// - `EventRecord` (and its nested types): CodingKeys spelling the JSON keys, for JSONDecoder and the Codable
//   path of ModelDecoder; also `JSONMappable` (ModelMapperConformances.swift: `.snakeCase`, no explicit
//   keys), the mapped model of the `events` suite.
// - `SnakeEventRecord` (and its nested types): camelCase properties with synthesized CodingKeys, Codable
//   only, for the `.convertFromSnakeCase` rows.
//
// What each record holds: a UUID, ISO 8601 dates with milliseconds (`.iso8601` for JSONDecoder and
// ModelDecoder, `DateStrategy.iso8601` for the mapped model), a raw-value enum, four nested objects,
// a `[String]`, a `[String: String]`, an optional string.

import Foundation

/// What happened (`kind`).
public enum EventKind: String, Codable, Equatable, Sendable {
    case pageView = "page_view"
    case click
    case signIn = "sign_in"
    case signOut = "sign_out"
    case purchase
    case search
    case addToCart = "add_to_cart"
    case error
}

/// One line of events.jsonl.
public struct EventRecord: Codable, Equatable, Sendable {
    public var eventId: UUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    public var occurredAt: Date = Date(timeIntervalSince1970: 0)
    public var kind: EventKind = .pageView
    public var sequenceNumber: Int = 0
    public var session: EventSession = EventSession()
    public var device: EventDevice = EventDevice()
    public var location: EventLocation = EventLocation()
    public var page: EventPage = EventPage()
    public var tags: [String] = []
    public var attributes: [String: String] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey {
        case eventId = "event_id"
        case occurredAt = "occurred_at"
        case kind
        case sequenceNumber = "sequence_number"
        case session, device, location, page, tags, attributes
    }
}

public struct EventSession: Codable, Equatable, Sendable {
    public var sessionId: UUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    public var userId: Int = 0
    public var startedAt: Date = Date(timeIntervalSince1970: 0)
    public var isAuthenticated: Bool = false

    public init() {}

    enum CodingKeys: String, CodingKey {
        case sessionId = "session_id"
        case userId = "user_id"
        case startedAt = "started_at"
        case isAuthenticated = "is_authenticated"
    }
}

public struct EventDevice: Codable, Equatable, Sendable {
    public var deviceType: String = ""
    public var osName: String = ""
    public var osVersion: String = ""
    public var appVersion: String = ""
    public var screenWidth: Int = 0
    public var screenHeight: Int = 0

    public init() {}

    enum CodingKeys: String, CodingKey {
        case deviceType = "device_type"
        case osName = "os_name"
        case osVersion = "os_version"
        case appVersion = "app_version"
        case screenWidth = "screen_width"
        case screenHeight = "screen_height"
    }
}

public struct EventLocation: Codable, Equatable, Sendable {
    public var countryCode: String = ""
    public var city: String = ""
    public var latitude: Double = 0
    public var longitude: Double = 0
    public var timeZone: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey {
        case countryCode = "country_code"
        case city, latitude, longitude
        case timeZone = "time_zone"
    }
}

public struct EventPage: Codable, Equatable, Sendable {
    public var url: String = ""
    public var title: String = ""
    public var loadTimeMs: Int = 0
    public var referrerUrl: String? = nil

    public init() {}

    enum CodingKeys: String, CodingKey {
        case url, title
        case loadTimeMs = "load_time_ms"
        case referrerUrl = "referrer_url"
    }
}

// MARK: - The same fields for `.convertFromSnakeCase` (synthesized CodingKeys)

public struct SnakeEventRecord: Codable, Equatable, Sendable {
    public var eventId: UUID
    public var occurredAt: Date
    public var kind: EventKind
    public var sequenceNumber: Int
    public var session: SnakeEventSession
    public var device: SnakeEventDevice
    public var location: SnakeEventLocation
    public var page: SnakeEventPage
    public var tags: [String]
    public var attributes: [String: String]
}

public struct SnakeEventSession: Codable, Equatable, Sendable {
    public var sessionId: UUID
    public var userId: Int
    public var startedAt: Date
    public var isAuthenticated: Bool
}

public struct SnakeEventDevice: Codable, Equatable, Sendable {
    public var deviceType: String
    public var osName: String
    public var osVersion: String
    public var appVersion: String
    public var screenWidth: Int
    public var screenHeight: Int
}

public struct SnakeEventLocation: Codable, Equatable, Sendable {
    public var countryCode: String
    public var city: String
    public var latitude: Double
    public var longitude: Double
    public var timeZone: String
}

public struct SnakeEventPage: Codable, Equatable, Sendable {
    public var url: String
    public var title: String
    public var loadTimeMs: Int
    public var referrerUrl: String?
}
