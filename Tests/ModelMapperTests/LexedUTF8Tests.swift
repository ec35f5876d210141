import XCTest
@testable import ModelMapper

/// `LexedUTF8` judges text yajl has lexed by its lead bytes only. These tests give it every sequence of
/// the shape yajl accepts (lead C0–F7, the right number of continuation bytes), at every position
/// relative to its eight-byte words, and compare its verdict (and the String it makes) with the standard
/// library's validation.
final class LexedUTF8Tests: XCTestCase {
    private func check(_ sequence: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let expected = String(validating: sequence, as: UTF8.self)
        for offset in 0..<17 {
            // ASCII before and after, so the sequence starts at every word offset and ends in the tail loop too.
            let text = [UInt8](repeating: UInt8(ascii: "a"), count: offset) + sequence + [UInt8](repeating: UInt8(ascii: "z"), count: offset % 3)
            let made = text.withUnsafeBytes { LexedUTF8.string($0) }
            let reference = String(validating: text, as: UTF8.self)
            XCTAssertEqual(made == nil, expected == nil, "\(sequence.map { String($0, radix: 16) }) at \(offset)", file: file, line: line)
            XCTAssertEqual(made.map { Array($0.utf8) }, reference.map { Array($0.utf8) }, file: file, line: line)
        }
    }

    func testEveryTwoByteShape() {
        for lead in UInt8(0xC0)...0xDF {
            for next in UInt8(0x80)...0xBF { check([lead, next]) }
        }
    }

    func testEveryThreeByteShapeByLeadAndSecondByte() {
        for lead in UInt8(0xE0)...0xEF {
            for second in UInt8(0x80)...0xBF {
                for third: UInt8 in [0x80, 0x9F, 0xA0, 0xBF] { check([lead, second, third]) }
            }
        }
    }

    func testEveryFourByteShapeByLeadAndSecondByte() {
        for lead in UInt8(0xF0)...0xF7 {
            for second in UInt8(0x80)...0xBF {
                for rest: [UInt8] in [[0x80, 0x80], [0xBF, 0xBF], [0x8F, 0xA0]] { check([lead, second] + rest) }
            }
        }
    }

    func testRandomMixturesAgreeWithValidation() {
        var random = SplitMix64(seed: 0x1E5E_D0F8)
        let valid = ["a", "é", "ß", "\u{7FF}", "\u{800}", "日本", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "😀", "\u{10000}", "\u{10FFFF}", "\"", "~"]
            .map { Array($0.utf8) }
        let invalid: [[UInt8]] = [[0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
                                  [0xED, 0xBF, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],
                                  [0xF7, 0xBF, 0xBF, 0xBF]]
        for round in 0..<3000 {
            var text: [UInt8] = []
            for _ in 0..<Int(random.next() % 24) { text += valid[Int(random.next() % UInt64(valid.count))] }
            if round % 3 == 0 {
                let at = Int(random.next() % UInt64(text.count + 1))
                text.insert(contentsOf: invalid[Int(random.next() % UInt64(invalid.count))], at: at)
            }
            let made = text.withUnsafeBytes { LexedUTF8.string($0) }
            let reference = String(validating: text, as: UTF8.self)
            XCTAssertEqual(made.map { Array($0.utf8) }, reference.map { Array($0.utf8) }, "\(text)")
            if let made { XCTAssertEqual(made, reference) }
        }
    }

    func testEmptyAndASCII() {
        XCTAssertEqual([UInt8]().withUnsafeBytes { LexedUTF8.string($0) }, "")
        let ascii = Array("https://api.github.com/users/facebook/received_events".utf8)
        var isASCII = false
        XCTAssertTrue(ascii.withUnsafeBytes { LexedUTF8.isValid($0, isASCII: &isASCII) })
        XCTAssertTrue(isASCII)
        XCTAssertTrue(Array("caf\u{E9} au lait, long enough".utf8).withUnsafeBytes { LexedUTF8.isValid($0, isASCII: &isASCII) })
        XCTAssertFalse(isASCII)
    }
}
