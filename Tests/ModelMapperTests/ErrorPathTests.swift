import XCTest
import Foundation
@testable import ModelMapper

// Error paths and positions: a bad value deep inside arrays of nested models reports its property path
// (`statuses[3].user.id`) and the exact line and column of the offending token; `required` keys report
// `.missingKey`; `skippingInvalidValues` keeps defaults and reports every bad path with its position.

fileprivate struct EPUser: JSONMappable, Equatable {
    var id = 0
    var name = ""
    var verified = false
    static let mapping = ModelMapping(required: ["id"])
}

fileprivate struct EPLink: JSONMappable {
    var link: URL? = nil
}

fileprivate struct EPCursor: JSONMappable, Equatable {
    var next = ""
}

fileprivate struct EPStatus: JSONMappable, Equatable {
    var id: Int64 = 0
    var text = ""
    var user = EPUser()
    var tags: [String] = []
    var city = ""
    var replies: [EPStatus] = []
    static let mapping = ModelMapping(keys: ["city": "place.city", "text": ["text", "full_text"]])
}

fileprivate struct EPTimeline: JSONMappable, Equatable {
    var statuses: [EPStatus] = []
    var users: [String: EPUser] = [:]
    var groups: [String: [EPUser]] = [:]
    var grid: [[EPUser]] = []
    var cursor: EPCursor? = nil
    var count = -1
}

fileprivate struct EPBook: JSONMappable {
    var bookID = 0
    var desc = ""
    var title = ""
    static let mapping = ModelMapping(keys: ["bookID": ["id", "ID", "book_id"], "desc": "ext.desc", "title": "t"],
                                      required: ["bookID", "desc"])
}

/// willDecode renames "n" to "name": errors inside the rewritten object point at the object.
fileprivate struct EPRenamed: JSONMappable, JSONDecodingHooks, Equatable {
    var name = ""
    var age = 0
    static func willDecode(_ object: JSONObject) throws -> JSONObject {
        var object = object
        if let n = object.removeValue(forKey: "n") { object["name"] = n }
        return object
    }
}

fileprivate struct EPRenamedList: JSONMappable {
    var items: [EPRenamed] = []
}

/// Line, column (in Unicode scalars) and byte offset of the first occurrence of `needle`, computed here
/// independently of the library.
fileprivate func position(of needle: String, in text: String) -> (line: Int, column: Int, offset: Int) {
    let range = text.range(of: needle)!
    let before = text[..<range.lowerBound].unicodeScalars
    let line = before.filter { $0 == "\n" }.count + 1
    let column = before.count - (before.lastIndex(of: "\n").map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0) + 1
    return (line, column, text[..<range.lowerBound].utf8.count)
}

final class ErrorPathTests: XCTestCase {

    static let timeline = """
    {
      "statuses": [
        {"id": 1, "text": "a", "user": {"id": 10, "name": "u0"}},
        {"id": 2, "text": "b", "user": {"id": 11, "name": "u1"}},
        {"id": 3, "text": "c", "user": {"id": 12, "name": "u2"}},
        {"id": 4, "text": "d", "user": {"id": "x12", "name": "u3"}}
      ]
    }
    """

    func testDeepPathLineAndColumn() {
        let p = position(of: #""x12""#, in: Self.timeline)
        XCTAssertEqual(p.line, 6)
        XCTAssertEqual(p.column, 43)
        for (options, kind) in [(DecodingOptions.lenient, MappingError.Kind.invalidValue), (.strict, .typeMismatch)] {
            let error = mappingError { _ = try EPTimeline(json: Self.timeline, options: options) }
            XCTAssertEqual(error?.kind, kind)
            XCTAssertEqual(error?.path, "statuses[3].user.id")
            XCTAssertEqual(error?.line, 6)
            XCTAssertEqual(error?.column, 43)
            XCTAssertEqual(error?.offset, p.offset)
            XCTAssertTrue(error?.description.hasPrefix("line 6, column 43: \(kind) at statuses[3].user.id: ") == true,
                          error?.description ?? "")
        }
        // the same document as Data, [UInt8] and through ModelDecoder
        let error = mappingError { _ = try EPTimeline(json: Data(Self.timeline.utf8)) }
        XCTAssertEqual(error?.path, "statuses[3].user.id")
        XCTAssertEqual(error?.line, 6)
        let bytesError = mappingError { _ = try EPTimeline(json: Array(Self.timeline.utf8)) }
        XCTAssertEqual(bytesError?.column, 43)
        let decoderError = mappingError { _ = try ModelDecoder(options: .strict).decode(EPTimeline.self, from: Self.timeline) }
        XCTAssertEqual(decoderError?.path, "statuses[3].user.id")
        XCTAssertEqual(decoderError?.column, 43)
    }

    /// UTF-8 that yajl lets through (it checks only the shape of a sequence) is an error wherever a String
    /// would be made from it — String would otherwise replace it with U+FFFD without a word.
    func testInvalidUTF8ThatYajlAcceptsIsAnErrorWithPathAndPosition() throws {
        let sequences: [(String, [UInt8])] = [
            ("overlong 2-byte", [0xC0, 0xAF]), ("overlong 2-byte C1", [0xC1, 0xBF]),
            ("overlong 3-byte", [0xE0, 0x80, 0xAF]), ("surrogate U+D800", [0xED, 0xA0, 0x80]),
            ("surrogate U+DFFF", [0xED, 0xBF, 0xBF]), ("overlong 4-byte", [0xF0, 0x80, 0x80, 0xAF]),
            ("beyond U+10FFFF", [0xF4, 0x90, 0x80, 0x80]), ("F5 lead", [0xF5, 0x80, 0x80, 0x80]),
        ]
        for (name, bad) in sequences {
            let prefix = Array("{\n  \"statuses\": [{\"id\": 1, \"text\": \"ab".utf8)
            let document = prefix + bad + Array("\"}]}".utf8)
            let textStart = prefix.count - 3
            for options in [DecodingOptions.lenient, .strict] {
                let error = mappingError { _ = try EPTimeline(json: document, options: options) }
                XCTAssertEqual(error?.kind, .syntax, name)
                XCTAssertEqual(error?.path, "statuses[0].text", name)
                XCTAssertEqual(error?.offset, textStart, "\(name): \(String(describing: error))")
                XCTAssertEqual(error?.line, 2, name)
                XCTAssertTrue(error?.message.contains("invalid UTF-8") == true, name)
            }
            // Malformed input, like the UTF-8 yajl rejects itself: thrown even when skipping invalid values.
            let collector = ReportCollector()
            let skipping = mappingError { _ = try EPTimeline(json: document, options: DecodingOptions.lenient.skippingInvalidValues { collector.add($0) }) }
            XCTAssertEqual(skipping?.path, "statuses[0].text", name)
            XCTAssertTrue(collector.errors.isEmpty, name)
            // Dictionary keys, JSONValue strings and keys, and URLs.
            let key = Array("{\"users\": {\"x".utf8) + bad + Array("\": {\"id\": 1}}}".utf8)
            XCTAssertEqual(mappingError { _ = try EPTimeline(json: key) }?.path, "users", name)
            XCTAssertEqual(mappingError { _ = try JSONValue(json: [0x5B, 0x22] + bad + [0x22, 0x5D]) }?.offset, 1, name)
            XCTAssertEqual(mappingError { _ = try JSONValue(json: [0x7B, 0x22] + bad + Array("\":1}".utf8)) }?.offset, 1, name)
            let url = Array("{\"link\": \"http://e.com/".utf8) + bad + Array("\"}".utf8)
            XCTAssertEqual(mappingError { _ = try EPLink(json: url) }?.kind, .syntax, name)
        }
        // Valid sequences at the edges of each range decode unchanged.
        let edges = ["\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"].joined()
        let timeline = try EPTimeline(json: #"{"statuses": [{"text": "\#(edges)"}], "users": {"\#(edges)": {"id": 1}}}"#)
        XCTAssertEqual(timeline.statuses.first?.text, edges)
        XCTAssertEqual(timeline.users.keys.first, edges)
    }

    /// Columns count Unicode scalars, offsets count bytes; CRLF line ends count once.
    func testColumnsCountScalarsAndOffsetsCountBytes() {
        let json = "{\r\n  \"statuses\": [\r\n    {\"text\": \"日本😀\", \"id\": 2.5}\r\n  ]\r\n}"
        let p = position(of: "2.5", in: json)
        XCTAssertEqual(p.line, 3)
        XCTAssertEqual(p.column, 27)
        let error = mappingError { _ = try EPTimeline(json: json) }
        XCTAssertEqual(error?.kind, .invalidValue)
        XCTAssertEqual(error?.path, "statuses[0].id")
        XCTAssertEqual(error?.line, 3)
        XCTAssertEqual(error?.column, 27)
        XCTAssertEqual(error?.offset, p.offset)
        XCTAssertNotEqual(p.offset, p.column - 1)
    }

    func testPathsThroughEveryContainer() {
        let cases: [(String, String, MappingError.Kind, String)] = [
            (#"{"users":{"bob":{"id":"x"}}}"#, "users.bob.id", .invalidValue, #""x""#),
            (#"{"groups":{"admins":[{"id":1},{"id":[]}]}}"#, "groups.admins[1].id", .typeMismatch, "[]"),
            (#"{"grid":[[],[{"id":1},{"id":2},{"id":true}]]}"#, "grid[1][2].id", .typeMismatch, "true"),
            (#"{"cursor":{"next":{}}}"#, "cursor.next", .typeMismatch, "{}}"),
            (#"{"cursor":5}"#, "cursor", .typeMismatch, "5"),
            (#"{"statuses":[{"replies":[{"replies":[{"id":1e30}]}]}]}"#, "statuses[0].replies[0].replies[0].id", .invalidValue, "1e30"),
            (#"{"statuses":[{"tags":["a",null]}]}"#, "statuses[0].tags[1]", .typeMismatch, "null"),
            (#"{"statuses":[{"place":{"city":[1]}}]}"#, "statuses[0].city", .typeMismatch, "[1]"),       // key path: property name
            (#"{"statuses":[{"full_text":{}}]}"#, "statuses[0].text", .typeMismatch, "{}"),           // alternative key
            (#"{"count":"many"}"#, "count", .invalidValue, #""many""#),
            (#"{"statuses":{}}"#, "statuses", .typeMismatch, "{}"),
        ]
        for (json, path, kind, token) in cases {
            let error = mappingError { _ = try EPTimeline(json: json) }
            XCTAssertEqual(error?.path, path, json)
            XCTAssertEqual(error?.kind, kind, json)
            XCTAssertEqual(error?.line, 1, json)
            XCTAssertEqual(error?.column, position(of: token, in: json).column, json)
        }
    }

    func testTopLevelCollections() {
        let array = "[\n {\"id\": 1},\n {\"id\": \"one\"}\n]"
        let error = mappingError { _ = try [EPUser](json: array) }
        XCTAssertEqual(error?.path, "[1].id")
        XCTAssertEqual(error?.kind, .invalidValue)
        XCTAssertEqual(error?.line, 3)
        XCTAssertEqual(error?.column, 9)
        let dictionary = #"{"alice":{"id":1},"bob":{"id":-1.5}}"#
        let dictError = mappingError { _ = try [String: EPUser](json: dictionary) }
        XCTAssertEqual(dictError?.path, "bob.id")
        XCTAssertEqual(dictError?.column, position(of: "-1.5", in: dictionary).column)
        XCTAssertEqual(mappingError { _ = try [EPUser](json: "[1]") }?.path, "[0]")
        XCTAssertEqual(mappingError { _ = try [EPUser](json: "{}") }?.kind, .typeMismatch)
        XCTAssertEqual(mappingError { _ = try [EPUser](json: "[null]") }?.path, "[0]")
    }

    func testSyntaxErrorsHavePositions() {
        // (One trailing comma is read, as JSONDecoder reads it: two are an error.)
        let json = "{\n  \"statuses\": [\n    {\"id\": 1,,}\n  ]\n}"
        let error = mappingError { _ = try EPTimeline(json: json) }
        XCTAssertEqual(error?.kind, .syntax)
        XCTAssertEqual(error?.line, 3)
        XCTAssertNotNil(error?.column)
        XCTAssertNotNil(error?.offset)
    }

    // MARK: required

    func testMissingKey() {
        let json = """
        {
          "statuses": [
            {"id": 1, "user": {"id": 1}},
            {"id": 2, "user": {"id": 2}},
            {"id": 3, "user": {"name": "no id"}}
          ]
        }
        """
        for options in [DecodingOptions.lenient, .strict] {
            let error = mappingError { _ = try EPTimeline(json: json, options: options) }
            XCTAssertEqual(error?.kind, .missingKey)
            XCTAssertEqual(error?.path, "statuses[2].user.id")
            XCTAssertEqual(error?.line, 5)
            XCTAssertEqual(error?.column, position(of: #"{"name": "no id"}"#, in: json).column)
        }
        // required with alternatives and key paths
        XCTAssertNoThrow(try EPBook(json: #"{"ID":1,"ext":{"desc":"d"}}"#))
        XCTAssertNoThrow(try EPBook(json: #"{"book_id":1,"ext":{"desc":"d"}}"#))
        XCTAssertEqual(try EPBook(json: #"{"book_id":2,"id":1,"ext":{"desc":"d"}}"#).bookID, 1)   // list order wins
        let missingID = mappingError { _ = try EPBook(json: #"{"Id":1,"ext":{"desc":"d"}}"#) }
        XCTAssertEqual(missingID?.kind, .missingKey)
        XCTAssertEqual(missingID?.path, "bookID")
        XCTAssertEqual(missingID?.line, 1)
        XCTAssertEqual(missingID?.column, 1)
        let missingDesc = mappingError { _ = try EPBook(json: #"{"id":1,"ext":"not an object"}"#) }
        XCTAssertEqual(missingDesc?.kind, .missingKey)
        XCTAssertEqual(missingDesc?.path, "desc")
        XCTAssertEqual(mappingError { _ = try EPBook(json: #"{"id":1,"ext":{}}"#) }?.path, "desc")
        // null counts as present (the first alternative wins), but a required non-Optional cannot take it
        let nullID = mappingError { _ = try EPBook(json: #"{"id":null,"ID":3,"ext":{"desc":"d"}}"#) }
        XCTAssertEqual(nullID?.kind, .missingKey)
        XCTAssertEqual(nullID?.message, "required key id | ID | book_id is null")
        XCTAssertEqual(nullID?.column, 7)
        // an update checks only the required keys it carries (RequiredKeyTests)
        var book = EPBook()
        XCTAssertNoThrow(try book.update(json: #"{"t":"x"}"#))
        // and to JSONSerialization input, without positions
        let fromObject = mappingError { _ = try EPTimeline(jsonObject: ["users": ["a": ["name": "x"]]] as [String: Any]) }
        XCTAssertEqual(fromObject?.kind, .missingKey)
        XCTAssertEqual(fromObject?.path, "users.a.id")
        XCTAssertNil(fromObject?.line)
    }

    // MARK: skippingInvalidValues

    func testSkippingInvalidValuesKeepsDefaultsAndReportsEveryPath() throws {
        let json = """
        {
          "statuses": [
            {"id": 1, "text": "ok", "user": {"id": 10, "name": "a", "verified": "maybe"}},
            {"id": "two", "text": 5, "user": {"id": 11, "name": []}},
            {"id": 3, "tags": ["a", null, "c"], "user": {"id": 12}}
          ],
          "users": {"bob": {"id": 1.5, "name": "Bob"}},
          "cursor": 7,
          "count": 3
        }
        """
        let collector = ReportCollector()
        let options = DecodingOptions.lenient.skippingInvalidValues { collector.add($0) }
        let timeline = try EPTimeline(json: json, options: options)

        XCTAssertEqual(timeline.statuses.count, 3)
        XCTAssertEqual(timeline.statuses[0].user, EPUser(id: 10, name: "a", verified: false))
        XCTAssertEqual(timeline.statuses[1].id, 0)
        XCTAssertEqual(timeline.statuses[1].text, "5")
        XCTAssertEqual(timeline.statuses[1].user, EPUser(id: 11, name: "", verified: false))
        XCTAssertEqual(timeline.statuses[2].id, 3)
        XCTAssertEqual(timeline.statuses[2].tags, [])
        XCTAssertEqual(timeline.users["bob"], EPUser(id: 0, name: "Bob"))
        XCTAssertNil(timeline.cursor)
        XCTAssertEqual(timeline.count, 3)

        let expected: [(String, MappingError.Kind, String)] = [
            ("statuses[0].user.verified", .invalidValue, #""maybe""#),
            ("statuses[1].id", .invalidValue, #""two""#),
            ("statuses[1].user.name", .typeMismatch, "[]}"),
            ("statuses[2].tags[1]", .typeMismatch, "null"),
            ("users.bob.id", .invalidValue, "1.5"),
            ("cursor", .typeMismatch, "7"),
        ]
        let errors = collector.errors.sorted { ($0.offset ?? 0) < ($1.offset ?? 0) }
        XCTAssertEqual(errors.map(\.path), expected.map(\.0), "\(collector.summary)")
        for (error, (path, kind, token)) in zip(errors, expected) {
            let p = position(of: token, in: json)
            XCTAssertEqual(error.kind, kind, path)
            XCTAssertEqual(error.line, p.line, path)
            XCTAssertEqual(error.column, p.column, path)
            XCTAssertEqual(error.offset, p.offset, path)
        }
    }

    func testSkippingInStrictModeAndOnUpdate() throws {
        let collector = ReportCollector()
        let options = DecodingOptions.strict.skippingInvalidValues { collector.add($0) }
        var status = EPStatus()
        status.id = 99
        status.text = "before"
        status.user.name = "kept"
        try status.update(json: #"{"id":"100","text":7,"user":{"id":1,"name":false},"tags":["x"]}"#, options: options)
        XCTAssertEqual(status.id, 99)
        XCTAssertEqual(status.text, "before")
        XCTAssertEqual(status.user.id, 1)
        XCTAssertEqual(status.user.name, "kept")
        XCTAssertEqual(status.tags, ["x"])
        // "text" has alternative keys, so it is looked up after the member loop: sort by position
        let errors = collector.errors.sorted { ($0.offset ?? 0) < ($1.offset ?? 0) }
        XCTAssertEqual(errors.map(\.path), ["id", "text", "user.name"])
        XCTAssertEqual(errors.map(\.kind), [.typeMismatch, .typeMismatch, .typeMismatch])
        XCTAssertEqual(errors.map(\.column), [7, 20, 44])
    }

    func testSkippingStillThrowsNonConversionErrors() {
        let options = DecodingOptions.lenient.skippingInvalidValues { _ in }
        let missing = mappingError { _ = try EPTimeline(json: #"{"count":"x","users":{"a":{}}}"#, options: options) }
        XCTAssertEqual(missing?.kind, .missingKey)
        XCTAssertEqual(missing?.path, "users.a.id")
        XCTAssertEqual(mappingError { _ = try EPTimeline(json: #"{"count":1,,}"#, options: options) }?.kind, .syntax)
        // no error reported when none happened
        let collector = ReportCollector()
        XCTAssertNoThrow(try EPTimeline(json: Self.timeline.replacingOccurrences(of: "\"x12\"", with: "13"),
                                        options: .lenient.skippingInvalidValues { collector.add($0) }))
        XCTAssertTrue(collector.errors.isEmpty)
    }

    func testForgivenErrorsAreDeliveredWhenALaterErrorThrows() {
        let collector = ReportCollector()
        let missing = mappingError {
            _ = try EPTimeline(json: #"{"count":"x","users":{"a":{}}}"#, options: collector.options())
        }
        XCTAssertEqual(missing?.kind, .missingKey)
        XCTAssertEqual(missing?.path, "users.a.id")
        XCTAssertEqual(collector.summary, ["count invalidValue 1:10"], "the value forgiven before the error")

        // A JSON Lines record rejected after a forgiven value: the forgiven one is reported too.
        let records = ReportCollector()
        let rejected = Collected<String>()
        let lines = Data(#"{"count":"x","users":{"a":{}}}"#.utf8 + [0x0A] + #"{"count":2}"#.utf8 + [0x0A])
        let decoded = try? JSONLines<EPTimeline>(data: lines, options: records.options(),
                                                 onError: .skip { rejected.append($0.error.path) }).records()
            .compactMap { try? $0.get().count }
        XCTAssertEqual(decoded, [2])
        XCTAssertEqual(rejected.items, ["[0].users.a.id"])
        XCTAssertEqual(records.errors.map(\.path), ["[0].count"])
    }

    func testSkippingInTopLevelCollections() throws {
        let collector = ReportCollector()
        let options = DecodingOptions.lenient.skippingInvalidValues { collector.add($0) }
        let users = try [EPUser](json: "[{\"id\":1},\n {\"id\":\"x\",\"name\":\"b\"}]", options: options)
        XCTAssertEqual(users, [EPUser(id: 1), EPUser(id: 0, name: "b")])
        XCTAssertEqual(collector.summary, ["[1].id invalidValue 2:8"])
        let byName = try [String: EPUser](json: #"{"a":{"id":1,"verified":"perhaps"}}"#, options: options)
        XCTAssertEqual(byName, ["a": EPUser(id: 1)])
        XCTAssertEqual(collector.summary.last, "a.verified invalidValue 1:25")
    }

    func testSkippingFromJSONObjectReportsPathsWithoutPositions() throws {
        let collector = ReportCollector()
        let object: [String: Any] = ["statuses": [["id": 1, "user": ["id": "nope"]]], "count": 2]
        let timeline = try EPTimeline(jsonObject: object, options: .lenient.skippingInvalidValues { collector.add($0) })
        XCTAssertEqual(timeline.count, 2)
        XCTAssertEqual(timeline.statuses.first?.user.id, 0)
        XCTAssertEqual(collector.errors.map(\.path), ["statuses[0].user.id"])
        XCTAssertNil(collector.errors.first?.line)
        XCTAssertNil(collector.errors.first?.offset)
    }

    /// Objects rewritten by willDecode: thrown and reported errors have the exact path and the position of
    /// the rewritten object (the rewritten values have no position of their own).
    func testErrorsInsideRewrittenObjects() throws {
        let json = "{\"items\": [\n  {\"n\": \"a\"},\n  {\"n\": [], \"age\": \"x\"}\n]}"
        let objectPosition = position(of: #"{"n": []"#, in: json)
        // the rewritten object is {"age": "x", "name": []}: "age" comes first
        let thrown = mappingError { _ = try EPRenamedList(json: json) }
        XCTAssertEqual(thrown?.path, "items[1].age")
        XCTAssertEqual(thrown?.kind, .invalidValue)
        XCTAssertEqual(thrown?.line, objectPosition.line)
        XCTAssertEqual(thrown?.column, objectPosition.column)
        let strict = mappingError { _ = try EPRenamedList(json: json.replacingOccurrences(of: #""x""#, with: "1"), options: .strict) }
        XCTAssertEqual(strict?.path, "items[1].name")
        XCTAssertEqual(strict?.kind, .typeMismatch)
        XCTAssertEqual(strict?.line, objectPosition.line)
        XCTAssertEqual(strict?.column, objectPosition.column)

        let collector = ReportCollector()
        let list = try EPRenamedList(json: json, options: .lenient.skippingInvalidValues { collector.add($0) })
        XCTAssertEqual(list.items, [EPRenamed(name: "a", age: 0), EPRenamed(name: "", age: 0)])
        XCTAssertEqual(collector.errors.map(\.path).sorted(), ["items[1].age", "items[1].name"])
        for error in collector.errors {
            XCTAssertEqual(error.line, objectPosition.line, error.path)
            XCTAssertEqual(error.column, objectPosition.column, error.path)
            XCTAssertEqual(error.offset, objectPosition.offset, error.path)
        }
    }

    func testErrorsFromJSONObjectInputHavePathsButNoPositions() {
        let object: [String: Any] = ["statuses": [["id": 1], ["id": 2, "user": ["id": "x"]]]]
        let error = mappingError { _ = try EPTimeline(jsonObject: object, options: .strict) }
        XCTAssertEqual(error?.kind, .typeMismatch)
        XCTAssertEqual(error?.path, "statuses[1].user.id")
        XCTAssertNil(error?.line)
        XCTAssertNil(error?.column)
        XCTAssertEqual(error?.description.hasPrefix("typeMismatch at statuses[1].user.id: "), true, error?.description ?? "")
    }
}
