import Foundation
@testable import ModelMapper
import XCTest

// Issue 40.2: custom strategies without caps or process-wide state. A `.custom` key strategy is the same
// strategy wherever the same value is passed, two made separately are two, any number work, and what is
// built for one (its metadata) goes with it.

private struct PerRequestModel: JSONMappable, Equatable {
    var id = 0
    var name = ""
}

private struct PerRequestParent: JSONMappable, Equatable {
    var child = PerRequestModel()
    var children: [PerRequestModel] = []
    var replies: [PerRequestParent] = []   // recursive: its metadata refers to itself
}

final class CustomStrategyTests: XCTestCase {
    /// A server's request path: a strategy made for each request, its closure capturing that request's
    /// values. Before: the 33rd distinct closure was refused (`.unsupportedType`).
    func testAStrategyMadePerRequestWorksAnyNumberOfTimes() throws {
        for request in 0..<200 {
            let prefix = "r\(request)_"   // captured: a new closure context every time
            var options = DecodingOptions.lenient
            options.keyStrategy = .custom { prefix + $0 }
            let model = try PerRequestModel(json: #"{"\#(prefix)id": \#(request), "\#(prefix)name": "n", "id": -1}"#, options: options)
            XCTAssertEqual(model, PerRequestModel(id: request, name: "n"))
            let encoded = try model.jsonString(options: [.sortedKeys, .keys(.custom { prefix + $0 })])
            XCTAssertEqual(encoded, #"{"\#(prefix)id":\#(request),"\#(prefix)name":"n"}"#)
        }
    }

    /// Two strategies made separately from the same closure are two strategies with their own metadata;
    /// one strategy value passed in several options is one (its metadata built once).
    func testOneStrategyValueIsOneStrategy() throws {
        let upper: @Sendable (String) -> String = { $0.uppercased() }
        let first = KeyStrategy.custom(upper)
        let second = KeyStrategy.custom(upper)
        XCTAssertEqual(first, first)
        XCTAssertNotEqual(first, second)
        var a = DecodingOptions.lenient
        a.keyStrategy = first
        var b = DecodingOptions.strict
        b.keyStrategy = first
        XCTAssertTrue(try MetaCache.forDecoding(a) === MetaCache.forDecoding(b), "one strategy value, one variant")
        var c = DecodingOptions.lenient
        c.keyStrategy = second
        XCTAssertFalse(try MetaCache.forDecoding(a) === MetaCache.forDecoding(c), "two strategies, two variants")
        XCTAssertEqual(try PerRequestModel(json: #"{"ID": 3}"#, options: c).id, 3)
        // The function is still there to call, through the case's payload.
        if case .custom(let transform) = first { XCTAssertEqual(transform("userID"), "USERID") } else { XCTFail("not custom") }
    }

    /// What is built for a strategy is freed with its last copy: a strategy per request does not grow
    /// memory. Before: every variant was kept for the process.
    func testTheMetadataOfAStrategyGoesWithIt() throws {
        weak var box: KeyStrategy.Transform?
        weak var cache: MetaCache?
        weak var meta: ModelMeta?
        weak var filter: TapeFilterNode?
        do {
            let strategy = KeyStrategy.custom { "k_" + $0 }
            guard case .custom(let transform) = strategy else { return XCTFail("not custom") }
            box = transform
            var options = DecodingOptions.lenient
            options.keyStrategy = strategy
            options.caseInsensitiveKeys = true
            let parent = try PerRequestParent(json: #"{"k_child": {"k_id": 1}, "k_children": [{"K_ID": 2}], "k_replies": [{"k_child": {"k_id": 5}}]}"#, options: options)
            XCTAssertEqual(parent.child.id, 1)
            XCTAssertEqual(parent.children.map(\.id), [2])
            XCTAssertEqual(parent.replies.map(\.child.id), [5])
            XCTAssertTrue(try PerRequestParent(child: .init(id: 4)).jsonString(options: .keys(strategy)).contains(#""k_id":4"#))
            let variant = try MetaCache.forDecoding(options)
            cache = variant
            meta = try variant.meta(for: PerRequestParent.self)
            // Exact key matching: the model's filter keeps only its members, nodes that point at each other.
            var exact = options
            exact.caseInsensitiveKeys = false
            XCTAssertEqual(try PerRequestParent(json: #"{"k_replies": [{"k_child": {"k_id": 6}}]}"#, options: exact).replies.map(\.child.id), [6])
            filter = try MetaCache.forDecoding(exact).meta(for: PerRequestParent.self).codec.tapeFilter
            XCTAssertNotNil(filter)
        }
        XCTAssertNil(box, "the strategy's box outlived the strategy")
        XCTAssertNil(cache, "the strategy's metadata cache outlived the strategy")
        XCTAssertNil(meta, "a meta built for the strategy outlived it")
        XCTAssertNil(filter, "a recursive model's filter nodes outlived the strategy")
    }

    /// A custom date strategy: the same value is one strategy, two made separately are two.
    func testCustomDateStrategiesAreKnownByTheirValue() throws {
        let parse: @Sendable (JSONValue) throws -> Date = { Date(timeIntervalSince1970: $0.doubleValue ?? 0) }
        let strategy = DateStrategy.custom(parse)
        XCTAssertEqual(strategy, strategy)
        XCTAssertNotEqual(strategy, DateStrategy.custom(parse))
        struct Stamped: JSONMappable { var at = Date(timeIntervalSince1970: 0) }
        XCTAssertEqual(try Stamped(json: #"{"at": 5}"#, options: DecodingOptions.lenient.dates(strategy)).at.timeIntervalSince1970, 5)
    }
}
