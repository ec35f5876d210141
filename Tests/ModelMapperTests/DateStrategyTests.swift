import XCTest
import Foundation
@testable import ModelMapper

// Date properties under every DateStrategy (DESIGN.md section 4), through models: the default strategy
// accepts every YYModel format with its time zone and numbers as seconds; .iso8601, .secondsSince1970,
// .millisecondsSince1970, .formatted and .custom.

fileprivate struct DSEvent: JSONMappable, Equatable {
    var at = Date(timeIntervalSince1970: 0)
    var maybe: Date? = nil
    var history: [Date] = []
    var byName: [String: Date] = [:]
}

fileprivate struct DSLog: JSONMappable {
    var events: [DSEvent] = []
}

/// An instant from UTC calendar fields, computed with Foundation's calendar (independent of the parser).
fileprivate func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0,
                     ms: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    return date.addingTimeInterval(Double(ms) / 1000)
}

fileprivate func assertSameInstant(_ a: Date?, _ b: Date, accuracy: TimeInterval = 1e-6, _ message: String = "",
                                   file: StaticString = #filePath, line: UInt = #line) {
    guard let a else { return XCTFail("nil date, \(message)", file: file, line: line) }
    XCTAssertEqual(a.timeIntervalSince1970, b.timeIntervalSince1970, accuracy: accuracy, message, file: file, line: line)
}

final class DateStrategyTests: XCTestCase {

    /// YYModel's date formats (`YYNSDateFromString`), each with its zone; strings without a zone are UTC.
    static let yyModelFormats: [(String, Date)] = [
        ("2014-01-20", utc(2014, 1, 20)),                                               // yyyy-MM-dd
        ("2014-01-20 12:24:48", utc(2014, 1, 20, 12, 24, 48)),                          // yyyy-MM-dd HH:mm:ss
        ("2014-01-20T12:24:48", utc(2014, 1, 20, 12, 24, 48)),                          // yyyy-MM-dd'T'HH:mm:ss
        ("2014-01-20T12:24:48.123", utc(2014, 1, 20, 12, 24, 48, ms: 123)),             // ...ss.SSS
        ("2014-01-20T12:24:48Z", utc(2014, 1, 20, 12, 24, 48)),                         // ...ssZ (GitHub, Apple)
        ("2014-01-20T12:24:48+0800", utc(2014, 1, 20, 4, 24, 48)),                      // ...ss+0800 (Facebook)
        ("2014-01-20T12:24:48+12:00", utc(2014, 1, 20, 0, 24, 48)),                     // ...ss+12:00 (Google)
        ("2014-01-20T12:24:48.000Z", utc(2014, 1, 20, 12, 24, 48)),                     // ...ss.SSSZ
        ("2014-01-20T12:24:48.000+0800", utc(2014, 1, 20, 4, 24, 48)),                  // ...ss.SSS+0800
        ("2014-01-20T12:24:48.000+12:00", utc(2014, 1, 20, 0, 24, 48)),                 // ...ss.SSS+12:00
        ("2014-01-20T12:24:48-05:30", utc(2014, 1, 20, 17, 54, 48)),                    // negative offset
        ("Fri Sep 04 00:12:21 +0800 2015", utc(2015, 9, 3, 16, 12, 21)),                // EEE MMM dd HH:mm:ss Z yyyy (Weibo, Twitter)
        ("Fri Sep 04 00:12:21.123 +0800 2015", utc(2015, 9, 3, 16, 12, 21, ms: 123)),   // EEE MMM dd HH:mm:ss.SSS Z yyyy
    ]

    func testDefaultStrategyAcceptsEveryYYModelFormat() throws {
        XCTAssertEqual(Self.yyModelFormats.count, 13)
        for options in [DecodingOptions.lenient, .strict] {
            for (text, expected) in Self.yyModelFormats {
                let event = try DSEvent(json: #"{"at":"\#(text)","maybe":"\#(text)","history":["\#(text)"],"byName":{"k":"\#(text)"}}"#,
                                        options: options)
                assertSameInstant(event.at, expected, text)
                assertSameInstant(event.maybe, expected, text)
                assertSameInstant(event.history.first, expected, text)
                assertSameInstant(event.byName["k"], expected, text)
            }
        }
    }

    func testDefaultStrategyVariants() throws {
        let cases: [(String, Date)] = [
            ("Wed Sep 16 12:20:09 +0000 2015", utc(2015, 9, 16, 12, 20, 9)),   // Twitter's created_at
            ("wed sep 16 12:20:09 -0130 2015", utc(2015, 9, 16, 13, 50, 9)),   // any letter case
            ("2009-04-02T03:35:22Z", utc(2009, 4, 2, 3, 35, 22)),              // GitHub's updated_at
            ("  2014-01-20T12:24:48Z  ", utc(2014, 1, 20, 12, 24, 48)),        // surrounding whitespace
            ("2014-01-20 12:24:48 +0800", utc(2014, 1, 20, 4, 24, 48)),
            ("2014-01-20T12:24:48.5Z", utc(2014, 1, 20, 12, 24, 48, ms: 500)),
            ("2014-01-20T12:24:48.123456789+01:00", utc(2014, 1, 20, 11, 24, 48).addingTimeInterval(0.123456789)),
            ("2016-02-29", utc(2016, 2, 29)),                                   // leap day
            ("1969-12-31T23:59:59Z", utc(1969, 12, 31, 23, 59, 59)),
        ]
        for (text, expected) in cases {
            let event = try DSEvent(json: #"{"at":"\#(text)"}"#)
            assertSameInstant(event.at, expected, accuracy: 2e-6, text)
        }
        // numbers are seconds since 1970, in both modes
        for options in [DecodingOptions.lenient, .strict] {
            XCTAssertEqual(try DSEvent(json: #"{"at":1390220688}"#, options: options).at, utc(2014, 1, 20, 12, 24, 48))
            XCTAssertEqual(try DSEvent(json: #"{"at":1390220688.25}"#, options: options).at.timeIntervalSince1970, 1390220688.25)
            XCTAssertEqual(try DSEvent(json: #"{"at":-86400}"#, options: options).at, utc(1969, 12, 31))
            XCTAssertEqual(try DSEvent(json: #"{"at":0}"#, options: options).at, Date(timeIntervalSince1970: 0))
            XCTAssertEqual(try DSEvent(json: #"{"history":[1,"1970-01-01T00:00:02Z"]}"#, options: options).history,
                           [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2)])
        }
    }

    func testDefaultStrategyRejections() {
        let invalid = ["", "yesterday", "2014-13-01", "2014-02-30", "2015-02-29", "2014-01-20T25:00:00Z",
                       "2014-01-20T12:60:00Z", "2014-01-20T12:24:48+25:00", "2014/01/20", "20-01-2014",
                       "Fri Foo 04 00:12:21 +0800 2015", "2014-01-20T12:24:48ZZ", "2014-1-2"]
        for text in invalid {
            for options in [DecodingOptions.lenient, .strict] {
                let error = mappingError { _ = try DSEvent(json: #"{"maybe":null,"at":"\#(text)"}"#, options: options) }
                XCTAssertEqual(error?.kind, .invalidValue, text)
                XCTAssertEqual(error?.path, "at", text)
                XCTAssertEqual(error?.column, 20, text)
            }
        }
        for literal in ["true", "[]", "{}", "1e400"] {
            let error = mappingError { _ = try DSEvent(json: #"{"at":\#(literal)}"#) }
            XCTAssertEqual(error?.kind, literal == "1e400" ? .invalidValue : .typeMismatch, literal)
            XCTAssertEqual(error?.path, "at", literal)
        }
        // null keeps a Date, clears a Date?
        var event = DSEvent()
        event.at = utc(2000, 1, 1)
        event.maybe = utc(2000, 1, 1)
        XCTAssertNoThrow(try event.update(json: #"{"at":null,"maybe":null}"#))
        XCTAssertEqual(event.at, utc(2000, 1, 1))
        XCTAssertNil(event.maybe)
    }

    func testISO8601() throws {
        let options = DecodingOptions.lenient.dates(.iso8601)
        let cases: [(String, Date)] = [
            ("2014-01-20T12:24:48Z", utc(2014, 1, 20, 12, 24, 48)),
            ("2014-01-20T12:24:48.123+08:00", utc(2014, 1, 20, 4, 24, 48, ms: 123)),
            ("2014-01-20T12:24:48-0130", utc(2014, 1, 20, 13, 54, 48)),
            ("2014-01-20t12:24:48z", utc(2014, 1, 20, 12, 24, 48)),
        ]
        for (text, expected) in cases {
            assertSameInstant(try DSEvent(json: #"{"at":"\#(text)"}"#, options: options).at, expected, text)
        }
        // a zone is required; date-only and Twitter strings are not ISO 8601
        for text in ["2014-01-20", "2014-01-20T12:24:48", "Fri Sep 04 00:12:21 +0800 2015", "nonsense"] {
            let error = mappingError { _ = try DSEvent(json: #"{"at":"\#(text)"}"#, options: options) }
            XCTAssertEqual(error?.kind, .invalidValue, text)
            XCTAssertEqual(error?.path, "at", text)
        }
        // numbers are not ISO 8601 strings
        let error = mappingError { _ = try DSEvent(json: #"{"at":1390220688}"#, options: options) }
        XCTAssertEqual(error?.kind, .typeMismatch)
        XCTAssertEqual(error?.path, "at")
        // in arrays
        let log = try DSLog(json: #"{"events":[{"history":["2014-01-20T12:24:48Z"]}]}"#, options: options)
        XCTAssertEqual(log.events.first?.history, [utc(2014, 1, 20, 12, 24, 48)])
    }

    func testSecondsSince1970() throws {
        let lenient = DecodingOptions.lenient.dates(.secondsSince1970)
        let strict = DecodingOptions.strict.dates(.secondsSince1970)
        XCTAssertEqual(try DSEvent(json: #"{"at":1390220688}"#, options: lenient).at, utc(2014, 1, 20, 12, 24, 48))
        XCTAssertEqual(try DSEvent(json: #"{"at":1390220688}"#, options: strict).at, utc(2014, 1, 20, 12, 24, 48))
        XCTAssertEqual(try DSEvent(json: #"{"at":-1.5}"#, options: strict).at.timeIntervalSince1970, -1.5)
        // numeric strings: lenient only
        XCTAssertEqual(try DSEvent(json: #"{"at":" 1390220688 "}"#, options: lenient).at, utc(2014, 1, 20, 12, 24, 48))
        XCTAssertEqual(mappingError { _ = try DSEvent(json: #"{"at":"1390220688"}"#, options: strict) }?.kind, .typeMismatch)
        // date strings are not seconds
        XCTAssertEqual(mappingError { _ = try DSEvent(json: #"{"at":"2014-01-20"}"#, options: lenient) }?.kind, .invalidValue)
        XCTAssertEqual(mappingError { _ = try DSEvent(json: #"{"at":true}"#, options: lenient) }?.kind, .typeMismatch)
        XCTAssertEqual(mappingError { _ = try DSEvent(json: #"{"at":1e400}"#, options: lenient) }?.kind, .invalidValue)
        XCTAssertEqual(try DSEvent(json: #"{"maybe":5,"history":[1,2]}"#, options: strict),
                       DSEvent(at: Date(timeIntervalSince1970: 0), maybe: Date(timeIntervalSince1970: 5),
                               history: [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 2)]))
    }

    func testMillisecondsSince1970() throws {
        let lenient = DecodingOptions.lenient.dates(.millisecondsSince1970)
        let strict = DecodingOptions.strict.dates(.millisecondsSince1970)
        assertSameInstant(try DSEvent(json: #"{"at":1390220688123}"#, options: strict).at, utc(2014, 1, 20, 12, 24, 48, ms: 123))
        assertSameInstant(try DSEvent(json: #"{"at":"1390220688123"}"#, options: lenient).at, utc(2014, 1, 20, 12, 24, 48, ms: 123))
        XCTAssertEqual(try DSEvent(json: #"{"at":-1000}"#, options: strict).at, Date(timeIntervalSince1970: -1))
        XCTAssertEqual(try DSEvent(json: #"{"at":1500}"#, options: strict).at, Date(timeIntervalSince1970: 1.5))
        XCTAssertEqual(mappingError { _ = try DSEvent(json: #"{"at":"1390220688123"}"#, options: strict) }?.kind, .typeMismatch)
        XCTAssertEqual(mappingError { _ = try DSEvent(json: #"{"at":"2014-01-20T12:24:48Z"}"#, options: lenient) }?.kind, .invalidValue)
        XCTAssertEqual(mappingError { _ = try DSEvent(json: #"{"at":{}}"#, options: lenient) }?.kind, .typeMismatch)
    }

    func testFormatted() throws {
        let options = DecodingOptions.lenient.dates(.formatted("dd/MM/yyyy"))
        XCTAssertEqual(try DSEvent(json: #"{"at":"20/01/2014"}"#, options: options).at, utc(2014, 1, 20))
        XCTAssertEqual(try DSEvent(json: #"{"at":"29/02/2016"}"#, options: options).at, utc(2016, 2, 29))
        XCTAssertEqual(try DSEvent(json: #"{"history":["01/01/2000","31/12/1999"]}"#, options: options).history,
                       [utc(2000, 1, 1), utc(1999, 12, 31)])
        for text in ["2014-01-20", "20/13/2014", "32/01/2014", "20/01/14", "20-01-2014", ""] {
            let error = mappingError { _ = try DSEvent(json: #"{"at":"\#(text)"}"#, options: options) }
            XCTAssertEqual(error?.kind, .invalidValue, text)
            XCTAssertEqual(error?.path, "at", text)
            XCTAssertEqual(error?.column, 7, text)
        }
        XCTAssertEqual(mappingError { _ = try DSEvent(json: #"{"at":20012014}"#, options: options) }?.kind, .typeMismatch)
        // with time and zone fields
        let withTime = DecodingOptions.lenient.dates(.formatted("yyyy-MM-dd HH:mm Z"))
        XCTAssertEqual(try DSEvent(json: #"{"at":"2014-01-20 12:24 +0800"}"#, options: withTime).at, utc(2014, 1, 20, 4, 24))
        let named = DecodingOptions.lenient.dates(.formatted("MMM d, yyyy"))
        XCTAssertEqual(try DSEvent(json: #"{"at":"Sep 4, 2015"}"#, options: named).at, utc(2015, 9, 4))
        // an unsupported pattern is reported, not silently misread
        let bad = DecodingOptions.lenient.dates(.formatted("QQQ ww"))
        let error = mappingError { _ = try DSEvent(json: #"{"at":"x"}"#, options: bad) }
        XCTAssertEqual(error?.kind, .unsupportedType)
        XCTAssertEqual(error?.path, "at")
    }

    struct DSCustomFailure: Error {}

    func testCustom() throws {
        // "@<seconds>" strings, {"y":..,"m":..,"d":..} objects; anything else is rejected
        let strategy = DateStrategy.custom { json in
            if let text = json.stringValue, text.hasPrefix("@"), let seconds = Double(text.dropFirst()) {
                return Date(timeIntervalSince1970: seconds)
            }
            if let y = json["y"]?.intValue, let m = json["m"]?.intValue, let d = json["d"]?.intValue {
                return utc(y, m, d)
            }
            if json.boolValue != nil { throw MappingError(.validation, "Booleans are not dates") }
            throw DSCustomFailure()
        }
        let options = DecodingOptions.strict.dates(strategy)
        XCTAssertEqual(try DSEvent(json: #"{"at":"@86400"}"#, options: options).at, Date(timeIntervalSince1970: 86400))
        XCTAssertEqual(try DSEvent(json: #"{"at":{"y":2014,"m":1,"d":20}}"#, options: options).at, utc(2014, 1, 20))
        XCTAssertEqual(try DSEvent(json: #"{"history":["@1",{"y":1970,"m":1,"d":1}]}"#, options: options).history,
                       [Date(timeIntervalSince1970: 1), Date(timeIntervalSince1970: 0)])
        XCTAssertEqual(try DSEvent(json: #"{"byName":{"a":"@2"}}"#, options: options).byName, ["a": Date(timeIntervalSince1970: 2)])
        // null is not passed to the closure: Date? becomes nil, Date keeps its value
        XCTAssertNil(try DSEvent(json: #"{"maybe":null}"#, options: options).maybe)
        // a thrown error becomes an error with the path and position; a MappingError keeps its kind
        let failure = mappingError { _ = try DSLog(json: "{\"events\":[{},\n {\"history\":[\"@1\", \"no\"]}]}", options: options) }
        XCTAssertEqual(failure?.kind, .invalidValue)
        XCTAssertEqual(failure?.path, "events[1].history[1]")
        XCTAssertEqual(failure?.line, 2)
        XCTAssertEqual(failure?.column, 20)
        let rejected = mappingError { _ = try DSEvent(json: #"{"at":true}"#, options: options) }
        XCTAssertEqual(rejected?.kind, .validation)
        XCTAssertEqual(rejected?.path, "at")
        XCTAssertEqual(rejected?.column, 7)
    }

    /// The strategy reaches dates in nested models and collections, and `dates(_:)` leaves other options alone.
    func testStrategyAppliesEverywhereAndOptionsCompose() throws {
        var options = DecodingOptions.strict
        options.wrapsSingleValues = true
        let withDates = options.dates(.millisecondsSince1970)
        XCTAssertEqual(withDates.conversion, .strict)
        XCTAssertTrue(withDates.wrapsSingleValues)
        let log = try DSLog(json: #"{"events":[{"at":1000,"maybe":2000,"history":3000,"byName":{"x":4000}}]}"#, options: withDates)
        XCTAssertEqual(log.events, [DSEvent(at: Date(timeIntervalSince1970: 1), maybe: Date(timeIntervalSince1970: 2),
                                            history: [Date(timeIntervalSince1970: 3)], byName: ["x": Date(timeIntervalSince1970: 4)])])
        let viaInit = DecodingOptions(conversion: .lenient, dateStrategy: .secondsSince1970)
        XCTAssertEqual(try DSEvent(json: #"{"at":"10"}"#, options: viaInit).at, Date(timeIntervalSince1970: 10))
    }

    /// Default-strategy dates written back read as the same instant (ISO 8601 in UTC, fraction when non-zero).
    func testDatesRoundTripThroughEncoding() throws {
        var event = DSEvent()
        event.at = utc(2014, 1, 20, 12, 24, 48, ms: 250)
        event.maybe = utc(2014, 1, 20, 12, 24, 48)
        let json = try event.jsonString(options: [.sortedKeys])
        XCTAssertTrue(json.contains(#""at":"2014-01-20T12:24:48.25"#), json)
        XCTAssertTrue(json.contains(#""maybe":"2014-01-20T12:24:48Z""#), json)
        let back = try DSEvent(json: json)
        assertSameInstant(back.at, event.at)
        XCTAssertEqual(back.maybe, event.maybe)
    }
}
