import Foundation
import ModelMapper
import XCTest

extension KeyStrategy {
    /// JSONModel's `mapperForSnakeCase`.
    static let jsonModelSnakeCase = KeyStrategy.custom { name in
        var key = ""
        var afterDigit = false
        for character in name {
            let isDigit = ("0"..."9").contains(character)
            if character.isUppercase {
                key += "_" + character.lowercased()
            } else if isDigit && !afterDigit {
                key += "_" + String(character)
            } else {
                key.append(character)
            }
            afterDigit = isDigit
        }
        return key
    }
}

/// The code of MigratingFromJSONModel.md.
final class MigratingFromJSONModelSnippets: XCTestCase {
    func testSideBySide() throws {
        struct OrderModel: JSONMappable {
            var orderId = 0
            var totalPrice: Float = 0
            var note: String? = nil
            var cachedLabel = ""
            static let mapping = ModelMapping(
                keys: ["orderId": "order_id", "totalPrice": "price.usd"],
                ignored: ["cachedLabel"],
                required: ["orderId", "totalPrice"])
        }

        let order = try OrderModel(json: #"{"order_id": 104, "price": {"usd": 12.95}}"#)
        // order.orderId == 104, order.totalPrice == 12.95, order.note == nil
        XCTAssertEqual(order.orderId, 104)
        XCTAssertEqual(order.totalPrice, 12.95)
        XCTAssertNil(order.note)
        XCTAssertThrowsError(try OrderModel(json: #"{"order_id": 104}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .missingKey)
        }
    }

    func testRequiredKeys() throws {
        var printed: [String] = []
        func print(_ item: Any) { printed.append("\(item)") }
        struct Movie: JSONMappable {
            var title = ""
            var year = 0
            var rating: Double? = nil
            static let mapping = ModelMapping(required: ["title", "year", "rating"])
        }

        do {
            _ = try Movie(json: #"{"rating": 7.5}"#)
        } catch let error as MappingError {
            print(error)                    // line 1, column 1: missingKey at title: required keys title, year are missing
            print(error.missingProperties)  // ["title", "year"]
        }

        do {
            _ = try Movie(json: #"{"title": "Heat", "year": null, "rating": 8.3}"#)
        } catch let error as MappingError {
            print(error)                    // line 1, column 27: missingKey at year: required key year is null
        }

        let unrated = try Movie(json: #"{"title": "Heat", "year": 1995, "rating": null}"#)
        // unrated.rating == nil
        XCTAssertEqual(printed, ["line 1, column 1: missingKey at title: required keys title, year are missing",
                                 #"["title", "year"]"#,
                                 "line 1, column 27: missingKey at year: required key year is null"])
        XCTAssertNil(unrated.rating)
        XCTAssertEqual(unrated.year, 1995)
        // The same through dictionary input.
        XCTAssertThrowsError(try Movie(jsonObject: ["rating": 7.5])) { error in
            XCTAssertEqual((error as? MappingError)?.missingProperties, ["title", "year"])
        }
        XCTAssertThrowsError(try Movie(jsonObject: ["title": "Heat", "year": NSNull(), "rating": 8.3] as [String: Any])) { error in
            XCTAssertEqual((error as? MappingError)?.message, "required key year is null")
        }
        XCTAssertNil(try Movie(jsonObject: ["title": "Heat", "year": 1995, "rating": NSNull()] as [String: Any]).rating)
        // Present is required of an Optional too.
        XCTAssertThrowsError(try Movie(json: #"{"title": "Heat", "year": 1995}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.missingProperties, ["rating"])
        }
    }

    func testMerging() throws {
        struct Movie: JSONMappable {
            var title = ""
            var year = 0
            var rating: Double? = nil
            static let mapping = ModelMapping(required: ["title", "year", "rating"])
        }

        var movie = try Movie(json: #"{"title": "Heat", "year": 1995, "rating": 8.3}"#)
        try movie.update(jsonObject: ["rating": 8.4])
        // movie.title == "Heat", movie.year == 1995, movie.rating == 8.4
        XCTAssertEqual(movie.title, "Heat")
        XCTAssertEqual(movie.year, 1995)
        XCTAssertEqual(movie.rating, 8.4)
        try movie.update(json: #"{"rating": 8.5}"#)
        XCTAssertEqual(movie.year, 1995)
        XCTAssertEqual(movie.rating, 8.5)
        XCTAssertThrowsError(try movie.update(json: #"{"year": null}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.message, "required key year is null")
        }
        XCTAssertThrowsError(try movie.update(jsonObject: ["year": NSNull()] as [String: Any]))
        XCTAssertEqual(movie.year, 1995)
    }

    func testSnakeCaseKeys() throws {
        struct Item: JSONMappable {
            var itemObject145 = ""
            var userID = 0
            static let mapping = ModelMapping(keyStrategy: .jsonModelSnakeCase)
        }

        let item = try Item(json: #"{"item_object_145": "box", "user_i_d": 7}"#)
        // item.itemObject145 == "box", item.userID == 7
        XCTAssertEqual(item.itemObject145, "box")
        XCTAssertEqual(item.userID, 7)
        XCTAssertEqual(try item.jsonString(options: [.sortedKeys]), #"{"item_object_145":"box","user_i_d":7}"#)
        XCTAssertEqual(try Item(jsonObject: ["item_object_145": "crate"]).itemObject145, "crate")
        // Foundation's rule, which .snakeCase follows, differs on both.
        struct FoundationRule: Codable { var itemObject145 = ""; var userID = 0 }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        XCTAssertEqual(String(decoding: try encoder.encode(FoundationRule()), as: UTF8.self), #"{"item_object145":"","user_id":0}"#)
        struct Snake: JSONMappable {
            var itemObject145 = ""
            var userID = 0
            static let mapping = ModelMapping(keyStrategy: .snakeCase)
        }
        XCTAssertEqual(try Snake().jsonString(options: [.sortedKeys]), #"{"item_object145":"","user_id":0}"#)

        // A strategy's key is literal: dots are part of it, not a key path.
        struct Priced: JSONMappable {
            var usd = 0.0
            static let mapping = ModelMapping(keyStrategy: .custom { _ in "price.usd" })
        }
        XCTAssertEqual(try Priced(json: #"{"price": {"usd": 12.5}}"#).usd, 0)
        XCTAssertEqual(try Priced(json: #"{"price.usd": 12.5}"#).usd, 12.5)
        var global = DecodingOptions.lenient
        global.keyStrategy = .custom { $0 == "usd" ? "price.usd" : $0 }
        struct Plain: JSONMappable { var usd = 0.0 }
        XCTAssertEqual(try Plain(json: #"{"price": {"usd": 12.5}}"#, options: global).usd, 0)
        XCTAssertEqual(try Plain(json: #"{"price.usd": 12.5}"#, options: global).usd, 12.5)
    }

    func testKeyPathsThroughArrays() throws {
        struct Playlist: JSONMappable, JSONDecodingHooks {
            var names: [String] = []

            static func willDecode(_ object: JSONObject) throws -> JSONObject {
                var object = object
                if case .array(let items)? = object["items"] {
                    object["names"] = .array(items.compactMap { $0["name"] })
                }
                return object
            }
        }

        let playlist = try Playlist(json: #"{"items": [{"name": "a"}, {"name": "b"}]}"#)
        // playlist.names == ["a", "b"]
        XCTAssertEqual(playlist.names, ["a", "b"])
        XCTAssertEqual(try Playlist(jsonObject: ["items": [["name": "c"]]]).names, ["c"])
        // Without the hook, a key path meets the array and the key is absent.
        struct Direct: JSONMappable {
            var names: [String] = ["unset"]
            static let mapping = ModelMapping(keys: ["names": "items.name"])
        }
        XCTAssertEqual(try Direct(json: #"{"items": [{"name": "a"}, {"name": "b"}]}"#).names, ["unset"])
    }

    func testPropertiesNotMapped() throws {
        struct Button: JSONMappable {
            var title = ""
            var onTap: @Sendable () -> Void = {}
            static let mapping = ModelMapping(ignored: ["onTap"])
        }

        let button = try Button(json: #"{"title": "OK"}"#)
        // button.title == "OK"
        XCTAssertEqual(button.title, "OK")
        struct Unlisted: JSONMappable {
            var title = ""
            var onTap: @Sendable () -> Void = {}
        }
        XCTAssertThrowsError(try Unlisted(json: #"{"title": "OK"}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
            XCTAssertTrue("\(error)".contains("onTap"), "\(error)")
        }
        struct Counted: JSONMappable { var count = NSNumber(value: 0) }
        XCTAssertThrowsError(try Counted(json: #"{"count": 3}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
        }
    }

    func testLenientIsStricterThanJSONModel() throws {
        struct Flags: JSONMappable {
            var enabled = false
            var count = 0
            var home: URL? = nil
        }

        final class Skipped: @unchecked Sendable {
            private let lock = NSLock()
            private var errors: [MappingError] = []
            func append(_ error: MappingError) { lock.lock(); errors.append(error); lock.unlock() }
            var paths: [String] { lock.lock(); defer { lock.unlock() }; return errors.map(\.path) }
        }

        let skipped = Skipped()
        let options = DecodingOptions.lenient.skippingInvalidValues { error in skipped.append(error) }
        let flags = try Flags(json: #"{"enabled": "2", "count": "12abc", "home": "http://exa mple.com"}"#,
                              options: options)
        // flags.enabled == false, flags.count == 0, flags.home == nil
        // skipped.paths == ["enabled", "count", "home"]
        XCTAssertEqual(flags.enabled, false)
        XCTAssertEqual(flags.count, 0)
        XCTAssertNil(flags.home)
        XCTAssertEqual(skipped.paths, ["enabled", "count", "home"])
        // Without the handler each one is an error, in lenient mode, through text and dictionary input.
        for (json, path) in [(#"{"enabled": "2"}"#, "enabled"), (#"{"count": 1.5}"#, "count"),
                             (#"{"count": "12abc"}"#, "count"), (#"{"home": "http://exa mple.com"}"#, "home")] {
            XCTAssertThrowsError(try Flags(json: json)) { error in
                XCTAssertEqual((error as? MappingError)?.kind, .invalidValue, json)
                XCTAssertEqual((error as? MappingError)?.path, path, json)
            }
            XCTAssertThrowsError(try Flags(jsonObject: try JSONValue(json: json))) { error in
                XCTAssertEqual((error as? MappingError)?.kind, .invalidValue, json)
            }
        }
        XCTAssertThrowsError(try Flags(jsonObject: ["count": 1.5])) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .invalidValue)
        }
    }

    func testEmptyArrayIsNotAnEmptyObject() throws {
        printed.removeAll()
        struct Payload: JSONMappable {
            var dict: [String: Any] = [:]
        }

        do {
            _ = try Payload(json: #"{"dict": []}"#)
        } catch let error as MappingError {
            print(error)  // line 1, column 10: typeMismatch at dict: expected an object, found an array
        }

        let payload = try Payload(json: #"{"dict": []}"#, options: .lenient.skippingInvalidValues { error in print(error) })
        // payload.dict.isEmpty: the property keeps its value, and the error is reported
        XCTAssertTrue(payload.dict.isEmpty)
        XCTAssertEqual(printed.lines, ["line 1, column 10: typeMismatch at dict: expected an object, found an array",
                                       "line 1, column 10: typeMismatch at dict: expected an object, found an array"])

        // The same for any dictionary and for a model, in both modes and from dictionary input.
        struct Other: JSONMappable {
            var counts: [String: Int] = [:]
            var payload = Payload()
        }
        for json in [#"{"counts": []}"#, #"{"payload": []}"#] {
            for options in [DecodingOptions.lenient, .strict] {
                XCTAssertThrowsError(try Other(json: json, options: options)) { error in
                    XCTAssertEqual((error as? MappingError)?.kind, .typeMismatch, json)
                }
            }
            XCTAssertThrowsError(try Other(jsonObject: try JSONValue(json: json))) { error in
                XCTAssertEqual((error as? MappingError)?.kind, .typeMismatch, json)
            }
        }
        XCTAssertThrowsError(try Payload(jsonObject: ["dict": [Any]()])) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .typeMismatch)
        }
        // A willDecode hook may replace it.
        struct Mended: JSONMappable, JSONDecodingHooks {
            var dict: [String: Any] = ["kept": true]
            static func willDecode(_ object: JSONObject) throws -> JSONObject {
                var object = object
                if object["dict"] == .array([]) { object["dict"] = .object([:]) }
                return object
            }
        }
        XCTAssertTrue(try Mended(json: #"{"dict": []}"#).dict.isEmpty)
    }

    func testTimeZones() throws {
        struct Office: JSONMappable { var zone = TimeZone(identifier: "GMT")! }
        XCTAssertEqual(try Office(json: #"{"zone": "America/Los_Angeles"}"#).zone.identifier, "America/Los_Angeles")
        XCTAssertEqual(try Office(jsonObject: ["zone": "PDT"]).zone.identifier, "America/Los_Angeles")
        XCTAssertEqual(try Office(json: #"{"zone": "PST"}"#).zone.secondsFromGMT(for: Date(timeIntervalSince1970: 0)), -8 * 3600)
        XCTAssertEqual(try Office(jsonObject: ["zone": "PDT"]).jsonString(), #"{"zone":"America/Los_Angeles"}"#)
        XCTAssertThrowsError(try Office(json: #"{"zone": "PDT"}"#, options: .strict))
    }
}

private let printed = Printed()

/// The snippets' `print`, recorded for the assertions.
private func print(_ item: Any) { printed.add("\(item)") }
