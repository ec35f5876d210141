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
