import Foundation
import XCTest
import ModelMapper

// Dictionary input holding values of types JSON does not have, as YYModel's `ModelSetValueForProperty`
// takes them (issue 27, point 7): conversions into String in lenient mode, values of the property's own
// type in both modes, sets as arrays, and every other value a forgivable error of its property.

private final class FVOwner: JSONMappable {
    var name = ""
    required init() {}
}

private struct FVPoint: JSONMappable, Equatable {
    var x = 0
    var y = 0
}

private struct FVProfile: JSONMappable {
    var site = ""
    var title = ""
    var note = ""
    var joined = Date(timeIntervalSince1970: 0)
    var home: URL?
    var avatar = Data()
    var id: UUID?
    var tags: [String] = []
    var scores: Set<Int> = []
    var owner = FVOwner()
    var origin = FVPoint()
    var extra: Any?
}

private struct FVCounts: JSONMappable, Equatable {
    var count = 7
    var ratio = 0.5
    var name = "keep"
    var list: [Int] = [9]
    var origin = FVPoint(x: 1, y: 1)
    var label = "label"
}

final class ForeignValueInputTests: XCTestCase {
    private let joined = Date(timeIntervalSince1970: 1_712_491_290)
    private let home = URL(string: "https://example.com/a?b=1")!
    private let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    private func profileObject(owner: FVOwner) -> [String: Any] {
        [
            "site": URL(string: "https://example.com/x y".addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!)!,
            "title": NSAttributedString(string: "Hello"),
            "note": Data("naïve".utf8),
            "joined": joined,
            "home": home,
            "avatar": Data([0, 255, 1]),
            "id": uuid,
            "tags": Set(["b"]),
            "scores": NSSet(array: [1, 2, 3]),
            "owner": owner,
            "origin": FVPoint(x: 3, y: 4),
            "extra": ["when": joined, "list": [home]] as [String: Any],
        ]
    }

    /// Lenient mode converts what YYModel converts; values of the property's own type are taken as they
    /// are; sets are arrays.
    func testLenientModeTakesWhatYYModelTakes() throws {
        let owner = FVOwner()
        owner.name = "Ann"
        let p = try FVProfile(jsonObject: profileObject(owner: owner))
        XCTAssertEqual(p.site, "https://example.com/x%20y")
        XCTAssertEqual(p.title, "Hello")
        XCTAssertEqual(p.note, "naïve")
        XCTAssertEqual(p.joined, joined)
        XCTAssertEqual(p.home, home)
        XCTAssertEqual(p.avatar, Data([0, 255, 1]))
        XCTAssertEqual(p.id, uuid)
        XCTAssertEqual(p.tags, ["b"])
        XCTAssertEqual(p.scores, [1, 2, 3])
        XCTAssertTrue(p.owner === owner, "a model instance is set by reference, as YYModel sets it")
        XCTAssertEqual(p.origin, FVPoint(x: 3, y: 4))
        let extra = try XCTUnwrap(p.extra as? [String: Any])
        XCTAssertEqual(extra["when"] as? Date, joined, "an Any property keeps the value as it is")
        XCTAssertEqual((extra["list"] as? [Any])?.first as? URL, home)

        // The same as the JSON text carrying the converted values (the plain path).
        let text = #"{"site":"https://example.com/x%20y","title":"Hello","note":"naïve","tags":["b"],"scores":[3,1,2],"origin":{"x":3,"y":4}}"#
        let fromText = try FVProfile(json: text)
        XCTAssertEqual([fromText.site, fromText.title, fromText.note], [p.site, p.title, p.note])
        XCTAssertEqual(fromText.tags, p.tags)
        XCTAssertEqual(fromText.scores, p.scores)
        XCTAssertEqual(fromText.origin, p.origin)

        // Through the entry points for collections of models, and the Codable-style decoder.
        let owners = try [String: FVOwner](jsonObject: ["a": owner])
        XCTAssertTrue(owners["a"] === owner)
        XCTAssertEqual(try ModelDecoder().decode([String: FVPoint].self, fromJSONObject: ["p": FVPoint(x: 5, y: 6)]), ["p": FVPoint(x: 5, y: 6)])
    }

    /// Strict mode takes values of the property's own type and sets, and rejects conversions into String,
    /// naming the property.
    func testStrictModeRejectsConversionsNamingTheProperty() throws {
        let owner = FVOwner()
        var object = profileObject(owner: owner)
        for key in ["site", "title", "note"] { object[key] = nil }
        let p = try FVProfile(jsonObject: object, options: .strict)
        XCTAssertEqual(p.joined, joined)
        XCTAssertEqual(p.home, home)
        XCTAssertTrue(p.owner === owner)
        XCTAssertEqual(p.scores, [1, 2, 3])

        for (key, value) in [("site", home as Any), ("title", NSAttributedString(string: "t")), ("note", Data("n".utf8))] {
            let error = mappingError { try FVProfile(jsonObject: [key: value], options: .strict) }
            XCTAssertEqual(error?.kind, .typeMismatch, key)
            XCTAssertEqual(error?.path, key)
            XCTAssertTrue(error?.message.contains("lenient mode converts") == true, error?.message ?? "")
        }
    }

    /// `skippingInvalidValues` forgives every value it cannot convert: each is reported with its path and
    /// the property keeps its value (before, a value of a type JSON does not have threw while the input
    /// was read, whatever the handler).
    func testSkippingForgivesEveryValueItCannotConvert() throws {
        final class Opaque {}
        let object: [String: Any] = [
            "count": Date(), "ratio": Double.nan, "name": Data([0xFF, 0xFE]), "list": [1, Opaque(), 3],
            "origin": URL(string: "https://x")!, "label": NSNumber(value: Double.infinity),
        ]
        let collector = ReportCollector()
        let decoded = try FVCounts(jsonObject: object, options: collector.options())
        XCTAssertEqual(decoded, FVCounts())
        XCTAssertEqual(Set(collector.errors.map(\.path)), ["count", "ratio", "name", "list[1]", "origin", "label"])
        let byPath = Dictionary(uniqueKeysWithValues: collector.errors.map { ($0.path, $0) })
        XCTAssertEqual(byPath["count"]?.kind, .typeMismatch)
        XCTAssertTrue(byPath["count"]?.message.contains("Date") == true, byPath["count"]?.message ?? "")
        XCTAssertTrue(byPath["ratio"]?.message.contains("nan") == true, byPath["ratio"]?.message ?? "")
        XCTAssertEqual(byPath["name"]?.kind, .invalidValue, "Data that is not UTF-8 is no string")
        XCTAssertTrue(byPath["list[1]"]?.message.contains("Opaque") == true, byPath["list[1]"]?.message ?? "")

        // Without the handler, the first such value throws with its path (the error, not a crash).
        let error = mappingError { try FVCounts(jsonObject: ["name": "n", "count": Date()]) }
        XCTAssertEqual(error?.kind, .typeMismatch)
        XCTAssertEqual(error?.path, "count")
        // An update keeps what it cannot convert as well.
        var model = FVCounts(count: 1)
        try model.update(jsonObject: ["count": Opaque(), "name": URL(string: "https://u")!], options: collector.options())
        XCTAssertEqual(model.count, 1)
        XCTAssertEqual(model.name, "https://u")
    }

    /// A `Decodable` property of a model reads converted values through the Codable decoder (the codecs
    /// serve that path), and a container it keeps past the decode still reads them (the copied tape holds
    /// the foreign values too).
    func testDecodablePropertiesReadForeignValues() throws {
        let object: [String: Any] = ["link": ["url": home, "label": home, "at": joined] as [String: Any], "kept": [home, "b"]]
        var model = try FVLinkHolder(jsonObject: object)
        XCTAssertEqual(model.link, FVLink(url: home, label: home.absoluteString, at: joined))
        _ = try FVLinkHolder(jsonObject: ["kept": ["other"]])   // reuses the thread's decoding state
        XCTAssertEqual(try model.kept?.read(), [home.absoluteString, "b"])
    }
}

private struct FVLink: Decodable, Equatable {
    var url: URL
    var label: String
    var at: Date
}

private struct FVLinkHolder: JSONMappable {
    var link: FVLink?
    var kept: LazyList?
}
