import Foundation
import ModelMapper
import XCTest

/// The code of ConversionsAndErrors.md.
final class ConversionsAndErrorsSnippets: XCTestCase {
    func testConversions() throws {
        struct Product: JSONMappable {
            var id = 0
            var price = 0.0
            var code = ""
            var inStock = false
        }

        let lenient = try Product(json: #"{"id": "17", "price": "9.99", "code": 8.80, "inStock": "YES"}"#)
        // lenient.id == 17, lenient.price == 9.99, lenient.code == "8.80", lenient.inStock == true
        XCTAssertEqual(lenient.id, 17)
        XCTAssertEqual(lenient.price, 9.99)
        XCTAssertEqual(lenient.code, "8.80")
        XCTAssertTrue(lenient.inStock)

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try Product(json: #"{"id": "17"}"#, options: .strict)
        } catch let error as MappingError {
            print(error)  // line 1, column 8: typeMismatch at id: expected an integer, found the string "17"
        }
        XCTAssertEqual(printed, #"line 1, column 8: typeMismatch at id: expected an integer, found the string "17""#)

        struct Account: JSONMappable {
            var user = User()
            struct User: JSONMappable { var id: Int8 = 0 }
        }

        printed = ""
        do {
            _ = try [Account](json: "[{\"user\": {\"id\": 1}},\n {\"user\": {\"id\": 300}}]")
        } catch let error as MappingError {
            print(error)  // line 2, column 18: invalidValue at [1].user.id: 300 is out of range for Int8
        }
        XCTAssertEqual(printed, "line 2, column 18: invalidValue at [1].user.id: 300 is out of range for Int8")

        final class Problems: @unchecked Sendable {
            private let lock = NSLock()
            private var errors: [MappingError] = []
            func append(_ error: MappingError) { lock.lock(); errors.append(error); lock.unlock() }
            var descriptions: [String] { lock.lock(); defer { lock.unlock() }; return errors.map(\.description) }
        }

        let problems = Problems()
        let options = DecodingOptions.lenient.skippingInvalidValues { error in problems.append(error) }
        let product = try Product(json: #"{"id": 3, "price": "cheap", "code": [1]}"#, options: options)
        // product.id == 3, product.price == 0.0, product.code == ""
        // problems.descriptions == [
        //     #"line 1, column 20: invalidValue at price: the string "cheap" is not a number"#,
        //     "line 1, column 37: typeMismatch at code: expected a string, found an array"]
        XCTAssertEqual(product.id, 3)
        XCTAssertEqual(product.price, 0.0)
        XCTAssertEqual(product.code, "")
        XCTAssertEqual(problems.descriptions, [
            #"line 1, column 20: invalidValue at price: the string "cheap" is not a number"#,
            "line 1, column 37: typeMismatch at code: expected a string, found an array"])
    }

    /// The "example description" column of the error-kind table.
    func testErrorKindTable() throws {
        struct Author: JSONMappable { var name = "" }
        struct Book: JSONMappable {
            var name = ""; var bookID = 0; var authors: [Author] = []
            static let mapping = ModelMapping(keys: ["name": "n", "bookID": ["id", "ID", "book_id"]], required: ["bookID"])
        }
        struct Person: JSONMappable, JSONDecodingHooks {
            var age = 0
            mutating func didDecode(from object: JSONObject) throws {
                if age < 0 { throw MappingError(.validation, "age must not be negative") }
            }
        }
        struct Typo: JSONMappable { var name = ""; static let mapping = ModelMapping(keys: ["nmae": "n"]) }
        struct W: JSONMappable { var user = U(); struct U: JSONMappable { var id: Int8 = 0 } }
        func describe(_ body: () throws -> Any) -> String {
            switch Result(catching: body) {
            case .success: return "no error"
            case .failure(let error): return "\(error)"
            }
        }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        XCTAssertEqual(describe { try Book(json: "{\"id\":1,\n \"n\": tru}") },
                       "line 2, column 7: syntax: invalid literal (expected true, false or null)")
        XCTAssertEqual(describe { try Book(json: #"{"id":1,"authors":{"name":"x"}}"#) },
                       "line 1, column 19: typeMismatch at authors: expected an array, found an object")
        XCTAssertEqual(describe { try Book(json: #"{"n":"Dune"}"#) },
                       "line 1, column 1: missingKey at bookID (JSON id): required key id | ID | book_id is missing")
        XCTAssertEqual(describe { try [W](json: "[{\"user\":{\"id\":1}},\n {\"user\":{\"id\":300}}]") },
                       "line 2, column 16: invalidValue at [1].user.id: 300 is out of range for Int8")
        XCTAssertEqual(describe { try Person(json: #"{"age":-1}"#) }, "line 1, column 1: validation: age must not be negative")
        XCTAssertEqual(describe { try Typo(json: "{}") },
                       #"unsupportedType: Typo.mapping.keys names "nmae", which is not a stored property of Typo"#)
        XCTAssertEqual(describe { try JSONValue(json: deep) }, "line 1, column 513: depthLimit: nesting deeper than 512 levels")
    }

    func testInputEncodingsAndTrailingCommas() throws {
        struct Tag: JSONMappable { var names: [String] = [] }

        let utf16 = Data(#"{"names": ["a", "b",],}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let tag = try Tag(json: utf16)
        // tag.names == ["a", "b"]
        XCTAssertEqual(tag.names, ["a", "b"])
        XCTAssertThrowsError(try JSONValue(json: utf16))
        XCTAssertEqual(try JSONValue(json: Data([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))), [1])
    }

    func testForgivingInput() throws {
        final class Problems: @unchecked Sendable {
            private let lock = NSLock()
            private var errors: [MappingError] = []
            func append(_ error: MappingError) { lock.lock(); errors.append(error); lock.unlock() }
            var descriptions: [String] { lock.lock(); defer { lock.unlock() }; return errors.map(\.description) }
        }

        struct Item: JSONMappable {
            var name = ""
            var price = 0.0
            static let mapping = ModelMapping(required: ["name"])
        }
        struct Cart: JSONMappable {
            var items: [Item] = []
            var tags: [String] = []
            static let mapping = ModelMapping(lossy: ["items", "tags"])
        }

        let dropped = Problems()
        let cart = try Cart(
            json: #"{"items": [{"name": "pen", "price": 1.5}, {"name": "ink", "price": "cheap"}, {"price": 3}], "tags": ["a", null, "b"]}"#,
            options: DecodingOptions.lenient.skippingInvalidValues { error in dropped.append(error) })
        // cart.items.map(\.name) == ["pen"], cart.tags == ["a", "b"]
        // dropped.descriptions == [
        //     #"line 1, column 68: invalidValue at items[1].price: element dropped: the string "cheap" is not a number"#,
        //     "line 1, column 78: missingKey at items[2].name: element dropped: required key name is missing",
        //     "line 1, column 107: typeMismatch at tags[1]: element dropped: null element in a collection of non-optional values"]
        XCTAssertEqual(cart.items.map(\.name), ["pen"])
        XCTAssertEqual(cart.tags, ["a", "b"])
        XCTAssertEqual(dropped.descriptions, [
            #"line 1, column 68: invalidValue at items[1].price: element dropped: the string "cheap" is not a number"#,
            "line 1, column 78: missingKey at items[2].name: element dropped: required key name is missing",
            "line 1, column 107: typeMismatch at tags[1]: element dropped: null element in a collection of non-optional values"])
        XCTAssertEqual(try Cart(json: #"{"items": [{"name": "ink", "price": "cheap"}]}"#).items.count, 0)

        var everywhere = DecodingOptions.lenient.skippingInvalidValues { error in dropped.append(error) }
        everywhere.lossyCollections = true
        let items = try [Item](json: #"[null, {"name": "pen"}, {"price": 2}]"#, options: everywhere)
        // items.map(\.name) == ["pen"], and dropped.descriptions ends with [
        //     "line 1, column 2: typeMismatch at [0]: element dropped: null element in a collection of non-optional values",
        //     "line 1, column 25: missingKey at [2].name: element dropped: required key name is missing"]
        XCTAssertEqual(items.map(\.name), ["pen"])
        XCTAssertEqual(Array(dropped.descriptions.suffix(2)), [
            "line 1, column 2: typeMismatch at [0]: element dropped: null element in a collection of non-optional values",
            "line 1, column 25: missingKey at [2].name: element dropped: required key name is missing"])
        XCTAssertThrowsError(try [Item](json: #"[null, {"name": "pen"}]"#, options: DecodingOptions.lenient.skippingInvalidValues { _ in }))

        enum Status: String, JSONUnknownCaseRepresentable {
            case active, closed, unknown
            static var unknownCase: Status { .unknown }
        }
        struct Ticket: JSONMappable {
            var status = Status.active
            var history: [Status] = []
        }

        let ticket = try Ticket(json: #"{"status": "archived", "history": ["active", "merged"]}"#)
        // ticket.status == .unknown, ticket.history == [.active, .unknown]
        XCTAssertEqual(ticket.status, .unknown)
        XCTAssertEqual(ticket.history, [.active, .unknown])

        let replaced = Problems()
        _ = try Ticket(json: #"{"status": "archived"}"#, options: DecodingOptions.lenient.skippingInvalidValues { replaced.append($0) })
        // replaced.descriptions == [
        //     #"line 1, column 12: invalidValue at status: the string "archived" is not a valid Status; decoded as Status.unknown"#]
        XCTAssertEqual(replaced.descriptions, [
            #"line 1, column 12: invalidValue at status: the string "archived" is not a valid Status; decoded as Status.unknown"#])

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try Ticket(json: #"{"status": {"name": "active"}}"#)
        } catch let error as MappingError {
            print(error)  // line 1, column 12: typeMismatch at status: expected a string, found an object
        }
        XCTAssertEqual(printed, "line 1, column 12: typeMismatch at status: expected a string, found an object")

        struct Envelope: JSONMappable {
            var item = Item()
            var ids: [Int] = []
            var note = ""
        }

        let envelope = try Envelope(json: #"{"item": "{\"name\": \"pen\"}", "ids": "[1, 2]", "note": "{\"a\": 1}"}"#)
        // envelope.item.name == "pen", envelope.ids == [1, 2], envelope.note == #"{"a": 1}"#
        XCTAssertEqual(envelope.item.name, "pen")
        XCTAssertEqual(envelope.ids, [1, 2])
        XCTAssertEqual(envelope.note, #"{"a": 1}"#)

        printed = ""
        do {
            _ = try Envelope(json: #"{"ids": "[1, 2]"}"#, options: .strict)
        } catch let error as MappingError {
            print(error)  // line 1, column 9: typeMismatch at ids: expected an array, found the string "[1, 2]"
        }
        XCTAssertEqual(printed, #"line 1, column 9: typeMismatch at ids: expected an array, found the string "[1, 2]""#)

        printed = ""
        do {
            _ = try Envelope(json: #"{"item": "{\"name\": \"pen\", \"price\": \"free\"}"}"#)
        } catch let error as MappingError {
            print(error)  // line 1, column 10: invalidValue at item.price: the string "free" is not a number
        }
        XCTAssertEqual(printed, #"line 1, column 10: invalidValue at item.price: the string "free" is not a number"#)

        struct Event: JSONMappable {
            var payload: Any = NSNull()
            var list: [Any] = []
            var meta: [String: Any] = [:]
        }

        var event = try Event(json: #"{"payload": {"k": [1, 2.5]}, "list": [1, "x", null, true], "meta": {"big": 18446744073709551615}}"#)
        let back = try event.jsonString(options: [.sortedKeys])
        // event.list[0] is Int, event.list[2] is NSNull, event.list[3] is Bool, event.meta["big"] is UInt64
        // back == #"{"list":[1,"x",null,true],"meta":{"big":18446744073709551615},"payload":{"k":[1,2.5]}}"#
        XCTAssertTrue(event.list[0] is Int)
        XCTAssertTrue(event.list[1] is String)
        XCTAssertTrue(event.list[2] is NSNull)
        XCTAssertTrue(event.list[3] is Bool)
        XCTAssertTrue(event.meta["big"] is UInt64)
        XCTAssertTrue(event.payload is [String: Any])
        XCTAssertEqual(back, #"{"list":[1,"x",null,true],"meta":{"big":18446744073709551615},"payload":{"k":[1,2.5]}}"#)

        printed = ""
        event.payload = Date()
        do {
            _ = try event.jsonData()
        } catch let error as MappingError {
            print(error)  // typeMismatch at payload: Date is not a JSON value
        }
        XCTAssertEqual(printed, "typeMismatch at payload: Date is not a JSON value")
    }
}
