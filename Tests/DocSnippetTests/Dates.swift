import Foundation
import ModelMapper
import XCTest

/// The code of Dates.md.
final class DatesSnippets: XCTestCase {
    func testDates() throws {
        struct Event: JSONMappable {
            var at = Date(timeIntervalSince1970: 0)
        }

        let inputs = [
            #""2014-01-20""#,
            #""2014-01-20T12:24:48""#,
            #""2014-01-20 12:24:48""#,
            #""2014-01-20T20:24:48+08:00""#,
            #""2014-01-20T20:24:48+0800""#,
            #""Mon Jan 20 12:24:48 +0000 2014""#,
            "1390220688",
        ]
        let written = try inputs.map { try Event(json: "{\"at\": \($0)}").jsonString() }
        // written[0] == #"{"at":"2014-01-20T00:00:00Z"}"#, every other element == #"{"at":"2014-01-20T12:24:48Z"}"#
        XCTAssertEqual(written[0], #"{"at":"2014-01-20T00:00:00Z"}"#)
        XCTAssertEqual(Set(written.dropFirst()), [#"{"at":"2014-01-20T12:24:48Z"}"#])

        var printed = ""
        func print(_ item: Any) { printed = "\(item)" }
        do {
            _ = try Event(json: #"{"at": "yesterday"}"#)
        } catch let error as MappingError {
            print(error)  // line 1, column 8: invalidValue at at: the string "yesterday" is not a date in a supported format
        }
        XCTAssertEqual(printed, #"line 1, column 8: invalidValue at at: the string "yesterday" is not a date in a supported format"#)

        let fromMilliseconds = try Event(json: #"{"at": 1390220688123}"#,
                                         options: DecodingOptions.lenient.dates(.millisecondsSince1970))
        // fromMilliseconds.at.timeIntervalSince1970 == 1390220688.123
        XCTAssertEqual(fromMilliseconds.at.timeIntervalSince1970, 1390220688.123, accuracy: 1e-6)

        let european = try Event(json: #"{"at": "20/01/2014 12:24"}"#,
                                 options: DecodingOptions.lenient.dates(.formatted("dd/MM/yyyy HH:mm")))
        let asDay = try european.jsonString(options: .dates(.formatted("dd/MM/yyyy")))
        // asDay == #"{"at":"20/01/2014"}"#
        XCTAssertEqual(european.at, Date(timeIntervalSince1970: 1390220640))
        XCTAssertEqual(asDay, #"{"at":"20/01/2014"}"#)
        struct Release: JSONMappable {
            var day = Date(timeIntervalSince1970: 0)
            static let mapping = ModelMapping(transformers: [
                "day": .date(format: "MMMM d, yyyy", timeZone: TimeZone(identifier: "America/Los_Angeles")!),
            ])
        }

        let release = try Release(json: #"{"day": "September 25, 2015"}"#)
        // release.day.timeIntervalSince1970 == 1443164400 (07:00 UTC); written back as "September 25, 2015"
        XCTAssertEqual(release.day.timeIntervalSince1970, 1443164400)
        XCTAssertEqual(try release.jsonString(), #"{"day":"September 25, 2015"}"#)
        // The article's claim about `.default` and milliseconds.
        XCTAssertGreaterThan(try Event(json: #"{"at": 1390220688123}"#).jsonString(), #"{"at":"+46024"#)
    }
}
