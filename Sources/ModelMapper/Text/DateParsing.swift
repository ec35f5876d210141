// Unsafe code: the parsers read date text through `UnsafeRawBufferPointer` subscripts, which are not
// bounds-checked in optimized builds.
//
// Invariants: every read is at an index in `0..<b.count`: a parser works on a range `start..<end` with
// `0 <= start <= end <= b.count`, and reads `b[i]` only after checking `i < end` (`end - i >= n` before n
// bytes). The buffer is only read, never kept past the call. Asserted where a range enters a parser and where
// fixed-width fields are read.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Hand-written date parsing
//
// Everything here works on raw UTF-8 bytes (`UnsafeRawBufferPointer`), reads only indices `0..<count`,
// allocates nothing and never touches DateFormatter, Calendar or TimeZone. Calendar arithmetic is the
// proleptic Gregorian calendar computed with integers (`daysFromCivil` / `civilFromDays` below).
//
// Decisions (shared by all parsers in this file):
// * A string WITHOUT a zone designator is UTC. YYModel interpreted it in the device's current time zone,
//   which made the same JSON decode to different instants on different machines (a known complaint).
// * Leading and trailing ASCII whitespace (space, \t, \n, \v, \f, \r) is ignored.
// * Ranges are validated: month 1...12, day 1...days-in-month (leap years per Gregorian rules), hour 0...23
//   (24:00 is rejected), minute 0...59, second 0...60. Second 60 (a leap second) is accepted and, because
//   `Date` cannot represent leap seconds, means the instant one second after :59, i.e. :00 of the next
//   minute ("23:59:60Z" == next day "00:00:00Z").
// * Zone offsets: `Z`/`z`, `±HH:MM`, `±HHMM`, `±HH`; hours 0...18, minutes 0...59, |offset| <= 18:00.
//   "-00:00" is accepted as UTC.
// * Fractions: one or more digits after '.'; the first 9 digits are used (nanoseconds), further digits are
//   accepted and ignored (they are below `Date`'s resolution anyway).
// * Years: exactly four digits (0000...9999). The ISO 8601 expanded form, a sign followed by 4...9 digits
//   ("+10000-01-01", "-0001-12-31"), is also accepted so that everything `DateFormatting.iso8601` writes
//   parses back. Year 0000 is 1 BC (astronomical numbering, as in ISO 8601).
// * The result is built as `Date(timeIntervalSinceReferenceDate: wholeSeconds + fraction)`. This is the
//   same instant as `Date(timeIntervalSince1970:)` but keeps more sub-second precision, because `Date`
//   stores its value relative to 2001 and going through 1970 would round twice.
enum DateParsing {

    // MARK: Entry points

    /// Every format YYModel's `YYNSDateFromString` accepts, interpreted without the device time zone:
    ///
    ///     yyyy-MM-dd                        2014-01-20                 (midnight UTC)
    ///     yyyy-MM-dd HH:mm:ss               2014-01-20 12:24:48        (UTC)
    ///     yyyy-MM-dd'T'HH:mm:ss             2014-01-20T12:24:48        (UTC)
    ///     ... with .SSS (1+ digits)         2014-01-20T12:24:48.123
    ///     ... with a zone                   2014-01-20T12:24:48Z / +0800 / +08:00 / +08 / -05:30
    ///     ... with fraction and zone        2014-01-20T12:24:48.000+08:00
    ///     EEE MMM dd HH:mm:ss Z yyyy        Wed Sep 16 12:20:09 +0800 2015    (Twitter, Weibo)
    ///     EEE MMM dd HH:mm:ss.SSS Z yyyy    Wed Sep 16 12:20:09.000 +0800 2015
    ///
    /// A superset of `parseISO8601`: additionally date-only strings, strings without a zone (UTC), a single
    /// space between the time and the zone ("2014-01-20 12:24:48 +0800"), and the Twitter format (weekday
    /// and month names in English, any letter case; the weekday is checked to be a weekday name but is not
    /// required to agree with the date, as with DateFormatter).
    static func parseYYModel(_ b: UnsafeRawBufferPointer) -> Date? {
        var lo = 0
        var hi = b.count
        trim(b, &lo, &hi)
        guard lo < hi else { return nil }
        let c = b[lo]
        if c &- 0x30 < 10 || c == 0x2B || c == 0x2D {
            return parseNumeric(b, lo, hi, .yyModel)
        }
        return parseTwitter(b, lo, hi)
    }

    /// The two readings of ISO 8601 date-times: one grammar (`parseNumeric`), two sets of field rules.
    enum ISO8601Dialect: Sendable {
        /// ``DateStrategy/iso8601`` (the mapping path): RFC 3339 / ISO 8601 internet date-time, fields checked.
        case mapping
        /// `JSONDecoder.DateDecodingStrategy.iso8601` as this toolchain's JSONDecoder reads it
        /// (`Date.ISO8601FormatStyle().parse`), for ``ModelDecoder``'s `dateDecodingStrategy`.
        case jsonDecoder
    }

    /// ISO 8601 date-time, `yyyy-MM-dd'T'HH:mm:ss[.f]zone`, with a REQUIRED time and zone; date-only strings
    /// and strings without a zone return nil in both dialects. A fraction of 1...9 digits is read in both.
    ///
    /// `.mapping` (RFC 3339 plus a little): surrounding ASCII whitespace ignored; 4-digit years or the
    /// expanded `±YYYYY` form; 2-digit fields, each in its range (second 60 is a leap second); `T`, `t` or one
    /// space before the time; a fraction of any length (digits past the 9th ignored); zone `Z`, `z`,
    /// `±HH:MM`, `±HHMM`, `±HH` (at most 18:00); nothing after the zone; proleptic Gregorian calendar.
    ///
    /// `.jsonDecoder` (JSONDecoder's rules, quirks included, so that ModelDecoder is a drop-in): no leading
    /// whitespace; fields of 1...10 digits; month 1...12, day 1...31, year <= 506714; hour, minute and second
    /// unchecked and carried over (`24:00:00` is the next day, `02-30` is March 1st or 2nd); only `T`; a
    /// fraction of at most 9 digits; zone `Z`, `z`, `GMT`/`UTC` (any case, alone or before an offset),
    /// `±H[H][[:]M[M][[:]S[S]]]` with minutes and seconds unchecked, at most 18:00:00 in all; ANY bytes after
    /// the zone ignored; Julian calendar before 1582-10-15, and the instant rounded as Foundation's calendar
    /// computes it (see `makeFoundationDate`).
    static func parseISO8601(_ b: UnsafeRawBufferPointer, _ dialect: ISO8601Dialect = .mapping) -> Date? {
        var lo = 0
        var hi = b.count
        switch dialect {
        case .mapping:
            trim(b, &lo, &hi)
            guard lo < hi else { return nil }
            return parseNumeric(b, lo, hi, .iso8601)
        case .jsonDecoder:
            guard lo < hi else { return nil }
            return parseNumeric(b, lo, hi, .jsonDecoder)
        }
    }

    /// Parses `b` with a compiled Unicode date pattern (see `DateFormatPattern`). The input is trimmed of
    /// ASCII whitespace (the pattern's own leading/trailing whitespace literals are ignored for parsing).
    /// Fields missing from the pattern default to 1970-01-01 00:00:00. The zone: the pattern's zone field
    /// when it has one, else `timeZone` (its offset at that wall-clock time, daylight saving included),
    /// else UTC.
    static func parseFormatted(_ b: UnsafeRawBufferPointer, format: DateFormatPattern, timeZone: TimeZone? = nil) -> Date? {
        var lo = 0
        var hi = b.count
        trim(b, &lo, &hi)
        var i = lo
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, nanos = 0, offset = 0
        var hour12 = -1
        var isPM = false
        var hasZone = false
        for field in format.parseFields {
            switch field {
            case .literal(let bytes):
                guard hi - i >= bytes.count else { return nil }
                for k in 0..<bytes.count where b[i + k] != bytes[k] { return nil }
                i += bytes.count
            case .year:
                guard let v = digits(b, &i, hi, min: 4, max: 4) else { return nil }
                year = v
            case .month(let width):
                guard let v = digits(b, &i, hi, min: width, max: 2) else { return nil }
                month = v
            case .monthName(let full):
                guard let v = matchName(b, &i, hi, full ? monthNames : monthAbbreviations) else { return nil }
                month = v + 1
            case .day(let width):
                guard let v = digits(b, &i, hi, min: width, max: 2) else { return nil }
                day = v
            case .hour(let width):
                guard let v = digits(b, &i, hi, min: width, max: 2) else { return nil }
                hour = v
            case .hour12(let width):
                guard let v = digits(b, &i, hi, min: width, max: 2) else { return nil }
                hour12 = v
            case .amPm:
                guard hi - i >= 2, b[i + 1] | 0x20 == 0x6D else { return nil }     // 'm'
                switch b[i] | 0x20 {
                case 0x61: isPM = false                                            // 'a'
                case 0x70: isPM = true                                             // 'p'
                default: return nil
                }
                i += 2
            case .minute(let width):
                guard let v = digits(b, &i, hi, min: width, max: 2) else { return nil }
                minute = v
            case .second(let width):
                guard let v = digits(b, &i, hi, min: width, max: 2) else { return nil }
                second = v
            case .fraction(let n):
                guard var v = digits(b, &i, hi, min: n, max: n) else { return nil }
                for _ in n..<9 { v *= 10 }
                nanos = v
            case .weekday(let full):
                guard matchName(b, &i, hi, full ? weekdayNames : weekdayAbbreviations) != nil else { return nil }
            case .zone:
                guard let z = parseZone(b, &i, hi) else { return nil }
                offset = z
                hasZone = true
            }
        }
        guard i == hi else { return nil }
        if hour12 >= 0 {
            guard hour12 >= 1 && hour12 <= 12 else { return nil }
            hour = hour12 % 12 + (isPM ? 12 : 0)
        }
        if !hasZone, let timeZone {
            guard let wallClock = makeDate(year, month, day, hour, minute, second, 0, 0) else { return nil }
            offset = zoneOffset(timeZone, atWallClock: wallClock)
        }
        return makeDate(year, month, day, hour, minute, second, nanos, offset)
    }

    /// The offset east of UTC that `timeZone` has at a wall-clock time (given as if it were UTC), as
    /// DateFormatter reads it: of the offsets a day before and a day after (the two sides of a
    /// daylight-saving change), the one whose instant has it; for a time repeated by the change, the later
    /// instant; for a time skipped by it, the offset before.
    static func zoneOffset(_ timeZone: TimeZone, atWallClock wallClock: Date) -> Int {
        let before = timeZone.secondsFromGMT(for: wallClock.addingTimeInterval(-86_400))
        let after = timeZone.secondsFromGMT(for: wallClock.addingTimeInterval(86_400))
        func holds(_ offset: Int) -> Bool { timeZone.secondsFromGMT(for: wallClock.addingTimeInterval(Double(-offset))) == offset }
        let valid = [before, after].filter(holds)
        return valid.min() ?? before      // the smaller offset is the later instant
    }

    // MARK: Fixed formats

    /// The rules `parseNumeric` applies: YYModel's (`parseYYModel`) or one of the two ISO 8601 dialects.
    private enum NumericRules {
        case yyModel, iso8601, jsonDecoder
    }

    /// `yyyy-MM-dd[(T|t| )HH:mm:ss[.f+][[ ]zone]]` under `.yyModel`; the ISO rules require the time and the
    /// zone, allow no space before the zone, and `.jsonDecoder` changes the fields as `parseISO8601` says.
    @inline(__always)
    private static func parseNumeric(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int, _ rules: NumericRules) -> Date? {
        assert(0 <= start && start <= end && end <= b.count, "date text range outside its buffer")
        let foundation = rules == .jsonDecoder
        let iso = rules != .yyModel
        /// A date or time field: exactly two digits, or JSONDecoder's 1...10.
        @inline(__always) func field(_ i: inout Int) -> Int? {
            foundation ? digits(b, &i, end, min: 1, max: 10) : twoDigits(b, &i, end)
        }
        var i = start
        guard let year = foundation ? digits(b, &i, end, min: 1, max: 10) : parseYear(b, &i, end),
              expect(b, &i, end, 0x2D),                     // '-'
              let month = field(&i),
              expect(b, &i, end, 0x2D),
              let day = field(&i)
        else { return nil }
        if i == end {
            return iso ? nil : makeDate(year, month, day, 0, 0, 0, 0, 0)
        }
        let sep = b[i]
        guard sep == 0x54 || (!foundation && (sep == 0x74 || sep == 0x20)) else { return nil }   // 'T' 't' ' '
        i += 1
        guard let hour = field(&i),
              expect(b, &i, end, 0x3A),                     // ':'
              let minute = field(&i),
              expect(b, &i, end, 0x3A),
              let second = field(&i)
        else { return nil }
        var nanos = 0
        if i < end && b[i] == 0x2E {                        // '.'
            i += 1
            if foundation {
                let first = i
                guard let n = digits(b, &i, end, min: 1, max: 10), i - first <= 9 else { return nil }
                nanos = n &* powersOfTen[9 - (i - first)]
            } else {
                guard let n = parseFraction(b, &i, end) else { return nil }
                nanos = n
            }
        }
        if foundation {
            // Whatever follows the zone is ignored, as JSONDecoder ignores it.
            guard let offset = parseFoundationZone(b, &i, end) else { return nil }
            return makeFoundationDate(year, month, day, hour, minute, second, nanos, offset)
        }
        var offset = 0
        if i == end {
            if iso { return nil }
        } else {
            if !iso && b[i] == 0x20 { i += 1 }
            guard let z = parseZone(b, &i, end), i == end else { return nil }
            offset = z
        }
        return makeDate(year, month, day, hour, minute, second, nanos, offset)
    }

    private static let powersOfTen = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    /// `EEE MMM dd HH:mm:ss[.f+] zone yyyy`, e.g. "Wed Sep 16 12:20:09 +0800 2015".
    private static func parseTwitter(_ b: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> Date? {
        assert(0 <= start && start <= end && end <= b.count, "date text range outside its buffer")
        var i = start
        guard end - i >= 3, weekday3(b, i) != nil else { return nil }
        i += 3
        guard expect(b, &i, end, 0x20), end - i >= 3, let month = month3(b, i) else { return nil }
        i += 3
        guard expect(b, &i, end, 0x20),
              let day = twoDigits(b, &i, end),
              expect(b, &i, end, 0x20),
              let hour = twoDigits(b, &i, end),
              expect(b, &i, end, 0x3A),
              let minute = twoDigits(b, &i, end),
              expect(b, &i, end, 0x3A),
              let second = twoDigits(b, &i, end)
        else { return nil }
        var nanos = 0
        if i < end && b[i] == 0x2E {
            i += 1
            guard let n = parseFraction(b, &i, end) else { return nil }
            nanos = n
        }
        guard expect(b, &i, end, 0x20),
              let offset = parseZone(b, &i, end),
              expect(b, &i, end, 0x20),
              let year = digits(b, &i, end, min: 4, max: 4),
              i == end
        else { return nil }
        return makeDate(year, month, day, hour, minute, second, nanos, offset)
    }

    // MARK: Building the Date

    /// Validates the fields and builds the instant. `offset` is the zone's offset east of UTC in seconds.
    @inline(__always)
    static func makeDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
                         _ nanos: Int, _ offset: Int) -> Date? {
        guard month >= 1 && month <= 12,
              day >= 1 && day <= daysInMonth(year, month),
              hour >= 0 && hour <= 23,
              minute >= 0 && minute <= 59,
              second >= 0 && second <= 60
        else { return nil }
        let days = daysFromCivil(year, month, day)
        let secondsSinceReference = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
            - secondsFrom1970To2001
        var t = Double(secondsSinceReference)
        if nanos != 0 { t += Double(nanos) / 1e9 }
        return Date(timeIntervalSinceReferenceDate: t)
    }

    /// The instant JSONDecoder's `.iso8601` gives for these fields: `Calendar(identifier: .iso8601)` of
    /// swift-foundation, i.e. the Gregorian calendar from 1582-10-15 and the Julian calendar before, with
    /// hour, minute and second carried over whatever their values, the fields summed in `Double` in its order
    /// (so that the result is the same `Double`, rounding included). Nil unless month is 1...12, day 1...31,
    /// year <= 506714 and hour, minute and second within `Int32` (Foundation's limits); `offset` is within
    /// ±18:00 (`parseFoundationZone`).
    static func makeFoundationDate(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
                                   _ nanos: Int, _ offset: Int) -> Date? {
        guard month >= 1 && month <= 12, day >= 1 && day <= 31, year <= 506_714,
              hour <= Int(Int32.max), minute <= Int(Int32.max), second <= Int(Int32.max)
        else { return nil }
        var julianDay = julianDayNumber(year, month, day, julianCalendar: false)
        if julianDay < julianDayOfGregorianStart {
            julianDay = julianDayNumber(year, month, day, julianCalendar: true)
        }
        var secondsInDay = Double(hour) * 3_600
        secondsInDay += Double(minute) * 60
        secondsInDay += Double(second)
        secondsInDay += Double(nanos) / 1e9
        var t = (Double(julianDay) - 2_451_910.5) * 86_400    // noon of the day, since 2001
        t -= 43_200                                          // its midnight
        t += secondsInDay
        t -= Double(offset)
        return Date(timeIntervalSinceReferenceDate: t)
    }

    /// Julian day number (noon-based) of 1582-10-15, the first day of the Gregorian calendar.
    static let julianDayOfGregorianStart = 2_299_161

    /// Julian day number of a day of the Gregorian or the Julian calendar (year >= 0, month 1...12, day
    /// 1...31 and carried over), by Richards' algorithm (Explanatory Supplement to the Astronomical Almanac,
    /// ch. 15), as swift-foundation computes it.
    static func julianDayNumber(_ year: Int, _ month: Int, _ day: Int, julianCalendar: Bool) -> Int {
        let h = month - 2
        let g = year + 4_716 - (12 - h) / 12
        let f = (h - 1 + 12) % 12
        let e = (1_461 * g) / 4 + day - 1 - 1_401
        let j = e + (153 * f + 2) / 5
        return julianCalendar ? j : j - (3 * ((g + 184) / 100)) / 4 + 38
    }

    /// Inverse of `julianDayNumber`: the day of the Gregorian or Julian calendar (year, month 1...12, day)
    /// whose Julian day number is `julianDay`, as swift-foundation computes it (Richards' algorithm).
    static func dayOfJulianDayNumber(_ julianDay: Int, julianCalendar: Bool) -> (year: Int, month: Int, day: Int) {
        @inline(__always) func floorDivide(_ n: Int, _ d: Int) -> Int { n >= 0 ? n / d : (n + 1) / d - 1 }
        let f = julianCalendar ? julianDay + 1_401 : julianDay + 1_401 + (((4 * julianDay + 274_277) / 146_097) * 3) / 4 - 38
        let e = 4 * f + 3
        var g = e % 1_461
        if g < 0 { g += 1_461 }
        g /= 4
        let h = 5 * g + 2
        let day = floorDivide(h % 153, 5) + 1
        let month = (floorDivide(h, 153) + 2) % 12 + 1
        let year = floorDivide(e, 1_461) - 4_716 + (12 + 2 - month) / 12
        return (year, month, day)
    }

    /// Seconds between 1970-01-01T00:00:00Z and 2001-01-01T00:00:00Z (Foundation's reference date).
    static let secondsFrom1970To2001 = 978_307_200

    // MARK: Calendar arithmetic (proleptic Gregorian, UTC)

    @inline(__always)
    static func isLeapYear(_ y: Int) -> Bool {
        // `%` keeps the dividend's sign, so this is also right for years <= 0 (year 0 and -4 are leap).
        y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
    }

    @inline(__always)
    static func daysInMonth(_ y: Int, _ m: Int) -> Int {
        if m == 2 { return isLeapYear(y) ? 29 : 28 }
        return (m == 4 || m == 6 || m == 9 || m == 11) ? 30 : 31
    }

    /// Floor division for a positive divisor.
    @inline(__always)
    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b < 0) ? q - 1 : q
    }

    /// Days from 1970-01-01 to the given date (negative before). Month 1...12, day 1...31.
    ///
    /// Works with years that begin on March 1st, so the leap day is the last day of its year: the days
    /// before March-year `y` (counted from 0000-03-01) are `365 y` plus one per leap calendar year in
    /// `1...y`, and the day within a March-year follows from the month lengths 31,30,31,30,31 repeating,
    /// whose running total is `(153 m + 2) / 5` for m = 0 (March) ... 11 (February).
    @inline(__always)
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let m = month <= 2 ? month + 9 : month - 3
        let leapDays = floorDiv(y, 4) - floorDiv(y, 100) + floorDiv(y, 400)
        return 365 * y + leapDays + (153 * m + 2) / 5 + day - 1 - daysFromMarchYear0To1970
    }

    /// Days from 0000-03-01 to 1970-01-01.
    static let daysFromMarchYear0To1970 = 719_468

    /// Inverse of `daysFromCivil`.
    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + daysFromMarchYear0To1970          // days since 0000-03-01
        let cycle = floorDiv(z, 146_097)                 // 400-year cycles of 146097 days
        let dayOfCycle = z - cycle * 146_097             // 0...146096
        // Year within the cycle: 365 * y never exceeds the start of March-year y, so dayOfCycle / 365 is
        // an upper bound (off by at most 2); step down until the year's start is not after the day.
        var y = Swift.min(dayOfCycle / 365, 399)
        while 365 * y + y / 4 - y / 100 > dayOfCycle { y -= 1 }
        let dayOfYear = dayOfCycle - (365 * y + y / 4 - y / 100)   // 0...365, from March 1st
        let m = (5 * dayOfYear + 2) / 153                           // 0 = March ... 11 = February
        let day = dayOfYear - (153 * m + 2) / 5 + 1
        let month = m < 10 ? m + 3 : m - 9
        return (cycle * 400 + y + (month <= 2 ? 1 : 0), month, day)
    }

    // MARK: Byte-level helpers (all bounds-checked against `end`)

    @inline(__always)
    static func isSpace(_ c: UInt8) -> Bool {
        c == 0x20 || (c >= 0x09 && c <= 0x0D)
    }

    @inline(__always)
    static func trim(_ b: UnsafeRawBufferPointer, _ lo: inout Int, _ hi: inout Int) {
        assert(0 <= lo && lo <= hi && hi <= b.count, "date text range outside its buffer")
        while lo < hi && isSpace(b[lo]) { lo += 1 }
        while hi > lo && isSpace(b[hi - 1]) { hi -= 1 }
    }

    @inline(__always)
    static func expect(_ b: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int, _ c: UInt8) -> Bool {
        guard i < end && b[i] == c else { return false }
        i += 1
        return true
    }

    /// Exactly two ASCII digits; `i` is advanced only on success.
    @inline(__always)
    static func twoDigits(_ b: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int) -> Int? {
        guard end - i >= 2 else { return nil }
        let d0 = b[i] &- 0x30
        let d1 = b[i + 1] &- 0x30
        guard d0 < 10 && d1 < 10 else { return nil }
        i += 2
        return Int(d0) &* 10 &+ Int(d1)
    }

    /// `min...max` ASCII digits (greedy, at most `max` consumed); `max` <= 18.
    @inline(__always)
    static func digits(_ b: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int, min: Int, max: Int) -> Int? {
        var j = i
        var v = 0
        while j < end && j - i < max {
            let d = b[j] &- 0x30
            guard d < 10 else { break }
            v = v &* 10 &+ Int(d)
            j += 1
        }
        guard j - i >= min else { return nil }
        i = j
        return v
    }

    /// Four digits, or a sign followed by 4...9 digits (ISO 8601 expanded year).
    @inline(__always)
    static func parseYear(_ b: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int) -> Int? {
        guard i < end else { return nil }
        let c = b[i]
        if c == 0x2B || c == 0x2D {                          // '+' '-'
            var j = i + 1
            guard let v = digits(b, &j, end, min: 4, max: 9) else { return nil }
            if j < end && b[j] &- 0x30 < 10 { return nil }   // more than 9 digits
            i = j
            return c == 0x2D ? -v : v
        }
        var j = i
        guard let v = digits(b, &j, end, min: 4, max: 4) else { return nil }
        i = j
        return v
    }

    /// One or more digits after the decimal point, as nanoseconds (digits after the 9th are ignored).
    @inline(__always)
    static func parseFraction(_ b: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int) -> Int? {
        var n = 0
        var count = 0
        while i < end {
            let d = b[i] &- 0x30
            guard d < 10 else { break }
            if count < 9 { n = n &* 10 &+ Int(d) }
            count += 1
            i += 1
        }
        guard count > 0 else { return nil }
        while count < 9 { n &*= 10; count += 1 }
        return n
    }

    /// JSONDecoder's zone: `Z`, `z`; `GMT` or `UTC` (any case) alone or followed by `+`/`-` and an offset;
    /// `±H[H]`, then optionally `:`, `M[M]`, optionally `:`, `S[S]` (minutes and seconds not range-checked);
    /// at most 18:00:00 east or west. Returns the offset east of UTC in seconds; `i` is left after the zone.
    static func parseFoundationZone(_ b: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int) -> Int? {
        guard i < end else { return nil }
        let c = b[i]
        i += 1
        if c == 0x5A || c == 0x7A { return 0 }              // 'Z' 'z'
        let negative: Bool
        switch c | 0x20 {
        case 0x67, 0x75:                                    // 'g' (GMT), 'u' (UTC)
            let rest: (UInt8, UInt8) = c | 0x20 == 0x67 ? (0x6D, 0x74) : (0x74, 0x63)   // "mt", "tc"
            guard end - i >= 2, b[i] | 0x20 == rest.0, b[i + 1] | 0x20 == rest.1 else { return nil }
            i += 2
            guard i < end, b[i] == 0x2B || b[i] == 0x2D else { return 0 }
            negative = b[i] == 0x2D
            i += 1
        default:
            guard c == 0x2B || c == 0x2D else { return nil }   // '+' '-'
            negative = c == 0x2D
        }
        guard let hours = digits(b, &i, end, min: 1, max: 2) else { return nil }
        var total = hours * 3_600
        if i < end && (b[i] == 0x3A || b[i] &- 0x30 < 10) {
            if b[i] == 0x3A { i += 1 }
            guard let minutes = digits(b, &i, end, min: 1, max: 2) else { return nil }
            total += minutes * 60
            if i < end && b[i] == 0x3A { i += 1 }
            if let seconds = digits(b, &i, end, min: 1, max: 2) { total += seconds }
        }
        guard total <= 18 * 3_600 else { return nil }
        return negative ? -total : total
    }

    /// `Z`, `z`, `±HH`, `±HHMM`, `±HH:MM`; returns the offset east of UTC in seconds.
    @inline(__always)
    static func parseZone(_ b: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int) -> Int? {
        guard i < end else { return nil }
        let sign = b[i]
        if sign == 0x5A || sign == 0x7A { i += 1; return 0 }  // 'Z' 'z'
        guard sign == 0x2B || sign == 0x2D else { return nil }
        var j = i + 1
        guard let hh = twoDigits(b, &j, end) else { return nil }
        var mm = 0
        if j < end {
            if b[j] == 0x3A {                                 // ':'
                j += 1
                guard let m = twoDigits(b, &j, end) else { return nil }
                mm = m
            } else if let m = twoDigits(b, &j, end) {
                mm = m
            }
        }
        guard hh <= 18 && mm <= 59 else { return nil }
        let total = hh * 3_600 + mm * 60
        guard total <= 18 * 3_600 else { return nil }
        i = j
        return sign == 0x2D ? -total : total
    }

    @inline(__always)
    private static func tag(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 {
        UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    }

    /// Lower-cased three bytes at `i` (caller guarantees `i + 3 <= count`). OR-ing 0x20 maps only ASCII
    /// letters onto lower-case letters, so non-letters can never match a name.
    @inline(__always)
    private static func lowerTag(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt32 {
        assert(i >= 0 && i + 3 <= b.count, "three-letter name read past the date text")
        return tag(b[i] | 0x20, b[i + 1] | 0x20, b[i + 2] | 0x20)
    }

    /// English weekday abbreviation at `i` (any case): 0 = Sunday ... 6 = Saturday.
    @inline(__always)
    static func weekday3(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int? {
        switch lowerTag(b, i) {
        case tag(0x73, 0x75, 0x6E): return 0   // sun
        case tag(0x6D, 0x6F, 0x6E): return 1   // mon
        case tag(0x74, 0x75, 0x65): return 2   // tue
        case tag(0x77, 0x65, 0x64): return 3   // wed
        case tag(0x74, 0x68, 0x75): return 4   // thu
        case tag(0x66, 0x72, 0x69): return 5   // fri
        case tag(0x73, 0x61, 0x74): return 6   // sat
        default: return nil
        }
    }

    /// English month abbreviation at `i` (any case): 1 = January ... 12 = December.
    @inline(__always)
    static func month3(_ b: UnsafeRawBufferPointer, _ i: Int) -> Int? {
        switch lowerTag(b, i) {
        case tag(0x6A, 0x61, 0x6E): return 1   // jan
        case tag(0x66, 0x65, 0x62): return 2   // feb
        case tag(0x6D, 0x61, 0x72): return 3   // mar
        case tag(0x61, 0x70, 0x72): return 4   // apr
        case tag(0x6D, 0x61, 0x79): return 5   // may
        case tag(0x6A, 0x75, 0x6E): return 6   // jun
        case tag(0x6A, 0x75, 0x6C): return 7   // jul
        case tag(0x61, 0x75, 0x67): return 8   // aug
        case tag(0x73, 0x65, 0x70): return 9   // sep
        case tag(0x6F, 0x63, 0x74): return 10  // oct
        case tag(0x6E, 0x6F, 0x76): return 11  // nov
        case tag(0x64, 0x65, 0x63): return 12  // dec
        default: return nil
        }
    }

    static let monthAbbreviations: [StaticString] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    static let monthNames: [StaticString] = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
    static let weekdayAbbreviations: [StaticString] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let weekdayNames: [StaticString] = [
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
    ]

    /// Index of the first name in `names` found at `i`, compared ASCII case-insensitively.
    static func matchName(_ b: UnsafeRawBufferPointer, _ i: inout Int, _ end: Int, _ names: [StaticString]) -> Int? {
        for (index, name) in names.enumerated() {
            let n = name.utf8CodeUnitCount
            guard end - i >= n else { continue }
            let start = i
            let matches = name.withUTF8Buffer { p in
                for k in 0..<n where b[start + k] | 0x20 != p[k] | 0x20 { return false }
                return true
            }
            guard matches else { continue }
            i += n
            return index
        }
        return nil
    }
}

// MARK: - Compiled date patterns

/// A Unicode date pattern (the `DateFormatter.dateFormat` syntax), compiled once. Used by
/// `DateStrategy.formatted` for both parsing (`DateParsing.parseFormatted`) and writing
/// (`DateFormatting.format`). Always English names and the Gregorian calendar; a pattern without a zone
/// field means UTC, or the time zone the caller gives (`JSONTransformer.date(format:timeZone:)`), and
/// dates are written in UTC or in that zone.
///
/// Supported fields (anything else that is an ASCII letter makes `init` fail):
///
/// | field | meaning | parsing |
/// |---|---|---|
/// | `yyyy` | year | exactly 4 digits |
/// | `MM`, `M` | month number | exactly 2 / 1-2 digits |
/// | `MMM`, `MMMM` | month name, English ("Sep", "September") | any letter case |
/// | `dd`, `d` | day of month | exactly 2 / 1-2 digits |
/// | `HH`, `H` | hour 0-23 | exactly 2 / 1-2 digits |
/// | `hh`, `h` + `a` | hour 1-12 with AM/PM (one requires the other) | "AM"/"PM", any case |
/// | `mm`, `m`, `ss`, `s` | minute, second | exactly 2 / 1-2 digits |
/// | `S`...`SSSSSSSSS` | fraction of a second | exactly that many digits |
/// | `EEE`, `E`, `EE`, `EEEE` | weekday, English ("Wed", "Wednesday"); parsed and ignored | any case |
/// | `Z`, `ZZ`, `ZZZ`, `ZZZZZ`, `X`...`XXXXX`, `x`...`xxxxx` | zone offset | any of `Z`, `±HH`, `±HHMM`, `±HH:MM` |
/// | `'text'` | quoted literal (`''` is a single quote) | exact bytes |
/// | other characters | literal | exact bytes |
///
/// Writing in UTC: `Z`/`ZZ`/`ZZZ`/`xx`/`xxxx` -> "+0000", `ZZZZZ`/`X...` -> "Z", `x` -> "+00",
/// `xxx`/`xxxxx` -> "+00:00"; in another zone the same styles with its offset ("-0700", "-07:00", "-07";
/// `ZZZZZ`/`X...` write "-07:00"); `a` -> "AM"/"PM".
struct DateFormatPattern: Sendable, Hashable, CustomStringConvertible {
    enum Field: Sendable, Hashable {
        case literal([UInt8])
        case year
        case month(width: Int)
        case monthName(full: Bool)
        case day(width: Int)
        case hour(width: Int)
        case hour12(width: Int)
        case amPm
        case minute(width: Int)
        case second(width: Int)
        case fraction(digits: Int)
        case weekday(full: Bool)
        /// The text written for UTC ("+0000", "Z", "+00:00", "+00").
        case zone(utc: [UInt8])
    }

    /// The pattern as given.
    let pattern: String
    /// Fields in order, used for writing.
    let fields: [Field]
    /// `fields` without leading/trailing whitespace literals (parsing trims the input instead).
    let parseFields: [Field]
    /// Number of fraction digits written (the largest `S` run), 0 if none.
    let fractionDigits: Int

    var description: String { pattern }

    init?(_ pattern: String) {
        let p = Array(pattern.utf8)
        var fields: [Field] = []
        var literal: [UInt8] = []
        var hasHour12 = false, hasAmPm = false, hasField = false
        var fractionDigits = 0
        func flushLiteral() {
            if !literal.isEmpty { fields.append(.literal(literal)); literal = [] }
        }
        var i = 0
        while i < p.count {
            let c = p[i]
            if c == 0x27 {                                              // '
                if i + 1 < p.count && p[i + 1] == 0x27 {                // '' -> '
                    literal.append(0x27)
                    i += 2
                    continue
                }
                i += 1
                var closed = false
                while i < p.count {
                    if p[i] == 0x27 {
                        if i + 1 < p.count && p[i + 1] == 0x27 { literal.append(0x27); i += 2; continue }
                        closed = true
                        i += 1
                        break
                    }
                    literal.append(p[i])
                    i += 1
                }
                guard closed else { return nil }
                continue
            }
            let isLetter = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            guard isLetter else {
                literal.append(c)
                i += 1
                continue
            }
            var n = 1
            while i + n < p.count && p[i + n] == c { n += 1 }
            i += n
            let field: Field
            switch (c, n) {
            case (0x79, 4): field = .year                                        // y
            case (0x4D, 1...2): field = .month(width: n)                         // M
            case (0x4D, 3...4): field = .monthName(full: n == 4)
            case (0x64, 1...2): field = .day(width: n)                           // d
            case (0x48, 1...2): field = .hour(width: n)                          // H
            case (0x68, 1...2): field = .hour12(width: n); hasHour12 = true      // h
            case (0x61, 1...3): field = .amPm; hasAmPm = true                    // a
            case (0x6D, 1...2): field = .minute(width: n)                        // m
            case (0x73, 1...2): field = .second(width: n)                        // s
            case (0x53, 1...9):                                                  // S
                field = .fraction(digits: n)
                fractionDigits = Swift.max(fractionDigits, n)
            case (0x45, 1...4): field = .weekday(full: n == 4)                   // E
            case (0x5A, 1...3): field = .zone(utc: Array("+0000".utf8))          // Z
            case (0x5A, 5): field = .zone(utc: [0x5A])
            case (0x58, 1...5): field = .zone(utc: [0x5A])                       // X
            case (0x78, 1): field = .zone(utc: Array("+00".utf8))                // x
            case (0x78, 2), (0x78, 4): field = .zone(utc: Array("+0000".utf8))
            case (0x78, 3), (0x78, 5): field = .zone(utc: Array("+00:00".utf8))
            default: return nil
            }
            flushLiteral()
            fields.append(field)
            hasField = true
        }
        flushLiteral()
        guard hasField, hasHour12 == hasAmPm else { return nil }

        var parseFields = fields
        if case .literal(let first)? = parseFields.first {
            let rest = Array(first.drop(while: DateParsing.isSpace))
            if rest.isEmpty { parseFields.removeFirst() } else { parseFields[0] = .literal(rest) }
        }
        if case .literal(let last)? = parseFields.last {
            var rest = last
            while let b = rest.last, DateParsing.isSpace(b) { rest.removeLast() }
            if rest.isEmpty { parseFields.removeLast() } else { parseFields[parseFields.count - 1] = .literal(rest) }
        }
        self.pattern = pattern
        self.fields = fields
        self.parseFields = parseFields
        self.fractionDigits = fractionDigits
    }
}
