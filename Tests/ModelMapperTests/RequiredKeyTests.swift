import Foundation
import XCTest
@testable import ModelMapper

// `ModelMapping.required` (issue 30): a required key must be present and, for a property that cannot hold
// null, not null; one error names every missing key; an update checks only the keys it carries. Every
// rule through JSON text and through dictionary input (`init(jsonObject:)`, `update(jsonObject:)`).

private struct Car: JSONMappable, Equatable {
    var year = 0
    var name = ""
    var note: String? = "default"
    var raw: JSONValue = 1
    static let mapping = ModelMapping(required: ["year", "note", "raw"])
}

/// The same required property read by each of the decoding loop's three passes: a plain key (member
/// loop), a key path (deferred), a plain key matched ignoring case (folded).
private struct PathCar: JSONMappable, Equatable {
    var year = 0
    static let mapping = ModelMapping(keys: ["year": "info.year"], required: ["year"])
}

private struct Trio: JSONMappable, Equatable {
    var a = 0
    var b = ""
    var c = 0.0
    static let mapping = ModelMapping(keys: ["c": ["c", "C"]], required: ["a", "b", "c"])
}

private struct Garage: JSONMappable, Equatable {
    var trio = Trio()
    var label = ""
    static let mapping = ModelMapping(required: ["label"])
}

private final class CarClass: JSONMappable {
    var year = 0
    var name = ""
    required init() {}
    static let mapping = ModelMapping(required: ["year", "name"])
}

/// A hook that rewrites the object makes the decode run on a new tape: the update rule must hold there too.
private struct HookedCar: JSONMappable, JSONDecodingHooks, Equatable {
    var year = 0
    var name = ""
    static let mapping = ModelMapping(required: ["year", "name"])
    static func willDecode(_ object: JSONObject, context: MappingContext) throws -> JSONObject {
        var object = object
        if let n = object["n"] { object["name"] = n; object.removeValue(forKey: "n") }
        return object
    }
}

final class RequiredKeyTests: XCTestCase {
    private func error(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> MappingError? {
        do {
            try body()
            XCTFail("no error", file: file, line: line)
        } catch let error as MappingError {
            return error
        } catch {
            XCTFail("not a MappingError: \(error)", file: file, line: line)
        }
        return nil
    }

    // MARK: 1. null for a required key

    func testNullForRequiredNonOptionalIsAMissingKeyError() {
        var forgiving = DecodingOptions.lenient
        forgiving.invalidValueHandler = { _ in }
        for options in [DecodingOptions.lenient, .strict, forgiving] {
            let json = #"{"year": null, "note": "n", "raw": 2}"#
            let e = error { _ = try Car(json: json, options: options) }
            XCTAssertEqual(e?.kind, .missingKey)
            XCTAssertEqual(e?.path, "year")
            XCTAssertEqual(e?.message, "required key year is null")
            XCTAssertEqual(e?.missingProperties, ["year"])
            XCTAssertEqual(e?.column, 10)   // at the null
            let d = error { _ = try Car(jsonObject: ["year": NSNull(), "note": "n", "raw": 2] as [String: Any], options: options) }
            XCTAssertEqual(d?.kind, .missingKey)
            XCTAssertEqual(d?.path, "year")
            XCTAssertEqual(d?.message, "required key year is null")
        }
    }

    func testNullForRequiredPropertyThatTakesNullIsItsValue() throws {
        // Optional: present and null is nil (Codable's decode(T?.self, forKey:)); JSONValue: .null.
        let car = try Car(json: #"{"year": 1, "note": null, "raw": null}"#)
        XCTAssertNil(car.note)
        XCTAssertEqual(car.raw, .null)
        let fromObject = try Car(jsonObject: ["year": 1, "note": NSNull(), "raw": NSNull()] as [String: Any])
        XCTAssertEqual(fromObject, car)
        // ... but absent is still missing.
        let e = error { _ = try Car(json: #"{"year": 1, "raw": 2}"#) }
        XCTAssertEqual(e?.kind, .missingKey)
        XCTAssertEqual(e?.path, "note")
        XCTAssertEqual(e?.message, "required key note is missing")
    }

    func testNullForRequiredKeyInKeyPathAndCaseInsensitivePasses() {
        let e = error { _ = try PathCar(json: #"{"info": {"year": null}}"#) }
        XCTAssertEqual(e?.kind, .missingKey)
        XCTAssertEqual(e?.message, "required key info.year is null")
        XCTAssertEqual(e?.column, 19)
        let d = error { _ = try PathCar(jsonObject: ["info": ["year": NSNull()]] as [String: Any]) }
        XCTAssertEqual(d?.message, "required key info.year is null")

        var options = DecodingOptions.lenient
        options.caseInsensitiveKeys = true
        let f = error { _ = try Car(json: #"{"YEAR": null, "note": "n", "raw": 2}"#, options: options) }
        XCTAssertEqual(f?.kind, .missingKey)
        XCTAssertEqual(f?.path, "year")
        XCTAssertEqual(f?.message, "required key year is null")
    }

    // MARK: 2. every missing key named

    func testEveryMissingRequiredKeyIsNamedInOneError() {
        let e = error { _ = try Trio(json: #"{"b": "x"}"#) }
        XCTAssertEqual(e?.kind, .missingKey)
        XCTAssertEqual(e?.path, "a")
        XCTAssertEqual(e?.message, "required keys a, c | C are missing")
        XCTAssertEqual(e?.missingProperties, ["a", "c"])
        XCTAssertEqual(e?.description, "line 1, column 1: missingKey at a: required keys a, c | C are missing")
        let d = error { _ = try Trio(jsonObject: ["b": "x"]) }
        XCTAssertEqual(d?.path, "a")
        XCTAssertEqual(d?.message, "required keys a, c | C are missing")
        XCTAssertEqual(d?.missingProperties, ["a", "c"])

        // Nested: the path leads into the nested model; the names are that model's properties.
        let n = error { _ = try Garage(json: #"{"label": "g", "trio": {}}"#) }
        XCTAssertEqual(n?.path, "trio.a")
        XCTAssertEqual(n?.message, "required keys a, b, c | C are missing")
        XCTAssertEqual(n?.missingProperties, ["a", "b", "c"])
        XCTAssertEqual(n?.column, 24)
        let nd = error { _ = try Garage(jsonObject: ["label": "g", "trio": [String: Any]()] as [String: Any]) }
        XCTAssertEqual(nd?.path, "trio.a")
        XCTAssertEqual(nd?.missingProperties, ["a", "b", "c"])
    }

    func testOtherErrorsNameNoMissingProperties() {
        let e = error { _ = try Trio(json: #"{"a": "x", "b": "y", "c": 1}"#) }
        XCTAssertEqual(e?.kind, .invalidValue)
        XCTAssertEqual(e?.missingProperties, [])
    }

    // MARK: 3. update merges

    func testUpdateChecksOnlyTheRequiredKeysItCarries() throws {
        var car = try Car(json: #"{"year": 2001, "note": "n", "raw": 2}"#)
        try car.update(json: #"{"name": "Saab"}"#)
        XCTAssertEqual(car.year, 2001)
        XCTAssertEqual(car.name, "Saab")
        XCTAssertEqual(car.note, "n")
        try car.update(jsonObject: ["name": "Volvo"])
        XCTAssertEqual(car.year, 2001)
        XCTAssertEqual(car.name, "Volvo")
        try car.update(json: "{}", options: .strict)
        try car.update(jsonObject: [String: Any](), options: .strict)
        XCTAssertEqual(car.year, 2001)

        // A key the update carries is checked: null for a non-Optional required key is an error, and the
        // struct is left as it was (an update of a struct is all or nothing).
        let before = car
        let e = error { try car.update(json: #"{"name": "x", "year": null}"#) }
        XCTAssertEqual(e?.kind, .missingKey)
        XCTAssertEqual(e?.message, "required key year is null")
        XCTAssertEqual(car, before)
        let d = error { try car.update(jsonObject: ["year": NSNull()] as [String: Any]) }
        XCTAssertEqual(d?.message, "required key year is null")
        // Optional required: null sets nil.
        try car.update(jsonObject: ["note": NSNull()] as [String: Any])
        XCTAssertNil(car.note)

        // A fresh decode still requires every key.
        XCTAssertEqual(error { _ = try Car(json: "{}") }?.missingProperties, ["year", "note", "raw"])
    }

    func testUpdateOfClassAndHookedModels() throws {
        let object = CarClass()
        object.year = 1999
        var reference = object
        try reference.update(json: #"{"name": "a"}"#)
        try reference.update(jsonObject: ["name": "b"])
        XCTAssertTrue(reference === object)
        XCTAssertEqual(object.year, 1999)
        XCTAssertEqual(object.name, "b")
        XCTAssertEqual(error { _ = try CarClass(json: #"{"name": "a"}"#) }?.path, "year")

        var hooked = HookedCar()
        hooked.year = 7
        try hooked.update(json: #"{"n": "rewritten"}"#)
        XCTAssertEqual(hooked, HookedCar(year: 7, name: "rewritten"))
        try hooked.update(jsonObject: ["n": "again"])
        XCTAssertEqual(hooked.name, "again")
        XCTAssertEqual(error { _ = try HookedCar(json: #"{"n": "x"}"#) }?.message, "required key year is missing")
    }

    func testUpdateChecksNestedModelsItDecodesAsAnyDecode() throws {
        // JSONModel's mergeFromDictionary: skips the required check of the model it merges into, not of
        // the nested models it builds from the dictionary.
        var garage = try Garage(json: #"{"label": "g", "trio": {"a": 1, "b": "x", "c": 2}}"#)
        try garage.update(json: #"{"trio": {"a": 5, "b": "y", "C": 3}}"#)
        XCTAssertEqual(garage.label, "g")
        XCTAssertEqual(garage.trio, Trio(a: 5, b: "y", c: 3))
        let e = error { try garage.update(json: #"{"trio": {"a": 6}}"#) }
        XCTAssertEqual(e?.path, "trio.b")
        XCTAssertEqual(e?.missingProperties, ["b", "c"])
        let d = error { try garage.update(jsonObject: ["trio": ["a": 6]] as [String: Any]) }
        XCTAssertEqual(d?.path, "trio.b")
        XCTAssertEqual(garage.trio, Trio(a: 5, b: "y", c: 3))
    }
}
