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

    func testDatesAlternativesAndDictionaryInput() throws {
        struct Event: JSONMappable {
            var id = 0
            var when = Date(timeIntervalSince1970: 0)
            static let mapping = ModelMapping(keys: ["id": ["id", "event_id"]])
        }

        let event = try Event(json: #"{"id": null, "event_id": 7, "when": "2024-04-07T12:01:30+0800"}"#)
        let iso = try event.jsonString(options: [.sortedKeys])
        let yy = try event.jsonString(options: [.sortedKeys, .dates(.formatted("yyyy-MM-dd'T'HH:mm:ssZ"))])
        // event.id == 0: "id" is present (null), so "event_id" is not read
        // iso == #"{"id":0,"when":"2024-04-07T04:01:30Z"}"#, yy == #"{"id":0,"when":"2024-04-07T04:01:30+0000"}"#
        XCTAssertEqual(event.id, 0)
        XCTAssertEqual(iso, #"{"id":0,"when":"2024-04-07T04:01:30Z"}"#)
        XCTAssertEqual(yy, #"{"id":0,"when":"2024-04-07T04:01:30+0000"}"#)
        XCTAssertEqual(try Event(json: yy).when, event.when, "YYModel's form reads back")
        let reported = Reported()
        _ = try Event(json: #"{"id": null, "event_id": 7}"#, options: DecodingOptions.lenient.skippingInvalidValues { reported.add($0.path) })
        XCTAssertEqual(reported.paths, ["id"])

        struct Link: JSONMappable {
            var title = ""
            var url: URL? = nil
            var tags: [String] = []
            var saved = Date(timeIntervalSince1970: 0)
        }

        let link = try Link(jsonObject: ["title": NSAttributedString(string: "Home"), "url": URL(string: "https://example.com")!,
                                         "tags": Set(["a"]), "saved": Date(timeIntervalSince1970: 86400)] as [String: Any])
        // link.title == "Home", link.url?.host == "example.com", link.tags == ["a"], link.saved == 1970-01-02T00:00:00Z
        XCTAssertEqual(link.title, "Home")
        XCTAssertEqual(link.url?.host, "example.com")
        XCTAssertEqual(link.tags, ["a"])
        XCTAssertEqual(link.saved, Date(timeIntervalSince1970: 86400))
    }
}

/// Paths an invalid-value handler received, from any thread.
private final class Reported: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ path: String) { lock.lock(); stored.append(path); lock.unlock() }
    var paths: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}
