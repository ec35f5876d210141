import Foundation
import XCTest
import ModelMapper

// EncodingOptions is a value, not a set: a list of options sets one flag or strategy each, applied in order;
// equality compares the settings, strategies included (`.dates(.iso8601) == []` was once true).

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

    /// Issue 40.2: a custom strategy is the same strategy wherever the same value is passed; two made
    /// separately are two, even from the same closure.
    func testCustomStrategiesAreTheSameOnlyAsTheSameStrategyValue() {
        let upper: @Sendable (String) -> String = { $0.uppercased() }
        let strategy = KeyStrategy.custom(upper)
        let options = EncodingOptions.keys(strategy)
        XCTAssertEqual(options, options)
        XCTAssertEqual(EncodingOptions.keys(strategy), ([.sortedKeys, .keys(strategy)] as EncodingOptions).with { $0.sortedKeys = false })
        XCTAssertNotEqual(EncodingOptions.keys(.custom(upper)), .keys(.custom(upper)))
        let suffix = "_x"
        XCTAssertNotEqual(EncodingOptions.keys(.custom(upper)), .keys(.custom({ $0 + suffix })))
        let parse: @Sendable (JSONValue) throws -> Date = { _ in Date(timeIntervalSince1970: 0) }
        let dates = DateStrategy.custom(parse)
        XCTAssertEqual(EncodingOptions.dates(dates), .dates(dates))
        XCTAssertNotEqual(EncodingOptions.dates(.custom(parse)), .dates(.custom(parse)))
    }

    func testEqualityComparesTheSettingsWhateverTheOrderWritten() {
        let written: EncodingOptions = [.sortedKeys, .keys(.snakeCase), .dates(.iso8601)]
        XCTAssertEqual(written, [.dates(.iso8601), .sortedKeys, .keys(.snakeCase)])
        XCTAssertEqual(written, [.keys(.snakeCase), .dates(.iso8601), .sortedKeys])
        var set = EncodingOptions()
        set.dateStrategy = .iso8601
        set.keyStrategy = .snakeCase
        set.sortedKeys = true
        XCTAssertEqual(written, set, "a literal and the same settings made property by property")
        XCTAssertNotEqual(written, [.sortedKeys, .keys(.snakeCase)])
        XCTAssertNotEqual(written, [.sortedKeys, .keys(.snakeCase), .dates(.iso8601), .prettyPrinted])
        XCTAssertEqual([.sortedKeys, .sortedKeys] as EncodingOptions, .sortedKeys, "a flag twice is the flag")
    }

    func testOneOptionAloneSetsOnlyThatSetting() throws {
        XCTAssertEqual(EncodingOptions(), [])
        let defaults = EncodingOptions()
        XCTAssertFalse(defaults.sortedKeys || defaults.prettyPrinted || defaults.writesNulls || defaults.escapesSlashes)
        XCTAssertNil(defaults.keyStrategy)
        XCTAssertTrue(defaults.userInfo.isEmpty)
        guard case .default = defaults.dateStrategy else { return XCTFail("\(defaults.dateStrategy)") }

        let flags: [(EncodingOptions, WritableKeyPath<EncodingOptions, Bool>)] = [
            (.sortedKeys, \.sortedKeys), (.prettyPrinted, \.prettyPrinted), (.writesNulls, \.writesNulls),
            (.nulls, \.writesNulls), (.escapesSlashes, \.escapesSlashes),
        ]
        for (option, property) in flags {
            XCTAssertTrue(option[keyPath: property])
            var expected = EncodingOptions()
            expected[keyPath: property] = true
            XCTAssertEqual(option, expected)
            XCTAssertEqual([option], option, "one option alone is the list of that one option")
        }
        XCTAssertEqual(EncodingOptions.nulls, .writesNulls)
        guard case .kebabCase? = EncodingOptions.keys(.kebabCase).keyStrategy else { return XCTFail() }
        XCTAssertEqual(EncodingOptions.keys(.kebabCase), [.keys(.kebabCase)])
        guard case .secondsSince1970 = EncodingOptions.dates(.secondsSince1970).dateStrategy else { return XCTFail() }
        XCTAssertEqual(EncodingOptions.dates(.secondsSince1970), [.dates(.secondsSince1970)])
        XCTAssertNotEqual(EncodingOptions.dates(.secondsSince1970), [])

        XCTAssertEqual(try Stamp().jsonString(options: .dates(.secondsSince1970)), #"{"createdAt":0,"userName":"a"}"#)
        let snake = try Stamp().jsonString(options: .keys(.snakeCase))
        XCTAssertEqual(snake, #"{"created_at":"1970-01-01T00:00:00Z","user_name":"a"}"#)
    }

    func testPropertiesAreReadAndSet() throws {
        var options: EncodingOptions = [.sortedKeys, .prettyPrinted, .writesNulls, .escapesSlashes]
        XCTAssertTrue(options.sortedKeys && options.prettyPrinted && options.writesNulls && options.escapesSlashes)
        options.prettyPrinted = false
        options.writesNulls = false
        options.escapesSlashes = false
        XCTAssertEqual(options, .sortedKeys, "a flag turned off is off")
        options.dateStrategy = .secondsSince1970
        options.keyStrategy = .kebabCase
        options.userInfo = ["tenant": "a"]
        XCTAssertEqual(options, [.sortedKeys, .dates(.secondsSince1970), .keys(.kebabCase), userInfo(["tenant": "a"])])
        XCTAssertEqual(try Stamp().jsonString(options: options), #"{"created-at":0,"user-name":"a"}"#)
        // Setting a strategy replaces the one there was (a set's insert kept the old one).
        options.dateStrategy = .millisecondsSince1970
        guard case .millisecondsSince1970 = options.dateStrategy else { return XCTFail("\(options.dateStrategy)") }
        options.keyStrategy = nil
        options.userInfo = [:]
        XCTAssertEqual(options, [.sortedKeys, .dates(.millisecondsSince1970)])
    }

    func testTheLiteralAppliesItsElementsInOrder() throws {
        // A later strategy wins over an earlier one.
        let dates: EncodingOptions = [.dates(.iso8601), .sortedKeys, .dates(.secondsSince1970)]
        XCTAssertEqual(dates, [.sortedKeys, .dates(.secondsSince1970)])
        XCTAssertEqual(try Stamp().jsonString(options: dates), #"{"createdAt":0,"userName":"a"}"#)
        XCTAssertEqual([.keys(.snakeCase), .keys(.kebabCase)] as EncodingOptions, .keys(.kebabCase))
        // An element that leaves a setting at its default does not reset it: options compose.
        var base: EncodingOptions = [.keys(.snakeCase), .dates(.secondsSince1970)]
        base.userInfo = ["tenant": "a", "locale": "nb"]
        let pretty: EncodingOptions = [base, .prettyPrinted]
        XCTAssertTrue(pretty.prettyPrinted)
        XCTAssertEqual(pretty.userInfo["tenant"] as? String, "a")
        XCTAssertEqual(pretty, [.prettyPrinted, base], "flags and one-sided strategies do not depend on the order")
        XCTAssertEqual(try Stamp().jsonString(options: [base, .sortedKeys]), #"{"created_at":0,"user_name":"a"}"#)
        // userInfo entries merge; a later value wins for the same key.
        let merged: EncodingOptions = [base, userInfo(["tenant": "b", "limit": 3])]
        XCTAssertEqual(merged.userInfo.count, 3)
        XCTAssertEqual(merged.userInfo["tenant"] as? String, "b")
        XCTAssertEqual(merged.userInfo["locale"] as? String, "nb")
        XCTAssertEqual(merged.userInfo["limit"] as? Int, 3)
    }

    private func userInfo(_ values: [String: any Sendable]) -> EncodingOptions {
        var options = EncodingOptions()
        options.userInfo = values
        return options
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

private extension EncodingOptions {
    func with(_ change: (inout EncodingOptions) -> Void) -> EncodingOptions {
        var copy = self
        change(&copy)
        return copy
    }
}
