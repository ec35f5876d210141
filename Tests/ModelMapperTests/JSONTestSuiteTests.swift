import XCTest
import Foundation
@testable import ModelMapper

/// Runs every file of JSONTestSuite's `test_parsing` folder (Nicolas Seriot's suite, kept in
/// `data/JSONTestSuite/` of the repository, see `TestData`) through the parser:
/// - `y_` files must parse,
/// - `n_` files must fail with `.syntax` or `.depthLimit` and carry offset, line and column,
/// - `i_` files may go either way but must not crash.
/// Each file is parsed as one buffer and again fed to a `Tokenizer` one byte at a time; both must agree.
final class JSONTestSuiteTests: XCTestCase {
    struct Case {
        let name: String
        let bytes: [UInt8]
    }

    func loadCases(prefix: String) throws -> [Case] {
        let dir = try TestData.url("JSONTestSuite/test_parsing")
        // The folder is part of the repository: an empty or unreadable one fails the test (never a skip).
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        let selected = names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
        if selected.isEmpty {
            throw TestData.Missing(url: dir.appendingPathComponent("\(prefix)*.json"))
        }
        return try selected.map { name in
            let path = dir.appendingPathComponent(name).path
            guard let bytes = Self.readFile(path) else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            return Case(name: name, bytes: bytes)
        }
    }

    /// Plain stdio: Foundation's file reading leaks a buffer for the empty file on Linux, which is noise
    /// under `--sanitize=address`.
    static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }

    /// Feeds `bytes` one byte at a time (or in chunks of `chunkSize`) and builds the value.
    func parseChunked(_ bytes: [UInt8], chunkSize: Int = 1) throws -> JSONValue {
        let tokenizer = Tokenizer(expectedInputSize: bytes.count, depthLimit: DecodingOptions.defaultDepthLimit,
                                  tracksLines: true)
        try bytes.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                let end = min(all.count, start + chunkSize)
                try tokenizer.feed(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        try tokenizer.finish()
        var index = 0
        let value = try JSONValue(tape: tokenizer.view, index: &index)
        XCTAssertEqual(index, tokenizer.view.count, "tape has tokens after the value")
        return value
    }

    func testAcceptedFiles() throws {
        let cases = try loadCases(prefix: "y_")
        var passed = 0
        for c in cases {
            do {
                let value = try JSONValue(json: c.bytes)
                passed += 1
                do {
                    let chunked = try parseChunked(c.bytes)
                    XCTAssertTrue(identical(value, chunked), "\(c.name): 1-byte chunks give \(chunked), one buffer \(value)")
                } catch {
                    XCTFail("\(c.name): accepted as one buffer, rejected in 1-byte chunks: \(error)")
                }
            } catch {
                XCTFail("\(c.name) must parse: \(error)")
            }
        }
        print("JSONTestSuite y_: \(passed)/\(cases.count) parsed")
        XCTAssertEqual(cases.count, 95, "expected the 95 y_ files of JSONTestSuite")
        XCTAssertEqual(passed, cases.count)
    }

    func testRejectedFiles() throws {
        let cases = try loadCases(prefix: "n_")
        var rejected = 0
        var kinds: [MappingError.Kind: Int] = [:]
        for c in cases {
            do {
                let value = try JSONValue(json: c.bytes)
                XCTFail("\(c.name) must be rejected, parsed as \(value)")
            } catch let error as MappingError {
                rejected += 1
                kinds[error.kind, default: 0] += 1
                XCTAssertTrue(error.kind == .syntax || error.kind == .depthLimit, "\(c.name): kind \(error.kind)")
                XCTAssertNotNil(error.offset, "\(c.name): no offset in \(error)")
                XCTAssertNotNil(error.line, "\(c.name): no line in \(error)")
                XCTAssertNotNil(error.column, "\(c.name): no column in \(error)")
                if let offset = error.offset {
                    XCTAssertTrue((0...c.bytes.count).contains(offset), "\(c.name): offset \(offset) outside the input")
                    // Line and column must describe the same place as the offset (a UTF-8 BOM is no column).
                    let bom = c.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
                    let expected = c.bytes.withUnsafeBytes {
                        TextPosition.of(offset: offset - bom, in: UnsafeRawBufferPointer(rebasing: $0[bom...]))
                    }
                    XCTAssertEqual(error.line, expected.line, "\(c.name)")
                    XCTAssertEqual(error.column, expected.column, "\(c.name)")
                }
                XCTAssertFalse(error.message.isEmpty, "\(c.name)")
            } catch {
                XCTFail("\(c.name): not a MappingError: \(error)")
            }
            // Chunked feeding must reject it too, with a position.
            do {
                let value = try parseChunked(c.bytes)
                XCTFail("\(c.name) must be rejected in 1-byte chunks, parsed as \(value)")
            } catch let error as MappingError {
                XCTAssertTrue(error.kind == .syntax || error.kind == .depthLimit, "\(c.name) chunked: kind \(error.kind)")
                XCTAssertNotNil(error.offset, "\(c.name) chunked: no offset")
                XCTAssertNotNil(error.line, "\(c.name) chunked: no line")
                XCTAssertNotNil(error.column, "\(c.name) chunked: no column")
            } catch {
                XCTFail("\(c.name) chunked: not a MappingError: \(error)")
            }
        }
        print("JSONTestSuite n_: \(rejected)/\(cases.count) rejected (\(kinds.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", ")))")
        XCTAssertEqual(cases.count, 188, "expected the 188 n_ files of JSONTestSuite")
        XCTAssertEqual(rejected, cases.count)
    }

    func testImplementationDefinedFiles() throws {
        let cases = try loadCases(prefix: "i_")
        var accepted: [String] = []
        var rejected: [String] = []
        var encoded: [String] = []
        for c in cases {
            let whole: JSONValue?
            do {
                whole = try JSONValue(json: c.bytes)
                accepted.append(c.name)
            } catch let error as MappingError {
                whole = nil
                rejected.append(c.name)
                XCTAssertNotNil(error.offset, "\(c.name): rejected without a position: \(error)")
            } catch {
                whole = nil
                XCTFail("\(c.name): not a MappingError: \(error)")
            }
            // Chunked feeding (the streaming tokenizer, UTF-8 only) must reach the same verdict on UTF-8 text.
            let encoding = c.bytes.withUnsafeBytes { InputEncoding.detect($0) }
            guard encoding == (.utf8, 0) else {
                encoded.append(c.name)
                continue
            }
            let chunked = try? parseChunked(c.bytes)
            XCTAssertEqual(whole == nil, chunked == nil, "\(c.name): one buffer and 1-byte chunks disagree")
            if let whole, let chunked { XCTAssertTrue(identical(whole, chunked), c.name) }
        }
        print("JSONTestSuite i_: \(cases.count) files, \(accepted.count) accepted, \(rejected.count) rejected, none crashed")
        print("  accepted: \(accepted.joined(separator: " "))")
        print("  rejected: \(rejected.joined(separator: " "))")
        XCTAssertEqual(accepted.count + rejected.count, cases.count)
        // Text that is not valid Unicode (lone surrogate escapes, overlong or surrogate UTF-8) is rejected
        // rather than changed: none of the i_string_/i_object_key_ files in UTF-8 is accepted.
        let textFiles = cases.map(\.name).filter { ($0.hasPrefix("i_string_") || $0.hasPrefix("i_object_key_")) && !encoded.contains($0) }
        XCTAssertGreaterThan(textFiles.count, 15)
        XCTAssertEqual(accepted.filter(textFiles.contains), [], "text files accepted")
        // UTF-16 text and a UTF-8 BOM are read, as JSONDecoder reads them (InputNormalizationTests compares).
        XCTAssertEqual(encoded, ["i_string_UTF-16LE_with_BOM.json", "i_string_utf16BE_no_BOM.json", "i_string_utf16LE_no_BOM.json",
                                 "i_structure_UTF-8_BOM_empty_object.json"])
        XCTAssertEqual(accepted.filter(encoded.contains), encoded)
    }
}

extension JSONTestSuiteTests {
    /// Every file through the Codable decoder and JSONDecoder on the same bytes: the same verdict and value
    /// (number ranges aside: i_number_ files) — the trailing-comma n_ files
    /// (n_array_extra_comma, n_array_number_and_comma, n_object_trailing_comma) are read by both.
    func testCodableReadsWhatJSONDecoderReads() throws {
        var cases = try loadCases(prefix: "y_") + loadCases(prefix: "n_") + loadCases(prefix: "i_")
        cases.removeAll { $0.name.hasPrefix("i_number_") }
        // Differences in the Codable article's table, not about reading the input: JSONDecoder rejects `0e1`
        // (Foundation's bug), and keeps the first of duplicate keys in a dictionary (we keep the last).
        cases.removeAll { ["y_number_0e1.json", "y_object_duplicated_key.json"].contains($0.name) }
        var acceptedN: [String] = []
        for c in cases {
            let foundation = Result { try JSONDecoder().decode(JSONValueBox.self, from: Data(c.bytes)) }
            let ours = Result { try ModelDecoder().decode(JSONValueBox.self, from: c.bytes) }
            switch (foundation, ours) {
            case (.success(let f), .success(let o)):
                XCTAssertEqual(o, f, c.name)
                if c.name.hasPrefix("n_") { acceptedN.append(c.name) }
            case (.failure, .failure): break
            case (.success, .failure(let error)): XCTFail("\(c.name): JSONDecoder reads it, we throw \(error)")
            case (.failure(let error), .success): XCTFail("\(c.name): JSONDecoder throws \(error), we read it")
            }
        }
        XCTAssertEqual(acceptedN, ["n_array_extra_comma.json", "n_array_number_and_comma.json", "n_object_trailing_comma.json"])
    }
}

/// Structural identity: like `==` but number texts must match exactly and object key order must match.
func identical(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x.text == y.text
    case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { identical($0, $1) }
    case (.object(let x), .object(let y)):
        return x.keys.map { Array($0.utf8) } == y.keys.map { Array($0.utf8) } && zip(x.values, y.values).allSatisfy { identical($0, $1) }
    default: return false
    }
}
