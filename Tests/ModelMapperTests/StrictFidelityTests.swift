import Foundation
import XCTest
import ModelMapper

// Issue 43: what Mantle's, HandyJSON's and KakaJSON's own suites found silent. Each test is the issue's
// reproduction: `.strict` refuses what JSONDecoder (or the documented rule) refuses, `.lenient` keeps its
// forgiving rule and reports what it skips to an invalid-value handler.

private struct SFNested: JSONMappable {
    var nestedName: String? = nil
    static let mapping = ModelMapping(keys: ["nestedName": "nested.name"])
}

private struct SFUsers: JSONMappable {
    var name: String? = nil
    static let mapping = ModelMapping(keys: ["name": "users.name"])
}

private struct SFAlternatives: JSONMappable {
    var value = 0
    static let mapping = ModelMapping(keys: ["value": ["a.b", "c"]])
}

private struct SFCount: JSONMappable {
    var count = 7
    var label = "none"
    var price: Double = 1.5
    var inner = SFInner()
}

private struct SFInner: JSONMappable { var n = 3 }

private struct SFCountAtPath: JSONMappable {
    var count = 7
    static let mapping = ModelMapping(keys: ["count": "data.count"])
}

private struct SFEscapedDot: JSONMappable {
    var v: String? = nil
    var deep = 0
    static let mapping = ModelMapping(keys: ["v": "a\\.b", "deep": "data.x\\.y"], required: ["v"])
}

private struct SFBadEscape: JSONMappable {
    var v = ""
    static let mapping = ModelMapping(keys: ["v": "a\\b"])
}

private struct SFBadEscapeInAlternative: JSONMappable {
    var v = ""
    static let mapping = ModelMapping(keys: ["v": ["v", "a\\"]])
}

private struct SFArrayIndexReader: JSONMappable {
    var second = ""
    static let mapping = ModelMapping(keys: ["second": "nested.1.value"])
}

private struct SFArrayIndexParent: JSONMappable {
    var child = SFArrayIndexReader()
    var name = ""
}

final class StrictFidelityTests: XCTestCase {
    // MARK: 1. A key path that runs into a non-object

    func testStrictRefusesAKeyPathThroughAString() throws {
        let error = mappingError { try SFNested(json: #"{"nested":"bar"}"#, options: .strict) }
        XCTAssertEqual(error?.kind, .typeMismatch)
        XCTAssertEqual(error?.path, "nestedName")
        XCTAssertEqual(error?.jsonPath, "nested.name")
        XCTAssertEqual(error?.line, 1)
        XCTAssertEqual(error?.column, 11, "the position of the value in the way")
        XCTAssertEqual(error?.message.contains("the string \"bar\""), true, error?.message ?? "")
    }

    func testStrictRefusesAKeyPathThroughAnArray() throws {
        let error = mappingError { try SFUsers(json: #"{"users":[{"name":"foo"}]}"#, options: .strict) }
        XCTAssertEqual(error?.kind, .typeMismatch)
        XCTAssertEqual(error?.path, "name")
        XCTAssertEqual(error?.jsonPath, "users.name")
        // Dictionary input and nested positions say the same.
        let object = try JSONSerialization.jsonObject(with: Data(#"{"users":[{"name":"foo"}]}"#.utf8))
        XCTAssertEqual(mappingError { try SFUsers(jsonObject: object, options: .strict) }?.kind, .typeMismatch)
        let nested = mappingError { try [SFNested](json: #"[{"nested":{"name":"a"}},{"nested":3}]"#, options: .strict) }
        XCTAssertEqual(nested?.path, "[1].nestedName")
        XCTAssertEqual(nested?.jsonPath, "[1].nested.name")
    }

    func testStrictKeepsAbsentPathsAbsent() throws {
        XCTAssertNil(try SFNested(json: #"{}"#, options: .strict).nestedName)
        XCTAssertNil(try SFNested(json: #"{"nested":{}}"#, options: .strict).nestedName)
        XCTAssertNil(try SFNested(json: #"{"nested":null}"#, options: .strict).nestedName, "null on the way: absent, as in Mantle")
        XCTAssertEqual(try SFNested(json: #"{"nested":{"name":"a"}}"#, options: .strict).nestedName, "a")
    }

    func testLenientReportsTheSkippedPath() throws {
        XCTAssertNil(try SFNested(json: #"{"nested":"bar"}"#).nestedName, "absent, as today (YYModel's rule)")
        let collector = ReportCollector()
        let nested = try SFNested(json: #"{"nested":"bar"}"#, options: collector.options())
        XCTAssertNil(nested.nestedName)
        XCTAssertEqual(collector.errors.map(\.kind), [.typeMismatch])
        XCTAssertEqual(collector.errors.first?.path, "nestedName")
        XCTAssertEqual(collector.errors.first?.jsonPath, "nested.name")
        let users = ReportCollector()
        XCTAssertNil(try SFUsers(json: #"{"users":[{"name":"foo"}]}"#, options: users.options()).name)
        XCTAssertEqual(users.errors.map(\.jsonPath), ["users.name"])
        // Strict with a handler forgives it too, like any other mismatch.
        let strict = ReportCollector()
        XCTAssertNil(try SFNested(json: #"{"nested":"bar"}"#, options: strict.options(.strict)).nestedName)
        XCTAssertEqual(strict.errors.map(\.kind), [.typeMismatch])
    }

    func testABlockedAlternative() throws {
        // Lenient: the blocked path is absent, the next alternative is read (and the skip reported).
        let collector = ReportCollector()
        XCTAssertEqual(try SFAlternatives(json: #"{"a":"x","c":4}"#, options: collector.options()).value, 4)
        XCTAssertEqual(collector.errors.map(\.jsonPath), ["a.b"])
        // Strict: the value in the way is present and of the wrong type.
        XCTAssertEqual(mappingError { try SFAlternatives(json: #"{"a":"x","c":4}"#, options: .strict) }?.jsonPath, "a.b")
        XCTAssertEqual(try SFAlternatives(json: #"{"c":4}"#, options: .strict).value, 4)
    }

    // MARK: 2. null for a non-Optional property

    func testStrictRefusesNullForANonOptionalProperty() throws {
        let error = mappingError { try SFCount(json: #"{"count":null}"#, options: .strict) }
        XCTAssertEqual(error?.kind, .typeMismatch, "as a null element of [Int] is")
        XCTAssertEqual(error?.path, "count")
        XCTAssertEqual(error?.message.contains("found null"), true)
        XCTAssertEqual(error?.column, 10)
        for json in [#"{"label":null}"#, #"{"price":null}"#, #"{"inner":null}"#, #"{"inner":{"n":null}}"#] {
            XCTAssertEqual(mappingError { try SFCount(json: json, options: .strict) }?.kind, .typeMismatch, json)
        }
        XCTAssertEqual(mappingError { try SFCount(json: #"{"inner":{"n":null}}"#, options: .strict) }?.path, "inner.n")
        let atPath = mappingError { try SFCountAtPath(json: #"{"data":{"count":null}}"#, options: .strict) }
        XCTAssertEqual(atPath?.jsonPath, "data.count")
        // JSONDecoder refuses the same input (valueNotFound).
        struct Counted: Decodable { var count: Int }
        XCTAssertThrowsError(try JSONDecoder().decode(Counted.self, from: Data(#"{"count":null}"#.utf8))) { error in
            guard case DecodingError.valueNotFound = error else { return XCTFail("\(error)") }
        }
    }

    func testLenientKeepsTheValueForNull() throws {
        let model = try SFCount(json: #"{"count":null,"label":null,"price":null,"inner":{"n":null}}"#)
        XCTAssertEqual(model.count, 7)
        XCTAssertEqual(model.label, "none")
        XCTAssertEqual(model.price, 1.5)
        XCTAssertEqual(model.inner.n, 3)
        XCTAssertNil(try SFNested(json: #"{"nested":{"name":null}}"#, options: .strict).nestedName, "an Optional takes null")
        // Strict with a handler: reported, the value kept.
        let collector = ReportCollector()
        XCTAssertEqual(try SFCount(json: #"{"count":null}"#, options: collector.options(.strict)).count, 7)
        XCTAssertEqual(collector.errors.map(\.path), ["count"])
    }

    // MARK: 3. HandyJSON's escaped dot

    func testABackslashBeforeADotIsALiteralDot() throws {
        let model = try SFEscapedDot(json: #"{"a.b":"yes","data":{"x.y":5}}"#)
        XCTAssertEqual(model.v, "yes")
        XCTAssertEqual(model.deep, 5)
        XCTAssertEqual(mappingError { try SFEscapedDot(json: #"{"a":{"b":"no"}}"#) }?.kind, .missingKey,
                       "a.b is one key, so the path a → b is not read and the required key is missing")
        XCTAssertNoThrow(try ModelMapping.validate(SFEscapedDot.self))
        XCTAssertEqual(try model.jsonString(options: .sortedKeys), #"{"a.b":"yes","data":{"x.y":5}}"#)
        XCTAssertEqual(MappingKey("a\\.b"), MappingKey.literal("a.b"))
        XCTAssertEqual(MappingKey("data.x\\.y"), MappingKey.path(["data", "x.y"]))
        XCTAssertEqual(MappingKey("a.b"), MappingKey.path(["a", "b"]), "an unescaped dot still separates")
    }

    func testABackslashBeforeAnythingElseIsAnError() throws {
        for (type, text) in [(SFBadEscape.self as any JSONMappable.Type, "a\\b"), (SFBadEscapeInAlternative.self, "a\\")] {
            XCTAssertThrowsError(try ModelMapping.validate(type)) { error in
                XCTAssertEqual((error as? MappingError)?.kind, .unsupportedType)
                XCTAssertEqual((error as? MappingError)?.message.contains("\"\(text)\""), true, "\(error)")
            }
        }
        XCTAssertEqual(mappingError { try SFBadEscape(json: #"{"a\\b":"x"}"#) }?.kind, .unsupportedType, "at first use")
        XCTAssertEqual(mappingError { try SFCount(json: #"{"a":{"count":1}}"#, at: "a\\count") }?.kind, .unsupportedType)
        XCTAssertEqual(try SFCount(json: #"{"a.b":{"count":1}}"#, at: "a\\.b").count, 1)
    }

    // MARK: 8. An encoding limit never blocks decoding

    func testAnArrayIndexPathDecodesWithoutEncodingKeys() throws {
        let json = #"{"nested":[{"value":"a"},{"value":"b"}]}"#
        XCTAssertEqual(try SFArrayIndexReader(json: json).second, "b")
        XCTAssertEqual(try SFArrayIndexReader(json: json, options: .strict).second, "b")
        XCTAssertEqual(try [SFArrayIndexReader](json: "[\(json)]").first?.second, "b")
        XCTAssertEqual(try SFArrayIndexParent(json: #"{"child":\#(json)}"#).child.second, "b")
        XCTAssertNoThrow(try ModelMapping.validate(SFArrayIndexReader.self, SFArrayIndexParent.self), "a decode-only model is valid")
    }

    func testEncodingAnArrayIndexPathThrowsAtEncodeTime() throws {
        let model = SFArrayIndexReader()
        for encode in [{ _ = try model.jsonData() }, { _ = try model.jsonValue() }, { _ = try model.jsonObject() }] {
            let error = mappingError { try encode() }
            XCTAssertEqual(error?.kind, .unsupportedType)
            XCTAssertEqual(error?.path, "second")
            XCTAssertEqual(error?.jsonPath, "nested.1.value")
            XCTAssertEqual(error?.message.contains("\"nested.1.value\""), true)
        }
        let nested = mappingError { try SFArrayIndexParent().jsonData() }
        XCTAssertEqual(nested?.path, "child.second")
        XCTAssertThrowsError(try ModelMapping.validate([SFArrayIndexReader.self], encoding: EncodingOptions())) { error in
            XCTAssertEqual((error as? MappingError)?.path, "second")
        }
        XCTAssertNoThrow(try ModelMapping.validate([SFInner.self], encoding: EncodingOptions()))
    }
}

// MARK: 4. URLs

private struct SFLink: JSONMappable, Codable, Equatable {
    var url: URL? = nil
}

private struct SFCodableLink: Codable, Equatable {
    var url: URL
}

extension StrictFidelityTests {
    static let escapedByFoundation = ["not a valid URL", "100%", "http://github.com/a b", "http://a.com/é"]

    func testLenientReadsAURLAsThisFoundationDoes() throws {
        for text in Self.escapedByFoundation + ["http://github.com/a", "a%20b", "mailto:x@y.z"] {
            let json = try String(decoding: JSONEncoder().encode(["url": text]), as: UTF8.self)
            XCTAssertEqual(try SFLink(json: json).url, URL(string: text), text)
            XCTAssertNotNil(URL(string: text), "this Foundation reads \(text)")
        }
        XCTAssertEqual(try SFLink(json: #"{"url":"100%"}"#).url?.absoluteString, "100%25")
    }

    func testStrictRefusesAStringThatIsNotAURLWithoutEscaping() throws {
        for text in Self.escapedByFoundation {
            let json = try String(decoding: JSONEncoder().encode(["url": text]), as: UTF8.self)
            let error = mappingError { try SFLink(json: json, options: .strict) }
            XCTAssertEqual(error?.kind, .invalidValue, text)
            XCTAssertEqual(error?.path, "url", text)
            XCTAssertNil(URL(string: text, encodingInvalidCharacters: false), text)
        }
        for text in ["http://github.com/a", "a%20b", "http://[::1]/x?q=1#f"] {
            let json = try String(decoding: JSONEncoder().encode(["url": text]), as: UTF8.self)
            XCTAssertEqual(try SFLink(json: json, options: .strict).url, URL(string: text, encodingInvalidCharacters: false), text)
        }
    }

    func testTheCodablePathMatchesJSONDecoderOnTheSameInputs() throws {
        for text in Self.escapedByFoundation + ["http://github.com/a", "", " ", "a%20b", "%", "http://exa mple.com"] {
            let data = try JSONEncoder().encode(["url": text])
            let foundation = Result { try JSONDecoder().decode(SFCodableLink.self, from: data) }
            let ours = Result { try ModelDecoder().decode(SFCodableLink.self, from: data) }
            switch (foundation, ours) {
            case (.success(let a), .success(let b)): XCTAssertEqual(a, b, text)
            case (.failure(let a), .failure(let b)):
                XCTAssertEqual("\(a)".prefix(14), "\(b)".prefix(14), "the same DecodingError case: \(text)")
            default: XCTFail("\(text): JSONDecoder \(foundation), ModelDecoder \(ours)")
            }
        }
    }

    // MARK: 5. Date patterns in a time zone

    private static let losAngeles = TimeZone(identifier: "America/Los_Angeles")!

    private struct Release: JSONMappable {
        var day = Date(timeIntervalSince1970: 0)
        var stamp = Date(timeIntervalSince1970: 0)
        var utc = Date(timeIntervalSince1970: 0)
        static let mapping = ModelMapping(transformers: [
            "day": .date(format: "MMMM d, yyyy", timeZone: StrictFidelityTests.losAngeles),
            "stamp": .date(format: "yyyy-MM-dd HH:mm:ss Z", timeZone: StrictFidelityTests.losAngeles),
            "utc": .date(format: "MMMM d, yyyy"),
        ])
    }

    func testADatePatternIsReadAndWrittenInItsZone() throws {
        let json = #"{"day":"September 25, 2015","stamp":"2015-09-25 10:00:00 +0200","utc":"September 25, 2015"}"#
        let release = try Release(json: json)
        XCTAssertEqual(release.day.timeIntervalSince1970, 1443164400)
        XCTAssertEqual(release.utc.timeIntervalSince1970, 1443139200, "date(format:) keeps UTC")
        XCTAssertEqual(release.stamp.timeIntervalSince1970, 1443168000, "the pattern's zone field wins when reading")
        let written = try release.jsonValue()
        XCTAssertEqual(written["day"]?.stringValue, "September 25, 2015")
        XCTAssertEqual(written["utc"]?.stringValue, "September 25, 2015")
        XCTAssertEqual(written["stamp"]?.stringValue, "2015-09-25 01:00:00 -0700", "written in the zone")
    }

    /// The same patterns and zone through DateFormatter (en_US_POSIX), across both daylight-saving changes.
    func testAZonedPatternAgreesWithDateFormatter() throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = Self.losAngeles
        // 2015-03-08 03:00 PDT (just after spring forward), 2015-07-01, 2015-11-01 01:00 PST (the repeated
        // hour's later instant) and 02:00, 2015-12-31
        let instants: [Double] = [1425808800, 1435752000, 1446368400, 1446372000, 1451606399]
        for (index, format) in SFZoned.formats.enumerated() {
            formatter.dateFormat = format
            for seconds in instants {
                var model = SFZoned()
                let date = Date(timeIntervalSince1970: seconds)
                model[index] = date
                let expected = formatter.string(from: date)
                let written = try model.jsonValue()["f\(index)"]?.stringValue
                XCTAssertEqual(written, expected, "\(format) \(seconds)")
                let read = try SFZoned(json: #"{"f\#(index)":"\#(expected)"}"#)[index]
                XCTAssertEqual(read, formatter.date(from: expected), "\(format) \(expected)")
            }
        }
    }
}

private struct SFZoned: JSONMappable {
    static let formats = ["yyyy-MM-dd HH:mm:ss", "MMMM d, yyyy h:mm a", "yyyy-MM-dd'T'HH:mm:ssxxx", "dd/MM/yyyy HH:mm Z"]
    var f0 = Date(timeIntervalSince1970: 0), f1 = Date(timeIntervalSince1970: 0)
    var f2 = Date(timeIntervalSince1970: 0), f3 = Date(timeIntervalSince1970: 0)
    subscript(index: Int) -> Date {
        get { [f0, f1, f2, f3][index] }
        set {
            switch index {
            case 0: f0 = newValue
            case 1: f1 = newValue
            case 2: f2 = newValue
            default: f3 = newValue
            }
        }
    }
    static let mapping = ModelMapping(transformers: Dictionary(uniqueKeysWithValues: formats.enumerated().map {
        ("f\($0.offset)", JSONTransformer.date(format: $0.element, timeZone: TimeZone(identifier: "America/Los_Angeles")!))
    }))
}

// MARK: 6. Errors in the document's words on every path

private struct SFAccount: JSONCodable, Equatable {
    var userID = 0
    var name = ""
    static let mapping = ModelMapping(keyStrategy: .snakeCase, required: ["userID"])
}

private struct SFAccountList: Codable {
    var accounts: [SFAccount]
}

extension StrictFidelityTests {
    /// The DecodingError case, coding path and underlying error's paths of `error`.
    private func described(_ error: any Error) -> (kind: String, path: [String], underlyingPath: String?, underlyingJSONPath: String?) {
        guard let decoding = error as? DecodingError else { return ("not a DecodingError: \(error)", [], nil, nil) }
        let kind: String, context: DecodingError.Context, path: [any CodingKey]
        switch decoding {
        case .keyNotFound(let key, let c): (kind, context, path) = ("keyNotFound", c, c.codingPath + [key])
        case .typeMismatch(_, let c): (kind, context, path) = ("typeMismatch", c, c.codingPath)
        case .valueNotFound(_, let c): (kind, context, path) = ("valueNotFound", c, c.codingPath)
        case .dataCorrupted(let c): (kind, context, path) = ("dataCorrupted", c, c.codingPath)
        @unknown default: return ("unknown", [], nil, nil)
        }
        let underlying = context.underlyingError as? MappingError
        return (kind, path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }, underlying?.path, underlying?.jsonPath)
    }

    func testAJSONCodableModelsErrorNamesTheDocumentsKeyOnEveryPath() throws {
        let cases: [(json: String, kind: String, path: [String], property: String, key: String)] = [
            (#"{"accounts":[{"user_id":1},{"name":"b"}]}"#, "keyNotFound", ["accounts", "[1]", "user_id"], "userID", "user_id"),
            (#"{"accounts":[{"user_id":true}]}"#, "typeMismatch", ["accounts", "[0]", "user_id"], "userID", "user_id"),
            (#"{"accounts":[{"user_id":null}]}"#, "valueNotFound", ["accounts", "[0]", "user_id"], "userID", "user_id"),
            // The mapping is lenient: "x" is a string that is not a number (.invalidValue), not a mismatch.
            (#"{"accounts":[{"user_id":"x"}]}"#, "dataCorrupted", ["accounts", "[0]", "user_id"], "userID", "user_id"),
        ]
        for item in cases {
            let data = Data(item.json.utf8)
            let viaFoundation = described(XCTUnwrapError { try JSONDecoder().decode(SFAccountList.self, from: data) })
            let viaModelDecoder = described(XCTUnwrapError { try ModelDecoder().decode(SFAccountList.self, from: data) })
            for (name, got) in [("JSONDecoder", viaFoundation), ("ModelDecoder", viaModelDecoder)] {
                XCTAssertEqual(got.kind, item.kind, "\(name): \(item.json)")
                XCTAssertEqual(got.path, item.path, "\(name): \(item.json)")
                XCTAssertEqual(got.underlyingJSONPath?.hasSuffix(item.key), true, "\(name): \(String(describing: got.underlyingJSONPath))")
                XCTAssertEqual(got.underlyingPath?.hasSuffix(item.property), true, "\(name): \(String(describing: got.underlyingPath))")
            }
            XCTAssertEqual(viaModelDecoder.underlyingPath, "accounts[\(item.path[1].dropFirst().dropLast())].\(item.property)")
            XCTAssertEqual(viaModelDecoder.underlyingJSONPath, "accounts[\(item.path[1].dropFirst().dropLast())].\(item.key)")
        }
        // init(json:) says the same.
        let direct = mappingError { try SFAccount(json: #"{"name":"b"}"#) }
        XCTAssertEqual(direct?.jsonPath, "user_id")
        XCTAssertEqual(direct?.path, "userID")
    }

    func testMappingErrorIsALocalizedError() throws {
        let error = mappingError { try SFAccount(json: #"{"user_id":true}"#) }
        let localized = (error as (any Error)?)?.localizedDescription ?? ""
        XCTAssertEqual(localized, error?.description)
        XCTAssertTrue(localized.contains("typeMismatch at userID (JSON user_id)"), localized)
        XCTAssertFalse(localized.contains("could not be completed"), localized)
    }

    private func XCTUnwrapError<T>(_ body: () throws -> T, file: StaticString = #filePath, line: UInt = #line) -> any Error {
        do {
            _ = try body()
            XCTFail("no error", file: file, line: line)
            return MappingError(.syntax, "no error")
        } catch {
            return error
        }
    }
}

// MARK: 7. The migration guides' sentences, checked

private struct SFNSTypes: JSONMappable { var text: NSString = "" }
private struct SFNSNumber: JSONMappable { var count: NSNumber = 0 }
private struct SFSnakeChild: JSONMappable { var firstName = "" }
private struct SFSnakeParent: JSONMappable {
    var userName = ""
    var child = SFSnakeChild()
    static let mapping = ModelMapping(keyStrategy: .snakeCase)
}

private class SFShape: JSONMappable, JSONPolymorphic {
    var name = ""
    required init() {}
    class var mapping: ModelMapping { ModelMapping() }
    static func modelType(for object: JSONObject) -> (any JSONMappable.Type)? {
        object["kind"]?.stringValue == "circle" ? SFCircle.self : nil
    }
}
private final class SFCircle: SFShape { var radius = 0.0 }

private struct SFFloat: JSONMappable { var ratio: Float = 0.1; var empty: String? = nil }

extension StrictFidelityTests {
    func testTheGuidesSentencesHold() throws {
        // HandyJSON: NSString and NSNumber properties are refused at first use, naming the property.
        XCTAssertEqual(mappingError { try SFNSTypes(json: "{}") }?.kind, .unsupportedType)
        XCTAssertEqual(mappingError { try SFNSNumber(json: "{}") }?.message.contains("count"), true)
        // HandyJSON: a model's keyStrategy reaches its own properties, not its nested models'.
        let parent = try SFSnakeParent(json: #"{"user_name":"a","child":{"first_name":"b","firstName":"c"}}"#)
        XCTAssertEqual(parent.userName, "a")
        XCTAssertEqual(parent.child.firstName, "c")
        var snake = DecodingOptions.lenient
        snake.keyStrategy = .snakeCase
        XCTAssertEqual(try SFSnakeParent(json: #"{"child":{"first_name":"b"}}"#, options: snake).child.firstName, "b",
                       "the options' strategy reaches every model without its own")
        // Mantle: modelType(for:) returning nil keeps the declared class (Mantle reports NoClassFound).
        let shape = try SFShape(json: #"{"kind":"square","name":"s"}"#)
        XCTAssertTrue(type(of: shape) == SFShape.self)
        XCTAssertTrue(try SFShape(json: #"{"kind":"circle"}"#) is SFCircle)
        // Mantle: nil is omitted unless writesNulls (Mantle writes NSNull).
        XCTAssertNil((try SFFloat().jsonObject() as? [String: Any])?["empty"])
        XCTAssertTrue((try SFFloat().jsonObject(options: .writesNulls) as? [String: Any])?["empty"] is NSNull)
        // Mantle: a Float is written into jsonObject() as a number holding the Double of its shortest text.
        let ratio = (try SFFloat().jsonObject() as? [String: Any])?["ratio"] as? NSNumber
        XCTAssertEqual(ratio?.doubleValue, 0.1)
        XCTAssertNotEqual(ratio?.doubleValue, Double(Float(0.1)))
    }
}
