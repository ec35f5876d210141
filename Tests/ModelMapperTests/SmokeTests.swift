import XCTest
import Foundation
@testable import ModelMapper

struct SmokeAuthor: JSONMappable, Equatable { var name = ""; var birthday: Date? = nil }
struct SmokeBook: JSONMappable, Equatable {
    var name = ""; var desc = ""; var bookID = 0; var price: Double = 0
    var authors: [SmokeAuthor] = []; var tags: Set<String> = []; var extra: [String: SmokeAuthor] = [:]
    let fixed = 7
    static let mapping = ModelMapping(
        keys: ["name": "n", "desc": "ext.desc", "bookID": ["id", "ID", "book_id"]],
        required: ["bookID"])
}

final class SmokeTests: XCTestCase {
    func testBook() throws {
        let json = #"{"n":"Harry","ext":{"desc":"magic"},"ID":12,"price":9.5,"authors":[{"name":"JK","birthday":"1965-07-31"}],"tags":["a","b","a"],"extra":{"x":{"name":"Y"}},"fixed":99}"#
        let book = try SmokeBook(json: json)
        XCTAssertEqual(book.name, "Harry")
        XCTAssertEqual(book.desc, "magic")
        XCTAssertEqual(book.bookID, 12)
        XCTAssertEqual(book.price, 9.5)
        XCTAssertEqual(book.authors.first?.name, "JK")
        XCTAssertEqual(book.tags, ["a", "b"])
        XCTAssertEqual(book.extra["x"]?.name, "Y")
        XCTAssertEqual(book.fixed, 7)
        let out = try book.jsonString(options: [.sortedKeys])
        print(out)
        let back = try SmokeBook(json: out)
        XCTAssertEqual(back, book)
    }

    func testErrors() throws {
        XCTAssertThrowsError(try SmokeBook(json: "{\n\"n\": 1,\n  \"id\": \"x\"}")) { print($0) }
        XCTAssertThrowsError(try SmokeBook(json: "{\n\"n\": 1,\n  \"id\": }")) { print($0) }
        XCTAssertThrowsError(try SmokeBook(json: "{\"n\": 1}")) { print($0) }
        XCTAssertThrowsError(try SmokeBook(json: "")) { print($0) }
        let v = try JSONValue(json: #"{"a":[1,2.5e400,"x",null,true],"b":{"c":-0}}"#)
        print(v)
    }
}
