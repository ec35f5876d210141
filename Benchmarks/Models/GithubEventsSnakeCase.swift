// github_events.json's model again with camelCase properties and synthesized CodingKeys, for the key
// strategy rows: decoded with `.convertFromSnakeCase` and encoded with `.convertToSnakeCase`, it reads
// and writes the same bytes as `GithubEvent` (whose CodingKeys spell the JSON keys). `public` and
// `private` are property names here, as the keys are. Codable only (no ModelMapper mapping).

public struct GithubSnakeEvent: Codable, Equatable {
    public var id: String = ""
    public var type: String = ""
    public var actor: GithubSnakeActor = GithubSnakeActor()
    public var repo: GithubSnakeRepo = GithubSnakeRepo()
    public var payload: GithubSnakeEventPayload = GithubSnakeEventPayload()
    public var `public`: Bool = false
    public var createdAt: String = ""
    public var org: GithubSnakeActor? = nil

    public init() {}
}

public struct GithubSnakeActor: Codable, Equatable {
    public var id: Int = 0
    public var login: String = ""
    public var gravatarId: String = ""
    public var url: String = ""
    public var avatarUrl: String = ""

    public init() {}
}

public struct GithubSnakeRepo: Codable, Equatable {
    public var id: Int = 0
    public var name: String = ""
    public var url: String = ""

    public init() {}
}

public struct GithubSnakeEventPayload: Codable, Equatable {
    public var action: String? = nil
    public var pushId: Int? = nil
    public var size: Int? = nil
    public var distinctSize: Int? = nil
    public var ref: String? = nil
    public var head: String? = nil
    public var before: String? = nil
    public var commits: [GithubSnakeCommit]? = nil
    public var refType: String? = nil
    public var masterBranch: String? = nil
    public var description: String? = nil
    public var forkee: GithubSnakeForkee? = nil
    public var issue: GithubSnakeIssue? = nil
    public var comment: GithubSnakeComment? = nil
    public var pages: [GithubSnakeWikiPage]? = nil

    public init() {}
}

public struct GithubSnakeCommit: Codable, Equatable {
    public var sha: String = ""
    public var author: GithubSnakeCommitAuthor = GithubSnakeCommitAuthor()
    public var message: String = ""
    public var distinct: Bool = false
    public var url: String = ""

    public init() {}
}

public struct GithubSnakeCommitAuthor: Codable, Equatable {
    public var email: String = ""
    public var name: String = ""

    public init() {}
}

public struct GithubSnakeEventUser: Codable, Equatable {
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
}

public struct GithubSnakeForkee: Codable, Equatable {
    public var id: Int = 0
    public var name: String = ""
    public var fullName: String = ""
    public var owner: GithubSnakeEventUser = GithubSnakeEventUser()
    public var `private`: Bool = false
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
    public var `public`: Bool = false

    public init() {}
}

public struct GithubSnakeIssue: Codable, Equatable {
    public var url: String = ""
    public var labelsUrl: String = ""
    public var commentsUrl: String = ""
    public var eventsUrl: String = ""
    public var htmlUrl: String = ""
    public var id: Int = 0
    public var number: Int = 0
    public var title: String = ""
    public var user: GithubSnakeEventUser = GithubSnakeEventUser()
    public var labels: [String] = []
    public var state: String = ""
    public var assignee: GithubSnakeEventUser? = nil
    public var milestone: String? = nil
    public var comments: Int = 0
    public var createdAt: String = ""
    public var updatedAt: String = ""
    public var closedAt: String? = nil
    public var pullRequest: GithubSnakePullRequestLinks = GithubSnakePullRequestLinks()
    public var body: String = ""

    public init() {}
}

public struct GithubSnakePullRequestLinks: Codable, Equatable {
    public var htmlUrl: String? = nil
    public var diffUrl: String? = nil
    public var patchUrl: String? = nil

    public init() {}
}

public struct GithubSnakeComment: Codable, Equatable {
    public var id: Int = 0
    public var url: String = ""
    public var issueUrl: String = ""
    public var body: String = ""
    public var user: GithubSnakeEventUser = GithubSnakeEventUser()
    public var createdAt: String = ""
    public var updatedAt: String = ""

    public init() {}
}

public struct GithubSnakeWikiPage: Codable, Equatable {
    public var pageName: String = ""
    public var title: String = ""
    public var summary: String? = nil
    public var action: String = ""
    public var sha: String = ""
    public var htmlUrl: String = ""

    public init() {}
}
