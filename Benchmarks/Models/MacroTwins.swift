// `@JSONModel` twins of the partial benchmark models (TwitterPartial.swift, GithubEventsPartial.swift) and of
// YYModel's GithubUser (GithubUser.swift): the same fields, as `let`s without initial values (Optionals where
// the reflected models have them), the same keys (snake_case, `public` for isPublic). Written out as the macro
// expands them: the benchmarks' release build must not compile swift-syntax (Benchmarks/Package.swift builds
// with MODELMAPPER_WITHOUT_MACROS=1). Tests/ModelMapperMacrosPluginTests/BenchmarkTwinExpansionTests.swift
// expands the declarations below with the macro and asserts the result is this file's code, so the two
// cannot drift; regenerate the code from that test's output after changing the macro.
//
// The declarations, as a user writes them (the test reads them from between the markers):
//
// BEGIN @JSONModel DECLARATIONS
// @JSONModel
// public struct MacroTwitterPartialTimeline {
//     public let statuses: [MacroTwitterPartialStatus]
//     public let searchMetadata: MacroTwitterPartialSearchMetadata
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroTwitterPartialStatus {
//     public let id: Int64
//     public let idStr: String
//     public let text: String
//     public let createdAt: String
//     public let source: String
//     public let favoriteCount: Int
//     public let retweetCount: Int
//     public let favorited: Bool
//     public let retweeted: Bool
//     public let lang: String
//     public let inReplyToStatusId: Int64?
//     public let inReplyToUserId: Int64?
//     public let inReplyToScreenName: String?
//     public let possiblySensitive: Bool?
//     public let user: MacroTwitterPartialUser
//     public let entities: MacroTwitterPartialEntities
//     public let retweetedStatus: MacroTwitterPartialRetweet?
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroTwitterPartialRetweet {
//     public let id: Int64
//     public let idStr: String
//     public let text: String
//     public let createdAt: String
//     public let favoriteCount: Int
//     public let retweetCount: Int
//     public let lang: String
//     public let user: MacroTwitterPartialUser
//     public let entities: MacroTwitterPartialEntities
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroTwitterPartialUser {
//     public let id: Int64
//     public let idStr: String
//     public let name: String
//     public let screenName: String
//     public let location: String
//     public let description: String
//     public let url: String?
//     public let followersCount: Int
//     public let friendsCount: Int
//     public let statusesCount: Int
//     public let verified: Bool
//     public let protected: Bool
//     public let createdAt: String
//     public let profileImageUrlHttps: String
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroTwitterPartialEntities {
//     public let hashtags: [MacroTwitterPartialHashtag]
//     public let urls: [MacroTwitterPartialUrl]
//     public let userMentions: [MacroTwitterPartialMention]
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroTwitterPartialHashtag {
//     public let text: String
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroTwitterPartialUrl {
//     public let url: String
//     public let expandedUrl: String
//     public let displayUrl: String
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroTwitterPartialMention {
//     public let id: Int64
//     public let screenName: String
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroTwitterPartialSearchMetadata {
//     public let count: Int
//     public let maxId: Int64
//     public let query: String
//     public let nextResults: String
//     public let refreshUrl: String
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroGithubPartialEvent {
//     public let id: String
//     public let type: String
//     public let createdAt: String
//     public let isPublic: Bool
//     public let actor: MacroGithubPartialActor
//     public let repo: MacroGithubPartialRepo
//     public let payload: MacroGithubPartialPayload
//     public static let mapping = ModelMapping(keys: ["isPublic": "public"], keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroGithubPartialActor {
//     public let id: Int
//     public let login: String
//     public let avatarUrl: String
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroGithubPartialRepo {
//     public let id: Int
//     public let name: String
//     public let url: String
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroGithubPartialPayload {
//     public let action: String?
//     public let ref: String?
//     public let refType: String?
//     public let size: Int?
//     public let head: String?
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
//
// @JSONModel
// public struct MacroGithubUser {
//     public let login: String
//     public let id: Int
//     public let avatarUrl: String
//     public let gravatarId: String
//     public let url: String
//     public let htmlUrl: String
//     public let followersUrl: String
//     public let followingUrl: String
//     public let gistsUrl: String
//     public let starredUrl: String
//     public let subscriptionsUrl: String
//     public let organizationsUrl: String
//     public let reposUrl: String
//     public let eventsUrl: String
//     public let receivedEventsUrl: String
//     public let type: String
//     public let siteAdmin: Bool
//     public let name: String
//     public let company: String?
//     public let blog: String
//     public let location: String
//     public let email: String?
//     public let hireable: Bool?
//     public let bio: String
//     public let publicRepos: Int
//     public let publicGists: Int
//     public let followers: Int
//     public let following: Int
//     public static let mapping = ModelMapping(keyStrategy: .snakeCase)
// }
// END @JSONModel DECLARATIONS

import ModelMapper

// MARK: - The expansion

public struct MacroTwitterPartialTimeline {
    public let statuses: [MacroTwitterPartialStatus]
    public let searchMetadata: MacroTwitterPartialSearchMetadata
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var statuses: Swift.Optional<[MacroTwitterPartialStatus]> = nil
        public var searchMetadata: Swift.Optional<MacroTwitterPartialSearchMetadata> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("statuses", \JSONModelSlots.statuses, hasInitialValue: false, isLet: true),
            .init("searchMetadata", \JSONModelSlots.searchMetadata, hasInitialValue: false, isLet: true),
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
        slots.statuses = self.statuses
        slots.searchMetadata = self.searchMetadata
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroTwitterPartialStatus {
    public let id: Int64
    public let idStr: String
    public let text: String
    public let createdAt: String
    public let source: String
    public let favoriteCount: Int
    public let retweetCount: Int
    public let favorited: Bool
    public let retweeted: Bool
    public let lang: String
    public let inReplyToStatusId: Int64?
    public let inReplyToUserId: Int64?
    public let inReplyToScreenName: String?
    public let possiblySensitive: Bool?
    public let user: MacroTwitterPartialUser
    public let entities: MacroTwitterPartialEntities
    public let retweetedStatus: MacroTwitterPartialRetweet?
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var id: Swift.Optional<Int64> = nil
        public var idStr: Swift.Optional<String> = nil
        public var text: Swift.Optional<String> = nil
        public var createdAt: Swift.Optional<String> = nil
        public var source: Swift.Optional<String> = nil
        public var favoriteCount: Swift.Optional<Int> = nil
        public var retweetCount: Swift.Optional<Int> = nil
        public var favorited: Swift.Optional<Bool> = nil
        public var retweeted: Swift.Optional<Bool> = nil
        public var lang: Swift.Optional<String> = nil
        public var inReplyToStatusId: Int64? = nil
        public var inReplyToUserId: Int64? = nil
        public var inReplyToScreenName: String? = nil
        public var possiblySensitive: Bool? = nil
        public var user: Swift.Optional<MacroTwitterPartialUser> = nil
        public var entities: Swift.Optional<MacroTwitterPartialEntities> = nil
        public var retweetedStatus: MacroTwitterPartialRetweet? = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("id", \JSONModelSlots.id, hasInitialValue: false, isLet: true),
            .init("idStr", \JSONModelSlots.idStr, hasInitialValue: false, isLet: true),
            .init("text", \JSONModelSlots.text, hasInitialValue: false, isLet: true),
            .init("createdAt", \JSONModelSlots.createdAt, hasInitialValue: false, isLet: true),
            .init("source", \JSONModelSlots.source, hasInitialValue: false, isLet: true),
            .init("favoriteCount", \JSONModelSlots.favoriteCount, hasInitialValue: false, isLet: true),
            .init("retweetCount", \JSONModelSlots.retweetCount, hasInitialValue: false, isLet: true),
            .init("favorited", \JSONModelSlots.favorited, hasInitialValue: false, isLet: true),
            .init("retweeted", \JSONModelSlots.retweeted, hasInitialValue: false, isLet: true),
            .init("lang", \JSONModelSlots.lang, hasInitialValue: false, isLet: true),
            .init(optional: "inReplyToStatusId", \JSONModelSlots.inReplyToStatusId, isLet: true),
            .init(optional: "inReplyToUserId", \JSONModelSlots.inReplyToUserId, isLet: true),
            .init(optional: "inReplyToScreenName", \JSONModelSlots.inReplyToScreenName, isLet: true),
            .init(optional: "possiblySensitive", \JSONModelSlots.possiblySensitive, isLet: true),
            .init("user", \JSONModelSlots.user, hasInitialValue: false, isLet: true),
            .init("entities", \JSONModelSlots.entities, hasInitialValue: false, isLet: true),
            .init(optional: "retweetedStatus", \JSONModelSlots.retweetedStatus, isLet: true),
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
        slots.id = self.id
        slots.idStr = self.idStr
        slots.text = self.text
        slots.createdAt = self.createdAt
        slots.source = self.source
        slots.favoriteCount = self.favoriteCount
        slots.retweetCount = self.retweetCount
        slots.favorited = self.favorited
        slots.retweeted = self.retweeted
        slots.lang = self.lang
        slots.inReplyToStatusId = self.inReplyToStatusId
        slots.inReplyToUserId = self.inReplyToUserId
        slots.inReplyToScreenName = self.inReplyToScreenName
        slots.possiblySensitive = self.possiblySensitive
        slots.user = self.user
        slots.entities = self.entities
        slots.retweetedStatus = self.retweetedStatus
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroTwitterPartialRetweet {
    public let id: Int64
    public let idStr: String
    public let text: String
    public let createdAt: String
    public let favoriteCount: Int
    public let retweetCount: Int
    public let lang: String
    public let user: MacroTwitterPartialUser
    public let entities: MacroTwitterPartialEntities
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var id: Swift.Optional<Int64> = nil
        public var idStr: Swift.Optional<String> = nil
        public var text: Swift.Optional<String> = nil
        public var createdAt: Swift.Optional<String> = nil
        public var favoriteCount: Swift.Optional<Int> = nil
        public var retweetCount: Swift.Optional<Int> = nil
        public var lang: Swift.Optional<String> = nil
        public var user: Swift.Optional<MacroTwitterPartialUser> = nil
        public var entities: Swift.Optional<MacroTwitterPartialEntities> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("id", \JSONModelSlots.id, hasInitialValue: false, isLet: true),
            .init("idStr", \JSONModelSlots.idStr, hasInitialValue: false, isLet: true),
            .init("text", \JSONModelSlots.text, hasInitialValue: false, isLet: true),
            .init("createdAt", \JSONModelSlots.createdAt, hasInitialValue: false, isLet: true),
            .init("favoriteCount", \JSONModelSlots.favoriteCount, hasInitialValue: false, isLet: true),
            .init("retweetCount", \JSONModelSlots.retweetCount, hasInitialValue: false, isLet: true),
            .init("lang", \JSONModelSlots.lang, hasInitialValue: false, isLet: true),
            .init("user", \JSONModelSlots.user, hasInitialValue: false, isLet: true),
            .init("entities", \JSONModelSlots.entities, hasInitialValue: false, isLet: true),
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
        slots.id = self.id
        slots.idStr = self.idStr
        slots.text = self.text
        slots.createdAt = self.createdAt
        slots.favoriteCount = self.favoriteCount
        slots.retweetCount = self.retweetCount
        slots.lang = self.lang
        slots.user = self.user
        slots.entities = self.entities
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroTwitterPartialUser {
    public let id: Int64
    public let idStr: String
    public let name: String
    public let screenName: String
    public let location: String
    public let description: String
    public let url: String?
    public let followersCount: Int
    public let friendsCount: Int
    public let statusesCount: Int
    public let verified: Bool
    public let protected: Bool
    public let createdAt: String
    public let profileImageUrlHttps: String
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var id: Swift.Optional<Int64> = nil
        public var idStr: Swift.Optional<String> = nil
        public var name: Swift.Optional<String> = nil
        public var screenName: Swift.Optional<String> = nil
        public var location: Swift.Optional<String> = nil
        public var description: Swift.Optional<String> = nil
        public var url: String? = nil
        public var followersCount: Swift.Optional<Int> = nil
        public var friendsCount: Swift.Optional<Int> = nil
        public var statusesCount: Swift.Optional<Int> = nil
        public var verified: Swift.Optional<Bool> = nil
        public var protected: Swift.Optional<Bool> = nil
        public var createdAt: Swift.Optional<String> = nil
        public var profileImageUrlHttps: Swift.Optional<String> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("id", \JSONModelSlots.id, hasInitialValue: false, isLet: true),
            .init("idStr", \JSONModelSlots.idStr, hasInitialValue: false, isLet: true),
            .init("name", \JSONModelSlots.name, hasInitialValue: false, isLet: true),
            .init("screenName", \JSONModelSlots.screenName, hasInitialValue: false, isLet: true),
            .init("location", \JSONModelSlots.location, hasInitialValue: false, isLet: true),
            .init("description", \JSONModelSlots.description, hasInitialValue: false, isLet: true),
            .init(optional: "url", \JSONModelSlots.url, isLet: true),
            .init("followersCount", \JSONModelSlots.followersCount, hasInitialValue: false, isLet: true),
            .init("friendsCount", \JSONModelSlots.friendsCount, hasInitialValue: false, isLet: true),
            .init("statusesCount", \JSONModelSlots.statusesCount, hasInitialValue: false, isLet: true),
            .init("verified", \JSONModelSlots.verified, hasInitialValue: false, isLet: true),
            .init("protected", \JSONModelSlots.protected, hasInitialValue: false, isLet: true),
            .init("createdAt", \JSONModelSlots.createdAt, hasInitialValue: false, isLet: true),
            .init("profileImageUrlHttps", \JSONModelSlots.profileImageUrlHttps, hasInitialValue: false, isLet: true),
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
        slots.id = self.id
        slots.idStr = self.idStr
        slots.name = self.name
        slots.screenName = self.screenName
        slots.location = self.location
        slots.description = self.description
        slots.url = self.url
        slots.followersCount = self.followersCount
        slots.friendsCount = self.friendsCount
        slots.statusesCount = self.statusesCount
        slots.verified = self.verified
        slots.protected = self.protected
        slots.createdAt = self.createdAt
        slots.profileImageUrlHttps = self.profileImageUrlHttps
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroTwitterPartialEntities {
    public let hashtags: [MacroTwitterPartialHashtag]
    public let urls: [MacroTwitterPartialUrl]
    public let userMentions: [MacroTwitterPartialMention]
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var hashtags: Swift.Optional<[MacroTwitterPartialHashtag]> = nil
        public var urls: Swift.Optional<[MacroTwitterPartialUrl]> = nil
        public var userMentions: Swift.Optional<[MacroTwitterPartialMention]> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("hashtags", \JSONModelSlots.hashtags, hasInitialValue: false, isLet: true),
            .init("urls", \JSONModelSlots.urls, hasInitialValue: false, isLet: true),
            .init("userMentions", \JSONModelSlots.userMentions, hasInitialValue: false, isLet: true),
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
        slots.hashtags = self.hashtags
        slots.urls = self.urls
        slots.userMentions = self.userMentions
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroTwitterPartialHashtag {
    public let text: String
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var text: Swift.Optional<String> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("text", \JSONModelSlots.text, hasInitialValue: false, isLet: true),
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
        slots.text = self.text
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroTwitterPartialUrl {
    public let url: String
    public let expandedUrl: String
    public let displayUrl: String
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var url: Swift.Optional<String> = nil
        public var expandedUrl: Swift.Optional<String> = nil
        public var displayUrl: Swift.Optional<String> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("url", \JSONModelSlots.url, hasInitialValue: false, isLet: true),
            .init("expandedUrl", \JSONModelSlots.expandedUrl, hasInitialValue: false, isLet: true),
            .init("displayUrl", \JSONModelSlots.displayUrl, hasInitialValue: false, isLet: true),
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
        slots.expandedUrl = self.expandedUrl
        slots.displayUrl = self.displayUrl
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroTwitterPartialMention {
    public let id: Int64
    public let screenName: String
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var id: Swift.Optional<Int64> = nil
        public var screenName: Swift.Optional<String> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("id", \JSONModelSlots.id, hasInitialValue: false, isLet: true),
            .init("screenName", \JSONModelSlots.screenName, hasInitialValue: false, isLet: true),
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
        slots.id = self.id
        slots.screenName = self.screenName
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroTwitterPartialSearchMetadata {
    public let count: Int
    public let maxId: Int64
    public let query: String
    public let nextResults: String
    public let refreshUrl: String
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var count: Swift.Optional<Int> = nil
        public var maxId: Swift.Optional<Int64> = nil
        public var query: Swift.Optional<String> = nil
        public var nextResults: Swift.Optional<String> = nil
        public var refreshUrl: Swift.Optional<String> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("count", \JSONModelSlots.count, hasInitialValue: false, isLet: true),
            .init("maxId", \JSONModelSlots.maxId, hasInitialValue: false, isLet: true),
            .init("query", \JSONModelSlots.query, hasInitialValue: false, isLet: true),
            .init("nextResults", \JSONModelSlots.nextResults, hasInitialValue: false, isLet: true),
            .init("refreshUrl", \JSONModelSlots.refreshUrl, hasInitialValue: false, isLet: true),
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
        slots.count = self.count
        slots.maxId = self.maxId
        slots.query = self.query
        slots.nextResults = self.nextResults
        slots.refreshUrl = self.refreshUrl
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroGithubPartialEvent {
    public let id: String
    public let type: String
    public let createdAt: String
    public let isPublic: Bool
    public let actor: MacroGithubPartialActor
    public let repo: MacroGithubPartialRepo
    public let payload: MacroGithubPartialPayload
    public static let mapping = ModelMapping(keys: ["isPublic": "public"], keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var id: Swift.Optional<String> = nil
        public var type: Swift.Optional<String> = nil
        public var createdAt: Swift.Optional<String> = nil
        public var isPublic: Swift.Optional<Bool> = nil
        public var actor: Swift.Optional<MacroGithubPartialActor> = nil
        public var repo: Swift.Optional<MacroGithubPartialRepo> = nil
        public var payload: Swift.Optional<MacroGithubPartialPayload> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("id", \JSONModelSlots.id, hasInitialValue: false, isLet: true),
            .init("type", \JSONModelSlots.type, hasInitialValue: false, isLet: true),
            .init("createdAt", \JSONModelSlots.createdAt, hasInitialValue: false, isLet: true),
            .init("isPublic", \JSONModelSlots.isPublic, hasInitialValue: false, isLet: true),
            .init("actor", \JSONModelSlots.actor, hasInitialValue: false, isLet: true),
            .init("repo", \JSONModelSlots.repo, hasInitialValue: false, isLet: true),
            .init("payload", \JSONModelSlots.payload, hasInitialValue: false, isLet: true),
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
        slots.id = self.id
        slots.type = self.type
        slots.createdAt = self.createdAt
        slots.isPublic = self.isPublic
        slots.actor = self.actor
        slots.repo = self.repo
        slots.payload = self.payload
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroGithubPartialActor {
    public let id: Int
    public let login: String
    public let avatarUrl: String
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var id: Swift.Optional<Int> = nil
        public var login: Swift.Optional<String> = nil
        public var avatarUrl: Swift.Optional<String> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("id", \JSONModelSlots.id, hasInitialValue: false, isLet: true),
            .init("login", \JSONModelSlots.login, hasInitialValue: false, isLet: true),
            .init("avatarUrl", \JSONModelSlots.avatarUrl, hasInitialValue: false, isLet: true),
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
        slots.id = self.id
        slots.login = self.login
        slots.avatarUrl = self.avatarUrl
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroGithubPartialRepo {
    public let id: Int
    public let name: String
    public let url: String
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var id: Swift.Optional<Int> = nil
        public var name: Swift.Optional<String> = nil
        public var url: Swift.Optional<String> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("id", \JSONModelSlots.id, hasInitialValue: false, isLet: true),
            .init("name", \JSONModelSlots.name, hasInitialValue: false, isLet: true),
            .init("url", \JSONModelSlots.url, hasInitialValue: false, isLet: true),
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
        slots.id = self.id
        slots.name = self.name
        slots.url = self.url
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroGithubPartialPayload {
    public let action: String?
    public let ref: String?
    public let refType: String?
    public let size: Int?
    public let head: String?
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var action: String? = nil
        public var ref: String? = nil
        public var refType: String? = nil
        public var size: Int? = nil
        public var head: String? = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init(optional: "action", \JSONModelSlots.action, isLet: true),
            .init(optional: "ref", \JSONModelSlots.ref, isLet: true),
            .init(optional: "refType", \JSONModelSlots.refType, isLet: true),
            .init(optional: "size", \JSONModelSlots.size, isLet: true),
            .init(optional: "head", \JSONModelSlots.head, isLet: true),
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
        slots.action = self.action
        slots.ref = self.ref
        slots.refType = self.refType
        slots.size = self.size
        slots.head = self.head
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}
public struct MacroGithubUser {
    public let login: String
    public let id: Int
    public let avatarUrl: String
    public let gravatarId: String
    public let url: String
    public let htmlUrl: String
    public let followersUrl: String
    public let followingUrl: String
    public let gistsUrl: String
    public let starredUrl: String
    public let subscriptionsUrl: String
    public let organizationsUrl: String
    public let reposUrl: String
    public let eventsUrl: String
    public let receivedEventsUrl: String
    public let type: String
    public let siteAdmin: Bool
    public let name: String
    public let company: String?
    public let blog: String
    public let location: String
    public let email: String?
    public let hireable: Bool?
    public let bio: String
    public let publicRepos: Int
    public let publicGists: Int
    public let followers: Int
    public let following: Int
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        public var login: Swift.Optional<String> = nil
        public var id: Swift.Optional<Int> = nil
        public var avatarUrl: Swift.Optional<String> = nil
        public var gravatarId: Swift.Optional<String> = nil
        public var url: Swift.Optional<String> = nil
        public var htmlUrl: Swift.Optional<String> = nil
        public var followersUrl: Swift.Optional<String> = nil
        public var followingUrl: Swift.Optional<String> = nil
        public var gistsUrl: Swift.Optional<String> = nil
        public var starredUrl: Swift.Optional<String> = nil
        public var subscriptionsUrl: Swift.Optional<String> = nil
        public var organizationsUrl: Swift.Optional<String> = nil
        public var reposUrl: Swift.Optional<String> = nil
        public var eventsUrl: Swift.Optional<String> = nil
        public var receivedEventsUrl: Swift.Optional<String> = nil
        public var type: Swift.Optional<String> = nil
        public var siteAdmin: Swift.Optional<Bool> = nil
        public var name: Swift.Optional<String> = nil
        public var company: String? = nil
        public var blog: Swift.Optional<String> = nil
        public var location: Swift.Optional<String> = nil
        public var email: String? = nil
        public var hireable: Bool? = nil
        public var bio: Swift.Optional<String> = nil
        public var publicRepos: Swift.Optional<Int> = nil
        public var publicGists: Swift.Optional<Int> = nil
        public var followers: Swift.Optional<Int> = nil
        public var following: Swift.Optional<Int> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("login", \JSONModelSlots.login, hasInitialValue: false, isLet: true),
            .init("id", \JSONModelSlots.id, hasInitialValue: false, isLet: true),
            .init("avatarUrl", \JSONModelSlots.avatarUrl, hasInitialValue: false, isLet: true),
            .init("gravatarId", \JSONModelSlots.gravatarId, hasInitialValue: false, isLet: true),
            .init("url", \JSONModelSlots.url, hasInitialValue: false, isLet: true),
            .init("htmlUrl", \JSONModelSlots.htmlUrl, hasInitialValue: false, isLet: true),
            .init("followersUrl", \JSONModelSlots.followersUrl, hasInitialValue: false, isLet: true),
            .init("followingUrl", \JSONModelSlots.followingUrl, hasInitialValue: false, isLet: true),
            .init("gistsUrl", \JSONModelSlots.gistsUrl, hasInitialValue: false, isLet: true),
            .init("starredUrl", \JSONModelSlots.starredUrl, hasInitialValue: false, isLet: true),
            .init("subscriptionsUrl", \JSONModelSlots.subscriptionsUrl, hasInitialValue: false, isLet: true),
            .init("organizationsUrl", \JSONModelSlots.organizationsUrl, hasInitialValue: false, isLet: true),
            .init("reposUrl", \JSONModelSlots.reposUrl, hasInitialValue: false, isLet: true),
            .init("eventsUrl", \JSONModelSlots.eventsUrl, hasInitialValue: false, isLet: true),
            .init("receivedEventsUrl", \JSONModelSlots.receivedEventsUrl, hasInitialValue: false, isLet: true),
            .init("type", \JSONModelSlots.type, hasInitialValue: false, isLet: true),
            .init("siteAdmin", \JSONModelSlots.siteAdmin, hasInitialValue: false, isLet: true),
            .init("name", \JSONModelSlots.name, hasInitialValue: false, isLet: true),
            .init(optional: "company", \JSONModelSlots.company, isLet: true),
            .init("blog", \JSONModelSlots.blog, hasInitialValue: false, isLet: true),
            .init("location", \JSONModelSlots.location, hasInitialValue: false, isLet: true),
            .init(optional: "email", \JSONModelSlots.email, isLet: true),
            .init(optional: "hireable", \JSONModelSlots.hireable, isLet: true),
            .init("bio", \JSONModelSlots.bio, hasInitialValue: false, isLet: true),
            .init("publicRepos", \JSONModelSlots.publicRepos, hasInitialValue: false, isLet: true),
            .init("publicGists", \JSONModelSlots.publicGists, hasInitialValue: false, isLet: true),
            .init("followers", \JSONModelSlots.followers, hasInitialValue: false, isLet: true),
            .init("following", \JSONModelSlots.following, hasInitialValue: false, isLet: true),
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
        slots.login = self.login
        slots.id = self.id
        slots.avatarUrl = self.avatarUrl
        slots.gravatarId = self.gravatarId
        slots.url = self.url
        slots.htmlUrl = self.htmlUrl
        slots.followersUrl = self.followersUrl
        slots.followingUrl = self.followingUrl
        slots.gistsUrl = self.gistsUrl
        slots.starredUrl = self.starredUrl
        slots.subscriptionsUrl = self.subscriptionsUrl
        slots.organizationsUrl = self.organizationsUrl
        slots.reposUrl = self.reposUrl
        slots.eventsUrl = self.eventsUrl
        slots.receivedEventsUrl = self.receivedEventsUrl
        slots.type = self.type
        slots.siteAdmin = self.siteAdmin
        slots.name = self.name
        slots.company = self.company
        slots.blog = self.blog
        slots.location = self.location
        slots.email = self.email
        slots.hireable = self.hireable
        slots.bio = self.bio
        slots.publicRepos = self.publicRepos
        slots.publicGists = self.publicGists
        slots.followers = self.followers
        slots.following = self.following
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}

extension MacroTwitterPartialTimeline: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _statuses = try slots.statuses.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("statuses", of: Self.self)
        let _searchMetadata = try slots.searchMetadata.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("searchMetadata", of: Self.self)
        self.statuses = _statuses
        self.searchMetadata = _searchMetadata
    }
}

extension MacroTwitterPartialStatus: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
        let _idStr = try slots.idStr.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("idStr", of: Self.self)
        let _text = try slots.text.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("text", of: Self.self)
        let _createdAt = try slots.createdAt.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("createdAt", of: Self.self)
        let _source = try slots.source.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("source", of: Self.self)
        let _favoriteCount = try slots.favoriteCount.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("favoriteCount", of: Self.self)
        let _retweetCount = try slots.retweetCount.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("retweetCount", of: Self.self)
        let _favorited = try slots.favorited.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("favorited", of: Self.self)
        let _retweeted = try slots.retweeted.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("retweeted", of: Self.self)
        let _lang = try slots.lang.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("lang", of: Self.self)
        let _user = try slots.user.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("user", of: Self.self)
        let _entities = try slots.entities.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("entities", of: Self.self)
        self.id = _id
        self.idStr = _idStr
        self.text = _text
        self.createdAt = _createdAt
        self.source = _source
        self.favoriteCount = _favoriteCount
        self.retweetCount = _retweetCount
        self.favorited = _favorited
        self.retweeted = _retweeted
        self.lang = _lang
        self.inReplyToStatusId = slots.inReplyToStatusId.take()
        self.inReplyToUserId = slots.inReplyToUserId.take()
        self.inReplyToScreenName = slots.inReplyToScreenName.take()
        self.possiblySensitive = slots.possiblySensitive.take()
        self.user = _user
        self.entities = _entities
        self.retweetedStatus = slots.retweetedStatus.take()
    }
}

extension MacroTwitterPartialRetweet: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
        let _idStr = try slots.idStr.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("idStr", of: Self.self)
        let _text = try slots.text.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("text", of: Self.self)
        let _createdAt = try slots.createdAt.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("createdAt", of: Self.self)
        let _favoriteCount = try slots.favoriteCount.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("favoriteCount", of: Self.self)
        let _retweetCount = try slots.retweetCount.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("retweetCount", of: Self.self)
        let _lang = try slots.lang.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("lang", of: Self.self)
        let _user = try slots.user.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("user", of: Self.self)
        let _entities = try slots.entities.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("entities", of: Self.self)
        self.id = _id
        self.idStr = _idStr
        self.text = _text
        self.createdAt = _createdAt
        self.favoriteCount = _favoriteCount
        self.retweetCount = _retweetCount
        self.lang = _lang
        self.user = _user
        self.entities = _entities
    }
}

extension MacroTwitterPartialUser: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
        let _idStr = try slots.idStr.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("idStr", of: Self.self)
        let _name = try slots.name.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("name", of: Self.self)
        let _screenName = try slots.screenName.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("screenName", of: Self.self)
        let _location = try slots.location.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("location", of: Self.self)
        let _description = try slots.description.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("description", of: Self.self)
        let _followersCount = try slots.followersCount.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("followersCount", of: Self.self)
        let _friendsCount = try slots.friendsCount.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("friendsCount", of: Self.self)
        let _statusesCount = try slots.statusesCount.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("statusesCount", of: Self.self)
        let _verified = try slots.verified.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("verified", of: Self.self)
        let _protected = try slots.protected.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("protected", of: Self.self)
        let _createdAt = try slots.createdAt.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("createdAt", of: Self.self)
        let _profileImageUrlHttps = try slots.profileImageUrlHttps.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("profileImageUrlHttps", of: Self.self)
        self.id = _id
        self.idStr = _idStr
        self.name = _name
        self.screenName = _screenName
        self.location = _location
        self.description = _description
        self.url = slots.url.take()
        self.followersCount = _followersCount
        self.friendsCount = _friendsCount
        self.statusesCount = _statusesCount
        self.verified = _verified
        self.protected = _protected
        self.createdAt = _createdAt
        self.profileImageUrlHttps = _profileImageUrlHttps
    }
}

extension MacroTwitterPartialEntities: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _hashtags = try slots.hashtags.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("hashtags", of: Self.self)
        let _urls = try slots.urls.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("urls", of: Self.self)
        let _userMentions = try slots.userMentions.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("userMentions", of: Self.self)
        self.hashtags = _hashtags
        self.urls = _urls
        self.userMentions = _userMentions
    }
}

extension MacroTwitterPartialHashtag: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _text = try slots.text.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("text", of: Self.self)
        self.text = _text
    }
}

extension MacroTwitterPartialUrl: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _url = try slots.url.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("url", of: Self.self)
        let _expandedUrl = try slots.expandedUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("expandedUrl", of: Self.self)
        let _displayUrl = try slots.displayUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("displayUrl", of: Self.self)
        self.url = _url
        self.expandedUrl = _expandedUrl
        self.displayUrl = _displayUrl
    }
}

extension MacroTwitterPartialMention: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
        let _screenName = try slots.screenName.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("screenName", of: Self.self)
        self.id = _id
        self.screenName = _screenName
    }
}

extension MacroTwitterPartialSearchMetadata: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _count = try slots.count.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("count", of: Self.self)
        let _maxId = try slots.maxId.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("maxId", of: Self.self)
        let _query = try slots.query.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("query", of: Self.self)
        let _nextResults = try slots.nextResults.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("nextResults", of: Self.self)
        let _refreshUrl = try slots.refreshUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("refreshUrl", of: Self.self)
        self.count = _count
        self.maxId = _maxId
        self.query = _query
        self.nextResults = _nextResults
        self.refreshUrl = _refreshUrl
    }
}

extension MacroGithubPartialEvent: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
        let _type = try slots.type.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("type", of: Self.self)
        let _createdAt = try slots.createdAt.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("createdAt", of: Self.self)
        let _isPublic = try slots.isPublic.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("isPublic", of: Self.self)
        let _actor = try slots.actor.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("actor", of: Self.self)
        let _repo = try slots.repo.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("repo", of: Self.self)
        let _payload = try slots.payload.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("payload", of: Self.self)
        self.id = _id
        self.type = _type
        self.createdAt = _createdAt
        self.isPublic = _isPublic
        self.actor = _actor
        self.repo = _repo
        self.payload = _payload
    }
}

extension MacroGithubPartialActor: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
        let _login = try slots.login.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("login", of: Self.self)
        let _avatarUrl = try slots.avatarUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("avatarUrl", of: Self.self)
        self.id = _id
        self.login = _login
        self.avatarUrl = _avatarUrl
    }
}

extension MacroGithubPartialRepo: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
        let _name = try slots.name.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("name", of: Self.self)
        let _url = try slots.url.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("url", of: Self.self)
        self.id = _id
        self.name = _name
        self.url = _url
    }
}

extension MacroGithubPartialPayload: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        self.action = slots.action.take()
        self.ref = slots.ref.take()
        self.refType = slots.refType.take()
        self.size = slots.size.take()
        self.head = slots.head.take()
    }
}

extension MacroGithubUser: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        let _login = try slots.login.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("login", of: Self.self)
        let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
        let _avatarUrl = try slots.avatarUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("avatarUrl", of: Self.self)
        let _gravatarId = try slots.gravatarId.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("gravatarId", of: Self.self)
        let _url = try slots.url.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("url", of: Self.self)
        let _htmlUrl = try slots.htmlUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("htmlUrl", of: Self.self)
        let _followersUrl = try slots.followersUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("followersUrl", of: Self.self)
        let _followingUrl = try slots.followingUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("followingUrl", of: Self.self)
        let _gistsUrl = try slots.gistsUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("gistsUrl", of: Self.self)
        let _starredUrl = try slots.starredUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("starredUrl", of: Self.self)
        let _subscriptionsUrl = try slots.subscriptionsUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("subscriptionsUrl", of: Self.self)
        let _organizationsUrl = try slots.organizationsUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("organizationsUrl", of: Self.self)
        let _reposUrl = try slots.reposUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("reposUrl", of: Self.self)
        let _eventsUrl = try slots.eventsUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("eventsUrl", of: Self.self)
        let _receivedEventsUrl = try slots.receivedEventsUrl.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("receivedEventsUrl", of: Self.self)
        let _type = try slots.type.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("type", of: Self.self)
        let _siteAdmin = try slots.siteAdmin.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("siteAdmin", of: Self.self)
        let _name = try slots.name.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("name", of: Self.self)
        let _blog = try slots.blog.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("blog", of: Self.self)
        let _location = try slots.location.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("location", of: Self.self)
        let _bio = try slots.bio.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("bio", of: Self.self)
        let _publicRepos = try slots.publicRepos.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("publicRepos", of: Self.self)
        let _publicGists = try slots.publicGists.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("publicGists", of: Self.self)
        let _followers = try slots.followers.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("followers", of: Self.self)
        let _following = try slots.following.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("following", of: Self.self)
        self.login = _login
        self.id = _id
        self.avatarUrl = _avatarUrl
        self.gravatarId = _gravatarId
        self.url = _url
        self.htmlUrl = _htmlUrl
        self.followersUrl = _followersUrl
        self.followingUrl = _followingUrl
        self.gistsUrl = _gistsUrl
        self.starredUrl = _starredUrl
        self.subscriptionsUrl = _subscriptionsUrl
        self.organizationsUrl = _organizationsUrl
        self.reposUrl = _reposUrl
        self.eventsUrl = _eventsUrl
        self.receivedEventsUrl = _receivedEventsUrl
        self.type = _type
        self.siteAdmin = _siteAdmin
        self.name = _name
        self.company = slots.company.take()
        self.blog = _blog
        self.location = _location
        self.email = slots.email.take()
        self.hireable = slots.hireable.take()
        self.bio = _bio
        self.publicRepos = _publicRepos
        self.publicGists = _publicGists
        self.followers = _followers
        self.following = _following
    }
}
