import Foundation
import XCTest
import ModelMapper

// `Any` properties (issue #13 item 8): `Any`, `Any?`, `[Any]`, `[String: Any]` take any JSON as the values
// `jsonObject()` / `JSONValue.foundationObject` give for it, and encode back.

fileprivate struct APEvent: JSONMappable {
    var id = 0
    var payload: Any = NSNull()
    var extra: Any? = "unset"
    var list: [Any] = []
    var meta: [String: Any] = [:]
}

/// Whether `a` and `b` have the same dynamic types and values, recursively (NSNumber-bridging equality
/// would call 1 and true equal).
fileprivate func sameFoundation(_ a: Any, _ b: Any) -> Bool {
    guard type(of: a) == type(of: b) else { return false }
    switch (a, b) {
    case let (x as [String: Any], y as [String: Any]):
        return x.count == y.count && x.allSatisfy { k, v in y[k].map { sameFoundation(v, $0) } ?? false }
    case let (x as [Any], y as [Any]): return x.count == y.count && zip(x, y).allSatisfy(sameFoundation)
    case let (x as Int, y as Int): return x == y
    case let (x as UInt64, y as UInt64): return x == y
    case let (x as Double, y as Double): return x.bitPattern == y.bitPattern
    case let (x as Decimal, y as Decimal): return x == y
    case let (x as Bool, y as Bool): return x == y
    case let (x as String, y as String): return x == y
    case (is NSNull, is NSNull): return true
    default: return false
    }
}

final class AnyPropertyTests: XCTestCase {
    static let values = #"[1, -0.0, 2.0, 1e2, 18446744073709551615, 0.1, 3.14159265358979323846264338, "s", null, true, false, {"k": [1]}]"#

    func testDecodedValuesAreWhatFoundationObjectGives() throws {
        let json = #"{"payload": \#(Self.values), "extra": {"a": null}, "list": \#(Self.values), "meta": {"n": 7, "x": \#(Self.values)}}"#
        let event = try APEvent(json: json)
        let expected = try JSONValue(json: Self.values).foundationObject
        XCTAssertTrue(sameFoundation(event.payload, expected), "\(event.payload)")
        XCTAssertTrue(sameFoundation(event.list, expected), "\(event.list)")
        XCTAssertTrue(sameFoundation(event.meta["x"]!, expected))
        XCTAssertTrue(sameFoundation(event.meta["n"]!, 7))
        XCTAssertTrue(sameFoundation(event.extra!, ["a": NSNull()] as [String: Any]))
        // Spot checks of the types jsonObject() uses.
        XCTAssertTrue(event.list[0] is Int)
        XCTAssertTrue(event.list[2] is Double)
        XCTAssertTrue(event.list[4] is UInt64)
        XCTAssertTrue(event.list[6] is Decimal)
        XCTAssertTrue(event.list[8] is NSNull)
        XCTAssertTrue(event.list[9] is Bool)
        // And the model's own jsonObject() agrees with the property values.
        let object = try event.jsonObject() as! [String: Any]
        XCTAssertTrue(sameFoundation(object["list"]!, event.list))
        XCTAssertTrue(sameFoundation(object["meta"]!, event.meta))
    }

    func testScalarsNullAndOptional() throws {
        let event = try APEvent(json: #"{"payload": "text", "extra": null}"#)
        XCTAssertEqual(event.payload as? String, "text")
        XCTAssertNil(event.extra)                       // Any? takes null as nil
        let nullPayload = try APEvent(json: #"{"payload": null, "list": [null]}"#)
        XCTAssertTrue(nullPayload.payload is NSNull)    // Any takes null as NSNull, as jsonObject() does
        XCTAssertTrue(nullPayload.list[0] is NSNull)
        // Strict mode accepts any JSON too.
        XCTAssertEqual(try APEvent(json: #"{"payload": 5}"#, options: .strict).payload as? Int, 5)
    }

    func testEncodingWritesTheValuesBack() throws {
        let json = #"{"extra":{"a":[1,2.5,"x",null,false]},"id":3,"list":[1,-0.0,2.0,100.0,18446744073709551615,{"k":[1]}],"meta":{"n":7},"payload":"p"}"#
        let event = try APEvent(json: json)
        XCTAssertEqual(try event.jsonString(options: [.sortedKeys]), json)
        var made = APEvent()
        made.payload = ["b": true, "a": [1, "two", NSNull()] as [Any]] as [String: Any]
        made.extra = nil
        made.list = [Int64(5), Decimal(string: "0.1")!, NSNumber(value: 2.5), JSONValue.string("v"), UInt64.max]
        // A Decimal is written exactly as significand and exponent, as dictionary input reads it.
        XCTAssertEqual(try made.jsonString(options: [.sortedKeys]),
                       #"{"id":0,"list":[5,1e-1,2.5,"v",18446744073709551615],"meta":{},"payload":{"a":[1,"two",null],"b":true}}"#)
    }

    func testWrongShapesAreErrors() {
        let list = mappingError { try APEvent(json: #"{"list": "x"}"#) }
        XCTAssertEqual(list?.kind, .typeMismatch)
        XCTAssertEqual(list?.path, "list")
        XCTAssertEqual(list?.column, 10)
        let meta = mappingError { try APEvent(json: #"{"meta": [1]}"#) }
        XCTAssertEqual(meta?.kind, .typeMismatch)
        XCTAssertEqual(meta?.path, "meta")
        let collector = ReportCollector()
        let forgiven = try? APEvent(json: #"{"meta": 1, "id": 2}"#, options: collector.options())
        XCTAssertEqual(forgiven?.id, 2)
        XCTAssertEqual(collector.summary, ["meta typeMismatch 1:10"])
    }

    func testEncodingValuesThatAreNotJSONIsAnError() {
        var event = APEvent()
        event.payload = Date()
        let date = mappingError { try event.jsonData() }
        XCTAssertEqual(date?.kind, .typeMismatch)
        XCTAssertEqual(date?.path, "payload")
        event.payload = 1
        event.meta = ["x": [Double.nan] as [Any]]
        let nan = mappingError { try event.jsonData() }
        XCTAssertEqual(nan?.kind, .invalidValue)
        XCTAssertEqual(nan?.path, "meta.x[0]")
    }

    func testDictionaryInputAndJSONLines() throws {
        let input: [String: Any] = ["payload": ["a": 1] as [String: Any], "list": [1, "x", NSNull()] as [Any], "meta": ["b": 2.5]]
        let event = try APEvent(jsonObject: input)
        XCTAssertTrue(sameFoundation(event.payload, ["a": 1] as [String: Any]))
        XCTAssertTrue(sameFoundation(event.list, [1, "x", NSNull()] as [Any]))
        XCTAssertTrue(sameFoundation(event.meta, ["b": 2.5] as [String: Any]))
        let lines = "{\"id\":1,\"payload\":[1]}\n{\"id\":2,\"payload\":{\"k\":null}}\n"
        let all = try JSONLines<APEvent>.decodeAll(Data(lines.utf8), workers: 2)
        XCTAssertEqual(all.map(\.id), [1, 2])
        XCTAssertTrue(sameFoundation(all[1].payload, ["k": NSNull()] as [String: Any]))
    }
}
