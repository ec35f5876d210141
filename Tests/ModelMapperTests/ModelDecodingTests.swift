import Foundation
import XCTest
@testable import ModelMapper

// Nested models and containers, classes with inheritance, merging, top-level collections.

private struct Point: JSONMappable, Hashable { var x = 0; var y = 0 }

private struct Shapes: JSONMappable, Equatable {
    var origin = Point()
    var maybe: Point? = nil
    var points: [Point] = []
    var optionalPoints: [Point?] = []
    var contiguous: ContiguousArray<Point> = []
    var unique: Set<Point> = []
    var byName: [String: Point] = [:]
    var grid: [[Int]] = []
    var groups: [String: [Point]] = [:]
    var nestedOptional: [String: [Int?]]? = nil
    var raw: JSONValue = .null
    var object: JSONObject = [:]
    var tags: Set<String> = []
    var small: Int8 = 0
    var big: UInt64 = 0
    var float: Float = 0
    var decimal: Decimal = 0
}

private struct Node: JSONMappable, Equatable {
    var value = 0
    var children: [Node] = []
}

class Animal: JSONMappable, Equatable {
    var name = ""
    var legs = 0
    required init() {}
    class var mapping: ModelMapping { ModelMapping(keys: ["name": "n"]) }
    static func == (a: Animal, b: Animal) -> Bool { type(of: a) == type(of: b) && a.name == b.name && a.legs == b.legs }
}

final class Dog: Animal {
    var breed = ""
    var owner: Owner? = nil
    override class var mapping: ModelMapping { super.mapping.merging(ModelMapping(keys: ["breed": "kind"])) }
}

final class Owner: JSONMappable {
    var name = ""
    var pets: [Animal] = []
    required init() {}
}

private struct Counter: JSONMappable, Equatable {
    var a = 1
    var b = "b"
    var inner = Point(x: 5, y: 6)
    var list = [1, 2]
}

final class ModelDecodingTests: XCTestCase {
    func testNestedModelsAndContainers() throws {
        let json = """
        {"origin":{"x":1,"y":2},"maybe":{"x":3},"points":[{"x":1},{"y":2}],"optionalPoints":[null,{"x":9}],
         "contiguous":[{"x":7}],"unique":[{"x":1},{"x":1},{"x":2}],"byName":{"a":{"x":1},"b":{"y":1}},
         "grid":[[1,2],[],[3]],"groups":{"g":[{"x":4}]},"nestedOptional":{"k":[1,null]},
         "raw":{"any":[1,"two",null]},"object":{"k":true},"tags":["a","b","a"],
         "small":-128,"big":18446744073709551615,"float":0.1,"decimal":3.14159265358979323846}
        """
        let s = try Shapes(json: json)
        XCTAssertEqual(s.origin, Point(x: 1, y: 2))
        XCTAssertEqual(s.maybe, Point(x: 3, y: 0))
        XCTAssertEqual(s.points, [Point(x: 1, y: 0), Point(x: 0, y: 2)])
        XCTAssertEqual(s.optionalPoints, [nil, Point(x: 9, y: 0)])
        XCTAssertEqual(Array(s.contiguous), [Point(x: 7, y: 0)])
        XCTAssertEqual(s.unique, [Point(x: 1, y: 0), Point(x: 2, y: 0)])
        XCTAssertEqual(s.byName, ["a": Point(x: 1, y: 0), "b": Point(x: 0, y: 1)])
        XCTAssertEqual(s.grid, [[1, 2], [], [3]])
        XCTAssertEqual(s.groups, ["g": [Point(x: 4, y: 0)]])
        XCTAssertEqual(s.nestedOptional, ["k": [1, nil]])
        XCTAssertEqual(s.raw, ["any": [1, "two", nil]])
        XCTAssertEqual(s.object, ["k": true])
        XCTAssertEqual(s.tags, ["a", "b"])
        XCTAssertEqual(s.small, -128)
        XCTAssertEqual(s.big, .max)
        XCTAssertEqual(s.float, Float(0.1))
        XCTAssertEqual(s.decimal, Decimal(string: "3.14159265358979323846"))
    }

    func testRecursiveModel() throws {
        let n = try Node(json: #"{"value":1,"children":[{"value":2,"children":[{"value":3}]},{"value":4}]}"#)
        XCTAssertEqual(n.children.map(\.value), [2, 4])
        XCTAssertEqual(n.children[0].children[0].value, 3)
        XCTAssertEqual(try Node(json: n.jsonData()), n)
    }

    func testClassesInheritMappingAndProperties() throws {
        let dog = try Dog(json: #"{"n":"Rex","legs":4,"kind":"collie","owner":{"name":"Ann","pets":[{"n":"Tom","legs":4}]}}"#)
        XCTAssertEqual(dog.name, "Rex")
        XCTAssertEqual(dog.legs, 4)
        XCTAssertEqual(dog.breed, "collie")
        XCTAssertEqual(dog.owner?.name, "Ann")
        XCTAssertEqual(dog.owner?.pets.first?.name, "Tom")
        XCTAssertEqual(try dog.jsonValue()["n"], "Rex")
        XCTAssertEqual(try dog.jsonValue()["kind"], "collie")
        let animals = try [Animal](json: #"[{"n":"a"},{"n":"b","legs":2}]"#)
        XCTAssertEqual(animals.map(\.name), ["a", "b"])
    }

    func testUpdateMergesAndKeepsAbsentKeys() throws {
        var c = Counter()
        try c.update(json: #"{"b":"new","inner":{"y":9}}"#)
        XCTAssertEqual(c, Counter(a: 1, b: "new", inner: Point(x: 5, y: 9), list: [1, 2]))
        try c.update(json: #"{"list":[],"a":null}"#)
        XCTAssertEqual(c.list, [])
        XCTAssertEqual(c.a, 1, "null keeps a non-optional value")
        let dog = Dog(); dog.breed = "kept"
        var animal: Dog = dog
        try animal.update(json: #"{"legs":3}"#)
        XCTAssertTrue(animal === dog, "update keeps the class instance")
        XCTAssertEqual(dog.breed, "kept")
        XCTAssertEqual(dog.legs, 3)
    }

    func testTopLevelCollectionsAndJSONObjectInput() throws {
        XCTAssertEqual(try [Point](json: #"[{"x":1},{"x":2}]"#), [Point(x: 1, y: 0), Point(x: 2, y: 0)])
        XCTAssertEqual(try [String: Point](json: #"{"a":{"y":3}}"#), ["a": Point(x: 0, y: 3)])
        let foundation = try JSONSerialization.jsonObject(with: Data(#"{"origin":{"x":1,"y":2},"points":[{"x":3}],"tags":["t"],"big":18446744073709551615,"decimal":0.1,"raw":[true,1,1.5]}"#.utf8))
        let s = try Shapes(jsonObject: foundation)
        XCTAssertEqual(s.origin, Point(x: 1, y: 2))
        XCTAssertEqual(s.points, [Point(x: 3, y: 0)])
        XCTAssertEqual(s.tags, ["t"])
        XCTAssertEqual(s.big, .max)
        XCTAssertEqual(s.decimal, Decimal(string: "0.1"))
        XCTAssertEqual(s.raw, [true, 1, 1.5])
        let fromValue = try Shapes(jsonObject: JSONValue.object(["origin": ["x": 4]]))
        XCTAssertEqual(fromValue.origin, Point(x: 4, y: 0))
        XCTAssertEqual(try Point(jsonObject: ["x": 1, "y": 2] as [String: Any]), Point(x: 1, y: 2))
        // NSNumbers of every storage type keep their value (an Int8 NSNumber shares "c" with booleans).
        let numbers: [String: Any] = ["x": NSNumber(value: Int8(5)), "y": NSNumber(value: Int8(-3))]
        XCTAssertEqual(try Point(jsonObject: numbers), Point(x: 5, y: -3))
        let mixed: [Any] = [NSNumber(value: Int8(1)), NSNumber(value: UInt8(200)), NSNumber(value: Int16(-7)),
                            NSNumber(value: true), NSNumber(value: false), NSNumber(value: Float(0.5))]
        XCTAssertEqual(try Shapes(jsonObject: ["raw": mixed] as [String: Any]).raw, [1, 200, -7, true, false, 0.5])
    }

    /// Dictionary input copies only what the model reads into the tape (its filter, as for parsed bytes):
    /// members under other keys are never converted, so values no JSON could hold do not matter there,
    /// while the same value under a key the model reads is still an error.
    func testJSONObjectInputSkipsWhatTheModelDoesNotRead() throws {
        final class Opaque {}
        let object: [String: Any] = ["origin": ["x": 1, "y": 2, "z": Opaque()], "tags": ["t"], "opaque": Opaque(),
                                     "nested": ["deep": [["when": Date()]]], "points": [["x": 3, "note": Date()]]]
        let s = try Shapes(jsonObject: object)
        XCTAssertEqual(s.origin, Point(x: 1, y: 2))
        XCTAssertEqual(s.points, [Point(x: 3, y: 0)])
        XCTAssertEqual(s.tags, ["t"])
        XCTAssertThrowsError(try Shapes(jsonObject: ["tags": [Opaque()]] as [String: Any])) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .typeMismatch)
            XCTAssertEqual((error as? MappingError)?.path, "tags[0]")
        }
        // The same through a JSONValue, and an update keeps what the input does not name.
        var updated = try Shapes(jsonObject: JSONValue.object(["origin": ["x": 4, "extra": [[1], [2]]], "other": "x"]))
        XCTAssertEqual(updated.origin, Point(x: 4, y: 0))
        try updated.update(jsonObject: ["tags": ["u"], "ignored": Opaque()] as [String: Any])
        XCTAssertEqual(updated.tags, ["u"])
        XCTAssertEqual(updated.origin, Point(x: 4, y: 0))
        // Equal to decoding the same document from bytes.
        let text = #"{"origin":{"x":7,"q":[1,{"r":2}]},"points":[{"y":1,"w":null}],"tags":["a","b"],"zz":{"a":[]}}"#
        XCTAssertEqual(try Shapes(jsonObject: JSONSerialization.jsonObject(with: Data(text.utf8))), try Shapes(json: text))
    }

    func testInputKinds() throws {
        let text = #"{"x":1,"y":2}"#
        XCTAssertEqual(try Point(json: text), Point(x: 1, y: 2))
        XCTAssertEqual(try Point(json: Data(text.utf8)), Point(x: 1, y: 2))
        XCTAssertEqual(try Point(json: Array(text.utf8)), Point(x: 1, y: 2))
        try Array(text.utf8).withUnsafeBytes { XCTAssertEqual(try Point(json: $0), Point(x: 1, y: 2)) }
        XCTAssertEqual(try ModelDecoder(options: .strict).decode(Point.self, from: text), Point(x: 1, y: 2))
    }

    func testWrongShapesAreTypeMismatches() {
        for (json, path) in [("[]", ""), (#"{"origin":[]}"#, "origin"), (#"{"points":{}}"#, "points"),
                             (#"{"points":[1]}"#, "points[0]"), (#"{"byName":{"k":"v"}}"#, "byName.k")] {
            XCTAssertThrowsError(try Shapes(json: json), json) { error in
                let e = error as! MappingError
                XCTAssertEqual(e.kind, .typeMismatch, json)
                XCTAssertEqual(e.path, path, json)
                XCTAssertNotNil(e.line, json)
            }
        }
    }
}
