// Benchmark model types for twitter.json (data/bench).
// Shape required by ModelMapper: struct, `var` stored properties with defaults, `init() {}`.
// Also: Codable (CodingKeys with the JSON keys) for JSONDecoder, and handwritten
// `init(dictionary:)` / `dictionary()` for the JSONSerialization "Manually" rows.

import Foundation

/// Root of twitter.json: a search result page.
public struct TwitterTimeline: Codable, Equatable {
    public var statuses: [TwitterStatus] = []
    public var searchMetadata: TwitterSearchMetadata = TwitterSearchMetadata()

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case statuses
        case searchMetadata = "search_metadata"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterTimeline {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["statuses"] as? [[String: Any]] { statuses = v.map { TwitterStatus(dictionary: $0) } }
        if let v = d["search_metadata"] as? [String: Any] { searchMetadata = TwitterSearchMetadata(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["statuses"] = statuses.map { $0.dictionary() }
        d["search_metadata"] = searchMetadata.dictionary()
        return d
    }
}

/// A tweet. `geo`, `coordinates`, `place`, `contributors` are always null in the data
/// (objects in the Twitter API): typed `String?` until a `JSONValue?` field type is available.
public struct TwitterStatus: Codable, Equatable {
    public var metadata: TwitterStatusMetadata = TwitterStatusMetadata()
    public var createdAt: String = ""
    public var id: Int64 = 0
    public var idStr: String = ""
    public var text: String = ""
    public var source: String = ""
    public var truncated: Bool = false
    public var inReplyToStatusId: Int64? = nil
    public var inReplyToStatusIdStr: String? = nil
    public var inReplyToUserId: Int64? = nil
    public var inReplyToUserIdStr: String? = nil
    public var inReplyToScreenName: String? = nil
    public var user: TwitterUser = TwitterUser()
    public var geo: String? = nil
    public var coordinates: String? = nil
    public var place: String? = nil
    public var contributors: String? = nil
    public var retweetedStatus: TwitterRetweetedStatus? = nil
    public var retweetCount: Int = 0
    public var favoriteCount: Int = 0
    public var entities: TwitterEntities = TwitterEntities()
    public var favorited: Bool = false
    public var retweeted: Bool = false
    public var possiblySensitive: Bool? = nil
    public var lang: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case metadata
        case createdAt = "created_at"
        case id
        case idStr = "id_str"
        case text
        case source
        case truncated
        case inReplyToStatusId = "in_reply_to_status_id"
        case inReplyToStatusIdStr = "in_reply_to_status_id_str"
        case inReplyToUserId = "in_reply_to_user_id"
        case inReplyToUserIdStr = "in_reply_to_user_id_str"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user
        case geo
        case coordinates
        case place
        case contributors
        case retweetedStatus = "retweeted_status"
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case entities
        case favorited
        case retweeted
        case possiblySensitive = "possibly_sensitive"
        case lang
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterStatus {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["metadata"] as? [String: Any] { metadata = TwitterStatusMetadata(dictionary: v) }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["id_str"] as? String { idStr = v }
        if let v = d["text"] as? String { text = v }
        if let v = d["source"] as? String { source = v }
        if let v = d["truncated"] as? Bool { truncated = v }
        inReplyToStatusId = d["in_reply_to_status_id"] as? Int64
        inReplyToStatusIdStr = d["in_reply_to_status_id_str"] as? String
        inReplyToUserId = d["in_reply_to_user_id"] as? Int64
        inReplyToUserIdStr = d["in_reply_to_user_id_str"] as? String
        inReplyToScreenName = d["in_reply_to_screen_name"] as? String
        if let v = d["user"] as? [String: Any] { user = TwitterUser(dictionary: v) }
        geo = d["geo"] as? String
        coordinates = d["coordinates"] as? String
        place = d["place"] as? String
        contributors = d["contributors"] as? String
        if let v = d["retweeted_status"] as? [String: Any] { retweetedStatus = TwitterRetweetedStatus(dictionary: v) }
        if let v = d["retweet_count"] as? Int { retweetCount = v }
        if let v = d["favorite_count"] as? Int { favoriteCount = v }
        if let v = d["entities"] as? [String: Any] { entities = TwitterEntities(dictionary: v) }
        if let v = d["favorited"] as? Bool { favorited = v }
        if let v = d["retweeted"] as? Bool { retweeted = v }
        possiblySensitive = d["possibly_sensitive"] as? Bool
        if let v = d["lang"] as? String { lang = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 25)
        d["metadata"] = metadata.dictionary()
        d["created_at"] = createdAt
        d["id"] = id
        d["id_str"] = idStr
        d["text"] = text
        d["source"] = source
        d["truncated"] = truncated
        if let v = inReplyToStatusId { d["in_reply_to_status_id"] = v }
        if let v = inReplyToStatusIdStr { d["in_reply_to_status_id_str"] = v }
        if let v = inReplyToUserId { d["in_reply_to_user_id"] = v }
        if let v = inReplyToUserIdStr { d["in_reply_to_user_id_str"] = v }
        if let v = inReplyToScreenName { d["in_reply_to_screen_name"] = v }
        d["user"] = user.dictionary()
        if let v = geo { d["geo"] = v }
        if let v = coordinates { d["coordinates"] = v }
        if let v = place { d["place"] = v }
        if let v = contributors { d["contributors"] = v }
        if let v = retweetedStatus { d["retweeted_status"] = v.dictionary() }
        d["retweet_count"] = retweetCount
        d["favorite_count"] = favoriteCount
        d["entities"] = entities.dictionary()
        d["favorited"] = favorited
        d["retweeted"] = retweeted
        if let v = possiblySensitive { d["possibly_sensitive"] = v }
        d["lang"] = lang
        return d
    }
}

/// The tweet inside `retweeted_status`: the same fields as `TwitterStatus` minus
/// `retweetedStatus` (a struct cannot contain itself; the data never nests retweets deeper).
public struct TwitterRetweetedStatus: Codable, Equatable {
    public var metadata: TwitterStatusMetadata = TwitterStatusMetadata()
    public var createdAt: String = ""
    public var id: Int64 = 0
    public var idStr: String = ""
    public var text: String = ""
    public var source: String = ""
    public var truncated: Bool = false
    public var inReplyToStatusId: Int64? = nil
    public var inReplyToStatusIdStr: String? = nil
    public var inReplyToUserId: Int64? = nil
    public var inReplyToUserIdStr: String? = nil
    public var inReplyToScreenName: String? = nil
    public var user: TwitterUser = TwitterUser()
    public var geo: String? = nil
    public var coordinates: String? = nil
    public var place: String? = nil
    public var contributors: String? = nil
    public var retweetCount: Int = 0
    public var favoriteCount: Int = 0
    public var entities: TwitterEntities = TwitterEntities()
    public var favorited: Bool = false
    public var retweeted: Bool = false
    public var possiblySensitive: Bool? = nil
    public var lang: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case metadata
        case createdAt = "created_at"
        case id
        case idStr = "id_str"
        case text
        case source
        case truncated
        case inReplyToStatusId = "in_reply_to_status_id"
        case inReplyToStatusIdStr = "in_reply_to_status_id_str"
        case inReplyToUserId = "in_reply_to_user_id"
        case inReplyToUserIdStr = "in_reply_to_user_id_str"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user
        case geo
        case coordinates
        case place
        case contributors
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case entities
        case favorited
        case retweeted
        case possiblySensitive = "possibly_sensitive"
        case lang
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterRetweetedStatus {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["metadata"] as? [String: Any] { metadata = TwitterStatusMetadata(dictionary: v) }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["id_str"] as? String { idStr = v }
        if let v = d["text"] as? String { text = v }
        if let v = d["source"] as? String { source = v }
        if let v = d["truncated"] as? Bool { truncated = v }
        inReplyToStatusId = d["in_reply_to_status_id"] as? Int64
        inReplyToStatusIdStr = d["in_reply_to_status_id_str"] as? String
        inReplyToUserId = d["in_reply_to_user_id"] as? Int64
        inReplyToUserIdStr = d["in_reply_to_user_id_str"] as? String
        inReplyToScreenName = d["in_reply_to_screen_name"] as? String
        if let v = d["user"] as? [String: Any] { user = TwitterUser(dictionary: v) }
        geo = d["geo"] as? String
        coordinates = d["coordinates"] as? String
        place = d["place"] as? String
        contributors = d["contributors"] as? String
        if let v = d["retweet_count"] as? Int { retweetCount = v }
        if let v = d["favorite_count"] as? Int { favoriteCount = v }
        if let v = d["entities"] as? [String: Any] { entities = TwitterEntities(dictionary: v) }
        if let v = d["favorited"] as? Bool { favorited = v }
        if let v = d["retweeted"] as? Bool { retweeted = v }
        possiblySensitive = d["possibly_sensitive"] as? Bool
        if let v = d["lang"] as? String { lang = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 24)
        d["metadata"] = metadata.dictionary()
        d["created_at"] = createdAt
        d["id"] = id
        d["id_str"] = idStr
        d["text"] = text
        d["source"] = source
        d["truncated"] = truncated
        if let v = inReplyToStatusId { d["in_reply_to_status_id"] = v }
        if let v = inReplyToStatusIdStr { d["in_reply_to_status_id_str"] = v }
        if let v = inReplyToUserId { d["in_reply_to_user_id"] = v }
        if let v = inReplyToUserIdStr { d["in_reply_to_user_id_str"] = v }
        if let v = inReplyToScreenName { d["in_reply_to_screen_name"] = v }
        d["user"] = user.dictionary()
        if let v = geo { d["geo"] = v }
        if let v = coordinates { d["coordinates"] = v }
        if let v = place { d["place"] = v }
        if let v = contributors { d["contributors"] = v }
        d["retweet_count"] = retweetCount
        d["favorite_count"] = favoriteCount
        d["entities"] = entities.dictionary()
        d["favorited"] = favorited
        d["retweeted"] = retweeted
        if let v = possiblySensitive { d["possibly_sensitive"] = v }
        d["lang"] = lang
        return d
    }
}

public struct TwitterStatusMetadata: Codable, Equatable {
    public var resultType: String = ""
    public var isoLanguageCode: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case resultType = "result_type"
        case isoLanguageCode = "iso_language_code"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterStatusMetadata {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["result_type"] as? String { resultType = v }
        if let v = d["iso_language_code"] as? String { isoLanguageCode = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["result_type"] = resultType
        d["iso_language_code"] = isoLanguageCode
        return d
    }
}

public struct TwitterUser: Codable, Equatable {
    public var id: Int64 = 0
    public var idStr: String = ""
    public var name: String = ""
    public var screenName: String = ""
    public var location: String = ""
    public var description: String = ""
    public var url: String? = nil
    public var entities: TwitterUserEntities = TwitterUserEntities()
    public var protected: Bool = false
    public var followersCount: Int = 0
    public var friendsCount: Int = 0
    public var listedCount: Int = 0
    public var createdAt: String = ""
    public var favouritesCount: Int = 0
    public var utcOffset: Int? = nil
    public var timeZone: String? = nil
    public var geoEnabled: Bool = false
    public var verified: Bool = false
    public var statusesCount: Int = 0
    public var lang: String = ""
    public var contributorsEnabled: Bool = false
    public var isTranslator: Bool = false
    public var isTranslationEnabled: Bool = false
    public var profileBackgroundColor: String = ""
    public var profileBackgroundImageUrl: String = ""
    public var profileBackgroundImageUrlHttps: String = ""
    public var profileBackgroundTile: Bool = false
    public var profileImageUrl: String = ""
    public var profileImageUrlHttps: String = ""
    public var profileBannerUrl: String? = nil
    public var profileLinkColor: String = ""
    public var profileSidebarBorderColor: String = ""
    public var profileSidebarFillColor: String = ""
    public var profileTextColor: String = ""
    public var profileUseBackgroundImage: Bool = false
    public var defaultProfile: Bool = false
    public var defaultProfileImage: Bool = false
    public var following: Bool = false
    public var followRequestSent: Bool = false
    public var notifications: Bool = false

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case idStr = "id_str"
        case name
        case screenName = "screen_name"
        case location
        case description
        case url
        case entities
        case protected
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case listedCount = "listed_count"
        case createdAt = "created_at"
        case favouritesCount = "favourites_count"
        case utcOffset = "utc_offset"
        case timeZone = "time_zone"
        case geoEnabled = "geo_enabled"
        case verified
        case statusesCount = "statuses_count"
        case lang
        case contributorsEnabled = "contributors_enabled"
        case isTranslator = "is_translator"
        case isTranslationEnabled = "is_translation_enabled"
        case profileBackgroundColor = "profile_background_color"
        case profileBackgroundImageUrl = "profile_background_image_url"
        case profileBackgroundImageUrlHttps = "profile_background_image_url_https"
        case profileBackgroundTile = "profile_background_tile"
        case profileImageUrl = "profile_image_url"
        case profileImageUrlHttps = "profile_image_url_https"
        case profileBannerUrl = "profile_banner_url"
        case profileLinkColor = "profile_link_color"
        case profileSidebarBorderColor = "profile_sidebar_border_color"
        case profileSidebarFillColor = "profile_sidebar_fill_color"
        case profileTextColor = "profile_text_color"
        case profileUseBackgroundImage = "profile_use_background_image"
        case defaultProfile = "default_profile"
        case defaultProfileImage = "default_profile_image"
        case following
        case followRequestSent = "follow_request_sent"
        case notifications
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterUser {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["id_str"] as? String { idStr = v }
        if let v = d["name"] as? String { name = v }
        if let v = d["screen_name"] as? String { screenName = v }
        if let v = d["location"] as? String { location = v }
        if let v = d["description"] as? String { description = v }
        url = d["url"] as? String
        if let v = d["entities"] as? [String: Any] { entities = TwitterUserEntities(dictionary: v) }
        if let v = d["protected"] as? Bool { protected = v }
        if let v = d["followers_count"] as? Int { followersCount = v }
        if let v = d["friends_count"] as? Int { friendsCount = v }
        if let v = d["listed_count"] as? Int { listedCount = v }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["favourites_count"] as? Int { favouritesCount = v }
        utcOffset = d["utc_offset"] as? Int
        timeZone = d["time_zone"] as? String
        if let v = d["geo_enabled"] as? Bool { geoEnabled = v }
        if let v = d["verified"] as? Bool { verified = v }
        if let v = d["statuses_count"] as? Int { statusesCount = v }
        if let v = d["lang"] as? String { lang = v }
        if let v = d["contributors_enabled"] as? Bool { contributorsEnabled = v }
        if let v = d["is_translator"] as? Bool { isTranslator = v }
        if let v = d["is_translation_enabled"] as? Bool { isTranslationEnabled = v }
        if let v = d["profile_background_color"] as? String { profileBackgroundColor = v }
        if let v = d["profile_background_image_url"] as? String { profileBackgroundImageUrl = v }
        if let v = d["profile_background_image_url_https"] as? String { profileBackgroundImageUrlHttps = v }
        if let v = d["profile_background_tile"] as? Bool { profileBackgroundTile = v }
        if let v = d["profile_image_url"] as? String { profileImageUrl = v }
        if let v = d["profile_image_url_https"] as? String { profileImageUrlHttps = v }
        profileBannerUrl = d["profile_banner_url"] as? String
        if let v = d["profile_link_color"] as? String { profileLinkColor = v }
        if let v = d["profile_sidebar_border_color"] as? String { profileSidebarBorderColor = v }
        if let v = d["profile_sidebar_fill_color"] as? String { profileSidebarFillColor = v }
        if let v = d["profile_text_color"] as? String { profileTextColor = v }
        if let v = d["profile_use_background_image"] as? Bool { profileUseBackgroundImage = v }
        if let v = d["default_profile"] as? Bool { defaultProfile = v }
        if let v = d["default_profile_image"] as? Bool { defaultProfileImage = v }
        if let v = d["following"] as? Bool { following = v }
        if let v = d["follow_request_sent"] as? Bool { followRequestSent = v }
        if let v = d["notifications"] as? Bool { notifications = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 40)
        d["id"] = id
        d["id_str"] = idStr
        d["name"] = name
        d["screen_name"] = screenName
        d["location"] = location
        d["description"] = description
        if let v = url { d["url"] = v }
        d["entities"] = entities.dictionary()
        d["protected"] = protected
        d["followers_count"] = followersCount
        d["friends_count"] = friendsCount
        d["listed_count"] = listedCount
        d["created_at"] = createdAt
        d["favourites_count"] = favouritesCount
        if let v = utcOffset { d["utc_offset"] = v }
        if let v = timeZone { d["time_zone"] = v }
        d["geo_enabled"] = geoEnabled
        d["verified"] = verified
        d["statuses_count"] = statusesCount
        d["lang"] = lang
        d["contributors_enabled"] = contributorsEnabled
        d["is_translator"] = isTranslator
        d["is_translation_enabled"] = isTranslationEnabled
        d["profile_background_color"] = profileBackgroundColor
        d["profile_background_image_url"] = profileBackgroundImageUrl
        d["profile_background_image_url_https"] = profileBackgroundImageUrlHttps
        d["profile_background_tile"] = profileBackgroundTile
        d["profile_image_url"] = profileImageUrl
        d["profile_image_url_https"] = profileImageUrlHttps
        if let v = profileBannerUrl { d["profile_banner_url"] = v }
        d["profile_link_color"] = profileLinkColor
        d["profile_sidebar_border_color"] = profileSidebarBorderColor
        d["profile_sidebar_fill_color"] = profileSidebarFillColor
        d["profile_text_color"] = profileTextColor
        d["profile_use_background_image"] = profileUseBackgroundImage
        d["default_profile"] = defaultProfile
        d["default_profile_image"] = defaultProfileImage
        d["following"] = following
        d["follow_request_sent"] = followRequestSent
        d["notifications"] = notifications
        return d
    }
}

public struct TwitterUserEntities: Codable, Equatable {
    public var url: TwitterUrlList? = nil
    public var description: TwitterUrlList = TwitterUrlList()

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case url
        case description
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterUserEntities {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["url"] as? [String: Any] { url = TwitterUrlList(dictionary: v) }
        if let v = d["description"] as? [String: Any] { description = TwitterUrlList(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        if let v = url { d["url"] = v.dictionary() }
        d["description"] = description.dictionary()
        return d
    }
}

public struct TwitterUrlList: Codable, Equatable {
    public var urls: [TwitterUrl] = []

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case urls
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterUrlList {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["urls"] as? [[String: Any]] { urls = v.map { TwitterUrl(dictionary: $0) } }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 1)
        d["urls"] = urls.map { $0.dictionary() }
        return d
    }
}

public struct TwitterUrl: Codable, Equatable {
    public var url: String = ""
    public var expandedUrl: String = ""
    public var displayUrl: String = ""
    public var indices: [Int] = []

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case url
        case expandedUrl = "expanded_url"
        case displayUrl = "display_url"
        case indices
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterUrl {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["url"] as? String { url = v }
        if let v = d["expanded_url"] as? String { expandedUrl = v }
        if let v = d["display_url"] as? String { displayUrl = v }
        if let v = d["indices"] as? [Int] { indices = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 4)
        d["url"] = url
        d["expanded_url"] = expandedUrl
        d["display_url"] = displayUrl
        d["indices"] = indices
        return d
    }
}

/// `symbols` is always empty in the data; typed like `hashtags` (Twitter API shape: text + indices).
public struct TwitterEntities: Codable, Equatable {
    public var hashtags: [TwitterHashtag] = []
    public var symbols: [TwitterHashtag] = []
    public var urls: [TwitterUrl] = []
    public var userMentions: [TwitterUserMention] = []
    public var media: [TwitterMedia]? = nil

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case hashtags
        case symbols
        case urls
        case userMentions = "user_mentions"
        case media
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterEntities {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["hashtags"] as? [[String: Any]] { hashtags = v.map { TwitterHashtag(dictionary: $0) } }
        if let v = d["symbols"] as? [[String: Any]] { symbols = v.map { TwitterHashtag(dictionary: $0) } }
        if let v = d["urls"] as? [[String: Any]] { urls = v.map { TwitterUrl(dictionary: $0) } }
        if let v = d["user_mentions"] as? [[String: Any]] { userMentions = v.map { TwitterUserMention(dictionary: $0) } }
        if let v = d["media"] as? [[String: Any]] { media = v.map { TwitterMedia(dictionary: $0) } }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 5)
        d["hashtags"] = hashtags.map { $0.dictionary() }
        d["symbols"] = symbols.map { $0.dictionary() }
        d["urls"] = urls.map { $0.dictionary() }
        d["user_mentions"] = userMentions.map { $0.dictionary() }
        if let v = media { d["media"] = v.map { $0.dictionary() } }
        return d
    }
}

public struct TwitterHashtag: Codable, Equatable {
    public var text: String = ""
    public var indices: [Int] = []

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case text
        case indices
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterHashtag {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["text"] as? String { text = v }
        if let v = d["indices"] as? [Int] { indices = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["text"] = text
        d["indices"] = indices
        return d
    }
}

public struct TwitterUserMention: Codable, Equatable {
    public var screenName: String = ""
    public var name: String = ""
    public var id: Int64 = 0
    public var idStr: String = ""
    public var indices: [Int] = []

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case screenName = "screen_name"
        case name
        case id
        case idStr = "id_str"
        case indices
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterUserMention {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["screen_name"] as? String { screenName = v }
        if let v = d["name"] as? String { name = v }
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["id_str"] as? String { idStr = v }
        if let v = d["indices"] as? [Int] { indices = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 5)
        d["screen_name"] = screenName
        d["name"] = name
        d["id"] = id
        d["id_str"] = idStr
        d["indices"] = indices
        return d
    }
}

public struct TwitterMedia: Codable, Equatable {
    public var id: Int64 = 0
    public var idStr: String = ""
    public var indices: [Int] = []
    public var mediaUrl: String = ""
    public var mediaUrlHttps: String = ""
    public var url: String = ""
    public var displayUrl: String = ""
    public var expandedUrl: String = ""
    public var type: String = ""
    public var sizes: TwitterMediaSizes = TwitterMediaSizes()
    public var sourceStatusId: Int64? = nil
    public var sourceStatusIdStr: String? = nil

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case idStr = "id_str"
        case indices
        case mediaUrl = "media_url"
        case mediaUrlHttps = "media_url_https"
        case url
        case displayUrl = "display_url"
        case expandedUrl = "expanded_url"
        case type
        case sizes
        case sourceStatusId = "source_status_id"
        case sourceStatusIdStr = "source_status_id_str"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterMedia {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["id_str"] as? String { idStr = v }
        if let v = d["indices"] as? [Int] { indices = v }
        if let v = d["media_url"] as? String { mediaUrl = v }
        if let v = d["media_url_https"] as? String { mediaUrlHttps = v }
        if let v = d["url"] as? String { url = v }
        if let v = d["display_url"] as? String { displayUrl = v }
        if let v = d["expanded_url"] as? String { expandedUrl = v }
        if let v = d["type"] as? String { type = v }
        if let v = d["sizes"] as? [String: Any] { sizes = TwitterMediaSizes(dictionary: v) }
        sourceStatusId = d["source_status_id"] as? Int64
        sourceStatusIdStr = d["source_status_id_str"] as? String
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 12)
        d["id"] = id
        d["id_str"] = idStr
        d["indices"] = indices
        d["media_url"] = mediaUrl
        d["media_url_https"] = mediaUrlHttps
        d["url"] = url
        d["display_url"] = displayUrl
        d["expanded_url"] = expandedUrl
        d["type"] = type
        d["sizes"] = sizes.dictionary()
        if let v = sourceStatusId { d["source_status_id"] = v }
        if let v = sourceStatusIdStr { d["source_status_id_str"] = v }
        return d
    }
}

public struct TwitterMediaSizes: Codable, Equatable {
    public var medium: TwitterMediaSize = TwitterMediaSize()
    public var small: TwitterMediaSize = TwitterMediaSize()
    public var thumb: TwitterMediaSize = TwitterMediaSize()
    public var large: TwitterMediaSize = TwitterMediaSize()

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case medium
        case small
        case thumb
        case large
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterMediaSizes {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["medium"] as? [String: Any] { medium = TwitterMediaSize(dictionary: v) }
        if let v = d["small"] as? [String: Any] { small = TwitterMediaSize(dictionary: v) }
        if let v = d["thumb"] as? [String: Any] { thumb = TwitterMediaSize(dictionary: v) }
        if let v = d["large"] as? [String: Any] { large = TwitterMediaSize(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 4)
        d["medium"] = medium.dictionary()
        d["small"] = small.dictionary()
        d["thumb"] = thumb.dictionary()
        d["large"] = large.dictionary()
        return d
    }
}

public struct TwitterMediaSize: Codable, Equatable {
    public var w: Int = 0
    public var h: Int = 0
    public var resize: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case w
        case h
        case resize
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterMediaSize {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["w"] as? Int { w = v }
        if let v = d["h"] as? Int { h = v }
        if let v = d["resize"] as? String { resize = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 3)
        d["w"] = w
        d["h"] = h
        d["resize"] = resize
        return d
    }
}

public struct TwitterSearchMetadata: Codable, Equatable {
    public var completedIn: Double = 0
    public var maxId: Int64 = 0
    public var maxIdStr: String = ""
    public var nextResults: String = ""
    public var query: String = ""
    public var refreshUrl: String = ""
    public var count: Int = 0
    public var sinceId: Int64 = 0
    public var sinceIdStr: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case completedIn = "completed_in"
        case maxId = "max_id"
        case maxIdStr = "max_id_str"
        case nextResults = "next_results"
        case query
        case refreshUrl = "refresh_url"
        case count
        case sinceId = "since_id"
        case sinceIdStr = "since_id_str"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension TwitterSearchMetadata {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = manualDouble(d["completed_in"]) { completedIn = v }
        if let v = d["max_id"] as? Int64 { maxId = v }
        if let v = d["max_id_str"] as? String { maxIdStr = v }
        if let v = d["next_results"] as? String { nextResults = v }
        if let v = d["query"] as? String { query = v }
        if let v = d["refresh_url"] as? String { refreshUrl = v }
        if let v = d["count"] as? Int { count = v }
        if let v = d["since_id"] as? Int64 { sinceId = v }
        if let v = d["since_id_str"] as? String { sinceIdStr = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 9)
        d["completed_in"] = completedIn
        d["max_id"] = maxId
        d["max_id_str"] = maxIdStr
        d["next_results"] = nextResults
        d["query"] = query
        d["refresh_url"] = refreshUrl
        d["count"] = count
        d["since_id"] = sinceId
        d["since_id_str"] = sinceIdStr
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
