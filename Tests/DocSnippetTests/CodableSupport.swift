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

    func testConfigurationsAndMembersOnly() throws {
        struct Celsius: DecodableWithConfiguration, EncodableWithConfiguration {
            var degrees: Double
            init(degrees: Double) { self.degrees = degrees }
            init(from decoder: any Decoder, configuration offset: Double) throws {
                degrees = try decoder.singleValueContainer().decode(Double.self) - offset
            }
            func encode(to encoder: any Encoder, configuration offset: Double) throws {
                var container = encoder.singleValueContainer()
                try container.encode(degrees + offset)
            }
        }

        let fromKelvin = try ModelDecoder().decode(Celsius.self, from: "300.5", configuration: 273.15)
        let asKelvin = try ModelEncoder().encode(Celsius(degrees: 20), configuration: 273.15)

        var membersOnly = ModelDecoder()
        membersOnly.assumesTopLevelDictionary = true
        let counts = try membersOnly.decode([String: Int].self, from: #""a": 1, "b": 2"#)
        // fromKelvin.degrees ≈ 27.35, String(decoding: asKelvin, as: UTF8.self) == "293.15", counts == ["a": 1, "b": 2]
        XCTAssertEqual(fromKelvin.degrees, 27.35, accuracy: 1e-9)
        XCTAssertEqual(String(decoding: asKelvin, as: UTF8.self), "293.15")
        XCTAssertEqual(counts, ["a": 1, "b": 2])
    }

    func testRootPathsAndUnknownCases() throws {
        struct Tweet: Codable, Equatable {
            var id: Int
            var userName: String
        }

        let feed = #"{"meta": {"next": null}, "data": {"tweets": [{"id": 1, "userName": "ada"}, {"id": 2, "userName": "bob"}]}}"#
        let tweets = try ModelDecoder().decode([Tweet].self, from: feed, at: "data.tweets")
        // tweets.map(\.userName) == ["ada", "bob"]
        XCTAssertEqual(tweets.map(\.userName), ["ada", "bob"])

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try ModelDecoder().decode([Tweet].self, from: feed, at: "data.posts")
        } catch DecodingError.keyNotFound(let key, let context) {
            print("\(key.stringValue) at \(context.codingPath.map(\.stringValue))")  // posts at ["data"]
        }
        XCTAssertEqual(printed, #"posts at ["data"]"#)

        enum Status: String, Codable, JSONUnknownCaseRepresentable {
            case active, closed, unknown
            static var unknownCase: Status { .unknown }
        }
        struct Order: Codable {
            var status: Status
            var history: [Status]
        }

        let json = #"{"status": "archived", "history": ["active", "merged"]}"#
        let order = try ModelDecoder().decode(Order.self, from: json)
        // order.status == .unknown, order.history == [.active, .unknown]
        XCTAssertEqual(order.status, .unknown)
        XCTAssertEqual(order.history, [.active, .unknown])
        XCTAssertThrowsError(try ModelDecoder().decode(Order.self, from: #"{"status": 1, "history": []}"#)) { error in
            guard case DecodingError.typeMismatch = error else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try JSONDecoder().decode(Order.self, from: Data(json.utf8))) { error in
            guard case DecodingError.dataCorrupted = error else { return XCTFail("\(error)") }
        }
    }

    func testOneErrorRuleWhateverTheCallSite() throws {
        var printed: [String] = []
        func print(_ item: Any) { printed.append("\(item)") }
        struct Account: JSONCodable { var id = 0; var name = "" }

        func load<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
            try ModelDecoder().decode(type, from: json)
        }

        let bad = #"[{"id": 1}, {"id": "x"}]"#
        for attempt in [{ _ = try ModelDecoder().decode([Account].self, from: bad) },
                        { _ = try load([Account].self, from: bad) }] {
            do {
                try attempt()
            } catch DecodingError.dataCorrupted(let context) {
                if let error = context.underlyingError as? MappingError, let line = error.line, let column = error.column {
                    print("\(error.kind) at \(error.path), \(line):\(column)")  // invalidValue at [1].id, 1:20 (both times)
                }
            }
        }
        XCTAssertEqual(printed, ["invalidValue at [1].id, 1:20", "invalidValue at [1].id, 1:20"])
    }
}
