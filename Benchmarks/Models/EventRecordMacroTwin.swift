// `@JSONModel` twin of the full event model (EventRecords.swift's `EventRecord` and its nested types, the
// `events` suite's mapped model): the same fields (a UUID, ISO 8601 dates, the raw-value enum `EventKind`,
// four nested objects, a `[String]`, a `[String: String]`, an optional string) as `let`s, the same mapping
// (`.snakeCase`, no explicit keys). Written out as the macro expands them, since the benchmarks' release
// build does not compile swift-syntax; Tests/ModelMapperMacrosPluginTests/BenchmarkTwinExpansionTests.swift
// expands the declarations below and asserts the result is this file's code. Regenerate the code from that
// test's output after changing the macro.
//
// The declarations, as a user writes them (the test reads them from between the markers):
//
// BEGIN @JSONModel DECLARATIONS
// @JSONModel
// public struct MacroEventRecord {
//     public let eventId: UUID
//     public let occurredAt: Date
//     public let kind: EventKind
//     public let sequenceNumber: Int
//     public let session: MacroEventSession
//     public let device: MacroEventDevice
//     public let location: MacroEventLocation
//     public let page: MacroEventPage
//     public let tags: [String]
//     public let attributes: [String: String]
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroEventSession {
//     public let sessionId: UUID
//     public let userId: Int
//     public let startedAt: Date
//     public let isAuthenticated: Bool
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroEventDevice {
//     public let deviceType: String
//     public let osName: String
//     public let osVersion: String
//     public let appVersion: String
//     public let screenWidth: Int
//     public let screenHeight: Int
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroEventLocation {
//     public let countryCode: String
//     public let city: String
//     public let latitude: Double
//     public let longitude: Double
//     public let timeZone: String
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroEventPage {
//     public let url: String
//     public let title: String
//     public let loadTimeMs: Int
//     public let referrerUrl: String?
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
// END @JSONModel DECLARATIONS

import Foundation
import ModelMapper

// MARK: - The expansion

public struct MacroEventRecord {
    public let eventId: UUID
    public let occurredAt: Date
    public let kind: EventKind
    public let sequenceNumber: Int
    public let session: MacroEventSession
    public let device: MacroEventDevice
    public let location: MacroEventLocation
    public let page: MacroEventPage
    public let tags: [String]
    public let attributes: [String: String]
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var eventId: Swift.Optional<UUID> = nil
        public var occurredAt: Swift.Optional<Date> = nil
        public var kind: Swift.Optional<EventKind> = nil
        public var sequenceNumber: Swift.Optional<Int> = nil
        public var session: Swift.Optional<MacroEventSession> = nil
        public var device: Swift.Optional<MacroEventDevice> = nil
        public var location: Swift.Optional<MacroEventLocation> = nil
        public var page: Swift.Optional<MacroEventPage> = nil
        public var tags: Swift.Optional<[String]> = nil
        public var attributes: Swift.Optional<[String: String]> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("eventId", \JSONModelSlots.eventId, hasInitialValue: false, isLet: true),
            .init("occurredAt", \JSONModelSlots.occurredAt, hasInitialValue: false, isLet: true),
            .init("kind", \JSONModelSlots.kind, hasInitialValue: false, isLet: true),
            .init("sequenceNumber", \JSONModelSlots.sequenceNumber, hasInitialValue: false, isLet: true),
            .init("session", \JSONModelSlots.session, hasInitialValue: false, isLet: true),
            .init("device", \JSONModelSlots.device, hasInitialValue: false, isLet: true),
            .init("location", \JSONModelSlots.location, hasInitialValue: false, isLet: true),
            .init("page", \JSONModelSlots.page, hasInitialValue: false, isLet: true),
            .init("tags", \JSONModelSlots.tags, hasInitialValue: false, isLet: true),
            .init("attributes", \JSONModelSlots.attributes, hasInitialValue: false, isLet: true),
        ]
    }

    public static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
        var slots = JSONModelSlots()
        try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
            try decode(Swift.UnsafeMutableRawPointer(slots))
        }
        return try Self(jsonModelSlots: &slots)
    }

    public func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.eventId = self.eventId
        slots.occurredAt = self.occurredAt
        slots.kind = self.kind
        slots.sequenceNumber = self.sequenceNumber
        slots.session = self.session
        slots.device = self.device
        slots.location = self.location
        slots.page = self.page
        slots.tags = self.tags
        slots.attributes = self.attributes
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroEventSession {
    public let sessionId: UUID
    public let userId: Int
    public let startedAt: Date
    public let isAuthenticated: Bool
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var sessionId: Swift.Optional<UUID> = nil
        public var userId: Swift.Optional<Int> = nil
        public var startedAt: Swift.Optional<Date> = nil
        public var isAuthenticated: Swift.Optional<Bool> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("sessionId", \JSONModelSlots.sessionId, hasInitialValue: false, isLet: true),
            .init("userId", \JSONModelSlots.userId, hasInitialValue: false, isLet: true),
            .init("startedAt", \JSONModelSlots.startedAt, hasInitialValue: false, isLet: true),
            .init("isAuthenticated", \JSONModelSlots.isAuthenticated, hasInitialValue: false, isLet: true),
        ]
    }

    public static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
        var slots = JSONModelSlots()
        try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
            try decode(Swift.UnsafeMutableRawPointer(slots))
        }
        return try Self(jsonModelSlots: &slots)
    }

    public func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.sessionId = self.sessionId
        slots.userId = self.userId
        slots.startedAt = self.startedAt
        slots.isAuthenticated = self.isAuthenticated
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroEventDevice {
    public let deviceType: String
    public let osName: String
    public let osVersion: String
    public let appVersion: String
    public let screenWidth: Int
    public let screenHeight: Int
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var deviceType: Swift.Optional<String> = nil
        public var osName: Swift.Optional<String> = nil
        public var osVersion: Swift.Optional<String> = nil
        public var appVersion: Swift.Optional<String> = nil
        public var screenWidth: Swift.Optional<Int> = nil
        public var screenHeight: Swift.Optional<Int> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("deviceType", \JSONModelSlots.deviceType, hasInitialValue: false, isLet: true),
            .init("osName", \JSONModelSlots.osName, hasInitialValue: false, isLet: true),
            .init("osVersion", \JSONModelSlots.osVersion, hasInitialValue: false, isLet: true),
            .init("appVersion", \JSONModelSlots.appVersion, hasInitialValue: false, isLet: true),
            .init("screenWidth", \JSONModelSlots.screenWidth, hasInitialValue: false, isLet: true),
            .init("screenHeight", \JSONModelSlots.screenHeight, hasInitialValue: false, isLet: true),
        ]
    }

    public static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
        var slots = JSONModelSlots()
        try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
            try decode(Swift.UnsafeMutableRawPointer(slots))
        }
        return try Self(jsonModelSlots: &slots)
    }

    public func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.deviceType = self.deviceType
        slots.osName = self.osName
        slots.osVersion = self.osVersion
        slots.appVersion = self.appVersion
        slots.screenWidth = self.screenWidth
        slots.screenHeight = self.screenHeight
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroEventLocation {
    public let countryCode: String
    public let city: String
    public let latitude: Double
    public let longitude: Double
    public let timeZone: String
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var countryCode: Swift.Optional<String> = nil
        public var city: Swift.Optional<String> = nil
        public var latitude: Swift.Optional<Double> = nil
        public var longitude: Swift.Optional<Double> = nil
        public var timeZone: Swift.Optional<String> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("countryCode", \JSONModelSlots.countryCode, hasInitialValue: false, isLet: true),
            .init("city", \JSONModelSlots.city, hasInitialValue: false, isLet: true),
            .init("latitude", \JSONModelSlots.latitude, hasInitialValue: false, isLet: true),
            .init("longitude", \JSONModelSlots.longitude, hasInitialValue: false, isLet: true),
            .init("timeZone", \JSONModelSlots.timeZone, hasInitialValue: false, isLet: true),
        ]
    }

    public static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
        var slots = JSONModelSlots()
        try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
            try decode(Swift.UnsafeMutableRawPointer(slots))
        }
        return try Self(jsonModelSlots: &slots)
    }

    public func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.countryCode = self.countryCode
        slots.city = self.city
        slots.latitude = self.latitude
        slots.longitude = self.longitude
        slots.timeZone = self.timeZone
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroEventPage {
    public let url: String
    public let title: String
    public let loadTimeMs: Int
    public let referrerUrl: String?
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var url: Swift.Optional<String> = nil
        public var title: Swift.Optional<String> = nil
        public var loadTimeMs: Swift.Optional<Int> = nil
        public var referrerUrl: String? = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("url", \JSONModelSlots.url, hasInitialValue: false, isLet: true),
            .init("title", \JSONModelSlots.title, hasInitialValue: false, isLet: true),
            .init("loadTimeMs", \JSONModelSlots.loadTimeMs, hasInitialValue: false, isLet: true),
            .init(optional: "referrerUrl", \JSONModelSlots.referrerUrl, isLet: true),
        ]
    }

    public static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
        var slots = JSONModelSlots()
        try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
            try decode(Swift.UnsafeMutableRawPointer(slots))
        }
        return try Self(jsonModelSlots: &slots)
    }

    public func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.url = self.url
        slots.title = self.title
        slots.loadTimeMs = self.loadTimeMs
        slots.referrerUrl = self.referrerUrl
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}

extension MacroEventRecord: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _eventId = try slots.eventId.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("eventId", of: Self.self)
        let _occurredAt = try slots.occurredAt.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("occurredAt", of: Self.self)
        let _kind = try slots.kind.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("kind", of: Self.self)
        let _sequenceNumber = try slots.sequenceNumber.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("sequenceNumber", of: Self.self)
        let _session = try slots.session.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("session", of: Self.self)
        let _device = try slots.device.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("device", of: Self.self)
        let _location = try slots.location.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("location", of: Self.self)
        let _page = try slots.page.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("page", of: Self.self)
        let _tags = try slots.tags.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("tags", of: Self.self)
        let _attributes = try slots.attributes.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("attributes", of: Self.self)
        self.eventId = _eventId
        self.occurredAt = _occurredAt
        self.kind = _kind
        self.sequenceNumber = _sequenceNumber
        self.session = _session
        self.device = _device
        self.location = _location
        self.page = _page
        self.tags = _tags
        self.attributes = _attributes
    }
}

extension MacroEventSession: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _sessionId = try slots.sessionId.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("sessionId", of: Self.self)
        let _userId = try slots.userId.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("userId", of: Self.self)
        let _startedAt = try slots.startedAt.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("startedAt", of: Self.self)
        let _isAuthenticated = try slots.isAuthenticated.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("isAuthenticated", of: Self.self)
        self.sessionId = _sessionId
        self.userId = _userId
        self.startedAt = _startedAt
        self.isAuthenticated = _isAuthenticated
    }
}

extension MacroEventDevice: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _deviceType = try slots.deviceType.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("deviceType", of: Self.self)
        let _osName = try slots.osName.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("osName", of: Self.self)
        let _osVersion = try slots.osVersion.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("osVersion", of: Self.self)
        let _appVersion = try slots.appVersion.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("appVersion", of: Self.self)
        let _screenWidth = try slots.screenWidth.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("screenWidth", of: Self.self)
        let _screenHeight = try slots.screenHeight.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("screenHeight", of: Self.self)
        self.deviceType = _deviceType
        self.osName = _osName
        self.osVersion = _osVersion
        self.appVersion = _appVersion
        self.screenWidth = _screenWidth
        self.screenHeight = _screenHeight
    }
}

extension MacroEventLocation: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _countryCode = try slots.countryCode.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("countryCode", of: Self.self)
        let _city = try slots.city.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("city", of: Self.self)
        let _latitude = try slots.latitude.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("latitude", of: Self.self)
        let _longitude = try slots.longitude.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("longitude", of: Self.self)
        let _timeZone = try slots.timeZone.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("timeZone", of: Self.self)
        self.countryCode = _countryCode
        self.city = _city
        self.latitude = _latitude
        self.longitude = _longitude
        self.timeZone = _timeZone
    }
}

extension MacroEventPage: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _url = try slots.url.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("url", of: Self.self)
        let _title = try slots.title.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("title", of: Self.self)
        let _loadTimeMs = try slots.loadTimeMs.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("loadTimeMs", of: Self.self)
        self.url = _url
        self.title = _title
        self.loadTimeMs = _loadTimeMs
        self.referrerUrl = slots.referrerUrl.take()
    }
}
