import Foundation
import XCTest
import ModelMapper

// Embedded JSON (issue #13 item 7): in .lenient, a string holding a JSON object or array where a model,
// array, set or dictionary is expected is parsed and decoded; .strict keeps it an error.

fileprivate struct EJUser: JSONMappable, Equatable { var id = 0; var name = "" }

fileprivate struct EJEnvelope: JSONMappable, Equatable {
    var user = EJUser()
    var maybeUser: EJUser? = nil
    var users: [EJUser] = []
    var ids: [Int] = []
    var tags: Set<String> = []
    var scores: [String: Double] = [:]
    var note = ""
    var lossyIDs: [Int] = []
    static let mapping = ModelMapping(lossy: ["lossyIDs"])
}

fileprivate final class EJNode: JSONMappable { var value = 0; var child: EJNode? = nil; required init() {} }

final class EmbeddedJSONTests: XCTestCase {
    func testStringsHoldingJSONAreDecodedInLenientMode() throws {
        let json = #"""
        {"user":"{\"id\":1,\"name\":\"Ann\"}","maybeUser":" {\"id\":2}","users":"[{\"id\":3},{\"id\":4}]",
         "ids":"[1,\"2\",3]","tags":"[\"a\",\"b\"]","scores":"{\"x\":1.5}","note":"{\"not\":\"parsed\"}",
         "lossyIDs":"[1,\"x\",2]"}
        """#
        let e = try EJEnvelope(json: json)
        XCTAssertEqual(e.user, EJUser(id: 1, name: "Ann"))
        XCTAssertEqual(e.maybeUser, EJUser(id: 2))
        XCTAssertEqual(e.users.map(\.id), [3, 4])
        XCTAssertEqual(e.ids, [1, 2, 3])
        XCTAssertEqual(e.tags, ["a", "b"])
        XCTAssertEqual(e.scores, ["x": 1.5])
        XCTAssertEqual(e.note, #"{"not":"parsed"}"#)     // a String property keeps the text
        XCTAssertEqual(e.lossyIDs, [1, 2])
        // A string whose content is a JSON string (encoded twice over) is not a container: an error.
        let twice = mappingError { try EJEnvelope(json: #"{"user":"\"{\\\"id\\\":9}\""}"#) }
        XCTAssertEqual(twice?.kind, .typeMismatch)
        XCTAssertEqual(twice?.path, "user")
    }

    func testStrictModeKeepsItAnError() {
        let error = mappingError { try EJEnvelope(json: #"{"user":"{\"id\":1}"}"#, options: .strict) }
        XCTAssertEqual(error?.kind, .typeMismatch)
        XCTAssertEqual(error?.path, "user")
        XCTAssertEqual(error?.column, 9)
    }

    func testStringsThatAreNotContainersKeepTheOldRules() {
        let error = mappingError { try EJEnvelope(json: #"{"ids":"12"}"#) }
        XCTAssertEqual(error?.kind, .typeMismatch)
        XCTAssertEqual(error?.path, "ids")
        var wrapping = DecodingOptions.lenient
        wrapping.wrapsSingleValues = true
        XCTAssertEqual(try EJEnvelope(json: #"{"ids":"12"}"#, options: wrapping).ids, [12])
        XCTAssertEqual(try EJEnvelope(json: #"{"ids":"[12]"}"#, options: wrapping).ids, [12])
    }

    func testErrorsInsideTheEmbeddedTextPointAtTheString() {
        let json = "{\"note\":\"x\",\n  \"user\":\"{\\\"id\\\":\\\"abc\\\"}\"}"
        let bad = mappingError { try EJEnvelope(json: json) }
        XCTAssertEqual(bad?.kind, .invalidValue)
        XCTAssertEqual(bad?.path, "user.id")
        XCTAssertEqual(bad?.line, 2)
        XCTAssertEqual(bad?.column, 10)
        let syntax = mappingError { try EJEnvelope(json: "{\"users\":\"[{\\\"id\\\":1},]\"}") }
        XCTAssertEqual(syntax?.kind, .invalidValue)  // the document is valid; the string's content is not
        XCTAssertEqual(syntax?.path, "users")
        XCTAssertEqual(syntax?.column, 10)
        XCTAssertTrue(syntax?.message.contains("of the JSON embedded in the string") == true, syntax?.message ?? "")
    }

    func testReportedErrorsInsideTheEmbeddedTextPointAtTheString() throws {
        let collector = ReportCollector()
        let json = "{\"user\":\"{\\\"id\\\":\\\"abc\\\",\\\"name\\\":\\\"B\\\"}\",\n\"lossyIDs\":\"[1,{}]\"}"
        let e = try EJEnvelope(json: json, options: collector.options())
        XCTAssertEqual(e.user, EJUser(id: 0, name: "B"))
        XCTAssertEqual(e.lossyIDs, [1])
        XCTAssertEqual(collector.summary, ["user.id invalidValue 1:9", "lossyIDs[1] typeMismatch 2:12"])
    }

    func testNestedAndTopLevelAndDictionaryInput() throws {
        let node = try EJNode(json: #"{"value":1,"child":"{\"value\":2,\"child\":\"{\\\"value\\\":3}\"}"}"#)
        XCTAssertEqual(node.child?.value, 2)
        XCTAssertEqual(node.child?.child?.value, 3)
        XCTAssertEqual(try EJUser(json: #""{\"id\":5}""#).id, 5)
        XCTAssertEqual(try [EJUser](json: #""[{\"id\":6}]""#).map(\.id), [6])
        var user = EJUser(id: 1, name: "keep")
        try user.update(json: #""{\"id\":7}""#)
        XCTAssertEqual(user, EJUser(id: 7, name: "keep"))
        XCTAssertEqual(try EJEnvelope(jsonObject: ["user": #"{"id":8}"#]).user.id, 8)
    }

    func testEncodingWritesRealJSON() throws {
        let e = try EJEnvelope(json: #"{"user":"{\"id\":1,\"name\":\"A\"}","ids":"[1]"}"#)
        let out = try e.jsonString(options: [.sortedKeys])
        XCTAssertTrue(out.contains(#""user":{"id":1,"name":"A"}"#), out)
        XCTAssertTrue(out.contains(#""ids":[1]"#), out)
    }

    func testJSONLinesRecords() throws {
        let text = "{\"user\":\"{\\\"id\\\":1}\"}\n{\"user\":\"{\\\"id\\\":true}\"}\n"
        let rejected = Collected<RejectedRecord>()
        let lines = JSONLines<EJEnvelope>(bytes: Array(text.utf8), onError: .skip { rejected.append($0) })
        var users: [Int] = []
        for result in lines.records() { if let e = try? result.get() { users.append(e.user.id) } }
        XCTAssertEqual(users, [1])
        XCTAssertEqual(rejected.map(\.index), [1])
        XCTAssertEqual(rejected.first?.error.path, "[1].user.id")
        XCTAssertEqual(rejected.first?.error.line, 2)
        XCTAssertEqual(rejected.first?.error.column, 9)
    }
}
