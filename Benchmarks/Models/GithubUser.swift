// Benchmark model types for YYModel's user.json (data/yymodel).
// Shape required by ModelMapper: struct, `var` stored properties with defaults, `init() {}`.
// Also: Codable (CodingKeys with the JSON keys) for JSONDecoder, and handwritten
// `init(dictionary:)` / `dictionary()` for the JSONSerialization "Manually" rows.

import Foundation

/// Root of YYModel's user.json (YYModel's GithubUser benchmark). `company` and `email`
/// are null in the data, `hireable` too (a Bool in the GitHub API).
public struct GithubUser: Codable, Equatable {
    public var login: String = ""
    public var id: Int = 0
    public var avatarUrl: String = ""
    public var gravatarId: String = ""
    public var url: String = ""
    public var htmlUrl: String = ""
    public var followersUrl: String = ""
    public var followingUrl: String = ""
    public var gistsUrl: String = ""
    public var starredUrl: String = ""
    public var subscriptionsUrl: String = ""
    public var organizationsUrl: String = ""
    public var reposUrl: String = ""
    public var eventsUrl: String = ""
    public var receivedEventsUrl: String = ""
    public var type: String = ""
    public var siteAdmin: Bool = false
    public var name: String = ""
    public var company: String? = nil
    public var blog: String = ""
    public var location: String = ""
    public var email: String? = nil
    public var hireable: Bool? = nil
    public var bio: String = ""
    public var publicRepos: Int = 0
    public var publicGists: Int = 0
    public var followers: Int = 0
    public var following: Int = 0

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case login
        case id
        case avatarUrl = "avatar_url"
        case gravatarId = "gravatar_id"
        case url
        case htmlUrl = "html_url"
        case followersUrl = "followers_url"
        case followingUrl = "following_url"
        case gistsUrl = "gists_url"
        case starredUrl = "starred_url"
        case subscriptionsUrl = "subscriptions_url"
        case organizationsUrl = "organizations_url"
        case reposUrl = "repos_url"
        case eventsUrl = "events_url"
        case receivedEventsUrl = "received_events_url"
        case type
        case siteAdmin = "site_admin"
        case name
        case company
        case blog
        case location
        case email
        case hireable
        case bio
        case publicRepos = "public_repos"
        case publicGists = "public_gists"
        case followers
        case following
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubUser {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["login"] as? String { login = v }
        if let v = d["id"] as? Int { id = v }
        if let v = d["avatar_url"] as? String { avatarUrl = v }
        if let v = d["gravatar_id"] as? String { gravatarId = v }
        if let v = d["url"] as? String { url = v }
        if let v = d["html_url"] as? String { htmlUrl = v }
        if let v = d["followers_url"] as? String { followersUrl = v }
        if let v = d["following_url"] as? String { followingUrl = v }
        if let v = d["gists_url"] as? String { gistsUrl = v }
        if let v = d["starred_url"] as? String { starredUrl = v }
        if let v = d["subscriptions_url"] as? String { subscriptionsUrl = v }
        if let v = d["organizations_url"] as? String { organizationsUrl = v }
        if let v = d["repos_url"] as? String { reposUrl = v }
        if let v = d["events_url"] as? String { eventsUrl = v }
        if let v = d["received_events_url"] as? String { receivedEventsUrl = v }
        if let v = d["type"] as? String { type = v }
        if let v = d["site_admin"] as? Bool { siteAdmin = v }
        if let v = d["name"] as? String { name = v }
        company = d["company"] as? String
        if let v = d["blog"] as? String { blog = v }
        if let v = d["location"] as? String { location = v }
        email = d["email"] as? String
        hireable = d["hireable"] as? Bool
        if let v = d["bio"] as? String { bio = v }
        if let v = d["public_repos"] as? Int { publicRepos = v }
        if let v = d["public_gists"] as? Int { publicGists = v }
        if let v = d["followers"] as? Int { followers = v }
        if let v = d["following"] as? Int { following = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 28)
        d["login"] = login
        d["id"] = id
        d["avatar_url"] = avatarUrl
        d["gravatar_id"] = gravatarId
        d["url"] = url
        d["html_url"] = htmlUrl
        d["followers_url"] = followersUrl
        d["following_url"] = followingUrl
        d["gists_url"] = gistsUrl
        d["starred_url"] = starredUrl
        d["subscriptions_url"] = subscriptionsUrl
        d["organizations_url"] = organizationsUrl
        d["repos_url"] = reposUrl
        d["events_url"] = eventsUrl
        d["received_events_url"] = receivedEventsUrl
        d["type"] = type
        d["site_admin"] = siteAdmin
        d["name"] = name
        if let v = company { d["company"] = v }
        d["blog"] = blog
        d["location"] = location
        if let v = email { d["email"] = v }
        if let v = hireable { d["hireable"] = v }
        d["bio"] = bio
        d["public_repos"] = publicRepos
        d["public_gists"] = publicGists
        d["followers"] = followers
        d["following"] = following
        return d
    }
}
