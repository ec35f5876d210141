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

        // The one Codable wrapper of the tests (PropertyWrapperTests covers wrappers without Codable):
        // the same value through dictionary input and a JSON Lines record, and the same as JSONDecoder and
        // JSONEncoder with the synthesized conformance.
        struct Twin: Codable {
            var _id = ""
            @Trimmed var name = ""
        }
        let json = #"{"_id": "65f0", "name": "  Ann  ", "_name": "storage"}"#
        let fromObject = try Member(jsonObject: JSONSerialization.jsonObject(with: Data(json.utf8)))
        XCTAssertEqual(fromObject.name, "Ann")
        let records = try JSONLines<Member>.decodeAll(Data((json + "\n").utf8), workers: 1)
        XCTAssertEqual(records.map(\.name), ["Ann"])
        XCTAssertEqual(try JSONDecoder().decode(Twin.self, from: Data(json.utf8)).name, member.name)
        let foundation = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Twin(_id: "65f0", name: "Ann"))) as? NSDictionary
        XCTAssertEqual(try JSONSerialization.jsonObject(with: member.jsonData()) as? NSDictionary, foundation)
    }

    func testEnumsWithUnknownValues() throws {
        enum Sex: String { case man, woman }
        enum Level: String, JSONUnknownCaseRepresentable {
            case low, high, unknown
            static var unknownCase: Level { .unknown }
        }

        struct Person: JSONMappable {
            var sex: Sex? = nil
            var level = Level.low
        }

        let options = DecodingOptions.lenient.skippingInvalidValues { error in print(error) }
        let person = try Person(json: #"{"sex": "other", "level": "max"}"#, options: options)
        // person.sex == nil, person.level == .unknown; both values are reported
        XCTAssertNil(person.sex)
        XCTAssertEqual(person.level, .unknown)
        XCTAssertEqual(printed.lines.count, 2, "\(printed.lines)")
        XCTAssertTrue(printed.lines.contains { $0.contains("at sex") }, "\(printed.lines)")
        XCTAssertTrue(printed.lines.contains { $0.contains("at level") }, "\(printed.lines)")
    }
}

/// What the snippets print (a handler may run on any thread).
private final class Printed: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ line: String) { lock.lock(); stored.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
}

private let printed = Printed()

/// The snippets' `print`, recorded for the assertions.
private func print(_ item: Any) { printed.add("\(item)") }
