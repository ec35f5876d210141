import Foundation
import XCTest
import ModelMapper

// EncodingOptions is an option set whose strategies are members like its flags: equality and membership
// see them (`.dates(.iso8601) == []` was true, and `.keys(.snakeCase).contains(.keys(.kebabCase))`).

private struct Stamp: JSONMappable {
    var createdAt = Date(timeIntervalSince1970: 0)
    var userName = "a"
}

final class EncodingOptionsTests: XCTestCase {
    func testStrategiesTakePartInEquality() throws {
        XCTAssertNotEqual(EncodingOptions.dates(.iso8601), [])
        XCTAssertNotEqual(EncodingOptions.dates(.iso8601), .dates(.secondsSince1970))
        XCTAssertNotEqual(EncodingOptions.keys(.snakeCase), .keys(.kebabCase))
        XCTAssertNotEqual(EncodingOptions.dates(.formatted("yyyy")), .dates(.formatted("dd")))
        XCTAssertEqual(EncodingOptions.dates(.formatted("yyyy")), .dates(.formatted("yyyy")))
        XCTAssertEqual([.sortedKeys, .keys(.snakeCase)], [.keys(.snakeCase), .sortedKeys] as EncodingOptions)
        XCTAssertFalse(EncodingOptions.dates(.iso8601).isEmpty)
        var withInfo = EncodingOptions()
        withInfo.userInfo = ["tenant": "a"]
        var otherInfo = EncodingOptions()
        otherInfo.userInfo = ["tenant": "b"]
        XCTAssertNotEqual(withInfo, otherInfo)
        XCTAssertNotEqual(withInfo, [])
        // Options that compare equal encode alike; these do not, and do not compare equal.
        let seconds = try Stamp().jsonString(options: .dates(.secondsSince1970))
        let iso = try Stamp().jsonString(options: .dates(.iso8601))
        XCTAssertNotEqual(seconds, iso)
    }

    func testCustomStrategiesAreTheSameOnlyAsTheSameClosure() {
        let upper: @Sendable (String) -> String = { $0.uppercased() }
        let options = EncodingOptions.keys(.custom(upper))
        XCTAssertEqual(options, options)
        XCTAssertEqual(EncodingOptions.keys(.custom(upper)), .keys(.custom(upper)))
        let suffix = "_x"
        XCTAssertNotEqual(EncodingOptions.keys(.custom(upper)), .keys(.custom({ $0 + suffix })))
    }

    func testMembershipSeesStrategies() {
        XCTAssertFalse(EncodingOptions.keys(.snakeCase).contains(.keys(.kebabCase)))
        XCTAssertTrue(EncodingOptions.keys(.snakeCase).contains(.keys(.snakeCase)))
        XCTAssertFalse(EncodingOptions().contains(.dates(.iso8601)))
        let options: EncodingOptions = [.sortedKeys, .keys(.kebabCase), .dates(.iso8601)]
        XCTAssertTrue(options.contains(.sortedKeys))
        XCTAssertTrue(options.contains(.keys(.kebabCase)))
        XCTAssertTrue(options.contains(.dates(.iso8601)))
        XCTAssertFalse(options.contains(.dates(.millisecondsSince1970)))
        XCTAssertFalse(options.contains(.prettyPrinted))
        XCTAssertTrue(options.isSuperset(of: [.sortedKeys, .keys(.kebabCase)]))
        XCTAssertFalse(options.isSuperset(of: [.sortedKeys, .keys(.snakeCase)]))
    }

    func testSetAlgebraKeepsAndDropsStrategies() {
        let options: EncodingOptions = [.sortedKeys, .keys(.kebabCase), .dates(.iso8601)]
        XCTAssertEqual(options.subtracting(.keys(.kebabCase)), [.sortedKeys, .dates(.iso8601)])
        XCTAssertEqual(options.subtracting(.keys(.snakeCase)), options, "a strategy it does not have is not removed")
        XCTAssertEqual(options.subtracting(.sortedKeys), [.keys(.kebabCase), .dates(.iso8601)])
        XCTAssertEqual(options.intersection([.sortedKeys, .keys(.kebabCase)]), [.sortedKeys, .keys(.kebabCase)])
        XCTAssertEqual(options.intersection(.keys(.snakeCase)), [])
        XCTAssertTrue(options.isDisjoint(with: [.prettyPrinted, .keys(.snakeCase)]))
        XCTAssertFalse(options.isDisjoint(with: .dates(.iso8601)))
        var changed = options
        XCTAssertEqual(changed.remove(.dates(.iso8601)), .dates(.iso8601))
        XCTAssertNil(changed.remove(.dates(.iso8601)))
        XCTAssertEqual(changed.update(with: .keys(.snakeCase)), nil)
        XCTAssertEqual(changed, [.sortedKeys, .keys(.snakeCase)])
        XCTAssertFalse(changed.insert(.sortedKeys).inserted)
        XCTAssertTrue(changed.insert(.prettyPrinted).inserted)
    }

    /// Each custom key strategy gets the keys of its own closure (a variant per closure value), including
    /// closures made one after another that capture different values.
    func testCustomKeyStrategiesAreToldApart() throws {
        for i in 0..<6 {
            let prefix = "p\(i)_"
            var options = DecodingOptions.lenient
            options.keyStrategy = .custom { prefix + $0 }
            let stamp = try Stamp(json: #"{"\#(prefix)userName":"u\#(i)"}"#, options: options)
            XCTAssertEqual(stamp.userName, "u\(i)")
            let text = try Stamp().jsonString(options: [.sortedKeys, .keys(.custom { prefix + $0 })])
            XCTAssertTrue(text.contains("\"\(prefix)userName\""), text)
        }
    }

    func testTheBoundCallSyntaxStillEncodes() throws {
        let text = try Stamp().jsonString(options: [.sortedKeys, .keys(.kebabCase)])
        XCTAssertEqual(text, #"{"created-at":"1970-01-01T00:00:00Z","user-name":"a"}"#)
    }
}
