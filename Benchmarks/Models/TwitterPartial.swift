// Partial benchmark models for twitter.json (data/bench): the subset of fields a client app keeps
// (56 properties over 9 types, against 140 over 15 types in Twitter.swift); the rest of every object is skipped.
// Shape required by ModelMapper: struct, `var` stored properties with defaults, `init() {}`.
// Also: Codable (CodingKeys with the JSON keys) for JSONDecoder, and handwritten
// `init(dictionary:)` / `dictionary()` for the JSONSerialization "Manually" rows.

import Foundation

/// Root of twitter.json as a timeline screen keeps it.
public struct TwitterPartialTimeline: Codable, Equatable {
    public var statuses: [TwitterPartialStatus] = []
    public var searchMetadata: TwitterPartialSearchMetadata = TwitterPartialSearchMetadata()

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case statuses
        case searchMetadata = "search_metadata"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterPartialTimeline {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["statuses"] as? [[String: Any]] { statuses = v.map { TwitterPartialStatus(dictionary: $0) } }
        if let v = d["search_metadata"] as? [String: Any] { searchMetadata = TwitterPartialSearchMetadata(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["statuses"] = statuses.map { $0.dictionary() }
        d["search_metadata"] = searchMetadata.dictionary()
        return d
    }
}

/// A tweet as a client shows it (text, author, counts, reply and retweet context, links).
public struct TwitterPartialStatus: Codable, Equatable {
    public var id: Int64 = 0
    public var idStr: String = ""
    public var text: String = ""
    public var createdAt: String = ""
    public var source: String = ""
    public var favoriteCount: Int = 0
    public var retweetCount: Int = 0
    public var favorited: Bool = false
    public var retweeted: Bool = false
    public var lang: String = ""
    public var inReplyToStatusId: Int64? = nil
    public var inReplyToUserId: Int64? = nil
    public var inReplyToScreenName: String? = nil
    public var possiblySensitive: Bool? = nil
    public var user: TwitterPartialUser = TwitterPartialUser()
    public var entities: TwitterPartialEntities = TwitterPartialEntities()
    public var retweetedStatus: TwitterPartialRetweet? = nil

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case idStr = "id_str"
        case text
        case createdAt = "created_at"
        case source
        case favoriteCount = "favorite_count"
        case retweetCount = "retweet_count"
        case favorited
        case retweeted
        case lang
        case inReplyToStatusId = "in_reply_to_status_id"
        case inReplyToUserId = "in_reply_to_user_id"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case possiblySensitive = "possibly_sensitive"
        case user
        case entities
        case retweetedStatus = "retweeted_status"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterPartialStatus {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["id_str"] as? String { idStr = v }
        if let v = d["text"] as? String { text = v }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["source"] as? String { source = v }
        if let v = d["favorite_count"] as? Int { favoriteCount = v }
        if let v = d["retweet_count"] as? Int { retweetCount = v }
        if let v = d["favorited"] as? Bool { favorited = v }
        if let v = d["retweeted"] as? Bool { retweeted = v }
        if let v = d["lang"] as? String { lang = v }
        inReplyToStatusId = d["in_reply_to_status_id"] as? Int64
        inReplyToUserId = d["in_reply_to_user_id"] as? Int64
        inReplyToScreenName = d["in_reply_to_screen_name"] as? String
        possiblySensitive = d["possibly_sensitive"] as? Bool
        if let v = d["user"] as? [String: Any] { user = TwitterPartialUser(dictionary: v) }
        if let v = d["entities"] as? [String: Any] { entities = TwitterPartialEntities(dictionary: v) }
        if let v = d["retweeted_status"] as? [String: Any] { retweetedStatus = TwitterPartialRetweet(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 17)
        d["id"] = id
        d["id_str"] = idStr
        d["text"] = text
        d["created_at"] = createdAt
        d["source"] = source
        d["favorite_count"] = favoriteCount
        d["retweet_count"] = retweetCount
        d["favorited"] = favorited
        d["retweeted"] = retweeted
        d["lang"] = lang
        if let v = inReplyToStatusId { d["in_reply_to_status_id"] = v }
        if let v = inReplyToUserId { d["in_reply_to_user_id"] = v }
        if let v = inReplyToScreenName { d["in_reply_to_screen_name"] = v }
        if let v = possiblySensitive { d["possibly_sensitive"] = v }
        d["user"] = user.dictionary()
        d["entities"] = entities.dictionary()
        if let v = retweetedStatus { d["retweeted_status"] = v.dictionary() }
        return d
    }
}

/// The original tweet inside `retweeted_status`, with fewer fields than `TwitterPartialStatus` (a struct
/// cannot contain itself; the data never nests retweets deeper).
public struct TwitterPartialRetweet: Codable, Equatable {
    public var id: Int64 = 0
    public var idStr: String = ""
    public var text: String = ""
    public var createdAt: String = ""
    public var favoriteCount: Int = 0
    public var retweetCount: Int = 0
    public var lang: String = ""
    public var user: TwitterPartialUser = TwitterPartialUser()
    public var entities: TwitterPartialEntities = TwitterPartialEntities()

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case idStr = "id_str"
        case text
        case createdAt = "created_at"
        case favoriteCount = "favorite_count"
        case retweetCount = "retweet_count"
        case lang
        case user
        case entities
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterPartialRetweet {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["id_str"] as? String { idStr = v }
        if let v = d["text"] as? String { text = v }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["favorite_count"] as? Int { favoriteCount = v }
        if let v = d["retweet_count"] as? Int { retweetCount = v }
        if let v = d["lang"] as? String { lang = v }
        if let v = d["user"] as? [String: Any] { user = TwitterPartialUser(dictionary: v) }
        if let v = d["entities"] as? [String: Any] { entities = TwitterPartialEntities(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 9)
        d["id"] = id
        d["id_str"] = idStr
        d["text"] = text
        d["created_at"] = createdAt
        d["favorite_count"] = favoriteCount
        d["retweet_count"] = retweetCount
        d["lang"] = lang
        d["user"] = user.dictionary()
        d["entities"] = entities.dictionary()
        return d
    }
}

/// The author of a tweet as a profile header shows it.
public struct TwitterPartialUser: Codable, Equatable {
    public var id: Int64 = 0
    public var idStr: String = ""
    public var name: String = ""
    public var screenName: String = ""
    public var location: String = ""
    public var description: String = ""
    public var url: String? = nil
    public var followersCount: Int = 0
    public var friendsCount: Int = 0
    public var statusesCount: Int = 0
    public var verified: Bool = false
    public var protected: Bool = false
    public var createdAt: String = ""
    public var profileImageUrlHttps: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case idStr = "id_str"
        case name
        case screenName = "screen_name"
        case location
        case description
        case url
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case statusesCount = "statuses_count"
        case verified
        case protected
        case createdAt = "created_at"
        case profileImageUrlHttps = "profile_image_url_https"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterPartialUser {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["id_str"] as? String { idStr = v }
        if let v = d["name"] as? String { name = v }
        if let v = d["screen_name"] as? String { screenName = v }
        if let v = d["location"] as? String { location = v }
        if let v = d["description"] as? String { description = v }
        url = d["url"] as? String
        if let v = d["followers_count"] as? Int { followersCount = v }
        if let v = d["friends_count"] as? Int { friendsCount = v }
        if let v = d["statuses_count"] as? Int { statusesCount = v }
        if let v = d["verified"] as? Bool { verified = v }
        if let v = d["protected"] as? Bool { protected = v }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["profile_image_url_https"] as? String { profileImageUrlHttps = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 14)
        d["id"] = id
        d["id_str"] = idStr
        d["name"] = name
        d["screen_name"] = screenName
        d["location"] = location
        d["description"] = description
        if let v = url { d["url"] = v }
        d["followers_count"] = followersCount
        d["friends_count"] = friendsCount
        d["statuses_count"] = statusesCount
        d["verified"] = verified
        d["protected"] = protected
        d["created_at"] = createdAt
        d["profile_image_url_https"] = profileImageUrlHttps
        return d
    }
}

/// The links of a tweet: hashtag texts, URLs and mentions (no indices, symbols or media).
public struct TwitterPartialEntities: Codable, Equatable {
    public var hashtags: [TwitterPartialHashtag] = []
    public var urls: [TwitterPartialUrl] = []
    public var userMentions: [TwitterPartialMention] = []

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case hashtags
        case urls
        case userMentions = "user_mentions"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterPartialEntities {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["hashtags"] as? [[String: Any]] { hashtags = v.map { TwitterPartialHashtag(dictionary: $0) } }
        if let v = d["urls"] as? [[String: Any]] { urls = v.map { TwitterPartialUrl(dictionary: $0) } }
        if let v = d["user_mentions"] as? [[String: Any]] { userMentions = v.map { TwitterPartialMention(dictionary: $0) } }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 3)
        d["hashtags"] = hashtags.map { $0.dictionary() }
        d["urls"] = urls.map { $0.dictionary() }
        d["user_mentions"] = userMentions.map { $0.dictionary() }
        return d
    }
}

public struct TwitterPartialHashtag: Codable, Equatable {
    public var text: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case text
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterPartialHashtag {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["text"] as? String { text = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 1)
        d["text"] = text
        return d
    }
}

public struct TwitterPartialUrl: Codable, Equatable {
    public var url: String = ""
    public var expandedUrl: String = ""
    public var displayUrl: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case url
        case expandedUrl = "expanded_url"
        case displayUrl = "display_url"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterPartialUrl {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["url"] as? String { url = v }
        if let v = d["expanded_url"] as? String { expandedUrl = v }
        if let v = d["display_url"] as? String { displayUrl = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 3)
        d["url"] = url
        d["expanded_url"] = expandedUrl
        d["display_url"] = displayUrl
        return d
    }
}

public struct TwitterPartialMention: Codable, Equatable {
    public var id: Int64 = 0
    public var screenName: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case screenName = "screen_name"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterPartialMention {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["screen_name"] as? String { screenName = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["id"] = id
        d["screen_name"] = screenName
        return d
    }
}

/// What a client keeps of `search_metadata` to page through results.
public struct TwitterPartialSearchMetadata: Codable, Equatable {
    public var count: Int = 0
    public var maxId: Int64 = 0
    public var query: String = ""
    public var nextResults: String = ""
    public var refreshUrl: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case count
        case maxId = "max_id"
        case query
        case nextResults = "next_results"
        case refreshUrl = "refresh_url"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterPartialSearchMetadata {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["count"] as? Int { count = v }
        if let v = d["max_id"] as? Int64 { maxId = v }
        if let v = d["query"] as? String { query = v }
        if let v = d["next_results"] as? String { nextResults = v }
        if let v = d["refresh_url"] as? String { refreshUrl = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 5)
        d["count"] = count
        d["max_id"] = maxId
        d["query"] = query
        d["next_results"] = nextResults
        d["refresh_url"] = refreshUrl
        return d
    }
}
