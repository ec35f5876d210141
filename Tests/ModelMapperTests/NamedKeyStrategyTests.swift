import Foundation
@testable import ModelMapper
import XCTest

// Issue 29.8: options built anew for every call with a custom key strategy work any number of times when the
// strategy is named (`KeyStrategy.custom(id:_:)`); unnamed closures made anew each call stay capped at 32 per
// process (each keeps its metadata for good), with an error naming the fix.

private struct NamedKeyModel: JSONMappable, Equatable {
    var id = 0
    var name = ""
}

final class NamedKeyStrategyTests: XCTestCase {
    /// A server's request path: options made for each request, the closure capturing that request's values.
    func testOptionsMadePerCallWithANamedStrategyWorkAnyNumberOfTimes() throws {
        for request in 0..<1000 {
            let requestTag = "request-\(request)"   // captured: a new closure context every time
            var options = DecodingOptions.lenient
            options.keyStrategy = .custom(id: "NamedKeyStrategyTests.prefixed") { name in
                _ = requestTag
                return "k_" + name
            }
            let model = try NamedKeyModel(json: #"{"k_id": \#(request), "k_name": "n\#(request)"}"#, options: options)
            XCTAssertEqual(model, NamedKeyModel(id: request, name: "n\(request)"))
            let encoded = try model.jsonString(options: [.sortedKeys, .keys(.custom(id: "NamedKeyStrategyTests.prefixed") { "k_" + $0 + requestTag })])
            XCTAssertEqual(encoded, #"{"k_id":\#(request),"k_name":"n\#(request)"}"#)
        }
    }

    /// Distinct ids are distinct strategies, each with its own transform, beyond the 32 unnamed closures.
    func testDistinctIDsBeyondTheUnnamedCapEachKeepTheirTransform() throws {
        for n in 0..<40 {
            var options = DecodingOptions.lenient
            options.keyStrategy = .custom(id: "NamedKeyStrategyTests.numbered-\(n)") { "p\(n)_" + $0 }
            let model = try NamedKeyModel(json: #"{"p\#(n)_id": \#(n), "id": -1, "p\#((n + 1) % 40)_id": -2}"#, options: options)
            XCTAssertEqual(model.id, n)
        }
    }

    /// One id is one strategy: the first transform given for it is the one used, and the strategies compare equal.
    func testOneIDIsOneStrategy() throws {
        let first = KeyStrategy.custom(id: "NamedKeyStrategyTests.same") { "a_" + $0 }
        let second = KeyStrategy.custom(id: "NamedKeyStrategyTests.same") { "b_" + $0 }
        var options = DecodingOptions.lenient
        options.keyStrategy = second
        XCTAssertEqual(try NamedKeyModel(json: #"{"a_id": 1, "b_id": 2}"#, options: options).id, 1)
        XCTAssertEqual(EncodingOptions.keys(first), EncodingOptions.keys(second))
        XCTAssertNotEqual(EncodingOptions.keys(first), EncodingOptions.keys(.custom(id: "NamedKeyStrategyTests.other") { "a_" + $0 }))
        XCTAssertTrue(second.isNamedCustom)
        XCTAssertFalse(KeyStrategy.custom { "a_" + $0 }.isNamedCustom)
    }
}
