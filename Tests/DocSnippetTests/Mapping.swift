import Foundation
import ModelMapper
import XCTest

/// The code of Mapping.md.
final class MappingSnippets: XCTestCase {
    func testKeysAndStrategies() throws {
        struct Book: JSONMappable {
            var name = ""
            var desc = ""
            var bookID = 0
            var isbn = ""
            static let mapping = ModelMapping(keys: [
                "name": "n",
                "desc": "ext.desc",
                "bookID": ["id", "ID", "book_id"],
                "isbn": .literal("meta.isbn"),
            ])
        }

        let book = try Book(json: #"{"n": "Dune", "ext": {"desc": "sand"}, "book_id": 3, "ID": 2, "meta.isbn": "0441013597"}"#)
        // book.name == "Dune", book.desc == "sand", book.bookID == 2 ("ID" comes before "book_id" in the list)
        // book.isbn == "0441013597"
        XCTAssertEqual(book.name, "Dune")
        XCTAssertEqual(book.desc, "sand")
        XCTAssertEqual(book.bookID, 2)
        XCTAssertEqual(book.isbn, "0441013597")

        let json = try book.jsonString(options: [.sortedKeys])
        // {"ext":{"desc":"sand"},"id":2,"meta.isbn":"0441013597","n":"Dune"}
        XCTAssertEqual(json, #"{"ext":{"desc":"sand"},"id":2,"meta.isbn":"0441013597","n":"Dune"}"#)

        struct Account: JSONMappable {
            var userID = 0
            var addressLine1 = ""
            var htmlURL = ""
            static let mapping = ModelMapping(keyStrategy: .snakeCase)
        }

        let account = try Account(json: #"{"user_id": 1, "address_line1": "1 Main St", "html_url": "https://example.com"}"#)
        let encoded = try account.jsonString(options: [.sortedKeys])
        // {"address_line1":"1 Main St","html_url":"https://example.com","user_id":1}
        XCTAssertEqual(account.userID, 1)
        XCTAssertEqual(account.htmlURL, "https://example.com")
        XCTAssertEqual(encoded, #"{"address_line1":"1 Main St","html_url":"https://example.com","user_id":1}"#)
    }

    func testListsNullsAndMistakes() throws {
        struct Order: JSONMappable {
            var id = 0
            var total = 0.0
            var cache: [String] = []
            var note = ""
            static let mapping = ModelMapping(ignored: ["cache"], required: ["id"])
        }

        let order = try Order(json: #"{"id": 5, "total": 9.5, "cache": ["x"]}"#)
        // order.cache == [] (ignored), order.note == "" (absent: keeps its default)
        XCTAssertEqual(order.id, 5)
        XCTAssertEqual(order.cache, [])
        XCTAssertEqual(order.note, "")

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try Order(json: #"{"total": 1}"#)
        } catch let error as MappingError {
            print(error)  // line 1, column 1: missingKey at id: required key id is missing
        }
        XCTAssertEqual(printed, "line 1, column 1: missingKey at id: required key id is missing")

        struct Settings: JSONMappable {
            var theme: String? = "dark"
            var fontSize = 12
        }

        let settings = try Settings(json: #"{"theme": null, "fontSize": null}"#)
        // settings.theme == nil, settings.fontSize == 12
        XCTAssertNil(settings.theme)
        XCTAssertEqual(settings.fontSize, 12)

        struct Typo: JSONMappable {
            var name = ""
            static let mapping = ModelMapping(keys: ["nmae": "n"])
        }

        printed = ""
        do {
            _ = try Typo(json: "{}")
        } catch let error as MappingError {
            print(error)  // unsupportedType: Typo.mapping.keys names "nmae", which is not a stored property of Typo
        }
        XCTAssertEqual(printed, #"unsupportedType: Typo.mapping.keys names "nmae", which is not a stored property of Typo"#)
    }

    func testClassHierarchy() throws {
        class Animal: JSONMappable {
            var name = ""
            required init() {}
            class var mapping: ModelMapping { ModelMapping(keys: ["name": "n"]) }
        }

        final class Dog: Animal {
            var goodBoy = false
            override class var mapping: ModelMapping { super.mapping.merging(ModelMapping(keyStrategy: .snakeCase)) }
        }

        let dog = try Dog(json: #"{"n": "Rex", "good_boy": true}"#)
        // dog.name == "Rex", dog.goodBoy == true
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertTrue(dog.goodBoy)
    }
}
