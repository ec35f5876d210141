import XCTest
import Foundation
@testable import ModelMapper

// Hooks (willDecode / didDecode), polymorphism (JSONPolymorphic), per-property transformers and the
// Codable fallback for field types ModelMapper does not handle natively — YYModel's
// modelCustomClassForDictionary / modelCustomWillTransformFromDictionary / modelCustomTransformFromDictionary
// scenarios, Mantle's JSON transformers.

// MARK: - Polymorphism fixtures

fileprivate class HKShape: JSONMappable, JSONPolymorphic, Hashable, CustomStringConvertible {
    var name = ""
    required init() {}

    class var mapping: ModelMapping { ModelMapping() }

    static func modelType(for object: JSONObject) -> (any JSONMappable.Type)? {
        switch object["kind"]?.stringValue {
        case "circle": return HKCircle.self
        case "rect": return HKRect.self
        case "square": return HKSquare.self
        case "bogus": return HKNotAShape.self
        default:
            if object["radius"] != nil { return HKCircle.self }
            return nil
        }
    }

    static func == (a: HKShape, b: HKShape) -> Bool { type(of: a) == type(of: b) && a.name == b.name }
    func hash(into hasher: inout Hasher) { hasher.combine(name) }
    var description: String { "\(type(of: self))(\(name))" }
}

fileprivate final class HKCircle: HKShape {
    var radius = 0.0
}

fileprivate class HKRect: HKShape {
    var width = 0
    var height = 0
    override class var mapping: ModelMapping { super.mapping.merging(ModelMapping(keys: ["width": "w", "height": "h"])) }
}

fileprivate final class HKSquare: HKRect {
    var label = ""
}

fileprivate final class HKNotAShape: JSONMappable {
    var name = ""
    required init() {}
}

fileprivate struct HKCanvas: JSONMappable {
    var main: HKShape = HKShape()
    var optional: HKShape? = nil
    var list: [HKShape] = []
    var byName: [String: HKShape] = [:]
    var set: Set<HKShape> = []
    var nested: [[HKShape]] = []
}

// MARK: - Hook fixtures

fileprivate struct HKRejection: Error, CustomStringConvertible {
    var reason: String
    var description: String { "rejected: \(reason)" }
}

/// willDecode renames `user_name` to `name` and derives `age` from `born`; didDecode derives values from the
/// mapped properties and the (rewritten) object, and rejects negative ages.
fileprivate struct HKUser: JSONMappable, JSONDecodingHooks, Equatable {
    var name = ""
    var age = 0
    var isAdult = false
    var greeting = ""
    var keysSeen: [String] = []
    var didDecodeCount = 0

    static let mapping = ModelMapping(ignored: ["isAdult", "greeting", "keysSeen", "didDecodeCount"])

    static func willDecode(_ object: JSONObject) throws -> JSONObject {
        var object = object
        if let old = object.removeValue(forKey: "user_name") { object["name"] = old }
        if object["age"] == nil, let born = object["born"]?.intValue { object["age"] = .number(JSONNumber(2024 - born)) }
        if object["forbidden"] != nil { throw HKRejection(reason: "forbidden key") }
        return object
    }

    mutating func didDecode(from object: JSONObject) throws {
        isAdult = age >= 18
        greeting = "Hello, " + name + (object["title"]?.stringValue.map { " (\($0))" } ?? "")
        keysSeen = object.keys.sorted()
        didDecodeCount += 1
        if age < 0 { throw HKRejection(reason: "negative age \(age)") }
        if name == "mapping-error" { throw MappingError(.invalidValue, "custom kind kept") }
    }
}

fileprivate struct HKTeam: JSONMappable {
    var title = ""
    var members: [HKUser] = []
    var lead: HKUser? = nil
    var byRole: [String: HKUser] = [:]
}

/// A class with hooks (didDecode is non-mutating on a class).
fileprivate final class HKAccount: JSONMappable, JSONDecodingHooks {
    var id = 0
    var balanceCents = 0
    var balance = 0.0
    required init() {}
    static var mapping: ModelMapping { ModelMapping(ignored: ["balance"]) }

    static func willDecode(_ object: JSONObject) throws -> JSONObject {
        var object = object
        if let amount = object["amount"]?.stringValue, let value = Double(amount) {
            object["balanceCents"] = .number(JSONNumber(Int((value * 100).rounded())))
        }
        return object
    }

    func didDecode(from object: JSONObject) throws {
        balance = Double(balanceCents) / 100
        if id == 0 { throw HKRejection(reason: "id required") }
    }
}

/// A polymorphic class with hooks on the subclass.
fileprivate class HKAnimal: JSONMappable, JSONPolymorphic {
    var name = ""
    required init() {}
    class var mapping: ModelMapping { ModelMapping() }
    static func modelType(for object: JSONObject) -> (any JSONMappable.Type)? {
        object["barks"] != nil ? HKDog.self : nil
    }
}

fileprivate final class HKDog: HKAnimal, JSONDecodingHooks {
    var barks = false
    var sound = ""
    override class var mapping: ModelMapping { super.mapping.merging(ModelMapping(ignored: ["sound"])) }
    static func willDecode(_ object: JSONObject) throws -> JSONObject {
        var object = object
        if object["name"] == nil { object["name"] = "Rex" }
        return object
    }
    func didDecode(from object: JSONObject) throws { sound = barks ? "woof" : "..." }
}

fileprivate struct HKZoo: JSONMappable {
    var animals: [HKAnimal] = []
}

// MARK: - Transformer fixtures

fileprivate enum HKColor: Equatable, Sendable { case red, green, blue }

fileprivate struct HKPoint: Equatable, Sendable { var x = 0; var y = 0 }

fileprivate struct HKPointFailure: Error {}

fileprivate let hkPointTransformer = JSONTransformer(HKPoint.self, decode: { json in
    guard let text = json.stringValue else {
        throw MappingError(.typeMismatch, "expected \"x,y\"")
    }
    let parts = text.split(separator: ",").compactMap { Int($0) }
    guard parts.count == 2 else { throw HKPointFailure() }
    return HKPoint(x: parts[0], y: parts[1])
}, encode: { point in
    .string("\(point.x),\(point.y)")
})

fileprivate struct HKPaint: JSONMappable, Equatable {
    var color: HKColor = .red
    var accent: HKColor? = nil
    var palette: HKColor = .red
    var day = Date(timeIntervalSince1970: 0)
    var origin = HKPoint()
    var target: HKPoint? = nil
    var name = ""

    static let mapping = ModelMapping(
        keys: ["palette": "ext.palette"],
        transformers: [
            "color": .valueMap(["R": HKColor.red, "G": .green, "B": .blue]),
            "accent": .valueMap(["R": HKColor.red, "G": .green, "B": .blue]),
            "palette": .valueMap(["R": HKColor.red, "G": .green], default: .blue),
            "day": .date(format: "dd/MM/yyyy"),
            "origin": hkPointTransformer,
            "target": hkPointTransformer,
        ])
}

fileprivate struct HKWrongTransformer: JSONMappable {
    var name = ""
    static let mapping = ModelMapping(transformers: ["name": .date(format: "yyyy")])
}

// MARK: - Codable fallback fixtures

fileprivate struct HKCodablePoint: Codable, Equatable, Hashable {
    var x: Int
    var y: Int
}

fileprivate enum HKCodableShape: Codable, Equatable {
    case dot
    case line(length: Double)
}

fileprivate struct HKWithCodable: JSONMappable, Equatable {
    var origin = HKCodablePoint(x: 0, y: 0)
    var points: [HKCodablePoint] = []
    var maybe: HKCodablePoint? = nil
    var shapes: [HKCodableShape] = []
    var byName: [String: HKCodablePoint] = [:]
}

// MARK: - Tests

final class HooksTests: XCTestCase {

    // MARK: Polymorphism

    func testPolymorphicTopLevel() throws {
        let circle = try HKShape(json: #"{"name":"c","radius":2.5}"#)
        XCTAssertTrue(type(of: circle) == HKCircle.self, "\(type(of: circle))")
        XCTAssertEqual((circle as? HKCircle)?.radius, 2.5)
        XCTAssertEqual(circle.name, "c")

        let rect = try HKShape(json: #"{"kind":"rect","name":"r","w":3,"h":"4"}"#)
        XCTAssertTrue(type(of: rect) == HKRect.self, "\(type(of: rect))")
        XCTAssertEqual((rect as? HKRect)?.width, 3)
        XCTAssertEqual((rect as? HKRect)?.height, 4)

        let square = try HKShape(json: #"{"kind":"square","name":"s","w":2,"label":"sq"}"#)
        XCTAssertTrue(type(of: square) == HKSquare.self, "\(type(of: square))")
        XCTAssertEqual((square as? HKSquare)?.width, 2)       // superclass mapping inherited
        XCTAssertEqual((square as? HKSquare)?.label, "sq")

        let plain = try HKShape(json: #"{"name":"p"}"#)
        XCTAssertTrue(type(of: plain) == HKShape.self)
        XCTAssertEqual(plain.name, "p")

        // through jsonObject input, too
        let fromObject = try HKShape(jsonObject: ["name": "o", "radius": 1] as [String: Any])
        XCTAssertTrue(fromObject is HKCircle)
        XCTAssertEqual((fromObject as? HKCircle)?.radius, 1)

        // arrays and dictionaries at the top level
        let shapes = try [HKShape](json: #"[{"radius":1},{"kind":"rect","w":1},{"name":"x"}]"#)
        XCTAssertEqual(shapes.map { "\(type(of: $0))" }, ["HKCircle", "HKRect", "HKShape"])
        let byName = try [String: HKShape](json: #"{"a":{"radius":1},"b":{"kind":"square"}}"#)
        XCTAssertTrue(byName["a"] is HKCircle)
        XCTAssertTrue(byName["b"] is HKSquare)
    }

    func testPolymorphicFieldsArraysDictionariesSets() throws {
        let json = """
        {
          "main": {"kind": "rect", "name": "main", "w": 10},
          "optional": {"name": "opt", "radius": 3},
          "list": [{"radius": 1, "name": "a"}, {"kind": "square", "name": "b", "label": "L"}, {"name": "c"}],
          "byName": {"x": {"radius": 9}, "y": {"name": "plain"}},
          "set": [{"radius": 1, "name": "s1"}, {"kind": "rect", "name": "s2"}, {"radius": 2, "name": "s1"}],
          "nested": [[{"radius": 4}], [{"kind": "rect"}]]
        }
        """
        let canvas = try HKCanvas(json: json)
        XCTAssertTrue(canvas.main is HKRect)
        XCTAssertEqual((canvas.main as? HKRect)?.width, 10)
        XCTAssertTrue(canvas.optional is HKCircle)
        XCTAssertEqual((canvas.optional as? HKCircle)?.radius, 3)
        XCTAssertEqual(canvas.list.map { "\(type(of: $0))" }, ["HKCircle", "HKSquare", "HKShape"])
        XCTAssertEqual((canvas.list[1] as? HKSquare)?.label, "L")
        XCTAssertTrue(canvas.byName["x"] is HKCircle)
        XCTAssertEqual((canvas.byName["x"] as? HKCircle)?.radius, 9)
        XCTAssertTrue(type(of: canvas.byName["y"]!) == HKShape.self)
        // the set holds the chosen subclasses; two circles named s1 are equal and collapse
        XCTAssertEqual(canvas.set.count, 2)
        XCTAssertTrue(canvas.set.contains { $0 is HKCircle && $0.name == "s1" })
        XCTAssertTrue(canvas.set.contains { $0 is HKRect && $0.name == "s2" })
        XCTAssertTrue(canvas.nested[0][0] is HKCircle)
        XCTAssertTrue(canvas.nested[1][0] is HKRect)

        // errors inside a chosen subclass carry the path
        XCTAssertThrowsError(try HKCanvas(json: #"{"list":[{},{"radius":"big"}]}"#)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .invalidValue)
            XCTAssertEqual(error.path, "list[1].radius")
            XCTAssertEqual(error.column, 23)
        }
        // a modelType(for:) that returns an unrelated type is reported, not force-cast
        XCTAssertThrowsError(try HKCanvas(json: #"{"list":[{"kind":"bogus"}]}"#)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .unsupportedType)
            XCTAssertEqual(error.path, "list[0]")
        }
        // a non-object where a polymorphic model is expected is a type mismatch
        XCTAssertThrowsError(try HKCanvas(json: #"{"main":[]}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .typeMismatch)
            XCTAssertEqual((error as! MappingError).path, "main")
        }
    }

    func testPolymorphicUpdateAndEncoding() throws {
        // update keeps the instance when the chosen class matches its class
        var shape: HKShape = HKCircle()
        let original = shape
        try shape.update(json: #"{"radius":7,"name":"u"}"#)
        XCTAssertTrue(shape === original)
        XCTAssertEqual((shape as? HKCircle)?.radius, 7)
        XCTAssertEqual(shape.name, "u")
        // encoding writes the dynamic class's properties
        XCTAssertEqual(try shape.jsonValue(), ["name": "u", "radius": 7])
        let rect: HKShape = try HKShape(json: #"{"kind":"rect","w":1,"h":2}"#)
        XCTAssertEqual(try rect.jsonString(options: [.sortedKeys]), #"{"h":2,"name":"","w":1}"#)
        // updating a root whose class differs from the chosen one replaces the instance
        var plain = HKShape()
        plain.name = "p"
        try plain.update(json: #"{"radius":2}"#)
        XCTAssertTrue(plain is HKCircle)
        XCTAssertEqual((plain as? HKCircle)?.radius, 2)
        // and the round trip chooses the same class again
        let back = try HKShape(json: try shape.jsonString())
        XCTAssertTrue(back is HKCircle)
        XCTAssertEqual((back as? HKCircle)?.radius, 7)
    }

    func testPolymorphicWithSubclassHooks() throws {
        let zoo = try HKZoo(json: #"{"animals":[{"name":"Tom"},{"barks":true},{"name":"Quiet","barks":false}]}"#)
        XCTAssertTrue(type(of: zoo.animals[0]) == HKAnimal.self)
        let dog = try XCTUnwrap(zoo.animals[1] as? HKDog)
        XCTAssertEqual(dog.name, "Rex")        // added by the subclass's willDecode
        XCTAssertEqual(dog.sound, "woof")      // derived by the subclass's didDecode
        XCTAssertEqual((zoo.animals[2] as? HKDog)?.sound, "...")
        XCTAssertEqual(zoo.animals[2].name, "Quiet")
    }

    // MARK: Hooks

    func testWillDecodeRewritesKeys() throws {
        let user = try HKUser(json: #"{"user_name":"Ann","born":2000,"title":"Dr"}"#)
        XCTAssertEqual(user.name, "Ann")                 // renamed key
        XCTAssertEqual(user.age, 24)                     // derived key
        XCTAssertTrue(user.isAdult)                      // derived in didDecode
        XCTAssertEqual(user.greeting, "Hello, Ann (Dr)")
        // didDecode sees the object as willDecode returned it
        XCTAssertEqual(user.keysSeen, ["age", "born", "name", "title"])
        XCTAssertEqual(user.didDecodeCount, 1)

        // an object willDecode leaves unchanged takes the direct path; hooks still run once
        let direct = try HKUser(json: #"{"name":"Bo","age":12}"#)
        XCTAssertEqual(direct.name, "Bo")
        XCTAssertFalse(direct.isAdult)
        XCTAssertEqual(direct.keysSeen, ["age", "name"])
        XCTAssertEqual(direct.didDecodeCount, 1)

        // lenient conversions still apply to rewritten values; strict rejects them, with the path
        XCTAssertEqual(try HKUser(json: #"{"user_name":5,"age":"30"}"#).name, "5")
        XCTAssertThrowsError(try HKUser(json: #"{"user_name":5}"#, options: .strict)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .typeMismatch)
            XCTAssertEqual(error.path, "name")
            XCTAssertEqual(error.line, 1)
            XCTAssertNotNil(error.column)
        }
    }

    func testHooksRunOnUpdateAndFromJSONObject() throws {
        var user = HKUser()
        user.name = "Old"
        user.age = 40
        try user.update(json: #"{"title":"Prof"}"#)
        XCTAssertEqual(user.name, "Old")
        XCTAssertEqual(user.age, 40)
        XCTAssertTrue(user.isAdult)
        XCTAssertEqual(user.greeting, "Hello, Old (Prof)")
        let fromObject = try HKUser(jsonObject: ["user_name": "Cy", "born": 2010] as [String: Any])
        XCTAssertEqual(fromObject.name, "Cy")
        XCTAssertEqual(fromObject.age, 14)
        XCTAssertFalse(fromObject.isAdult)
    }

    func testDidDecodeRejects() {
        XCTAssertThrowsError(try HKUser(json: #"{"name":"Neg","age":-1}"#)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .validation)
            XCTAssertEqual(error.path, "")
            XCTAssertTrue(error.message.contains("negative age -1"), error.message)
            XCTAssertEqual(error.line, 1)
            XCTAssertEqual(error.column, 1)
        }
        // a MappingError thrown by the hook keeps its kind
        XCTAssertThrowsError(try HKUser(json: #"{"name":"mapping-error"}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .invalidValue)
        }
        // willDecode can reject too
        XCTAssertThrowsError(try HKUser(json: #"{"forbidden":1}"#)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .validation)
            XCTAssertTrue(error.message.contains("forbidden key"), error.message)
        }
        // class hooks
        XCTAssertThrowsError(try HKAccount(json: #"{"amount":"1.5"}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .validation)
        }
    }

    func testHooksOnNestedModelsInArraysAndDictionaries() throws {
        let json = """
        {
          "title": "T",
          "members": [
            {"user_name": "A", "born": 1990},
            {"name": "B", "age": 10, "title": "kid"}
          ],
          "lead": {"user_name": "L", "age": 50},
          "byRole": {"dev": {"user_name": "D", "born": 2004}}
        }
        """
        let team = try HKTeam(json: json)
        XCTAssertEqual(team.members.map(\.name), ["A", "B"])
        XCTAssertEqual(team.members.map(\.age), [34, 10])
        XCTAssertEqual(team.members.map(\.isAdult), [true, false])
        XCTAssertEqual(team.members[1].greeting, "Hello, B (kid)")
        XCTAssertEqual(team.members.map(\.didDecodeCount), [1, 1])
        XCTAssertEqual(team.lead?.name, "L")
        XCTAssertEqual(team.lead?.isAdult, true)
        XCTAssertEqual(team.byRole["dev"]?.age, 20)
        XCTAssertEqual(team.byRole["dev"]?.isAdult, true)

        // a rejection inside an array has the element's path and the position of its object
        let bad = """
        {
          "members": [
            {"name": "ok", "age": 1},
            {"name": "bad", "age": -5}
          ]
        }
        """
        XCTAssertThrowsError(try HKTeam(json: bad)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .validation)
            XCTAssertEqual(error.path, "members[1]")
            XCTAssertEqual(error.line, 4)
            XCTAssertEqual(error.column, 5)
        }
        XCTAssertThrowsError(try HKTeam(json: #"{"byRole":{"x":{"age":-1}}}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .validation)
            XCTAssertEqual((error as! MappingError).path, "byRole.x")
        }
        // an error in a value of a rewritten object: the path is exact, the position is the object's
        XCTAssertThrowsError(try HKTeam(json: "{\"members\":[\n{\"user_name\":[]}]}")) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .typeMismatch)
            XCTAssertEqual(error.path, "members[0].name")
            XCTAssertEqual(error.line, 2)
            XCTAssertEqual(error.column, 1)
        }
    }

    func testClassHooks() throws {
        let account = try HKAccount(json: #"{"id":7,"amount":"12.34"}"#)
        XCTAssertEqual(account.balanceCents, 1234)
        XCTAssertEqual(account.balance, 12.34)
        let accounts = try [HKAccount](json: #"[{"id":1,"balanceCents":5},{"id":2,"amount":"0.1"}]"#)
        XCTAssertEqual(accounts.map(\.balance), [0.05, 0.1])
        XCTAssertThrowsError(try [HKAccount](json: #"[{"id":1},{"amount":"1"}]"#)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .validation)
            XCTAssertEqual(error.path, "[1]")
        }
    }

    // MARK: Transformers

    func testTransformersDecode() throws {
        let json = #"{"color":"G","accent":"B","ext":{"palette":"unknown"},"day":"20/01/2014","origin":"3,4","target":"-1,2","name":"n"}"#
        let paint = try HKPaint(json: json)
        XCTAssertEqual(paint.color, .green)
        XCTAssertEqual(paint.accent, .blue)
        XCTAssertEqual(paint.palette, .blue)         // the value map's default
        XCTAssertEqual(paint.day, Date(timeIntervalSince1970: 1_390_176_000))
        XCTAssertEqual(paint.origin, HKPoint(x: 3, y: 4))
        XCTAssertEqual(paint.target, HKPoint(x: -1, y: 2))
        XCTAssertEqual(paint.name, "n")

        // null: an Optional becomes nil without calling the transformer; a non-Optional keeps its value
        var updated = paint
        try updated.update(json: #"{"accent":null,"target":null,"color":null,"origin":null}"#)
        XCTAssertNil(updated.accent)
        XCTAssertNil(updated.target)
        XCTAssertEqual(updated.color, .green)
        XCTAssertEqual(updated.origin, HKPoint(x: 3, y: 4))

        // an unknown value without a default is .invalidValue with the path
        XCTAssertThrowsError(try HKPaint(json: #"{"name":"x","color":"purple"}"#)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .invalidValue)
            XCTAssertEqual(error.path, "color")
            XCTAssertEqual(error.column, 21)
        }
        XCTAssertThrowsError(try HKPaint(json: #"{"day":"2014-01-20"}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .invalidValue)
            XCTAssertEqual((error as! MappingError).path, "day")
        }
        XCTAssertThrowsError(try HKPaint(json: #"{"day":5}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .typeMismatch)
            XCTAssertEqual((error as! MappingError).path, "day")
        }
        // a custom transformer's own error: MappingError kinds are kept, others become .invalidValue
        XCTAssertThrowsError(try HKPaint(json: #"{"origin":5}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .typeMismatch)
            XCTAssertEqual((error as! MappingError).path, "origin")
            XCTAssertEqual((error as! MappingError).column, 11)
        }
        XCTAssertThrowsError(try HKPaint(json: #"{"target":"1;2"}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .invalidValue)
            XCTAssertEqual((error as! MappingError).path, "target")
        }
    }

    func testTransformersEncode() throws {
        var paint = HKPaint()
        paint.color = .blue
        paint.accent = .red
        paint.palette = .green
        paint.day = Date(timeIntervalSince1970: 1_390_176_000)
        paint.origin = HKPoint(x: 5, y: 6)
        paint.target = nil
        paint.name = "x"
        let json = try paint.jsonString(options: [.sortedKeys])
        XCTAssertEqual(json, #"{"accent":"R","color":"B","day":"20/01/2014","ext":{"palette":"G"},"name":"x","origin":"5,6"}"#)
        XCTAssertEqual(try HKPaint(json: json), paint)
        // a value without a JSON string in the map cannot be encoded
        paint.palette = .blue
        XCTAssertThrowsError(try paint.jsonString()) { error in
            XCTAssertEqual((error as! MappingError).kind, .invalidValue)
        }
    }

    func testTransformerTypeMustMatchProperty() {
        XCTAssertThrowsError(try HKWrongTransformer(json: "{}")) { error in
            XCTAssertEqual((error as! MappingError).kind, .unsupportedType)
        }
    }

    // MARK: Codable fallback

    func testCodableFieldInsideModel() throws {
        let json = #"{"origin":{"x":1,"y":2},"points":[{"x":3,"y":4}],"maybe":{"x":5,"y":6},"shapes":[{"dot":{}},{"line":{"length":2.5}}],"byName":{"a":{"x":7,"y":8}}}"#
        let model = try HKWithCodable(json: json)
        XCTAssertEqual(model.origin, HKCodablePoint(x: 1, y: 2))
        XCTAssertEqual(model.points, [HKCodablePoint(x: 3, y: 4)])
        XCTAssertEqual(model.maybe, HKCodablePoint(x: 5, y: 6))
        XCTAssertEqual(model.shapes, [.dot, .line(length: 2.5)])
        XCTAssertEqual(model.byName, ["a": HKCodablePoint(x: 7, y: 8)])
        XCTAssertNil(try HKWithCodable(json: #"{"maybe":null}"#).maybe)
        // lenient conversions reach Codable fields; strict ones do not
        XCTAssertEqual(try HKWithCodable(json: #"{"origin":{"x":"9","y":1}}"#).origin, HKCodablePoint(x: 9, y: 1))
        // and encoding goes back through Encodable
        let back = try HKWithCodable(json: try model.jsonString())
        XCTAssertEqual(back, model)
    }

    func testCodableFallbackErrorsCarryThePath() {
        XCTAssertThrowsError(try HKWithCodable(json: #"{"origin":{"x":"9","y":1}}"#, options: .strict)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .typeMismatch)
            XCTAssertEqual(error.path, "origin.x")
        }
        let multiline = """
        {
          "points": [
            {"x": 1, "y": 2},
            {"x": 3, "y": "four"}
          ]
        }
        """
        XCTAssertThrowsError(try HKWithCodable(json: multiline)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .invalidValue)
            XCTAssertEqual(error.path, "points[1].y")
            XCTAssertEqual(error.line, 4)
            XCTAssertNotNil(error.column)
        }
        XCTAssertThrowsError(try HKWithCodable(json: #"{"byName":{"k":{"x":1}}}"#)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .missingKey)
            XCTAssertEqual(error.path, "byName.k.y")
        }
        XCTAssertThrowsError(try HKWithCodable(json: #"{"origin":[1,2]}"#)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .typeMismatch)
            XCTAssertEqual(error.path, "origin")
            XCTAssertEqual(error.column, 11)
        }
    }
}
