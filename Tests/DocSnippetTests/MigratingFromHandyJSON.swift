import Foundation
import ModelMapper
import XCTest

/// The code of MigratingFromHandyJSON.md.
final class MigratingFromHandyJSONSnippets: XCTestCase {
    func testSideBySide() throws {
        final class Cat: JSONMappable {
            var id: Int64 = 0
            var name = ""
            var parent: (String, String)? = nil
            var birthday: Date? = nil
            required init() {}

            static var mapping: ModelMapping {
                ModelMapping(keys: ["id": "cat_id"], ignored: ["parent"], transformers: ["birthday": .date(format: "yyyy-MM-dd")])
            }
        }

        let cat = try Cat(json: #"{"cat_id": 7, "name": "Tom", "birthday": "2020-02-29"}"#)
        // cat.id == 7, cat.name == "Tom", cat.birthday == 2020-02-29T00:00:00Z
        XCTAssertEqual(cat.id, 7)
        XCTAssertEqual(cat.name, "Tom")
        XCTAssertEqual(cat.birthday, Date(timeIntervalSince1970: 1582934400))
    }
}
