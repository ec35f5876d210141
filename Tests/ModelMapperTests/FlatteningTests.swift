import Foundation
import XCTest
@testable import ModelMapper

// Flattening (issue #13 item 4): a nested struct model read from and written to its parent's own keys,
// with its own mapping applied there; nesting of flattened models; key paths; keys shared with the parent; bad input with
// paths and positions; streaming records; subclasses; misuse reported at first use.

fileprivate struct FLGeo: JSONMappable, Equatable {
    var lat = 0.0
    var lng = 0.0
}

fileprivate struct FLAddress: JSONMappable, Equatable {
    var city = ""
    var zip = ""
    var geo = FLGeo()
    var note: String? = nil
    static let mapping = ModelMapping(keys: ["zip": "postal_code", "note": "meta.note"], required: ["city"],
                                      flattened: ["geo"])
}

fileprivate struct FLUser: JSONMappable, Equatable {
    var name = ""
    var address = FLAddress()
    var tags: [String] = []
    static let mapping = ModelMapping(flattened: ["address"])
}

fileprivate class FLPerson: JSONMappable {
    var name = ""
    var home = FLAddress()
    required init() {}
    class var mapping: ModelMapping { ModelMapping(flattened: ["home"]) }
}

fileprivate final class FLEmployee: FLPerson {
    var badge = 0
    var work = FLGeo()
    override class var mapping: ModelMapping {
        super.mapping.merging(ModelMapping(keys: ["work": "office"], ignoredWhenEncoding: ["badge"]))
    }
}

fileprivate struct FLConflict: JSONMappable {
    var city = ""
    var address = FLAddress()
    static let mapping = ModelMapping(flattened: ["address"])
}

fileprivate struct FLTwoAddresses: JSONMappable {
    var home = FLAddress()
    var work = FLAddress()
    static let mapping = ModelMapping(flattened: ["home", "work"])
}

fileprivate struct FLPathPrefix: JSONMappable {
    var meta = ""
    var address = FLAddress()
    static let mapping = ModelMapping(flattened: ["address"])
}

fileprivate final class FLClassChild: JSONMappable { var a = 0; required init() {} }

fileprivate struct FLPersonHooks: JSONMappable, JSONDecodingHooks, JSONEncodingHooks {
    var name = ""
    var first = ""
    var full = ""
    static let mapping = ModelMapping(ignored: ["full"])
    mutating func didDecode(from object: JSONObject) throws {
        full = [object["first"]?.stringValue, object["last"]?.stringValue].compactMap { $0 }.joined(separator: " ")
    }
    func didEncode(into object: inout JSONObject) throws { object["encodedBy"] = "FLPersonHooks" }
}

fileprivate struct FLWholeChildren: JSONMappable {
    var id = 0
    var name = ""
    var person = FLPersonHooks()
    var address: FLAddress? = nil
    var box = FLClassChild()
    static let mapping = ModelMapping(flattened: ["person", "address", "box"])
}

fileprivate struct FLSelfFlattened: JSONMappable {
    var id = 0
    var next: [FLSelfFlattened]? = nil
    var parent: FLSelfFlattenedBox? = nil
    static let mapping = ModelMapping(flattened: ["parent"])
}
fileprivate final class FLSelfFlattenedBox: JSONMappable {
    var inner = FLSelfFlattened()
    required init() {}
    static let mapping = ModelMapping(flattened: ["inner"])
}

fileprivate struct FLNotAModel: JSONMappable {
    var tags: [String] = []
    static let mapping = ModelMapping(flattened: ["tags"])
}

fileprivate struct FLKeyedFlattened: JSONMappable {
    var address = FLAddress()
    static let mapping = ModelMapping(keys: ["address": "addr"], flattened: ["address"])
}

final class FlatteningTests: XCTestCase {
    let json = #"{"name":"Ann","city":"Oslo","postal_code":"0150","lat":59.9,"lng":10.7,"meta":{"note":"door 2"},"tags":["a"]}"#
    fileprivate var expected: FLUser {
        FLUser(name: "Ann", address: FLAddress(city: "Oslo", zip: "0150", geo: FLGeo(lat: 59.9, lng: 10.7), note: "door 2"),
               tags: ["a"])
    }

    func testDecodesFromParentKeys() throws {
        XCTAssertEqual(try FLUser(json: json), expected)
        XCTAssertEqual(try FLUser(jsonObject: try JSONSerialization.jsonObject(with: Data(json.utf8))), expected)
        XCTAssertEqual(try [FLUser](json: "[\(json),\(json)]"), [expected, expected])
        // A nested "address" object is not read: the model's keys are the parent's.
        XCTAssertEqual(try FLUser(json: #"{"city":"A","address":{"city":"B"}}"#).address.city, "A")
    }

    func testEncodesIntoParentObject() throws {
        let text = try expected.jsonString(options: [.sortedKeys])
        XCTAssertEqual(text, #"{"city":"Oslo","lat":59.9,"lng":10.7,"meta":{"note":"door 2"},"name":"Ann","postal_code":"0150","tags":["a"]}"#)
        XCTAssertEqual(try FLUser(json: text), expected)
        // Unsorted: the flattened keys take the flattened property's place.
        var noNote = expected
        noNote.address.note = nil
        XCTAssertEqual(try noNote.jsonString(), #"{"name":"Ann","city":"Oslo","postal_code":"0150","lat":59.9,"lng":10.7,"tags":["a"]}"#)
    }

    func testUpdateMergesIntoFlattenedModel() throws {
        var user = expected
        try user.update(json: #"{"city":"Oslo","postal_code":"9999"}"#)
        XCTAssertEqual(user.address.zip, "9999")
        XCTAssertEqual(user.address.city, "Oslo")
        XCTAssertEqual(user.address.geo.lat, 59.9)
    }

    func testErrorsNameTheFlattenedPath() throws {
        guard let bad = mappingError({ try FLUser(json: "{\"city\":\"Oslo\",\n\"lat\":\"north\"}") }) else { return }
        XCTAssertEqual(bad.kind, .invalidValue)
        XCTAssertEqual(bad.path, "address.geo.lat")
        XCTAssertEqual(bad.line, 2)
        XCTAssertEqual(bad.column, 7)
        let missing = mappingError({ try FLUser(json: #"{"name":"Ann"}"#) })
        XCTAssertEqual(missing?.kind, .missingKey)
        XCTAssertEqual(missing?.path, "address.city")
        for json in [#"{"city":1}"#, #"{"city":"x","postal_code":[]}"#, #"{"city":"x","lng":"1"}"#, #"{"city":"x","meta":{"note":5}}"#] {
            let strict = mappingError({ try FLUser(json: json, options: .strict) })
            XCTAssertEqual(strict?.kind, .typeMismatch, json)
            XCTAssertEqual(strict?.line, 1, json)
        }
        let nested = mappingError({ try [FLUser](json: #"[{"city":"x"},{"city":"y","lat":true}]"#, options: .strict) })
        XCTAssertEqual(nested?.path, "[1].address.geo.lat")
    }

    func testClassesAndSubclasses() throws {
        let employee = try FLEmployee(json: #"{"name":"Bo","city":"Rome","badge":4,"office":{"lat":1,"lng":2}}"#)
        XCTAssertEqual(employee.home.city, "Rome")
        XCTAssertEqual(employee.badge, 4)
        XCTAssertEqual(employee.work, FLGeo(lat: 1, lng: 2))
        XCTAssertEqual(try employee.jsonString(options: [.sortedKeys]),
                       #"{"city":"Rome","lat":0.0,"lng":0.0,"name":"Bo","office":{"lat":1.0,"lng":2.0},"postal_code":""}"#)
    }

    func testStreamingRecords() throws {
        let lines = "\(json)\n{\"name\":\"x\"}\n\(json)\n"
        let rejected = Collected<RejectedRecord>()
        let models = try JSONLines<FLUser>(bytes: Array(lines.utf8), onError: .skip { rejected.append($0) })
            .records().map { try $0.get() }
        XCTAssertEqual(models, [expected, expected])
        XCTAssertEqual(rejected.map(\.index), [1])
        XCTAssertEqual(rejected.first?.error.path, "[1].address.city")
        XCTAssertEqual(try JSONLines<FLUser>.decodeAll(Data("[\(json),\(json)]".utf8), format: .array, workers: 2), [expected, expected])
    }

    /// SmartCodable's flagship `@SmartFlat` case: the flattened model reads the parent's keys too; a shared
    /// key is written once, with the parent's value (then the first declared flattened model's).
    func testSharedKeysAreReadByBothAndWrittenOnceWithTheParentsValue() throws {
        let json = #"{"city":"Oslo","postal_code":"0150"}"#
        let conflict = try FLConflict(json: json)
        XCTAssertEqual(conflict.city, "Oslo")
        XCTAssertEqual(conflict.address.city, "Oslo", "the flattened model reads the shared key too")
        XCTAssertEqual(conflict.address.zip, "0150")
        let fromObject = try FLConflict(jsonObject: try JSONSerialization.jsonObject(with: Data(json.utf8)))
        XCTAssertEqual(fromObject.address.city, "Oslo")
        let record = try JSONLines<FLConflict>.decodeAll(Data((json + "\n").utf8), workers: 1)
        XCTAssertEqual(record.first?.address.city, "Oslo")

        var edited = conflict
        edited.city = "Parent"
        edited.address.city = "Child"
        XCTAssertEqual(try edited.jsonString(options: .sortedKeys), #"{"city":"Parent","lat":0.0,"lng":0.0,"postal_code":"0150"}"#)

        var two = try FLTwoAddresses(json: json)
        XCTAssertEqual(two.home.city, "Oslo")
        XCTAssertEqual(two.work.city, "Oslo")
        two.work.city = "Bergen"
        XCTAssertEqual(try two.jsonValue()["city"], "Oslo", "the first declared flattened model writes a shared key")

        // A key path sharing its first key with a parent key: the parent's value is written.
        let prefixed = try FLPathPrefix(json: #"{"meta":{"note":"door"},"city":"Oslo"}"#,
                                        options: DecodingOptions.lenient.skippingInvalidValues { _ in })
        XCTAssertEqual(prefixed.address.note, "door")
        var withMeta = prefixed
        withMeta.meta = "m"
        XCTAssertEqual(try withMeta.jsonValue()["meta"], "m")
    }

    /// SmartCodable's `@SmartFlat` on an Optional model, a model with hooks and a class model: read from
    /// the parent's whole object by the child's own codec, its members added to the parent's when encoding
    /// (for keys the parent does not write).
    func testOptionalHookedAndClassModelsFlatten() throws {
        let json = #"{"id":7,"name":"Ann","first":"Ann","last":"Lee","a":3,"city":"Oslo","postal_code":"0150"}"#
        func check(_ model: FLWholeChildren, _ input: String) {
            XCTAssertEqual(model.id, 7, input)
            XCTAssertEqual(model.person.full, "Ann Lee", "\(input): the child's didDecode ran on the parent's object")
            XCTAssertEqual(model.person.name, "Ann", "\(input): a key shared with the parent is read by both")
            XCTAssertEqual(model.address?.city, "Oslo", input)
            XCTAssertEqual(model.address?.zip, "0150", input)
            XCTAssertEqual(model.box.a, 3, input)
        }
        check(try FLWholeChildren(json: json), "json")
        check(try FLWholeChildren(jsonObject: try JSONSerialization.jsonObject(with: Data(json.utf8))), "jsonObject")
        let records = try JSONLines<FLWholeChildren>.decodeAll(Data((json + "\n" + json + "\n").utf8), workers: 2)
        XCTAssertEqual(records.count, 2)
        records.forEach { check($0, "JSON Lines") }

        var model = try FLWholeChildren(json: json)
        model.name = "Parent"
        model.person.name = "Child"
        let written = try JSONSerialization.jsonObject(with: model.jsonData()) as? [String: Any]
        XCTAssertEqual(written?["name"] as? String, "Parent", "the parent's value wins for a shared key")
        XCTAssertEqual(written?["first"] as? String, "Ann")
        XCTAssertEqual(written?["encodedBy"] as? String, "FLPersonHooks", "the child's didEncode ran")
        XCTAssertEqual(written?["city"] as? String, "Oslo")
        XCTAssertEqual(written?["a"] as? Int, 3)
        XCTAssertEqual(try FLWholeChildren(json: model.jsonData()).address?.zip, "0150")
        model.address = nil
        XCTAssertNil((try JSONSerialization.jsonObject(with: model.jsonData()) as? [String: Any])?["postal_code"])

        // Errors inside name the flattened property.
        let error = mappingError { try FLWholeChildren(json: #"{"a":"x","city":"Oslo"}"#) }
        XCTAssertEqual(error?.path, "box.a")
        let missing = mappingError { try FLWholeChildren(json: #"{"a":1}"#) }
        XCTAssertEqual(missing?.path, "address.city", "an Optional flattened model is always read, its required keys too")
    }

    func testConflictsAndMisuseAreReportedAtFirstUse() {
        for (model, fragment) in [
            ({ _ = try FLSelfFlattened(json: "{}") }, "contains itself"),
            ({ _ = try FLNotAModel(json: "{}") }, "not a JSONMappable model"),
            ({ _ = try FLKeyedFlattened(json: "{}") }, "flattened"),
        ] as [(() throws -> Void, String)] {
            guard let error = mappingError(model) else { continue }
            XCTAssertEqual(error.kind, .unsupportedType)
            XCTAssertTrue(error.message.contains(fragment), error.message)
        }
        // Encoding reports it too.
        XCTAssertEqual(mappingError({ try FLNotAModel().jsonData() })?.kind, .unsupportedType)
    }
}
