import Foundation
import XCTest
import ModelMapper

// DecodingOptions.lossyCollections: every collection of the decode, the root included, drops the elements
// it cannot decode and reports each one (issue 27, point 4).

private struct LCUser: JSONMappable, Equatable {
    var name = ""
    var age = 0
}

private struct LCGroup: JSONMappable {
    var tags: [Int] = []
    var members: [LCUser] = []
    var byID: [String: LCUser] = [:]
    var codes: Set<String> = []
    var matrix: [[Int]] = []
    var maybe: [Int]? = nil
}

final class LossyCollectionsOptionTests: XCTestCase {
    private func lossy(_ collector: ReportCollector) -> DecodingOptions {
        var options = collector.options()
        options.lossyCollections = true
        return options
    }

    func testTopLevelArrayDropsBadElements() throws {
        let json = #"[null, {"name":"a"}, 5, {"name":"b","age":"x"}]"#
        XCTAssertNotNil(mappingError { try [LCUser](json: json, options: ReportCollector().options()) },
                        "without the option a bad element fails the decode")
        let collector = ReportCollector()
        XCTAssertEqual(try [LCUser](json: json, options: lossy(collector)), [LCUser(name: "a")])
        XCTAssertEqual(collector.errors.map(\.path), ["[0]", "[2]", "[3].age"])
        XCTAssertEqual(collector.errors.map(\.kind), [.typeMismatch, .typeMismatch, .invalidValue])

        let fromObject = ReportCollector()
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        XCTAssertEqual(try [LCUser](jsonObject: object, options: lossy(fromObject)), [LCUser(name: "a")])
        XCTAssertEqual(fromObject.errors.map(\.path), ["[0]", "[2]", "[3].age"])

        // Without a handler the elements are dropped all the same, as for ModelMapping.lossy.
        var silent = DecodingOptions.lenient
        silent.lossyCollections = true
        XCTAssertEqual(try [LCUser](json: json, options: silent).count, 1)
        XCTAssertEqual(try ModelDecoder(options: silent).decode([LCUser].self, from: json).count, 1)
    }

    func testRootPathArraysAndDictionaries() throws {
        let collector = ReportCollector()
        let json = #"{"data":{"items":[{"name":"a"},[]],"byKey":{"x":{"name":"x"},"y":null}}}"#
        XCTAssertEqual(try [LCUser](json: json, at: "data.items", options: lossy(collector)), [LCUser(name: "a")])
        let byKey = try [String: LCUser](json: json, at: "data.byKey", options: lossy(collector))
        XCTAssertEqual(byKey, ["x": LCUser(name: "x")])
        XCTAssertEqual(try [String: LCUser](json: #"{"x":{"name":"x"},"y":1}"#, options: lossy(collector)).count, 1)
        XCTAssertEqual(collector.errors.map(\.path), ["data.items[1]", "data.byKey.y", "y"])
    }

    func testNestedCollectionsThroughEveryInput() throws {
        let json = #"{"tags":[1,"x",2],"members":[{"name":"m"},true],"byID":{"1":{"name":"one"},"2":"two"},"codes":["a",1.5,"b"],"matrix":[[1],[2,"z"]],"maybe":[null,3]}"#
        func check(_ group: LCGroup, _ collector: ReportCollector, _ input: String, prefix: String = "") {
            XCTAssertEqual(group.tags, [1, 2], input)
            XCTAssertEqual(group.members, [LCUser(name: "m")], input)
            XCTAssertEqual(group.byID, ["1": LCUser(name: "one")], input)
            XCTAssertEqual(group.codes, ["a", "1.5", "b"], "\(input): lenient strings take numbers")
            XCTAssertEqual(group.matrix, [[1], [2]], "\(input): inner arrays are lossy too")
            XCTAssertEqual(group.maybe, [3], input)
            XCTAssertEqual(Set(collector.errors.map(\.path)),
                           Set(["tags[1]", "members[1]", "byID.2", "matrix[1][1]", "maybe[0]"].map { prefix + $0 }), input)
        }
        let plain = ReportCollector()
        check(try LCGroup(json: json, options: lossy(plain)), plain, "json")
        let dictionary = ReportCollector()
        check(try LCGroup(jsonObject: try JSONSerialization.jsonObject(with: Data(json.utf8)), options: lossy(dictionary)),
              dictionary, "jsonObject")
        let lines = ReportCollector()
        let records = try JSONLines<LCGroup>.decodeAll(Data((json + "\n").utf8), options: lossy(lines), workers: 1)
        XCTAssertEqual(records.count, 1)
        check(records[0], lines, "JSON Lines", prefix: "[0].")
        // The same model without the option still fails (its metadata is another variant's).
        XCTAssertEqual(mappingError { try LCGroup(json: json) }?.path, "tags[1]")
    }
}
