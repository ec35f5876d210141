import Foundation
import XCTest
import ModelMapper

// A decode makes a new instance for every nested class model it reads (as JSONDecoder does) and never
// writes into the instance a property held (issue 36, point 1); only `update` merges into the instances a
// value holds (YYModel's update). A skipped value leaves the held instance untouched, and a struct model's
// `update` is all or nothing (issue 27, point 2).

private final class NCItem: JSONMappable {
    var name = ""
    var count = 0
    required init() {}
    init(name: String) { self.name = name }
}

private struct NCHolder: JSONMappable {
    var title = ""
    var item = NCItem(name: "preset")
    var maybe: NCItem? = nil
}

private final class NCRoot: JSONMappable {
    var title = ""
    var item = NCItem(name: "preset")
    required init() {}
}

final class NestedClassModelTests: XCTestCase {
    func testASkippedNestedClassValueLeavesTheInstanceUntouched() throws {
        let json = #"{"title":"t","item":123}"#
        let inputs: [(String, (DecodingOptions) throws -> NCHolder)] = [
            ("json", { try NCHolder(json: json, options: $0) }),
            ("jsonObject", { try NCHolder(jsonObject: try JSONSerialization.jsonObject(with: Data(json.utf8)), options: $0) }),
            ("JSON Lines", { try JSONLines<NCHolder>.decodeAll(Data((json + "\n").utf8), options: $0, workers: 1)[0] }),
        ]
        for (path, decode) in inputs {
            let collector = ReportCollector()
            let holder = try decode(collector.options())
            XCTAssertEqual(holder.title, "t", path)
            XCTAssertEqual(holder.item.name, "preset", "\(path): skipped means untouched, not a fresh instance")
            XCTAssertEqual(collector.errors.map(\.path), [path == "JSON Lines" ? "[0].item" : "item"], path)
            XCTAssertEqual(collector.errors.first?.kind, .typeMismatch, path)
        }
        // The same in update: the very instance stays, with its values.
        var holder = NCHolder()
        let instance = holder.item
        instance.count = 7
        let collector = ReportCollector()
        try holder.update(json: json, options: collector.options())
        XCTAssertTrue(holder.item === instance)
        XCTAssertEqual(holder.item.count, 7)
        XCTAssertEqual(collector.errors.count, 1)
    }

    func testUpdateMergesIntoTheNestedInstance() throws {
        var holder = NCHolder()
        let instance = holder.item
        instance.count = 3
        holder.maybe = NCItem(name: "kept")
        let optional = holder.maybe
        try holder.update(json: #"{"item":{"count":5},"maybe":{"count":9}}"#)
        XCTAssertTrue(holder.item === instance, "merged into the instance the property holds")
        XCTAssertEqual(holder.item.name, "preset")
        XCTAssertEqual(holder.item.count, 5)
        XCTAssertTrue(holder.maybe === optional)
        XCTAssertEqual(holder.maybe?.name, "kept")
        XCTAssertEqual(holder.maybe?.count, 9)

        try holder.update(jsonObject: ["item": ["name": "renamed"]])
        XCTAssertTrue(holder.item === instance)
        XCTAssertEqual(holder.item.name, "renamed")
        XCTAssertEqual(holder.item.count, 5)

        let root = NCRoot()
        let nested = root.item
        var variable = root
        try variable.update(json: #"{"item":{"count":2}}"#)
        XCTAssertTrue(variable === root && root.item === nested)
        XCTAssertEqual(nested.name, "preset")
        XCTAssertEqual(nested.count, 2)
        // null leaves an Optional nil, as before.
        try holder.update(json: #"{"maybe":null}"#)
        XCTAssertNil(holder.maybe)
    }

    func testADecodeMakesANewInstanceForANestedClassModel() throws {
        let defaults = NCHolder()
        let holder = try NCHolder(json: #"{"item":{"count":4}}"#)
        XCTAssertFalse(holder.item === defaults.item)
        XCTAssertEqual(holder.item.name, "", "a new instance: keys absent from the nested object have init()'s values")
        XCTAssertEqual(holder.item.count, 4)
        XCTAssertEqual(try NCHolder(json: #"{"title":"no item"}"#).item.name, "preset", "an absent key keeps the default")
        let holders = try [NCHolder](json: #"[{"item":{"count":1}},{"item":{"count":2}}]"#)
        XCTAssertFalse(holders[0].item === holders[1].item)
        XCTAssertEqual(holders.map(\.item.count), [1, 2])
    }

    func testAStructUpdateThatThrowsChangesNothing() throws {
        var holder = NCHolder()
        holder.title = "before"
        let json = #"{"title":"after","item":{"count":6},"maybe":"not an object"}"#
        XCTAssertNotNil(mappingError { try holder.update(json: json) })
        XCTAssertEqual(holder.title, "before", "a struct model's update is all or nothing")
        XCTAssertNotNil(mappingError { try holder.update(jsonObject: ["title": "after", "maybe": 1]) })
        XCTAssertEqual(holder.title, "before")
        // Class instances it holds are updated in place: what was decoded before the error stays.
        XCTAssertEqual(holder.item.count, 6)

        // A class model keeps its instance: the properties decoded before the error are changed.
        var root = NCRoot()
        XCTAssertNotNil(mappingError { try root.update(json: #"{"title":"after","item":1}"#) })
        XCTAssertEqual(root.title, "after")
    }
}

// Issue 39, point 6: `update` merges a dictionary of models by key (ObjectMapper's suite found that it put a
// new instance under a present key and dropped absent keys); any other decode makes a new dictionary.

private final class DMPerson: JSONMappable {
    var name = ""
    var age = 0
    var children: [String: DMPerson]? = nil
    required init() {}
}

private struct DMPoint: JSONMappable {
    var x = 0
    var y = 0
}

private struct DMPlot: JSONMappable {
    var points: [String: DMPoint] = [:]
    var tags: [String: String] = [:]
    var list: [DMPoint] = []
}

final class DictionaryUpdateTests: XCTestCase {
    func testUpdateMergesIntoTheInstancesHeldByKey() throws {
        var parent = try DMPerson(json: #"{"name":"P","children":{"child_1":{"name":"HJKL","age":3},"b":{"name":"B"}}}"#)
        let child = try XCTUnwrap(parent.children?["child_1"])
        let b = try XCTUnwrap(parent.children?["b"])
        try parent.update(json: #"{"children":{"child_1":{"name":"QWERTY"},"c":{"name":"C"}}}"#)
        XCTAssertTrue(parent.children?["child_1"] === child, "the instance held under the key is updated")
        XCTAssertEqual(child.name, "QWERTY")
        XCTAssertEqual(child.age, 3, "absent keys of the nested object keep their values")
        XCTAssertTrue(parent.children?["b"] === b, "keys absent from the update stay")
        XCTAssertEqual(parent.children?["c"]?.name, "C", "a new key is added")
        XCTAssertEqual(parent.children?.count, 3)
        // A decode (not an update) makes a new dictionary of new instances.
        let fresh = try DMPerson(json: #"{"children":{"child_1":{"name":"X"}}}"#)
        XCTAssertEqual(fresh.children?.keys.sorted(), ["child_1"])
        XCTAssertFalse(fresh.children?["child_1"] === child)
    }

    func testUpdateMergesStructValuesByKeyAndReplacesArraysAndScalarDictionaries() throws {
        var plot = try DMPlot(json: #"{"points":{"a":{"x":1,"y":2},"b":{"x":3}},"tags":{"k":"v","l":"w"},"list":[{"x":1},{"x":2}]}"#)
        try plot.update(json: #"{"points":{"a":{"y":9}},"tags":{"k":"z"},"list":[{"y":5}]}"#)
        XCTAssertEqual(plot.points["a"]?.x, 1)
        XCTAssertEqual(plot.points["a"]?.y, 9)
        XCTAssertEqual(plot.points["b"]?.x, 3, "an absent key stays")
        XCTAssertEqual(plot.tags, ["k": "z"], "a dictionary of scalars is replaced, as before")
        XCTAssertEqual(plot.list.map(\.y), [5], "arrays are replaced, as before")
        XCTAssertEqual(plot.list.map(\.x), [0])
        // A null under a key of non-Optional models is an error, as in a decode.
        XCTAssertEqual(mappingError { try plot.update(json: #"{"points":{"a":null}}"#) }?.path, "points.a")
    }
}
