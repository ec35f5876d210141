import Foundation
import XCTest
import ModelMapper

// Enum fallback (issue #13 item 2): a JSONUnknownCaseRepresentable enum decodes raw values it does not know
// to `unknownCase`, reported with path and position, never thrown.

fileprivate enum UCStatus: String, JSONUnknownCaseRepresentable, Codable {
    case active, closed, unknown
    static var unknownCase: UCStatus { .unknown }
}

fileprivate enum UCLevel: Int, JSONUnknownCaseRepresentable {
    case low = 1, high = 2, other = -1
    static var unknownCase: UCLevel { .other }
}

/// Without the protocol: unknown raw values stay errors.
fileprivate enum UCPlain: String { case a, b }

fileprivate struct UCTicket: JSONMappable, Equatable {
    var status = UCStatus.active
    var level = UCLevel.low
    var previous: UCStatus? = .closed
    var history: [UCStatus] = []
    var byUser: [String: UCStatus] = [:]
}

fileprivate struct UCPlainModel: JSONMappable { var plain = UCPlain.a }

fileprivate struct UCCodableTicket: Codable, Equatable {
    var status: UCStatus
    var all: [UCStatus]
}

fileprivate struct UCWithCodable: JSONMappable {
    var inner = UCCodableTicket(status: .active, all: [])
}

final class UnknownCaseTests: XCTestCase {
    func testKnownValuesDecodeAsThemselves() throws {
        let t = try UCTicket(json: #"{"status":"closed","level":2,"previous":"active","history":["active","closed"]}"#)
        XCTAssertEqual(t, UCTicket(status: .closed, level: .high, previous: .active, history: [.active, .closed]))
    }

    func testUnknownRawValuesBecomeTheUnknownCaseEverywhere() throws {
        let json = #"{"status":"archived","level":7,"previous":"gone","history":["active","new"],"byUser":{"ann":"x","bob":"closed"}}"#
        let t = try UCTicket(json: json)
        XCTAssertEqual(t.status, .unknown)
        XCTAssertEqual(t.level, .other)
        XCTAssertEqual(t.previous, .unknown)
        XCTAssertEqual(t.history, [.active, .unknown])
        XCTAssertEqual(t.byUser, ["ann": .unknown, "bob": .closed])
    }

    func testEachFallbackIsReportedWithPathAndPosition() throws {
        let collector = ReportCollector()
        let json = "{\"status\":\"archived\",\n\"history\":[\"active\",\"new\"],\"byUser\":{\"ann\":\"x\"}}"
        let t = try UCTicket(json: json, options: collector.options())
        XCTAssertEqual(t.history, [.active, .unknown])
        XCTAssertEqual(collector.summary, ["status invalidValue 1:11", "history[1] invalidValue 2:21",
                                           "byUser.ann invalidValue 2:44"])
        XCTAssertTrue(collector.errors[0].message.contains("archived"), collector.errors[0].message)
        XCTAssertTrue(collector.errors[0].message.contains("UCStatus.unknown"), collector.errors[0].message)
    }

    func testNullStaysNilForOptionalsAndIsIgnoredForNonOptionals() throws {
        let t = try UCTicket(json: #"{"status":null,"previous":null}"#)
        XCTAssertEqual(t.status, .active)   // null leaves a non-optional unchanged (section 3)
        XCTAssertNil(t.previous)
    }

    func testWrongJSONTypesAreStillErrors() throws {
        let object = mappingError { try UCTicket(json: #"{"status":{"a":1}}"#) }
        XCTAssertEqual(object?.kind, .typeMismatch)
        XCTAssertEqual(object?.path, "status")
        XCTAssertEqual(object?.column, 11)
        // Strict: a number is not a String raw value.
        let strict = mappingError { try UCTicket(json: #"{"history":["active",3]}"#, options: .strict) }
        XCTAssertEqual(strict?.kind, .typeMismatch)
        XCTAssertEqual(strict?.path, "history[1]")
        // Lenient: 3 reads as the string "3", which is unknown.
        XCTAssertEqual(try UCTicket(json: #"{"history":["active",3]}"#).history, [.active, .unknown])
        // Int raw values: a fraction is not an Int, so not a raw value at all.
        XCTAssertEqual(mappingError { try UCTicket(json: #"{"level":1.5}"#) }?.kind, .invalidValue)
    }

    func testEnumsWithoutTheProtocolStillThrow() {
        let error = mappingError { try UCPlainModel(json: #"{"plain":"zzz"}"#) }
        XCTAssertEqual(error?.kind, .invalidValue)
        XCTAssertEqual(error?.path, "plain")
    }

    func testEncodingWritesTheRawValueOfTheUnknownCase() throws {
        let t = try UCTicket(json: #"{"status":"archived","history":["new"]}"#)
        let out = try t.jsonString(options: [.sortedKeys])
        XCTAssertEqual(out, #"{"byUser":{},"history":["unknown"],"level":1,"previous":"closed","status":"unknown"}"#)
        XCTAssertEqual(try UCTicket(json: out), t)
    }

    func testCodablePathHonoursTheProtocol() throws {
        let json = #"{"status":"archived","all":["active","later"]}"#
        let decoded = try ModelDecoder().decode(UCCodableTicket.self, from: Data(json.utf8))
        XCTAssertEqual(decoded, UCCodableTicket(status: .unknown, all: [.active, .unknown]))
        // A wrong type is still a DecodingError.
        XCTAssertThrowsError(try ModelDecoder().decode(UCCodableTicket.self, from: Data(#"{"status":1,"all":[]}"#.utf8))) {
            guard case DecodingError.typeMismatch = $0 else { return XCTFail("\($0)") }
        }
    }

    func testCodableValueInsideAModelReportsWithTheFullPath() throws {
        let collector = ReportCollector()
        let m = try UCWithCodable(json: #"{"inner":{"status":"active","all":["x"]}}"#, options: collector.options())
        XCTAssertEqual(m.inner.all, [.unknown])
        XCTAssertEqual(collector.errors.map(\.path), ["inner.all[0]"])
        XCTAssertEqual(collector.errors.first?.kind, .invalidValue)
    }

    func testJSONLinesReportsCarryTheRecordIndex() throws {
        let collector = ReportCollector()
        let text = "{\"status\":\"active\"}\n{\"status\":\"nope\"}\n"
        let all = try JSONLines<UCTicket>.decodeAll(Data(text.utf8), options: collector.options(), workers: 1)
        XCTAssertEqual(all.map(\.status), [.active, .unknown])
        XCTAssertEqual(collector.summary, ["[1].status invalidValue 2:11"])
    }
}
