import Foundation
import XCTest
import ModelMapper

// Lossy collections (issue #13 item 1): `ModelMapping(lossy:)` keeps the valid elements of an array, set or
// dictionary property and drops the others, each drop reported with the element's path and position.

fileprivate struct LCItem: JSONMappable, Equatable, Hashable {
    var name = ""
    var price = 0.0
    static let mapping = ModelMapping(required: ["name"])
}

fileprivate struct LCValidated: JSONMappable, JSONDecodingHooks, Equatable {
    var n = 0
    mutating func didDecode(from object: JSONObject) throws {
        if n < 0 { throw MappingError(.validation, "negative") }
    }
}

fileprivate struct LCOrder: JSONMappable, Equatable {
    var tags: [String] = []
    var ids: Set<Int> = []
    var items: [LCItem] = []
    var prices: [String: Double] = [:]
    var maybe: [Int]? = nil
    var contiguous: ContiguousArray<Int> = []
    var optionals: [Int?] = []
    var checked: [LCValidated] = []
    var strictList: [Int] = []          // not lossy: one bad element fails the decode
    static let mapping = ModelMapping(lossy: ["tags", "ids", "items", "prices", "maybe", "contiguous", "optionals", "checked"])
}

fileprivate struct LCNested: JSONMappable, Equatable {
    var grid: [[Int]] = []
    var orders: [LCOrder] = []
    static let mapping = ModelMapping(lossy: ["grid", "orders"])
}

fileprivate struct LCNotACollection: JSONMappable { var name = ""; static let mapping = ModelMapping(lossy: ["name"]) }
fileprivate struct LCUnknownName: JSONMappable { var name = ""; static let mapping = ModelMapping(lossy: ["nope"]) }

fileprivate class LCBase: JSONMappable {
    var list: [Int] = []
    required init() {}
    class var mapping: ModelMapping { ModelMapping(lossy: ["list"]) }
}
fileprivate final class LCSub: LCBase {
    var more: [Int] = []
    override class var mapping: ModelMapping { super.mapping.merging(ModelMapping(lossy: ["more"])) }
}

final class LossyCollectionTests: XCTestCase {
    func testValidElementsAreKeptAndInvalidOnesDropped() throws {
        let json = """
        {"tags":["a",{"x":1},"b",null,[1]],"ids":[1,"2",2.5,"x",3,1],
         "items":[{"name":"ok","price":1.5},{"name":"bad","price":"cheap"},{"price":3},5,{"name":"ok2"}],
         "prices":{"a":1,"b":"n/a","c":null,"d":2.5},"maybe":[1,true,"3"],"contiguous":[1,"z",2],
         "optionals":[1,null,"q",4],"checked":[{"n":1},{"n":-1},{"n":2}],"strictList":[1,2]}
        """
        let order = try LCOrder(json: json)
        XCTAssertEqual(order.tags, ["a", "b"])
        XCTAssertEqual(order.ids, [1, 2, 3])
        XCTAssertEqual(order.items, [LCItem(name: "ok", price: 1.5), LCItem(name: "ok2", price: 0)])
        XCTAssertEqual(order.prices, ["a": 1, "d": 2.5])
        XCTAssertEqual(order.maybe, [1, 3])   // lenient: true -> 1 is a Bool, not an Int; "3" is
        XCTAssertEqual(order.contiguous, [1, 2])
        XCTAssertEqual(order.optionals, [1, nil, 4])
        XCTAssertEqual(order.checked, [LCValidated(n: 1), LCValidated(n: 2)])
        XCTAssertEqual(order.strictList, [1, 2])
    }

    func testEachDropIsReportedWithElementPathAndPosition() throws {
        let collector = ReportCollector()
        let json = "{\"tags\":[\"a\",{}],\n\"items\":[{\"name\":\"ok\"},{\"name\":\"bad\",\"price\":\"cheap\"},{\"price\":3}],\n\"prices\":{\"b\":null}}"
        let order = try LCOrder(json: json, options: collector.options())
        XCTAssertEqual(order.tags, ["a"])
        XCTAssertEqual(order.items.map(\.name), ["ok"])   // a bad price drops the element, handler or not
        XCTAssertEqual(collector.summary, [
            "tags[1] typeMismatch 1:14",
            "items[1].price invalidValue 2:46",   // "cheap" is a string, but not a number
            "items[2].name missingKey 2:55",      // at the element's object
            "prices.b typeMismatch 3:15",
        ])
        XCTAssertTrue(collector.errors[1].message.hasPrefix("element dropped: "), collector.errors[1].message)
    }

    func testWithoutHandlerTheSameElementsAreDropped() throws {
        let json = #"{"items":[{"name":"ok"},{"name":"bad","price":"cheap"},{"price":3}]}"#
        let collector = ReportCollector()
        XCTAssertEqual(try LCOrder(json: json).items, try LCOrder(json: json, options: collector.options()).items)
    }

    func testNonCollectionValueIsStillAnError() {
        let error = mappingError { try LCOrder(json: #"{"tags":"a"}"#, options: .strict) }
        XCTAssertEqual(error?.kind, .typeMismatch)
        XCTAssertEqual(error?.path, "tags")
        XCTAssertEqual(error?.column, 9)
        let dict = mappingError { try LCOrder(json: #"{"prices":[1]}"#) }
        XCTAssertEqual(dict?.kind, .typeMismatch)
        XCTAssertEqual(dict?.path, "prices")
        // With a handler the whole property is forgiven (kept) and reported, as for any property.
        let collector = ReportCollector()
        let order = try? LCOrder(json: #"{"tags":5,"ids":[1]}"#, options: collector.options(.strict))
        XCTAssertEqual(order?.ids, [1])
        XCTAssertEqual(collector.summary, ["tags typeMismatch 1:9"])
    }

    func testNonLossyPropertiesStillFail() {
        let error = mappingError { try LCOrder(json: #"{"strictList":[1,"x"]}"#) }
        XCTAssertEqual(error?.path, "strictList[1]")
        XCTAssertEqual(error?.kind, .invalidValue)
    }

    func testOptionalLossyTakesNull() throws {
        XCTAssertNil(try LCOrder(json: #"{"maybe":null}"#).maybe)
    }

    func testWrapsSingleValuesStillApplies() throws {
        var options = DecodingOptions.lenient
        options.wrapsSingleValues = true
        XCTAssertEqual(try LCOrder(json: #"{"tags":"solo"}"#, options: options).tags, ["solo"])
        let collector = ReportCollector()
        var reporting = collector.options()
        reporting.wrapsSingleValues = true
        XCTAssertEqual(try LCOrder(json: #"{"ids":"x"}"#, options: reporting).ids, [])
        XCTAssertEqual(collector.errors.map(\.path), ["ids[0]"])
    }

    func testOnlyTheOuterLevelIsLossyAndNestedReportsOfDroppedElementsAreWithdrawn() throws {
        let collector = ReportCollector()
        let json = #"{"grid":[[1,2],[3,"x"],[4]],"orders":[{"tags":[1,{}]},{"tags":["ok"],"strictList":["bad"]}]}"#
        let nested = try LCNested(json: json, options: collector.options())
        XCTAssertEqual(nested.grid, [[1, 2], [4]])
        XCTAssertEqual(nested.orders.map(\.tags), [["1"]])
        // orders[0].tags[1] was dropped inside a kept order; orders[1] was dropped whole (its inner report
        // withdrawn, one report for the element).
        XCTAssertEqual(collector.errors.map(\.path), ["grid[1][1]", "orders[0].tags[1]", "orders[1].strictList[0]"])
    }

    func testEncodingWritesTheKeptElements() throws {
        let order = try LCOrder(json: #"{"tags":["a",{},"b"],"prices":{"x":"?","y":1}}"#)
        let out = try order.jsonString(options: [.sortedKeys])
        XCTAssertEqual(out, #"{"checked":[],"contiguous":[],"ids":[],"items":[],"optionals":[],"prices":{"y":1.0},"strictList":[],"tags":["a","b"]}"#)
        XCTAssertEqual(try LCOrder(json: out), order)
    }

    func testDictionaryInputAndSubclassMerging() throws {
        let order = try LCOrder(jsonObject: ["tags": ["a", 1, NSNull(), ["x"]] as [Any], "ids": [1, "x"] as [Any]])
        XCTAssertEqual(order.tags, ["a", "1"])
        XCTAssertEqual(order.ids, [1])
        let sub = try LCSub(json: #"{"list":[1,"x"],"more":["y",2]}"#)
        XCTAssertEqual(sub.list, [1])
        XCTAssertEqual(sub.more, [2])
    }

    func testMisuseIsReportedAtFirstUse() {
        let notCollection = mappingError { try LCNotACollection(json: "{}") }
        XCTAssertEqual(notCollection?.kind, .unsupportedType)
        XCTAssertTrue(notCollection?.message.contains("cannot be lossy") == true, notCollection?.message ?? "")
        XCTAssertEqual(mappingError { try LCUnknownName(json: "{}") }?.kind, .unsupportedType)
    }

    func testJSONLinesDropsCarryTheRecordIndex() throws {
        let collector = ReportCollector()
        let text = "{\"tags\":[\"a\"]}\n{\"tags\":[\"b\",{}]}\n{\"items\":[{\"price\":1}]}\n"
        let all = try JSONLines<LCOrder>.decodeAll(Data(text.utf8), options: collector.options(), workers: 2)
        XCTAssertEqual(all.map(\.tags), [["a"], ["b"], []])
        XCTAssertEqual(collector.errors.map(\.path).sorted(), ["[1].tags[1]", "[2].items[0].name"])
        XCTAssertEqual(collector.errors.first { $0.path == "[1].tags[1]" }?.line, 2)
        var streamed: [LCOrder] = []
        for result in JSONLines<LCOrder>(bytes: Array(text.utf8), options: collector.options(), onError: .stop).records() {
            streamed.append(try result.get())
        }
        XCTAssertEqual(streamed, all)
    }
}
