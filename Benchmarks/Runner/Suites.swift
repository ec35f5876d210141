// The benchmark cases: one suite per data set, each with the same contenders on the same bytes.
//
// EXTENSION POINT: `benchmarkSuites` below is the list of everything the runner measures. To add rows
// (e.g. JSON Lines throughput), append a `SuiteFactory` whose `make` loads its input and returns a
// `BenchmarkSuite` with its contenders; name a `reference` per contender for the ratio column (e.g.
// "2 workers" against "1 worker") and set `floor` if a parse floor applies. The tables, the JSON results,
// the Markdown report and the chart pick new suites up without further changes.

import BenchmarkModels
import CYajlFloor
import Foundation
@_spi(Benchmarks) import ModelMapper

/// What a suite factory gets: where the data is and how long to measure.
struct BenchmarkEnvironment {
    let dataDirectory: URL
    let settings: Settings

    /// The bytes of a data file (path relative to the data directory), or `SkipSuite` when it is absent.
    func load(_ relativePath: String) throws -> Data {
        let url = dataDirectory.appendingPathComponent(relativePath)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw SkipSuite(reason: "\(url.path) not found (the data sets are committed in the repository's data/ folder; " +
                                "--data DIR reads them from another folder)")
        }
        return try Data(contentsOf: url)
    }
}

/// Thrown by a suite factory whose input is unavailable: the suite is skipped with this reason.
struct SkipSuite: Error {
    let reason: String
}

/// Makes one suite; `make` runs only when the suite is selected (so its memory counts from then on).
struct SuiteFactory {
    let name: String
    let make: (BenchmarkEnvironment) throws -> BenchmarkSuite
}

/// Everything the runner measures, in order.
var benchmarkSuites: [SuiteFactory] { [
    modelSuite("twitter", file: "bench/twitter.json", objectDocument(TwitterTimeline.self)),
    // Partial models: the subset of fields a client keeps (TwitterPartial.swift), the rest skipped.
    modelSuite("twitter_partial", file: "bench/twitter.json", objectDocument(TwitterPartialTimeline.self)),
    modelSuite("citm_catalog", file: "bench/citm_catalog.json", objectDocument(CitmCatalog.self)),
    modelSuite("canada", file: "bench/canada.json", objectDocument(CanadaFeatureCollection.self)),
    modelSuite("github_events", file: "bench/github_events.json", arrayDocument(GithubEvent.self)),
    modelSuite("github_events_partial", file: "bench/github_events.json", arrayDocument(GithubPartialEvent.self)),
    // YYModel's own benchmark: GithubUser, 10000 iterations per sample.
    modelSuite("yymodel_user", file: "yymodel/user.json", objectDocument(GithubUser.self), yyModelIterations: true),
    modelSuite("yymodel_weibo", file: "yymodel/weibo.json", objectDocument(WeiboStatus.self)),
    // Small documents decoded on 2 threads against 1 (ThreadScaling.swift).
    threadScalingSuite("github_events_2_threads", file: "bench/github_events.json", arrayDocument(GithubEvent.self), perThread: 4),
    threadScalingSuite("yymodel_user_2_threads", file: "yymodel/user.json", objectDocument(GithubUser.self), perThread: 64),
    keyStrategySuite("github_events_snake_case", file: "bench/github_events.json"),
    // JSON Lines throughput suites go here.
    // Realistic event records, line by line and through JSONLines (EventSuite.swift, issue 47.2).
    eventsSuite("events", file: "events/events.jsonl"),
    jsonLinesSuite("twitter_jsonl", file: "bench/twitter.json", copies: 40),   // JSONLinesSuites.swift
] + macroTwinSuites }  // `@JSONModel` twins beside their reflected models (MacroTwinSuites.swift)

// MARK: - Model suites

/// Contender names shared by the model suites (the report and the targets table refer to them).
enum ContenderName {
    static let yajlFloor = "yajl no-op callbacks, raw numbers (floor)"
    static let yajlConverted = "yajl no-op callbacks, numbers converted"
    static let jsonSerialization = "JSONSerialization"
    static let modelMapper = "ModelMapper"
    static let jsonDecoder = "JSONDecoder"
    static let manual = "JSONSerialization + handwritten"
    static let modelMapperObject = "ModelMapper init(jsonObject:)"
    static let handwrittenObject = "handwritten init(dictionary:)"
    static let modelMapperEncode = "ModelMapper jsonData()"
    static let jsonEncoder = "JSONEncoder"
    static let manualEncode = "handwritten dictionary() + JSONSerialization"
    static let codableDecode = "Codable via ModelDecoder"
    static let codableEncode = "Codable via ModelEncoder"
}

/// How one kind of document (a model, or a top-level array of models) goes through every contender.
struct DocumentKind<Document: Codable & Equatable> {
    let modelName: String
    let decode: (Data) throws -> Document
    let decodeObject: (Any) throws -> Document
    let handwrittenDecode: (Any) throws -> Document
    let handwrittenEncode: (Document) -> Any
    let encode: (Document) throws -> Data
}

struct UnexpectedJSON: Error, CustomStringConvertible {
    let description: String
}

/// A document whose root is one model.
func objectDocument<M: BenchmarkModel>(_ type: M.Type) -> DocumentKind<M> {
    DocumentKind(
        modelName: "\(M.self)",
        decode: { try M(json: $0) },
        decodeObject: { try M(jsonObject: $0) },
        handwrittenDecode: { object in
            guard let dictionary = object as? [String: Any] else { throw UnexpectedJSON(description: "root is not an object") }
            return M(dictionary: dictionary)
        },
        handwrittenEncode: { $0.dictionary() },
        encode: { try $0.jsonData() })
}

/// A document whose root is an array of models.
func arrayDocument<M: BenchmarkModel>(_ type: M.Type) -> DocumentKind<[M]> {
    DocumentKind(
        modelName: "[\(M.self)]",
        decode: { try [M](json: $0) },
        decodeObject: { try [M](jsonObject: $0) },
        handwrittenDecode: { object in
            guard let array = object as? [[String: Any]] else { throw UnexpectedJSON(description: "root is not an array of objects") }
            return array.map { M(dictionary: $0) }
        },
        handwrittenEncode: { $0.map { $0.dictionary() } },
        encode: { try $0.jsonData() })
}

/// A data set decoded and encoded by every contender, on the same bytes.
func modelSuite<Document>(_ name: String, file: String, _ kind: DocumentKind<Document>,
                          yyModelIterations: Bool = false) -> SuiteFactory {
    SuiteFactory(name: name) { environment in
        let data = try environment.load(file)
        let bytes = [UInt8](data)
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()

        // The reference value (JSONDecoder) and the parsed Foundation objects for the dict-input rows.
        let expected = try decoder.decode(Document.self, from: data)
        let foundationObject = try JSONSerialization.jsonObject(with: data)
        let checks = environment.settings.checksSameWork
            ? sameWorkChecks(kind, data: data, foundationObject: foundationObject, expected: expected) : []

        typealias N = ContenderName
        let floorContenders = [
            Contender(.parse, N.yajlFloor, reference: N.jsonDecoder, comparesToFloor: true) {
                let tokens = bytes.withUnsafeBufferPointer { yajl_floor_parse($0.baseAddress, $0.count, 1) }
                if tokens == 0 { throw UnexpectedJSON(description: "yajl rejected the input") }
            },
            Contender(.parse, N.yajlConverted, reference: N.jsonDecoder, comparesToFloor: true) {
                let tokens = bytes.withUnsafeBufferPointer { yajl_floor_parse($0.baseAddress, $0.count, 0) }
                if tokens == 0 { throw UnexpectedJSON(description: "yajl rejected the input") }
            },
            Contender(.parse, N.jsonSerialization, reference: N.jsonDecoder, comparesToFloor: true) {
                blackHole(try JSONSerialization.jsonObject(with: data))
            },
        ]
        let decodeContenders = [
            Contender(.decode, N.modelMapper, reference: N.jsonDecoder, comparesToFloor: true) {
                blackHole(try kind.decode(data))
            },
            Contender(.decode, N.jsonDecoder, reference: N.jsonDecoder, comparesToFloor: true) {
                blackHole(try decoder.decode(Document.self, from: data))
            },
            // The same Codable types through init(from:) on the tape (their JSONMappable mapping unused).
            Contender(.decode, N.codableDecode, reference: N.jsonDecoder) {
                blackHole(try ModelDecoder().decodeUsingCodable(Document.self, from: data))
            },
            Contender(.decode, N.manual, reference: N.jsonDecoder, comparesToFloor: true) {
                blackHole(try kind.handwrittenDecode(try JSONSerialization.jsonObject(with: data)))
            },
        ]
        let dictionaryContenders = [
            Contender(.dictionary, N.modelMapperObject, reference: N.handwrittenObject) {
                blackHole(try kind.decodeObject(foundationObject))
            },
            Contender(.dictionary, N.handwrittenObject, reference: N.handwrittenObject) {
                blackHole(try kind.handwrittenDecode(foundationObject))
            },
        ]
        let encodeContenders = [
            Contender(.encode, N.modelMapperEncode, reference: N.jsonEncoder) {
                blackHole(try kind.encode(expected))
            },
            Contender(.encode, N.jsonEncoder, reference: N.jsonEncoder) {
                blackHole(try encoder.encode(expected))
            },
            Contender(.encode, N.codableEncode, reference: N.jsonEncoder) {
                blackHole(try ModelEncoder().encodeUsingCodable(expected))
            },
            Contender(.encode, N.manualEncode, reference: N.jsonEncoder) {
                blackHole(try JSONSerialization.data(withJSONObject: kind.handwrittenEncode(expected)))
            },
        ]
        var suite = BenchmarkSuite(
            name: name, detail: "\(file) (\(formatBytes(data.count))) → \(kind.modelName)",
            bytesPerOp: data.count, floor: N.yajlFloor,
            contenders: floorContenders + decodeContenders + dictionaryContenders + encodeContenders)
        suite.checks = checks
        if yyModelIterations { suite.fixedOpsPerSample = environment.settings.yyModelIterations }
        return suite
    }
}

/// The Codable coders with a key strategy (`.convertFromSnakeCase`, `.convertToSnakeCase`, a `.custom` one
/// doing the same conversion) on `GithubSnakeEvent`, against JSONDecoder/JSONEncoder with the same strategy
/// and against the same coder reading the same bytes through CodingKeys (`GithubEvent`).
func keyStrategySuite(_ name: String, file: String) -> SuiteFactory {
    SuiteFactory(name: name) { environment in
        let data = try environment.load(file)
        typealias Snake = [GithubSnakeEvent]
        let snakeDecoder = JSONDecoder()
        snakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
        let snakeEncoder = JSONEncoder()
        snakeEncoder.keyEncodingStrategy = .convertToSnakeCase
        // The custom strategy's names for the same conversion (a plain dictionary, built once).
        let expected = try snakeDecoder.decode(Snake.self, from: data)
        var camelNames: [String: String] = [:]
        func learn(_ object: Any) {
            if let d = object as? [String: Any] {
                for (k, v) in d { camelNames[k] = camelCased(k); learn(v) }
            } else if let a = object as? [Any] { a.forEach(learn) }
        }
        learn(try JSONSerialization.jsonObject(with: data))
        let customKeys = JSONDecoder.KeyDecodingStrategy.custom { path in
            let last = path.last!
            return AnyKey(camelNames[last.stringValue] ?? last.stringValue)
        }
        let codingKeysValue = try JSONDecoder().decode([GithubEvent].self, from: data)
        var snake = ModelDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        var custom = ModelDecoder()
        custom.keyDecodingStrategy = customKeys
        var snakeOut = ModelEncoder()
        snakeOut.keyEncodingStrategy = .convertToSnakeCase
        if environment.settings.checksSameWork {
            guard try snake.decodeUsingCodable(Snake.self, from: data) == expected,
                  try custom.decodeUsingCodable(Snake.self, from: data) == expected,
                  try snakeDecoder.decode(Snake.self, from: try snakeOut.encodeUsingCodable(expected)) == expected
            else { throw UnexpectedJSON(description: "a key strategy of ModelDecoder/ModelEncoder differs from JSONDecoder's") }
        }
        typealias N = ContenderName
        let json = "JSONDecoder .convertFromSnakeCase", jsonOut = "JSONEncoder .convertToSnakeCase"
        return BenchmarkSuite(
            name: name, detail: "\(file) (\(formatBytes(data.count))) → [GithubSnakeEvent], key strategies", bytesPerOp: data.count,
            floor: nil, contenders: [
                Contender(.decode, json, reference: json) { blackHole(try snakeDecoder.decode(Snake.self, from: data)) },
                Contender(.decode, "\(N.codableDecode) CodingKeys", reference: json) {
                    blackHole(try ModelDecoder().decodeUsingCodable([GithubEvent].self, from: data))
                },
                Contender(.decode, "\(N.codableDecode) .convertFromSnakeCase", reference: json) {
                    blackHole(try snake.decodeUsingCodable(Snake.self, from: data))
                },
                Contender(.decode, "\(N.codableDecode) .custom", reference: json) {
                    blackHole(try custom.decodeUsingCodable(Snake.self, from: data))
                },
                Contender(.encode, jsonOut, reference: jsonOut) { blackHole(try snakeEncoder.encode(expected)) },
                Contender(.encode, "\(N.codableEncode) CodingKeys", reference: jsonOut) {
                    blackHole(try ModelEncoder().encodeUsingCodable(codingKeysValue))
                },
                Contender(.encode, "\(N.codableEncode) .convertToSnakeCase", reference: jsonOut) {
                    blackHole(try snakeOut.encodeUsingCodable(expected))
                },
            ])
    }
}

/// `.convertFromSnakeCase`'s name for `key`, for the custom strategy above (the keys of github_events have
/// no leading or trailing underscores).
private func camelCased(_ key: String) -> String {
    let parts = key.split(separator: "_")
    guard parts.count > 1 else { return key }
    return parts[0].lowercased() + parts.dropFirst().map { $0.capitalized }.joined()
}

private struct AnyKey: CodingKey {
    let stringValue: String
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// Verifies that the contenders do the same work: each decode path gives the JSONDecoder value, and
/// ModelMapper's encoding decodes back to it. One line per check for the report.
func sameWorkChecks<Document>(_ kind: DocumentKind<Document>, data: Data, foundationObject: Any,
                              expected: Document) -> [String] {
    func check(_ label: String, _ body: () throws -> Document) -> String {
        do {
            return try body() == expected ? "ok: \(label)" : "MISMATCH: \(label) differs from JSONDecoder's value"
        } catch {
            return "FAILED: \(label): \(error)"
        }
    }
    return [
        check("ModelMapper decode == JSONDecoder") { try kind.decode(data) },
        check("ModelMapper init(jsonObject:) == JSONDecoder") { try kind.decodeObject(foundationObject) },
        check("JSONSerialization + handwritten == JSONDecoder") { try kind.handwrittenDecode(foundationObject) },
        check("Codable via ModelDecoder == JSONDecoder") { try ModelDecoder().decodeUsingCodable(Document.self, from: data) },
        check("JSONDecoder(Codable via ModelEncoder) == value") {
            try JSONDecoder().decode(Document.self, from: try ModelEncoder().encodeUsingCodable(expected))
        },
        check("JSONDecoder(ModelMapper jsonData()) == value") {
            try JSONDecoder().decode(Document.self, from: try kind.encode(expected))
        },
    ]
}

/// "616.7 KB": decimal units, like the MB/s column.
func formatBytes(_ count: Int) -> String {
    if count >= 1_000_000 { return String(format: "%.2f MB", Double(count) / 1e6) }
    if count >= 1_000 { return String(format: "%.1f KB", Double(count) / 1e3) }
    return "\(count) B"
}
