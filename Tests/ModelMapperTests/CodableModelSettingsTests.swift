import Foundation
import XCTest
import ModelMapper

// Issue 39, point 1: a `JSONCodable` model through `ModelDecoder`/`ModelEncoder` gets the settings JSONDecoder
// and JSONEncoder apply to a Codable type. Each case decodes or encodes the model with our coder and its
// plain Codable twin (same properties, synthesized Codable) with Foundation's, on the same bytes and the
// same settings, and compares the results.

private struct SettingsRepo: JSONCodable, Equatable {
    var fullName = ""
    var stargazersCount = 0
    var htmlUrl = ""
    var pushedAt = Date(timeIntervalSince1970: 0)
    var owner = SettingsOwner()
}

private struct SettingsOwner: JSONCodable, Equatable {
    var login = ""
    var siteAdmin = false
}

/// The same shape with synthesized Codable: what JSONDecoder and JSONEncoder do with the settings.
private struct TwinRepo: Codable, Equatable {
    var fullName = ""
    var stargazersCount = 0
    var htmlUrl = ""
    var pushedAt = Date(timeIntervalSince1970: 0)
    var owner = TwinOwner()
}

private struct TwinOwner: Codable, Equatable {
    var login = ""
    var siteAdmin = false
}

private extension SettingsRepo {
    var twin: TwinRepo {
        TwinRepo(fullName: fullName, stargazersCount: stargazersCount, htmlUrl: htmlUrl, pushedAt: pushedAt,
                 owner: TwinOwner(login: owner.login, siteAdmin: owner.siteAdmin))
    }
}

final class CodableModelSettingsTests: XCTestCase {
    private let snakeJSON = #"{"full_name":"octocat/Hello-World","stargazers_count":80,"html_url":"https://github.com/octocat","pushed_at":1712491290,"owner":{"login":"octocat","site_admin":true}}"#

    func testKeyAndDateDecodingStrategiesReachTheModel() throws {
        let strategies: [(String, JSONDecoder.DateDecodingStrategy, String)] = [
            ("seconds", .secondsSince1970, "1712491290"),
            ("milliseconds", .millisecondsSince1970, "1712491290500"),
            ("iso8601", .iso8601, #""2024-04-07T12:01:30Z""#),
        ]
        for (name, dates, pushedAt) in strategies {
            let json = Data(snakeJSON.replacingOccurrences(of: "1712491290", with: pushedAt).utf8)
            let foundation = JSONDecoder()
            foundation.keyDecodingStrategy = .convertFromSnakeCase
            foundation.dateDecodingStrategy = dates
            var ours = ModelDecoder()
            ours.keyDecodingStrategy = .convertFromSnakeCase
            ours.dateDecodingStrategy = dates
            let expected = try foundation.decode(TwinRepo.self, from: json)
            XCTAssertEqual(expected.fullName, "octocat/Hello-World", name)
            XCTAssertEqual(try ours.decode(SettingsRepo.self, from: json).twin, expected, name)
            XCTAssertEqual(try ours.decode([SettingsRepo].self, from: Data("[\(String(decoding: json, as: UTF8.self))]".utf8)).map(\.twin),
                           [expected], name)
        }
        // Without the setting, snake_case keys match nothing (as JSONDecoder without it): defaults stay.
        XCTAssertEqual(try ModelDecoder().decode(SettingsRepo.self, from: Data(snakeJSON.utf8)).fullName, "")
        // A deliberate difference: the mapping's .snakeCase derives the key from the property ("htmlURL" ->
        // "html_url") where convertFromSnakeCase derives a name from the key ("html_url" -> "htmlUrl"), so
        // an acronym property is found where JSONDecoder finds none (Foundation's word split, documented).
        var ours = ModelDecoder()
        ours.keyDecodingStrategy = .convertFromSnakeCase
        XCTAssertEqual(try ours.decode(SettingsAcronym.self, from: Data(#"{"html_url":"u"}"#.utf8)).htmlURL, "u")
    }

    func testACustomKeyStrategyIsAppliedAsJSONDecoderAppliesIt() throws {
        let json = Data(#"{"FULLNAME":"a/b","STARGAZERSCOUNT":3,"HTMLURL":"u","PUSHEDAT":5,"OWNER":{"LOGIN":"x","SITEADMIN":true}}"#.utf8)
        let lowerCamel: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            let upper = path.last!.stringValue
            let names = ["FULLNAME": "fullName", "STARGAZERSCOUNT": "stargazersCount", "HTMLURL": "htmlUrl", "PUSHEDAT": "pushedAt",
                         "OWNER": "owner", "LOGIN": "login", "SITEADMIN": "siteAdmin"]
            return SettingsKey(names[upper] ?? upper)
        }
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .custom(lowerCamel)
        foundation.dateDecodingStrategy = .secondsSince1970
        var ours = ModelDecoder()
        ours.keyDecodingStrategy = .custom(lowerCamel)
        ours.dateDecodingStrategy = .secondsSince1970
        let expected = try foundation.decode(TwinRepo.self, from: json)
        XCTAssertEqual(expected.fullName, "a/b")
        XCTAssertEqual(try ours.decode(SettingsRepo.self, from: json).twin, expected)
        // The same model through JSONDecoder itself.
        XCTAssertEqual(try foundation.decode(SettingsRepo.self, from: json).twin, expected)
    }

    func testEncodingSettingsReachTheModel() throws {
        var model = SettingsRepo()
        model.fullName = "octocat/Hello-World"
        model.stargazersCount = 80
        model.htmlUrl = "https://github.com/octocat"
        model.pushedAt = Date(timeIntervalSince1970: 1712491290)
        model.owner = SettingsOwner(login: "octocat", siteAdmin: true)
        let cases: [(String, JSONEncoder.KeyEncodingStrategy, JSONEncoder.DateEncodingStrategy, JSONEncoder.OutputFormatting)] = [
            ("snake, seconds", .convertToSnakeCase, .secondsSince1970, [.sortedKeys]),
            ("snake, milliseconds, no slash escaping", .convertToSnakeCase, .millisecondsSince1970, [.sortedKeys, .withoutEscapingSlashes]),
            ("default keys, iso8601, pretty", .useDefaultKeys, .iso8601, [.sortedKeys, .prettyPrinted]),
        ]
        for (name, keys, dates, formatting) in cases {
            let foundation = JSONEncoder()
            foundation.keyEncodingStrategy = keys
            foundation.dateEncodingStrategy = dates
            foundation.outputFormatting = formatting
            var ours = ModelEncoder()
            ours.keyEncodingStrategy = keys
            ours.dateEncodingStrategy = dates
            ours.outputFormatting = formatting
            let expected = String(decoding: try foundation.encode(model.twin), as: UTF8.self)
            XCTAssertEqual(String(decoding: try ours.encode(model), as: UTF8.self), expected, name)
            XCTAssertEqual(String(decoding: try ours.encode([model]), as: UTF8.self),
                           String(decoding: try foundation.encode([model.twin]), as: UTF8.self), name)
        }
        // The options' own settings still win, and the mapping API is unchanged.
        XCTAssertEqual(try model.owner.jsonString(options: .sortedKeys), #"{"login":"octocat","siteAdmin":true}"#)
        XCTAssertTrue(try model.jsonString().contains("https://github.com/octocat"), "jsonString() does not escape slashes")
    }

    func testUserInfoReachesTheModelsHooks() throws {
        var ours = ModelDecoder()
        ours.userInfo = [CodingUserInfoKey(rawValue: "tenant")!: "a"]
        let hooked = try ours.decode(SettingsHooked.self, from: Data(#"{"name":"n"}"#.utf8))
        XCTAssertEqual(hooked.tenant, "a")
    }
}

private struct SettingsAcronym: JSONCodable {
    var htmlURL = ""
}

private struct SettingsHooked: JSONCodable, JSONDecodingHooks {
    var name = ""
    var tenant = ""
    mutating func didDecode(from object: JSONObject, context: MappingContext) throws {
        tenant = context.userInfo["tenant"] as? String ?? "none"
    }
}

private struct SettingsKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

// Issue 39.1, the remainder: the `.formatted`/`.custom` date strategies, the data strategies and the
// non-conforming-float strategies reach a `JSONCodable` model through `ModelDecoder`/`ModelEncoder`, as
// JSONDecoder/JSONEncoder apply them to the model's synthesized-Codable twin: the same values, the same
// output, or the same kind of error.

private struct StrategyRecord: JSONCodable {
    var name = ""
    var at = Date(timeIntervalSince1970: 0)
    var later: Date? = nil
    var blob = Data()
    var ratio = 0.0
    var scale: Float = 0
}

/// The twin reads an absent key as the mapping does (the property keeps its default), so that documents
/// that leave keys out compare; every present value goes through JSONDecoder's strategies.
private struct StrategyTwin: Codable, Equatable {
    var name = ""
    var at = Date(timeIntervalSince1970: 0)
    var later: Date? = nil
    var blob = Data()
    var ratio = 0.0
    var scale: Float = 0

    enum CodingKeys: String, CodingKey { case name, at, later, blob, ratio, scale }

    init(name: String, at: Date, later: Date?, blob: Data, ratio: Double, scale: Float) {
        (self.name, self.at, self.later, self.blob, self.ratio, self.scale) = (name, at, later, blob, ratio, scale)
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? name
        at = try c.decodeIfPresent(Date.self, forKey: .at) ?? at
        later = try c.decodeIfPresent(Date.self, forKey: .later)
        blob = try c.decodeIfPresent(Data.self, forKey: .blob) ?? blob
        ratio = try c.decodeIfPresent(Double.self, forKey: .ratio) ?? ratio
        scale = try c.decodeIfPresent(Float.self, forKey: .scale) ?? scale
    }
}

private extension StrategyRecord {
    var twin: StrategyTwin { StrategyTwin(name: name, at: at, later: later, blob: blob, ratio: ratio, scale: scale) }
}

/// The fields compared with NaN equal to NaN.
private func same(_ a: StrategyTwin, _ b: StrategyTwin) -> Bool {
    func eq(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
    return a.name == b.name && a.at == b.at && a.later == b.later && a.blob == b.blob && eq(a.ratio, b.ratio)
        && eq(Double(a.scale), Double(b.scale))
}

private struct StrategyFailure: Error, Equatable { let text: String }

/// The kind of a thrown error, for comparing ours with Foundation's.
private func kind(_ error: any Error) -> String {
    switch error {
    case DecodingError.typeMismatch: return "typeMismatch"
    case DecodingError.valueNotFound: return "valueNotFound"
    case DecodingError.keyNotFound: return "keyNotFound"
    case DecodingError.dataCorrupted: return "dataCorrupted"
    case EncodingError.invalidValue: return "invalidValue"
    case let failure as StrategyFailure: return "StrategyFailure(\(failure.text))"
    default: return "other: \(type(of: error))"
    }
}

private struct DecoderSettings {
    var dates: JSONDecoder.DateDecodingStrategy = .deferredToDate
    var data: JSONDecoder.DataDecodingStrategy = .base64
    var floats: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
}

private struct EncoderSettings {
    var dates: JSONEncoder.DateEncodingStrategy = .deferredToDate
    var data: JSONEncoder.DataEncodingStrategy = .base64
    var floats: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
}

private let postFormatter: DateFormatter = {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter
}()

private let dayDecoding: JSONDecoder.DateDecodingStrategy = .custom { decoder in
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    if text == "boom" { throw StrategyFailure(text: "boom") }
    guard text.hasPrefix("day "), let day = Double(text.dropFirst(4)) else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a day: \(text)")
    }
    return Date(timeIntervalSince1970: day * 86_400)
}

private let hexDecoding: JSONDecoder.DataDecodingStrategy = .custom { decoder in
    let text = try decoder.singleValueContainer().decode(String.self)
    var bytes: [UInt8] = []
    var i = text.startIndex
    while i < text.endIndex {
        let next = text.index(i, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
        guard let byte = UInt8(text[i..<next], radix: 16) else { throw StrategyFailure(text: "hex") }
        bytes.append(byte)
        i = next
    }
    return Data(bytes)
}

extension CodableModelSettingsTests {
    private func decodeBoth(_ json: String, _ settings: DecoderSettings, _ name: String, options: DecodingOptions = .lenient,
                            file: StaticString = #filePath, line: UInt = #line) {
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = settings.dates
        foundation.dataDecodingStrategy = settings.data
        foundation.nonConformingFloatDecodingStrategy = settings.floats
        var ours = ModelDecoder(options: options)
        ours.dateDecodingStrategy = settings.dates
        ours.dataDecodingStrategy = settings.data
        ours.nonConformingFloatDecodingStrategy = settings.floats
        let bytes = Data(json.utf8)
        let expected = Result { try foundation.decode(StrategyTwin.self, from: bytes) }
        let got = Result { try ours.decode(StrategyRecord.self, from: bytes).twin }
        let gotArray = Result { try ours.decode([StrategyRecord].self, from: Data("[\(json)]".utf8)).map(\.twin) }
        switch (expected, got) {
        case (.success(let e), .success(let g)):
            XCTAssertTrue(same(e, g), "\(name): \(g) is not JSONDecoder's \(e)", file: file, line: line)
            if case .success(let array) = gotArray {
                XCTAssertTrue(array.count == 1 && same(array[0], e), "\(name): array", file: file, line: line)
            } else {
                XCTFail("\(name): the array failed: \(gotArray)", file: file, line: line)
            }
        case (.failure(let e), .failure(let g)):
            XCTAssertEqual(kind(g), kind(e), "\(name): \(g)", file: file, line: line)
        default:
            XCTFail("\(name): JSONDecoder gave \(expected), ModelDecoder \(got)", file: file, line: line)
        }
    }

    func testFormattedAndCustomDateStrategiesReachTheModel() {
        let formatted = DecoderSettings(dates: .formatted(postFormatter))
        decodeBoth(#"{"name":"a","at":"2024-04-07 12:01:30","later":"2024-04-08 00:00:00"}"#, formatted, "formatted")
        decodeBoth(#"{"name":"a","at":"2024-04-07T12:01:30Z"}"#, formatted, "formatted, another format")
        decodeBoth(#"{"name":"a","at":1712491290}"#, formatted, "formatted, a number")
        let custom = DecoderSettings(dates: dayDecoding)
        decodeBoth(#"{"name":"a","at":"day 19820","later":"day 1.5"}"#, custom, "custom")
        decodeBoth(#"{"name":"a","at":"week 3"}"#, custom, "custom, its DecodingError")
        decodeBoth(#"{"name":"a","at":"boom"}"#, custom, "custom, its own error")
        decodeBoth(#"{"name":"a","at":5}"#, custom, "custom, the container's typeMismatch")
        decodeBoth(#"{"name":"a","later":null}"#, custom, "custom, null for an Optional")
    }

    func testDataStrategiesReachTheModel() {
        decodeBoth(#"{"blob":"aGVsbG8="}"#, DecoderSettings(), "base64")
        decodeBoth(#"{"blob":"not base64!"}"#, DecoderSettings(), "base64, invalid")
        let deferred = DecoderSettings(data: .deferredToData)
        decodeBoth(#"{"blob":[104,105,255]}"#, deferred, "deferredToData")
        decodeBoth(#"{"blob":[]}"#, deferred, "deferredToData, empty")
        decodeBoth(#"{"blob":"aGVsbG8="}"#, deferred, "deferredToData, a string")
        decodeBoth(#"{"blob":[1,256]}"#, deferred, "deferredToData, out of range")
        let hex = DecoderSettings(data: hexDecoding)
        decodeBoth(#"{"blob":"cafe01"}"#, hex, "custom")
        decodeBoth(#"{"blob":"zz"}"#, hex, "custom, its own error")
    }

    func testNonConformingFloatStrategiesReachTheModel() {
        let strings = DecoderSettings(floats: .convertFromString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN"))
        decodeBoth(#"{"ratio":"+Inf","scale":"-Inf"}"#, strings, "convertFromString")
        decodeBoth(#"{"ratio":"NaN","scale":"NaN"}"#, strings, "convertFromString, NaN")
        decodeBoth(#"{"ratio":1.5,"scale":2}"#, strings, "convertFromString, numbers")
        // Another string is not a number: a type mismatch under strict options, as JSONDecoder (lenient
        // options, the default, read numeric strings and call other strings invalid values).
        decodeBoth(#"{"ratio":"inf"}"#, strings, "convertFromString, another string", options: .strict)
        decodeBoth(#"{"ratio":"+Inf"}"#, DecoderSettings(), "throw", options: .strict)
    }

    private func encodeBoth(_ record: StrategyRecord, _ settings: EncoderSettings, _ name: String,
                            file: StaticString = #filePath, line: UInt = #line) {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys]
        foundation.dateEncodingStrategy = settings.dates
        foundation.dataEncodingStrategy = settings.data
        foundation.nonConformingFloatEncodingStrategy = settings.floats
        var ours = ModelEncoder()
        ours.outputFormatting = [.sortedKeys]
        ours.dateEncodingStrategy = settings.dates
        ours.dataEncodingStrategy = settings.data
        ours.nonConformingFloatEncodingStrategy = settings.floats
        let expected = Result { String(decoding: try foundation.encode(record.twin), as: UTF8.self) }
        let got = Result { String(decoding: try ours.encode(record), as: UTF8.self) }
        let expectedArray = Result { String(decoding: try foundation.encode([record.twin]), as: UTF8.self) }
        let gotArray = Result { String(decoding: try ours.encode([record]), as: UTF8.self) }
        switch (expected, got) {
        case (.success(let e), .success(let g)):
            XCTAssertEqual(g, e, name, file: file, line: line)
            XCTAssertEqual(try gotArray.get(), try expectedArray.get(), name, file: file, line: line)
        case (.failure(let e), .failure(let g)):
            // JSONEncoder's EncodingError; ours a MappingError where the mapping itself refuses (NaN), else
            // what the strategy threw.
            if !(g is MappingError) { XCTAssertEqual(kind(g), kind(e), "\(name): \(g)", file: file, line: line) }
        default:
            XCTFail("\(name): JSONEncoder gave \(expected), ModelEncoder \(got)", file: file, line: line)
        }
    }

    func testEncodingDateDataAndFloatStrategiesReachTheModel() {
        var record = StrategyRecord()
        record.name = "a/b"
        record.at = Date(timeIntervalSince1970: 1_712_491_290)
        record.later = Date(timeIntervalSince1970: 86_400)
        record.blob = Data([104, 105, 255])
        record.ratio = 1.5
        record.scale = 0.25
        encodeBoth(record, EncoderSettings(dates: .formatted(postFormatter)), "formatted")
        let days: JSONEncoder.DateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("day \(Int(date.timeIntervalSince1970 / 86_400))")
        }
        encodeBoth(record, EncoderSettings(dates: days), "custom")
        let nothing: JSONEncoder.DateEncodingStrategy = .custom { _, _ in }
        encodeBoth(record, EncoderSettings(dates: nothing), "custom, nothing written")
        let failing: JSONEncoder.DateEncodingStrategy = .custom { _, _ in throw StrategyFailure(text: "date") }
        encodeBoth(record, EncoderSettings(dates: failing), "custom, its own error")
        // Dates in seconds where the case is about something else (`.deferredToDate`, the default, leaves
        // the model's own date strategy).
        encodeBoth(record, EncoderSettings(dates: .secondsSince1970, data: .deferredToData), "deferredToData")
        let hex: JSONEncoder.DataEncodingStrategy = .custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(data.map { String(format: "%02x", $0) }.joined())
        }
        encodeBoth(record, EncoderSettings(dates: .secondsSince1970, data: hex), "custom data")
        encodeBoth(record, EncoderSettings(dates: .secondsSince1970), "base64")
        var special = record
        special.ratio = .infinity
        special.scale = -.infinity
        let strings = EncoderSettings(dates: .secondsSince1970,
                                      floats: .convertToString(positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN"))
        encodeBoth(special, strings, "convertToString")
        special.ratio = .nan
        encodeBoth(special, strings, "convertToString, NaN")
        encodeBoth(special, EncoderSettings(dates: .secondsSince1970), "throw")
    }
}
