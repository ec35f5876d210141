// Unsafe code: `iso8601(_:into:)` writes its text into a 32-byte stack buffer through
// `withUnsafeMutableBytes(of:)` and appends the written prefix to `out`; nothing else here touches raw memory.
//
// Invariants: the pointer is used only inside that call; every write lands in `0..<32` (the longest text,
// `yyyy-MM-ddTHH:mm:ss.ffffffZ`, is 27 bytes: the year is 0...9999 on this path, every other field two
// digits, the fraction six), which the two-digit writes and the final length assert.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Hand-written date formatting (UTC)
//
// Counterpart of `DateParsing`: integer calendar arithmetic, no DateFormatter / Calendar / TimeZone.
//
// Decisions:
// * Always UTC.
// * ISO 8601 output is `yyyy-MM-dd'T'HH:mm:ss[.f]Z`. The fraction is the date rounded to the nearest
//   microsecond (a carry rolls into the seconds), written with up to 6 digits, trailing zeros removed, and
//   omitted when it is zero. `Date` is a Double, so microseconds are as fine as is meaningful for present-day
//   dates (its resolution near 2100 is about 0.5 µs); `DateParsing.parseISO8601(iso8601(d))` is within
//   1 µs of `d` for years 1900...2100 (tested), and a string with <= 6 fraction digits written back out is
//   reproduced exactly.
// * Years 0000...9999 use four digits. Outside that range the ISO 8601 expanded form is written: a sign and
//   at least four digits ("+10000-01-01T00:00:00Z", "-0001-12-31T00:00:00Z"), which `parseISO8601` reads back.
// * Non-finite dates never trap: NaN is written as 1970-01-01T00:00:00Z and values beyond ±1e15 seconds
//   (about ±31.7 million years), including ±infinity, are clamped to that bound.
// * `format(_:pattern:timeZone:into:)` writes the fields of a `DateFormatPattern` in UTC (or a zone given). With `S...` fields the date
//   is rounded to the nearest 10^-n second (n = the longest `S` run); without them it is truncated (floored)
//   to the second, as DateFormatter does, so `parseFormatted(format(d))` is `d` at the pattern's precision.
enum DateFormatting {

    /// Appends `yyyy-MM-dd'T'HH:mm:ss[.ffffff]Z` (UTC) to `out`.
    static func iso8601(_ date: Date, into out: inout [UInt8]) {
        let c = UTCComponents(date, fractionDigits: 6)
        guard c.year >= 0 && c.year <= 9_999 else {
            iso8601Slow(c, into: &out)
            return
        }
        // Fast path: fill a 32-byte stack buffer, then append it in one go.
        var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { p in
            @inline(__always) func put2(_ v: Int, _ at: Int) {
                assert((0...99).contains(v) && at >= 0 && at + 1 < p.count, "a two-digit field outside the buffer")
                p[at] = UInt8(truncatingIfNeeded: 0x30 + v / 10)
                p[at + 1] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
            }
            put2(c.year / 100, 0)
            put2(c.year % 100, 2)
            p[4] = 0x2D
            put2(c.month, 5)
            p[7] = 0x2D
            put2(c.day, 8)
            p[10] = 0x54                                   // 'T'
            put2(c.hour, 11)
            p[13] = 0x3A
            put2(c.minute, 14)
            p[16] = 0x3A
            put2(c.second, 17)
            var n = 19
            if c.fraction != 0 {
                p[19] = 0x2E                               // '.'
                assert(c.fraction < 1_000_000, "a fraction of more than six digits")
                var v = c.fraction                         // 1...999999, six digits
                var k = 25
                while k > 19 { p[k] = UInt8(truncatingIfNeeded: 0x30 + v % 10); v /= 10; k -= 1 }
                n = 26
                while p[n - 1] == 0x30 { n -= 1 }          // trim trailing zeros (at least one digit is non-zero)
            }
            assert(n >= 19 && n + 1 <= p.count, "the ISO 8601 text outruns its buffer")
            p[n] = 0x5A                                    // 'Z'
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: p[0..<(n + 1)]))
        }
    }

    /// Any year, using the expanded representation outside 0000...9999.
    private static func iso8601Slow(_ c: UTCComponents, into out: inout [UInt8]) {
        appendISOYear(c.year, &out)
        out.append(0x2D)
        append2(c.month, &out)
        out.append(0x2D)
        append2(c.day, &out)
        out.append(0x54)                          // 'T'
        append2(c.hour, &out)
        out.append(0x3A)
        append2(c.minute, &out)
        out.append(0x3A)
        append2(c.second, &out)
        if c.fraction != 0 {
            var v = c.fraction
            var n = 6
            while v % 10 == 0 { v /= 10; n -= 1 }
            out.append(0x2E)                      // '.'
            appendPadded(v, width: n, &out)
        }
        out.append(0x5A)                          // 'Z'
    }

    static func iso8601String(_ date: Date) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(32)
        iso8601(date, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `yyyy-MM-dd'T'HH:mm:ssZ` as this toolchain's JSONEncoder `.iso8601` writes it
    /// (`Date.ISO8601FormatStyle().format`, swift-foundation), for ``ModelEncoder``'s `dateEncodingStrategy`:
    /// no fraction, the date floored to the second (23:59:59.9999 stays 23:59:59); the Julian calendar before
    /// 1582-10-15; astronomical years (`0000` is 1 BC, `-0001` 2 BC), four digits at least, no `+` above 9999;
    /// dates clamped to Foundation's calendar range (about 4713 BC ... 506713 AD). NaN, which Foundation cannot
    /// write, is written as 1970-01-01T00:00:00Z as by `iso8601`.
    static func iso8601JSONEncoder(_ date: Date) -> String {
        var t = date.timeIntervalSinceReferenceDate
        if t.isNaN { t = -Double(DateParsing.secondsFrom1970To2001) }
        t = Swift.min(Swift.max(t, -211_845_067_200), 15_927_175_497_600)   // Date.validCalendarRange
        let seconds = Int(t.rounded(.down))                  // since 2001
        let days = DateParsing.floorDiv(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let julianDay = days + 2_451_911                     // 2001-01-01 is Julian day 2451911
        // Foundation switches calendars at the instant 1582-10-15T00:00:00Z, i.e. at its Julian day.
        let (year, month, day) = DateParsing.dayOfJulianDayNumber(
            julianDay, julianCalendar: julianDay < DateParsing.julianDayOfGregorianStart)
        var out: [UInt8] = []
        out.reserveCapacity(24)
        if year < 0 { out.append(0x2D) }
        appendPadded(year < 0 ? -year : year, width: 4, &out)
        out.append(0x2D)
        append2(month, &out)
        out.append(0x2D)
        append2(day, &out)
        out.append(0x54)                                     // 'T'
        append2(secondOfDay / 3_600, &out)
        out.append(0x3A)
        append2(secondOfDay / 60 % 60, &out)
        out.append(0x3A)
        append2(secondOfDay % 60, &out)
        out.append(0x5A)                                     // 'Z'
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `date` written with `pattern`, in UTC or in `timeZone` (its offset at that instant), to `out`.
    static func format(_ date: Date, pattern: DateFormatPattern, timeZone: TimeZone? = nil, into out: inout [UInt8]) {
        let offset = timeZone?.secondsFromGMT(for: date) ?? 0
        let c = UTCComponents(date.addingTimeInterval(Double(offset)), fractionDigits: pattern.fractionDigits)
        for field in pattern.fields {
            switch field {
            case .literal(let bytes):
                out.append(contentsOf: bytes)
            case .year:
                if c.year < 0 { out.append(0x2D) }
                appendPadded(c.year < 0 ? -c.year : c.year, width: 4, &out)
            case .month(let width):
                appendPadded(c.month, width: width, &out)
            case .monthName(let full):
                appendName((full ? DateParsing.monthNames : DateParsing.monthAbbreviations)[c.month - 1], &out)
            case .day(let width):
                appendPadded(c.day, width: width, &out)
            case .hour(let width):
                appendPadded(c.hour, width: width, &out)
            case .hour12(let width):
                let h = c.hour % 12
                appendPadded(h == 0 ? 12 : h, width: width, &out)
            case .amPm:
                out.append(c.hour < 12 ? 0x41 : 0x50)   // 'A' / 'P'
                out.append(0x4D)                        // 'M'
            case .minute(let width):
                appendPadded(c.minute, width: width, &out)
            case .second(let width):
                appendPadded(c.second, width: width, &out)
            case .fraction(let n):
                // `c.fraction` has `pattern.fractionDigits` digits; a shorter S run writes its leading digits.
                var v = c.fraction
                for _ in n..<pattern.fractionDigits { v /= 10 }
                appendPadded(v, width: n, &out)
            case .weekday(let full):
                appendName((full ? DateParsing.weekdayNames : DateParsing.weekdayAbbreviations)[c.weekday], &out)
            case .zone(let utc):
                appendZone(offset, utcText: utc, &out)
            }
        }
    }

    /// A zone field in the style its UTC text shows ("+0000", "+00:00", "+00", "Z"): UTC as that text,
    /// another offset in that style ("Z" style: "+HH:MM"; "+00" style: "+HH", or "+HHMM" for a zone
    /// with minutes).
    private static func appendZone(_ offset: Int, utcText: [UInt8], _ out: inout [UInt8]) {
        guard offset != 0 else { return out.append(contentsOf: utcText) }
        let minutes = abs(offset) / 60
        out.append(offset < 0 ? 0x2D : 0x2B)
        append2(minutes / 60, &out)
        switch utcText.count {
        case 3 where minutes % 60 == 0: return                       // "+00"
        case 3, 5: append2(minutes % 60, &out)                       // "+0000"
        default: out.append(0x3A); append2(minutes % 60, &out)       // "+00:00", "Z"
        }
    }

    static func string(_ date: Date, pattern: DateFormatPattern) -> String {
        var out: [UInt8] = []
        format(date, pattern: pattern, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Components

    /// UTC calendar fields of a date, with the sub-second part rounded to `fractionDigits` digits
    /// (0 = truncated to whole seconds).
    struct UTCComponents {
        var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0
        /// Sub-second part in units of 10^-fractionDigits seconds.
        var fraction = 0
        /// 0 = Sunday ... 6 = Saturday.
        var weekday = 4

        /// Bound on |seconds since 2001| accepted; larger values (and infinities) are clamped.
        static let limit = 1e15

        init(_ date: Date, fractionDigits: Int) {
            var r = date.timeIntervalSinceReferenceDate
            if r.isNaN { r = -Double(DateParsing.secondsFrom1970To2001) }
            r = Swift.min(Swift.max(r, -Self.limit), Self.limit)
            var whole = r.rounded(.down)
            if fractionDigits > 0 {
                var scale = 1.0
                for _ in 0..<fractionDigits { scale *= 10 }
                // r - whole is exact for |r| >= 1 (Sterbenz); for -1 < r < 0 it may round up to 1.0,
                // which the carry below handles.
                var units = ((r - whole) * scale).rounded()
                if units >= scale { units -= scale; whole += 1 }
                fraction = Int(units)
            }
            let seconds = Int(whole) + DateParsing.secondsFrom1970To2001
            let days = DateParsing.floorDiv(seconds, 86_400)
            let secondOfDay = seconds - days * 86_400
            (year, month, day) = DateParsing.civilFromDays(days)
            hour = secondOfDay / 3_600
            minute = secondOfDay / 60 % 60
            second = secondOfDay % 60
            weekday = (days % 7 + 11) % 7                 // 1970-01-01 was a Thursday (4)
        }
    }

    // MARK: Digits

    @inline(__always)
    static func append2(_ v: Int, _ out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: 0x30 + v / 10))
        out.append(UInt8(truncatingIfNeeded: 0x30 + v % 10))
    }

    /// Appends the non-negative `value` in decimal, zero-padded to at least `width` digits.
    static func appendPadded(_ value: Int, width: Int, _ out: inout [UInt8]) {
        var count = 1
        var divisor = 1
        while value / divisor >= 10 { divisor *= 10; count += 1 }
        if width > count { for _ in count..<width { out.append(0x30) } }
        var v = value
        while divisor > 0 {
            out.append(UInt8(truncatingIfNeeded: 0x30 + v / divisor))
            v %= divisor
            divisor /= 10
        }
    }

    /// Four digits for 0000...9999, otherwise a sign and at least four digits (ISO 8601 expanded year).
    static func appendISOYear(_ year: Int, _ out: inout [UInt8]) {
        if year < 0 {
            out.append(0x2D)
            appendPadded(-year, width: 4, &out)
        } else {
            if year > 9_999 { out.append(0x2B) }
            appendPadded(year, width: 4, &out)
        }
    }

    @inline(__always)
    static func appendName(_ name: StaticString, _ out: inout [UInt8]) {
        name.withUTF8Buffer { out.append(contentsOf: $0) }
    }
}
