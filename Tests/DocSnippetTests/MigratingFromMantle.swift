import Foundation
import ModelMapper
import XCTest

/// The code of MigratingFromMantle.md.
final class MigratingFromMantleSnippets: XCTestCase {
    func testSideBySide() throws {
        enum EpisodeType: Equatable, Sendable { case paid, free }

        struct Episode: JSONMappable {
            var title = ""
            var episodeNumber = 0
            var episodeType = EpisodeType.free
            var thumbnailURL: URL? = nil
            static let mapping = ModelMapping(
                keys: ["thumbnailURL": "thumbnail_url"],
                keyStrategy: .snakeCase,
                transformers: ["episodeType": .valueMap(["paid": EpisodeType.paid, "free": .free])])
        }

        let json = #"{"title": "Mantle", "episode_number": 116, "episode_type": "paid", "thumbnail_url": "https://example.com/116.png"}"#
        let episode = try Episode(json: json, options: .strict)
        // episode.episodeNumber == 116, episode.episodeType == .paid, episode.thumbnailURL?.lastPathComponent == "116.png"
        XCTAssertEqual(episode.title, "Mantle")
        XCTAssertEqual(episode.episodeNumber, 116)
        XCTAssertEqual(episode.episodeType, .paid)
        XCTAssertEqual(episode.thumbnailURL?.lastPathComponent, "116.png")
    }
}
