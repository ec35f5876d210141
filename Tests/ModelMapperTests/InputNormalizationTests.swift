import XCTest
import Foundation
@testable import ModelMapper

/// Every input JSONDecoder reads — a UTF-8 BOM, UTF-16 and UTF-32 in either byte order with or without a BOM,
/// trailing commas — through every entry point that takes bytes, compared with JSONDecoder on the same bytes.
final class InputNormalizationTests: XCTestCase {
    struct Doc: Codable, Equatable {
        var key: [Bool]
        var name: String
    }

    struct MappedDoc: JSONMappable, Equatable {
        var key: [Bool] = []
        var name = ""
    }

    struct Counted: Codable, Equatable {
        var name: String
        var count: Int
    }

    struct MappedCounted: JSONMappable {
        var name = ""
        var count = 0
    }

    enum Form: CaseIterable {
        case utf8, utf8BOM, utf16LE, utf16LEBOM, utf16BE, utf16BEBOM, utf32LE, utf32BE, utf32BEBOM

        var bom: [UInt8] {
            switch self {
            case .utf8BOM: return [0xEF, 0xBB, 0xBF]
            case .utf16LEBOM: return [0xFF, 0xFE]
            case .utf16BEBOM: return [0xFE, 0xFF]
            case .utf32BEBOM: return [0, 0, 0xFE, 0xFF]
            default: return []
            }
        }

        /// `text` in this form, BOM included.
        func encode(_ text: String) -> [UInt8] {
            bom + payload(text)
        }

        func payload(_ text: String) -> [UInt8] {
            switch self {
            case .utf8, .utf8BOM: return Array(text.utf8)
            case .utf16LE, .utf16LEBOM: return text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            case .utf16BE, .utf16BEBOM: return text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            case .utf32LE: return text.unicodeScalars.flatMap { s in (0..<4).map { UInt8((s.value >> (8 * $0)) & 0xFF) } }
            case .utf32BE, .utf32BEBOM: return text.unicodeScalars.flatMap { s in (0..<4).reversed().map { UInt8((s.value >> (8 * $0)) & 0xFF) } }
            }
        }
    }

    static let plain = [
        #"{"key":[true,false],"name":"é𝄞 x"}"#,
        #" {"key" : [ ] , "name" : "a\u00e9\ud834\udd1e"}"#,
    ]

    static let withTrailingCommas = [
        #"{"key":[true,],"name":"𝄞",}"#,
        "{\"key\":[true ,\n ],\"name\":\"b\" ,\r\n}",
    ]

    static let invalid = [
        #"{"key":[true,,],"name":"a"}"#,
        #"{"key":[,],"name":"a"}"#,
        #"{,"key":[],"name":"a"}"#,
        #"{"key":[true,},"name":"a"}"#,
        #"{"key":[true],"name":"a",,}"#,
        #"{"key":[true],"name",}"#,
        #"{"key":[true],"name":"a"},"#,
        #"{"key":[tru],"name":"a"}"#,
        "\u{FEFF}{\"key\":[],\"name\":\"a\"}",
    ]

    /// Runs `body` on JSONDecoder's result and ours for the same bytes: both values, or both errors.
    func compare<T: Equatable>(_ bytes: [UInt8], _ label: String, foundation: (Data) throws -> T, ours: ([UInt8]) throws -> T,
                               file: StaticString = #filePath, line: UInt = #line) {
        let expected = Result { try foundation(Data(bytes)) }
        let actual = Result { try ours(bytes) }
        switch (expected, actual) {
        case (.success(let e), .success(let a)):
            XCTAssertEqual(a, e, label, file: file, line: line)
        case (.failure, .failure):
            break
        case (.success(let e), .failure(let error)):
            XCTFail("\(label): JSONDecoder reads \(e), we throw \(error)", file: file, line: line)
        case (.failure(let error), .success(let a)):
            XCTFail("\(label): JSONDecoder throws \(error), we read \(a)", file: file, line: line)
        }
    }

    func testEveryEntryPointReadsWhatJSONDecoderReads() throws {
        var compared = 0
        for text in Self.plain + Self.withTrailingCommas + Self.invalid {
            for form in Form.allCases {
                // FF FE 00 00 starts a UTF-32LE text with a BOM: a deliberate difference (testDeliberateDifferences).
                if form == .utf32LE && text.hasPrefix("\u{FEFF}") { continue }
                let bytes = form.encode(text)
                let label = "\(form) \(text.debugDescription)"
                // Codable.
                compare(bytes, "Codable \(label)", foundation: { try JSONDecoder().decode(Doc.self, from: $0) },
                        ours: { try ModelDecoder().decode(Doc.self, from: $0) })
                // Mapped models, both conversion modes.
                for options in [DecodingOptions.lenient, .strict] {
                    compare(bytes, "mapped \(label)", foundation: { try JSONDecoder().decode(Doc.self, from: $0) },
                            ours: { let m = try MappedDoc(json: $0, options: options); return Doc(key: m.key, name: m.name) })
                }
                // JSONValue: the same verdict, except that it rejects trailing commas (RFC 8259 exactly).
                let foundation = (try? JSONDecoder().decode(Doc.self, from: Data(bytes))) != nil
                let value = try? JSONValue(json: bytes)
                if Self.withTrailingCommas.contains(text) {
                    XCTAssertTrue(foundation, label)
                    XCTAssertNil(value, "JSONValue \(label): a trailing comma must be rejected")
                } else {
                    XCTAssertEqual(value != nil, foundation, "JSONValue \(label)")
                }
                if let value, form != .utf8 {
                    XCTAssertEqual(value, try JSONValue(json: Array(text.utf8)), "JSONValue \(label): not the UTF-8 text's value")
                }
                compared += 1
            }
        }
        XCTAssertEqual(compared, (Self.plain.count + Self.withTrailingCommas.count + Self.invalid.count) * Form.allCases.count - 1)
    }

    func testDecodableValuesOfEveryShape() {
        // Scalars and two-byte UTF-16 documents (JSONDecoder's detection extends to two bytes).
        for text in ["1", "12", "\"é\"", "[1,2,]", "{\"a\":[],}", "true", "[[1,],[2,],]"] {
            for form in Form.allCases {
                let bytes = form.encode(text)
                compare(bytes, "\(form) \(text)", foundation: { try JSONDecoder().decode(JSONValueBox.self, from: $0) },
                        ours: { try ModelDecoder().decode(JSONValueBox.self, from: $0) })
            }
        }
    }

    func testInvalidEncodedTextIsRejectedLikeJSONDecoder() {
        let cases: [(String, [UInt8])] = [
            ("UTF-16LE lone high surrogate", [0x22, 0, 0x00, 0xD8, 0x22, 0]),
            ("UTF-16BE lone low surrogate", [0, 0x22, 0xDC, 0x00, 0, 0x22]),
            ("UTF-16LE reversed pair", [0x22, 0, 0x1E, 0xDD, 0x34, 0xD8, 0x22, 0]),
            ("UTF-32BE beyond U+10FFFF", [0, 0, 0, 0x22, 0, 0x11, 0, 0, 0, 0, 0, 0x22]),
            ("UTF-32LE surrogate", [0x22, 0, 0, 0, 0x00, 0xD8, 0, 0, 0x22, 0, 0, 0]),
            ("UTF-16BE NUL character", [0, 0x5B, 0, 0, 0, 0x5D]),
            ("UTF-16LE BOM twice", [0xFF, 0xFE, 0xFF, 0xFE, 0x31, 0]),
            ("UTF-8 BOM only", [0xEF, 0xBB, 0xBF]),
            ("UTF-16 BOM only", [0xFE, 0xFF]),
        ]
        for (label, bytes) in cases {
            XCTAssertThrowsError(try JSONDecoder().decode(String.self, from: Data(bytes)), "JSONDecoder \(label)")
            XCTAssertThrowsError(try ModelDecoder().decode(String.self, from: bytes), "Codable \(label)") { error in
                guard case DecodingError.dataCorrupted(let context)? = error as? DecodingError else {
                    return XCTFail("\(label): \(error)")
                }
                XCTAssertTrue(context.underlyingError is MappingError, "\(label): \(context)")
            }
            XCTAssertThrowsError(try JSONValue(json: bytes), "JSONValue \(label)") { error in
                XCTAssertEqual((error as? MappingError)?.kind, .syntax, label)
                XCTAssertNotNil((error as? MappingError)?.offset, label)
            }
        }
    }

    /// Deliberate differences, each in the Codable article's table: the UTF-32LE BOM (JSONDecoder takes
    /// `FF FE 00 00` for UTF-16LE and fails on the U+0000 after it) is read; an incomplete last code unit
    /// (JSONDecoder drops it silently) is an error.
    func testDeliberateDifferences() throws {
        let text = #"{"key":[true],"name":"𝄞"}"#
        let bom32 = [0xFF, 0xFE, 0, 0] + Form.utf32LE.payload(text)
        XCTAssertThrowsError(try JSONDecoder().decode(Doc.self, from: Data(bom32)), "JSONDecoder reads the UTF-32LE BOM now: drop the difference")
        XCTAssertEqual(try ModelDecoder().decode(Doc.self, from: bom32), Doc(key: [true], name: "𝄞"))
        XCTAssertEqual(try MappedDoc(json: bom32), MappedDoc(key: [true], name: "𝄞"))
        // JSONDecoder reads FE FF 00 00 (UTF-16BE's mark, then U+0000) as UTF-32LE's mark: so do we.
        let swapped = [0xFE, 0xFF, 0, 0] + Form.utf32LE.payload(text)
        XCTAssertEqual(try ModelDecoder().decode(Doc.self, from: swapped), try JSONDecoder().decode(Doc.self, from: Data(swapped)))

        // `123` in UTF-16LE with its last byte lost: JSONDecoder reads 12.
        XCTAssertEqual(try JSONDecoder().decode(Int.self, from: Data([0x31, 0, 0x32, 0, 0x33])), 12, "JSONDecoder keeps dropping a partial unit")
        let odd: [UInt8] = [0x5B, 0, 0x31, 0, 0x5D, 0, 0x20]
        XCTAssertEqual(try JSONDecoder().decode([Int].self, from: Data(odd)), [1])
        XCTAssertThrowsError(try ModelDecoder().decode([Int].self, from: odd))
        XCTAssertThrowsError(try JSONValue(json: odd)) { error in
            let error = error as? MappingError
            XCTAssertEqual(error?.kind, .syntax)
            XCTAssertEqual(error?.offset, 6, "the offset of the incomplete unit in the caller's bytes")
            XCTAssertEqual(error?.line, 1)
            XCTAssertEqual(error?.column, 4, "three characters before it")
        }
    }

    // MARK: Positions

    /// Where `prefix` ends in `form`: the byte offset in the caller's bytes, and the column in characters.
    func position(after prefix: String, in form: Form) -> (offset: Int, column: Int) {
        (form.bom.count + form.payload(prefix).count, prefix.unicodeScalars.count + 1)
    }

    func testSyntaxErrorPositionsAreInTheCallersBytes() {
        let text = #"{"name":"𝄞é","count":[1,],"key":[tru]}"#
        let prefix = #"{"name":"𝄞é","count":[1,],"key":["#
        for form in Form.allCases {
            let bytes = form.encode(text)
            let expected = position(after: prefix, in: form)
            XCTAssertThrowsError(try MappedDoc(json: bytes), "\(form)") { error in
                let error = error as? MappingError
                XCTAssertEqual(error?.kind, .syntax, "\(form)")
                XCTAssertEqual(error?.offset, expected.offset, "\(form): \(String(describing: error))")
                XCTAssertEqual(error?.line, 1, "\(form)")
                XCTAssertEqual(error?.column, expected.column, "\(form): \(String(describing: error))")
            }
            XCTAssertThrowsError(try ModelDecoder().decode(Doc.self, from: bytes), "\(form)") { error in
                guard case DecodingError.dataCorrupted(let context)? = error as? DecodingError,
                      let underlying = context.underlyingError as? MappingError else { return XCTFail("\(form): \(error)") }
                XCTAssertEqual(underlying.offset, expected.offset, "\(form)")
                XCTAssertEqual(underlying.column, expected.column, "\(form)")
            }
            // JSONValue stops earlier, at the bracket after the trailing comma.
            XCTAssertThrowsError(try JSONValue(json: bytes), "\(form)") { error in
                let error = error as? MappingError
                XCTAssertEqual(error?.offset, position(after: #"{"name":"𝄞é","count":[1,"#, in: form).offset, "\(form)")
            }
        }
    }

    func testASecondBOMIsAnErrorAtItsOffset() {
        // The first mark is skipped (no column), the second is a character yajl rejects.
        for form in [Form.utf8BOM, .utf16LEBOM, .utf16BEBOM, .utf32BEBOM] {
            let bytes = form.encode("\u{FEFF}[1]")
            XCTAssertThrowsError(try JSONValue(json: bytes), "\(form)") { error in
                let error = error as? MappingError
                XCTAssertEqual(error?.kind, .syntax, "\(form)")
                XCTAssertEqual(error?.offset, form.bom.count, "\(form)")
                XCTAssertEqual(error?.column, 1, "\(form)")
            }
        }
    }

    func testDecodingErrorPositionsAreInTheCallersBytes() {
        // On a second line, after a supplementary character and a trailing comma.
        let text = "{\"name\":\"𝄞\",\n \"key\":[true,], \"count\":\"many\"}"
        let prefix = " \"key\":[true,], \"count\":"
        for form in Form.allCases {
            let bytes = form.encode(text)
            let offset = form.bom.count + form.payload("{\"name\":\"𝄞\",\n" + prefix).count
            let column = prefix.unicodeScalars.count + 1
            XCTAssertThrowsError(try MappedCounted(json: bytes, options: .strict), "\(form)") { error in
                let error = error as? MappingError
                XCTAssertEqual(error?.kind, .typeMismatch, "\(form)")
                XCTAssertEqual(error?.path, "count", "\(form)")
                XCTAssertEqual(error?.offset, offset, "\(form): \(String(describing: error))")
                XCTAssertEqual(error?.line, 2, "\(form)")
                XCTAssertEqual(error?.column, column, "\(form)")
            }
            // Reported (forgiven) errors are positioned the same way.
            let collector = ReportCollector()
            XCTAssertNoThrow(try MappedCounted(json: bytes, options: collector.options()), "\(form)")
            XCTAssertEqual(collector.errors.map(\.offset), [offset], "\(form)")
            XCTAssertEqual(collector.errors.map { "\($0.path) \($0.line ?? 0):\($0.column ?? 0)" }, ["count 2:\(column)"], "\(form)")
            // Codable: JSONDecoder's error, with the line and column in characters.
            XCTAssertThrowsError(try ModelDecoder().decode(Counted.self, from: bytes), "\(form)") { error in
                guard case DecodingError.typeMismatch(_, let context)? = error as? DecodingError else {
                    return XCTFail("\(form): \(error)")
                }
                XCTAssertTrue(context.debugDescription.hasSuffix("(line 2, column \(column))"), "\(form): \(context.debugDescription)")
            }
            XCTAssertThrowsError(try JSONDecoder().decode(Counted.self, from: Data(bytes))) { error in
                guard case DecodingError.typeMismatch? = error as? DecodingError else { return XCTFail("\(form): \(error)") }
            }
        }
    }

    func testRootPathsAndUpdatesReadEveryForm() throws {
        let text = #"{"data":{"user":{"key":[false,],"name":"𝄞",},},}"#
        for form in Form.allCases {
            let bytes = form.encode(text)
            XCTAssertEqual(try MappedDoc(json: bytes, at: "data.user"), MappedDoc(key: [false], name: "𝄞"), "\(form)")
            XCTAssertEqual(try ModelDecoder().decode(Doc.self, from: bytes, at: "data.user"), Doc(key: [false], name: "𝄞"), "\(form)")
            var model = MappedDoc(key: [true], name: "old")
            try model.update(json: form.encode(#"{"name":"new",}"#))
            XCTAssertEqual(model, MappedDoc(key: [true], name: "new"), "\(form)")
        }
    }

    func testManyTrailingCommasInOneDocument() throws {
        // One extra parse whatever their number (the copy blanks them all).
        let items = (0..<2000).map { #"{"key":[true,false,],"name":"\#($0),]}",}"# }.joined(separator: ",")
        let text = "[" + items + ",]"
        let ours = try ModelDecoder().decode([Doc].self, from: Array(text.utf8))
        XCTAssertEqual(ours, try JSONDecoder().decode([Doc].self, from: Data(text.utf8)))
        XCTAssertEqual(ours.count, 2000)
        XCTAssertEqual(ours[7].name, "7,]}", "a comma inside a string is text")
        XCTAssertEqual(try [MappedDoc](json: text).map(\.name), ours.map(\.name))
    }

    /// The fuzz targets' invariants hold on every form (their reference for models is the decoders'
    /// reading; JSONValue, the streams and the chunked tokenizer keep theirs).
    func testFuzzTargetsOnEveryInputForm() {
        let documents = [
            #"{"i":1,"s":"é𝄞","dict":{"x":1,},"leaves":[{"id":2,"tags":["t",],},],}"#,
            #"[{"id":1},{"id":2,"child":{"id":3,},},]"#,
            "{\"id\":1,\"name\":\"a\"}\n{\"id\":2,}\n[1,]\n",
            #"{"kind":"square","size":{"w":2,"h":2,},}"#,
            #"{"a":[1,,],}"#, #"[,]"#, #"{"a",}"#,
        ]
        for document in documents {
            for form in Form.allCases {
                do {
                    _ = try FuzzTargets.run(form.encode(document))
                } catch {
                    XCTFail("\(form) \(document): \(error)")
                }
            }
        }
        for bytes in [[0xFF, 0xFE, 0, 0] + Form.utf32LE.payload(#"{"i":1}"#), Form.utf16LE.payload("[1]") + [0x20]] {
            XCTAssertNoThrow(try FuzzTargets.run(bytes), "\(bytes)")
        }
    }

    // MARK: JSON Lines

    struct Line: JSONMappable, Equatable {
        var id = 0
    }

    func testJSONLinesSkipsABOMBeforeTheFirstRecord() throws {
        let text = [0xEF, 0xBB, 0xBF] + Array("{\"id\":1}\n{\"id\":2}\n{\"id\":x}\n".utf8)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bom-\(UUID().uuidString).jsonl")
        try Data(text).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for workers in [1, 3] {
            for format in [JSONStreamFormat.lines, .concatenated] {
                // In memory, and from a file read 1 and 2 bytes at a time (the BOM arrives in pieces).
                let readers = [JSONLines<Line>(bytes: text, format: format, workers: workers, onError: .stop)]
                    + [1, 2].map { JSONLines<Line>(path: file.path, format: format, workers: workers, chunkSize: $0) }
                let rejected = Collected<RejectedRecord>()
                let lines = JSONLines<Line>(bytes: text, format: format, workers: workers, onError: .skip { rejected.append($0) })
                var ids: [Int] = []
                try lines.forEach { ids.append($0.id) }
                XCTAssertEqual(ids, [1, 2], "\(format) \(workers)")
                XCTAssertEqual(rejected.map(\.line), [3], "\(format) \(workers)")
                XCTAssertEqual(rejected.map(\.offset), [3 + 18], "\(format) \(workers): offsets count the BOM's bytes")
                XCTAssertEqual(rejected.map(\.column), [1], "\(format) \(workers)")
                for reader in readers {
                    XCTAssertThrowsError(try reader.forEach { _ in }, "\(format) \(workers)") { error in
                        XCTAssertEqual((error as? MappingError)?.line, 3)
                    }
                    var first: [Int] = []
                    try? reader.forEach { first.append($0.id) }
                    XCTAssertEqual(first, [1, 2], "\(format) \(workers) chunk size \(reader.chunkSize)")
                }
            }
            XCTAssertEqual(try JSONLines<Line>.decodeAll(text, workers: workers, onError: .skip { _ in }).map(\.id), [1, 2])
        }
        let array = [0xEF, 0xBB, 0xBF] + Array("[{\"id\":1},{\"id\":2}]".utf8)
        XCTAssertEqual(try JSONLines<Line>.decodeAll(array, format: .array, workers: 1).map(\.id), [1, 2])
        var ids: [Int] = []
        try JSONLines<Line>(bytes: array, format: .array).forEach { ids.append($0.id) }
        XCTAssertEqual(ids, [1, 2])
        // Only before the first record, and only UTF-8: a BOM further on is a bad record, UTF-16 is not read.
        let rejected = Collected<RejectedRecord>()
        let second = Array("{\"id\":1}\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("{\"id\":2}\n".utf8)
        try JSONLines<Line>(bytes: second, onError: .skip { rejected.append($0) }).forEach { _ in }
        XCTAssertEqual(rejected.map(\.line), [2])
        XCTAssertThrowsError(try JSONLines<Line>(bytes: Form.utf16LE.encode("{\"id\":1}\n")).forEach { _ in })
    }
}

/// Any JSON value through `Decodable` (to compare decoders on documents of every shape).
indirect enum JSONValueBox: Decodable, Equatable {
    case null, bool(Bool), number(Double), string(String), array([JSONValueBox]), object([String: JSONValueBox])

    struct Key: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var object: [String: JSONValueBox] = [:]
            for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(JSONValueBox.self, forKey: key) }
            self = .object(object)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var array: [JSONValueBox] = []
            while !unkeyed.isAtEnd { array.append(try unkeyed.decode(JSONValueBox.self)) }
            self = .array(array)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let b = try? single.decode(Bool.self) {
                self = .bool(b)
            } else if let n = try? single.decode(Double.self) {
                self = .number(n)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }
}
