import Foundation
import XCTest
@testable import ModelMapper

// Issue 26, point 5: the APIs JSONDecoder/JSONEncoder have (DESIGN.md 2c, third round), compared with them.

private struct Scaled: DecodableWithConfiguration, EncodableWithConfiguration, Equatable {
    var value: Double
    init(value: Double) { self.value = value }
    init(from decoder: any Decoder, configuration: Double) throws {
        value = try decoder.singleValueContainer().decode(Double.self) * configuration
    }
    func encode(to encoder: any Encoder, configuration: Double) throws {
        var c = encoder.singleValueContainer()
        try c.encode(value / configuration)
    }
}

/// A configured value inside a keyed container (Foundation's `decode(_:forKey:configuration:)`).
private struct Reading: DecodableWithConfiguration, EncodableWithConfiguration, Equatable {
    var name: String
    var scaled: Scaled
    private enum CodingKeys: String, CodingKey { case name, scaled }
    init(name: String, scaled: Scaled) {
        self.name = name
        self.scaled = scaled
    }
    init(from decoder: any Decoder, configuration: Double) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        scaled = try c.decode(Scaled.self, forKey: .scaled, configuration: configuration)
    }
    func encode(to encoder: any Encoder, configuration: Double) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(scaled, forKey: .scaled, configuration: configuration)
    }
}

private enum Tenfold: DecodingConfigurationProviding, EncodingConfigurationProviding {
    static let decodingConfiguration = 10.0
    static let encodingConfiguration = 10.0
}

private struct Pair: Codable, Equatable { var a: Int; var b: String }

private struct PairModel: JSONMappable, Equatable { var a = 0; var b = "" }

final class CodableDropInAPITests: XCTestCase {
    func testDecodeWithConfigurationValueAndProvider() throws {
        let json = Data(#"{"name":"t","scaled":2.5}"#.utf8)
        let ours = try ModelDecoder().decode(Reading.self, from: json, configuration: 4.0)
        XCTAssertEqual(ours, try JSONDecoder().decode(Reading.self, from: json, configuration: 4.0))
        XCTAssertEqual(ours.scaled.value, 10)
        let provided = try ModelDecoder().decode(Reading.self, from: json, configuration: Tenfold.self)
        XCTAssertEqual(provided, try JSONDecoder().decode(Reading.self, from: json, configuration: Tenfold.self))
        XCTAssertEqual(provided.scaled.value, 25)
        // Errors are JSONDecoder's cases.
        let bad = Data(#"{"name":"t","scaled":"x"}"#.utf8)
        XCTAssertThrowsError(try ModelDecoder().decode(Reading.self, from: bad, configuration: 1.0)) { error in
            guard case DecodingError.typeMismatch(_, let context)? = error as? DecodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["scaled"])
        }
        XCTAssertThrowsError(try JSONDecoder().decode(Reading.self, from: bad, configuration: 1.0)) { error in
            guard case DecodingError.typeMismatch? = error as? DecodingError else { return XCTFail("\(error)") }
        }
    }

    func testEncodeWithConfigurationValueAndProvider() throws {
        let value = Reading(name: "t", scaled: Scaled(value: 25))
        var ours = ModelEncoder()
        ours.outputFormatting = .sortedKeys
        let theirs = JSONEncoder()
        theirs.outputFormatting = .sortedKeys
        XCTAssertEqual(String(decoding: try ours.encode(value, configuration: 5.0), as: UTF8.self),
                       String(decoding: try theirs.encode(value, configuration: 5.0), as: UTF8.self))
        XCTAssertEqual(String(decoding: try ours.encode(value, configuration: Tenfold.self), as: UTF8.self),
                       String(decoding: try theirs.encode(value, configuration: Tenfold.self), as: UTF8.self))
        XCTAssertEqual(String(decoding: try ModelEncoder().encode(value, configuration: Tenfold.self), as: UTF8.self),
                       #"{"name":"t","scaled":2.5}"#)
    }

    func testAssumesTopLevelDictionary() throws {
        var ours = ModelDecoder()
        ours.assumesTopLevelDictionary = true
        let theirs = JSONDecoder()
        theirs.assumesTopLevelDictionary = true
        for json in [#""a":1,"b":"x""#, #"{"a":1,"b":"x"}"#, " \n\"a\" : 1 , \"b\":\"x\" ", "\u{FEFF}\"a\":1,\"b\":\"x\""] {
            let data = Data(json.utf8)
            XCTAssertEqual(try ours.decode(Pair.self, from: data), try theirs.decode(Pair.self, from: data), json)
            // The mapper's path too (a model decoded by ModelDecoder).
            XCTAssertEqual(try ours.decode(PairModel.self, from: data), PairModel(a: 1, b: "x"), json)
        }
        // Without the setting, members without braces are invalid JSON, for both.
        XCTAssertThrowsError(try ModelDecoder().decode(Pair.self, from: Data(#""a":1,"b":"x""#.utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(Pair.self, from: Data(#""a":1,"b":"x""#.utf8)))
        // An empty object's members.
        XCTAssertEqual(try ours.decode([String: Int].self, from: Data("".utf8)), try theirs.decode([String: Int].self, from: Data("".utf8)))
    }
}
