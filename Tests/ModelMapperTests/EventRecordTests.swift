// The realistic event records of the benchmarks' `events` suite (data/events/events.jsonl, made by
// scripts/gen-events): every decode path gives JSONDecoder's value for every line; and the Codable
// decoder's direct readings of UUIDs, `.iso8601` dates and `[String: String]` (DecodingValues.swift,
// DecodingStrategies.swift, UUIDParsing.swift) accept, produce and reject exactly what the general path
// (UUID's and Dictionary's `init(from:)`, a String then the date parser) does, as JSONDecoder does.

import ModelMapperBenchmarkModels
import Foundation
@_spi(Benchmarks) import ModelMapper
import XCTest

final class EventRecordTests: XCTestCase {
    private var lines: [Data] {
        get throws {
            try TestData.data("events/events.jsonl").split(separator: UInt8(ascii: "\n")).map { Data($0) }
        }
    }

    func testEveryPathGivesJSONDecodersValue() throws {
        let data = try TestData.data("events/events.jsonl")
        let lines = try self.lines
        XCTAssertEqual(lines.count, 2000)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let expected = try lines.map { try decoder.decode(EventRecord.self, from: $0) }
        XCTAssertEqual(Set(expected.map(\.eventId)).count, 2000, "distinct UUIDs")
        XCTAssertTrue(expected.contains { $0.page.referrerUrl != nil } && expected.contains { $0.page.referrerUrl == nil })
        XCTAssertTrue(expected.allSatisfy { !$0.attributes.isEmpty && !$0.tags.isEmpty })
        XCTAssertNotEqual(expected[0].occurredAt.timeIntervalSince1970.truncatingRemainder(dividingBy: 1), 0,
                          "milliseconds kept")

        var options = DecodingOptions.lenient
        options.dateStrategy = .iso8601
        XCTAssertEqual(try lines.map { try EventRecord(json: $0, options: options) }, expected)
        for workers in [1, 2] {
            var all: [EventRecord] = []
            try JSONLines<EventRecord>(data: data, options: options, workers: workers).forEach { all.append($0) }
            XCTAssertEqual(all, expected, "JSONLines, \(workers) workers")
        }
        var codable = ModelDecoder()
        codable.dateDecodingStrategy = .iso8601
        XCTAssertEqual(try lines.map { try codable.decodeUsingCodable(EventRecord.self, from: $0) }, expected)

        decoder.keyDecodingStrategy = .convertFromSnakeCase
        codable.keyDecodingStrategy = .convertFromSnakeCase
        let expectedSnake = try lines.map { try decoder.decode(SnakeEventRecord.self, from: $0) }
        XCTAssertEqual(try lines.map { try codable.decode(SnakeEventRecord.self, from: $0) }, expectedSnake)
        XCTAssertEqual(expectedSnake.map(\.eventId), expected.map(\.eventId))
    }

    // MARK: UUIDs

    private struct Holder: Codable, Equatable { var id: UUID }
    private struct OptionalHolder: Codable, Equatable { var id: UUID? }
    private struct MappedHolder: JSONMappable, Equatable {
        var id = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        init() {}
    }

    /// Canonical spellings (the fast path) and near misses (the general path): ModelDecoder agrees with
    /// JSONDecoder on every one, value or error; the mapped codec with `UUID(uuidString:)` of the trimmed text.
    func testUUIDReadingMatchesTheGeneralPath() throws {
        let texts = [
            "f72fcc47-f151-4906-8388-d4eb00290f12", "F72FCC47-F151-4906-8388-D4EB00290F12",
            "f72FCC47-f151-4906-8388-d4Eb00290F12", "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "f72fcc47-f151-4906-8388-d4eb00290f1", "f72fcc47-f151-4906-8388-d4eb00290f123",
            "f72fcc47f151-4906-8388-d4eb00290f12-", "g72fcc47-f151-4906-8388-d4eb00290f12",
            "f72fcc47-f151-4906-8388-d4eb00290f1g", "f72fcc47-f151-4906-8388_d4eb00290f12",
            "{f72fcc47-f151-4906-8388-d4eb00290f12}", " f72fcc47-f151-4906-8388-d4eb00290f12",
            "f72fcc47-f151-4906-8388-d4eb00290f:2", "f72fcc47-f151-4906-8388-d4eb00290f@2", "",
        ]
        for text in texts {
            let json = Data(#"{"id":"\#(text)"}"#.utf8)
            let foundation = Result { try JSONDecoder().decode(Holder.self, from: json) }
            let ours = Result { try ModelDecoder().decode(Holder.self, from: json) }
            switch (foundation, ours) {
            case (.success(let a), .success(let b)): XCTAssertEqual(a, b, text)
            case (.failure(let a), .failure(let b)):
                guard case DecodingError.dataCorrupted(let ca) = a, case DecodingError.dataCorrupted(let cb) = b else {
                    return XCTFail("\(text): \(a) / \(b)")
                }
                XCTAssertEqual(ca.codingPath.map(\.stringValue), cb.codingPath.map(\.stringValue), text)
            default: XCTFail("\(text): JSONDecoder \(foundation), ModelDecoder \(ours)")
            }
            let mapped = Result { try MappedHolder(json: json) }
            if let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) {
                XCTAssertEqual(try mapped.get().id, uuid, text)
            } else {
                XCTAssertThrowsError(try mapped.get(), text)
            }
        }
        // An escaped spelling (the string's bytes are unescaped first), null and a number.
        let escaped = Data(#"{"id":"\u0066\u00372fcc47-f151-4906-8388-d4eb00290f12"}"#.utf8)
        XCTAssertEqual(try ModelDecoder().decode(Holder.self, from: escaped), try JSONDecoder().decode(Holder.self, from: escaped))
        XCTAssertEqual(try ModelDecoder().decode(OptionalHolder.self, from: Data(#"{"id":null}"#.utf8)), OptionalHolder(id: nil))
        XCTAssertThrowsError(try ModelDecoder().decode(Holder.self, from: Data(#"{"id":12}"#.utf8))) { error in
            guard case DecodingError.typeMismatch = error else { return XCTFail("\(error)") }
        }
    }

    // MARK: Dates

    private struct DateHolder: Codable, Equatable { var at: Date }

    func testISO8601DatesMatchJSONDecoder() throws {
        let texts = [
            "2026-01-01T00:00:02.882Z", "2026-01-01T00:00:02Z", "2026-01-01T00:00:02.882+02:00",
            "2025-12-31T23:59:59.999999Z", "1969-07-20T20:17:40.5-05:00", "2026-13-01T00:00:02.882Z",
            "2026-01-01 00:00:02.882Z", "2026-01-01T00:00:02.Z", "2026-01-01", "not a date", "",
        ]
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        var ours = ModelDecoder()
        ours.dateDecodingStrategy = .iso8601
        for text in texts {
            let json = Data(#"{"at":"\#(text)"}"#.utf8)
            let a = Result { try foundation.decode(DateHolder.self, from: json) }
            let b = Result { try ours.decode(DateHolder.self, from: json) }
            switch (a, b) {
            case (.success(let x), .success(let y)): XCTAssertEqual(x, y, text)
            case (.failure(let x), .failure(let y)):
                guard case DecodingError.dataCorrupted = x, case DecodingError.dataCorrupted = y else {
                    return XCTFail("\(text): \(x) / \(y)")
                }
            default: XCTFail("\(text): JSONDecoder \(a), ModelDecoder \(b)")
            }
        }
    }

    // MARK: [String: String]

    private struct Attributes: Codable, Equatable { var attributes: [String: String] }
    private struct OptionalAttributes: Codable, Equatable { var attributes: [String: String]? }

    func testStringDictionariesMatchJSONDecoder() throws {
        let objects = [
            #"{}"#, #"{"a":"1"}"#, #"{"utm_source":"newsletter","plan":"pro","k\u00e9y":"v\nw","":"empty"}"#,
            #"{"a":"1","b":2}"#, #"{"a":null}"#, #"{"a":["x"]}"#, #"{"a":{"b":"c"}}"#, #"{"a":true}"#,
            #"[]"#, #""text""#, #"null"#,
        ]
        for object in objects {
            let json = Data(#"{"attributes":\#(object)}"#.utf8)
            let a = Result { try JSONDecoder().decode(Attributes.self, from: json) }
            let b = Result { try ModelDecoder().decode(Attributes.self, from: json) }
            switch (a, b) {
            case (.success(let x), .success(let y)): XCTAssertEqual(x, y, object)
            case (.failure(let x), .failure(let y)):
                XCTAssertEqual(errorShape(x), errorShape(y), object)
            default: XCTFail("\(object): JSONDecoder \(a), ModelDecoder \(b)")
            }
        }
        XCTAssertEqual(try ModelDecoder().decode(OptionalAttributes.self, from: Data(#"{"attributes":null}"#.utf8)),
                       OptionalAttributes(attributes: nil))
        XCTAssertEqual(try ModelDecoder().decode([String: String].self, from: Data(#"{"x":"1","y":"2"}"#.utf8)),
                       ["x": "1", "y": "2"])
        // A repeated key takes the general path: one entry, one of the two values.
        let repeated = try ModelDecoder().decode(Attributes.self, from: Data(#"{"attributes":{"a":"1","a":"2"}}"#.utf8))
        XCTAssertEqual(repeated.attributes.count, 1)
        XCTAssertTrue(["1", "2"].contains(repeated.attributes["a"] ?? ""), "\(repeated)")
    }

    /// The case and coding path of a DecodingError (the messages may be worded differently).
    private func errorShape(_ error: Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let c): return "typeMismatch " + c.codingPath.map(\.stringValue).joined(separator: ".")
        case DecodingError.valueNotFound(_, let c): return "valueNotFound " + c.codingPath.map(\.stringValue).joined(separator: ".")
        case DecodingError.keyNotFound(let k, let c): return "keyNotFound \(k.stringValue) " + c.codingPath.map(\.stringValue).joined(separator: ".")
        case DecodingError.dataCorrupted(let c): return "dataCorrupted " + c.codingPath.map(\.stringValue).joined(separator: ".")
        default: return "\(error)"
        }
    }
}
