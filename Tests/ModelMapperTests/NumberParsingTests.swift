import Foundation
import XCTest
@testable import ModelMapper
#if canImport(Glibc)
import Glibc
#endif

/// A tiny lock-protected counter for the concurrency test.
private final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var count: Int
    init(_ v: Int) { count = v }
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// Calls `body` with the UTF-8 bytes of `s` as a slice of a larger buffer whose following bytes are more
/// digits, so that reading past `count` changes the result and is caught.
private func withLiteral<R>(_ s: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    var bytes = Array(s.utf8)
    let n = bytes.count
    bytes.append(contentsOf: Array("12.5e7".utf8))
    return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
}

private func parseDouble(_ s: String) -> Double? { withLiteral(s) { NumberParsing.double($0) } }
private func parseFloat(_ s: String) -> Float? { withLiteral(s) { NumberParsing.float($0) } }
private func parseInt64(_ s: String) -> Int64? { withLiteral(s) { NumberParsing.int64($0) } }
private func parseUInt64(_ s: String) -> UInt64? { withLiteral(s) { NumberParsing.uint64($0) } }
private func parseDecimal(_ s: String) -> Decimal? { withLiteral(s) { NumberParsing.decimal($0) } }
private func isNumber(_ s: String) -> Bool { withLiteral(s) { NumberParsing.isJSONNumber($0) } }
private func trimmed(_ s: String) -> String? {
    withLiteral(s) { b in NumberParsing.trimmedNumericLiteral(b).map { String(decoding: $0, as: UTF8.self) } }
}

private func libcDouble(_ s: String) -> Double { s.withCString { strtod($0, nil) } }
private func libcFloat(_ s: String) -> Float { s.withCString { strtof($0, nil) } }

/// Exact decimal expansion of an extended-precision value (glibc prints all digits).
private func exactDecimal(_ x: Float80, significantDigits: Int = 800) -> String {
    withVaList([x]) { va in
        var buf = [CChar](repeating: 0, count: 1200)
        _ = vsnprintf(&buf, buf.count, "%.\(significantDigits)Lg", va)
        return String(cString: buf)
    }
}

/// Compares NumberParsing.double with strtod; records at most a few messages.
private struct DoubleChecker {
    var checked = 0
    var mismatches = 0
    var messages: [String] = []

    mutating func check(_ s: String, file: StaticString = #filePath, line: UInt = #line) {
        checked += 1
        let expected = libcDouble(s)
        let actual = parseDouble(s)
        let ok: Bool
        if expected.isInfinite {
            ok = actual == nil
        } else {
            ok = actual?.bitPattern == expected.bitPattern
        }
        if !ok {
            mismatches += 1
            if messages.count < 10 {
                messages.append("\(s): got \(actual.map { "\($0) (\(String($0.bitPattern, radix: 16)))" } ?? "nil"), strtod \(expected) (\(String(expected.bitPattern, radix: 16)))")
            }
        }
    }
}

private struct FloatChecker {
    var checked = 0
    var mismatches = 0
    var messages: [String] = []

    mutating func check(_ s: String) {
        checked += 1
        let expected = libcFloat(s)
        let actual = parseFloat(s)
        let ok: Bool
        if expected.isInfinite {
            ok = actual == nil
        } else {
            ok = actual?.bitPattern == expected.bitPattern
        }
        if !ok {
            mismatches += 1
            if messages.count < 10 {
                messages.append("\(s): got \(actual.map { "\($0)" } ?? "nil"), strtof \(expected)")
            }
        }
    }
}

/// A random literal following the JSON grammar: 1...maxDigits significant digits, random decimal point,
/// optional exponent in exponentRange.
private func randomLiteral<G: RandomNumberGenerator>(_ rng: inout G, maxDigits: Int, exponentRange: ClosedRange<Int>) -> String {
    let digitCount = Int.random(in: 1...maxDigits, using: &rng)
    var digits = ""
    digits.reserveCapacity(digitCount)
    for k in 0..<digitCount {
        let d = k == 0 ? Int.random(in: 1...9, using: &rng) : Int.random(in: 0...9, using: &rng)
        digits.append(Character(Unicode.Scalar(UInt8(48 + d))))
    }
    var s = Bool.random(using: &rng) ? "-" : ""
    switch Int.random(in: 0..<4, using: &rng) {
    case 0:                                   // integer
        s += digits
    case 1:                                   // 0.000ddd
        s += "0." + String(repeating: "0", count: Int.random(in: 0...5, using: &rng)) + digits
    default:                                  // ddd.ddd
        let point = Int.random(in: 1...digitCount, using: &rng)
        let idx = digits.index(digits.startIndex, offsetBy: point)
        s += digits[..<idx]
        if point < digitCount { s += "." + digits[idx...] }
    }
    if Int.random(in: 0..<10, using: &rng) < 8 {
        let e = Int.random(in: exponentRange, using: &rng)
        s += Bool.random(using: &rng) ? "e" : "E"
        if e >= 0 && Bool.random(using: &rng) { s += "+" }
        s += String(e)
    }
    return s
}

final class NumberParsingTests: XCTestCase {

    #if DEBUG
    static let randomDigitLiterals = 500_000
    static let randomDoubleFormats = 100_000
    static let randomMidpoints = 30_000
    #else
    static let randomDigitLiterals = 1_200_000
    static let randomDoubleFormats = 200_000
    static let randomMidpoints = 60_000
    #endif

    // MARK: Grammar

    func testGrammar() {
        let valid = ["0", "-0", "1", "-1", "9", "10", "0.5", "-0.5", "123.456", "1e5", "1E5", "1e+5", "1e-5",
                     "1.5e-0", "0e0", "-0.0e-0", "0.000001", "123456789012345678901234567890",
                     "1.0000000000000000000000000001", "1E+00", "9007199254740993"]
        for s in valid {
            XCTAssertTrue(isNumber(s), s)
            XCTAssertNotNil(parseDouble(s), s)
            XCTAssertNotNil(parseDecimal(s), s)
            XCTAssertEqual(trimmed(s), s)
        }
        let invalid = ["", "-", "+1", "+0", "01", "-01", "00", "1.", ".5", "-.5", "1e", "1e+", "1e-", "1.e5", "0x1", "0X1",
                       "1,5", " 1", "1 ", "NaN", "nan", "Infinity", "-Infinity", "inf", "1.5.5", "1e5e5", "--1", "1-",
                       "0.", "1E+-5", "1e5.0", "\u{0661}", "1\u{0}", "\u{0}", "e5", "-e5", "1f", "1d", "0e", "1_000",
                       "true", "null", "１", "1..2", "-0-", "0.0.", "2e3x"]
        for s in invalid {
            XCTAssertFalse(isNumber(s), s)
            XCTAssertNil(parseDouble(s), s)
            XCTAssertNil(parseFloat(s), s)
            XCTAssertNil(parseInt64(s), s)
            XCTAssertNil(parseUInt64(s), s)
            XCTAssertNil(parseDecimal(s), s)
        }
        // An empty buffer with no base address.
        XCTAssertFalse(NumberParsing.isJSONNumber(UnsafeRawBufferPointer(start: nil, count: 0)))
        XCTAssertNil(NumberParsing.double(UnsafeRawBufferPointer(start: nil, count: 0)))
        XCTAssertNil(NumberParsing.int64(UnsafeRawBufferPointer(start: nil, count: 0)))
        XCTAssertNil(NumberParsing.uint64(UnsafeRawBufferPointer(start: nil, count: 0)))
        XCTAssertNil(NumberParsing.decimal(UnsafeRawBufferPointer(start: nil, count: 0)))
        XCTAssertNil(NumberParsing.trimmedNumericLiteral(UnsafeRawBufferPointer(start: nil, count: 0)))
    }

    func testTrimmedNumericLiteral() {
        XCTAssertEqual(trimmed(" 42 "), "42")
        XCTAssertEqual(trimmed("\t-1.5e3\r\n"), "-1.5e3")
        XCTAssertEqual(trimmed("7"), "7")
        XCTAssertEqual(trimmed("\n\n0.25"), "0.25")
        for s in ["", "   ", " +1 ", " 4 2 ", "0x10", " 1. ", "\u{0B}1", "1\u{0C}", " 01 ", "\u{A0}1", " abc "] {
            XCTAssertNil(trimmed(s), s)
        }
        let v = withLiteral(" 42 ") { b in NumberParsing.trimmedNumericLiteral(b).flatMap { NumberParsing.int64($0) } }
        XCTAssertEqual(v, 42)
    }

    // MARK: Integers

    func testInt64() {
        let cases: [(String, Int64?)] = [
            ("0", 0), ("-0", 0), ("123", 123), ("-123", -123), ("2.0", 2), ("2.50e1", 25), ("1e2", 100),
            ("100e-2", 1), ("-100e-2", -1), ("0.0", 0), ("-0.0e5", 0), ("0e99999999999999999999", 0),
            ("1.5", nil), ("0.5", nil), ("-1.5", nil), ("1e400", nil), ("1e-400", nil), ("", nil), ("-", nil),
            ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
            ("9223372036854775808", nil), ("-9223372036854775809", nil),
            ("9223372036854775807.0", Int64.max), ("922337203685477580.7e1", Int64.max),
            ("9.223372036854775807e18", Int64.max), ("-9.223372036854775808e18", Int64.min),
            ("9.223372036854775808e18", nil), ("92233720368547758070e-1", Int64.max),
            ("92233720368547758080e-1", nil), ("922337203685477580700000000000000000000e-20", Int64.max),
            ("1e18", 1_000_000_000_000_000_000), ("1e19", nil), ("10000000000000000000e-1", 1_000_000_000_000_000_000),
            ("123456789012345678", 123_456_789_012_345_678), ("-123456789012345678", -123_456_789_012_345_678),
            ("1234567890123456789", 1_234_567_890_123_456_789), ("12345678901234567890", nil),
            ("0.000", 0), ("1.000000000000000000000000000000001", nil), ("1.0000000000000000000000000000000", 1),
            ("00", nil), ("01", nil), ("-01", nil), ("1.", nil), ("+1", nil), ("1e99999999999999999999", nil),
            ("1e-99999999999999999999", nil), ("5e-1", nil), ("50e-1", 5), ("0.1e1", 1), ("0.01e1", nil),
            ("999999999999999999", 999_999_999_999_999_999), ("-999999999999999999", -999_999_999_999_999_999),
        ]
        for (s, expected) in cases {
            XCTAssertEqual(parseInt64(s), expected, s)
        }
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let v = Int64.random(in: Int64.min...Int64.max, using: &rng) >> UInt64.random(in: 0...63, using: &rng)
            XCTAssertEqual(parseInt64(String(v)), v)
            XCTAssertEqual(parseInt64(String(v) + ".000"), v)
            if v != 0 { XCTAssertEqual(parseInt64(String(v) + "00e-2"), v) }
        }
    }

    func testUInt64() {
        let cases: [(String, UInt64?)] = [
            ("0", 0), ("-0", 0), ("-0.0", 0), ("-0e7", 0), ("-1", nil), ("-1e-1", nil), ("123", 123), ("2.0", 2),
            ("2.50e1", 25), ("1e2", 100), ("100e-2", 1), ("1.5", nil), ("1e400", nil), ("", nil),
            ("18446744073709551615", UInt64.max), ("18446744073709551616", nil), ("18446744073709551615.0", UInt64.max),
            ("1.8446744073709551615e19", UInt64.max), ("1.8446744073709551616e19", nil),
            ("184467440737095516150e-1", UInt64.max), ("1e19", 10_000_000_000_000_000_000), ("1e20", nil),
            ("9999999999999999999", 9_999_999_999_999_999_999), ("99999999999999999999", nil),
            ("9223372036854775808", 9_223_372_036_854_775_808), ("01", nil), ("+1", nil),
        ]
        for (s, expected) in cases {
            XCTAssertEqual(parseUInt64(s), expected, s)
        }
        var rng = SplitMix64(seed: 8)
        for _ in 0..<20_000 {
            let v = UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0...63, using: &rng)
            XCTAssertEqual(parseUInt64(String(v)), v)
            XCTAssertEqual(parseUInt64(String(v) + ".0e0"), v)
            XCTAssertNil(parseUInt64(String(v) + ".5"))
        }
    }

    // MARK: Double

    func testDoubleHardCases() {
        let cases: [(String, Double?)] = [
            ("0", 0), ("-0", -0.0), ("0.1", 0.1), ("1e23", 1e23), ("9007199254740993", 9007199254740992),
            ("9007199254740995", 9007199254740996), ("2.2250738585072011e-308", 2.2250738585072011e-308),
            ("2.2250738585072014e-308", Double.leastNormalMagnitude), ("4.9e-324", Double.leastNonzeroMagnitude),
            ("5e-324", Double.leastNonzeroMagnitude), ("2.4703282292062327e-324", 0), ("2.4703282292062328e-324", Double.leastNonzeroMagnitude),
            ("1e-400", 0), ("-1e-400", -0.0), ("1e400", nil), ("-1e400", nil), ("1.7976931348623157e308", Double.greatestFiniteMagnitude),
            ("1.7976931348623158e308", Double.greatestFiniteMagnitude), ("1.7976931348623159e308", nil),
            ("179769313486231580793728971405301e276", Double.greatestFiniteMagnitude),
            ("0e999999999999", 0), ("-0e-999999999999", -0.0), ("1e-999999999999", 0), ("1e999999999999", nil),
            ("123456789012345678901234567890", 1.2345678901234568e29), ("0.30000000000000004", 0.30000000000000004),
            ("3.141592653589793", Double.pi), ("1.00000000000000011102230246251565404236316680908203125", 1.0),
            ("1.00000000000000011102230246251565404236316680908203126", 1.0000000000000002),
            ("1.00000000000000011102230246251565404236316680908203124", 1.0),
            ("9007199254740993.0000000000000000000000000000001", 9007199254740994),
            ("9007199254740992.9999999999999999999999999999999", 9007199254740992),
        ]
        for (s, expected) in cases {
            let actual = parseDouble(s)
            if let expected {
                XCTAssertEqual(actual?.bitPattern, expected.bitPattern, s)
            } else {
                XCTAssertNil(actual, s)
            }
        }
        var checker = DoubleChecker()
        for s in cases.map(\.0) { checker.check(s) }
        for s in ["8.988465674311580536566680e307", "2.225073858507201136057409796709131975934819546351645648e-308",
                  "2.2250738585072012e-308", "4.4501477170144023e-308", "1.1125369292536007e-308", "6.9294956446009195e15",
                  "30540316161162e-20", "1.7976931348623157e308", "9223372036854775808",
                  "18446744073709551616", "1e22", "1e23", "1e-22", "1e-23", "7e22", "9007199254740992e22"] {
            checker.check(String(s))
        }
        // Long literals (any length must work; these go to libc via a heap-backed temporary).
        var rng = SplitMix64(seed: 99)
        var long: [String] = [
            "0." + String(repeating: "0", count: 10_000) + "1e10001",
            "1" + String(repeating: "0", count: 12_000) + "e-12000",
            "9007199254740993" + String(repeating: "0", count: 10_000) + "1e-10001",
            "9007199254740993" + String(repeating: "0", count: 10_000) + "e-10000",
            "2.4703282292062327" + String(repeating: "9", count: 11_000) + "e-324",
            "-" + String(repeating: "9", count: 400) + "e-92",
        ]
        for _ in 0..<30 {
            let count = Int.random(in: 500...20_000, using: &rng)
            var digits = "0."
            for _ in 0..<count { digits.append(Character(Unicode.Scalar(UInt8(48 + Int.random(in: 0...9, using: &rng))))) }
            long.append(digits + "e\(Int.random(in: -330...330, using: &rng))")
        }
        for s in long { checker.check(s) }
        XCTAssertEqual(parseDouble(long[0]), 1)
        XCTAssertEqual(parseDouble(long[1]), 1)
        XCTAssertEqual(parseDouble(long[2]), 9007199254740994)
        XCTAssertEqual(parseDouble(long[3]), 9007199254740992)
        XCTAssertEqual(checker.mismatches, 0, checker.messages.joined(separator: "\n"))
    }

    func testDoubleRandomDigitLiteralsAgainstStrtod() {
        var rng = SplitMix64(seed: 0x5EED_0001)
        var checker = DoubleChecker()
        for k in 0..<Self.randomDigitLiterals {
            // Mostly the requested 1...25 digits and -350...350; every 8th is short and near 10^0.
            let s = k % 8 == 7
                ? randomLiteral(&rng, maxDigits: 17, exponentRange: -30...30)
                : randomLiteral(&rng, maxDigits: 25, exponentRange: -350...350)
            checker.check(s)
        }
        XCTAssertEqual(checker.checked, Self.randomDigitLiterals)
        XCTAssertEqual(checker.mismatches, 0, checker.messages.joined(separator: "\n"))
    }

    func testDoubleRandomPrintedDoublesAgainstStrtod() {
        var rng = SplitMix64(seed: 0x5EED_0002)
        var checker = DoubleChecker()
        var produced = 0
        while produced < Self.randomDoubleFormats {
            let d: Double
            switch produced % 3 {
            case 0: d = Double(bitPattern: rng.next())                      // any bit pattern
            case 1: d = Double.random(in: -1e6...1e6, using: &rng)          // everyday magnitudes
            default: d = Double(bitPattern: rng.next() & 0x800F_FFFF_FFFF_FFFF | (rng.next() % 3 == 0 ? 0 : 0x0010_0000_0000_0000)) // subnormal / tiny
            }
            if !d.isFinite { continue }
            produced += 1
            let shortest = d.description
            checker.check(shortest)
            XCTAssertEqual(parseDouble(shortest)?.bitPattern, d.bitPattern, shortest)
            let g17 = String(format: "%.17g", d)
            checker.check(g17)
            XCTAssertEqual(parseDouble(g17)?.bitPattern, d.bitPattern, g17)
            if produced % 4 == 0 { checker.check(String(format: "%.\(Int.random(in: 1...25, using: &rng))e", d)) }
        }
        XCTAssertEqual(checker.mismatches, 0, checker.messages.joined(separator: "\n"))
    }

    /// Exact midpoints between adjacent doubles (ties), and their neighbourhoods at 15...30 digits.
    func testDoubleMidpointsAgainstStrtod() {
        var rng = SplitMix64(seed: 0x5EED_0003)
        var checker = DoubleChecker()
        for k in 0..<Self.randomMidpoints {
            var d: Double
            repeat {
                d = k % 2 == 0 ? Double(bitPattern: rng.next() >> 1)
                               : Double(Int64.random(in: 1...(1 << 62), using: &rng)) * (Bool.random(using: &rng) ? 1 : 1e-10)
            } while !d.isFinite || d == Double.greatestFiniteMagnitude
            let mid = Float80(d) + (Float80(d.nextUp) - Float80(d)) / 2
            let exact = exactDecimal(mid)
            checker.check(exact)
            let lower = Float80(d) + (Float80(d.nextUp) - Float80(d)) / 4
            let upper = Float80(d) + 3 * (Float80(d.nextUp) - Float80(d)) / 4
            checker.check(exactDecimal(lower, significantDigits: 17))
            checker.check(exactDecimal(upper, significantDigits: 17))
            checker.check(exactDecimal(mid, significantDigits: Int.random(in: 15...30, using: &rng)))
        }
        XCTAssertEqual(checker.mismatches, 0, checker.messages.joined(separator: "\n"))
    }

    /// The 128-bit fast path decides almost every input with <= 19 digits, and is never wrong when it does.
    func testEiselLemireDecidesAndAgreesWithStrtod() {
        var rng = SplitMix64(seed: 0x5EED_0004)
        var decided = 0
        var wrong: [String] = []
        let total = 100_000
        for _ in 0..<total {
            let w = UInt64.random(in: 1...9_999_999_999_999_999_999, using: &rng) >> UInt64.random(in: 0...60, using: &rng)
            let q = Int.random(in: -300...300, using: &rng)
            guard let bits = NumberParsing.eiselLemire(max(w, 1), q, explicitBits: 52, bias: 1023, maxBiased: 2047) else { continue }
            decided += 1
            let s = "\(max(w, 1))e\(q)"
            if bits != libcDouble(s).bitPattern && wrong.count < 10 { wrong.append(s) }
        }
        XCTAssertEqual(wrong, [])
        XCTAssertGreaterThan(decided, total * 99 / 100)
    }

    /// The libc fallback switches the calling thread's locale; concurrent callers must not disturb each other.
    func testConcurrentUse() {
        var rng = SplitMix64(seed: 0x5EED_0007)
        var literals: [String] = []
        for k in 0..<4_000 {
            literals.append(k % 2 == 0 ? randomLiteral(&rng, maxDigits: 25, exponentRange: -340...320)
                                       : "0." + String(repeating: "0", count: 300) + String(UInt64.random(in: 1...UInt64.max, using: &rng))
                                         + "e\(Int.random(in: -20...620, using: &rng))")
        }
        let all = literals
        XCTAssertTrue(all.allSatisfy(isNumber))
        let expected = all.map { libcDouble($0).bitPattern }
        let failures = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { t in
            for (k, s) in all.enumerated() where (k + t) % 2 == 0 || t < 2 {
                let got = parseDouble(s)
                let e = Double(bitPattern: expected[k])
                if got?.bitPattern != (e.isInfinite ? nil : expected[k]) { failures.add() }
            }
        }
        XCTAssertEqual(failures.value, 0)
    }

    func testPowerOfFiveTable() {
        let table = UnsafeBufferPointer(start: NumberParsing.powersOfFive, count: NumberParsing.powersOfFiveCount)
        XCTAssertEqual(table.count, 342 + 308 + 1)
        XCTAssertEqual(table[342], NumberParsing.PowerOfFive(hi: 1 << 63, lo: 0, shift: 127))           // 5^0
        XCTAssertEqual(table[343], NumberParsing.PowerOfFive(hi: 0xA000_0000_0000_0000, lo: 0, shift: 125)) // 5^1
        XCTAssertEqual(table[341], NumberParsing.PowerOfFive(hi: 0xCCCC_CCCC_CCCC_CCCC, lo: 0xCCCC_CCCC_CCCC_CCCC, shift: 130)) // 5^-1
        for (index, e) in table.enumerated() {
            let q = index - 342
            XCTAssertEqual(e.hi >> 63, 1, "q=\(q)")
            let log2T = log2(Double(e.hi)) + 64 + log2(1 + Double(e.lo) / 0x1p64 / Double(e.hi))
            XCTAssertEqual(log2T - Double(e.shift), Double(q) * log2(5.0), accuracy: 1e-9, "q=\(q)")
        }
    }

    // MARK: Float

    func testFloatAgainstStrtof() {
        var rng = SplitMix64(seed: 0x5EED_0005)
        var checker = FloatChecker()
        for s in ["0", "-0", "0.1", "1e38", "3.4028235e38", "3.4028236e38", "3.40282357e38", "1e39", "1.4e-45", "7e-46",
                  "7.1e-46", "1e-50", "16777217", "16777219", "1.00000005960464477539062500", "1.00000005960464477539062501",
                  "0.000000000000000000000000000000000000011754942807573642917278829910357665133228589927589904276829631184250030649651730385585324256680905818939208984375"] {
            checker.check(s)
        }
        // Double rounding trap: the nearest double of this literal is exactly a float midpoint.
        XCTAssertEqual(parseFloat("1.00000005960464477539062501"), 1.0000001)
        XCTAssertEqual(parseFloat("1e39"), nil)
        XCTAssertEqual(parseFloat("1e-50")?.bitPattern, Float(0).bitPattern)
        for k in 0..<100_000 {
            switch k % 4 {
            case 0:
                checker.check(randomLiteral(&rng, maxDigits: 25, exponentRange: -60...45))
            case 1:
                checker.check(randomLiteral(&rng, maxDigits: 10, exponentRange: -15...15))
            case 2:
                var f: Float
                repeat { f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next())) } while !f.isFinite
                checker.check(f.description)
                XCTAssertEqual(parseFloat(f.description)?.bitPattern, f.bitPattern, f.description)
            default:
                // Exact float midpoints and values just around them.
                var f: Float
                repeat { f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()) >> 1) } while !f.isFinite || f == .greatestFiniteMagnitude
                let mid = (Double(f) + Double(f.nextUp)) / 2
                checker.check(exactDecimal(Float80(mid)))
                checker.check(exactDecimal(Float80(mid), significantDigits: Int.random(in: 8...20, using: &rng)))
            }
        }
        XCTAssertEqual(checker.mismatches, 0, checker.messages.joined(separator: "\n"))
    }

    // MARK: Decimal

    func testDecimal() {
        XCTAssertEqual(parseDecimal("0.1"), Decimal(string: "0.1"))
        XCTAssertEqual(parseDecimal("0"), Decimal(0))
        XCTAssertEqual(parseDecimal("-0")?.isNaN, false)
        XCTAssertEqual(parseDecimal("-0"), Decimal(0))
        XCTAssertEqual(parseDecimal("-0.000e5"), Decimal(0))
        XCTAssertEqual(parseDecimal("8.8"), Decimal(string: "8.8"))
        XCTAssertEqual(parseDecimal("-8.8")?.description, "-8.8")
        XCTAssertEqual(parseDecimal("123.4500"), Decimal(string: "123.45"))
        XCTAssertEqual(parseDecimal("1.5e3"), Decimal(1500))
        XCTAssertEqual(parseDecimal("-25e-1"), Decimal(string: "-2.5"))
        XCTAssertEqual(parseDecimal("1e127")?.exponent, 127)
        XCTAssertEqual(parseDecimal("1e-128")?.exponent, -128)
        XCTAssertEqual(parseDecimal("10e-129"), parseDecimal("1e-128"))
        XCTAssertEqual(parseDecimal("1" + String(repeating: "0", count: 60) + "e-50"), Decimal(10_000_000_000))
        XCTAssertEqual(parseDecimal("0.0000000000000000000000000000000000000000000000000000000000001"),
                       Decimal(sign: .plus, exponent: -61, significand: 1))
        for s in ["1e400", "-1e400", "1e-400", "1e128", "1e-129", "12e-130", "1e99999999999999999999",
                  "0.1000000000000000000000000000000000000001", "1e130", "340282366920938463463374607431768211456"] {
            XCTAssertNil(parseDecimal(s), s)
        }
        // 39 digits fit when the significand is below 2^128 (Decimal's mantissa).
        for s in ["123456789012345678901234567890123456789", "1.23456789012345678901234567890123456789",
                  "340282366920938463463374607431768211455"] {
            XCTAssertEqual(parseDecimal(s), Decimal(string: s), s)
        }
        // 38-digit literals are exact.
        let max38 = String(repeating: "9", count: 38)
        XCTAssertEqual(parseDecimal(max38), Decimal(string: max38))
        XCTAssertEqual(parseDecimal(max38)?.description, max38)
        XCTAssertEqual(parseDecimal("-" + max38 + "e-40")?.description, "-0.00" + max38)
        var rng = SplitMix64(seed: 0x5EED_0006)
        for _ in 0..<5_000 {
            let count = Int.random(in: 1...38, using: &rng)
            var digits = String(Int.random(in: 1...9, using: &rng))
            for _ in 1..<count { digits.append(Character(Unicode.Scalar(UInt8(48 + Int.random(in: 0...9, using: &rng))))) }
            if digits.count > 1 && digits.last == "0" { digits.removeLast(); digits.append("7") }
            let point = Int.random(in: 1...digits.count, using: &rng)
            let idx = digits.index(digits.startIndex, offsetBy: point)
            let neg = Bool.random(using: &rng)
            let plain = (neg ? "-" : "") + digits[..<idx] + (point < digits.count ? "." + digits[idx...] : "")
            let parsed = parseDecimal(plain)
            XCTAssertEqual(parsed, Decimal(string: plain), plain)
            XCTAssertEqual(parsed?.description, plain, plain)
            let e = Int.random(in: -40...40, using: &rng)
            let withExponent = (neg ? "-" : "") + digits + "e\(e)"
            let expected = Decimal(sign: neg ? .minus : .plus, exponent: e, significand: Decimal(string: digits)!)
            XCTAssertEqual(parseDecimal(withExponent), expected, withExponent)
        }
    }
}
