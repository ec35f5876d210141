// Benchmark model types for github_events.json (data/bench).
// Shape required by ModelMapper: struct, `var` stored properties with defaults, `init() {}`.
// Also: Codable (CodingKeys with the JSON keys) for JSONDecoder, and handwritten
// `init(dictionary:)` / `dictionary()` for the JSONSerialization "Manually" rows.

import Foundation

/// One element of github_events.json (a top-level array: decode `[GithubEvent]`).
/// `public` is a Swift keyword, hence `isPublic`.
public struct GithubEvent: Codable, Equatable {
    public var id: String = ""
    public var type: String = ""
    public var actor: GithubActor = GithubActor()
    public var repo: GithubRepo = GithubRepo()
    public var payload: GithubEventPayload = GithubEventPayload()
    public var isPublic: Bool = false
    public var createdAt: String = ""
    public var org: GithubActor? = nil

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case type
        case actor
        case repo
        case payload
        case isPublic = "public"
        case createdAt = "created_at"
        case org
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "isPublic": "public",
    ]
}

extension GithubEvent {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? String { id = v }
        if let v = d["type"] as? String { type = v }
        if let v = d["actor"] as? [String: Any] { actor = GithubActor(dictionary: v) }
        if let v = d["repo"] as? [String: Any] { repo = GithubRepo(dictionary: v) }
        if let v = d["payload"] as? [String: Any] { payload = GithubEventPayload(dictionary: v) }
        if let v = d["public"] as? Bool { isPublic = v }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["org"] as? [String: Any] { org = GithubActor(dictionary: v) }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 8)
        d["id"] = id
        d["type"] = type
        d["actor"] = actor.dictionary()
        d["repo"] = repo.dictionary()
        d["payload"] = payload.dictionary()
        d["public"] = isPublic
        d["created_at"] = createdAt
        if let v = org { d["org"] = v.dictionary() }
        return d
    }
}

/// `actor` and `org` of an event.
public struct GithubActor: Codable, Equatable {
    public var id: Int = 0
    public var login: String = ""
    public var gravatarId: String = ""
    public var url: String = ""
    public var avatarUrl: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case login
        case gravatarId = "gravatar_id"
        case url
        case avatarUrl = "avatar_url"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubActor {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int { id = v }
        if let v = d["login"] as? String { login = v }
        if let v = d["gravatar_id"] as? String { gravatarId = v }
        if let v = d["url"] as? String { url = v }
        if let v = d["avatar_url"] as? String { avatarUrl = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 5)
        d["id"] = id
        d["login"] = login
        d["gravatar_id"] = gravatarId
        d["url"] = url
        d["avatar_url"] = avatarUrl
        return d
    }
}

public struct GithubRepo: Codable, Equatable {
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

extension GithubRepo {
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

/// Union of the payload fields of all event types in the data (Push, Create, Fork,
/// Watch, Issues, IssueComment, Gollum); each is absent for the other types. `ref` is null for
/// repository CreateEvents.
public struct GithubEventPayload: Codable, Equatable {
    public var action: String? = nil
    public var pushId: Int? = nil
    public var size: Int? = nil
    public var distinctSize: Int? = nil
    public var ref: String? = nil
    public var head: String? = nil
    public var before: String? = nil
    public var commits: [GithubCommit]? = nil
    public var refType: String? = nil
    public var masterBranch: String? = nil
    public var description: String? = nil
    public var forkee: GithubForkee? = nil
    public var issue: GithubIssue? = nil
    public var comment: GithubComment? = nil
    public var pages: [GithubWikiPage]? = nil

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case action
        case pushId = "push_id"
        case size
        case distinctSize = "distinct_size"
        case ref
        case head
        case before
        case commits
        case refType = "ref_type"
        case masterBranch = "master_branch"
        case description
        case forkee
        case issue
        case comment
        case pages
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubEventPayload {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        action = d["action"] as? String
        pushId = d["push_id"] as? Int
        size = d["size"] as? Int
        distinctSize = d["distinct_size"] as? Int
        ref = d["ref"] as? String
        head = d["head"] as? String
        before = d["before"] as? String
        if let v = d["commits"] as? [[String: Any]] { commits = v.map { GithubCommit(dictionary: $0) } }
        refType = d["ref_type"] as? String
        masterBranch = d["master_branch"] as? String
        description = d["description"] as? String
        if let v = d["forkee"] as? [String: Any] { forkee = GithubForkee(dictionary: v) }
        if let v = d["issue"] as? [String: Any] { issue = GithubIssue(dictionary: v) }
        if let v = d["comment"] as? [String: Any] { comment = GithubComment(dictionary: v) }
        if let v = d["pages"] as? [[String: Any]] { pages = v.map { GithubWikiPage(dictionary: $0) } }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 15)
        if let v = action { d["action"] = v }
        if let v = pushId { d["push_id"] = v }
        if let v = size { d["size"] = v }
        if let v = distinctSize { d["distinct_size"] = v }
        if let v = ref { d["ref"] = v }
        if let v = head { d["head"] = v }
        if let v = before { d["before"] = v }
        if let v = commits { d["commits"] = v.map { $0.dictionary() } }
        if let v = refType { d["ref_type"] = v }
        if let v = masterBranch { d["master_branch"] = v }
        if let v = description { d["description"] = v }
        if let v = forkee { d["forkee"] = v.dictionary() }
        if let v = issue { d["issue"] = v.dictionary() }
        if let v = comment { d["comment"] = v.dictionary() }
        if let v = pages { d["pages"] = v.map { $0.dictionary() } }
        return d
    }
}

public struct GithubCommit: Codable, Equatable {
    public var sha: String = ""
    public var author: GithubCommitAuthor = GithubCommitAuthor()
    public var message: String = ""
    public var distinct: Bool = false
    public var url: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case sha
        case author
        case message
        case distinct
        case url
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubCommit {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["sha"] as? String { sha = v }
        if let v = d["author"] as? [String: Any] { author = GithubCommitAuthor(dictionary: v) }
        if let v = d["message"] as? String { message = v }
        if let v = d["distinct"] as? Bool { distinct = v }
        if let v = d["url"] as? String { url = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 5)
        d["sha"] = sha
        d["author"] = author.dictionary()
        d["message"] = message
        d["distinct"] = distinct
        d["url"] = url
        return d
    }
}

public struct GithubCommitAuthor: Codable, Equatable {
    public var email: String = ""
    public var name: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case email
        case name
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubCommitAuthor {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["email"] as? String { email = v }
        if let v = d["name"] as? String { name = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 2)
        d["email"] = email
        d["name"] = name
        return d
    }
}

/// A full user object (fork owner, issue user/assignee, comment user).
public struct GithubEventUser: Codable, Equatable {
    public var login: String = ""
    public var id: Int = 0
    public var avatarUrl: String = ""
    public var gravatarId: String = ""
    public var url: String = ""
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

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case login
        case id
        case avatarUrl = "avatar_url"
        case gravatarId = "gravatar_id"
        case url
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
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubEventUser {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["login"] as? String { login = v }
        if let v = d["id"] as? Int { id = v }
        if let v = d["avatar_url"] as? String { avatarUrl = v }
        if let v = d["gravatar_id"] as? String { gravatarId = v }
        if let v = d["url"] as? String { url = v }
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
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 15)
        d["login"] = login
        d["id"] = id
        d["avatar_url"] = avatarUrl
        d["gravatar_id"] = gravatarId
        d["url"] = url
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
        return d
    }
}

/// The repository created by a ForkEvent. `private` and `public` are Swift keywords.
public struct GithubForkee: Codable, Equatable {
    public var id: Int = 0
    public var name: String = ""
    public var fullName: String = ""
    public var owner: GithubEventUser = GithubEventUser()
    public var isPrivate: Bool = false
    public var htmlUrl: String = ""
    public var description: String = ""
    public var fork: Bool = false
    public var url: String = ""
    public var forksUrl: String = ""
    public var keysUrl: String = ""
    public var collaboratorsUrl: String = ""
    public var teamsUrl: String = ""
    public var hooksUrl: String = ""
    public var issueEventsUrl: String = ""
    public var eventsUrl: String = ""
    public var assigneesUrl: String = ""
    public var branchesUrl: String = ""
    public var tagsUrl: String = ""
    public var blobsUrl: String = ""
    public var gitTagsUrl: String = ""
    public var gitRefsUrl: String = ""
    public var treesUrl: String = ""
    public var statusesUrl: String = ""
    public var languagesUrl: String = ""
    public var stargazersUrl: String = ""
    public var contributorsUrl: String = ""
    public var subscribersUrl: String = ""
    public var subscriptionUrl: String = ""
    public var commitsUrl: String = ""
    public var gitCommitsUrl: String = ""
    public var commentsUrl: String = ""
    public var issueCommentUrl: String = ""
    public var contentsUrl: String = ""
    public var compareUrl: String = ""
    public var mergesUrl: String = ""
    public var archiveUrl: String = ""
    public var downloadsUrl: String = ""
    public var issuesUrl: String = ""
    public var pullsUrl: String = ""
    public var milestonesUrl: String = ""
    public var notificationsUrl: String = ""
    public var labelsUrl: String = ""
    public var createdAt: String = ""
    public var updatedAt: String = ""
    public var pushedAt: String = ""
    public var gitUrl: String = ""
    public var sshUrl: String = ""
    public var cloneUrl: String = ""
    public var svnUrl: String = ""
    public var homepage: String? = nil
    public var size: Int = 0
    public var watchersCount: Int = 0
    public var language: String = ""
    public var hasIssues: Bool = false
    public var hasDownloads: Bool = false
    public var hasWiki: Bool = false
    public var forksCount: Int = 0
    public var mirrorUrl: String? = nil
    public var openIssuesCount: Int = 0
    public var forks: Int = 0
    public var openIssues: Int = 0
    public var watchers: Int = 0
    public var isPublic: Bool = false

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case name
        case fullName = "full_name"
        case owner
        case isPrivate = "private"
        case htmlUrl = "html_url"
        case description
        case fork
        case url
        case forksUrl = "forks_url"
        case keysUrl = "keys_url"
        case collaboratorsUrl = "collaborators_url"
        case teamsUrl = "teams_url"
        case hooksUrl = "hooks_url"
        case issueEventsUrl = "issue_events_url"
        case eventsUrl = "events_url"
        case assigneesUrl = "assignees_url"
        case branchesUrl = "branches_url"
        case tagsUrl = "tags_url"
        case blobsUrl = "blobs_url"
        case gitTagsUrl = "git_tags_url"
        case gitRefsUrl = "git_refs_url"
        case treesUrl = "trees_url"
        case statusesUrl = "statuses_url"
        case languagesUrl = "languages_url"
        case stargazersUrl = "stargazers_url"
        case contributorsUrl = "contributors_url"
        case subscribersUrl = "subscribers_url"
        case subscriptionUrl = "subscription_url"
        case commitsUrl = "commits_url"
        case gitCommitsUrl = "git_commits_url"
        case commentsUrl = "comments_url"
        case issueCommentUrl = "issue_comment_url"
        case contentsUrl = "contents_url"
        case compareUrl = "compare_url"
        case mergesUrl = "merges_url"
        case archiveUrl = "archive_url"
        case downloadsUrl = "downloads_url"
        case issuesUrl = "issues_url"
        case pullsUrl = "pulls_url"
        case milestonesUrl = "milestones_url"
        case notificationsUrl = "notifications_url"
        case labelsUrl = "labels_url"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case pushedAt = "pushed_at"
        case gitUrl = "git_url"
        case sshUrl = "ssh_url"
        case cloneUrl = "clone_url"
        case svnUrl = "svn_url"
        case homepage
        case size
        case watchersCount = "watchers_count"
        case language
        case hasIssues = "has_issues"
        case hasDownloads = "has_downloads"
        case hasWiki = "has_wiki"
        case forksCount = "forks_count"
        case mirrorUrl = "mirror_url"
        case openIssuesCount = "open_issues_count"
        case forks
        case openIssues = "open_issues"
        case watchers
        case isPublic = "public"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [
        "isPrivate": "private",
        "isPublic": "public",
    ]
}

extension GithubForkee {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int { id = v }
        if let v = d["name"] as? String { name = v }
        if let v = d["full_name"] as? String { fullName = v }
        if let v = d["owner"] as? [String: Any] { owner = GithubEventUser(dictionary: v) }
        if let v = d["private"] as? Bool { isPrivate = v }
        if let v = d["html_url"] as? String { htmlUrl = v }
        if let v = d["description"] as? String { description = v }
        if let v = d["fork"] as? Bool { fork = v }
        if let v = d["url"] as? String { url = v }
        if let v = d["forks_url"] as? String { forksUrl = v }
        if let v = d["keys_url"] as? String { keysUrl = v }
        if let v = d["collaborators_url"] as? String { collaboratorsUrl = v }
        if let v = d["teams_url"] as? String { teamsUrl = v }
        if let v = d["hooks_url"] as? String { hooksUrl = v }
        if let v = d["issue_events_url"] as? String { issueEventsUrl = v }
        if let v = d["events_url"] as? String { eventsUrl = v }
        if let v = d["assignees_url"] as? String { assigneesUrl = v }
        if let v = d["branches_url"] as? String { branchesUrl = v }
        if let v = d["tags_url"] as? String { tagsUrl = v }
        if let v = d["blobs_url"] as? String { blobsUrl = v }
        if let v = d["git_tags_url"] as? String { gitTagsUrl = v }
        if let v = d["git_refs_url"] as? String { gitRefsUrl = v }
        if let v = d["trees_url"] as? String { treesUrl = v }
        if let v = d["statuses_url"] as? String { statusesUrl = v }
        if let v = d["languages_url"] as? String { languagesUrl = v }
        if let v = d["stargazers_url"] as? String { stargazersUrl = v }
        if let v = d["contributors_url"] as? String { contributorsUrl = v }
        if let v = d["subscribers_url"] as? String { subscribersUrl = v }
        if let v = d["subscription_url"] as? String { subscriptionUrl = v }
        if let v = d["commits_url"] as? String { commitsUrl = v }
        if let v = d["git_commits_url"] as? String { gitCommitsUrl = v }
        if let v = d["comments_url"] as? String { commentsUrl = v }
        if let v = d["issue_comment_url"] as? String { issueCommentUrl = v }
        if let v = d["contents_url"] as? String { contentsUrl = v }
        if let v = d["compare_url"] as? String { compareUrl = v }
        if let v = d["merges_url"] as? String { mergesUrl = v }
        if let v = d["archive_url"] as? String { archiveUrl = v }
        if let v = d["downloads_url"] as? String { downloadsUrl = v }
        if let v = d["issues_url"] as? String { issuesUrl = v }
        if let v = d["pulls_url"] as? String { pullsUrl = v }
        if let v = d["milestones_url"] as? String { milestonesUrl = v }
        if let v = d["notifications_url"] as? String { notificationsUrl = v }
        if let v = d["labels_url"] as? String { labelsUrl = v }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["updated_at"] as? String { updatedAt = v }
        if let v = d["pushed_at"] as? String { pushedAt = v }
        if let v = d["git_url"] as? String { gitUrl = v }
        if let v = d["ssh_url"] as? String { sshUrl = v }
        if let v = d["clone_url"] as? String { cloneUrl = v }
        if let v = d["svn_url"] as? String { svnUrl = v }
        homepage = d["homepage"] as? String
        if let v = d["size"] as? Int { size = v }
        if let v = d["watchers_count"] as? Int { watchersCount = v }
        if let v = d["language"] as? String { language = v }
        if let v = d["has_issues"] as? Bool { hasIssues = v }
        if let v = d["has_downloads"] as? Bool { hasDownloads = v }
        if let v = d["has_wiki"] as? Bool { hasWiki = v }
        if let v = d["forks_count"] as? Int { forksCount = v }
        mirrorUrl = d["mirror_url"] as? String
        if let v = d["open_issues_count"] as? Int { openIssuesCount = v }
        if let v = d["forks"] as? Int { forks = v }
        if let v = d["open_issues"] as? Int { openIssues = v }
        if let v = d["watchers"] as? Int { watchers = v }
        if let v = d["public"] as? Bool { isPublic = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 64)
        d["id"] = id
        d["name"] = name
        d["full_name"] = fullName
        d["owner"] = owner.dictionary()
        d["private"] = isPrivate
        d["html_url"] = htmlUrl
        d["description"] = description
        d["fork"] = fork
        d["url"] = url
        d["forks_url"] = forksUrl
        d["keys_url"] = keysUrl
        d["collaborators_url"] = collaboratorsUrl
        d["teams_url"] = teamsUrl
        d["hooks_url"] = hooksUrl
        d["issue_events_url"] = issueEventsUrl
        d["events_url"] = eventsUrl
        d["assignees_url"] = assigneesUrl
        d["branches_url"] = branchesUrl
        d["tags_url"] = tagsUrl
        d["blobs_url"] = blobsUrl
        d["git_tags_url"] = gitTagsUrl
        d["git_refs_url"] = gitRefsUrl
        d["trees_url"] = treesUrl
        d["statuses_url"] = statusesUrl
        d["languages_url"] = languagesUrl
        d["stargazers_url"] = stargazersUrl
        d["contributors_url"] = contributorsUrl
        d["subscribers_url"] = subscribersUrl
        d["subscription_url"] = subscriptionUrl
        d["commits_url"] = commitsUrl
        d["git_commits_url"] = gitCommitsUrl
        d["comments_url"] = commentsUrl
        d["issue_comment_url"] = issueCommentUrl
        d["contents_url"] = contentsUrl
        d["compare_url"] = compareUrl
        d["merges_url"] = mergesUrl
        d["archive_url"] = archiveUrl
        d["downloads_url"] = downloadsUrl
        d["issues_url"] = issuesUrl
        d["pulls_url"] = pullsUrl
        d["milestones_url"] = milestonesUrl
        d["notifications_url"] = notificationsUrl
        d["labels_url"] = labelsUrl
        d["created_at"] = createdAt
        d["updated_at"] = updatedAt
        d["pushed_at"] = pushedAt
        d["git_url"] = gitUrl
        d["ssh_url"] = sshUrl
        d["clone_url"] = cloneUrl
        d["svn_url"] = svnUrl
        if let v = homepage { d["homepage"] = v }
        d["size"] = size
        d["watchers_count"] = watchersCount
        d["language"] = language
        d["has_issues"] = hasIssues
        d["has_downloads"] = hasDownloads
        d["has_wiki"] = hasWiki
        d["forks_count"] = forksCount
        if let v = mirrorUrl { d["mirror_url"] = v }
        d["open_issues_count"] = openIssuesCount
        d["forks"] = forks
        d["open_issues"] = openIssues
        d["watchers"] = watchers
        d["public"] = isPublic
        return d
    }
}

/// `labels` is always empty in the data (typed `[String]`); `milestone` is always null
/// (an object in the GitHub API; typed `String?` until a `JSONValue?` field type is available).
public struct GithubIssue: Codable, Equatable {
    public var url: String = ""
    public var labelsUrl: String = ""
    public var commentsUrl: String = ""
    public var eventsUrl: String = ""
    public var htmlUrl: String = ""
    public var id: Int = 0
    public var number: Int = 0
    public var title: String = ""
    public var user: GithubEventUser = GithubEventUser()
    public var labels: [String] = []
    public var state: String = ""
    public var assignee: GithubEventUser? = nil
    public var milestone: String? = nil
    public var comments: Int = 0
    public var createdAt: String = ""
    public var updatedAt: String = ""
    public var closedAt: String? = nil
    public var pullRequest: GithubPullRequestLinks = GithubPullRequestLinks()
    public var body: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case url
        case labelsUrl = "labels_url"
        case commentsUrl = "comments_url"
        case eventsUrl = "events_url"
        case htmlUrl = "html_url"
        case id
        case number
        case title
        case user
        case labels
        case state
        case assignee
        case milestone
        case comments
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case closedAt = "closed_at"
        case pullRequest = "pull_request"
        case body
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubIssue {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["url"] as? String { url = v }
        if let v = d["labels_url"] as? String { labelsUrl = v }
        if let v = d["comments_url"] as? String { commentsUrl = v }
        if let v = d["events_url"] as? String { eventsUrl = v }
        if let v = d["html_url"] as? String { htmlUrl = v }
        if let v = d["id"] as? Int { id = v }
        if let v = d["number"] as? Int { number = v }
        if let v = d["title"] as? String { title = v }
        if let v = d["user"] as? [String: Any] { user = GithubEventUser(dictionary: v) }
        if let v = d["labels"] as? [String] { labels = v }
        if let v = d["state"] as? String { state = v }
        if let v = d["assignee"] as? [String: Any] { assignee = GithubEventUser(dictionary: v) }
        milestone = d["milestone"] as? String
        if let v = d["comments"] as? Int { comments = v }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["updated_at"] as? String { updatedAt = v }
        closedAt = d["closed_at"] as? String
        if let v = d["pull_request"] as? [String: Any] { pullRequest = GithubPullRequestLinks(dictionary: v) }
        if let v = d["body"] as? String { body = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 19)
        d["url"] = url
        d["labels_url"] = labelsUrl
        d["comments_url"] = commentsUrl
        d["events_url"] = eventsUrl
        d["html_url"] = htmlUrl
        d["id"] = id
        d["number"] = number
        d["title"] = title
        d["user"] = user.dictionary()
        d["labels"] = labels
        d["state"] = state
        if let v = assignee { d["assignee"] = v.dictionary() }
        if let v = milestone { d["milestone"] = v }
        d["comments"] = comments
        d["created_at"] = createdAt
        d["updated_at"] = updatedAt
        if let v = closedAt { d["closed_at"] = v }
        d["pull_request"] = pullRequest.dictionary()
        d["body"] = body
        return d
    }
}

/// `pull_request` of an issue; all three links are null in the data.
public struct GithubPullRequestLinks: Codable, Equatable {
    public var htmlUrl: String? = nil
    public var diffUrl: String? = nil
    public var patchUrl: String? = nil

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case htmlUrl = "html_url"
        case diffUrl = "diff_url"
        case patchUrl = "patch_url"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubPullRequestLinks {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        htmlUrl = d["html_url"] as? String
        diffUrl = d["diff_url"] as? String
        patchUrl = d["patch_url"] as? String
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 3)
        if let v = htmlUrl { d["html_url"] = v }
        if let v = diffUrl { d["diff_url"] = v }
        if let v = patchUrl { d["patch_url"] = v }
        return d
    }
}

public struct GithubComment: Codable, Equatable {
    public var id: Int = 0
    public var url: String = ""
    public var issueUrl: String = ""
    public var body: String = ""
    public var user: GithubEventUser = GithubEventUser()
    public var createdAt: String = ""
    public var updatedAt: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case url
        case issueUrl = "issue_url"
        case body
        case user
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubComment {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["id"] as? Int { id = v }
        if let v = d["url"] as? String { url = v }
        if let v = d["issue_url"] as? String { issueUrl = v }
        if let v = d["body"] as? String { body = v }
        if let v = d["user"] as? [String: Any] { user = GithubEventUser(dictionary: v) }
        if let v = d["created_at"] as? String { createdAt = v }
        if let v = d["updated_at"] as? String { updatedAt = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 7)
        d["id"] = id
        d["url"] = url
        d["issue_url"] = issueUrl
        d["body"] = body
        d["user"] = user.dictionary()
        d["created_at"] = createdAt
        d["updated_at"] = updatedAt
        return d
    }
}

/// A page of a GollumEvent; `summary` is always null in the data.
public struct GithubWikiPage: Codable, Equatable {
    public var pageName: String = ""
    public var title: String = ""
    public var summary: String? = nil
    public var action: String = ""
    public var sha: String = ""
    public var htmlUrl: String = ""

    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case pageName = "page_name"
        case title
        case summary
        case action
        case sha
        case htmlUrl = "html_url"
    }

    /// Properties whose JSON key is not `convertToSnakeCase(propertyName)` (property name -> JSON key).
    public static let explicitKeys: [String: String] = [:]
}

extension GithubWikiPage {
    /// Handwritten mapping from `JSONSerialization` output.
    public init(dictionary d: [String: Any]) {
        if let v = d["page_name"] as? String { pageName = v }
        if let v = d["title"] as? String { title = v }
        summary = d["summary"] as? String
        if let v = d["action"] as? String { action = v }
        if let v = d["sha"] as? String { sha = v }
        if let v = d["html_url"] as? String { htmlUrl = v }
    }

    /// Handwritten mapping back to a `JSONSerialization`-compatible dictionary (nil is omitted).
    public func dictionary() -> [String: Any] {
        var d = [String: Any](minimumCapacity: 6)
        d["page_name"] = pageName
        d["title"] = title
        if let v = summary { d["summary"] = v }
        d["action"] = action
        d["sha"] = sha
        d["html_url"] = htmlUrl
        return d
    }
}
