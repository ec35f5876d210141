import Foundation
import XCTest
@testable import ModelMapper

/// `.iso8601` on the Codable path (ModelDecoder's `dateDecodingStrategy`, ModelEncoder's
/// `dateEncodingStrategy`) against this toolchain's JSONDecoder and JSONEncoder on the same bytes and dates
/// (issue 39.2), and the mapping path's ``DateStrategy/iso8601`` beside them: where it reads differently
/// from JSONDecoder is listed here and in the Dates article.
///
/// `MODELMAPPER_PRINT_ISO_TABLE=1` prints the table (form, JSONDecoder, ModelDecoder, mapping path).
final class ISO8601FoundationParityTests: XCTestCase {
    private struct Stamped: Codable { var d: Date }

    /// ISO 8601 strings and near misses. Each is decoded by JSONDecoder and ModelDecoder from the same JSON.
    static let forms: [String] = [
        // whole seconds, fractions of 1...9 digits, and longer
        "2012-03-06T23:06:50Z",
        "2012-03-06T23:06:50.1Z",
        "2012-03-06T23:06:50.12Z",
        "2012-03-06T23:06:50.123Z",
        "2012-03-06T23:06:50.1234Z",
        "2012-03-06T23:06:50.12345Z",
        "2012-03-06T23:06:50.123456Z",
        "2012-03-06T23:06:50.1234567Z",
        "2012-03-06T23:06:50.12345678Z",
        "2012-03-06T23:06:50.123456789Z",
        "2012-03-06T23:06:50.999999999Z",
        "2012-03-06T23:06:50.000000000Z",
        "2012-03-06T23:06:50.1234567891Z",
        "2012-03-06T23:06:50.123456789123Z",
        "2012-03-06T23:06:50.Z",
        "2012-03-06T23:06:50,5Z",
        "1969-12-31T23:59:59.999Z",
        // zones
        "2012-03-06T23:06:50+02:00",
        "2012-03-06T23:06:50.5+02:00",
        "2012-03-06T23:06:50+0200",
        "2012-03-06T23:06:50+02",
        "2012-03-06T23:06:50-05:30",
        "2012-03-06T23:06:50-0530",
        "2012-03-06T23:06:50.25-0530",
        "2012-03-06T23:06:50+00:00",
        "2012-03-06T23:06:50-00:00",
        "2012-03-06T23:06:50+14:00",
        "2012-03-06T23:06:50+18:00",
        "2012-03-06T23:06:50+18:01",
        "2012-03-06T23:06:50+19:00",
        "2012-03-06T23:06:50+02:60",
        "2012-03-06T23:06:50+2:00",
        "2012-03-06T23:06:50+05:30:45",
        "2012-03-06T23:06:50+02:00:00",
        "2012-03-06T23:06:50+",
        "2012-03-06T23:06:50+0",
        "2012-03-06T23:06:50+02:",
        "2012-03-06T23:06:50+02:0",
        "2012-03-06T23:06:50+0200:",
        "2012-03-06T23:06:50+02:00:3",
        "2012-03-06T23:06:50G",
        "2012-03-06T23:06:50GMX",
        "2012-03-06T23:06:50UTC+",
        "2012-03-06T23:06:50UTCx",
        "2012-03-06T23:06:50GMT",
        "2012-03-06T23:06:50UTC",
        "2012-03-06T23:06:50GMT+02:00",
        "2012-03-06T23:06:50utc-0530",
        "2012-03-06T23:06:50",
        "2012-03-06T23:06:50.5",
        // letter case and separators
        "2012-03-06t23:06:50z",
        "2012-03-06t23:06:50Z",
        "2012-03-06T23:06:50z",
        "2012-03-06 23:06:50Z",
        "2012-03-06T23:06:50 Z",
        "2012-03-06T23:06:50.123 Z",
        "2012-03-06TT23:06:50Z",
        // missing parts, other layouts
        "2012-03-06T23:06Z",
        "2012-03-06T23Z",
        "2012-03-06",
        "2012-03-06Z",
        "20120306T230650Z",
        "2012-03-06T230650Z",
        "2012-3-6T23:06:50Z",
        "2012-03-06T3:06:50Z",
        "2012-03-06T23:6:5Z",
        "",
        "Z",
        // out-of-range fields, leap second
        "2016-12-31T23:59:60Z",
        "2012-03-06T24:00:00Z",
        "2012-03-06T23:60:00Z",
        "2012-03-06T23:06:61Z",
        "2012-03-06T99:99:99Z",
        "2012-03-06T24:00:00.5+02:00",
        "2012-13-06T23:06:50Z",
        "2012-00-06T23:06:50Z",
        "2012-02-29T23:06:50Z",
        "2013-02-29T23:06:50Z",
        "2012-02-30T23:06:50Z",
        "2012-04-31T23:06:50Z",
        "2012-03-32T23:06:50Z",
        "2012-03-00T23:06:50Z",
        // spaces and trailing bytes
        " 2012-03-06T23:06:50Z",
        "2012-03-06T23:06:50Z ",
        "2012-03-06T23:06:50Z\n",
        "2012-03-06T23:06:50Zjunk",
        "2012-03-06T23:06:50Z0",
        "2012-03-06T23:06:50+02:00 trailing",
        // years
        "1970-01-01T00:00:00Z",
        "0000-01-01T00:00:00Z",
        "0001-01-01T00:00:00Z",
        "1582-10-04T12:00:00Z",
        "1582-10-10T12:00:00Z",
        "1582-10-15T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "10000-01-01T00:00:00Z",
        "+10000-01-01T00:00:00Z",
        "-0001-12-31T00:00:00Z",
        "+2012-03-06T23:06:50Z",
        "12-03-06T23:06:50Z",
        // not ASCII digits
        "２012-03-06T23:06:50Z",
        "2012-03-06T23:06:50.١Z",
    ]

    /// Forms where the mapping path's `DateStrategy.iso8601` does NOT give JSONDecoder's answer (reading
    /// what JSONDecoder refuses, refusing what it reads, or another instant). Every other form is read alike
    /// (within 1 µs: the mapping path rounds a fraction once, Foundation's calendar twice) or refused alike.
    /// The Dates article lists the same differences.
    static let mappingDiffers: Set<String> = [
        "2012-03-06T23:06:50.1234567891Z",      // digits past the 9th: ignored by the mapping path
        "2012-03-06T23:06:50.123456789123Z",
        "2012-03-06T23:06:50+02:60",            // zone minutes past 59: refused
        "2012-03-06T23:06:50+2:00",             // zone fields of one digit, a colon after the zone: refused
        "2012-03-06T23:06:50+0",
        "2012-03-06T23:06:50+02:0",
        "2012-03-06T23:06:50+0200:",
        "2012-03-06T23:06:50+02:00:3",
        "2012-03-06T23:06:50+05:30:45",         // zone seconds: refused
        "2012-03-06T23:06:50+02:00:00",
        "2012-03-06T23:06:50GMT",               // GMT/UTC: refused
        "2012-03-06T23:06:50UTC",
        "2012-03-06T23:06:50GMT+02:00",
        "2012-03-06T23:06:50utc-0530",
        "2012-03-06T23:06:50UTCx",
        "2012-03-06t23:06:50z",                 // `t` and a space before the time: read
        "2012-03-06t23:06:50Z",
        "2012-03-06 23:06:50Z",
        "2012-03-06T23:06:50Z0",                // bytes after the zone: refused (surrounding whitespace ignored)
        "2012-03-06T23:06:50Zjunk",
        "2012-03-06T23:06:50+02:00 trailing",
        " 2012-03-06T23:06:50Z",
        "2012-3-6T23:06:50Z",                   // fields of other than 2 digits: refused
        "2012-03-06T3:06:50Z",
        "2012-03-06T23:6:5Z",
        "12-03-06T23:06:50Z",
        "10000-01-01T00:00:00Z",
        "+10000-01-01T00:00:00Z",               // the expanded year form: read
        "-0001-12-31T00:00:00Z",
        "+2012-03-06T23:06:50Z",
        "2012-03-06T24:00:00Z",                 // fields out of range: refused, never carried over
        "2012-03-06T24:00:00.5+02:00",
        "2012-03-06T23:60:00Z",
        "2012-03-06T23:06:61Z",
        "2012-03-06T99:99:99Z",
        "2013-02-29T23:06:50Z",
        "2012-02-30T23:06:50Z",
        "2012-04-31T23:06:50Z",
        "0000-01-01T00:00:00Z",                 // before 1582-10-15: proleptic Gregorian, not Julian
        "0001-01-01T00:00:00Z",
        "1582-10-04T12:00:00Z",
        "1582-10-10T12:00:00Z",
    ]

    private static func decodedByFoundation(_ json: Data) -> Result<Date, Error> {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return Result { try decoder.decode(Stamped.self, from: json).d }
    }

    private static func decodedByModelDecoder(_ json: Data) -> Result<Date, Error> {
        var decoder = ModelDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return Result { try decoder.decode(Stamped.self, from: json).d }
    }

    private static func decodedByMapping(_ form: String) -> Date? {
        Array(form.utf8).withUnsafeBytes { DateParsing.parseISO8601($0, .mapping) }
    }

    private static func describe(_ date: Date?) -> String {
        guard let date else { return "refused" }
        return "\(date.timeIntervalSince1970)"
    }

    func testModelDecoderReadsEveryFormAsJSONDecoder() throws {
        var table = ["| form | JSONDecoder (s since 1970) | ModelDecoder | DateStrategy.iso8601 (mapping) |", "|:--|:--|:--|:--|"]
        for form in Self.forms {
            let json = try JSONEncoder().encode(["d": form])
            let theirs = Self.decodedByFoundation(json)
            let ours = Self.decodedByModelDecoder(json)
            let mapping = Self.decodedByMapping(form)
            let cells = [Self.describe(try? theirs.get()), Self.describe(try? ours.get()), Self.describe(mapping)]
            table.append("| `\(form.debugDescription)` | " + cells.joined(separator: " | ") + " |")
            switch (theirs, ours) {
            case (.success(let expected), .success(let got)):
                // The same Double, bit for bit: ModelDecoder sums the fields as Foundation's calendar does.
                XCTAssertEqual(got.timeIntervalSinceReferenceDate.bitPattern, expected.timeIntervalSinceReferenceDate.bitPattern,
                               "\(form.debugDescription): JSONDecoder \(expected.timeIntervalSinceReferenceDate), "
                                   + "ModelDecoder \(got.timeIntervalSinceReferenceDate)")
            case (.failure(let theirError), .failure(let ourError)):
                guard case DecodingError.dataCorrupted(let theirContext) = theirError,
                      case DecodingError.dataCorrupted(let ourContext) = ourError
                else { XCTFail("\(form.debugDescription): JSONDecoder \(theirError), ModelDecoder \(ourError)"); continue }
                // JSONDecoder's message, then ModelDecoder's position; the coding path is the key's (JSONDecoder
                // gives an empty one for this error).
                XCTAssertTrue(ourContext.debugDescription.hasPrefix(theirContext.debugDescription),
                              "\(form.debugDescription): \(ourContext.debugDescription)")
                XCTAssertEqual(ourContext.codingPath.map(\.stringValue), ["d"], form.debugDescription)
            case (.success(let expected), .failure(let error)):
                XCTFail("\(form.debugDescription): JSONDecoder reads \(expected.timeIntervalSinceReferenceDate), "
                            + "ModelDecoder throws \(error)")
            case (.failure, .success(let got)):
                XCTFail("\(form.debugDescription): JSONDecoder refuses, ModelDecoder reads \(got.timeIntervalSinceReferenceDate)")
            }

            let foundationDate = try? theirs.get()
            let agrees: Bool
            switch (foundationDate, mapping) {
            case (nil, nil): agrees = true
            case (let a?, let b?): agrees = abs(a.timeIntervalSinceReferenceDate - b.timeIntervalSinceReferenceDate) < 1e-6
            default: agrees = false
            }
            XCTAssertEqual(agrees, !Self.mappingDiffers.contains(form),
                           "\(form.debugDescription): JSONDecoder \(Self.describe(foundationDate)), "
                               + "mapping path \(Self.describe(mapping))")
        }
        if ProcessInfo.processInfo.environment["MODELMAPPER_PRINT_ISO_TABLE"] != nil {
            print(table.joined(separator: "\n"))
        }
    }

    /// The forms of the issue, read (and not merely refused alike): the fraction is kept.
    func testFractionalSecondsOfTheIssue() throws {
        var decoder = ModelDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let configured = decoder
        func read(_ s: String) throws -> Date {
            let stamped: Stamped = try configured.decode(Stamped.self, from: Data(#"{"d":"\#(s)"}"#.utf8))
            return stamped.d
        }
        XCTAssertEqual(try read("2012-03-06T23:06:50Z"), Date(timeIntervalSince1970: 1_331_075_210))
        XCTAssertEqual(try read("2012-03-06T23:06:50.5+02:00"), Date(timeIntervalSince1970: 1_331_068_010.5))   // exact in binary
        XCTAssertEqual(try read("2012-03-06T23:06:50.123Z").timeIntervalSince1970, 1_331_075_210.123, accuracy: 1e-6)
        XCTAssertEqual(try read("2012-03-06T23:06:50.123456789Z").timeIntervalSince1970, 1_331_075_210.123_456_789,
                       accuracy: 1e-6)
        // Inside a model's Codable property too (nested containers, arrays).
        struct Log: Codable { var events: [Stamped] }
        let events = #"{"events":[{"d":"2012-03-06T23:06:50.25Z"},{"d":"2012-03-06T23:06:50Z"}]}"#
        let log = try decoder.decode(Log.self, from: Data(events.utf8))
        XCTAssertEqual(log.events.map(\.d.timeIntervalSince1970), [1_331_075_210.25, 1_331_075_210])
    }

    /// ModelEncoder's `.iso8601` writes what JSONEncoder's writes: no fraction, floored to the second,
    /// Julian before 1582-10-15, astronomical years, clamped far out.
    func testModelEncoderWritesISO8601AsJSONEncoder() throws {
        let seconds: [Double] = [
            0, 0.5, 0.9999999, 0.999_999_999_9, -0.5, -1e-7, -1, 1_331_075_210.123, 1_331_075_210.999_999_9,
            1_442_377_209, 1_442_377_209.75, 951_782_400, 4_107_542_399.5,
            -12_219_292_800, -12_219_292_800.5, -12_219_292_801, -12_220_156_800,
            -62_135_596_800, -62_135_596_800.5, -62_167_219_200, -62_198_755_200, -100_000_000_000,
            253_402_300_799, 253_402_300_799.999_9, 253_402_300_800, 1e12, 1e13, 1.6e13, -1e12, -1e13,
            .infinity, -.infinity, .greatestFiniteMagnitude,
        ]
        let theirs = JSONEncoder()
        theirs.dateEncodingStrategy = .iso8601
        var ours = ModelEncoder()
        ours.dateEncodingStrategy = .iso8601
        for s in seconds {
            let value = Stamped(d: Date(timeIntervalSince1970: s))
            let expected = String(decoding: try theirs.encode(value), as: UTF8.self)
            XCTAssertEqual(String(decoding: try ours.encode(value), as: UTF8.self), expected, "\(s)")
            XCTAssertEqual(String(decoding: try ours.encode([value.d]), as: UTF8.self),
                           String(decoding: try theirs.encode([value.d]), as: UTF8.self), "\(s)")
        }
        // Random instants of years 1...9999.
        var rng = SplitMix64(seed: 0x3902)
        for _ in 0..<2_000 {
            let s = Double(rng.next() % 315_000_000_000) + Double(rng.next() % 1_000_000) / 1e6
            let value = Stamped(d: Date(timeIntervalSince1970: s - 62_000_000_000))
            XCTAssertEqual(try ours.encode(value), try theirs.encode(value), "\(value.d.timeIntervalSince1970)")
        }
    }
}
