// Benchmark model types for YYModel's weibo.json (data/yymodel).
// Shape required by ModelMapper: struct, `var` stored properties with defaults, `init() {}`.
// Also: Codable (CodingKeys with the JSON keys) for JSONDecoder, and handwritten
// `init(dictionary:)` / `dictionary()` for the JSONSerialization "Manually" rows.

import Foundation

/// Root of YYModel's weibo.json (one status). `filterID` and `userType` are camelCase keys;
/// `darwin_tags` is always empty in the data (typed `[String]`). `pic_infos` is keyed by picture id.
public struct WeiboStatus: Codable, Equatable {
    public var id: Int64 = 0
    public var idstr: String = ""
    public var mid: String = ""
    public var mblogid: String = ""
    public var createdAt: String = ""
    public var text: String = ""
    public var source: String = ""
    public var sourceType: Int = 0
    public var sourceAllowclick: Int = 0
    public var favorited: Bool = false
    public var truncated: Bool = false
    public var inReplyToStatusId: String = ""
    public var inReplyToUserId: String = ""
    public var inReplyToScreenName: String = ""
    public var geo: String = ""
    public var user: WeiboUser = WeiboUser()
    public var repostsCount: Int = 0
    public var commentsCount: Int = 0
    public var attitudesCount: Int = 0
    public var attitudesStatus: Int = 0
    public var recomState: Int = 0
    public var bizFeature: Int64 = 0
    public var mblogtypename: String = ""
    public var mlevel: Int = 0
    public var userType: Int = 0
    public var filterID: String = ""
    public var scheme: String = ""
    public var visible: WeiboVisible = WeiboVisible()
    public var annotations: [WeiboAnnotation] = []
    public var darwinTags: [String] = []
    public var thumbnailPic: String = ""
    public var bmiddlePic: String = ""
    public var originalPic: String = ""
    public var picIds: [String] = []
    public var picInfos: [String: WeiboPicture] = [:]

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case idstr
        case mid
        case mblogid
        case createdAt = "created_at"
        case text
        case source
        case sourceType = "source_type"
        case sourceAllowclick = "source_allowclick"
        case favorited
        case truncated
        case inReplyToStatusId = "in_reply_to_status_id"
        case inReplyToUserId = "in_reply_to_user_id"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case geo
        case user
        case repostsCount = "reposts_count"
        case commentsCount = "comments_count"
        case attitudesCount = "attitudes_count"
        case attitudesStatus = "attitudes_status"
        case recomState = "recom_state"
        case bizFeature = "biz_feature"
        case mblogtypename
        case mlevel
        case userType
        case filterID
        case scheme
        case visible
        case annotations
        case darwinTags = "darwin_tags"
        case thumbnailPic = "thumbnail_pic"
        case bmiddlePic = "bmiddle_pic"
        case originalPic = "original_pic"
        case picIds = "pic_ids"
        case picInfos = "pic_infos"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "userType": "userType",
        "filterID": "filterID",
    ]
}

extension WeiboStatus {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["idstr"] as? String { idstr = v }
        if let v = d["mid"] as? String { mid = v }
        if let v = d["mblogid"] as? String { mblogid = v }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["text"] as? String { text = v }
        if let v = d["source"] as? String { source = v }
        if let v = d["source_type"] as? Int { sourceType = v }
        if let v = d["source_allowclick"] as? Int { sourceAllowclick = v }
        if let v = d["favorited"] as? Bool { favorited = v }
        if let v = d["truncated"] as? Bool { truncated = v }
        if let v = d["in_reply_to_status_id"] as? String { inReplyToStatusId = v }
        if let v = d["in_reply_to_user_id"] as? String { inReplyToUserId = v }
        if let v = d["in_reply_to_screen_name"] as? String { inReplyToScreenName = v }
        if let v = d["geo"] as? String { geo = v }
        if let v = d["user"] as? [String: Any] { user = WeiboUser(dictionary: v) }
        if let v = d["reposts_count"] as? Int { repostsCount = v }
        if let v = d["comments_count"] as? Int { commentsCount = v }
        if let v = d["attitudes_count"] as? Int { attitudesCount = v }
        if let v = d["attitudes_status"] as? Int { attitudesStatus = v }
        if let v = d["recom_state"] as? Int { recomState = v }
        if let v = d["biz_feature"] as? Int64 { bizFeature = v }
        if let v = d["mblogtypename"] as? String { mblogtypename = v }
        if let v = d["mlevel"] as? Int { mlevel = v }
        if let v = d["userType"] as? Int { userType = v }
        if let v = d["filterID"] as? String { filterID = v }
        if let v = d["scheme"] as? String { scheme = v }
        if let v = d["visible"] as? [String: Any] { visible = WeiboVisible(dictionary: v) }
        if let v = d["annotations"] as? [[String: Any]] { annotations = v.map { WeiboAnnotation(dictionary: $0) } }
        if let v = d["darwin_tags"] as? [String] { darwinTags = v }
        if let v = d["thumbnail_pic"] as? String { thumbnailPic = v }
        if let v = d["bmiddle_pic"] as? String { bmiddlePic = v }
        if let v = d["original_pic"] as? String { originalPic = v }
        if let v = d["pic_ids"] as? [String] { picIds = v }
        if let v = d["pic_infos"] as? [String: [String: Any]] { picInfos = v.mapValues { WeiboPicture(dictionary: $0) } }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 35)
        d["id"] = id
        d["idstr"] = idstr
        d["mid"] = mid
        d["mblogid"] = mblogid
        d["created_at"] = createdAt
        d["text"] = text
        d["source"] = source
        d["source_type"] = sourceType
        d["source_allowclick"] = sourceAllowclick
        d["favorited"] = favorited
        d["truncated"] = truncated
        d["in_reply_to_status_id"] = inReplyToStatusId
        d["in_reply_to_user_id"] = inReplyToUserId
        d["in_reply_to_screen_name"] = inReplyToScreenName
        d["geo"] = geo
        d["user"] = user.dictionary()
        d["reposts_count"] = repostsCount
        d["comments_count"] = commentsCount
        d["attitudes_count"] = attitudesCount
        d["attitudes_status"] = attitudesStatus
        d["recom_state"] = recomState
        d["biz_feature"] = bizFeature
        d["mblogtypename"] = mblogtypename
        d["mlevel"] = mlevel
        d["userType"] = userType
        d["filterID"] = filterID
        d["scheme"] = scheme
        d["visible"] = visible.dictionary()
        d["annotations"] = annotations.map { $0.dictionary() }
        d["darwin_tags"] = darwinTags
        d["thumbnail_pic"] = thumbnailPic
        d["bmiddle_pic"] = bmiddlePic
        d["original_pic"] = originalPic
        d["pic_ids"] = picIds
        d["pic_infos"] = picInfos.mapValues { $0.dictionary() }
        return d
    }
}

public struct WeiboVisible: Codable, Equatable {
    public var type: Int = 0
    public var listId: Int = 0

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case type
        case listId = "list_id"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension WeiboVisible {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["type"] as? Int { type = v }
        if let v = d["list_id"] as? Int { listId = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["type"] = type
        d["list_id"] = listId
        return d
    }
}

/// The two annotations in the data have disjoint keys, so both are optional.
public struct WeiboAnnotation: Codable, Equatable {
    public var clientMblogid: String? = nil
    public var mapiRequest: Bool? = nil

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case clientMblogid = "client_mblogid"
        case mapiRequest = "mapi_request"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension WeiboAnnotation {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        clientMblogid = d["client_mblogid"] as? String
        mapiRequest = d["mapi_request"] as? Bool
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        if let v = clientMblogid { d["client_mblogid"] = v }
        if let v = mapiRequest { d["mapi_request"] = v }
        return d
    }
}

public struct WeiboPicture: Codable, Equatable {
    public var picId: String = ""
    public var objectId: String = ""
    public var filterId: String = ""
    public var photoTag: Int = 0
    public var thumbnail: WeiboPictureMetadata = WeiboPictureMetadata()
    public var bmiddle: WeiboPictureMetadata = WeiboPictureMetadata()
    public var middleplus: WeiboPictureMetadata = WeiboPictureMetadata()
    public var large: WeiboPictureMetadata = WeiboPictureMetadata()
    public var largest: WeiboPictureMetadata = WeiboPictureMetadata()
    public var original: WeiboPictureMetadata = WeiboPictureMetadata()

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case picId = "pic_id"
        case objectId = "object_id"
        case filterId = "filter_id"
        case photoTag = "photo_tag"
        case thumbnail
        case bmiddle
        case middleplus
        case large
        case largest
        case original
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension WeiboPicture {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["pic_id"] as? String { picId = v }
        if let v = d["object_id"] as? String { objectId = v }
        if let v = d["filter_id"] as? String { filterId = v }
        if let v = d["photo_tag"] as? Int { photoTag = v }
        if let v = d["thumbnail"] as? [String: Any] { thumbnail = WeiboPictureMetadata(dictionary: v) }
        if let v = d["bmiddle"] as? [String: Any] { bmiddle = WeiboPictureMetadata(dictionary: v) }
        if let v = d["middleplus"] as? [String: Any] { middleplus = WeiboPictureMetadata(dictionary: v) }
        if let v = d["large"] as? [String: Any] { large = WeiboPictureMetadata(dictionary: v) }
        if let v = d["largest"] as? [String: Any] { largest = WeiboPictureMetadata(dictionary: v) }
        if let v = d["original"] as? [String: Any] { original = WeiboPictureMetadata(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 10)
        d["pic_id"] = picId
        d["object_id"] = objectId
        d["filter_id"] = filterId
        d["photo_tag"] = photoTag
        d["thumbnail"] = thumbnail.dictionary()
        d["bmiddle"] = bmiddle.dictionary()
        d["middleplus"] = middleplus.dictionary()
        d["large"] = large.dictionary()
        d["largest"] = largest.dictionary()
        d["original"] = original.dictionary()
        return d
    }
}

/// `width` and `height` arrive as numbers for some sizes and as strings ("640") for
/// others; all contenders convert them to Int (as YYModel does).
public struct WeiboPictureMetadata: Codable, Equatable {
    public var cutType: Int = 0
    public var type: String = ""
    public var url: String = ""
    public var width: Int = 0
    public var height: Int = 0

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case cutType = "cut_type"
        case type
        case url
        case width
        case height
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]

    /// Handwritten because the feed sends some integers as strings ("640").
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        cutType = try c.decode(Int.self, forKey: .cutType)
        type = try c.decode(String.self, forKey: .type)
        url = try c.decode(String.self, forKey: .url)
        width = try Self.decodeLenientInt(c, .width)
        height = try Self.decodeLenientInt(c, .height)
    }

    private static func decodeLenientInt(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Int {
        if let v = try? c.decode(Int.self, forKey: key) { return v }
        let s = try c.decode(String.self, forKey: key)
        guard let v = Int(s) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "expected an integer, got \"\(s)\"")
        }
        return v
    }
}

extension WeiboPictureMetadata {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["cut_type"] as? Int { cutType = v }
        if let v = d["type"] as? String { type = v }
        if let v = d["url"] as? String { url = v }
        if let v = d["width"] as? Int { width = v } else if let s = d["width"] as? String, let v = Int(s) { width = v }
        if let v = d["height"] as? Int { height = v } else if let s = d["height"] as? String, let v = Int(s) { height = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 5)
        d["cut_type"] = cutType
        d["type"] = type
        d["url"] = url
        d["width"] = width
        d["height"] = height
        return d
    }
}

/// `class` is a Swift keyword, hence `userClass`.
public struct WeiboUser: Codable, Equatable {
    public var id: Int64 = 0
    public var idstr: String = ""
    public var userClass: Int = 0
    public var screenName: String = ""
    public var name: String = ""
    public var province: String = ""
    public var city: String = ""
    public var location: String = ""
    public var description: String = ""
    public var url: String = ""
    public var profileImageUrl: String = ""
    public var coverImagePhone: String = ""
    public var profileUrl: String = ""
    public var domain: String = ""
    public var weihao: String = ""
    public var gender: String = ""
    public var followersCount: Int = 0
    public var friendsCount: Int = 0
    public var pagefriendsCount: Int = 0
    public var statusesCount: Int = 0
    public var favouritesCount: Int = 0
    public var createdAt: String = ""
    public var following: Bool = false
    public var allowAllActMsg: Bool = false
    public var geoEnabled: Bool = false
    public var verified: Bool = false
    public var verifiedType: Int = 0
    public var remark: String = ""
    public var ptype: Int = 0
    public var allowAllComment: Bool = false
    public var avatarLarge: String = ""
    public var avatarHd: String = ""
    public var verifiedReason: String = ""
    public var verifiedTrade: String = ""
    public var verifiedReasonUrl: String = ""
    public var verifiedSource: String = ""
    public var verifiedSourceUrl: String = ""
    public var verifiedState: Int = 0
    public var verifiedLevel: Int = 0
    public var verifiedReasonModified: String = ""
    public var verifiedContactName: String = ""
    public var verifiedContactEmail: String = ""
    public var verifiedContactMobile: String = ""
    public var followMe: Bool = false
    public var onlineStatus: Int = 0
    public var biFollowersCount: Int = 0
    public var lang: String = ""
    public var star: Int = 0
    public var mbtype: Int = 0
    public var mbrank: Int = 0
    public var blockWord: Int = 0
    public var blockApp: Int = 0
    public var creditScore: Int = 0
    public var userAbility: Int = 0
    public var urank: Int = 0
    public var ulevel: Int = 0
    public var level: Int = 0
    public var type: Int = 0
    public var hasAbilityTag: Int = 0
    public var badgeTop: String = ""
    public var icons: [WeiboIcon] = []
    public var badge: WeiboBadge = WeiboBadge()
    public var extend: WeiboUserExtend = WeiboUserExtend()

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case idstr
        case userClass = "class"
        case screenName = "screen_name"
        case name
        case province
        case city
        case location
        case description
        case url
        case profileImageUrl = "profile_image_url"
        case coverImagePhone = "cover_image_phone"
        case profileUrl = "profile_url"
        case domain
        case weihao
        case gender
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case pagefriendsCount = "pagefriends_count"
        case statusesCount = "statuses_count"
        case favouritesCount = "favourites_count"
        case createdAt = "created_at"
        case following
        case allowAllActMsg = "allow_all_act_msg"
        case geoEnabled = "geo_enabled"
        case verified
        case verifiedType = "verified_type"
        case remark
        case ptype
        case allowAllComment = "allow_all_comment"
        case avatarLarge = "avatar_large"
        case avatarHd = "avatar_hd"
        case verifiedReason = "verified_reason"
        case verifiedTrade = "verified_trade"
        case verifiedReasonUrl = "verified_reason_url"
        case verifiedSource = "verified_source"
        case verifiedSourceUrl = "verified_source_url"
        case verifiedState = "verified_state"
        case verifiedLevel = "verified_level"
        case verifiedReasonModified = "verified_reason_modified"
        case verifiedContactName = "verified_contact_name"
        case verifiedContactEmail = "verified_contact_email"
        case verifiedContactMobile = "verified_contact_mobile"
        case followMe = "follow_me"
        case onlineStatus = "online_status"
        case biFollowersCount = "bi_followers_count"
        case lang
        case star
        case mbtype
        case mbrank
        case blockWord = "block_word"
        case blockApp = "block_app"
        case creditScore = "credit_score"
        case userAbility = "user_ability"
        case urank
        case ulevel
        case level
        case type
        case hasAbilityTag = "has_ability_tag"
        case badgeTop = "badge_top"
        case icons
        case badge
        case extend
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "userClass": "class",
    ]
}

extension WeiboUser {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int64 { id = v }
        if let v = d["idstr"] as? String { idstr = v }
        if let v = d["class"] as? Int { userClass = v }
        if let v = d["screen_name"] as? String { screenName = v }
        if let v = d["name"] as? String { name = v }
        if let v = d["province"] as? String { province = v }
        if let v = d["city"] as? String { city = v }
        if let v = d["location"] as? String { location = v }
        if let v = d["description"] as? String { description = v }
        if let v = d["url"] as? String { url = v }
        if let v = d["profile_image_url"] as? String { profileImageUrl = v }
        if let v = d["cover_image_phone"] as? String { coverImagePhone = v }
        if let v = d["profile_url"] as? String { profileUrl = v }
        if let v = d["domain"] as? String { domain = v }
        if let v = d["weihao"] as? String { weihao = v }
        if let v = d["gender"] as? String { gender = v }
        if let v = d["followers_count"] as? Int { followersCount = v }
        if let v = d["friends_count"] as? Int { friendsCount = v }
        if let v = d["pagefriends_count"] as? Int { pagefriendsCount = v }
        if let v = d["statuses_count"] as? Int { statusesCount = v }
        if let v = d["favourites_count"] as? Int { favouritesCount = v }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["following"] as? Bool { following = v }
        if let v = d["allow_all_act_msg"] as? Bool { allowAllActMsg = v }
        if let v = d["geo_enabled"] as? Bool { geoEnabled = v }
        if let v = d["verified"] as? Bool { verified = v }
        if let v = d["verified_type"] as? Int { verifiedType = v }
        if let v = d["remark"] as? String { remark = v }
        if let v = d["ptype"] as? Int { ptype = v }
        if let v = d["allow_all_comment"] as? Bool { allowAllComment = v }
        if let v = d["avatar_large"] as? String { avatarLarge = v }
        if let v = d["avatar_hd"] as? String { avatarHd = v }
        if let v = d["verified_reason"] as? String { verifiedReason = v }
        if let v = d["verified_trade"] as? String { verifiedTrade = v }
        if let v = d["verified_reason_url"] as? String { verifiedReasonUrl = v }
        if let v = d["verified_source"] as? String { verifiedSource = v }
        if let v = d["verified_source_url"] as? String { verifiedSourceUrl = v }
        if let v = d["verified_state"] as? Int { verifiedState = v }
        if let v = d["verified_level"] as? Int { verifiedLevel = v }
        if let v = d["verified_reason_modified"] as? String { verifiedReasonModified = v }
        if let v = d["verified_contact_name"] as? String { verifiedContactName = v }
        if let v = d["verified_contact_email"] as? String { verifiedContactEmail = v }
        if let v = d["verified_contact_mobile"] as? String { verifiedContactMobile = v }
        if let v = d["follow_me"] as? Bool { followMe = v }
        if let v = d["online_status"] as? Int { onlineStatus = v }
        if let v = d["bi_followers_count"] as? Int { biFollowersCount = v }
        if let v = d["lang"] as? String { lang = v }
        if let v = d["star"] as? Int { star = v }
        if let v = d["mbtype"] as? Int { mbtype = v }
        if let v = d["mbrank"] as? Int { mbrank = v }
        if let v = d["block_word"] as? Int { blockWord = v }
        if let v = d["block_app"] as? Int { blockApp = v }
        if let v = d["credit_score"] as? Int { creditScore = v }
        if let v = d["user_ability"] as? Int { userAbility = v }
        if let v = d["urank"] as? Int { urank = v }
        if let v = d["ulevel"] as? Int { ulevel = v }
        if let v = d["level"] as? Int { level = v }
        if let v = d["type"] as? Int { type = v }
        if let v = d["has_ability_tag"] as? Int { hasAbilityTag = v }
        if let v = d["badge_top"] as? String { badgeTop = v }
        if let v = d["icons"] as? [[String: Any]] { icons = v.map { WeiboIcon(dictionary: $0) } }
        if let v = d["badge"] as? [String: Any] { badge = WeiboBadge(dictionary: v) }
        if let v = d["extend"] as? [String: Any] { extend = WeiboUserExtend(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 63)
        d["id"] = id
        d["idstr"] = idstr
        d["class"] = userClass
        d["screen_name"] = screenName
        d["name"] = name
        d["province"] = province
        d["city"] = city
        d["location"] = location
        d["description"] = description
        d["url"] = url
        d["profile_image_url"] = profileImageUrl
        d["cover_image_phone"] = coverImagePhone
        d["profile_url"] = profileUrl
        d["domain"] = domain
        d["weihao"] = weihao
        d["gender"] = gender
        d["followers_count"] = followersCount
        d["friends_count"] = friendsCount
        d["pagefriends_count"] = pagefriendsCount
        d["statuses_count"] = statusesCount
        d["favourites_count"] = favouritesCount
        d["created_at"] = createdAt
        d["following"] = following
        d["allow_all_act_msg"] = allowAllActMsg
        d["geo_enabled"] = geoEnabled
        d["verified"] = verified
        d["verified_type"] = verifiedType
        d["remark"] = remark
        d["ptype"] = ptype
        d["allow_all_comment"] = allowAllComment
        d["avatar_large"] = avatarLarge
        d["avatar_hd"] = avatarHd
        d["verified_reason"] = verifiedReason
        d["verified_trade"] = verifiedTrade
        d["verified_reason_url"] = verifiedReasonUrl
        d["verified_source"] = verifiedSource
        d["verified_source_url"] = verifiedSourceUrl
        d["verified_state"] = verifiedState
        d["verified_level"] = verifiedLevel
        d["verified_reason_modified"] = verifiedReasonModified
        d["verified_contact_name"] = verifiedContactName
        d["verified_contact_email"] = verifiedContactEmail
        d["verified_contact_mobile"] = verifiedContactMobile
        d["follow_me"] = followMe
        d["online_status"] = onlineStatus
        d["bi_followers_count"] = biFollowersCount
        d["lang"] = lang
        d["star"] = star
        d["mbtype"] = mbtype
        d["mbrank"] = mbrank
        d["block_word"] = blockWord
        d["block_app"] = blockApp
        d["credit_score"] = creditScore
        d["user_ability"] = userAbility
        d["urank"] = urank
        d["ulevel"] = ulevel
        d["level"] = level
        d["type"] = type
        d["has_ability_tag"] = hasAbilityTag
        d["badge_top"] = badgeTop
        d["icons"] = icons.map { $0.dictionary() }
        d["badge"] = badge.dictionary()
        d["extend"] = extend.dictionary()
        return d
    }
}

public struct WeiboIcon: Codable, Equatable {
    public var url: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case url
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension WeiboIcon {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["url"] as? String { url = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 1)
        d["url"] = url
        return d
    }
}

/// Keys with a `_2014`-style suffix are not snake_case-derivable from camelCase names.
public struct WeiboBadge: Codable, Equatable {
    public var anniversary: Int = 0
    public var bindTaobao: Int = 0
    public var dailv: Int = 0
    public var dzwbqlv2015: Int = 0
    public var enterprise: Int = 0
    public var gongyi: Int = 0
    public var gongyiLevel: Int = 0
    public var hongbao2014: Int = 0
    public var pzsd2015: Int = 0
    public var suishoupai2014: Int = 0
    public var taobao: Int = 0
    public var travel2013: Int = 0
    public var ucDomain: Int = 0
    public var zongyiji: Int = 0

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case anniversary
        case bindTaobao = "bind_taobao"
        case dailv
        case dzwbqlv2015 = "dzwbqlv_2015"
        case enterprise
        case gongyi
        case gongyiLevel = "gongyi_level"
        case hongbao2014 = "hongbao_2014"
        case pzsd2015 = "pzsd_2015"
        case suishoupai2014 = "suishoupai_2014"
        case taobao
        case travel2013
        case ucDomain = "uc_domain"
        case zongyiji
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "dzwbqlv2015": "dzwbqlv_2015",
        "hongbao2014": "hongbao_2014",
        "pzsd2015": "pzsd_2015",
        "suishoupai2014": "suishoupai_2014",
    ]
}

extension WeiboBadge {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["anniversary"] as? Int { anniversary = v }
        if let v = d["bind_taobao"] as? Int { bindTaobao = v }
        if let v = d["dailv"] as? Int { dailv = v }
        if let v = d["dzwbqlv_2015"] as? Int { dzwbqlv2015 = v }
        if let v = d["enterprise"] as? Int { enterprise = v }
        if let v = d["gongyi"] as? Int { gongyi = v }
        if let v = d["gongyi_level"] as? Int { gongyiLevel = v }
        if let v = d["hongbao_2014"] as? Int { hongbao2014 = v }
        if let v = d["pzsd_2015"] as? Int { pzsd2015 = v }
        if let v = d["suishoupai_2014"] as? Int { suishoupai2014 = v }
        if let v = d["taobao"] as? Int { taobao = v }
        if let v = d["travel2013"] as? Int { travel2013 = v }
        if let v = d["uc_domain"] as? Int { ucDomain = v }
        if let v = d["zongyiji"] as? Int { zongyiji = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 14)
        d["anniversary"] = anniversary
        d["bind_taobao"] = bindTaobao
        d["dailv"] = dailv
        d["dzwbqlv_2015"] = dzwbqlv2015
        d["enterprise"] = enterprise
        d["gongyi"] = gongyi
        d["gongyi_level"] = gongyiLevel
        d["hongbao_2014"] = hongbao2014
        d["pzsd_2015"] = pzsd2015
        d["suishoupai_2014"] = suishoupai2014
        d["taobao"] = taobao
        d["travel2013"] = travel2013
        d["uc_domain"] = ucDomain
        d["zongyiji"] = zongyiji
        return d
    }
}

public struct WeiboUserExtend: Codable, Equatable {
    public var privacy: WeiboPrivacy = WeiboPrivacy()
    public var mbprivilege: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case privacy
        case mbprivilege
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension WeiboUserExtend {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["privacy"] as? [String: Any] { privacy = WeiboPrivacy(dictionary: v) }
        if let v = d["mbprivilege"] as? String { mbprivilege = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["privacy"] = privacy.dictionary()
        d["mbprivilege"] = mbprivilege
        return d
    }
}

public struct WeiboPrivacy: Codable, Equatable {
    public var mobile: Int = 0

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case mobile
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension WeiboPrivacy {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["mobile"] as? Int { mobile = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 1)
        d["mobile"] = mobile
        return d
    }
}
