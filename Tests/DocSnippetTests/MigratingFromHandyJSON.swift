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

    override func setUp() {
        super.setUp()
        printed.removeAll()
    }

    func testEnumsKeepTheirInitialValue() throws {
        enum Size: String { case one, two, three }

        struct Shirt: JSONMappable {
            var size = Size.two
            var fit: Size? = nil
        }

        let forgiving = DecodingOptions.lenient.skippingInvalidValues { error in print(error) }
        let shirt = try Shirt(json: #"{"size": "four", "fit": "five"}"#, options: forgiving)
        // shirt.size == .two, shirt.fit == nil: each keeps its initial value, as with SmartCodable
        // printed: line 1, column 10: invalidValue at size: the string "four" is not a valid Size
        //          line 1, column 25: invalidValue at fit: the string "five" is not a valid Size
        XCTAssertEqual(shirt.size, .two)
        XCTAssertNil(shirt.fit)
        XCTAssertEqual(printed.lines, [
            #"line 1, column 10: invalidValue at size: the string "four" is not a valid Size"#,
            #"line 1, column 25: invalidValue at fit: the string "five" is not a valid Size"#])
        // Without the handler an unknown value is an error.
        XCTAssertThrowsError(try Shirt(json: #"{"size": "four"}"#)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .invalidValue)
        }
    }

    func testArraysOfModels() throws {
        struct Friend: JSONMappable {
            var name = ""
            var age = 0
        }

        let friends = #"[{"name": "Ann", "age": "old"}, null, 1, [], "Alice", {"name": "Bob", "age": 30}]"#
        var lossy = DecodingOptions.lenient.skippingInvalidValues { error in print(error) }
        lossy.lossyCollections = true
        let kept = try [Friend](json: friends, options: lossy)
        // kept.map(\.name) == ["Bob"]: Ann (her age) and the four elements that are not objects are dropped,
        // each reported

        let ages = #"[{"name": "Ann", "age": "old"}, {"name": "Bob", "age": 30}]"#
        let both = try [Friend](json: ages, options: .lenient.skippingInvalidValues { error in print(error) })
        // both.map(\.age) == [0, 30]: Ann is kept with her age's initial value, the value reported
        XCTAssertEqual(kept.map(\.name), ["Bob"])
        XCTAssertEqual(both.map(\.age), [0, 30])
        XCTAssertEqual(both.map(\.name), ["Ann", "Bob"])
        XCTAssertEqual(printed.lines, [
            #"line 1, column 25: invalidValue at [0].age: element dropped: the string "old" is not a number"#,
            "line 1, column 33: typeMismatch at [1]: element dropped: null element in a collection of non-optional values",
            "line 1, column 39: typeMismatch at [2]: element dropped: expected an object, found the number 1",
            "line 1, column 42: typeMismatch at [3]: element dropped: expected an object, found an array",
            #"line 1, column 46: typeMismatch at [4]: element dropped: expected an object, found the string "Alice""#,
            #"line 1, column 25: invalidValue at [0].age: the string "old" is not a number"#])

        // Each element that is not an object is a typeMismatch without lossyCollections, on its own.
        for element in ["null", "1", "[]", #""Alice""#] {
            XCTAssertThrowsError(try [Friend](json: #"[{"name": "Ann"}, "# + element + "]")) { error in
                XCTAssertEqual((error as? MappingError)?.kind, .typeMismatch, element)
                XCTAssertEqual((error as? MappingError)?.path, "[1]", element)
            }
        }
        // ModelMapping.lossy does the same for a property.
        struct Group: JSONMappable {
            var friends: [Friend] = []
            var others: [Friend] = []
            static let mapping = ModelMapping(lossy: ["friends"])
        }
        let group = try Group(json: #"{"friends": [null, {"name": "Bob"}], "others": [{"name": "Cy"}, "Alice"]}"#,
                              options: .lenient.skippingInvalidValues { _ in })
        XCTAssertEqual(group.friends.map(\.name), ["Bob"])
        // skippingInvalidValues alone: the whole array keeps its current value; at the top level, an error.
        XCTAssertEqual(group.others.map(\.name), [])
        XCTAssertThrowsError(try [Friend](json: #"[{"name": "Ann"}, null]"#, options: .lenient.skippingInvalidValues { _ in }))
        // A string holding a JSON object is read as the model in lenient mode.
        XCTAssertEqual(try [Friend](json: #"[{"name": "Ann"}, "{\"name\": \"Bob\"}"]"#).map(\.name), ["Ann", "Bob"])
        XCTAssertThrowsError(try [Friend](json: #"[{"name": "Ann"}, "{\"name\": \"Bob\"}"]"#, options: .strict))
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

private let printed = Printed()

/// The snippets' `print`, recorded for the assertions.
private func print(_ item: Any) { printed.add("\(item)") }
