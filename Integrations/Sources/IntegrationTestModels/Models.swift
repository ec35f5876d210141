import Foundation
import ModelMapper

// The bodies the framework tests send and answer with: a plain mapped model (not Codable), a JSONCodable
// model, a model written out as `@JSONModel` expands it (a GeneratedJSONModel, so the macro targets and
// swift-syntax need not be built here; Tests/ModelMapperMacrosPluginTests pins that expansion), and a plain
// Codable struct. Each has a key that differs from its property, so that a 400 names the JSON spelling.

/// Mapped only: neither Decodable nor Encodable.
public struct Book: JSONMappable, Equatable, Sendable {
    public var title = ""
    public var bookID = 0
    public var authors: [Author] = []
    public static let mapping = ModelMapping(keys: ["bookID": "book_id"], required: ["bookID"])
    public init() {}
}

public struct Author: JSONMappable, Equatable, Sendable {
    public var name = ""
    public var age = 0
    public init() {}
}

/// Mapped and Codable.
public struct Order: JSONCodable, Equatable, Sendable {
    public var orderID = 0
    public var lines: [OrderLine] = []
    public static let mapping = ModelMapping(keys: ["orderID": "order_id"])
    public init() {}
}

public struct OrderLine: JSONCodable, Equatable, Sendable {
    public var sku = ""
    public var quantity = 0
    public init() {}
}

/// Plain Codable (JSONDecoder's rules, through ModelDecoder's Codable path).
public struct Note: Codable, Equatable, Sendable {
    public var text: String
    public var count: Int
    public init(text: String, count: Int) {
        self.text = text
        self.count = count
    }
}

/// `@JSONModel struct Repo { let id: Int; let fullName: String; var stars: Int = 0;
/// static let mapping = ModelMapping(keys: ["fullName": "full_name"]) }`, written out as the macro expands it.
public struct Repo: Equatable, Sendable {
    public let id: Int
    public let fullName: String
    public var stars: Int = 0
    public static let mapping = ModelMapping(keys: ["fullName": "full_name"])

    public init(id: Int, fullName: String, stars: Int = 0) {
        self.id = id
        self.fullName = fullName
        self.stars = stars
    }

    public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
        var id: Swift.Optional<Int> = nil
        var fullName: Swift.Optional<String> = nil
        var stars: Swift.Optional<Int> = nil
        public init() {
        }
    }

    public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
        [
            .init("id", \JSONModelSlots.id, hasInitialValue: false, isLet: true),
            .init("fullName", \JSONModelSlots.fullName, hasInitialValue: false, isLet: true),
            .init("stars", \JSONModelSlots.stars, hasInitialValue: true, isLet: false),
        ]
    }

    public func jsonModelSlots() -> JSONModelSlots {
        var slots = JSONModelSlots()
        slots.id = self.id
        slots.fullName = self.fullName
        slots.stars = self.stars
        return slots
    }

    public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
        self = try Self(jsonModelSlots: &slots)
    }
}

extension Repo: ModelMapper.GeneratedJSONModel {
    public init(jsonModelSlots slots: inout JSONModelSlots) throws {
        self.id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
        self.fullName = try slots.fullName.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("fullName", of: Self.self)
        self.stars = slots.stars.take() ?? 0
    }
}

/// The fields of a 400 body, read back by the tests (every key it has, to check that nothing else is sent).
public struct ErrorBody: Equatable, CustomStringConvertible {
    public var message: String
    public var jsonPath: String
    public var line: Int?
    public var column: Int?
    public var keys: [String]

    public init(json bytes: some JSONInput) throws {
        let value = try JSONValue(json: bytes)
        guard case .object(let object) = value else { throw MappingError(.typeMismatch, "the 400 body is not an object") }
        keys = object.keys.sorted()
        message = object["message"]?.stringValue ?? ""
        jsonPath = object["jsonPath"]?.stringValue ?? "<none>"
        line = object["line"]?.intValue
        column = object["column"]?.intValue
    }

    public var description: String { "\(jsonPath) \(line.map(String.init) ?? "-"):\(column.map(String.init) ?? "-") \(message)" }
}

/// The good and bad bodies, shared by both frameworks' tests.
public enum Bodies {
    public static let book = #"{"title":"Dune","book_id":7,"authors":[{"name":"Frank","age":65}]}"#
    /// `authors[0].age` is a string: line 2, the column of the value.
    public static let bookBadAge = "{\"title\":\"Dune\",\"book_id\":7,\n\"authors\":[{\"name\":\"Frank\",\"age\":\"old\"}]}"
    /// `book_id` (property `bookID`) is an object.
    public static let bookBadID = #"{"title":"Dune","book_id":{"n":1}}"#
    /// `book_id` is required.
    public static let bookMissingID = #"{"title":"Dune"}"#
    /// Not JSON: cut short.
    public static let truncated = #"{"title":"Dune","book_id":"#
    public static let order = #"{"order_id":3,"lines":[{"sku":"a-1","quantity":2},{"sku":"b-2","quantity":1}]}"#
    /// `lines[1].quantity` is a string.
    public static let orderBadQuantity = #"{"order_id":3,"lines":[{"sku":"a-1","quantity":2},{"sku":"b-2","quantity":"one"}]}"#
    public static let repo = #"{"id":1,"full_name":"apple/swift-nio","stars":8000}"#
    /// `full_name` (property `fullName`) is absent.
    public static let repoMissingName = #"{"id":1,"stars":8000}"#
    public static let note = #"{"text":"hi","count":2}"#
    /// `count` is a string.
    public static let noteBadCount = #"{"text":"hi","count":"two"}"#
}
