import Foundation
import XCTest
@testable import ModelMapper

// The schema-guided tape (TapeFilter.swift): a model decode records only the members its model reads and
// skips the rest while parsing. It must be invisible: the same values, and the same errors (kind, path,
// message, offset, line, column), as decoding from the full tape. Each test decodes the same bytes both
// ways; the randomized test does so on generated documents full of unknown members, wrong shapes and bad
// values.

fileprivate struct FTInner: JSONMappable, Equatable {
    var id = 0
    var name = ""
    var tags: [String] = []
}

fileprivate struct FTModel: JSONMappable, Equatable {
    var id = 0
    var title = ""
    var inner = FTInner()
    var items: [FTInner] = []
    var byKey: [String: FTInner] = [:]
    var maybe: FTInner? = nil
    var desc = ""
    var alt = 0
    var raw: JSONValue = .null
    var again = FTInner()
    var againToo = FTInner()
    static let mapping = ModelMapping(keys: ["desc": "ext.desc", "alt": ["a1", "a2"], "again": "inner",
                                            "againToo": "inner"])
}

/// Hooks see the whole object, so its objects are recorded whole.
fileprivate struct FTHooked: JSONMappable, JSONDecodingHooks, Equatable {
    var id = 0
    var seenKeys: [String] = []
    mutating func didDecode(from object: JSONObject) throws { seenKeys = object.keys }
}

fileprivate struct FTHookParent: JSONMappable, Equatable {
    var hooked = FTHooked()
    var list: [FTHooked] = []
}

final class FilteredTapeTests: XCTestCase {
    /// Decodes `json` with and without the filter; the results must be identical.
    @discardableResult
    private func decodeBothWays<M: JSONMappable & Equatable>(
        _ type: M.Type, _ json: String, options: DecodingOptions = .lenient,
        file: StaticString = #filePath, line: UInt = #line
    ) -> Result<M, MappingError> {
        let decoder = ModelDecoder(options: options)
        func run(filtered: Bool) -> (Result<M, MappingError>, [MappingError]) {
            let reported = ReportCollector()
            var options = options
            if options.invalidValueHandler != nil { options.invalidValueHandler = { reported.add($0) } }
            let result: Result<M, MappingError>
            do {
                let codec = try MetaCache.shared.codec(for: M.self)
                result = .success(try ModelDecoder(options: options).decodeDocument(json, filter: filtered ? codec.tapeFilter : nil) {
                    c throws(MappingError) in try codec.decode(c, 0)
                })
            } catch let error as MappingError {
                result = .failure(error)
            } catch {
                result = .failure(MappingError(.validation, "unexpected \(error)"))
            }
            return (result, reported.errors)
        }
        let (filtered, filteredReports) = run(filtered: true)
        let (whole, wholeReports) = run(filtered: false)
        switch (filtered, whole) {
        case (.success(let a), .success(let b)):
            XCTAssertEqual(a, b, "filtered and whole tapes decode differently", file: file, line: line)
        case (.failure(let a), .failure(let b)):
            XCTAssertEqual(a, b, "errors differ: \(a) vs \(b)", file: file, line: line)
        default:
            XCTFail("filtered: \(filtered), whole: \(whole)", file: file, line: line)
        }
        XCTAssertEqual(filteredReports, wholeReports, "reported errors differ", file: file, line: line)

        // The streaming record decoder filters too: the document as one JSON Lines record (on one line, so
        // only lines and columns differ) gives the same model, or the same error at the record's path.
        let record = Array((json.replacingOccurrences(of: "\n", with: " ") + "\n").utf8)
        let recordReports = ReportCollector()
        var recordOptions = options
        if options.invalidValueHandler != nil { recordOptions.invalidValueHandler = { recordReports.add($0) } }
        var records = JSONLines<M>(bytes: record, options: recordOptions).makeSyncIterator()
        do {
            let model = try records.next()
            if case .success(let expected) = whole {
                XCTAssertEqual(model, expected, "a JSON Lines record decodes differently", file: file, line: line)
            } else {
                XCTFail("the record decoded, the document failed: \(whole)", file: file, line: line)
            }
        } catch let error as MappingError {
            if case .failure(let expected) = whole {
                XCTAssertEqual(error.kind, expected.kind, "record error kind", file: file, line: line)
                XCTAssertEqual(error.message, expected.message, "record error message", file: file, line: line)
                XCTAssertEqual(error.path, expected.path.isEmpty ? "[0]" : "[0]." + expected.path,
                               "record error path", file: file, line: line)
            } else {
                XCTFail("the record failed (\(error)), the document decoded", file: file, line: line)
            }
        } catch {
            XCTFail("not a MappingError: \(error)", file: file, line: line)
        }
        XCTAssertEqual(recordReports.errors.map(\.message), wholeReports.map(\.message),
                       "reported errors of the record differ", file: file, line: line)
        return filtered
    }

    func testUnknownMembersAreSkippedAndKnownOnesDecoded() throws {
        let json = """
            {"zzz": {"deep": [1, {"x": [[], {}]}, "s"]}, "id": 7, "title": "t",
             "inner": {"skip": [1,2,3], "id": 1, "name": "n", "tags": ["a"], "more": {"a": null}},
             "items": [{"id": 2, "junk": {"k": "v"}}, {"name": "m", "junk2": [true, false]}],
             "byKey": {"x": {"id": 3, "n": {}}, "y": {"tags": []}},
             "maybe": null, "ext": {"desc": "d", "other": [1]}, "a2": 5, "raw": {"any": [1, "two"]}}
            """
        let model = try decodeBothWays(FTModel.self, json).get()
        XCTAssertEqual(model.id, 7)
        XCTAssertEqual(model.inner, FTInner(id: 1, name: "n", tags: ["a"]))
        XCTAssertEqual(model.again, model.inner)
        XCTAssertEqual(model.againToo, model.inner)
        XCTAssertEqual(model.items, [FTInner(id: 2), FTInner(name: "m")])
        XCTAssertEqual(model.byKey["x"]?.id, 3)
        XCTAssertEqual(model.desc, "d")
        XCTAssertEqual(model.alt, 5)
        XCTAssertEqual(model.raw, ["any": [1, "two"]])

        // The tape holds only what the model reads.
        let codec = try MetaCache.shared.codec(for: FTInner.self)
        let small = #"{"id": 1, "unknown": {"a": [1, 2, 3, {"b": null}]}, "name": "x"}"#
        let count = try small.withJSONBytes { bytes in
            try withParsedDocument(bytes, depthLimit: 512, filter: codec.tapeFilter) { tape in tape.count }
        }
        XCTAssertEqual(count, 6, "object start, two kept members, object end")
    }

    func testErrorsAfterSkippedMembersKeepTheirPositions() throws {
        let json = """
            {"skip": {"a": [1, 2, {"b": "c"}]},
             "inner": {"x": [[]], "id": "nope"}}
            """
        guard case .failure(let error) = decodeBothWays(FTModel.self, json) else { return XCTFail("expected an error") }
        XCTAssertEqual(error.kind, .invalidValue)
        XCTAssertEqual(error.path, "inner.id")
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 29)

        // Reported (not thrown) errors too.
        let reported = ReportCollector()
        decodeBothWays(FTModel.self, json, options: DecodingOptions.lenient.skippingInvalidValues { reported.add($0) })
    }

    func testWrongShapesAreRecordedWholeAndReported() {
        for json in [#"{"u": [1], "inner": [1, {"id": 2}]}"#, #"{"items": {"id": 1}}"#, #"{"byKey": [{"id": 1}]}"#,
                     #"{"u": {}, "items": [{"id": 1}, [1, 2]]}"#, #"{"maybe": "x"}"#, #"[{"id": 1}]"#] {
            guard case .failure(let error) = decodeBothWays(FTModel.self, json) else { return XCTFail("\(json) decoded") }
            XCTAssertEqual(error.kind, .typeMismatch, json)
            XCTAssertNotNil(error.column, json)
        }
        var options = DecodingOptions.lenient
        options.wrapsSingleValues = true
        decodeBothWays(FTModel.self, #"{"x": 1, "items": {"id": 4, "y": [1]}}"#, options: options)
    }

    func testSyntaxAndDepthErrorsInsideSkippedValues() {
        guard case .failure(let syntax) = decodeBothWays(FTModel.self, #"{"skip": {"a": [1, 2,, 3]}, "id": 1}"#) else {
            return XCTFail("expected a syntax error")
        }
        XCTAssertEqual(syntax.kind, .syntax)
        XCTAssertEqual(syntax.column, 22)

        let deep = #"{"skip": "# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        guard case .failure(let depth) = decodeBothWays(FTModel.self, deep) else { return XCTFail("expected a depth error") }
        XCTAssertEqual(depth.kind, .depthLimit)
    }

    func testHooksSeeTheWholeObject() throws {
        let json = #"{"hooked": {"id": 1, "extra": [1, {"a": 2}]}, "list": [{"id": 2, "other": {}}], "skip": [1]}"#
        let parent = try decodeBothWays(FTHookParent.self, json).get()
        XCTAssertEqual(parent.hooked.seenKeys, ["id", "extra"])
        XCTAssertEqual(parent.list.first?.seenKeys, ["id", "other"])
    }

    func testDuplicateKeysAndEmptyKeys() throws {
        let model = try decodeBothWays(FTModel.self, #"{"id": 1, "": {"x": 1}, "id": 2, "title": "a", "title": "b"}"#).get()
        XCTAssertEqual(model.id, 2)
        XCTAssertEqual(model.title, "b")
    }

    /// Generated documents: mapped members with good and bad values, unknown members holding random JSON,
    /// wrong shapes, random whitespace and line breaks; every one decodes identically both ways, in both
    /// conversion modes and with reported errors.
    func testRandomDocumentsDecodeIdenticallyWithAndWithoutTheFilter() {
        var rng = SplitMix64(seed: 0x5EED_F117)
        for round in 0..<1500 {
            var generator = FilteredDocumentGenerator(rng: &rng)
            let json = generator.model(depth: 0)
            let options: DecodingOptions
            switch round % 3 {
            case 0: options = .lenient
            case 1: options = .strict
            default: options = DecodingOptions.lenient.skippingInvalidValues { _ in }
            }
            decodeBothWays(FTModel.self, json, options: options)
        }
    }
}

/// Random JSON text shaped like `FTModel` documents.
fileprivate struct FilteredDocumentGenerator {
    var rng: SplitMix64

    init(rng: inout SplitMix64) {
        self.rng = SplitMix64(seed: rng.next())
    }

    private mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
    private mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }

    private mutating func space() -> String { pick(["", " ", "\n", "\n  ", "\t", "\r\n"]) }

    mutating func scalar() -> String {
        pick(["1", "-2", "3.5", "1e400", "\"s\"", "\"42\"", "\"é✓\"", "true", "false", "null", "\"\\u00e9\\n\""])
    }

    mutating func anyValue(depth: Int) -> String {
        guard depth < 4, chance(40) else { return scalar() }
        if chance(50) {
            let n = Int(rng.next() % 4)
            return "[" + (0..<n).map { _ in space() + anyValue(depth: depth + 1) }.joined(separator: ",") + "]"
        }
        let n = Int(rng.next() % 4)
        return "{" + (0..<n).map { i in space() + "\"k\(i)\":" + anyValue(depth: depth + 1) }.joined(separator: ",") + "}"
    }

    mutating func inner(depth: Int) -> String {
        if chance(5) { return anyValue(depth: depth) }
        var members: [String] = []
        if chance(70) { members.append("\"id\":" + (chance(85) ? String(rng.next() % 1000) : scalar())) }
        if chance(60) { members.append("\"name\":" + (chance(85) ? "\"n\(rng.next() % 10)\"" : scalar())) }
        if chance(40) { members.append("\"tags\":" + (chance(85) ? "[\"a\",\"b\"]" : anyValue(depth: depth + 1))) }
        for i in 0..<Int(rng.next() % 3) { members.append("\"u\(i)\":" + anyValue(depth: depth + 1)) }
        members.shuffle(using: &rng)
        return "{" + members.map { space() + $0 }.joined(separator: ",") + space() + "}"
    }

    mutating func model(depth: Int) -> String {
        var members: [String] = []
        if chance(70) { members.append("\"id\":" + (chance(80) ? String(rng.next() % 1000) : scalar())) }
        if chance(50) { members.append("\"title\":" + (chance(80) ? "\"t\"" : scalar())) }
        if chance(60) { members.append("\"inner\":" + inner(depth: depth + 1)) }
        if chance(60) {
            let n = Int(rng.next() % 4)
            let items = (0..<n).map { _ in space() + inner(depth: depth + 2) }.joined(separator: ",")
            members.append("\"items\":" + (chance(90) ? "[" + items + "]" : anyValue(depth: depth + 1)))
        }
        if chance(40) {
            let n = Int(rng.next() % 3)
            members.append("\"byKey\":{" + (0..<n).map { i in "\"k\(i)\":" + inner(depth: depth + 2) }.joined(separator: ",") + "}")
        }
        if chance(30) { members.append("\"maybe\":" + (chance(50) ? "null" : inner(depth: depth + 1))) }
        if chance(40) { members.append("\"ext\":" + (chance(80) ? "{\"desc\":\"d\",\"x\":" + anyValue(depth: 2) + "}" : anyValue(depth: 1))) }
        if chance(40) { members.append(pick(["\"a1\":", "\"a2\":"]) + (chance(80) ? "5" : scalar())) }
        if chance(30) { members.append("\"raw\":" + anyValue(depth: 1)) }
        for i in 0..<Int(rng.next() % 5) { members.append("\"unknown\(i)\":" + anyValue(depth: 1)) }
        members.shuffle(using: &rng)
        return "{" + members.map { space() + $0 }.joined(separator: ",") + space() + "}"
    }
}
