import Foundation
import XCTest
@testable import ModelMapper

// One-direction mapping (issue #13 item 5): `encodingKeys` (the key written), `ignoredWhenEncoding` (read,
// never written), `ignoredWhenDecoding` (written, never read), in both directions, with bad input, under
// the streaming readers, and in subclasses merging `super.mapping`.

fileprivate struct ODAccount: JSONMappable, Equatable {
    var name = ""
    var email = ""
    var password = ""
    var checksum = ""
    var age = 0
    static let mapping = ModelMapping(
        keys: ["name": "n", "age": ["age", "AGE"]],
        encodingKeys: ["name": "full_name", "email": "contact.email", "age": "years"],
        ignoredWhenEncoding: ["password"],
        ignoredWhenDecoding: ["checksum"])
}

fileprivate class ODBase: JSONMappable {
    var id = 0
    var secret = ""
    required init() {}
    class var mapping: ModelMapping { ModelMapping(encodingKeys: ["id": "ident"], ignoredWhenEncoding: ["secret"]) }
}

fileprivate final class ODDerived: ODBase {
    var title = ""
    var etag = ""
    override class var mapping: ModelMapping {
        super.mapping.merging(ModelMapping(encodingKeys: ["title": "heading"], ignoredWhenDecoding: ["etag"]))
    }
}

fileprivate struct ODBadAlternatives: JSONMappable {
    var a = 0
    static let mapping = ModelMapping(encodingKeys: ["a": ["x", "y"]])
}

fileprivate struct ODUnknownName: JSONMappable {
    var a = 0
    static let mapping = ModelMapping(ignoredWhenEncoding: ["nope"])
}

fileprivate struct ODRequiredButIgnored: JSONMappable {
    var a = 0
    static let mapping = ModelMapping(required: ["a"], ignoredWhenDecoding: ["a"])
}

final class OneDirectionKeyTests: XCTestCase {
    func testDecodingReadsKeysAndSkipsIgnoredWhenDecoding() throws {
        let json = #"{"n":"Ann","email":"a@x.org","password":"pw","checksum":"c1","AGE":41,"full_name":"wrong","years":9}"#
        let account = try ODAccount(json: json)
        // `keys` decide what is read: "full_name" and "years" (encoding keys) are not read.
        XCTAssertEqual(account, ODAccount(name: "Ann", email: "a@x.org", password: "pw", checksum: "", age: 41))
        // Dictionary input takes the same path.
        let fromObject = try ODAccount(jsonObject: try JSONSerialization.jsonObject(with: Data(json.utf8)))
        XCTAssertEqual(fromObject, account)
    }

    func testEncodingWritesEncodingKeysAndSkipsIgnoredWhenEncoding() throws {
        let account = ODAccount(name: "Ann", email: "a@x.org", password: "pw", checksum: "c1", age: 41)
        let text = try account.jsonString(options: [.sortedKeys])
        XCTAssertEqual(text, #"{"checksum":"c1","contact":{"email":"a@x.org"},"full_name":"Ann","years":41}"#)
        let value = try account.jsonValue()
        XCTAssertNil(value["password"])
        XCTAssertNil(value["n"])
    }

    func testIgnoredWhenDecodingKeepsCurrentValueOnUpdate() throws {
        var account = ODAccount()
        account.checksum = "kept"
        try account.update(json: #"{"checksum":"replaced","n":"Bo"}"#)
        XCTAssertEqual(account.checksum, "kept")
        XCTAssertEqual(account.name, "Bo")
    }

    func testBadValueForDecodedPropertyHasPathAndPosition() throws {
        guard let error = mappingError({ try ODAccount(json: "{\"n\":\"Ann\",\n \"AGE\":\"old\"}") }) else { return }
        XCTAssertEqual(error.kind, .invalidValue)
        XCTAssertEqual(error.path, "age")
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 8)
        // A wrong type under an ignored-when-decoding key is never read, so it is no error.
        XCTAssertEqual(try ODAccount(json: #"{"checksum":{"deep":[1,2]}}"#).checksum, "")
        // Strict mode: wrong types everywhere a decoded key is read.
        for json in [#"{"n":1}"#, #"{"email":true}"#, #"{"password":[]}"#, #"{"age":"4"}"#] {
            guard let strict = mappingError({ try ODAccount(json: json, options: .strict) }) else { continue }
            XCTAssertEqual(strict.kind, .typeMismatch, json)
            XCTAssertEqual(strict.line, 1, json)
        }
    }

    func testSubclassMergesOneDirectionFields() throws {
        let derived = try XCTUnwrap(ODBase(json: #"{"id":7,"secret":"s","title":"T","etag":"e"}"#) as ODBase?)
        XCTAssertEqual(derived.id, 7)
        let model = try ODDerived(json: #"{"id":7,"secret":"s","title":"T","etag":"e"}"#)
        XCTAssertEqual([model.id], [7])
        XCTAssertEqual(model.secret, "s")
        XCTAssertEqual(model.title, "T")
        XCTAssertEqual(model.etag, "")
        model.etag = "E"
        XCTAssertEqual(try model.jsonString(options: [.sortedKeys]), #"{"etag":"E","heading":"T","ident":7}"#)
    }

    func testStreamingRecordsUseOneDirectionMapping() throws {
        let lines = """
        {"n":"A","password":"p1","checksum":"x","AGE":1}
        {"n":"B","password":"p2","checksum":"y","age":"bad"}
        {"n":"C","password":"p3","age":3}
        """
        let rejected = Collected<RejectedRecord>()
        let reader = JSONLines<ODAccount>(bytes: Array(lines.utf8), onError: .skip { rejected.append($0) })
        let models = try reader.records().map { try $0.get() }
        XCTAssertEqual(models.map(\.name), ["A", "C"])
        XCTAssertEqual(models.map(\.password), ["p1", "p3"])
        XCTAssertEqual(models.map(\.checksum), ["", ""])
        XCTAssertEqual(rejected.map(\.index), [1])
        XCTAssertEqual(rejected.first?.error.path, "[1].age")
        XCTAssertEqual(rejected.first?.error.kind, .invalidValue)
        let all = try JSONLines<ODAccount>.decodeAll(Data(lines.utf8), workers: 2, onError: .skip { _ in })
        XCTAssertEqual(all.map(\.age), [1, 3])
    }

    func testMisuseIsReportedAtFirstUse() {
        XCTAssertEqual(mappingError({ try ODBadAlternatives(json: "{}") })?.kind, .unsupportedType)
        let unknown = mappingError({ try ODUnknownName(json: "{}") })
        XCTAssertEqual(unknown?.kind, .unsupportedType)
        XCTAssertTrue(unknown?.message.contains("ignoredWhenEncoding") ?? false)
        XCTAssertEqual(mappingError({ try ODRequiredButIgnored(json: "{}") })?.kind, .unsupportedType)
    }
}
