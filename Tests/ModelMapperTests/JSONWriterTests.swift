import XCTest
import Foundation
@testable import ModelMapper

// The writer's fast paths against simple references: the word-at-a-time string escaper (every byte that
// needs escaping at every position around the 8-byte words, buffer growth in the middle of a string),
// integers written two digits at a time, floating-point text through the sink, the key loop's entries.

/// The escaping rules spelled one byte at a time (JSONEncoder's spelling).
private func referenceEscaped(_ bytes: [UInt8], escapeSlashes: Bool) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: "\"")]
    for b in bytes {
        switch b {
        case UInt8(ascii: "\""): out += Array("\\\"".utf8)
        case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
        case UInt8(ascii: "/") where escapeSlashes: out += Array("\\/".utf8)
        case 0x08: out += Array("\\b".utf8)
        case 0x0C: out += Array("\\f".utf8)
        case 0x0A: out += Array("\\n".utf8)
        case 0x0D: out += Array("\\r".utf8)
        case 0x09: out += Array("\\t".utf8)
        case 0..<0x20: out += Array(String(format: "\\u%04x", Int(b)).utf8)
        default: out.append(b)
        }
    }
    out.append(UInt8(ascii: "\""))
    return out
}

/// Writes `bytes` as a string with a writer that starts small (so that it grows while escaping), after a
/// prefix so that the output is not word-aligned.
private func written(_ bytes: [UInt8], escapeSlashes: Bool, prefix: Int = 3) -> [UInt8] {
    var writer = JSONWriter(layout: .init(), capacity: 16)
    for _ in 0..<prefix { writer.append(UInt8(ascii: "x")) }
    bytes.withUnsafeBufferPointer { writer.string(utf8: $0, escapeSlashes: escapeSlashes) }
    return Array(writer.bytes.dropFirst(prefix))
}

final class JSONWriterTests: XCTestCase {
    func testEveryEscapedByteAtEveryPosition() {
        var special: [UInt8] = Array(0..<0x20)
        special += [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/")]
        for length in 1...41 {
            for position in 0..<length {
                for byte in special {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    bytes[position] = byte
                    for slashes in [false, true] {
                        for prefix in [0, 5] {
                            let got = written(bytes, escapeSlashes: slashes, prefix: prefix)
                            let want = referenceEscaped(bytes, escapeSlashes: slashes)
                            if got != want {
                                XCTFail("byte \(byte) at \(position) of \(length), slashes \(slashes): \(String(decoding: got, as: UTF8.self))")
                                return
                            }
                        }
                    }
                }
            }
        }
    }

    func testAdjacentAndRepeatedEscapes() {
        for length in 0...40 {
            for slashes in [false, true] {
                let all = [UInt8](repeating: UInt8(ascii: "\""), count: length)
                XCTAssertEqual(written(all, escapeSlashes: slashes), referenceEscaped(all, escapeSlashes: slashes))
                let controls = (0..<length).map { UInt8($0 % 0x20) }
                XCTAssertEqual(written(controls, escapeSlashes: slashes), referenceEscaped(controls, escapeSlashes: slashes))
                let mixed = (0..<length).map { i -> UInt8 in i % 3 == 0 ? UInt8(ascii: "/") : i % 3 == 1 ? 0x1F : 0x7F }
                XCTAssertEqual(written(mixed, escapeSlashes: slashes), referenceEscaped(mixed, escapeSlashes: slashes))
            }
        }
    }

    func testNonASCIIAndHighBytesPassThrough() {
        let texts = ["é", "😀", "a😀b\"c", "日本語のテキスト/\\\n", String(repeating: "é\u{7f}", count: 37), "\u{2028}\u{2029}"]
        for text in texts {
            for slashes in [false, true] {
                XCTAssertEqual(written(Array(text.utf8), escapeSlashes: slashes), referenceEscaped(Array(text.utf8), escapeSlashes: slashes))
            }
        }
        // Every byte value next to every word offset (the mask must not flag bytes >= 0x80 or 0x7F).
        for byte in UInt8(0x20)...UInt8(0xFF) {
            for position in 0..<17 {
                var bytes = [UInt8](repeating: 0x01, count: 17)
                bytes[position] = byte
                XCTAssertEqual(written(bytes, escapeSlashes: true), referenceEscaped(bytes, escapeSlashes: true))
            }
        }
    }

    func testRandomLongStrings() {
        var rng = SplitMix64(seed: 7)
        let alphabet: [UInt8] = Array("abc/\\\"\n\t\u{1}\u{1f} é😀xyz0123456789".utf8) + [0x7f, 0x08, 0x0c, 0x0d, 0x00]
        for n in 0..<400 {
            let length = n < 100 ? n : Int(rng.next() % 20_000)
            let dense = rng.next() % 4 == 0
            let bytes = (0..<length).map { _ -> UInt8 in
                dense || rng.next() % 16 == 0 ? alphabet[Int(rng.next() % UInt64(alphabet.count))] : UInt8(ascii: "a") + UInt8(rng.next() % 26)
            }
            for slashes in [false, true] {
                let got = written(bytes, escapeSlashes: slashes, prefix: Int(rng.next() % 9))
                if got != referenceEscaped(bytes, escapeSlashes: slashes) { return XCTFail("length \(length)") }
            }
        }
    }

    func testStringsMatchJSONEncoder() throws {
        let texts = ["", "plain", "https://example.com/a/b?c=d", "tab\there", "quote\"and\\back", "\u{0}\u{1}\u{1f}\u{7f}",
                     String(repeating: "0123456789abcdef/", count: 20), "naïve 😀 \u{8}\u{c}\r\n"]
        for text in texts {
            for slashes in [false, true] {
                let encoder = JSONEncoder()
                encoder.outputFormatting = slashes ? [] : [.withoutEscapingSlashes]
                var writer = JSONWriter(layout: .init(escapesSlashes: slashes), capacity: 16)
                writer.string(text)
                XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), String(decoding: try encoder.encode(text), as: UTF8.self))
            }
        }
    }

    func testIntegers() {
        var values: [Int64] = [0, 1, -1, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        var p: Int64 = 1
        for _ in 0..<19 {
            values += [p - 1, p, p + 1, -p, -(p - 1), -(p + 1)]
            if p <= Int64.max / 10 { p *= 10 }
        }
        var rng = SplitMix64(seed: 3)
        for _ in 0..<2000 { values.append(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64)) }
        for v in values {
            var writer = JSONWriter(layout: .init(), capacity: 16)
            writer.integer(v)
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), String(v))
        }
        for v: UInt64 in [UInt64.max, UInt64.max - 1, 10_000_000_000_000_000_000, 9_999_999_999_999_999_999] {
            var writer = JSONWriter(layout: .init())
            writer.integer(v)
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), String(v))
        }
        var writer = JSONWriter(layout: .init())
        writer.integer(Int8.min); writer.append(UInt8(ascii: " ")); writer.integer(UInt8.max); writer.append(UInt8(ascii: " "))
        writer.integer(Int32.min); writer.append(UInt8(ascii: " ")); writer.integer(UInt16.max)
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "-128 255 -2147483648 65535")
    }

    func testFloatingPointText() {
        var rng = SplitMix64(seed: 11)
        var doubles: [Double] = [0, -0.0, 1, 2, 0.1, 1e-7, 1e16, 1e300, -1.5e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                                 -.leastNormalMagnitude, 123456789012345680, 0.30000000000000004]
        for _ in 0..<2000 { doubles.append(Double(bitPattern: rng.next())) }
        for d in doubles where d.isFinite {
            var writer = JSONWriter(layout: .init(), capacity: 16)
            writer.number(d, dropsPointZero: false)
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), d.description)
            var foundation = JSONWriter(layout: .init(), capacity: 16)
            foundation.number(d, dropsPointZero: true)
            var text = d.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            XCTAssertEqual(String(decoding: foundation.bytes, as: UTF8.self), text)
        }
        for f: Float in [0, 1.5, .greatestFiniteMagnitude, .leastNonzeroMagnitude, -3.4e38, 1e-7] {
            var writer = JSONWriter(layout: .init())
            writer.number(f, dropsPointZero: false)
            XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), f.description)
        }
    }

    func testTakeDataAndReset() {
        var writer = JSONWriter(layout: .init(), capacity: 16)
        writer.beginArray()
        let mark = writer.mark
        for i in 0..<1000 { writer.element(first: i == 0); writer.integer(i) }
        writer.reset(to: mark)
        writer.element(first: true); writer.string("x")
        writer.endArray(empty: false)
        let bytes = writer.bytes
        XCTAssertEqual(writer.takeData(), Data(#"["x"]"#.utf8))
        XCTAssertEqual(bytes, Array(#"["x"]"#.utf8))
        XCTAssertEqual(JSONWriter(layout: .init()).takeData(), Data())
    }

    func testPrettyLayoutAfterGrowth() {
        var writer = JSONWriter(layout: .init(prettyPrinted: true), capacity: 16)
        writer.beginObject()
        writer.key("a", first: true)
        writer.beginArray()
        writer.element(first: true); writer.integer(1)
        writer.element(first: false); writer.bool(true)
        writer.endArray(empty: false)
        writer.key("b", first: false)
        writer.null()
        writer.endObject(empty: false)
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "{\n  \"a\" : [\n    1,\n    true\n  ],\n  \"b\" : null\n}")
    }
}

private struct EveryKind: JSONMappable, Equatable {
    var a: String? = nil
    var b: Int? = nil
    var c: Int64? = nil
    var d: Double? = nil
    var e: Bool? = nil
    var s = "s\"\n"
    var i = -5
    var l: Int64 = 7
    var x = 2.5
    var t = true
    var list: [Int] = [1]
    var deep: Int? = nil
    var deeper: String? = nil
    static let mapping = ModelMapping(keys: ["deep": "p.q", "deeper": "p.r", "x": "z.x"])
}

final class CompactEncodingLoopTests: XCTestCase {
    /// The compact loop (flat entries, built-in kinds) against the general loop, which `.escapesSlashes`
    /// selects (no value or key here has a slash), with every optional nil or not and nulls omitted or written.
    func testCompactLoopMatchesGeneralLoop() throws {
        for mask in 0..<(1 << 7) {
            var m = EveryKind()
            if mask & 1 != 0 { m.a = "a\u{1}" }
            if mask & 2 != 0 { m.b = Int.min }
            if mask & 4 != 0 { m.c = Int64.max }
            if mask & 8 != 0 { m.d = 1e-7 }
            if mask & 16 != 0 { m.e = false }
            if mask & 32 != 0 { m.deep = 3 }
            if mask & 64 != 0 { m.deeper = "r" }
            for nulls in [false, true] {
                let base: EncodingOptions = nulls ? [.writesNulls] : []
                let compact = try m.jsonData(options: base)
                let general = try m.jsonData(options: [base, .escapesSlashes])
                XCTAssertEqual(String(decoding: compact, as: UTF8.self), String(decoding: general, as: UTF8.self))
                XCTAssertEqual(try EveryKind(json: compact), m)
            }
        }
        XCTAssertEqual(try EveryKind().jsonString(),
                       #"{"s":"s\"\n","i":-5,"l":7,"z":{"x":2.5},"t":true,"list":[1]}"#)
    }

    func testNonFiniteDoubleInCompactLoopHasItsPath() {
        var m = EveryKind()
        m.x = .infinity
        XCTAssertThrowsError(try m.jsonData()) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .invalidValue)
            XCTAssertEqual((error as? MappingError)?.path, "x")
        }
    }
}
