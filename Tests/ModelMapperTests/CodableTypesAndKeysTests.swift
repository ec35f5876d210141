import Foundation
import XCTest
@testable import ModelMapper

// Issue 26, point 3: Int128/UInt128 both ways (Codable and mapped properties), allKeys once per key under a
// key strategy, snake case keeping combining marks in their word. Each compared with JSONDecoder/JSONEncoder.

private struct Big: Codable, Equatable {
    var i: Int128
    var u: UInt128
    var opt: Int128?
    var list: [UInt128]
}

private struct BigModel: JSONMappable, Equatable {
    var i: Int128 = 0
    var u: UInt128 = 0
}

private enum Outcome: Equatable {
    case value(String)
    case dataCorrupted([String])
    case typeMismatch([String])
    case other(String)
}

extension Outcome {
    var kind: String {
        switch self {
        case .value: return "value"
        case .dataCorrupted: return "dataCorrupted"
        case .typeMismatch: return "typeMismatch"
        case .other(let text): return text
        }
    }
}

private func outcome<T>(_ body: () throws -> T) -> Outcome {
    do { return .value("\(try body())") } catch let error as DecodingError {
        switch error {
        case .dataCorrupted(let c): return .dataCorrupted(c.codingPath.map(\.stringValue))
        case .typeMismatch(_, let c): return .typeMismatch(c.codingPath.map(\.stringValue))
        default: return .other("\(error)")
        }
    } catch { return .other("\(error)") }
}

private func tenToThe<T: FixedWidthInteger>(_ exponent: Int) -> T {
    (0..<exponent).reduce(1) { power, _ in power * 10 }
}

final class CodableTypesAndKeysTests: XCTestCase {
    private let extremes = #"{"i":-170141183460469231731687303715884105728,"u":340282366920938463463374607431768211455,"opt":170141183460469231731687303715884105727,"list":[0,18446744073709551616,1]}"#

    func testInt128AndUInt128DecodeAsJSONDecoder() throws {
        let data = Data(extremes.utf8)
        let ours = try ModelDecoder().decode(Big.self, from: data)
        XCTAssertEqual(ours, try JSONDecoder().decode(Big.self, from: data))
        XCTAssertEqual(ours.i, .min)
        XCTAssertEqual(ours.u, .max)
        XCTAssertEqual(ours.list[1], UInt128(UInt64.max) + 1)
    }

    func testInt128OutOfRangeFailsAsJSONDecoder() {
        for json in [#"{"i":170141183460469231731687303715884105728,"u":0,"list":[]}"#,
                     #"{"i":0,"u":-1,"list":[]}"#,
                     #"{"i":0,"u":340282366920938463463374607431768211456,"list":[]}"#,
                     #"{"i":1.5,"u":0,"list":[]}"#,
                     #"{"i":"1","u":0,"list":[]}"#] {
            let data = Data(json.utf8)
            // The same case. (JSONDecoder's dataCorrupted for an Int128 out of range has an empty coding
            // path on this toolchain; ours names the member.)
            let ours = outcome { try ModelDecoder().decode(Big.self, from: data) }
            XCTAssertEqual(ours.kind, outcome { try JSONDecoder().decode(Big.self, from: data) }.kind, json)
            if case .value = ours { XCTFail("decoded \(json)") }
            if case .dataCorrupted(let path) = ours { XCTAssertEqual(path.count, 1, json) }
        }
    }

    func testInt128AndUInt128EncodeAsJSONEncoder() throws {
        let value = Big(i: .min, u: .max, opt: nil, list: [0, UInt128(UInt64.max) + 1])
        for formatting in [[], [.sortedKeys]] as [JSONEncoder.OutputFormatting] {
            var ours = ModelEncoder()
            ours.outputFormatting = formatting
            let theirs = JSONEncoder()
            theirs.outputFormatting = formatting
            let a = try ours.encode(value)
            let b = try theirs.encode(value)
            if formatting.contains(.sortedKeys) {
                XCTAssertEqual(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self))
            }
            // JSONEncoder's member order is its dictionary's without sorted keys: compared as values.
            XCTAssertEqual(try ModelDecoder().decode(Big.self, from: a), value)
            XCTAssertEqual(try JSONDecoder().decode(Big.self, from: a), try JSONDecoder().decode(Big.self, from: b))
        }
    }

    func testInt128AsMappedProperties() throws {
        let json = #"{"i":-170141183460469231731687303715884105728,"u":340282366920938463463374607431768211455}"#
        let model = try BigModel(json: Data(json.utf8))
        XCTAssertEqual(model.i, .min)
        XCTAssertEqual(model.u, .max)
        XCTAssertEqual(try BigModel(json: Data(model.jsonData())), model)
        XCTAssertEqual(String(decoding: try model.jsonData(), as: UTF8.self), json)
        // Range-checked, as the other integers: a MappingError with the property path.
        XCTAssertThrowsError(try BigModel(json: Data(#"{"i":0,"u":-1}"#.utf8))) { error in
            XCTAssertEqual((error as? MappingError)?.path, "u")
        }
        XCTAssertThrowsError(try BigModel(json: Data(#"{"i":170141183460469231731687303715884105728,"u":0}"#.utf8)))
    }

    /// swift-foundation's `int128SlowPath`/`uint128SlowPath` (its JSONEncoderTests): an integral literal with
    /// a fraction or an exponent within ±(2^64 - 1) decodes into Int128/UInt128 as JSONDecoder decodes it
    /// (we threw "out of range for Int128" for `18446744073709551615.0`); non-integral or out-of-range
    /// literals are `dataCorrupted` in both.
    func testInt128FromIntegralLiteralWithFractionOrExponentAsJSONDecoder() throws {
        for json in ["18446744073709551615.0", "-18446744073709551615.0", "1.8446744073709551615e19", "-0.0", "1e2", "-1.0"] {
            let data = Data(json.utf8)
            XCTAssertEqual(try ModelDecoder().decode(Int128.self, from: data), try JSONDecoder().decode(Int128.self, from: data), json)
        }
        for json in ["18446744073709551615.0", "1.8446744073709551615e19", "-0.0", "1e2"] {
            let data = Data(json.utf8)
            XCTAssertEqual(try ModelDecoder().decode(UInt128.self, from: data), try JSONDecoder().decode(UInt128.self, from: data), json)
        }
        let member = Data(#"{"i":-18446744073709551615.0,"u":1.8446744073709551615e19,"list":[18446744073709551615.0]}"#.utf8)
        XCTAssertEqual(try ModelDecoder().decode(Big.self, from: member), try JSONDecoder().decode(Big.self, from: member))
        let failing: [(String, any Decodable.Type)] = [
            ("1.5", Int128.self), ("12345678901234567890123e-3", Int128.self), ("-1.0", UInt128.self),
            ("170141183460469231731687303715884105728.0", Int128.self), ("-170141183460469231731687303715884105729.0", Int128.self),
            ("340282366920938463463374607431768211456.0", UInt128.self), ("1e39", UInt128.self),
        ]
        for (json, type) in failing {
            func both<T: Decodable>(_: T.Type) -> (Outcome, Outcome) {
                let data = Data(json.utf8)
                return (outcome { try ModelDecoder().decode(T.self, from: data) }, outcome { try JSONDecoder().decode(T.self, from: data) })
            }
            let (ours, theirs) = both(type)
            XCTAssertEqual(ours.kind, "dataCorrupted", "\(json) into \(type): \(ours)")
            XCTAssertEqual(ours.kind, theirs.kind, "\(json) into \(type)")
        }
    }

    /// Past ±(2^64 - 1) JSONDecoder rejects such a literal (swift-foundation's test calls them "should work
    /// but don't yet"); we decode it exactly, as an integral literal at the 64-bit bounds (a difference in
    /// the Codable article's table, pinned here).
    func testInt128PastUInt64WithFractionOrExponentDecodesExactly() throws {
        let signed: [(String, Int128)] = [("18446744073709551616.0", Int128(UInt64.max) + 1), ("-18446744073709551616.0", -(Int128(UInt64.max) + 1)),
                                          ("\(Int128.min).0", .min), ("\(Int128.max).0", .max), ("1.7e38", 17 * tenToThe(37))]
        for (json, value) in signed {
            XCTAssertEqual(try ModelDecoder().decode(Int128.self, from: Data(json.utf8)), value, json)
            XCTAssertEqual(outcome { try JSONDecoder().decode(Int128.self, from: Data(json.utf8)) }.kind, "dataCorrupted", json)
        }
        let unsigned: [(String, UInt128)] = [("18446744073709551616.0", UInt128(UInt64.max) + 1), ("\(UInt128.max).0", .max), ("1e30", tenToThe(30))]
        for (json, value) in unsigned {
            XCTAssertEqual(try ModelDecoder().decode(UInt128.self, from: Data(json.utf8)), value, json)
            XCTAssertEqual(outcome { try JSONDecoder().decode(UInt128.self, from: Data(json.utf8)) }.kind, "dataCorrupted", json)
        }
        // Mapped properties read the same way (lenient, as the 64-bit integers read `2.0`).
        let model = try BigModel(json: Data(#"{"i":-1.7014118346046923173168730371588410572800e38,"u":1e30}"#.utf8))
        XCTAssertEqual(model, BigModel(i: .min, u: tenToThe(30)))
    }

    // MARK: Keys

    private struct Keyed: Decodable {
        let keys: [String]
        let value: Int
        struct AnyKey: CodingKey {
            var stringValue: String
            init?(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: AnyKey.self)
            keys = c.allKeys.map(\.stringValue).sorted()
            value = try c.decode(Int.self, forKey: AnyKey(stringValue: "name")!)
        }
    }

    func testCustomKeyStrategyMappingTwoKeysToOneListsItOnce() throws {
        let data = Data(#"{"Name":1,"NAME":1,"other":3}"#.utf8)
        let lowercased: @Sendable ([any CodingKey]) -> any CodingKey = { path in JSONStringKey(path.last!.stringValue.lowercased()) }
        var ours = ModelDecoder()
        ours.keyDecodingStrategy = .custom(lowercased)
        let theirs = JSONDecoder()
        theirs.keyDecodingStrategy = .custom(lowercased)
        let a = try ours.decode(Keyed.self, from: data)
        let b = try theirs.decode(Keyed.self, from: data)
        XCTAssertEqual(a.keys, b.keys)
        XCTAssertEqual(a.keys, ["name", "other"])
        XCTAssertEqual(a.value, b.value)
    }

    private struct NamedKey: CodingKey {
        var stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    private struct Names: Encodable {
        let names: [String]
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: NamedKey.self)
            for (i, name) in names.enumerated() { try c.encode(i, forKey: NamedKey(name)) }
        }
    }

    /// ModelEncoder and JSONEncoder, both with `.convertToSnakeCase` and sorted keys.
    private func snakeCaseEncoders() -> (ModelEncoder, JSONEncoder) {
        var ours = ModelEncoder()
        ours.keyEncodingStrategy = .convertToSnakeCase
        ours.outputFormatting = .sortedKeys
        let theirs = JSONEncoder()
        theirs.keyEncodingStrategy = .convertToSnakeCase
        theirs.outputFormatting = .sortedKeys
        return (ours, theirs)
    }

    func testConvertToSnakeCaseKeepsCombiningMarksInTheirWord() throws {
        let names = ["theE\u{301}nd", "theÉ\u{301}nd", "caféCrème", "userID", "myURLProperty", "aB\u{308}c", "x\u{301}Y"]
        let (encoder, theirs) = snakeCaseEncoders()
        var ours = encoder
        let a = String(decoding: try ours.encode(Names(names: names)), as: UTF8.self)
        let b = String(decoding: try theirs.encode(Names(names: names)), as: UTF8.self)
        XCTAssertEqual(a, b)
        XCTAssertTrue(a.contains("\"the_e\u{301}nd\""), a)
        XCTAssertEqual(FoundationKeys.toSnakeCase("theÉ\u{301}nd"), "the_é\u{301}nd")
        // The streaming encoder (no sorted keys) names keys the same way.
        ours.outputFormatting = []
        theirs.outputFormatting = []
        let objectA = try JSONSerialization.jsonObject(with: try ours.encode(Names(names: names))) as? NSDictionary
        let objectB = try JSONSerialization.jsonObject(with: try theirs.encode(Names(names: names))) as? NSDictionary
        XCTAssertEqual(objectA, objectB)
    }

    /// swift-foundation's `encodingKeyStrategySnake` (its JSONEncoderTests): JSONEncoder finds a letter's case
    /// by its general category (Lu or Lt, Ll), so a mark, numeral or modifier with the Unicode `Lowercase` or
    /// `Uppercase` property (U+0345 in `L\u{345}`, `ⅰ`, `ᵃ`, `ʰ`, `ª`, `Ⅰ`, `Ⓐ`) does not end a run of
    /// capitals. We wrote `…_u\u{347}\u{31D}\u{320}_r…` for the first name, JSONEncoder `…_u\u{347}\u{31D}\u{320}r…`.
    func testConvertToSnakeCaseFindsCaseByGeneralCategoryAsJSONEncoder() throws {
        let names = ["m\u{349}\u{31F}\u{339}y\u{326}\u{333}G\u{34D}\u{35A}\u{34E}\u{333}r\u{324}\u{349}\u{324}\u{355}\u{345}ea\u{332}\u{355}t\u{347}\u{325}\u{33C}\u{356}U\u{347}\u{31D}\u{320}R\u{359}\u{33B}\u{325}\u{353}\u{323}L\u{325}\u{316}\u{34E}\u{353}\u{32A}\u{32B}\u{345}R\u{329}\u{356}\u{329}eq\u{348}\u{353}u\u{31E}e\u{331}s\u{319}t\u{324}\u{33A}\u{345}",
                     "aUR\u{345}Lb", "aUR\u{2170}b", "aUR\u{1D43}b", "aUR\u{2B0}b", "aUR\u{AA}b", "aU\u{1C5}b", "a\u{1C5}Lb",
                     "a\u{2160}Bc", "a\u{24B6}Bc", "x\u{345}Yz"]
        let (ours, theirs) = snakeCaseEncoders()
        XCTAssertEqual(String(decoding: try ours.encode(Names(names: names)), as: UTF8.self),
                       String(decoding: try theirs.encode(Names(names: names)), as: UTF8.self))
        for name in names {
            let theirKey = try JSONSerialization.jsonObject(with: try theirs.encode(Names(names: [name]))) as? [String: Int]
            XCTAssertEqual(theirKey.map { Array($0.keys) }, [FoundationKeys.toSnakeCase(name)], name)
            // The mapping path's `.snakeCase` shares the word split.
            XCTAssertEqual(KeyStrategy.snakeCase.key(for: name), FoundationKeys.toSnakeCase(name), name)
        }
        XCTAssertEqual(FoundationKeys.toSnakeCase("aUR\u{345}Lb"), "a_ur\u{345}_lb")
    }

    /// The mapping path's `.snakeCase` shares the word split.
    func testMappingSnakeCaseKeepsCombiningMarksInTheirWord() {
        XCTAssertEqual(KeyStrategy.snakeCase.key(for: "theÉ\u{301}nd"), "the_é\u{301}nd")
        XCTAssertEqual(KeyStrategy.snakeCase.key(for: "myURLProperty"), "my_url_property")
    }
}
