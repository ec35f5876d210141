import Foundation
import XCTest
@testable import ModelMapper

/// Tests for the hand-written date parsers (`DateParsing`) and formatters (`DateFormatting`).
/// Expected instants are hand-computed constants (cross-checked with `date -u -d ... +%s`) or come from
/// Foundation's DateFormatter / ISO8601DateFormatter / Calendar, which are used here only as oracles.
final class DateParsingTests: XCTestCase {

    // MARK: Helpers

    private func yy(_ s: String) -> Date? {
        Array(s.utf8).withUnsafeBytes { DateParsing.parseYYModel($0) }
    }

    private func iso(_ s: String) -> Date? {
        Array(s.utf8).withUnsafeBytes { DateParsing.parseISO8601($0) }
    }

    private func fmt(_ s: String, _ p: DateFormatPattern) -> Date? {
        Array(s.utf8).withUnsafeBytes { DateParsing.parseFormatted($0, format: p) }
    }

    private func pattern(_ s: String, file: StaticString = #filePath, line: UInt = #line) throws -> DateFormatPattern {
        try XCTUnwrap(DateFormatPattern(s), "pattern \(s) should compile", file: file, line: line)
    }

    private func posixFormatter(_ format: String) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.calendar = Calendar(identifier: .gregorian)
        f.dateFormat = format
        return f
    }

    private func assertInstant(_ d: Date?, _ expected: Double, accuracy: Double = 0, _ input: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        guard let d else {
            XCTFail("\(input) did not parse", file: file, line: line)
            return
        }
        if accuracy == 0 {
            XCTAssertEqual(d.timeIntervalSince1970, expected, "\(input)", file: file, line: line)
        } else {
            XCTAssertEqual(d.timeIntervalSince1970, expected, accuracy: accuracy, "\(input)", file: file, line: line)
        }
    }

    // 2014-01-20T12:24:48Z
    private let base = 1_390_220_688.0

    // MARK: YYModel formats

    func testAllThirteenYYModelFormats() {
        // (input, expected seconds since 1970, YYModel's DateFormatter pattern for the oracle check)
        let cases: [(String, Double, String)] = [
            ("2014-01-20", 1_390_176_000, "yyyy-MM-dd"),
            ("2014-01-20 12:24:48", base, "yyyy-MM-dd HH:mm:ss"),
            ("2014-01-20T12:24:48", base, "yyyy-MM-dd'T'HH:mm:ss"),
            ("2014-01-20 12:24:48.125", base + 0.125, "yyyy-MM-dd HH:mm:ss.SSS"),
            ("2014-01-20T12:24:48.500", base + 0.5, "yyyy-MM-dd'T'HH:mm:ss.SSS"),
            ("2014-01-20T12:24:48Z", base, "yyyy-MM-dd'T'HH:mm:ssZ"),
            ("2014-01-20T12:24:48+0800", base - 28_800, "yyyy-MM-dd'T'HH:mm:ssZ"),
            ("2014-01-20T12:24:48+12:00", base - 43_200, "yyyy-MM-dd'T'HH:mm:ssZ"),
            ("2014-01-20T12:24:48.000Z", base, "yyyy-MM-dd'T'HH:mm:ss.SSSZ"),
            ("2014-01-20T12:24:48.250+0800", base - 28_800 + 0.25, "yyyy-MM-dd'T'HH:mm:ss.SSSZ"),
            ("2014-01-20T12:24:48.750+12:00", base - 43_200 + 0.75, "yyyy-MM-dd'T'HH:mm:ss.SSSZ"),
            ("Fri Sep 04 00:12:21 +0800 2015", 1_441_296_741, "EEE MMM dd HH:mm:ss Z yyyy"),
            ("Fri Sep 04 00:12:21.375 +0800 2015", 1_441_296_741.375, "EEE MMM dd HH:mm:ss.SSS Z yyyy"),
        ]
        XCTAssertEqual(cases.count, 13)
        for (input, expected, oraclePattern) in cases {
            // Exact: every fraction used here is a binary fraction, so no rounding is involved.
            assertInstant(yy(input), expected, input)
            // Oracle: DateFormatter with en_US_POSIX and UTC (the zone-less cases are UTC by our decision).
            let oracle = posixFormatter(oraclePattern).date(from: input)
            XCTAssertNotNil(oracle, "oracle for \(input)")
            if let oracle {
                XCTAssertEqual(oracle.timeIntervalSince1970, expected, accuracy: 1e-3, "oracle for \(input)")
            }
        }
    }

    func testWeiboAndTwitterExamples() {
        assertInstant(yy("Wed Sep 16 12:20:09 +0800 2015"), 1_442_377_209, "weibo")
        assertInstant(yy("Thu Oct 10 23:45:01 +0000 2013"), 1_381_448_701, "twitter")
        assertInstant(yy("thu oct 10 23:45:01 +0000 2013"), 1_381_448_701, "lower case names")
        assertInstant(yy("THU OCT 10 23:45:01 +00:00 2013"), 1_381_448_701, "upper case, extended zone")
        assertInstant(yy("Thu Oct 10 23:45:01 Z 2013"), 1_381_448_701, "Z zone")
        assertInstant(yy("Thu Oct 10 23:45:01.123456 -0530 2013"), 1_381_448_701 + 19_800 + 0.123456,
                      accuracy: 1e-6, "fraction and negative zone")
        // Twitter strings are not ISO 8601.
        XCTAssertNil(iso("Thu Oct 10 23:45:01 +0000 2013"))
        for bad in ["Xyz Oct 10 23:45:01 +0000 2013", "Thu Foo 10 23:45:01 +0000 2013",
                    "Thu Oct 1 23:45:01 +0000 2013", "Thu Oct 10 23:45:01 2013", "Thu Oct 10 23:45:01 +0000 13",
                    "Thu Oct 10 23:45:01 +0000 20133", "Thu Oct 32 23:45:01 +0000 2013",
                    "Thu Oct 10 24:45:01 +0000 2013", "Thu  Oct 10 23:45:01 +0000 2013",
                    "Thu Oct 10 23:45 +0000 2013", "Thu Oct 10 23:45:01 +0000 2013 extra", "Thu"] {
            XCTAssertNil(yy(bad), bad)
        }
    }

    // MARK: Zones

    func testTimeZones() {
        let zones: [(String, Double)] = [
            ("Z", 0), ("z", 0), ("+00:00", 0), ("-00:00", 0), ("+0000", 0), ("+00", 0),
            ("+08:00", 28_800), ("+0800", 28_800), ("+08", 28_800),
            ("-05:30", -19_800), ("-0530", -19_800), ("-05", -18_000),
            ("+05:45", 20_700), ("+14:00", 50_400), ("+18:00", 64_800), ("-18:00", -64_800),
        ]
        for (zone, offset) in zones {
            let s = "2014-01-20T12:24:48" + zone
            assertInstant(yy(s), base - offset, s)
            assertInstant(iso(s), base - offset, s)
            let frac = "2014-01-20T12:24:48.5" + zone
            assertInstant(yy(frac), base - offset + 0.5, frac)
            assertInstant(iso(frac), base - offset + 0.5, frac)
        }
        // -05:30 hand check against `date -u -d "2014-01-20 12:24:48 -0530" +%s`.
        assertInstant(yy("2014-01-20 12:24:48-05:30"), 1_390_240_488, "-05:30")
        // YYModel mode also takes one space before the zone.
        assertInstant(yy("2014-01-20 12:24:48 +0800"), base - 28_800, "space before zone")
        XCTAssertNil(iso("2014-01-20 12:24:48 +0800"))

        for zone in ["+18:01", "+19:00", "+1900", "+19", "-24:00", "+08:60", "+0860", "+8:00", "+8", "+08:0",
                     "+080", "+08:", "+08:000", "+", "-", "08:00", "Z+08:00", "ZZ", "GMT", "UTC", "+08:00Z",
                     "\u{2212}08:00"] {
            let s = "2014-01-20T12:24:48" + zone
            XCTAssertNil(yy(s), s)
            XCTAssertNil(iso(s), s)
        }
    }

    func testZoneLessStringsAreUTC() {
        // Decision: no zone means UTC (YYModel used the device zone).
        assertInstant(yy("1970-01-01"), 0, "epoch date")
        assertInstant(yy("1970-01-01 00:00:00"), 0, "epoch")
        assertInstant(yy("1969-12-31T23:59:59"), -1, "before epoch")
        XCTAssertEqual(yy("2014-01-20T12:24:48"), yy("2014-01-20T12:24:48Z"))
    }

    // MARK: ISO 8601 strictness

    func testISO8601RequiresTimeAndZone() {
        XCTAssertNil(iso("2014-01-20"))
        XCTAssertNil(iso("2014-01-20T12:24:48"))
        XCTAssertNil(iso("2014-01-20T12:24:48.123"))
        XCTAssertNil(iso("2014-01-20T12:24Z"))
        assertInstant(iso("2014-01-20t12:24:48z"), base, "lower case t and z")
        assertInstant(iso("2014-01-20 12:24:48Z"), base, "space separator")
        assertInstant(iso("2014-01-20T12:24:48.125Z"), base + 0.125, "fraction")
        // Everything parseISO8601 accepts, parseYYModel accepts with the same result.
        for s in ["2014-01-20t12:24:48z", "2014-01-20 12:24:48Z", "2014-01-20T12:24:48.125-03:00",
                  "+10000-01-01T00:00:00Z", "-0001-12-31T00:00:00Z"] {
            XCTAssertNotNil(iso(s), s)
            XCTAssertEqual(iso(s), yy(s), s)
        }
    }

    // MARK: Calendar validation

    func testLeapYears() {
        assertInstant(yy("2000-02-29"), 951_782_400, "2000-02-29")
        assertInstant(iso("2000-02-29T00:00:00Z"), 951_782_400, "2000-02-29 iso")
        assertInstant(yy("Tue Feb 29 00:00:00 +0000 2000"), 951_782_400, "2000-02-29 twitter")
        XCTAssertNotNil(yy("2024-02-29"))
        XCTAssertNotNil(yy("2400-02-29"))
        XCTAssertNotNil(yy("1600-02-29"))
        XCTAssertNil(yy("1900-02-29"))
        XCTAssertNil(iso("1900-02-29T00:00:00Z"))
        XCTAssertNil(yy("Thu Feb 29 00:00:00 +0000 1900"))
        XCTAssertNil(yy("2023-02-29"))
        XCTAssertNil(yy("2023-02-29T12:00:00+08:00"))
        XCTAssertNil(yy("2100-02-29"))
        XCTAssertNil(yy("2000-02-30"))
        XCTAssertNotNil(yy("2023-02-28"))
        // 30-day months
        for m in ["04", "06", "09", "11"] {
            XCTAssertNotNil(yy("2015-\(m)-30"))
            XCTAssertNil(yy("2015-\(m)-31"), m)
        }
        for m in ["01", "03", "05", "07", "08", "10", "12"] {
            XCTAssertNotNil(yy("2015-\(m)-31"), m)
            XCTAssertNil(yy("2015-\(m)-32"), m)
        }
    }

    func testLeapSecondMapsToNextSecond() {
        // Decision: second 60 is accepted and means one second after :59.
        XCTAssertEqual(iso("2016-12-31T23:59:60Z"), iso("2017-01-01T00:00:00Z"))
        XCTAssertEqual(yy("2016-12-31 23:59:60"), yy("2017-01-01"))
        XCTAssertNil(yy("2016-12-31T23:59:61Z"))
    }

    func testInvalidInputs() {
        let invalid = [
            "", " ", "\n\t", "garbage", "null", "0", "1390220688", "2015", "2015-01", "2015-1-01", "2015-01-1",
            "15-01-01", "2015/01/01", "20150101", "20150101T000000Z", "2015-13-01", "2015-00-10", "2015-01-00",
            "2015-01-32", "2015-04-31", "2015-01-01T25:00:00Z", "2015-01-01T24:00:00Z", "2015-01-01T12:60:00Z",
            "2015-01-01T12:00:61Z", "2015-01-01T12:00Z", "2015-01-01T12:00:00.Z", "2015-01-01T12:00:00.",
            "2015-01-01T12:00:00,5Z", "2015-01-01X12:00:00Z", "2015-01-01T12:00:00Zjunk", "2015-01-01T1:00:00Z",
            "2015-01-01T12:0:00Z", "2015-01-01T12:00:0Z", "2015-01-01T12:00:00 +08:00 ", "2015-01-01junk",
            "2015-01-01  12:00:00", "+2015-01-01T00:00:00+", "+015-01-01T00:00:00Z", "+1234567890-01-01T00:00:00Z",
            "-1-01-01T00:00:00Z", "２０１５-01-01", "2015-01-01T12:00:00\u{0}", "\u{0}2015-01-01",
            "2015-01-01T12:00:00Z\u{0}", "Wed", "Wed Sep", "Wed Sep 16",
        ]
        for s in invalid {
            // "2015-01-01T12:00:00 +08:00 " is valid for YYModel after trimming; skip it there.
            if s != "2015-01-01T12:00:00 +08:00 " { XCTAssertNil(yy(s), "yy: \(s.debugDescription)") }
            XCTAssertNil(iso(s), "iso: \(s.debugDescription)")
        }
        // Invalid UTF-8 / arbitrary bytes.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x32, 0x30, 0x31, 0x35]
        bytes.withUnsafeBytes {
            XCTAssertNil(DateParsing.parseYYModel($0))
            XCTAssertNil(DateParsing.parseISO8601($0))
        }
    }

    func testTruncatedInputs() {
        let full = "2014-01-20T12:24:48.123+08:00"
        let yyValid: Set<Int> = [10, 19, 21, 22, 23, 26, 29]
        let isoValid: Set<Int> = [26, 29]
        let chars = Array(full)
        for n in 0...chars.count {
            let prefix = String(chars[0..<n])
            XCTAssertEqual(yy(prefix) != nil, yyValid.contains(n), "yy prefix \(prefix)")
            XCTAssertEqual(iso(prefix) != nil, isoValid.contains(n), "iso prefix \(prefix)")
        }
        let twitter = Array("Wed Sep 16 12:20:09.250 +0800 2015")
        for n in 0..<twitter.count {
            XCTAssertNil(yy(String(twitter[0..<n])), "twitter prefix \(n)")
        }
        assertInstant(yy(String(twitter)), 1_442_377_209.25, "full twitter")
    }

    func testNeverReadsPastCount() {
        // Buffers cut out of a longer valid string must be parsed on their own bytes only.
        let long = Array("2014-01-20T12:24:48.5+08:00".utf8)
        long.withUnsafeBytes { all in
            let cut = UnsafeRawBufferPointer(rebasing: all[0..<19])
            XCTAssertEqual(DateParsing.parseYYModel(cut)?.timeIntervalSince1970, base)
            XCTAssertNil(DateParsing.parseISO8601(cut))
            let cut2 = UnsafeRawBufferPointer(rebasing: all[0..<24])   // "...48.5+08" (hours-only zone)
            XCTAssertEqual(DateParsing.parseISO8601(cut2)?.timeIntervalSince1970, base - 28_800 + 0.5)
            for n in 0..<all.count {
                let p = UnsafeRawBufferPointer(rebasing: all[0..<n])
                _ = DateParsing.parseYYModel(p)
                _ = DateParsing.parseISO8601(p)
            }
        }
        // Exactly sized heap buffers (run under -sanitize=address to catch overreads).
        for s in ["2014-01-20", "2014-01-20T12:24:48+08", "Wed Sep 16 12:20:09 +0800 2015", "2014-01-20T12:24:48.",
                  "2014-01-20T12:24:48+08:", "Wed Sep 16 12:20:09 +0800 20", "+12345"] {
            let bytes = Array(s.utf8)
            let buf = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            defer { buf.deallocate() }
            buf.copyBytes(from: bytes)
            _ = DateParsing.parseYYModel(UnsafeRawBufferPointer(buf))
            _ = DateParsing.parseISO8601(UnsafeRawBufferPointer(buf))
        }
        XCTAssertNil(DateParsing.parseYYModel(UnsafeRawBufferPointer(start: nil, count: 0)))
        XCTAssertNil(DateParsing.parseISO8601(UnsafeRawBufferPointer(start: nil, count: 0)))
    }

    func testMutatedInputsNeverCrash() {
        var rng = SplitMix64(seed: 42)
        let seeds = ["2014-01-20T12:24:48.123+08:00", "Wed Sep 16 12:20:09 +0800 2015", "2014-01-20"]
        let alphabet = Array("0123456789-+:.TZ tz\u{0}\u{FF}SepWed".utf8)
        let p = try? pattern("EEE, dd MMM yyyy hh:mm:ss.SSS a xxx")
        for i in 0..<20_000 {
            var bytes = Array(seeds[i % seeds.count].utf8)
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let pos = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[pos] = alphabet.randomElement(using: &rng)!
                case 1: bytes.remove(at: pos); if bytes.isEmpty { bytes = [0x30] }
                default: bytes.insert(alphabet.randomElement(using: &rng)!, at: pos)
                }
            }
            bytes.withUnsafeBytes { b in
                if let d = DateParsing.parseISO8601(b) {
                    // Whatever ISO accepts, the YYModel parser accepts identically.
                    XCTAssertEqual(DateParsing.parseYYModel(b), d)
                } else {
                    _ = DateParsing.parseYYModel(b)
                }
                if let p { _ = DateParsing.parseFormatted(b, format: p) }
            }
        }
    }

    func testWhitespaceIsTrimmed() {
        assertInstant(yy("  2014-01-20T12:24:48Z\n"), base, "trimmed")
        assertInstant(yy("\t2014-01-20 \r\n"), 1_390_176_000, "trimmed date")
        assertInstant(iso(" 2014-01-20T12:24:48Z "), base, "iso trimmed")
        assertInstant(yy(" Wed Sep 16 12:20:09 +0800 2015 "), 1_442_377_209, "twitter trimmed")
        XCTAssertNil(yy("2014-01-20 T12:24:48Z"))
        XCTAssertNil(yy("2014 -01-20"))
    }

    // MARK: Fractions

    func testFractionPrecision() throws {
        let ref = try XCTUnwrap(iso("2015-01-01T00:00:00Z")).timeIntervalSinceReferenceDate
        let cases: [(String, Double)] = [
            ("5", 0.5), ("05", 0.05), ("123", 0.123), ("000001", 0.000001), ("999999", 0.999999),
            ("123456789", 0.123456789), ("1234567891234", 0.123456789), ("000000001", 0.000000001),
            ("0", 0), ("000000000000", 0),
        ]
        for (digits, value) in cases {
            let s = "2015-01-01T00:00:00.\(digits)Z"
            let d = try XCTUnwrap(iso(s), s)
            // Date's resolution near 2015 (relative to 2001) is about 6e-8 s.
            XCTAssertEqual(d.timeIntervalSinceReferenceDate - ref, value, accuracy: 1e-7, s)
            XCTAssertEqual(yy(s), d, s)
        }
        // Fractions keep ordering at microsecond steps.
        let a = try XCTUnwrap(iso("2015-01-01T00:00:00.000001Z"))
        let b = try XCTUnwrap(iso("2015-01-01T00:00:00.000002Z"))
        XCTAssertLessThan(a, b)
        // Sub-second part before 1970 is added to the (negative) whole second.
        assertInstant(iso("1969-12-31T23:59:59.25Z"), -0.75, "pre-epoch fraction")
    }

    // MARK: Calendar arithmetic

    func testCalendarArithmeticAgainstNaiveWalk() {
        // Walk day by day from -1000-01-01 to 10000-12-31 with plain month lengths.
        var days = DateParsing.daysFromCivil(-1000, 1, 1)
        XCTAssertEqual(DateParsing.daysFromCivil(1, 1, 1), -719_162)
        XCTAssertEqual(DateParsing.daysFromCivil(1970, 1, 1), 0)
        XCTAssertEqual(DateParsing.daysFromCivil(2001, 1, 1), 11_323)
        var failures = 0
        for y in -1000...10000 {
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
            for m in 1...12 {
                let len = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
                for d in 1...len {
                    if DateParsing.daysFromCivil(y, m, d) != days { failures += 1 }
                    let c = DateParsing.civilFromDays(days)
                    if c.year != y || c.month != m || c.day != d { failures += 1 }
                    if failures > 0 && failures < 5 { XCTFail("mismatch at \(y)-\(m)-\(d) (\(days))") }
                    days += 1
                }
            }
        }
        XCTAssertEqual(failures, 0)
    }

    func testCalendarArithmeticAgainstFoundation() {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        var rng = SplitMix64(seed: 7)
        // 1600...2400: Foundation's Gregorian calendar is Julian before 1582.
        let lo = DateParsing.daysFromCivil(1600, 1, 1), hi = DateParsing.daysFromCivil(2400, 12, 31)
        for _ in 0..<3_000 {
            let days = Int.random(in: lo...hi, using: &rng)
            let c = cal.dateComponents([.year, .month, .day, .weekday],
                                       from: Date(timeIntervalSince1970: Double(days) * 86_400))
            let mine = DateParsing.civilFromDays(days)
            XCTAssertEqual(mine.year, c.year)
            XCTAssertEqual(mine.month, c.month)
            XCTAssertEqual(mine.day, c.day)
            let comps = DateFormatting.UTCComponents(Date(timeIntervalSince1970: Double(days) * 86_400 + 1),
                                                     fractionDigits: 0)
            XCTAssertEqual(comps.weekday + 1, c.weekday)   // Foundation: 1 = Sunday
        }
    }

    // MARK: Twitter data set

    private func collectValues(forKey key: String, in json: Any, into out: inout [String]) {
        if let dict = json as? [String: Any] {
            for (k, v) in dict {
                if k == key, let s = v as? String { out.append(s) } else { collectValues(forKey: key, in: v, into: &out) }
            }
        } else if let array = json as? [Any] {
            for v in array { collectValues(forKey: key, in: v, into: &out) }
        }
    }

    func testEveryCreatedAtInTwitterJSON() throws {
        let json = try JSONSerialization.jsonObject(with: TestData.data("bench/twitter.json"))
        var values: [String] = []
        collectValues(forKey: "created_at", in: json, into: &values)
        XCTAssertGreaterThan(values.count, 300)
        let oracle = posixFormatter("EEE MMM dd HH:mm:ss Z yyyy")
        for s in values {
            let expected = try XCTUnwrap(oracle.date(from: s), "oracle failed on \(s)")
            let mine = try XCTUnwrap(yy(s), "did not parse \(s)")
            XCTAssertEqual(mine, expected, s)
            XCTAssertEqual(mine.timeIntervalSince1970, expected.timeIntervalSince1970, s)
        }
    }

    // MARK: ISO 8601 formatting

    func testISO8601FormattingExamples() {
        let cases: [(Double, String)] = [
            (0, "1970-01-01T00:00:00Z"),
            (base, "2014-01-20T12:24:48Z"),
            (base + 0.5, "2014-01-20T12:24:48.5Z"),
            (base + 0.125, "2014-01-20T12:24:48.125Z"),
            (base + 0.123456, "2014-01-20T12:24:48.123456Z"),
            (base + 0.0000004, "2014-01-20T12:24:48Z"),
            (base + 0.9999996, "2014-01-20T12:24:49Z"),
            (-0.5, "1969-12-31T23:59:59.5Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (951_782_400, "2000-02-29T00:00:00Z"),
            (253_402_300_799, "9999-12-31T23:59:59Z"),
            (253_402_300_800, "+10000-01-01T00:00:00Z"),
            (-62_135_596_800, "0001-01-01T00:00:00Z"),
            (-62_135_596_801, "0000-12-31T23:59:59Z"),
            (-62_167_219_200, "0000-01-01T00:00:00Z"),
            (-62_167_219_201, "-0001-12-31T23:59:59Z"),
        ]
        for (t, expected) in cases {
            let s = DateFormatting.iso8601String(Date(timeIntervalSince1970: t))
            XCTAssertEqual(s, expected)
            // and it parses back
            let back = iso(s)
            XCTAssertNotNil(back, s)
            if let back { XCTAssertEqual(back.timeIntervalSince1970, t, accuracy: 1e-6, s) }
        }
        // Foundation calls distantPast "0001-01-01" in its Gregorian calendar, which is Julian before 1582;
        // ISO 8601 uses the proleptic Gregorian calendar, where that day is 0000-12-30.
        XCTAssertEqual(DateFormatting.iso8601String(.distantPast), "0000-12-30T00:00:00Z")
        XCTAssertEqual(iso("0000-12-30T00:00:00Z"), .distantPast)
        XCTAssertEqual(DateFormatting.iso8601String(.distantFuture), "4001-01-01T00:00:00Z")
        // Appends, does not replace.
        var out = Array("x".utf8)
        DateFormatting.iso8601(Date(timeIntervalSince1970: 0), into: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "x1970-01-01T00:00:00Z")
        // Non-finite values never trap and still produce parseable text.
        XCTAssertEqual(DateFormatting.iso8601String(Date(timeIntervalSinceReferenceDate: .nan)), "1970-01-01T00:00:00Z")
        for t in [Double.infinity, -.infinity, 1e300, -1e300] {
            let s = DateFormatting.iso8601String(Date(timeIntervalSinceReferenceDate: t))
            XCTAssertNotNil(iso(s), s)
            XCTAssertTrue(s.hasPrefix(t > 0 ? "+" : "-"), s)
        }
    }

    func testISO8601RoundTripRandom() {
        var rng = SplitMix64(seed: 0x5EED)
        let oracle = ISO8601DateFormatter()
        oracle.timeZone = TimeZone(identifier: "UTC")
        oracle.formatOptions = [.withInternetDateTime]
        let lo: Int64 = -2_208_988_800          // 1900-01-01T00:00:00Z
        let hi: Int64 = 4_133_980_799           // 2100-12-31T23:59:59Z
        var maxError = 0.0
        for i in 0..<100_000 {
            let whole = Int64.random(in: lo...hi, using: &rng)
            let micros = Int.random(in: 0..<1_000_000, using: &rng)
            let d = Date(timeIntervalSince1970: Double(whole) + Double(micros) / 1e6)
            let s = DateFormatting.iso8601String(d)
            // The fraction written is exactly the microseconds, trailing zeros trimmed.
            var expectedFraction = ""
            if micros != 0 {
                var digits = String(micros)
                digits = String(repeating: "0", count: 6 - digits.count) + digits
                while digits.hasSuffix("0") { digits.removeLast() }
                expectedFraction = "." + digits
            }
            let head = String(s.prefix(19))
            XCTAssertEqual(s, head + expectedFraction + "Z")
            // The date/time part agrees with Foundation (checked on a tenth of the samples; it is slow).
            if i % 10 == 0 {
                XCTAssertEqual(head + "Z", oracle.string(from: Date(timeIntervalSince1970: Double(whole))))
            }
            guard let back = iso(s) else {
                XCTFail("no round trip for \(s)")
                continue
            }
            let err = abs(back.timeIntervalSince(d))
            maxError = max(maxError, err)
            XCTAssertLessThanOrEqual(err, 1e-6, s)
            // Writing the parsed value again reproduces the same text.
            XCTAssertEqual(DateFormatting.iso8601String(back), s)
            if i % 10 == 0 { XCTAssertEqual(yy(s), back) }
        }
        XCTAssertLessThan(maxError, 1e-6)
    }

    // MARK: Formatted patterns

    func testPatternCompilation() {
        for ok in ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm:ss.SSSZ", "EEE MMM dd HH:mm:ss Z yyyy", "M/d/yyyy h:mm a",
                   "yyyyMMddHHmmss", "dd.MM.yyyy HH:mm:ss.SSSSSSSSS xxx", "EEEE, MMMM d, yyyy", "''yyyy''",
                   "yyyy-MM-dd'T'HH:mm:ssXXX", "yyyy-MM-dd'T'HH:mm:ssZZZZZ", "'Day 'd' of 'MMMM yyyy", "HH:mm"] {
            XCTAssertNotNil(DateFormatPattern(ok), ok)
        }
        for bad in ["", "   ", "'literal only'", "yy-MM-dd", "YYYY-MM-dd", "yyyyy", "yyyy-MM-dd G", "hh:mm",
                    "HH:mm a", "'unterminated", "yyyy-MM-dd'T", "SSSSSSSSSS", "ZZZZ", "ZZZZZZ", "Q", "MMMMM",
                    "EEEEE", "dd-MM-yyyy 'x' q", "yyyy-MM-dd HH:mm:ss zzz", "D", "HHH"] {
            XCTAssertNil(DateFormatPattern(bad), bad)
        }
    }

    func testFormattedParsing() throws {
        let p1 = try pattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ")
        assertInstant(fmt("2014-01-20T12:24:48.250+0800", p1), base - 28_800 + 0.25, "SSSZ")
        assertInstant(fmt("2014-01-20T12:24:48.250+08:00", p1), base - 28_800 + 0.25, "Z accepts extended")
        assertInstant(fmt("2014-01-20T12:24:48.250Z", p1), base + 0.25, "Z accepts Z")
        XCTAssertNil(fmt("2014-01-20T12:24:48.25Z", p1))      // SSS means exactly 3 digits
        XCTAssertNil(fmt("2014-01-20T12:24:48Z", p1))
        XCTAssertNil(fmt("2014-01-20 12:24:48.250Z", p1))      // literal 'T' is exact

        let p2 = try pattern("M/d/yyyy h:mm:ss a")
        assertInstant(fmt("1/20/2014 12:24:48 PM", p2), base, "12 PM")
        assertInstant(fmt("01/20/2014 12:24:48 am", p2), base - 43_200, "12 AM is midnight")
        assertInstant(fmt("1/20/2014 1:00:00 pm", p2), 1_390_176_000 + 13 * 3600, "1 PM")
        XCTAssertNil(fmt("1/20/2014 13:24:48 PM", p2))
        XCTAssertNil(fmt("1/20/2014 0:24:48 AM", p2))
        XCTAssertNil(fmt("1/20/2014 12:24:48 XM", p2))
        XCTAssertNil(fmt("1/20/2014 12:24:48", p2))
        XCTAssertNil(fmt("123/20/2014 12:24:48 PM", p2))

        let p3 = try pattern("EEEE, MMMM d, yyyy 'at' HH:mm")
        assertInstant(fmt("Monday, January 20, 2014 at 12:24", p3), base - 48, "full names")
        assertInstant(fmt("monday, JANUARY 20, 2014 at 12:24", p3), base - 48, "names any case")
        XCTAssertNil(fmt("Mon, January 20, 2014 at 12:24", p3))
        XCTAssertNil(fmt("Monday, Janu 20, 2014 at 12:24", p3))

        let p4 = try pattern("EEE, dd MMM yyyy HH:mm:ss Z")      // RFC 1123
        assertInstant(fmt("Mon, 20 Jan 2014 12:24:48 +0000", p4), base, "rfc1123")
        assertInstant(fmt("Mon, 20 Jan 2014 20:24:48 +0800", p4), base, "rfc1123 +0800")
        XCTAssertNil(fmt("Mon, 20 Jan 2014 12:24:48", p4))

        XCTAssertNil(DateFormatPattern("''yy''yy-MM"))   // "yy" is unsupported
    }

    func testFormattedParsingDefaultsAndValidation() throws {
        let timeOnly = try pattern("HH:mm")
        assertInstant(fmt("12:24", timeOnly), 12 * 3600 + 24 * 60, "defaults to 1970-01-01 UTC")
        let monthYear = try pattern("MM/yyyy")
        assertInstant(fmt("02/2000", monthYear), 949_363_200, "day defaults to 1")
        let day = try pattern("yyyy-MM-dd")
        XCTAssertNil(fmt("2023-02-29", day))
        XCTAssertNotNil(fmt("2024-02-29", day))
        XCTAssertNil(fmt("2024-13-01", day))
        assertInstant(fmt("  2014-01-20 ", day), 1_390_176_000, "input is trimmed")
        let padded = try pattern(" yyyy-MM-dd ")
        assertInstant(fmt("2014-01-20", padded), 1_390_176_000, "pattern edge whitespace is ignored for parsing")
        let quoted = try pattern("'It''s' yyyy")
        assertInstant(fmt("It's 2014", quoted), 1_388_534_400, "quoted literal with quote")
        XCTAssertEqual(DateFormatting.string(Date(timeIntervalSince1970: 1_388_534_400), pattern: quoted), "It's 2014")
    }

    /// Random dates truncated to each pattern's precision survive format -> parse.
    func testFormattedRoundTrip() throws {
        // (pattern, precision in seconds: the date is floored to this before formatting)
        let cases: [(String, Double)] = [
            ("yyyy-MM-dd'T'HH:mm:ss.SSSZ", 0.001),
            ("yyyy-MM-dd HH:mm:ss", 1),
            ("dd/MM/yyyy", 86_400),
            ("EEE, dd MMM yyyy HH:mm:ss Z", 1),
            ("EEE MMM dd HH:mm:ss Z yyyy", 1),
            ("yyyyMMddHHmmss", 1),
            ("M/d/yyyy h:mm:ss a", 1),
            ("yyyy-MM-dd'T'HH:mm:ss.SSSSSSXXX", 0.000001),
            ("EEEE, MMMM d, yyyy 'at' hh:mm a", 60),
            ("yyyy-MM-dd'T'HH:mm:ss.Sxx", 0.1),
            ("H:m:s d.M.yyyy x", 1),
            ("yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSZZZZZ", 0.000001),
        ]
        var rng = SplitMix64(seed: 99)
        for (text, precision) in cases {
            let p = try pattern(text)
            for _ in 0..<5_000 {
                let whole = Double(Int64.random(in: -2_208_988_800...4_133_980_799, using: &rng))
                let micros = Double(Int.random(in: 0..<1_000_000, using: &rng))
                let exact = whole + micros / 1e6
                // Truncate to the pattern's precision.
                let truncated = precision >= 1
                    ? (whole / precision).rounded(.down) * precision
                    : whole + (micros / (precision * 1e6)).rounded(.down) * precision
                let d = Date(timeIntervalSince1970: truncated)
                let s = DateFormatting.string(d, pattern: p)
                guard let back = fmt(s, p) else {
                    XCTFail("\(text): \(s) did not parse back")
                    continue
                }
                if precision >= 1 {
                    XCTAssertEqual(back, d, "\(text): \(s)")
                } else {
                    XCTAssertEqual(back.timeIntervalSince(d), 0, accuracy: 1e-6, "\(text): \(s)")
                }
                // Formatting the parsed value reproduces the text (up to microseconds: a Double cannot
                // hold nanoseconds for these years).
                if p.fractionDigits <= 6 { XCTAssertEqual(DateFormatting.string(back, pattern: p), s, text) }
                // Formatting the untruncated date gives the same text when the pattern has no fraction
                // (floor to the second), i.e. truncation is what format does.
                if p.fractionDigits == 0 {
                    XCTAssertEqual(DateFormatting.string(Date(timeIntervalSince1970: exact), pattern: p), s, text)
                }
            }
        }
    }

    /// Our writer and parser agree with DateFormatter (en_US_POSIX, UTC) on whole-second dates.
    func testFormattedAgreesWithDateFormatter() throws {
        let patterns = [
            "yyyy-MM-dd HH:mm:ss", "EEE, dd MMM yyyy HH:mm:ss Z", "EEE MMM dd HH:mm:ss Z yyyy",
            "M/d/yyyy h:mm:ss a", "EEEE, MMMM d, yyyy 'at' hh:mm a", "yyyy-MM-dd'T'HH:mm:ssXXX",
            "yyyy-MM-dd'T'HH:mm:ssZZZZZ", "yyyy-MM-dd'T'HH:mm:ssxx", "yyyy-MM-dd'T'HH:mm:ss.SSSZ",
        ]
        var rng = SplitMix64(seed: 2024)
        for text in patterns {
            let p = try pattern(text)
            let oracle = posixFormatter(text)
            for _ in 0..<500 {
                let d = Date(timeIntervalSince1970: Double(Int64.random(in: -2_208_988_800...4_133_980_799, using: &rng)))
                let mine = DateFormatting.string(d, pattern: p)
                XCTAssertEqual(mine, oracle.string(from: d), text)
                let parsed = fmt(mine, p)
                XCTAssertNotNil(parsed, "\(text): \(mine)")
                XCTAssertEqual(parsed, oracle.date(from: mine), "oracle parse \(mine)")
                if text.contains("ss") { XCTAssertEqual(parsed, d, "\(text): \(mine)") }
            }
        }
    }
}
