import XCTest
import Foundation
@testable import ModelMapper

/// JSONValue, JSONObject and JSONNumber as owned values.
final class ValuesTests: XCTestCase {

    // MARK: JSONObject

    func testObjectKeepsInsertionOrder() {
        var object = JSONObject()
        XCTAssertTrue(object.isEmpty)
        object["z"] = 1
        object["a"] = 2
        object["m"] = 3
        XCTAssertEqual(object.keys, ["z", "a", "m"])
        XCTAssertEqual(object.values, [1, 2, 3])
        XCTAssertEqual(object.count, 3)
        // Replacing keeps the position.
        object["a"] = "two"
        XCTAssertEqual(object.keys, ["z", "a", "m"])
        XCTAssertEqual(object["a"], "two")
        // Iteration follows the order.
        XCTAssertEqual(object.map { $0.0 }, ["z", "a", "m"])
        XCTAssertEqual(object.map { $0.1 }, [1, "two", 3])
        // Literals keep their order too.
        let literal: JSONObject = ["b": 1, "a": 2, "c": 3]
        XCTAssertEqual(literal.keys, ["b", "a", "c"])
        XCTAssertEqual(literal.description, #"{"b":1,"a":2,"c":3}"#)
    }

    func testParsedObjectKeepsDocumentOrder() throws {
        let value = try JSONValue(json: #"{"zeta":1,"alpha":2,"mid":{"y":1,"x":2},"beta":3}"#)
        XCTAssertEqual(value.objectValue?.keys, ["zeta", "alpha", "mid", "beta"])
        XCTAssertEqual(value["mid"]?.objectValue?.keys, ["y", "x"])
        XCTAssertEqual(value.description, #"{"zeta":1,"alpha":2,"mid":{"y":1,"x":2},"beta":3}"#)
    }

    func testDuplicateKeysInParsedDocumentsLastWins() throws {
        let value = try JSONValue(json: #"{"a":1,"b":2,"a":3}"#)
        XCTAssertEqual(value["a"], 3)
        XCTAssertEqual(value.objectValue?.count, 2)
        // The key stays where it first appeared.
        XCTAssertEqual(value.objectValue?.keys, ["a", "b"])
        // Nested and with many keys (hashed lookup).
        var members = (0..<40).map { "\"k\($0)\":\($0)" }
        members.append(#""k7":"last""#)
        members.append(#""k39":{"x":[1]}"#)
        let big = try JSONValue(json: "{\"o\":{" + members.joined(separator: ",") + "}}")
        let object = try XCTUnwrap(big["o"]?.objectValue)
        XCTAssertEqual(object.count, 40)
        XCTAssertEqual(object["k7"], "last")
        XCTAssertEqual(object["k39"], ["x": [1]])
        XCTAssertEqual(object["k0"], 0)
        XCTAssertEqual(object.keys, (0..<40).map { "k\($0)" })
        // Duplicates in a literal or a pair sequence behave the same.
        let pairs = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        XCTAssertEqual(pairs.keys, ["a", "b"])
        XCTAssertEqual(pairs["a"], 3)
    }

    func testObjectEqualityIgnoresOrder() throws {
        let a: JSONObject = ["x": 1, "y": [1, 2], "z": ["k": "v"]]
        let b: JSONObject = ["z": ["k": "v"], "x": 1, "y": [1, 2]]
        XCTAssertEqual(a, b)
        XCTAssertEqual(JSONValue.object(a), JSONValue.object(b))
        XCTAssertEqual(JSONValue.object(a).hashValue, JSONValue.object(b).hashValue)
        XCTAssertEqual(try JSONValue(json: #"{"a":1,"b":2}"#), try JSONValue(json: #"{"b":2,"a":1}"#))
        // But values, key sets and array order matter.
        XCTAssertNotEqual(a, ["x": 2, "y": [1, 2], "z": ["k": "v"]])
        XCTAssertNotEqual(a, ["x": 1, "y": [2, 1], "z": ["k": "v"]])
        XCTAssertNotEqual(a, ["x": 1, "y": [1, 2]])
        XCTAssertNotEqual(a, ["x": 1, "y": [1, 2], "w": ["k": "v"]])
        XCTAssertNotEqual(JSONObject(), ["x": nil])
        XCTAssertEqual(JSONObject(), [:])
    }

    func testObjectSubscriptsAndRemoval() {
        var object: JSONObject = ["a": 1, "b": 2, "c": 3]
        XCTAssertEqual(object["b"], 2)
        XCTAssertNil(object["missing"])
        XCTAssertEqual(object.removeValue(forKey: "b"), 2)
        XCTAssertNil(object.removeValue(forKey: "b"))
        XCTAssertEqual(object.keys, ["a", "c"])
        object["a"] = nil
        XCTAssertEqual(object.keys, ["c"])
        // Storing JSON null is not removal.
        object["n"] = .null
        XCTAssertEqual(object["n"], .null)
        XCTAssertEqual(object.keys, ["c", "n"])
        XCTAssertEqual(object.position(of: "n"), 1)
        XCTAssertNil(object.position(of: "zz"))
        object["b"] = 9
        XCTAssertEqual(object.keys, ["c", "n", "b"])
    }

    func testLargeObjectsStayConsistent() {
        // Past a dozen keys lookups are hashed; insertions, replacements and removals must keep the
        // index in step with the order.
        var object = JSONObject()
        var reference: [(String, Int)] = []
        for i in 0..<100 {
            object["key\(i)"] = .number(JSONNumber(i))
            reference.append(("key\(i)", i))
        }
        for i in stride(from: 0, to: 100, by: 3) {
            XCTAssertNotNil(object.removeValue(forKey: "key\(i)"))
            reference.removeAll { $0.0 == "key\(i)" }
        }
        for i in stride(from: 1, to: 100, by: 10) {
            // Replaces in place, or appends keys removed above (21, 51, 81).
            object["key\(i)"] = "changed"
            if !reference.contains(where: { $0.0 == "key\(i)" }) { reference.append(("key\(i)", i)) }
        }
        object["new"] = true
        reference.append(("new", -1))
        XCTAssertEqual(object.keys, reference.map { $0.0 })
        XCTAssertEqual(object.count, reference.count)
        for (key, i) in reference {
            let expected: JSONValue = key == "new" ? true : (i % 10 == 1 ? "changed" : .number(JSONNumber(i)))
            XCTAssertEqual(object[key], expected, key)
            XCTAssertEqual(object.position(of: key), reference.firstIndex { $0.0 == key }, key)
        }
        for i in stride(from: 0, to: 100, by: 3) where i % 10 != 1 { XCTAssertNil(object["key\(i)"]) }
        XCTAssertEqual(object.keys.suffix(4), ["key21", "key51", "key81", "new"])
        // Removing down to a few keys keeps working.
        for key in object.keys.dropLast(2) { object.removeValue(forKey: key) }
        XCTAssertEqual(object.count, 2)
        XCTAssertEqual(object.keys, Array(reference.map { $0.0 }.suffix(2)))
        XCTAssertEqual(object["new"], true)
    }

    // MARK: JSONValue

    func testValueLiteralsAndAccessors() {
        let value: JSONValue = ["s": "text", "i": 42, "d": 2.5, "t": true, "f": false, "n": nil,
                                "a": [1, "two", [3]], "o": ["k": "v"]]
        XCTAssertEqual(value["s"], .string("text"))
        XCTAssertEqual(value["s"]?.stringValue, "text")
        XCTAssertEqual(value["i"]?.intValue, 42)
        XCTAssertEqual(value["i"]?.doubleValue, 42)
        XCTAssertEqual(value["d"]?.doubleValue, 2.5)
        XCTAssertNil(value["d"]?.intValue)
        XCTAssertEqual(value["t"]?.boolValue, true)
        XCTAssertEqual(value["f"]?.boolValue, false)
        XCTAssertEqual(value["n"]?.isNull, true)
        XCTAssertEqual(value["n"], .null)
        XCTAssertEqual(value["a"]?[1], "two")
        XCTAssertEqual(value["a"]?[2]?[0], 3)
        XCTAssertNil(value["a"]?[3])
        XCTAssertNil(value["a"]?[-1])
        XCTAssertEqual(value["o"]?["k"], "v")
        XCTAssertEqual(value["a"]?.arrayValue?.count, 3)
        XCTAssertEqual(value["o"]?.objectValue, ["k": "v"])
        XCTAssertEqual(value["i"]?.numberValue, JSONNumber(42))
        // Wrong types answer nil, not a conversion.
        XCTAssertNil(value["s"]?.intValue)
        XCTAssertNil(value["i"]?.stringValue)
        XCTAssertNil(value["t"]?.intValue)
        XCTAssertNil(value["i"]?.boolValue)
        XCTAssertNil(value["s"]?["k"])
        XCTAssertNil(value["s"]?[0])
        XCTAssertNil(value["missing"])
        XCTAssertEqual(value["s"]?.isNull, false)
        XCTAssertNil(value[0])
        XCTAssertNil(JSONValue.null.arrayValue)
        XCTAssertNil(JSONValue.null.objectValue)
        XCTAssertNil(JSONValue.string("1").numberValue)
    }

    func testParsedValuesEqualLiterals() throws {
        let parsed = try JSONValue(json: #"{"s":"text","i":42,"d":2.5,"t":true,"n":null,"a":[1,"two",[3]],"o":{}}"#)
        let literal: JSONValue = ["s": "text", "i": 42, "d": 2.5, "t": true, "n": nil, "a": [1, "two", [3]], "o": [:]]
        XCTAssertEqual(parsed, literal)
        XCTAssertNotEqual(parsed, ["s": "text"])
        XCTAssertNotEqual(JSONValue.bool(true), 1)
        XCTAssertNotEqual(JSONValue.string("1"), 1)
        XCTAssertNotEqual(JSONValue.null, false)
        XCTAssertNotEqual(JSONValue.array([]), .object([:]))
    }

    func testDescriptionIsCompactJSON() throws {
        let value: JSONValue = ["a": [1, 2.5, nil, true, false, "x"], "b": [:], "c": []]
        XCTAssertEqual(value.description, #"{"a":[1,2.5,null,true,false,"x"],"b":{},"c":[]}"#)
        XCTAssertEqual(JSONValue.string("q\"b\\s\n\t\r\u{8}\u{C}\u{1}\u{1F}/é😀").description,
                       #""q\"b\\s\n\t\r\b\f\u0001\u001f/é😀""#)
        XCTAssertEqual(JSONValue.null.description, "null")
        XCTAssertEqual(JSONValue.number(JSONNumber(text: "1.50e+10")).description, "1.50e+10")
        XCTAssertEqual("\(JSONValue.bool(false))", "false")
        let object: JSONObject = ["k": "v"]
        XCTAssertEqual(object.description, #"{"k":"v"}"#)
        // Description is valid JSON that parses back to the same value.
        let tricky: JSONValue = ["\u{0}key\"": ["\u{7F}", "\u{2028}", .number(JSONNumber(text: "123456789012345678901234567890")), -0.0]]
        XCTAssertEqual(try JSONValue(json: tricky.description), tricky)
    }

    func testHashingMatchesEquality() throws {
        let values: [JSONValue] = [
            try JSONValue(json: #"{"a":1,"b":[1.0,2]}"#),
            try JSONValue(json: #"{"b":[1,2.0],"a":1e0}"#),
            ["a": 1, "b": [1, 2]],
        ]
        XCTAssertEqual(Set(values).count, 1)
        XCTAssertEqual(Set([JSONNumber(text: "1"), JSONNumber(text: "1.0"), JSONNumber(text: "10e-1"), JSONNumber(1)]).count, 1)
        XCTAssertEqual(Set([JSONValue.number(JSONNumber(text: "100")), .number(JSONNumber(text: "1e2"))]).count, 1)
        XCTAssertEqual(Set<JSONValue>([1, "1", true, nil, [1], ["1": 1]]).count, 6)
    }

    // MARK: JSONNumber

    func testNumberInitializers() {
        XCTAssertEqual(JSONNumber(-42).text, "-42")
        XCTAssertEqual(JSONNumber(Int.max).text, "9223372036854775807")
        XCTAssertEqual(JSONNumber(Int64.min).text, "-9223372036854775808")
        XCTAssertEqual(JSONNumber(UInt64.max).text, "18446744073709551615")
        XCTAssertEqual(JSONNumber(UInt64.max).uint64Value, .max)
        XCTAssertEqual(JSONNumber(Int64.min).int64Value, .min)
        // Doubles in their shortest round-trip form.
        XCTAssertEqual(JSONNumber(8.8).text, "8.8")
        XCTAssertEqual(JSONNumber(0.1).text, "0.1")
        XCTAssertEqual(JSONNumber(0.1 + 0.2).text, "0.30000000000000004")
        XCTAssertEqual(JSONNumber(-2.5).text, "-2.5")
        XCTAssertEqual(JSONNumber(8.8).doubleValue, 8.8)
        XCTAssertTrue(JSONNumber(8.8).isValidJSON)
        for d in [1e300, 1e-7, 5e-324, -0.0, 100.0, 123456.789, Double.greatestFiniteMagnitude, 1.0 / 3.0] {
            let n = JSONNumber(d)
            XCTAssertTrue(n.isValidJSON, n.text)
            XCTAssertEqual(n.doubleValue, d, n.text)
            XCTAssertEqual(n.doubleValue?.sign, d.sign, n.text)
        }
        for _ in 0..<2000 {
            let bits = UInt64.random(in: 0...UInt64.max) & 0x7FEF_FFFF_FFFF_FFFF
            let d = Double(bitPattern: bits) * (Bool.random() ? 1 : -1)
            let n = JSONNumber(d)
            XCTAssertTrue(n.isValidJSON, n.text)
            XCTAssertEqual(n.doubleValue, d, n.text)
        }
        // Decimals exactly.
        let pi = Decimal(string: "3.14159265358979323846264338327950288")!
        XCTAssertEqual(JSONNumber(pi).text, "3.14159265358979323846264338327950288")
        XCTAssertEqual(JSONNumber(pi).decimalValue, pi)
        XCTAssertEqual(JSONNumber(Decimal(string: "-0.001")!).text, "-0.001")
        XCTAssertEqual(JSONNumber(Decimal(12345)).text, "12345")
        XCTAssertTrue(JSONNumber(Decimal(string: "-0.001")!).isValidJSON)
        // Literals.
        let five: JSONNumber = 5
        let half: JSONNumber = 0.5
        XCTAssertEqual(five.text, "5")
        XCTAssertEqual(half.text, "0.5")
        XCTAssertEqual(JSONValue(integerLiteral: 7), .number(JSONNumber(text: "7")))
        XCTAssertEqual(JSONValue(floatLiteral: 8.8).numberValue?.text, "8.8")
        XCTAssertEqual(five.description, "5")
    }

    func testNumberEqualityByValue() {
        XCTAssertEqual(JSONNumber(text: "1"), JSONNumber(text: "1.0"))
        XCTAssertEqual(JSONNumber(text: "1"), JSONNumber(text: "1e0"))
        XCTAssertEqual(JSONNumber(text: "0.5"), JSONNumber(text: "5e-1"))
        XCTAssertEqual(JSONNumber(text: "-0"), JSONNumber(text: "0"))
        XCTAssertNotEqual(JSONNumber(text: "1"), JSONNumber(text: "1.0000000000000000000000000000000000000001"))
        XCTAssertNotEqual(JSONNumber(text: "0.1"), JSONNumber(text: "0.10000000000000001"))
        XCTAssertEqual(JSONNumber(text: "1e400"), JSONNumber(text: "1e400"))
        XCTAssertNotEqual(JSONNumber(text: "1e400"), JSONNumber(text: "2e400"))
        XCTAssertFalse(JSONNumber(text: "01").isValidJSON)
        XCTAssertFalse(JSONNumber(text: "nan").isValidJSON)
        XCTAssertFalse(JSONNumber(text: "").isValidJSON)
        XCTAssertFalse(JSONNumber(text: "1.").isValidJSON)
        XCTAssertTrue(JSONNumber(text: "-0.0e-0").isValidJSON)
    }
}
