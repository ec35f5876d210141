import Foundation
import ModelMapper
import XCTest

/// The code of the landing page, ModelMapper.md.
final class LandingPageSnippets: XCTestCase {
    func testOverview() throws {
        struct Author: JSONMappable { var name = ""; var birthday: Date? = nil }
        struct Book: JSONMappable {
            var name = ""; var desc = ""; var bookID = 0; var price: Double = 0
            var authors: [Author] = []; var tags: Set<String> = []
            static let mapping = ModelMapping(
                keys: ["name": "n", "desc": "ext.desc", "bookID": ["id", "ID", "book_id"]],
                required: ["bookID"])
        }

        let book = try Book(json: #"{"n":"Dune","ext":{"desc":"sand"},"ID":7,"authors":[{"name":"Herbert"}]}"#)
        XCTAssertEqual(book.name, "Dune")
        XCTAssertEqual(book.desc, "sand")
        XCTAssertEqual(book.bookID, 7)
        XCTAssertEqual(book.authors.map(\.name), ["Herbert"])
    }
}
