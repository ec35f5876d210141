import Foundation
import ModelMapper
import XCTest

/// The code of CodableSupport.md.
final class CodableSupportSnippets: XCTestCase {
    func testCodable() throws {
        struct Tweet: Codable, Equatable {
            var id: Int
            var userName: String
            var createdAt: Date
        }

        var decoder = ModelDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let tweet = try decoder.decode(Tweet.self, from: #"{"id": 1, "user_name": "ada", "created_at": "2014-01-20T12:24:48Z"}"#)

        var encoder = ModelEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(tweet)
        // String(decoding: data, as: UTF8.self) == #"{"created_at":"2014-01-20T12:24:48Z","id":1,"user_name":"ada"}"#
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"{"created_at":"2014-01-20T12:24:48Z","id":1,"user_name":"ada"}"#)
        XCTAssertEqual(tweet.createdAt, Date(timeIntervalSince1970: 1390220688))

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try ModelDecoder().decode(Tweet.self, from: "{\"id\": 1,\n \"userName\": 7}")
        } catch let error as DecodingError {
            if case .typeMismatch(_, let context) = error {
                print(context.debugDescription)  // Expected to decode String but found number instead. (line 2, column 14)
            }
        }
        XCTAssertEqual(printed, "Expected to decode String but found number instead. (line 2, column 14)")

        struct User: JSONCodable {
            var id = 0
            var name = ""
            static let mapping = ModelMapping(keys: ["name": "full_name"])
        }

        let viaFoundation = try JSONDecoder().decode(User.self, from: Data(#"{"id": 1, "full_name": "Ada"}"#.utf8))
        let viaModelMapper = try ModelDecoder().decode(User.self, from: #"{"id": 1, "full_name": "Ada"}"#)
        let foundationEncoder = JSONEncoder()
        foundationEncoder.outputFormatting = [.sortedKeys]
        let encoded = String(decoding: try foundationEncoder.encode(viaModelMapper), as: UTF8.self)
        // viaFoundation.name == "Ada", viaModelMapper.name == "Ada", encoded == #"{"full_name":"Ada","id":1}"#
        XCTAssertEqual(viaFoundation.name, "Ada")
        XCTAssertEqual(viaModelMapper.name, "Ada")
        XCTAssertEqual(encoded, #"{"full_name":"Ada","id":1}"#)
    }
}
