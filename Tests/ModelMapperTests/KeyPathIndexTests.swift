import Foundation
import XCTest
import ModelMapper

// Issue 39, point 7: a numeric component of a key path indexes an array where the value there is an array
// (ObjectMapper's `"nested.1.value"`), and is an object key where the value is an object; such a path
// cannot be written, so encoding it is refused (at encode time since issue 43.8, and by
// `validate(_:encoding:)`), not silently skipped.

private struct KPIReader: JSONMappable {
    var second = ""
    var secondWhole: [String: String] = [:]
    var deep = 0
    var objectKey = ""
    static let mapping = ModelMapping(
        keys: ["second": "nested.1.value", "secondWhole": "nested.1", "deep": ["grid.0.2", "alt"], "objectKey": "byYear.2020"],
        ignoredWhenEncoding: ["second", "secondWhole", "deep", "objectKey"])
}

private struct KPIWriter: JSONMappable {
    var second = ""
    static let mapping = ModelMapping(keys: ["second": "nested.1.value"])
}

private struct KPIWriterWithEncodingKey: JSONMappable {
    var second = ""
    static let mapping = ModelMapping(keys: ["second": "nested.1.value"], encodingKeys: ["second": "second"])
}

final class KeyPathIndexTests: XCTestCase {
    private let json = #"{"nested":[{"value":"a"},{"value":"b"}],"grid":[[1,2,3],[4]],"byYear":{"2020":"y"}}"#

    func testANumericComponentIndexesAnArray() throws {
        let reader = try KPIReader(json: json)
        XCTAssertEqual(reader.second, "b")
        XCTAssertEqual(reader.secondWhole, ["value": "b"])
        XCTAssertEqual(reader.deep, 3)
        XCTAssertEqual(reader.objectKey, "y", "where the value is an object, the component is its key")
        // The same through dictionary input and JSON Lines.
        XCTAssertEqual(try KPIReader(jsonObject: try JSONSerialization.jsonObject(with: Data(json.utf8))).second, "b")
        XCTAssertEqual(try JSONLines<KPIReader>.decodeAll(Data(json.utf8), workers: 1).first?.deep, 3)
    }

    func testAnIndexPastTheEndOrANonIndexIsAbsent() throws {
        let short = try KPIReader(json: #"{"nested":[{"value":"a"}],"grid":[[1]],"alt":7}"#)
        XCTAssertEqual(short.second, "", "index 1 of a one-element array: absent, the property keeps its value")
        XCTAssertEqual(short.deep, 7, "the next alternative is read")
        XCTAssertEqual(try KPIReader(json: #"{"nested":"text"}"#).second, "")
        XCTAssertEqual(try KPIReader(json: #"{"nested":{"1":{"value":"k"}}}"#).second, "k", "an object's key \"1\" wins")
    }

    func testEncodingSuchAPathIsRefusedNotSkipped() throws {
        // Issue 43.8: the limit is encoding's; decoding the same model works (StrictFidelityTests).
        XCTAssertEqual(try KPIWriter(json: #"{"nested":[{},{"value":"b"}]}"#).second, "b")
        XCTAssertEqual(mappingError { try KPIWriter().jsonString() }?.message.contains("\"1\" may index an array"), true)
        XCTAssertNoThrow(try ModelMapping.validate(KPIWriter.self))
        XCTAssertThrowsError(try ModelMapping.validate([KPIWriter.self], encoding: EncodingOptions()))
        let written = KPIWriterWithEncodingKey()
        XCTAssertEqual(try written.jsonString(), #"{"second":""}"#)
        XCTAssertEqual(try KPIWriterWithEncodingKey(json: json).second, "b")
    }
}
