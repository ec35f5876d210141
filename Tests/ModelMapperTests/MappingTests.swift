import Foundation
import XCTest
@testable import ModelMapper

// YYModel's mapper scenarios, on structs and classes.

private struct Plain: JSONMappable, Equatable {
    var name = ""
    var count = 0
    var ratio = 0.0
    var flag = false
    var id = 0
    var description = ""
}

private struct Book: JSONMappable, Equatable {
    var name = ""
    var desc = ""
    var bookID = 0
    var price = 0.0
    static let mapping = ModelMapping(
        keys: ["name": "n", "desc": "ext.desc", "bookID": ["id", "ID", "book_id"]])
}

private struct SameKey: JSONMappable, Equatable {
    var title = ""
    var heading = ""
    var titleLength: JSONValue = .null
    static let mapping = ModelMapping(keys: ["title": "t", "heading": "t", "titleLength": "t"])
}

private struct DeepPath: JSONMappable, Equatable {
    var city = ""
    var zip: Int? = nil
    var dotted = ""
    static let mapping = ModelMapping(keys: ["city": "user.address.city", "zip": "user.address.zip",
                                             "dotted": .literal("a.b")])
}

final class MappingTests: XCTestCase {
    func testPlainNamesIncludingDescriptionAndID() throws {
        let p = try Plain(json: #"{"name":"n","count":3,"ratio":0.5,"flag":true,"id":42,"description":"d","other":[1,{"x":2}]}"#)
        XCTAssertEqual(p, Plain(name: "n", count: 3, ratio: 0.5, flag: true, id: 42, description: "d"))
    }

    func testCustomKeysKeyPathsAndMultiKeys() throws {
        let b = try Book(json: #"{"n":"Dune","ext":{"desc":"sand"},"book_id":9,"ID":8,"price":1.5}"#)
        XCTAssertEqual(b, Book(name: "Dune", desc: "sand", bookID: 8, price: 1.5), "list order wins: ID before book_id")
        let first = try Book(json: #"{"book_id":9,"ID":8,"id":7}"#)
        XCTAssertEqual(first.bookID, 7, "id is first in the list whatever the document order")
        // null counts as present: the non-optional keeps its value, later keys are not consulted.
        var kept = Book(); kept.bookID = 5
        try kept.update(json: #"{"id":null,"ID":8}"#)
        XCTAssertEqual(kept.bookID, 5)
        // The property's own name is not a key once it is mapped.
        XCTAssertEqual(try Book(json: #"{"name":"x","desc":"y"}"#), Book())
    }

    func testKeyPathThroughNonObjectIsAbsent() throws {
        var d = DeepPath(); d.city = "keep"
        try d.update(json: #"{"user":{"address":"not an object"}}"#)
        XCTAssertEqual(d.city, "keep")
        try d.update(json: #"{"user":[1,2]}"#)
        XCTAssertEqual(d.city, "keep")
        let full = try DeepPath(json: #"{"user":{"address":{"city":"Oslo","zip":150}},"a.b":"literal","a":{"b":"path"}}"#)
        XCTAssertEqual(full, DeepPath(city: "Oslo", zip: 150, dotted: "literal"))
        let nullZip = try DeepPath(json: #"{"user":{"address":{"zip":null}}}"#)
        XCTAssertNil(nullZip.zip)
    }

    func testSeveralPropertiesOnOneKey() throws {
        let s = try SameKey(json: #"{"t":"hello"}"#)
        XCTAssertEqual(s.title, "hello")
        XCTAssertEqual(s.heading, "hello")
        XCTAssertEqual(s.titleLength, .string("hello"))
    }

    func testDuplicateJSONKeysLastWins() throws {
        XCTAssertEqual(try Plain(json: #"{"name":"a","name":"b"}"#).name, "b")
    }

    func testUnknownKeysAreSkippedWhateverTheirShape() throws {
        let json = #"{"zzz":{"a":[[[{"b":null}]]],"c":"\u00e9"},"count":1,"yyy":[true,false,null,1e5]}"#
        XCTAssertEqual(try Plain(json: json).count, 1)
    }
}

// MARK: - Strategies, ignored, only, required, and mapping errors

private struct Snake: JSONMappable, Equatable {
    var userID = 0
    var addressLine1 = ""
    var htmlURL = ""
    var simple = ""
    static let mapping = ModelMapping(keyStrategy: .snakeCase)
}

private struct Custom: JSONMappable, Equatable {
    var name = ""
    static let mapping = ModelMapping(keyStrategy: .custom { $0.uppercased() })
}

private struct Filtered: JSONMappable, Equatable {
    var a = 0
    var b = 0
    var c = 0
    static let mapping = ModelMapping(ignored: ["b"])
}

private struct Whitelisted: JSONMappable, Equatable {
    var a = 0
    var b = 0
    static let mapping = ModelMapping(only: ["b"])
}

private struct Required: JSONMappable, Equatable {
    var id = 0
    var name: String? = nil
    var nested = 0
    static let mapping = ModelMapping(keys: ["nested": "x.y"], required: ["id", "name", "nested"])
}

private struct BadMapping: JSONMappable {
    var a = 0
    static let mapping = ModelMapping(keys: ["nope": "x"])
}

private struct BadRequired: JSONMappable {
    var a = 0
    static let mapping = ModelMapping(required: ["missing"])
}

private struct Unsupported: JSONMappable {
    var a = 0
    var callback: () -> Void = {}
}

private struct UnsupportedIgnored: JSONMappable {
    var a = 0
    var callback: () -> Void = {}
    static let mapping = ModelMapping(ignored: ["callback"])
}

private struct Convertible: Encodable {
    var userID = 0
    var addressLine1 = ""
    var htmlURL = ""
    var simple = ""
}

extension MappingTests {
    func testSnakeCaseMatchesFoundation() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let object = try JSONSerialization.jsonObject(with: encoder.encode(Convertible())) as! [String: Any]
        let expected = Set(object.keys)
        let ours = Set(["userID", "addressLine1", "htmlURL", "simple"].map(KeyStrategy.snakeCased))
        XCTAssertEqual(ours, expected)
        for name in ["a", "A", "URL", "myURLString", "x1Y2", "already_snake", "_private", "ABCDef", "iPhone"] {
            struct One: Encodable { let name: String; func encode(to e: Encoder) throws {
                var c = e.container(keyedBy: AnyKey.self); try c.encode(1, forKey: AnyKey(stringValue: name)!) } }
            let data = try encoder.encode(One(name: name))
            let key = (try JSONSerialization.jsonObject(with: data) as! [String: Any]).keys.first!
            XCTAssertEqual(KeyStrategy.snakeCased(name), key, name)
        }
        let s = try Snake(json: #"{"user_id":1,"address_line1":"x","html_url":"u","simple":"s"}"#)
        XCTAssertEqual(s, Snake(userID: 1, addressLine1: "x", htmlURL: "u", simple: "s"))
        XCTAssertEqual(try Custom(json: #"{"NAME":"n","name":"m"}"#).name, "n")
    }

    func testIgnoredAndOnly() throws {
        XCTAssertEqual(try Filtered(json: #"{"a":1,"b":2,"c":3}"#), Filtered(a: 1, b: 0, c: 3))
        XCTAssertEqual(try Whitelisted(json: #"{"a":1,"b":2}"#), Whitelisted(a: 0, b: 2))
        XCTAssertEqual(try Filtered(a: 1, b: 2, c: 3).jsonValue(), ["a": 1, "c": 3])
    }

    func testRequired() throws {
        XCTAssertEqual(try Required(json: #"{"id":1,"name":null,"x":{"y":2}}"#).nested, 2)
        for (json, path) in [(#"{"name":"n","x":{"y":2}}"#, "id"), (#"{"id":1,"x":{"y":2}}"#, "name"),
                             (#"{"id":1,"name":"n","x":{}}"#, "nested")] {
            XCTAssertThrowsError(try Required(json: json)) { error in
                let e = error as! MappingError
                XCTAssertEqual(e.kind, .missingKey)
                XCTAssertEqual(e.path, path)
                XCTAssertEqual(e.line, 1)
                XCTAssertEqual(e.column, 1)
            }
        }
    }

    func testMappingErrorsAreReportedAtFirstUse() {
        for attempt in 0..<2 {
            XCTAssertThrowsError(try BadMapping(json: "{}"), "attempt \(attempt)") { error in
                let e = error as! MappingError
                XCTAssertEqual(e.kind, .unsupportedType)
                XCTAssertTrue(e.message.contains("nope"), e.message)
            }
        }
        XCTAssertThrowsError(try BadRequired(json: "{}")) { XCTAssertTrue(($0 as! MappingError).message.contains("missing")) }
        XCTAssertThrowsError(try Unsupported(json: "{}")) { error in
            let e = error as! MappingError
            XCTAssertEqual(e.kind, .unsupportedType)
            XCTAssertTrue(e.message.contains("callback"), e.message)
        }
        XCTAssertEqual(try UnsupportedIgnored(json: #"{"a":3}"#).a, 3)
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
