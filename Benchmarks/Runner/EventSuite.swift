// The realistic event records (issue 47.2): data/events/events.jsonl (scripts/gen-events, committed),
// 2000 JSON Lines records of ~770 bytes with snake_case keys, a UUID, ISO 8601 dates with milliseconds, a
// raw-value enum, four nested objects, a `[String]` and a `[String: String]` (Benchmarks/Models/
// EventRecords.swift). What a server reading a log or a queue does: every line decoded on its own, by
// JSONDecoder (the reference, `.iso8601` dates), by the mapped model (`EventRecord(json:options:)`, and the
// whole file through `JSONLines` on 1 and 2 workers), and by the Codable path of ModelDecoder with the
// CodingKeys and with `.convertFromSnakeCase` (against JSONDecoder with the same strategy). The `@JSONModel`
// twin of the full event model (EventRecordMacroTwin.swift) is decoded the same ways as the mapped model.
//
// Kept in a file of its own (one line in Suites.swift's list) so that suites added elsewhere merge cleanly.

import BenchmarkModels
import CYajlFloor
import Foundation
@_spi(Benchmarks) import ModelMapper

/// Contender names of the events suite (scripts/counts' counts.tsv names them too).
enum EventContenderName {
    static let jsonLinesOneWorker = "ModelMapper JSONLines 1 worker"
    static let jsonLinesTwoWorkers = "ModelMapper JSONLines 2 workers"
    static let jsonDecoderSnake = "JSONDecoder .convertFromSnakeCase"
    static let codableSnake = "Codable via ModelDecoder .convertFromSnakeCase"
    static let macroJSONLinesOneWorker = "ModelMapper @JSONModel JSONLines 1 worker"
    static let macroJSONLinesTwoWorkers = "ModelMapper @JSONModel JSONLines 2 workers"
}

/// The mapped model's value with the macro twin's fields, so the twin's decodes compare with `==`.
private extension EventRecord {
    init(_ twin: MacroEventRecord) {
        self.init()
        eventId = twin.eventId
        occurredAt = twin.occurredAt
        kind = twin.kind
        sequenceNumber = twin.sequenceNumber
        session.sessionId = twin.session.sessionId
        session.userId = twin.session.userId
        session.startedAt = twin.session.startedAt
        session.isAuthenticated = twin.session.isAuthenticated
        device.deviceType = twin.device.deviceType
        device.osName = twin.device.osName
        device.osVersion = twin.device.osVersion
        device.appVersion = twin.device.appVersion
        device.screenWidth = twin.device.screenWidth
        device.screenHeight = twin.device.screenHeight
        location.countryCode = twin.location.countryCode
        location.city = twin.location.city
        location.latitude = twin.location.latitude
        location.longitude = twin.location.longitude
        location.timeZone = twin.location.timeZone
        page.url = twin.page.url
        page.title = twin.page.title
        page.loadTimeMs = twin.page.loadTimeMs
        page.referrerUrl = twin.page.referrerUrl
        tags = twin.tags
        attributes = twin.attributes
    }
}

func eventsSuite(_ name: String, file: String) -> SuiteFactory {
    SuiteFactory(name: name) { environment in
        let data = try environment.load(file)
        // Each record as its own Data (made once): every line-by-line contender starts from the same bytes.
        let lines: [Data] = data.split(separator: UInt8(ascii: "\n")).map { Data($0) }
        let lineBytes: [[UInt8]] = lines.map { [UInt8]($0) }
        guard !lines.isEmpty else { throw SkipSuite(reason: "\(file) holds no records") }

        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let snakeDecoder = JSONDecoder()
        snakeDecoder.dateDecodingStrategy = .iso8601
        snakeDecoder.keyDecodingStrategy = .convertFromSnakeCase
        var options = DecodingOptions.lenient
        options.dateStrategy = .iso8601
        var codable = ModelDecoder()
        codable.dateDecodingStrategy = .iso8601
        var codableSnake = codable
        codableSnake.keyDecodingStrategy = .convertFromSnakeCase

        var checks: [String] = []
        if environment.settings.checksSameWork {
            let expected = try lines.map { try decoder.decode(EventRecord.self, from: $0) }
            let expectedSnake = try lines.map { try snakeDecoder.decode(SnakeEventRecord.self, from: $0) }
            func check<T: Equatable>(_ label: String, _ reference: [T], _ body: () throws -> [T]) -> String {
                do {
                    return try body() == reference ? "ok: \(label)" : "MISMATCH: \(label) differs from JSONDecoder's value"
                } catch {
                    return "FAILED: \(label): \(error)"
                }
            }
            checks = [
                check("ModelMapper decode == JSONDecoder", expected) {
                    try lines.map { try EventRecord(json: $0, options: options) }
                },
                check("JSONLines 1 worker == JSONDecoder", expected) {
                    var all: [EventRecord] = []
                    try JSONLines<EventRecord>(data: data, options: options).forEach { all.append($0) }
                    return all
                },
                check("JSONLines 2 workers == JSONDecoder", expected) {
                    var all: [EventRecord] = []
                    try JSONLines<EventRecord>(data: data, options: options, workers: 2).forEach { all.append($0) }
                    return all
                },
                check("@JSONModel decode == JSONDecoder", expected) {
                    try lines.map { EventRecord(try MacroEventRecord(json: $0, options: options)) }
                },
                check("@JSONModel JSONLines 1 worker == JSONDecoder", expected) {
                    var all: [EventRecord] = []
                    try JSONLines<MacroEventRecord>(data: data, options: options).forEach { all.append(EventRecord($0)) }
                    return all
                },
                check("@JSONModel JSONLines 2 workers == JSONDecoder", expected) {
                    var all: [EventRecord] = []
                    try JSONLines<MacroEventRecord>(data: data, options: options, workers: 2).forEach { all.append(EventRecord($0)) }
                    return all
                },
                check("Codable via ModelDecoder == JSONDecoder", expected) {
                    try lines.map { try codable.decodeUsingCodable(EventRecord.self, from: $0) }
                },
                check("Codable via ModelDecoder .convertFromSnakeCase == JSONDecoder's", expectedSnake) {
                    try lines.map { try codableSnake.decode(SnakeEventRecord.self, from: $0) }
                },
            ]
        }

        typealias N = ContenderName
        typealias E = EventContenderName
        let count = lines.count
        return BenchmarkSuite(
            name: name,
            detail: "\(file) (\(formatBytes(data.count)), \(count) records of ~\(data.count / count) B) → EventRecord, line by line",
            bytesPerOp: data.count, floor: N.yajlFloor,
            contenders: [
                Contender(.parse, N.yajlFloor, reference: N.jsonDecoder, comparesToFloor: true) {
                    for line in lineBytes {
                        let tokens = line.withUnsafeBufferPointer { yajl_floor_parse($0.baseAddress, $0.count, 1) }
                        if tokens == 0 { throw UnexpectedJSON(description: "yajl rejected a record") }
                    }
                },
                Contender(.decode, N.jsonDecoder, reference: N.jsonDecoder, comparesToFloor: true) {
                    for line in lines { blackHole(try decoder.decode(EventRecord.self, from: line)) }
                },
                Contender(.decode, N.modelMapper, reference: N.jsonDecoder, comparesToFloor: true) {
                    for line in lines { blackHole(try EventRecord(json: line, options: options)) }
                },
                Contender(.decode, E.jsonLinesOneWorker, reference: N.jsonDecoder, comparesToFloor: true) {
                    try JSONLines<EventRecord>(data: data, options: options).forEach { blackHole($0) }
                },
                Contender(.decode, E.jsonLinesTwoWorkers, reference: N.jsonDecoder, comparesToFloor: true) {
                    try JSONLines<EventRecord>(data: data, options: options, workers: 2).forEach { blackHole($0) }
                },
                Contender(.decode, N.jsonModel, reference: N.jsonDecoder, comparesToFloor: true) {
                    for line in lines { blackHole(try MacroEventRecord(json: line, options: options)) }
                },
                Contender(.decode, E.macroJSONLinesOneWorker, reference: N.jsonDecoder, comparesToFloor: true) {
                    try JSONLines<MacroEventRecord>(data: data, options: options).forEach { blackHole($0) }
                },
                Contender(.decode, E.macroJSONLinesTwoWorkers, reference: N.jsonDecoder, comparesToFloor: true) {
                    try JSONLines<MacroEventRecord>(data: data, options: options, workers: 2).forEach { blackHole($0) }
                },
                Contender(.decode, N.codableDecode, reference: N.jsonDecoder, comparesToFloor: true) {
                    for line in lines { blackHole(try codable.decodeUsingCodable(EventRecord.self, from: line)) }
                },
                Contender(.decode, E.jsonDecoderSnake, reference: E.jsonDecoderSnake) {
                    for line in lines { blackHole(try snakeDecoder.decode(SnakeEventRecord.self, from: line)) }
                },
                Contender(.decode, E.codableSnake, reference: E.jsonDecoderSnake, comparesToFloor: true) {
                    for line in lines { blackHole(try codableSnake.decode(SnakeEventRecord.self, from: line)) }
                },
            ],
            checks: checks)
    }
}
