// Partial benchmark models for github_events.json (data/bench): what an activity feed keeps of each
// event (18 properties over 4 types; commits, forkee, issue, comment, pages and org are skipped).
// Shape required by ModelMapper: struct, `var` stored properties with defaults, `init() {}`.
// Also: Codable (CodingKeys with the JSON keys) for JSONDecoder, and handwritten
// `init(dictionary:)` / `dictionary()` for the JSONSerialization "Manually" rows.

import Foundation

/// One element of github_events.json (a top-level array: decode `[GithubPartialEvent]`).
/// `public` is a Swift keyword, hence `isPublic`.
public struct GithubPartialEvent: Codable, Equatable {
    public var id: String = ""
    public var type: String = ""
    public var createdAt: String = ""
    public var isPublic: Bool = false
    public var actor: GithubPartialActor = GithubPartialActor()
    public var repo: GithubPartialRepo = GithubPartialRepo()
    public var payload: GithubPartialPayload = GithubPartialPayload()

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case type
        case createdAt = "created_at"
        case isPublic = "public"
        case actor
        case repo
        case payload
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "isPublic": "public",
    ]
}

extension GithubPartialEvent {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? String { id = v }
        if let v = d["type"] as? String { type = v }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["public"] as? Bool { isPublic = v }
        if let v = d["actor"] as? [String: Any] { actor = GithubPartialActor(dictionary: v) }
        if let v = d["repo"] as? [String: Any] { repo = GithubPartialRepo(dictionary: v) }
        if let v = d["payload"] as? [String: Any] { payload = GithubPartialPayload(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 7)
        d["id"] = id
        d["type"] = type
        d["created_at"] = createdAt
        d["public"] = isPublic
        d["actor"] = actor.dictionary()
        d["repo"] = repo.dictionary()
        d["payload"] = payload.dictionary()
        return d
    }
}

/// `actor` of an event: who did it.
public struct GithubPartialActor: Codable, Equatable {
    public var id: Int = 0
    public var login: String = ""
    public var avatarUrl: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case login
        case avatarUrl = "avatar_url"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubPartialActor {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int { id = v }
        if let v = d["login"] as? String { login = v }
        if let v = d["avatar_url"] as? String { avatarUrl = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 3)
        d["id"] = id
        d["login"] = login
        d["avatar_url"] = avatarUrl
        return d
    }
}

/// `repo` of an event.
public struct GithubPartialRepo: Codable, Equatable {
    public var id: Int = 0
    public var name: String = ""
    public var url: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case name
        case url
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubPartialRepo {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int { id = v }
        if let v = d["name"] as? String { name = v }
        if let v = d["url"] as? String { url = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 3)
        d["id"] = id
        d["name"] = name
        d["url"] = url
        return d
    }
}

/// The few payload fields a feed line needs ("pushed 3 commits to refs/heads/main", "started", ...);
/// which of them are present depends on the event type, hence optionals.
public struct GithubPartialPayload: Codable, Equatable {
    public var action: String? = nil
    public var ref: String? = nil
    public var refType: String? = nil
    public var size: Int? = nil
    public var head: String? = nil

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case action
        case ref
        case refType = "ref_type"
        case size
        case head
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubPartialPayload {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        action = d["action"] as? String
        ref = d["ref"] as? String
        refType = d["ref_type"] as? String
        size = d["size"] as? Int
        head = d["head"] as? String
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 5)
        if let v = action { d["action"] = v }
        if let v = ref { d["ref"] = v }
        if let v = refType { d["ref_type"] = v }
        if let v = size { d["size"] = v }
        if let v = head { d["head"] = v }
        return d
    }
}
