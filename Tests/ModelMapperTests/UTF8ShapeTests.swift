import XCTest
import Foundation
@testable import ModelMapper

/// `UTF8Shape` decides whether a document may be parsed with yajl's UTF-8 check off, and whether its
/// strings need checks of their own. Its verdict must be yajl's rule (and UTF-8 validity) exactly, and
/// acting on it must change nothing: the same tokens and strings, or the same error at the same offset.
final class UTF8ShapeTests: XCTestCase {
    /// yajl's rule (`yajl_lex_utf8_char`), byte by byte, for every non-ASCII byte.
    private func reference(_ bytes: [UInt8]) -> Bool {
        var i = 0
        while i < bytes.count {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let continuations: Int
            if lead >> 5 == 0x6 { continuations = 1 } else if lead >> 4 == 0xE { continuations = 2 } else if lead >> 3 == 0x1E { continuations = 3 } else { return false }
            for k in 1...continuations {
                guard i + k < bytes.count, bytes[i + k] >> 6 == 0x2 else { return false }
            }
            i += continuations + 1
        }
        return true
    }

    private func expectedVerdict(_ bytes: [UInt8]) -> UTF8Shape.Verdict {
        guard reference(bytes) else { return .illShaped }
        return String(validating: bytes, as: UTF8.self) != nil ? .valid : .wellShaped
    }

    private func verdict(_ bytes: ArraySlice<UInt8>) -> UTF8Shape.Verdict {
        bytes.withUnsafeBytes { UTF8Shape.check($0) }
    }

    /// Pieces that exercise every path: ASCII runs long and short (the 64- and 8-byte steps), sequences of
    /// each length, and each way a sequence can be ill-shaped.
    private func randomPiece(_ rng: inout SystemRandomNumberGenerator, invalid: Bool) -> [UInt8] {
        func continuation() -> UInt8 { UInt8.random(in: 0x80...0xBF, using: &rng) }
        if invalid {
            switch Int.random(in: 0..<9, using: &rng) {
            // Well shaped, not valid: overlong forms, an encoded surrogate, past U+10FFFF.
            case 5: return [[0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xF0, 0x8F, 0xBF, 0xBF]][Int.random(in: 0..<4, using: &rng)]
            case 6: return [0xED, UInt8.random(in: 0xA0...0xBF, using: &rng), continuation()]
            case 7: return [0xF4, UInt8.random(in: 0x90...0xBF, using: &rng), continuation(), continuation()]
            case 8: return [UInt8.random(in: 0xF5...0xF7, using: &rng), continuation(), continuation(), continuation()]
            case 0: return [continuation()]                                                  // stray continuation
            case 1: return [UInt8.random(in: 0xF8...0xFF, using: &rng)]                      // no lead byte
            case 2: return [UInt8.random(in: 0xE0...0xEF, using: &rng), continuation(), 0x22] // lead, then ASCII
            case 3: return [UInt8.random(in: 0xC0...0xDF, using: &rng), 0xC3]                 // lead, then a lead
            default: return [UInt8.random(in: 0xF0...0xF7, using: &rng), continuation(), continuation()] // short
            }
        }
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return (0..<Int.random(in: 0...140, using: &rng)).map { _ in UInt8.random(in: 0x20...0x7E, using: &rng) }
        case 1: return (0..<Int.random(in: 0...9, using: &rng)).map { _ in UInt8.random(in: 0...0x7F, using: &rng) }
        case 2: return [UInt8.random(in: 0xC0...0xDF, using: &rng), continuation()]
        case 3: return [UInt8.random(in: 0xE0...0xEF, using: &rng), continuation(), continuation()]
        case 4: return [UInt8.random(in: 0xF0...0xF7, using: &rng), continuation(), continuation(), continuation()]
        default: return Array("名前:前田あゆみ".utf8)
        }
    }

    func testVerdictIsYajlsRuleOnRandomText() {
        var rng = SystemRandomNumberGenerator()
        var seen: [UTF8Shape.Verdict: Int] = [:]
        for round in 0..<4_000 {
            var bytes: [UInt8] = []
            let pieces = Int.random(in: 0...12, using: &rng)
            let invalidAt = round % 3 == 0 ? Int.random(in: 0...max(0, pieces), using: &rng) : -1
            for p in 0...pieces { bytes += randomPiece(&rng, invalid: p == invalidAt) }
            // Every prefix (sequences cut by the end) and a few start offsets (load alignment).
            for end in stride(from: bytes.count, through: max(0, bytes.count - 12), by: -1) {
                for start in 0..<min(3, end + 1) {
                    let slice = bytes[start..<end]
                    let expected = expectedVerdict(Array(slice))
                    XCTAssertEqual(verdict(slice), expected, "bytes \(Array(slice))")
                    seen[expected, default: 0] += 1
                }
            }
        }
        for kind in [UTF8Shape.Verdict.valid, .wellShaped, .illShaped] {
            XCTAssertGreaterThan(seen[kind, default: 0], 5_000, "\(kind)")
        }
    }

    /// Runs of the common sequences (three bytes led by E1–EF, two led by C2–DF) take a path that checks
    /// two or one at a time by word compares: one odd piece (a suspect lead, valid or not, a cut sequence,
    /// a stray continuation, ASCII) at every position of such a run, at every alignment, must get the
    /// byte-by-byte verdict.
    func testOddPieceAtEveryPositionOfARunOfCommonSequences() {
        let common: [[UInt8]] = [[0xE3, 0x81, 0x82], [0xE9, 0xBF, 0xBF], [0xEF, 0x80, 0x80], [0xC3, 0xA9], [0xDF, 0xBF]]
        let odd: [[UInt8]] = [
            [0xE0, 0x80, 0xAF], [0xE0, 0xA0, 0x80], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF],  // suspect E0 / ED
            [0xC0, 0xAF], [0xC1, 0xBF], [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x90, 0x80, 0x80],    // suspect C0/C1, F0/F4
            [0xE3, 0x81], [0xE3, 0x81, 0x22], [0xC3, 0x41], [0x81], [0xF8], [0x41], [0xE3, 0xC3, 0xA9],
        ]
        var checked = 0
        for piece in odd {
            for runLength in [1, 2, 3, 5, 8] {
                for position in 0...runLength {
                    for pattern in 0..<3 {
                        var bytes: [UInt8] = []
                        for k in 0..<runLength {
                            if k == position { bytes += piece }
                            bytes += common[(k + pattern) % (pattern == 0 ? 1 : common.count)]
                        }
                        if position == runLength { bytes += piece }
                        for start in 0..<3 {
                            let padded = Array(repeating: UInt8(0x20), count: start) + bytes + [0x22, 0x7D]
                            for end in [padded.count, padded.count - 2, padded.count - 3] where end >= start {
                                let slice = padded[start..<end]
                                XCTAssertEqual(verdict(slice), expectedVerdict(Array(slice)), "bytes \(Array(slice))")
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 5_000)
    }

    func testSamplingFindsNonASCIITextAndSkipsASCII() throws {
        let twitter = [UInt8](try TestData.data("bench/twitter.json"))
        let canada = [UInt8](try TestData.data("bench/canada.json"))
        let citm = [UInt8](try TestData.data("bench/citm_catalog.json"))
        twitter.withUnsafeBytes { XCTAssertTrue(UTF8Shape.isWorthChecking($0)) }
        twitter.withUnsafeBytes { XCTAssertEqual(UTF8Shape.check($0), .valid) }
        canada.withUnsafeBytes { XCTAssertFalse(UTF8Shape.isWorthChecking($0)) }
        citm.withUnsafeBytes { XCTAssertFalse(UTF8Shape.isWorthChecking($0)) }
        let padding = String(repeating: " ", count: 4096)
        Array("[\"über\",\(padding)1]".utf8).withUnsafeBytes { XCTAssertTrue(UTF8Shape.isWorthChecking($0)) }
        Array("[\"\(padding)\",\"über\"]".utf8).withUnsafeBytes { XCTAssertTrue(UTF8Shape.isWorthChecking($0)) }
        Array("[\"\(padding)\"]".utf8).withUnsafeBytes { XCTAssertFalse(UTF8Shape.isWorthChecking($0)) }
        // Small documents are not worth it, whatever they hold.
        Array("[\"über\"]".utf8).withUnsafeBytes { XCTAssertFalse(UTF8Shape.isWorthChecking($0)) }
    }

    /// What a tokenizer makes of `bytes`, acting on `verdict`: every token with its bytes and, for
    /// strings and keys, the String made of them (or that they are not valid UTF-8); or the error with its
    /// offset.
    private func outcome(_ bytes: [UInt8], verdict: UTF8Shape.Verdict) -> String {
        let tokenizer = Tokenizer(expectedInputSize: bytes.count, depthLimit: 512)
        tokenizer.adopt(verdict)
        do {
            try bytes.withUnsafeBytes { try tokenizer.feed($0) }
            try tokenizer.finish()
        } catch let error as MappingError {
            return "error \(error.kind) at \(error.offset.map(String.init) ?? "-"): \(error.message)"
        } catch {
            return "error \(error)"
        }
        let view = tokenizer.view
        var text = ""
        for index in 0..<view.count {
            let token = view[index]
            text += "\(token.kind)"
            if token.kind == .string || token.kind == .key || token.kind == .number {
                text += "(" + Array(view.bytes(token)).map { String($0, radix: 16) }.joined(separator: " ") + ")"
            }
            if token.kind == .string || token.kind == .key {
                text += (try? view.string(at: index)).map { "=\($0.debugDescription)" } ?? "=invalid UTF-8"
            }
            text += " "
        }
        return text
    }

    /// A JSON document with non-ASCII keys and strings, maybe with ill-shaped bytes placed anywhere.
    private func randomDocument(_ rng: inout SystemRandomNumberGenerator) -> [UInt8] {
        func text() -> [UInt8] {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let piece = randomPiece(&rng, invalid: Int.random(in: 0..<12, using: &rng) == 0)
                bytes += piece.map { $0 == 0x22 || $0 == 0x5C || $0 < 0x20 ? 0x41 : $0 }
            }
            if Int.random(in: 0..<8, using: &rng) == 0 { bytes += Array(#"\u00e9\n\""#.utf8) }
            return bytes
        }
        var document: [UInt8] = Array("{".utf8)
        for member in 0..<Int.random(in: 0...6, using: &rng) {
            if member > 0 { document += Array(",".utf8) }
            document += [0x22] + text() + Array(#"": ["#.utf8) + [0x22] + text() + Array(#"", 1.5, {"k": "#.utf8)
            document += [0x22] + text() + Array(#""}]"#.utf8)
        }
        document += Array("}".utf8)
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: document.insert(UInt8.random(in: 0x80...0xFF, using: &rng), at: Int.random(in: 0...document.count, using: &rng))
        case 1: document.removeLast(Int.random(in: 0...min(4, document.count), using: &rng))
        default: break
        }
        return document
    }

    func testActingOnTheVerdictChangesNothing() throws {
        var inputs: [[UInt8]] = []
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<3_000 { inputs.append(randomDocument(&rng)) }
        let dir = try TestData.url("JSONTestSuite/test_parsing")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".json") {
            if let bytes = JSONTestSuiteTests.readFile(dir.appendingPathComponent(name).path) { inputs.append(bytes) }
        }
        var compared: [UTF8Shape.Verdict: Int] = [:]
        for bytes in inputs {
            let withChecks = outcome(bytes, verdict: .illShaped)
            let verdict = verdict(bytes[...])
            compared[verdict, default: 0] += 1
            if verdict == .illShaped {
                // The parse keeps yajl's check, and yajl rejects what is ill shaped, in a string or not.
                XCTAssertTrue(withChecks.hasPrefix("error"), "ill-shaped bytes were accepted: \(bytes)")
            } else {
                XCTAssertEqual(outcome(bytes, verdict: verdict), withChecks, "bytes \(bytes)")
            }
        }
        XCTAssertGreaterThan(compared[.valid, default: 0], 500)
        XCTAssertGreaterThan(compared[.wellShaped, default: 0], 100)
        XCTAssertGreaterThan(compared[.illShaped, default: 0], 200)
    }
}
