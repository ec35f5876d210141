import Foundation
import XCTest
import ModelMapper

// `Float80` properties on x86 (YYModel's `long double`), both ways (issue 27, point 8).
#if !(os(Windows) || os(Android)) && (arch(i386) || arch(x86_64))

private struct F80Reading: JSONMappable, Equatable {
    var id = 0
    var value: Float80 = 0
    var optional: Float80?
    var list: [Float80] = []
}

final class Float80Tests: XCTestCase {
    /// A literal with more digits than a Double holds is read from its text, correctly rounded as strtold
    /// rounds it, not through `Double` (YYModel's `doubleValue` loses them).
    func testDecodesFromTheLiteralText() throws {
        let literal = "3.14159265358979323846264338327950288"
        let expected = try XCTUnwrap(Float80(literal))
        XCTAssertNotEqual(expected, Float80(Double(literal)!), "the test needs digits a Double loses")

        let text = #"{"id":1,"value":\#(literal),"optional":"  2.5e-4000 ","list":[1,-0.1,1e4000]}"#
        let plain = try F80Reading(json: text)
        XCTAssertEqual(plain.value, expected)
        XCTAssertEqual(plain.optional, Float80("2.5e-4000"), "lenient mode reads numeric strings (this one is no Double)")
        XCTAssertEqual(plain.list, [1, Float80("-0.1")!, Float80("1e4000")!])

        // Dictionary input: a JSONValue keeps every literal; JSONSerialization's numbers (its long literals
        // come as exact decimals) cannot hold 1e4000, so its document leaves that one out.
        XCTAssertEqual(try F80Reading(jsonObject: JSONValue(json: text)), plain)
        let object = try JSONSerialization.jsonObject(with: Data(#"{"value":\#(literal),"list":["-0.1",2]}"#.utf8))
        let fromFoundation = try F80Reading(jsonObject: object)
        XCTAssertEqual(fromFoundation.value, expected)
        XCTAssertEqual(fromFoundation.list, [Float80("-0.1")!, 2])

        // A JSON Lines record.
        let lines = #"{"id":1,"value":\#(literal)}"# + "\n" + #"{"id":2,"value":"-7.25"}"# + "\n"
        let records = try JSONLines<F80Reading>.decodeAll(Data(lines.utf8), workers: 1)
        XCTAssertEqual(records.map(\.value), [expected, -7.25])
    }

    func testErrors() {
        let overflow = mappingError { try F80Reading(json: #"{"value":1e5000}"#) }
        XCTAssertEqual(overflow?.kind, .invalidValue)
        XCTAssertEqual(overflow?.path, "value")
        let strict = mappingError { try F80Reading(json: #"{"value":"1.5"}"#, options: .strict) }
        XCTAssertEqual(strict?.kind, .typeMismatch)
        var model = F80Reading()
        model.value = .infinity
        XCTAssertEqual(mappingError { try model.jsonData() }?.kind, .invalidValue)
    }

    /// Encoding writes the shortest text that reads back as the same Float80.
    func testEncodingRoundTrips() throws {
        var model = F80Reading(id: 1)
        model.value = Float80(1) / 3
        model.optional = Float80.greatestFiniteMagnitude
        model.list = [Float80.leastNonzeroMagnitude, -0.0, 12]
        let json = try model.jsonString()
        XCTAssertTrue(json.contains(#""value":0.33333333333333333334,"#), json)
        let back = try F80Reading(json: json, options: .strict)
        XCTAssertEqual(back, model)
        XCTAssertEqual(back.list[1].sign, .minus)
        XCTAssertNoThrow(try JSONValue(json: json), "valid JSON")
    }
}
#endif
