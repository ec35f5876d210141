import Foundation
import ModelMapper
import XCTest

/// The code of MigratingFromYYModel.md.
final class MigratingFromYYModelSnippets: XCTestCase {
    func testSideBySide() throws {
        struct Author: JSONMappable { var name = "" }
        struct Book: JSONMappable {
            var name = ""
            var desc = ""
            var bookID = 0
            var authors: [Author] = []
            static let mapping = ModelMapping(keys: ["name": "n", "desc": "ext.desc", "bookID": ["id", "ID", "book_id"]])
        }

        let book = try Book(json: #"{"n": "Dune", "ext": {"desc": "sand"}, "ID": 7, "authors": [{"name": "Herbert"}]}"#)
        let object = try book.jsonObject()
        // book.bookID == 7, book.authors[0].name == "Herbert", (object as? [String: Any])?["id"] as? Int == 7
        XCTAssertEqual(book.bookID, 7)
        XCTAssertEqual(book.authors[0].name, "Herbert")
        XCTAssertEqual((object as? [String: Any])?["id"] as? Int, 7)
    }
}
