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

    func testWhereYYModelsBehaviourIsKept() throws {
        final class Profile: JSONMappable {
            var city = ""
            var zip = ""
            required init() {}
        }
        struct Account: JSONMappable {
            var name = ""
            var note = ""
            var profile = Profile()
            static let mapping = ModelMapping(keys: ["note": ".ext"])
        }

        var account = try Account(json: #"{"name": "Ann", ".ext": "dotted", "profile": {"city": "Oslo", "zip": "0150"}}"#)
        let profile = account.profile
        try account.update(json: #"{"profile": {"city": "Bergen"}}"#)
        // account.note == "dotted", account.profile === profile, profile.city == "Bergen", profile.zip == "0150"
        XCTAssertEqual(account.note, "dotted")
        XCTAssertTrue(account.profile === profile)
        XCTAssertEqual(profile.city, "Bergen")
        XCTAssertEqual(profile.zip, "0150")

        XCTAssertEqual(try Account(json: #"{"name": "Bo"}"#, at: "").name, "Bo")
        try account.update(json: #"{"name": "Cy", "profile": 123}"#, options: DecodingOptions.lenient.skippingInvalidValues { _ in })
        XCTAssertTrue(account.profile === profile)
        XCTAssertEqual(account.name, "Cy")
        XCTAssertThrowsError(try account.update(json: #"{"name": "Di", "profile": 123}"#))
        XCTAssertEqual(account.name, "Cy", "a struct model's update is all or nothing")
    }
}
