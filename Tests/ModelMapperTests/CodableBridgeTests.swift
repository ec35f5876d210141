import XCTest
import Foundation
@testable import ModelMapper

// MARK: - Fixtures

private struct CBBase: Codable, Equatable {
    var createdBy: String
}

/// Hand-written Codable using nested containers, an unkeyed loop and a super decoder/encoder.
private struct CBCustom: Codable, Equatable {
    var a: Int
    var b: String
    var list: [Double]
    var base: CBBase

    init(a: Int, b: String, list: [Double], base: CBBase) {
        self.a = a; self.b = b; self.list = list; self.base = base
    }

    enum Keys: String, CodingKey { case info, list }
    enum InfoKeys: String, CodingKey { case a, b }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let info = try c.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
        a = try info.decode(Int.self, forKey: .a)
        b = try info.decode(String.self, forKey: .b)
        var u = try c.nestedUnkeyedContainer(forKey: .list)
        var list: [Double] = []
        while !u.isAtEnd { list.append(try u.decode(Double.self)) }
        self.list = list
        base = try CBBase(from: c.superDecoder())
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        var info = c.nestedContainer(keyedBy: InfoKeys.self, forKey: .info)
        try info.encode(a, forKey: .a)
        try info.encode(b, forKey: .b)
        var u = c.nestedUnkeyedContainer(forKey: .list)
        for x in list { try u.encode(x) }
        try base.encode(to: c.superEncoder())
    }
}

private struct CBRich: Codable, Equatable {
    struct Inner: Codable, Equatable { var name: String; var values: [Int] }
    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case rect(Double, Double)
        case empty
    }
    enum Kind: String, Codable { case alpha, beta }

    var inner: Inner
    var shapes: [Shape]
    var kind: Kind
    var nickname: String?
    var age: Int?
    var matrix: [[Int]]
    var map: [String: Inner]
    var intKeys: [Int: String]
    var date: Date
    var url: URL
    var data: Data
    var decimal: Decimal
    var big: UInt64
    var minimum: Int64
    var small: Int8
    var float: Float
    var double: Double
    var flag: Bool
    var optionalURLs: [URL?]
    var custom: CBCustom

    static let sample = CBRich(
        inner: Inner(name: "in", values: [1, 2, 3]),
        shapes: [.circle(radius: 1.5), .rect(2, 3), .empty],
        kind: .beta,
        nickname: "nick",
        age: nil,
        matrix: [[1, 2], [], [3]],
        map: ["k1": Inner(name: "x", values: []), "k2": Inner(name: "y", values: [9])],
        intKeys: [1: "one", 20: "twenty"],
        date: Date(timeIntervalSince1970: 1_400_000_000.25),
        url: URL(string: "https://example.com/a?b=c")!,
        data: Data([0, 1, 2, 250, 255]),
        decimal: Decimal(string: "3.14159265358979323846")!,
        big: UInt64.max,
        minimum: Int64.min,
        small: -128,
        float: 0.1,
        double: 8.8,
        flag: true,
        optionalURLs: [URL(string: "https://a.b")!, nil],
        custom: CBCustom(a: 7, b: "bee", list: [0.5, -2], base: CBBase(createdBy: "me")))
}

private struct CBPoint: Codable, Equatable {
    var x = 0
    var y = 0
}

private enum CBTag: Codable, Equatable {
    case plain(String)
    case weighted(name: String, weight: Double)
}

private struct CBWrapper: JSONMappable {
    var point = CBPoint()
    var tags: [CBTag] = []
    var title = ""
}

/// A model that is also Codable, with a mapping the synthesized Codable would not follow.
private struct CBMapped: JSONMappable, Codable, Equatable {
    var bookID = 0
    var name = ""
    static let mapping = ModelMapping(keys: ["bookID": "id"])
}

private struct CBHolder: Codable, Equatable {
    var book: CBMapped
    var books: [CBMapped]
}

private class CBAnimal: Codable {
    var name: String
    init(name: String) { self.name = name }
}

/// Subclass sharing the encoder with its superclass (one object), and a variant using `super`.
private final class CBDog: CBAnimal {
    var breed: String
    init(name: String, breed: String) { self.breed = breed; super.init(name: name) }
    enum K: String, CodingKey { case breed }
    required init(from decoder: any Decoder) throws {
        breed = try decoder.container(keyedBy: K.self).decode(String.self, forKey: .breed)
        try super.init(from: decoder)
    }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        try c.encode(breed, forKey: .breed)
        try super.encode(to: encoder)
    }
}

private final class CBCat: CBAnimal {
    var lives: Int
    init(name: String, lives: Int) { self.lives = lives; super.init(name: name) }
    enum K: String, CodingKey { case lives }
    required init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: K.self)
        lives = try c.decode(Int.self, forKey: .lives)
        try super.init(from: c.superDecoder())
    }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        try c.encode(lives, forKey: .lives)
        try super.encode(to: c.superEncoder())
    }
}

/// An unkeyed layout with nested containers and a super decoder per element.
private struct CBRow: Codable, Equatable {
    var id: Int
    var point: CBPoint
    var tags: [String]
    var base: CBBase
    init(id: Int, point: CBPoint, tags: [String], base: CBBase) {
        self.id = id; self.point = point; self.tags = tags; self.base = base
    }
    enum PK: String, CodingKey { case x, y }
    init(from decoder: any Decoder) throws {
        var u = try decoder.unkeyedContainer()
        id = try u.decode(Int.self)
        let p = try u.nestedContainer(keyedBy: PK.self)
        point = CBPoint(x: try p.decode(Int.self, forKey: .x), y: try p.decode(Int.self, forKey: .y))
        var t = try u.nestedUnkeyedContainer()
        var tags: [String] = []
        while !t.isAtEnd { tags.append(try t.decode(String.self)) }
        self.tags = tags
        base = try CBBase(from: u.superDecoder())
        if !u.isAtEnd { throw DecodingError.dataCorruptedError(in: u, debugDescription: "extra elements") }
    }
    func encode(to encoder: any Encoder) throws {
        var u = encoder.unkeyedContainer()
        try u.encode(id)
        var p = u.nestedContainer(keyedBy: PK.self)
        try p.encode(point.x, forKey: .x)
        try p.encode(point.y, forKey: .y)
        var t = u.nestedUnkeyedContainer()
        for tag in tags { try t.encode(tag) }
        try base.encode(to: u.superEncoder())
    }
}

private struct CBItem: Codable, Equatable { var name: String; var count: Int }
private struct CBOrder: Codable, Equatable { var items: [CBItem] }

private struct CBConversions: Codable, Equatable {
    var i: Int
    var d: Double
    var s: String
    var b: Bool
    var dec: Decimal
}

private struct CBAnyKey: CodingKey {
    var stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// Records the keys it sees, in order.
private struct CBKeyRecorder: Decodable {
    var keys: [String]
    init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: CBAnyKey.self).allKeys.map(\.stringValue)
    }
}

private struct CBValidated: Decodable {
    var n: Int
    enum K: String, CodingKey { case n }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: K.self)
        n = try c.decode(Int.self, forKey: .n)
        if n < 0 { throw DecodingError.dataCorruptedError(forKey: .n, in: c, debugDescription: "negative") }
    }
}

// MARK: - Helpers

/// Decodes through the tape decoder in mapping mode, as a `Decodable` property of a model is.
private func decode<T: Decodable>(_ type: T.Type, _ json: String, _ options: DecodingOptions = .lenient) throws -> T {
    try json.withJSONBytes { bytes throws(MappingError) in
        try decodeBytes(bytes, options: options) { c throws(MappingError) in try DecodableCodec<T>(models: MetaCache.shared).decode(c, 0) }
    }
}

/// Encodes through the tree encoder in mapping mode, as an `Encodable` property of a model is.
private func encode(_ value: any Encodable, _ options: EncodingOptions = []) throws -> JSONValue {
    let state = TapeEncodingState(mode: .mapping, options: options, models: MetaCache.shared)
    func box<E: Encodable>(_ v: E) throws -> EncodedNode { try state.box(v, []) }
    var e = EncodeContext(options: options)
    do {
        try state.write(try box(value), &e)
    } catch let error as MappingError {
        throw error
    } catch {
        if let mapped = CodingPathRendering.mappingError(from: error) { throw mapped }
        throw error
    }
    return try JSONValue(json: e.writer.bytes)
}

// MARK: - Tests

final class CodableBridgeTests: XCTestCase {

    func testRichRoundTrip() throws {
        let json = try encode(CBRich.sample)
        // Special types are written natively, not through their own Codable.
        XCTAssertEqual(json["big"], .number(JSONNumber(text: "18446744073709551615")))
        XCTAssertEqual(json["minimum"]?.numberValue?.text, "-9223372036854775808")
        XCTAssertEqual(json["decimal"]?.numberValue?.text, "3.14159265358979323846")
        XCTAssertEqual(json["date"]?.stringValue, "2014-05-13T16:53:20.25Z")
        XCTAssertEqual(json["url"]?.stringValue, "https://example.com/a?b=c")
        XCTAssertEqual(json["data"]?.stringValue, "AAEC+v8=")
        XCTAssertEqual(json["float"]?.numberValue?.text, "0.1")
        XCTAssertEqual(json["double"]?.numberValue?.text, "8.8")
        XCTAssertEqual(json["kind"], "beta")
        XCTAssertNil(json["age"], "nil optionals are omitted")
        XCTAssertEqual(json["matrix"], [[1, 2], [], [3]])
        XCTAssertEqual(json["optionalURLs"], ["https://a.b", nil])
        // Custom encode(to:) with nested containers and a super encoder.
        XCTAssertEqual(json["custom"], ["info": ["a": 7, "b": "bee"], "list": [0.5, -2.0],
                                        "super": ["createdBy": "me"]])
        // Keyed containers keep insertion order.
        XCTAssertEqual(json.objectValue?.keys.prefix(4), ["inner", "shapes", "kind", "nickname"])

        let back = try decode(CBRich.self, json.description, .lenient)
        XCTAssertEqual(back, CBRich.sample)
        let strictBack = try decode(CBRich.self, json.description, .strict)
        XCTAssertEqual(strictBack, CBRich.sample)

        // Through text as well.
        let reparsed = try JSONValue(json: json.description)
        XCTAssertEqual(try decode(CBRich.self, reparsed.description, .strict), CBRich.sample)
    }

    func testIntegerRangeAndExactness() throws {
        struct Small: Codable { var v: Int8 }
        struct Unsigned: Codable { var v: UInt64 }
        struct Plain: Codable { var v: Int }

        var e = mappingError { _ = try decode(Small.self, #"{"v": 300}"#) }
        XCTAssertEqual(e?.kind, .invalidValue)
        XCTAssertEqual(e?.path, "v")
        XCTAssertEqual(try decode(Small.self, #"{"v": -128}"#).v, -128)

        XCTAssertEqual(try decode(Unsigned.self, #"{"v": 18446744073709551615}"#, .strict).v, UInt64.max)
        e = mappingError { _ = try decode(Unsigned.self, #"{"v": 18446744073709551616}"#) }
        XCTAssertEqual(e?.kind, .invalidValue)
        e = mappingError { _ = try decode(Unsigned.self, #"{"v": -1}"#) }
        XCTAssertEqual(e?.kind, .invalidValue)

        e = mappingError { _ = try decode(Plain.self, #"{"v": 1.5}"#) }
        XCTAssertEqual(e?.kind, .invalidValue)
        e = mappingError { _ = try decode(Plain.self, #"{"v": 1.5}"#, .strict) }
        XCTAssertEqual(e?.kind, .invalidValue)
        // Integral floats: lenient only.
        XCTAssertEqual(try decode(Plain.self, #"{"v": 2.0}"#).v, 2)
        XCTAssertEqual(try decode(Plain.self, #"{"v": 1e2}"#).v, 100)
        e = mappingError { _ = try decode(Plain.self, #"{"v": 2.0}"#, .strict) }
        XCTAssertEqual(e?.kind, .invalidValue)
        e = mappingError { _ = try decode(Plain.self, #"{"v": 1e30}"#) }
        XCTAssertEqual(e?.kind, .invalidValue)
        // The integer codec's rule (shared with model properties): 1e30 is an integral float too large
        // for any integer, reported as "not an integer" (the JSONValue bridge said "out of range").
        XCTAssertTrue(e?.message.contains("not an integer") ?? false, e?.message ?? "")
    }

    func testLenientConversions() throws {
        let json = #"{"i": " 42 ", "d": "1.5", "s": 8.80, "b": "YES", "dec": "1.10"}"#
        let v = try decode(CBConversions.self, json)
        XCTAssertEqual(v.i, 42)
        XCTAssertEqual(v.d, 1.5)
        XCTAssertEqual(v.s, "8.80", "number literal text exactly")
        XCTAssertEqual(v.b, true)
        XCTAssertEqual(v.dec, Decimal(string: "1.1"))

        XCTAssertEqual(try decode(CBConversions.self, #"{"i":1,"d":2,"s":true,"b":0,"dec":3}"#).s, "true")
        XCTAssertEqual(try decode(CBConversions.self, #"{"i":1,"d":2,"s":"x","b":0,"dec":3}"#).b, false)
        XCTAssertEqual(try decode(CBConversions.self, #"{"i":1,"d":2,"s":"x","b":"no","dec":3}"#).b, false)

        var e = mappingError { _ = try decode(CBConversions.self, #"{"i":1,"d":2,"s":"x","b":2,"dec":3}"#) }
        XCTAssertEqual(e?.kind, .invalidValue)
        XCTAssertEqual(e?.path, "b")
        e = mappingError { _ = try decode(CBConversions.self, #"{"i":"4x","d":2,"s":"x","b":true,"dec":3}"#) }
        XCTAssertEqual(e?.kind, .invalidValue)
        XCTAssertEqual(e?.path, "i")
        e = mappingError { _ = try decode(CBConversions.self, #"{"i":[1],"d":2,"s":"x","b":true,"dec":3}"#) }
        XCTAssertEqual(e?.kind, .typeMismatch)
    }

    func testStrictConversions() throws {
        let ok = #"{"i": 42, "d": 1.5, "s": "8.8", "b": true, "dec": 1.10}"#
        XCTAssertEqual(try decode(CBConversions.self, ok, .strict),
                       CBConversions(i: 42, d: 1.5, s: "8.8", b: true, dec: Decimal(string: "1.1")!))

        let cases: [(String, String)] = [
            (#"{"i": "42", "d": 1.5, "s": "8.8", "b": true, "dec": 1}"#, "i"),
            (#"{"i": 42, "d": "1.5", "s": "8.8", "b": true, "dec": 1}"#, "d"),
            (#"{"i": 42, "d": 1.5, "s": 8.8, "b": true, "dec": 1}"#, "s"),
            (#"{"i": 42, "d": 1.5, "s": "8.8", "b": 1, "dec": 1}"#, "b"),
            (#"{"i": 42, "d": 1.5, "s": "8.8", "b": "true", "dec": 1}"#, "b"),
            (#"{"i": 42, "d": 1.5, "s": "8.8", "b": true, "dec": "1"}"#, "dec"),
        ]
        for (json, path) in cases {
            let e = mappingError { _ = try decode(CBConversions.self, json, .strict) }
            XCTAssertEqual(e?.kind, .typeMismatch, json)
            XCTAssertEqual(e?.path, path, json)
            // The same documents are fine when lenient.
            XCTAssertNoThrow(try decode(CBConversions.self, json), json)
        }
    }

    func testErrorPaths() throws {
        let json = #"{"items": [{"name": "a", "count": 1}, {"name": "b", "count": 2}, {"name": "c", "count": "many"}]}"#
        var e = mappingError { _ = try decode(CBOrder.self, json) }
        XCTAssertEqual(e?.kind, .invalidValue)
        XCTAssertEqual(e?.path, "items[2].count")

        e = mappingError { _ = try decode(CBOrder.self, json, .strict) }
        XCTAssertEqual(e?.kind, .typeMismatch)
        XCTAssertEqual(e?.path, "items[2].count")
        XCTAssertTrue(e?.message.contains("expected an integer") ?? false, e?.message ?? "")

        e = mappingError { _ = try decode(CBOrder.self, #"{"items": [{"name": "a"}]}"#) }
        XCTAssertEqual(e?.kind, .missingKey)
        XCTAssertEqual(e?.path, "items[0].count")

        e = mappingError { _ = try decode(CBOrder.self, #"{"items": {"name": "a"}}"#) }
        XCTAssertEqual(e?.kind, .typeMismatch)
        XCTAssertEqual(e?.path, "items")

        // Nested arrays and dictionaries.
        struct Grid: Codable { var rows: [[Int]]; var named: [String: [Int8]] }
        e = mappingError { _ = try decode(Grid.self, #"{"rows": [[1], [2, "x"]], "named": {}}"#) }
        XCTAssertEqual(e?.path, "rows[1][1]")
        e = mappingError { _ = try decode(Grid.self, #"{"rows": [], "named": {"k": [1, 999]}}"#) }
        XCTAssertEqual(e?.path, "named.k[1]")
        XCTAssertEqual(e?.kind, .invalidValue)

        // A DecodingError thrown by user code becomes a MappingError with its path.
        struct Outer: Decodable { var list: [CBValidated] }
        e = mappingError { _ = try decode(Outer.self, #"{"list": [{"n": 1}, {"n": -1}]}"#) }
        XCTAssertEqual(e?.kind, .invalidValue)
        XCTAssertEqual(e?.path, "list[1].n")

        // Unkeyed container past its end.
        struct Pair: Decodable {
            var a: Int, b: Int
            init(from decoder: any Decoder) throws {
                var u = try decoder.unkeyedContainer()
                a = try u.decode(Int.self)
                b = try u.decode(Int.self)
            }
        }
        e = mappingError { _ = try decode([Pair].self, "[[1, 2], [3]]") }
        XCTAssertEqual(e?.path, "[1][1]")
    }

    func testNilAndMissing() throws {
        struct Opt: Codable, Equatable { var a: Int?; var b: String?; var c: [Int?]; var u: URL? }
        let v = try decode(Opt.self, #"{"a": null, "c": [1, null, 3], "u": "  "}"#, .strict)
        XCTAssertEqual(v, Opt(a: nil, b: nil, c: [1, nil, 3], u: nil))

        struct NilCheck: Decodable {
            var missing: Bool, null: Bool, present: Bool, contains: Bool
            enum K: String, CodingKey { case x, y, z }
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: K.self)
                missing = try c.decodeNil(forKey: .x)
                null = try c.decodeNil(forKey: .y)
                present = try c.decodeNil(forKey: .z)
                contains = c.contains(.x)
            }
        }
        let n = try decode(NilCheck.self, #"{"y": null, "z": 0}"#)
        XCTAssertTrue(n.missing)
        XCTAssertTrue(n.null)
        XCTAssertFalse(n.present)
        XCTAssertFalse(n.contains)

        // Non-optional with null: a type mismatch.
        struct Req: Decodable { var a: Int }
        let e = mappingError { _ = try decode(Req.self, #"{"a": null}"#) }
        XCTAssertEqual(e?.kind, .typeMismatch)
        XCTAssertEqual(e?.path, "a")

        // Encoding nil: omitted, or null with .writesNulls.
        struct Enc: Encodable { var a: Int? = nil; var b = 1 }
        XCTAssertEqual(try encode(Enc()), ["b": 1])
        XCTAssertEqual(try encode(Enc(), .writesNulls), ["a": nil, "b": 1])
    }

    func testClassesAndSuperContainers() throws {
        let dog = try encode(CBDog(name: "Rex", breed: "lab"))
        XCTAssertEqual(dog.objectValue?.keys, ["breed", "name"], "one object shared with the superclass")
        let dogBack = try decode(CBDog.self, dog.description, .strict)
        XCTAssertEqual(dogBack.name, "Rex")
        XCTAssertEqual(dogBack.breed, "lab")

        let cat = try encode(CBCat(name: "Tom", lives: 9))
        XCTAssertEqual(cat, ["lives": 9, "super": ["name": "Tom"]])
        let catBack = try decode(CBCat.self, cat.description, .strict)
        XCTAssertEqual(catBack.name, "Tom")
        XCTAssertEqual(catBack.lives, 9)

        let e = mappingError { _ = try decode(CBCat.self, #"{"lives": 9, "super": {"name": 5}}"#, .strict) }
        XCTAssertEqual(e?.path, "super.name")

        let rows = [CBRow(id: 1, point: CBPoint(x: 1, y: 2), tags: ["a", "b"], base: CBBase(createdBy: "z")),
                    CBRow(id: 2, point: CBPoint(), tags: [], base: CBBase(createdBy: ""))]
        let json = try encode(rows)
        XCTAssertEqual(json[0], [1, ["x": 1, "y": 2], ["a", "b"], ["createdBy": "z"]])
        XCTAssertEqual(try decode([CBRow].self, json.description, .strict), rows)

        let bad = mappingError { _ = try decode([CBRow].self, #"[[1, {"x": 1, "y": 2}, ["a", 3], {"createdBy": "z"}]]"#, .strict) }
        XCTAssertEqual(bad?.path, "[0][2][1]")
        let extra = mappingError { _ = try decode([CBRow].self, #"[[1, {"x": 1, "y": 2}, [], {"createdBy": "z"}, 5]]"#) }
        XCTAssertEqual(extra?.kind, .invalidValue)
        XCTAssertEqual(extra?.path, "[0][4]")
    }

    func testAllKeysInObjectOrder() throws {
        let r = try decode(CBKeyRecorder.self, #"{"zeta": 1, "alpha": 2, "mid": 3, "beta": 4}"#)
        XCTAssertEqual(r.keys, ["zeta", "alpha", "mid", "beta"])
    }

    func testDates() throws {
        struct D: Codable { var d: Date }
        let t = Date(timeIntervalSince1970: 1_442_377_209)
        XCTAssertEqual(try decode(D.self, #"{"d": "Wed Sep 16 04:20:09 +0000 2015"}"#).d, t)
        XCTAssertEqual(try decode(D.self, #"{"d": "2015-09-16T12:20:09+08:00"}"#).d, t)
        XCTAssertEqual(try decode(D.self, #"{"d": 1442377209}"#).d, t)
        XCTAssertEqual(try decode(D.self, #"{"d": 1442377209000}"#, DecodingOptions().dates(.millisecondsSince1970)).d, t)
        XCTAssertEqual(try decode(D.self, #"{"d": "16/09/2015 04:20:09"}"#,
                                  DecodingOptions().dates(.formatted("dd/MM/yyyy HH:mm:ss"))).d, t)
        XCTAssertEqual(try decode(D.self, #"{"d": {"t": 1442377209}}"#,
                                  DecodingOptions().dates(.custom { Date(timeIntervalSince1970: Double($0["t"]?.intValue ?? 0)) })).d, t)
        var e = mappingError { _ = try decode(D.self, #"{"d": "2015-09-16"}"#, DecodingOptions().dates(.iso8601)) }
        XCTAssertEqual(e?.kind, .invalidValue)
        XCTAssertEqual(e?.path, "d")
        e = mappingError { _ = try decode(D.self, #"{"d": true}"#) }
        XCTAssertEqual(e?.kind, .typeMismatch)

        XCTAssertEqual(try encode(D(d: t)), ["d": "2015-09-16T04:20:09Z"])
        XCTAssertEqual(try encode(D(d: t), .dates(.secondsSince1970))["d"]?.doubleValue, 1442377209)
        XCTAssertEqual(try encode(D(d: t), .dates(.millisecondsSince1970))["d"]?.doubleValue, 1442377209000)
        XCTAssertEqual(try encode(D(d: t), .dates(.formatted("yyyy/MM/dd"))), ["d": "2015/09/16"])
    }

    func testEncodingDetails() throws {
        // NaN and infinity are errors with the path.
        struct F: Encodable { var values: [Double] }
        var e = mappingError { _ = try encode(F(values: [1, .nan])) }
        XCTAssertEqual(e?.kind, .invalidValue)
        XCTAssertEqual(e?.path, "values[1]")
        struct G: Encodable { var f: Float = .infinity }
        e = mappingError { _ = try encode(G()) }
        XCTAssertEqual(e?.path, "f")

        // Encoding a key twice replaces it in place.
        struct Twice: Encodable {
            enum K: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var c = encoder.container(keyedBy: K.self)
                try c.encode(1, forKey: .a)
                try c.encode(2, forKey: .b)
                try c.encode("again", forKey: .a)
            }
        }
        let twice = try encode(Twice())
        XCTAssertEqual(twice.objectValue?.keys, ["a", "b"])
        XCTAssertEqual(twice["a"], "again")

        // Fragments and values with exact integers.
        XCTAssertEqual(try encode(UInt64.max).numberValue?.text, "18446744073709551615")
        XCTAssertEqual(try encode(Int8.min), -128)
        XCTAssertEqual(try encode("s"), "s")
        XCTAssertEqual(try encode([1.5, 2]), [1.5, 2.0])
        XCTAssertEqual(try encode(Optional<Int>.none), nil)
        XCTAssertEqual(try encode(["k": [1]]), ["k": [1]])
    }

    func testJSONMappableInsideCodable() throws {
        let json = #"{"book": {"id": 5, "name": "A"}, "books": [{"id": 6}, {"bookID": 99, "id": 7}]}"#
        let holder = try decode(CBHolder.self, json, .strict)
        XCTAssertEqual(holder.book, CBMapped(bookID: 5, name: "A"))
        XCTAssertEqual(holder.books.map(\.bookID), [6, 7])

        let out = try encode(holder)
        XCTAssertEqual(out["book"], ["id": 5, "name": "A"])
        XCTAssertEqual(try decode(CBHolder.self, out.description, .strict), holder)

        let e = mappingError { _ = try decode(CBHolder.self, #"{"book": {"id": 1}, "books": [{"id": 2}, {"id": "x"}]}"#, .strict) }
        XCTAssertEqual(e?.kind, .typeMismatch)
        XCTAssertEqual(e?.path, "books[1].bookID")
        // The model is decoded on the same tape: the error is positioned at the failing member (the old
        // JSONValue bridge could not say where).
        XCTAssertEqual(e?.line, 1)
    }

    func testCodableOnlyPropertyOfModel() throws {
        let json = #"{"point": {"x": 3, "y": -4}, "tags": [{"plain": {"_0": "a"}}, {"weighted": {"name": "b", "weight": 0.5}}], "title": "T"}"#
        let wrapper = try CBWrapper(json: json)
        XCTAssertEqual(wrapper.point, CBPoint(x: 3, y: -4))
        XCTAssertEqual(wrapper.tags, [.plain("a"), .weighted(name: "b", weight: 0.5)])
        XCTAssertEqual(wrapper.title, "T")

        let text = try wrapper.jsonString(options: [.sortedKeys])
        let value = try JSONValue(json: text)
        XCTAssertEqual(value["point"], ["x": 3, "y": -4])
        XCTAssertEqual(value["tags"], [["plain": ["_0": "a"]], ["weighted": ["name": "b", "weight": 0.5]]])
        let back = try CBWrapper(json: text)
        XCTAssertEqual(back.point, wrapper.point)
        XCTAssertEqual(back.tags, wrapper.tags)

        // Lenient by default, strict on request, errors carry the property path.
        XCTAssertEqual(try CBWrapper(json: #"{"point": {"x": "7", "y": 1.0}}"#).point, CBPoint(x: 7, y: 1))
        do {
            _ = try CBWrapper(json: #"{"title": "t", "point": {"x": "7", "y": 0}}"#, options: .strict)
            XCTFail("expected an error")
        } catch let error as MappingError {
            XCTAssertEqual(error.kind, .typeMismatch)
            XCTAssertEqual(error.path, "point.x")
            XCTAssertEqual(error.line, 1, "positioned at the property's value")
        }
        do {
            _ = try CBWrapper(json: #"{"tags": [{"plain": {"_0": "a"}}, {"weighted": {"name": "b"}}]}"#)
            XCTFail("expected an error")
        } catch let error as MappingError {
            XCTAssertEqual(error.kind, .missingKey)
            XCTAssertEqual(error.path, "tags[1].weighted.weight")
        }
    }
}
