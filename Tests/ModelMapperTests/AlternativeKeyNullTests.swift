import Foundation
import XCTest
import ModelMapper

// Alternative keys: a `null` under the first key present blocks the later ones (YYModel's rule); with an
// invalid-value handler, a later alternative holding a value that is not read is reported (issue 27.9).

private struct AKUser: JSONMappable, Equatable {
    var id = -1
    var name: String? = "default"
    var city = ""
    static let mapping = ModelMapping(keys: ["id": ["id", "user_id"], "name": ["name", "nick"], "city": ["city", "town"]])
}

final class AlternativeKeyNullTests: XCTestCase {
    func testNullUnderTheFirstAlternativeBlocksTheNextAndIsReported() throws {
        let json = #"{"id":null,"user_id":7,"name":null,"nick":"N","city":null,"town":null}"#
        let expected = AKUser(id: -1, name: nil, city: "")

        // Without a handler: YYModel's rule, silently.
        XCTAssertEqual(try AKUser(json: json), expected)

        // With one: the same values, and each unread alternative reported with its property's path.
        let collector = ReportCollector()
        XCTAssertEqual(try AKUser(json: json, options: collector.options()), expected)
        XCTAssertEqual(collector.summary, ["id invalidValue 1:7", "name invalidValue 1:31"], "city: no later value, nothing to report")
        XCTAssertTrue(collector.errors[0].message.contains(#""user_id""#), collector.errors[0].message)

        // Dictionary input and a JSON Lines record report the same.
        let fromObject = ReportCollector()
        XCTAssertEqual(try AKUser(jsonObject: JSONSerialization.jsonObject(with: Data(json.utf8)), options: fromObject.options()), expected)
        XCTAssertEqual(fromObject.errors.map(\.path), ["id", "name"])
        let fromLines = ReportCollector()
        let records = try JSONLines<AKUser>.decodeAll(Data((json + "\n").utf8), options: fromLines.options(), workers: 1)
        XCTAssertEqual(records, [expected])
        XCTAssertEqual(fromLines.errors.map(\.path), ["[0].id", "[0].name"])

        // A value under the first alternative: nothing to report.
        let quiet = ReportCollector()
        XCTAssertEqual(try AKUser(json: #"{"id":1,"user_id":7}"#, options: quiet.options()).id, 1)
        XCTAssertEqual(quiet.errors.count, 0)
    }
}
