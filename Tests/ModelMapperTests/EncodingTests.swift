import ModelMapperBenchmarkModels
import Foundation
import XCTest
@testable import ModelMapper

// Encoding: the mapping reversed (key paths, alternative keys, key strategies, ignored/only, transformers,
// hooks, polymorphic classes), the exact text (sorted, pretty, escaping, nulls), errors for values JSON
// cannot hold, and agreement with Foundation on real data (twitter.json).

// MARK: - Models

private struct EBook: JSONMappable, Equatable {
    var name = "N"
    var desc = "D"
    var city: String? = "C"
    var bookID = 7
    var price = 1.5
    static let mapping = ModelMapping(keys: ["desc": "ext.desc", "city": "ext.addr.city", "bookID": ["id", "ID"]])
}

private struct EPaths: JSONMappable, Equatable {
    var a: Int? = 1
    var b: Int? = 2
    var c = 3
    var dotted = 4
    static let mapping = ModelMapping(keys: ["a": "x.y.a", "b": "x.b", "c": ["p.q", "c"], "dotted": .literal("d.e")])
}

private struct ESameKey: JSONMappable, Equatable {
    var first = 1
    var second = 2
    static let mapping = ModelMapping(keys: ["first": "k", "second": "k"])
}

private struct ESnake: JSONMappable, Codable, Equatable {
    var userID = 1
    var addressLine1 = "x"
    var firstName = "f"
    var URLString = "u"
    var already_snake = 2
    var nestedValue = ESnakeInner()
    static let mapping = ModelMapping(keys: ["firstName": "given"], keyStrategy: .snakeCase)

    enum CodingKeys: String, CodingKey {
        case userID, addressLine1, URLString, already_snake, nestedValue
        case firstName = "given"
    }
}

private struct ESnakeInner: JSONMappable, Codable, Equatable {
    var innerHTMLText = "h"
    static let mapping = ModelMapping(keyStrategy: .snakeCase)
}

private struct ECustomKeys: JSONMappable, Equatable {
    var name = "n"
    var count = 2
    static let mapping = ModelMapping(keys: ["count": "Total"], keyStrategy: .custom { $0.uppercased() })
}

private struct EFiltered: JSONMappable, Equatable {
    var a = 1
    var b = 2
    var c = 3
    static let mapping = ModelMapping(ignored: ["b"])
}

private struct EOnly: JSONMappable, Equatable {
    var a = 1
    var b = 2
    var c = 3
    static let mapping = ModelMapping(only: ["c", "a"])
}

private enum EState: Equatable, Sendable { case open, closed }

private struct ETransformed: JSONMappable, Equatable {
    var state = EState.open
    var day = Date(timeIntervalSince1970: 86_400 * 365)
    var code = 255
    var maybe: Int? = nil
    static let mapping = ModelMapping(transformers: [
        "state": .valueMap(["open": EState.open, "closed": .closed]),
        "day": .date(format: "dd/MM/yyyy"),
        "code": hex,
        "maybe": hex,
    ])
    static let hex = JSONTransformer(Int.self, decode: { json in
        guard let s = json.stringValue, s.hasPrefix("0x"), let v = Int(s.dropFirst(2), radix: 16) else {
            throw MappingError(.invalidValue, "not hex")
        }
        return v
    }, encode: { .string("0x" + String($0, radix: 16)) })
}

private struct EHooked: JSONMappable, JSONEncodingHooks, Equatable {
    var first = "Ada"
    var last = "L"
    var secret = "s"
    var fail = false
    static let mapping = ModelMapping(ignored: ["fail"])

    struct Refused: Error {}

    func didEncode(into object: inout JSONObject) throws {
        if fail { throw Refused() }
        object["full"] = .string(first + " " + last)
        object.removeValue(forKey: "secret")
        if let given = object.removeValue(forKey: "first") { object["given"] = given }
    }
}

private struct EHookHolder: JSONMappable {
    var items: [EHooked] = []
    var one = EHooked()
}

private class EAnimal: JSONMappable {
    var name = "a"
    required init() {}
    class var mapping: ModelMapping { ModelMapping() }
}

private final class EDog: EAnimal {
    var bark = "woof"
    override class var mapping: ModelMapping { super.mapping.merging(ModelMapping(keys: ["bark": "sound.bark"])) }
}

private struct EZoo: JSONMappable {
    var animals: [EAnimal] = []
    var star: EAnimal? = nil
}

private struct EEmpty: JSONMappable, Equatable {}

private struct EInner: JSONMappable, Equatable {
    var x = 1
    var y = ["s"]
}

private struct ELayout: JSONMappable {
    var name = "a"
    var list = [1, 2]
    var empty: [Int] = []
    var none: [String: Int] = [:]
    var inner = EInner()
    var nested: [[Int]] = [[]]
    var emptyModel = EEmpty()
    var map = ["b": 2, "a": 1]
    var raw: JSONValue = ["k": [1, [:], []]]
}

private struct EText: JSONMappable, Codable, Equatable {
    var s = ""
}

private struct EScore: JSONMappable {
    var score = 0.0
}

private struct EScores: JSONMappable {
    var items: [EScore] = [EScore(), EScore(), EScore()]
    var values: [Double] = [1, 2]
    var floats: [Float] = []
    var scores: [String: Double] = ["a": 1]
    var child: EChild? = nil
    var maybe: Double? = nil
    var f: Float = 0
    var decimal: Decimal = 0
    var raw: JSONValue = .null
    var codable: ECodablePoint? = nil
}

private struct EChild: JSONMappable {
    var inner = EScore()
}

private struct ECodablePoint: Codable {
    var x = 0.0
}

private struct EHookedDate: JSONMappable, JSONEncodingHooks {
    var at = Date(timeIntervalSince1970: 1.5)
    func didEncode(into object: inout JSONObject) throws { object["hooked"] = true }
}

private struct EDates: JSONMappable {
    var at = Date(timeIntervalSince1970: 1.5)
    var list = [Date(timeIntervalSince1970: 0)]
}

// MARK: - Tests

final class EncodingTests: XCTestCase {
    // MARK: Mapping reversed

    func testKeyPathsAndMultiKeysBuildNestedObjects() throws {
        let book = EBook()
        // Declaration order; sibling paths share one "ext" object; the multi-key writes its first key.
        XCTAssertEqual(try book.jsonString(), #"{"name":"N","ext":{"desc":"D","addr":{"city":"C"}},"id":7,"price":1.5}"#)
        XCTAssertEqual(try book.jsonString(options: .sortedKeys), #"{"ext":{"addr":{"city":"C"},"desc":"D"},"id":7,"name":"N","price":1.5}"#)
        XCTAssertEqual(try EBook(json: try book.jsonData()), book)

        // A nil leaf is omitted, and so is an object all of whose leaves are nil (unless nulls are written).
        var noCity = book
        noCity.city = nil
        XCTAssertEqual(try noCity.jsonString(), #"{"name":"N","ext":{"desc":"D"},"id":7,"price":1.5}"#)
        XCTAssertEqual(try noCity.jsonString(options: .writesNulls),
                       #"{"name":"N","ext":{"desc":"D","addr":{"city":null}},"id":7,"price":1.5}"#)
        // (An absent key leaves the default "C"; null sets nil.)
        XCTAssertEqual(try EBook(json: try noCity.jsonData()).city, "C")
        XCTAssertEqual(try EBook(json: try noCity.jsonData(options: .writesNulls)), noCity)

        let paths = EPaths()
        XCTAssertEqual(try paths.jsonString(), #"{"x":{"y":{"a":1},"b":2},"p":{"q":3},"d.e":4}"#)
        XCTAssertEqual(try EPaths(json: try paths.jsonData()), paths)
        let nilPaths = EPaths(a: nil, b: nil, c: 3, dotted: 4)
        XCTAssertEqual(try nilPaths.jsonString(), #"{"p":{"q":3},"d.e":4}"#)
        XCTAssertEqual(try nilPaths.jsonString(options: .nulls), #"{"x":{"y":{"a":null},"b":null},"p":{"q":3},"d.e":4}"#)
        XCTAssertEqual(try EPaths(json: try nilPaths.jsonData(options: .nulls)), nilPaths)

        // Two properties reading one key: the first declared writes it.
        XCTAssertEqual(try ESameKey().jsonString(), #"{"k":1}"#)
    }

    func testKeyStrategiesReversed() throws {
        let model = ESnake()
        // "URLString" -> "u_rl_string" is what Foundation's convertToSnakeCase makes of it too.
        XCTAssertEqual(try model.jsonString(options: .sortedKeys),
                       #"{"address_line1":"x","already_snake":2,"given":"f","nested_value":{"inner_html_text":"h"},"u_rl_string":"u","user_id":1}"#)
        // Same keys as Foundation's convertToSnakeCase.
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        XCTAssertEqual(try model.jsonString(options: .sortedKeys), String(decoding: try encoder.encode(model), as: UTF8.self))
        XCTAssertEqual(try ESnake(json: try model.jsonData()), model)

        XCTAssertEqual(try ECustomKeys().jsonString(), #"{"NAME":"n","Total":2}"#)
        XCTAssertEqual(try ECustomKeys(json: #"{"NAME":"m","Total":5}"#), ECustomKeys(name: "m", count: 5))
    }

    func testIgnoredAndOnlyAreRespected() throws {
        XCTAssertEqual(try EFiltered().jsonString(), #"{"a":1,"c":3}"#)
        XCTAssertEqual(try EOnly().jsonString(), #"{"a":1,"c":3}"#)
        XCTAssertEqual(try EOnly().jsonString(options: .writesNulls), #"{"a":1,"c":3}"#)
    }

    func testTransformersReversed() throws {
        let model = ETransformed(state: .closed, day: Date(timeIntervalSince1970: 86_400 * 365 + 3_600), code: 255, maybe: nil)
        XCTAssertEqual(try model.jsonString(), #"{"state":"closed","day":"01/01/1971","code":"0xff"}"#)
        XCTAssertEqual(try model.jsonString(options: .writesNulls), #"{"state":"closed","day":"01/01/1971","code":"0xff","maybe":null}"#)
        var withMaybe = model
        withMaybe.maybe = 16
        XCTAssertEqual(try withMaybe.jsonString(), #"{"state":"closed","day":"01/01/1971","code":"0xff","maybe":"0x10"}"#)
        var back = try ETransformed(json: try withMaybe.jsonData())
        XCTAssertEqual(back.day, Date(timeIntervalSince1970: 86_400 * 365))     // the pattern keeps days only
        back.day = withMaybe.day
        XCTAssertEqual(back, withMaybe)
        XCTAssertEqual(try ETransformed(json: try model.jsonData(options: .nulls)).maybe, nil)
    }

    func testDidEncodeHookEditsTheObject() throws {
        XCTAssertEqual(try EHooked().jsonString(), #"{"last":"L","full":"Ada L","given":"Ada"}"#)
        XCTAssertEqual(try EHooked().jsonString(options: .sortedKeys), #"{"full":"Ada L","given":"Ada","last":"L"}"#)
        XCTAssertEqual(try EHooked().jsonString(options: [.sortedKeys, .prettyPrinted]),
                       "{\n  \"full\" : \"Ada L\",\n  \"given\" : \"Ada\",\n  \"last\" : \"L\"\n}")
        // Applied to every instance, wherever it is.
        var holder = EHookHolder()
        holder.items = [EHooked(first: "A"), EHooked(first: "B")]
        XCTAssertEqual(try holder.jsonString(),
                       #"{"items":[{"last":"L","full":"A L","given":"A"},{"last":"L","full":"B L","given":"B"}],"one":{"last":"L","full":"Ada L","given":"Ada"}}"#)
        XCTAssertEqual(try holder.jsonValue()["items"]?[1]?["given"], "B")
        // A throwing hook is a .validation error with the path.
        holder.items[1].fail = true
        XCTAssertThrowsError(try holder.jsonData()) { error in
            guard let error = error as? MappingError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .validation)
            XCTAssertEqual(error.path, "items[1]")
        }
    }

    func testClassesEncodeTheirDynamicType() throws {
        var zoo = EZoo()
        zoo.animals = [EAnimal(), EDog()]
        zoo.star = EDog()
        XCTAssertEqual(try zoo.jsonString(),
                       #"{"animals":[{"name":"a"},{"name":"a","sound":{"bark":"woof"}}],"star":{"name":"a","sound":{"bark":"woof"}}}"#)
        let dog: EAnimal = EDog()
        XCTAssertEqual(try dog.jsonString(), #"{"name":"a","sound":{"bark":"woof"}}"#)
    }

    func testModelEncoderAndCollections() throws {
        let books = [EBook(), EBook(name: "M", desc: "E", city: nil, bookID: 8, price: -0.0)]
        XCTAssertEqual(try books.jsonString(),
                       #"[{"name":"N","ext":{"desc":"D","addr":{"city":"C"}},"id":7,"price":1.5},{"name":"M","ext":{"desc":"E"},"id":8,"price":-0.0}]"#)
        XCTAssertEqual(try ModelEncoder().encode(books), try books.jsonData())
        XCTAssertEqual(try ModelEncoder(options: .sortedKeys).encode(EBook()), try EBook().jsonData(options: .sortedKeys))
        XCTAssertEqual(try [String: EInner]().jsonString(), "{}")
        XCTAssertEqual(try [EInner]().jsonString(), "[]")
        XCTAssertEqual(try ["b": EInner(), "a": EInner(x: 2, y: [])].jsonString(options: .sortedKeys),
                       #"{"a":{"x":2,"y":[]},"b":{"x":1,"y":["s"]}}"#)
        XCTAssertEqual(try ModelEncoder(options: .sortedKeys).encode(["z": EEmpty()]), Data(#"{"z":{}}"#.utf8))
        XCTAssertEqual(try EEmpty().jsonString(options: .prettyPrinted), "{}")
        // jsonValue / jsonObject
        XCTAssertEqual(try EBook().jsonValue(), ["name": "N", "ext": ["desc": "D", "addr": ["city": "C"]], "id": 7, "price": 1.5])
        let object = try XCTUnwrap(try EBook().jsonObject() as? [String: Any])
        XCTAssertEqual(object["name"] as? String, "N")
        XCTAssertEqual(object["id"] as? Int, 7)
        XCTAssertEqual(object["price"] as? Double, 1.5)
        XCTAssertEqual((object["ext"] as? [String: Any])?["desc"] as? String, "D")
        XCTAssertEqual(try books.jsonValue().arrayValue?.count, 2)
        XCTAssertEqual((try books.jsonObject() as? [Any])?.count, 2)
    }

    // MARK: Exact text

    func testSortedAndPrettyOutputExact() throws {
        let layout = ELayout()
        XCTAssertEqual(try layout.jsonString(options: .sortedKeys),
                       #"{"empty":[],"emptyModel":{},"inner":{"x":1,"y":["s"]},"list":[1,2],"map":{"a":1,"b":2},"name":"a","nested":[[]],"none":{},"raw":{"k":[1,{},[]]}}"#)
        let pretty = """
        {
          "empty" : [],
          "emptyModel" : {},
          "inner" : {
            "x" : 1,
            "y" : [
              "s"
            ]
          },
          "list" : [
            1,
            2
          ],
          "map" : {
            "a" : 1,
            "b" : 2
          },
          "name" : "a",
          "nested" : [
            []
          ],
          "none" : {},
          "raw" : {
            "k" : [
              1,
              {},
              []
            ]
          }
        }
        """
        XCTAssertEqual(try layout.jsonString(options: [.sortedKeys, .prettyPrinted]), pretty)

        var small = ELayout()
        small.map = ["only": 1]
        small.raw = ["z": 1, "a": 2]
        XCTAssertEqual(try small.jsonString(),
                       #"{"name":"a","list":[1,2],"empty":[],"none":{},"inner":{"x":1,"y":["s"]},"nested":[[]],"emptyModel":{},"map":{"only":1},"raw":{"z":1,"a":2}}"#)
        // Sorting applies inside JSONValue fields too.
        XCTAssertTrue(try small.jsonString(options: .sortedKeys).hasSuffix(#""raw":{"a":2,"z":1}}"#))
        XCTAssertEqual(try [EInner(), EInner(x: 2, y: [])].jsonString(options: .prettyPrinted),
                       "[\n  {\n    \"x\" : 1,\n    \"y\" : [\n      \"s\"\n    ]\n  },\n  {\n    \"x\" : 2,\n    \"y\" : []\n  }\n]")
        XCTAssertEqual(try ["k": EEmpty()].jsonString(options: .prettyPrinted), "{\n  \"k\" : {}\n}")
        // Pretty output parses back to the same model.
        let back = try ELayout(json: try layout.jsonData(options: .prettyPrinted))
        XCTAssertEqual(try back.jsonString(options: .sortedKeys), try layout.jsonString(options: .sortedKeys))
    }

    func testEscapingExact() throws {
        let text = EText(s: "\u{1}\u{1F}\"\\/\n\r\t\u{8}\u{C}\u{7F}é😀\u{2028}\u{0}a")
        XCTAssertEqual(try text.jsonString(), #"{"s":"\u0001\u001f\"\\/\n\r\t\b\f"# + "\u{7F}é😀\u{2028}" + #"\u0000a"}"#)
        XCTAssertEqual(try text.jsonString(options: .escapesSlashes),
                       #"{"s":"\u0001\u001f\"\\\/\n\r\t\b\f"# + "\u{7F}é😀\u{2028}" + #"\u0000a"}"#)
        // Non-ASCII is written as raw UTF-8, not as \u escapes.
        let bytes = Array(try text.jsonData())
        XCTAssertNotNil(bytes.firstRange(of: [0xC3, 0xA9]))
        XCTAssertNotNil(bytes.firstRange(of: [0xF0, 0x9F, 0x98, 0x80]))
        XCTAssertNotNil(bytes.firstRange(of: [0xE2, 0x80, 0xA8]))
        XCTAssertEqual(try EText(json: try text.jsonData()).s, text.s)

        // Every ASCII character, one per string: exactly JSONEncoder's escaping (which escapes "/").
        let encoder = JSONEncoder()
        for v in 0..<128 {
            let one = EText(s: String(UnicodeScalar(UInt8(v))) + "x")
            XCTAssertEqual(try one.jsonString(options: .escapesSlashes), String(decoding: try encoder.encode(one), as: UTF8.self),
                           "character \(v)")
        }

        // Keys are escaped the same way: property keys from the mapping, dictionary keys, JSONValue keys.
        struct Keys: JSONMappable {
            var a = 1
            var map = ["q\"/\u{1}": 2]
            var raw: JSONValue = ["r/\\": 3]
            static var mapping: ModelMapping { ModelMapping(keys: ["a": .literal("p/\"\\\u{1}é")]) }
        }
        XCTAssertEqual(try Keys().jsonString(), #"{"p/\"\\\u0001é":1,"map":{"q\"/\u0001":2},"raw":{"r/\\":3}}"#)
        XCTAssertEqual(try Keys().jsonString(options: .escapesSlashes),
                       #"{"p\/\"\\\u0001é":1,"map":{"q\"\/\u0001":2},"raw":{"r\/\\":3}}"#)
    }

    /// The escaper skips plain runs several bytes at a time: every special byte at every position of strings
    /// of every short length, among ASCII and multi-byte neighbours, must match a plain per-scalar escaper.
    func testEscapingAtEveryPositionMatchesReference() throws {
        func reference(_ s: String, slashes: Bool) -> String {
            var out = "\""
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "/" where slashes: out += "\\/"
                case "\u{8}": out += "\\b"
                case "\u{C}": out += "\\f"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        let specials: [Unicode.Scalar] = ["\u{0}", "\u{1F}", "\"", "\\", "/", "\n", " ", "\u{7F}", "\u{A0}", "ÿ", "\u{2028}", "😀"]
        let fillers: [Unicode.Scalar] = ["a", "\u{A2}", "\u{FF}", "€"]
        for filler in fillers {
            for length in 0...20 {
                for position in 0..<max(length, 1) {
                    for special in specials {
                        var scalars = Array(repeating: filler, count: length)
                        if length > 0 { scalars[position] = special }
                        if length > 2 && position + 2 < length { scalars[position + 2] = "\"" }   // two in one word
                        let text = EText(s: String(String.UnicodeScalarView(scalars)))
                        for slashes in [false, true] {
                            let expected = "{\"s\":" + reference(text.s, slashes: slashes) + "}"
                            XCTAssertEqual(try text.jsonString(options: slashes ? .escapesSlashes : []), expected,
                                           "\(text.s.debugDescription) slashes: \(slashes)")
                        }
                    }
                }
            }
        }
    }

    func testNilOmittedOrWrittenAsNull() throws {
        struct Maybe: JSONMappable, Equatable {
            var a: Int? = nil
            var b: String? = "b"
            var c: EInner? = nil
            var d: [Int]? = nil
            var e: JSONValue? = nil
            var f: JSONValue = .null
        }
        // A non-optional JSONValue holding null is a value: always written.
        XCTAssertEqual(try Maybe().jsonString(), #"{"b":"b","f":null}"#)
        XCTAssertEqual(try Maybe().jsonString(options: .writesNulls), #"{"a":null,"b":"b","c":null,"d":null,"e":null,"f":null}"#)
        XCTAssertEqual(try Maybe().jsonString(options: .nulls), try Maybe().jsonString(options: .writesNulls))
        XCTAssertEqual(try Maybe().jsonString(options: [.nulls, .prettyPrinted]),
                       "{\n  \"a\" : null,\n  \"b\" : \"b\",\n  \"c\" : null,\n  \"d\" : null,\n  \"e\" : null,\n  \"f\" : null\n}")
        XCTAssertEqual(try Maybe(json: try Maybe().jsonData(options: .nulls)), Maybe())
        XCTAssertEqual(try Maybe(json: try Maybe().jsonData()), Maybe())
    }

    func testDateStrategies() throws {
        let model = EDates()
        XCTAssertEqual(try model.jsonString(), #"{"at":"1970-01-01T00:00:01.5Z","list":["1970-01-01T00:00:00Z"]}"#)
        var options = EncodingOptions.dates(.secondsSince1970)
        XCTAssertEqual(try model.jsonString(options: options), #"{"at":1.5,"list":[0]}"#)
        options = EncodingOptions.dates(.millisecondsSince1970)
        XCTAssertEqual(try model.jsonString(options: options), #"{"at":1500,"list":[0]}"#)
        options = EncodingOptions.dates(.formatted("yyyy-MM-dd HH:mm:ss.SSS"))
        options.sortedKeys = true
        XCTAssertEqual(try model.jsonString(options: options), #"{"at":"1970-01-01 00:00:01.500","list":["1970-01-01 00:00:00.000"]}"#)
        let back = try EDates(json: try model.jsonData(options: options), options: DecodingOptions().dates(.formatted("yyyy-MM-dd HH:mm:ss.SSS")))
        XCTAssertEqual(back.at, model.at)
        // The strategy survives composing options, changing their flags, `jsonValue()` and hooks (which
        // re-encode internally).
        var sorted: EncodingOptions = [.dates(.secondsSince1970), .prettyPrinted, .nulls]
        sorted.writesNulls = false
        sorted.prettyPrinted = false
        XCTAssertEqual(try model.jsonString(options: sorted), #"{"at":1.5,"list":[0]}"#)
        XCTAssertEqual(try model.jsonString(options: [.sortedKeys, .dates(.secondsSince1970)]), #"{"at":1.5,"list":[0]}"#)
        XCTAssertEqual(try model.jsonValue(options: .dates(.millisecondsSince1970))["at"], 1500.0)
        XCTAssertEqual((try model.jsonObject(options: .dates(.millisecondsSince1970)) as? [String: Any])?["at"] as? Int, 1500, "an integral timestamp reads back as an integer")
        XCTAssertEqual(try EHookedDate().jsonString(options: .dates(.secondsSince1970)), #"{"at":1.5,"hooked":true}"#)
        let before1970 = EDates(at: Date(timeIntervalSince1970: -0.25), list: [])
        XCTAssertEqual(try before1970.jsonString(), #"{"at":"1969-12-31T23:59:59.75Z","list":[]}"#)
        XCTAssertEqual(try EDates(json: try before1970.jsonData()).at, before1970.at)
    }

    /// Integral timestamps are written as integers, as JSONEncoder writes them (strict integer parsers
    /// elsewhere reject `1712491290500.0`); others keep their fraction.
    func testTimestampsAreWrittenAsJSONEncoderWritesThem() throws {
        struct Stamp: Codable { var at: Date }
        let instants = [1712491290.5, 1712491290, 0, -0.25, -86400, 1e10 + 0.125]
        let strategies: [(DateStrategy, JSONEncoder.DateEncodingStrategy)] = [
            (.secondsSince1970, .secondsSince1970), (.millisecondsSince1970, .millisecondsSince1970),
        ]
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            for (ours, theirs) in strategies {
                let foundation = JSONEncoder()
                foundation.dateEncodingStrategy = theirs
                let expected = String(decoding: try foundation.encode(Stamp(at: date)), as: UTF8.self)
                let model = EDates(at: date, list: [date])
                let written = try model.jsonString(options: [.sortedKeys, .dates(ours)])
                XCTAssertEqual(written, String(expected.dropLast()) + ",\"list\":[" + String(expected.dropFirst(6).dropLast()) + "]}", "\(seconds) \(ours)")
            }
        }
        XCTAssertEqual(try EDates(at: Date(timeIntervalSince1970: 1712491290.5), list: []).jsonString(options: .dates(.millisecondsSince1970)),
                       #"{"at":1712491290500,"list":[]}"#)
    }

    // MARK: Errors

    func testNonFiniteNumbersAreInvalidValuesWithPaths() throws {
        func expectInvalid(_ model: EScores, _ path: String, line: UInt = #line) {
            let encoders: [(String, () throws -> Any)] = [
                ("jsonData", { try model.jsonData() }), ("jsonValue", { try model.jsonValue() }),
                ("jsonObject", { try model.jsonObject() }), ("pretty", { try model.jsonData(options: [.prettyPrinted, .sortedKeys]) }),
            ]
            for (name, encode) in encoders {
                XCTAssertThrowsError(try encode(), "\(name)", line: line) { error in
                    guard let error = error as? MappingError else { return XCTFail("\(name): not a MappingError: \(error)", line: line) }
                    XCTAssertEqual(error.kind, .invalidValue, "\(name): \(error)", line: line)
                    XCTAssertEqual(error.path, path, "\(name): \(error)", line: line)
                }
            }
        }
        XCTAssertNoThrow(try EScores().jsonData())
        var m = EScores()
        m.items[2].score = .nan
        expectInvalid(m, "items[2].score")
        m = EScores(); m.items[0].score = -.infinity
        expectInvalid(m, "items[0].score")
        m = EScores(); m.values = [1, .infinity]
        expectInvalid(m, "values[1]")
        m = EScores(); m.floats = [.nan]
        expectInvalid(m, "floats[0]")
        m = EScores(); m.scores = ["a": 1, "b": .nan]
        expectInvalid(m, "scores.b")
        m = EScores(); m.child = EChild(inner: EScore(score: .infinity))
        expectInvalid(m, "child.inner.score")
        m = EScores(); m.maybe = .nan
        expectInvalid(m, "maybe")
        m = EScores(); m.f = .infinity
        expectInvalid(m, "f")
        m = EScores(); m.decimal = .nan
        expectInvalid(m, "decimal")
        m = EScores(); m.raw = .array([1, .number(JSONNumber(Double.nan))])
        expectInvalid(m, "raw[1]")
        m = EScores(); m.raw = ["k": .number(JSONNumber(text: "Infinity"))]
        expectInvalid(m, "raw.k")

        // Top-level collections.
        XCTAssertThrowsError(try [EScore(), EScore(score: .nan)].jsonData()) { error in
            XCTAssertEqual((error as? MappingError)?.path, "[1].score")
            XCTAssertEqual((error as? MappingError)?.kind, .invalidValue)
        }
        XCTAssertThrowsError(try ["k": EScore(score: .nan)].jsonData()) { error in
            XCTAssertEqual((error as? MappingError)?.path, "k.score")
        }
        // Through the Codable fallback.
        m = EScores(); m.codable = ECodablePoint(x: .nan)
        XCTAssertThrowsError(try m.jsonData()) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .invalidValue, "\(error)")
            XCTAssertTrue((error as? MappingError)?.path.hasPrefix("codable") == true, "\(error)")
        }
        // A JSONValue on its own.
        XCTAssertThrowsError(try JSONValue.number(JSONNumber(Double.infinity)).jsonData()) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .invalidValue)
        }
    }

    // MARK: Foundation agreement on real data

    func testTwitterOutputAgreesWithFoundation() throws {
        let original = try TestData.data("bench/twitter.json")
        let expected = try JSONDecoder().decode(TwitterTimeline.self, from: original)
        let model = try TwitterTimeline(json: original)
        XCTAssertEqual(model, expected, "ModelMapper's decode differs from JSONDecoder's")

        for options: EncodingOptions in [[], .sortedKeys, .prettyPrinted, .escapesSlashes, .writesNulls] {
            let output = try expected.jsonData(options: options)
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: output), "options \(options)")
            let decoded = try JSONDecoder().decode(TwitterTimeline.self, from: output)
            XCTAssertEqual(decoded, expected, "options \(options): JSONDecoder reads a different value from ModelMapper's output")
            XCTAssertEqual(try TwitterTimeline(json: output), expected, "options \(options)")
        }

        // Byte for byte what JSONEncoder writes with sorted keys (nil omitted by both, same number and
        // string forms); with escaped slashes too.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let foundation = try encoder.encode(expected)
        let ours = try expected.jsonData(options: .sortedKeys)
        if ours != foundation {
            let a = Array(ours), b = Array(foundation)
            let i = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            XCTFail("differs from JSONEncoder at byte \(i): ...\(String(decoding: a[max(0, i - 60)..<min(a.count, i + 60)], as: UTF8.self))... "
                + "vs ...\(String(decoding: b[max(0, i - 60)..<min(b.count, i + 60)], as: UTF8.self))...")
        }
        encoder.outputFormatting = [.sortedKeys]
        XCTAssertEqual(try expected.jsonData(options: [.sortedKeys, .escapesSlashes]), try encoder.encode(expected))

        // The same document as JSONSerialization sees it.
        let ourObject = try JSONSerialization.jsonObject(with: ours) as? NSDictionary
        let theirObject = try JSONSerialization.jsonObject(with: foundation) as? NSDictionary
        XCTAssertNotNil(ourObject)
        XCTAssertEqual(ourObject, theirObject)
        // jsonObject() is JSONSerialization-compatible and describes the same value.
        let viaObject = try JSONSerialization.data(withJSONObject: try expected.jsonObject())
        XCTAssertEqual(try JSONDecoder().decode(TwitterTimeline.self, from: viaObject), expected)
    }
}
