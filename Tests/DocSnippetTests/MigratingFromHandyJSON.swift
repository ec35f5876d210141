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

    func testPropertyWrappers() throws {
        @propertyWrapper
        struct Trimmed: Codable {
            var wrappedValue: String
            init(wrappedValue: String) { self.wrappedValue = wrappedValue.trimmingCharacters(in: .whitespaces) }
            init(from decoder: any Decoder) throws {
                self.init(wrappedValue: try decoder.singleValueContainer().decode(String.self))
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(wrappedValue)
            }
        }

        struct Member: JSONMappable {
            var _id = ""
            @Trimmed var name = ""
        }

        let member = try Member(json: #"{"_id": "65f0", "name": "  Ann  "}"#)
        // member._id == "65f0", member.name == "Ann"; try member.jsonString() == #"{"_id":"65f0","name":"Ann"}"#
        XCTAssertEqual(member._id, "65f0")
        XCTAssertEqual(member.name, "Ann")
        XCTAssertEqual(try member.jsonString(), #"{"_id":"65f0","name":"Ann"}"#)
    }
}
