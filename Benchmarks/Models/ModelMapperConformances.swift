// The benchmark models' conformances: ModelMapper (`JSONMappable`, with the model's `explicitKeys` as
// literal keys and snake_case for the rest) and `HandwrittenMapping` (the `init(dictionary:)` /
// `dictionary()` each model file writes by hand), so the benchmarks and tests can treat every data set
// generically.

import Foundation
import ModelMapper

/// The handwritten mapping every benchmark model has: from and to `JSONSerialization` objects.
public protocol HandwrittenMapping {
    init(dictionary: [String: Any])
    func dictionary() -> [String: Any]
}

/// Everything a benchmark model supports: ModelMapper, Codable and the handwritten mapping.
public typealias BenchmarkModel = JSONMappable & Codable & Equatable & HandwrittenMapping

/// A model's `explicitKeys` (property -> JSON key) as ModelMapper keys, taken literally.
func literalKeys(_ explicitKeys: [String: String]) -> [String: MappingKey] {
    explicitKeys.mapValues { MappingKey.literal($0) }
}

// MARK: Twitter.swift — twitter.json
extension TwitterTimeline: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterStatus: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterRetweetedStatus: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterStatusMetadata: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterUser: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterUserEntities: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterUrlList: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterUrl: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterEntities: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterHashtag: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterUserMention: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterMedia: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterMediaSizes: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterMediaSize: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterSearchMetadata: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}

// MARK: CitmCatalog.swift — citm_catalog.json: keys are camelCase, so property names are the keys
extension CitmCatalog: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .identity)
}
extension CitmEvent: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .identity)
}
extension CitmPerformance: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .identity)
}
extension CitmPrice: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .identity)
}
extension CitmSeatCategory: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .identity)
}
extension CitmArea: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .identity)
}

// MARK: Canada.swift — canada.json
extension CanadaFeatureCollection: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension CanadaFeature: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension CanadaProperties: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension CanadaGeometry: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}

// MARK: GithubEvents.swift — github_events.json
extension GithubEvent: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubActor: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubRepo: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubEventPayload: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubCommit: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubCommitAuthor: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubEventUser: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubForkee: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubIssue: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubPullRequestLinks: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubComment: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubWikiPage: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}

// MARK: GithubUser.swift — YYModel's user.json
extension GithubUser: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}

// MARK: Weibo.swift — YYModel's weibo.json: picture width/height sometimes arrive as strings, which the default lenient mode converts
extension WeiboStatus: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension WeiboVisible: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension WeiboAnnotation: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension WeiboPicture: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension WeiboPictureMetadata: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension WeiboUser: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension WeiboIcon: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension WeiboBadge: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension WeiboUserExtend: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension WeiboPrivacy: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}

// MARK: TwitterPartial.swift — twitter.json, the fields a client keeps
extension TwitterPartialTimeline: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterPartialStatus: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterPartialRetweet: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterPartialUser: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterPartialEntities: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterPartialHashtag: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterPartialUrl: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterPartialMention: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension TwitterPartialSearchMetadata: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}

// MARK: GithubEventsPartial.swift — github_events.json, the fields an activity feed keeps
extension GithubPartialEvent: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubPartialActor: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubPartialRepo: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}
extension GithubPartialPayload: JSONMappable, HandwrittenMapping {
    public static let mapping = ModelMapping(keys: literalKeys(explicitKeys), keyStrategy: .snakeCase)
}

// MARK: EventRecords.swift — data/events/events.jsonl: snake_case keys for camelCase properties, no
// explicit keys (the `events` suite's mapped model; dates are read with `DateStrategy.iso8601`)
extension EventRecord: JSONMappable {
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)
}
extension EventSession: JSONMappable {
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)
}
extension EventDevice: JSONMappable {
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)
}
extension EventLocation: JSONMappable {
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)
}
extension EventPage: JSONMappable {
    public static let mapping = ModelMapping(keyStrategy: .snakeCase)
}
