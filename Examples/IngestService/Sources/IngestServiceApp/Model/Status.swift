import Foundation
import ModelMapper

/// The event this service ingests: a subset of a Twitter status (the shape `scripts/gen-jsonl` writes).
/// Keys the model does not name are skipped by the tokenizer and cost nothing.
public struct Status: JSONMappable, Sendable {
    public var id: Int64 = 0
    public var createdAt = Date(timeIntervalSince1970: 0)
    public var text = ""
    public var lang: String? = nil
    public var retweetCount = 0
    public var favoriteCount = 0
    public var user = User()
    public var entities = Entities()
    public static let mapping = ModelMapping(keyStrategy: .snakeCase, required: ["id", "user"])

    public init() {}
}

/// The author of a ``Status``.
public struct User: JSONMappable, Sendable {
    public var id: Int64 = 0
    public var screenName = ""
    public var followersCount = 0
    public var verified = false
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)

    public init() {}
}

/// Hashtags and links of a ``Status``.
public struct Entities: JSONMappable, Sendable {
    public var hashtags: [Hashtag] = []
    public var urls: [Link] = []

    public init() {}
}

public struct Hashtag: JSONMappable, Sendable {
    public var text = ""
    public init() {}
}

public struct Link: JSONMappable, Sendable {
    public var expandedUrl: URL? = nil
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)
    public init() {}
}
