import XCTest
import Foundation
@testable import ModelMapper

// MappingContext (issue #13 item 9): the options' userInfo and the model's (or property's) path reach
// hooks and transformers, in both directions, on every path a model is decoded or encoded. Tests that
// use ContextLog.shared run one at a time (XCTest runs a class's tests serially).

private struct CXUser: JSONMappable, JSONDecodingHooks, JSONEncodingHooks {
    var name = ""
    static func willDecode(_ object: JSONObject, context: MappingContext) throws -> JSONObject {
        ContextLog.shared.add("will", context)
        return object
    }
    mutating func didDecode(from object: JSONObject, context: MappingContext) throws {
        ContextLog.shared.add("did", context)
        if let banned = context.userInfo["banned"] as? String, banned == name {
            throw CXError.banned(name, at: context.path)
        }
    }
    func didEncode(into object: inout JSONObject, context: MappingContext) throws {
        ContextLog.shared.add("enc", context)
        object["tenant"] = (context.userInfo["tenant"] as? String).map { .string($0) } ?? .null
    }
}

private enum CXError: Error { case banned(String, at: String) }

private struct CXStatus: JSONMappable { var id = 0; var user = CXUser(); var users: [CXUser] = [] }
private struct CXTimeline: JSONMappable { var statuses: [CXStatus] = []; var byName: [String: CXUser] = [:] }

/// Only the old hook signatures.
private struct CXLegacy: JSONMappable, JSONDecodingHooks, JSONEncodingHooks {
    var n = 0
    static func willDecode(_ object: JSONObject) throws -> JSONObject {
        var object = object
        if object["n"] == nil { object["n"] = 7 }
        return object
    }
    mutating func didDecode(from object: JSONObject) throws { n += 1 }
    func didEncode(into object: inout JSONObject) throws { object["legacy"] = true }
}

private struct CXPrice: JSONMappable {
    var amount = 0.0
    var label = ""
    static let mapping = ModelMapping(transformers: [
        "amount": JSONTransformer(Double.self, decodeInContext: { json, context in
            ContextLog.shared.add("tdec", context)
            return (json.doubleValue ?? 0) * (context.userInfo["rate"] as? Double ?? 1)
        }, encodeInContext: { value, context in
            ContextLog.shared.add("tenc", context)
            return .number(JSONNumber(value / (context.userInfo["rate"] as? Double ?? 1)))
        }),
    ])
}
private struct CXOrder: JSONMappable { var prices: [CXPrice] = [] }

/// A Codable wrapper around JSONCodable models (the Codable bridge).
private struct CXCodableUser: JSONCodable, JSONDecodingHooks {
    var name = ""
    mutating func didDecode(from object: JSONObject, context: MappingContext) throws { ContextLog.shared.add("did", context) }
}
private struct CXEnvelope: Codable { var items: [CXCodableUser] }

private struct Tenant: Sendable { var id: String }
private final class Clock: Sendable { let now: Int; init(now: Int) { self.now = now } }
private struct CXStamped: JSONMappable, JSONDecodingHooks {
    var tenant = ""; var at = 0
    mutating func didDecode(from object: JSONObject, context: MappingContext) throws {
        tenant = (context.userInfo["tenant"] as? Tenant)?.id ?? ""
        at = (context.userInfo["clock"] as? Clock)?.now ?? 0
    }
}

final class MappingContextTests: XCTestCase {
    private var options: DecodingOptions {
        var options = DecodingOptions.lenient
        options.userInfo = ["tenant": "a"]
        return options
    }

    func testRootHooksGetUserInfoAndEmptyPath() throws {
        let events = try ContextLog.shared.events { _ = try CXUser(json: #"{"name":"x"}"#, options: options) }
        XCTAssertEqual(events, ["will  a", "did  a"])
        let plain = try ContextLog.shared.events { _ = try CXUser(json: #"{"name":"x"}"#) }
        XCTAssertEqual(plain, ["will  -", "did  -"])
    }

    func testNestedArrayAndDictionaryPaths() throws {
        let json = #"{"statuses":[{"id":1,"user":{"name":"a"}},{"id":2,"user":{"name":"b"},"users":[{},{}]}],"byName":{"k":{}}}"#
        let events = try ContextLog.shared.events { _ = try CXTimeline(json: json, options: options) }
        XCTAssertEqual(events.filter { $0.hasPrefix("did") }, [
            "did statuses[0].user a", "did statuses[1].user a", "did statuses[1].users[0] a",
            "did statuses[1].users[1] a", "did byName.k a",
        ])
        let top = try ContextLog.shared.events { _ = try [CXUser](json: #"[{},{}]"#, options: options) }
        XCTAssertEqual(top.filter { $0.hasPrefix("did") }, ["did [0] a", "did [1] a"])
        let dict = try ContextLog.shared.events { _ = try [String: CXUser](json: #"{"x":{}}"#, options: options) }
        XCTAssertEqual(dict.filter { $0.hasPrefix("did") }, ["did x a"])
    }

    func testPathsWithAnInvalidValueHandlerAndRootPath() throws {
        let collector = ReportCollector()
        var reporting = collector.options()
        reporting.userInfo = ["tenant": "r"]
        let events = try ContextLog.shared.events {
            _ = try CXStatus(json: #"{"id":"bad","user":{}}"#, options: reporting)
            _ = try ModelDecoder(options: options).decode(CXUser.self, from: #"{"data":{"user":{}}}"#, at: "data.user")
        }
        XCTAssertEqual(events.filter { $0.hasPrefix("did") }, ["did user r", "did data.user a"])
        XCTAssertEqual(collector.summary, ["id invalidValue 1:7"])
    }

    func testUpdateAndJSONObjectInput() throws {
        var status = CXStatus()
        let update = try ContextLog.shared.events { try status.update(json: #"{"user":{"name":"u"}}"#, options: options) }
        XCTAssertEqual(update, ["will user a", "did user a"])
        let object = try ContextLog.shared.events {
            _ = try CXTimeline(jsonObject: ["statuses": [["user": ["name": "o"]]]] as [String: Any], options: options)
        }
        XCTAssertEqual(object.filter { $0.hasPrefix("did") }, ["did statuses[0].user a"])
    }

    func testJSONLinesRecordsArePrefixed() throws {
        let lines = "{\"user\":{}}\n{\"user\":{}}\n"
        let events = try ContextLog.shared.events {
            _ = try JSONLines<CXStatus>.decodeAll(lines, options: options, workers: 1)
        }
        XCTAssertEqual(events.filter { $0.hasPrefix("did") }, ["did [0].user a", "did [1].user a"])
    }

    func testCodableBridge() throws {
        let events = try ContextLog.shared.events {
            _ = try ModelDecoder(options: options).decode(CXEnvelope.self, from: Data(#"{"items":[{"name":"a"},{"name":"b"}]}"#.utf8))
        }
        XCTAssertEqual(events, ["did items[0] a", "did items[1] a"])
    }

    func testEncodingHooks() throws {
        var encoding = EncodingOptions.sortedKeys
        encoding.userInfo = ["tenant": "e"]
        var timeline = CXTimeline()
        timeline.statuses = [CXStatus(id: 1, user: CXUser(name: "n"), users: [])]
        var data = Data()
        let events = try ContextLog.shared.events { data = try timeline.jsonData(options: encoding) }
        XCTAssertEqual(events, ["enc statuses[0].user e"])
        XCTAssertEqual(String(decoding: data, as: UTF8.self),
                       #"{"byName":{},"statuses":[{"id":1,"user":{"name":"n","tenant":"e"},"users":[]}]}"#)
        let value = try ContextLog.shared.events { _ = try [CXUser(name: "v")].jsonValue(options: encoding) }
        XCTAssertEqual(value, ["enc [0] e"])
        let object = try ContextLog.shared.events { _ = try CXUser().jsonObject(options: encoding) }
        XCTAssertEqual(object, ["enc  e"])
        let encoder = try ContextLog.shared.events { _ = try ModelEncoder(options: encoding).encode(["k": CXUser()]) }
        XCTAssertEqual(encoder, ["enc k e"])
        // userInfo survives composing options, on either side.
        XCTAssertEqual(([encoding, .prettyPrinted] as EncodingOptions).userInfo["tenant"] as? String, "e")
        XCTAssertEqual(([.prettyPrinted, encoding] as EncodingOptions).userInfo["tenant"] as? String, "e")
    }

    func testTransformersBothWays() throws {
        var options = self.options
        options.userInfo["rate"] = 2.0
        var order = CXOrder()
        let decoded = try ContextLog.shared.events {
            order = try CXOrder(json: #"{"prices":[{"amount":1.5},{"amount":3}]}"#, options: options)
        }
        XCTAssertEqual(decoded, ["tdec prices[0].amount a", "tdec prices[1].amount a"])
        XCTAssertEqual(order.prices.map(\.amount), [3, 6])
        var encoding = EncodingOptions.sortedKeys
        encoding.userInfo = ["tenant": "e", "rate": 3.0]
        var text = ""
        let encoded = try ContextLog.shared.events { text = try order.jsonString(options: encoding) }
        XCTAssertEqual(encoded, ["tenc prices[0].amount e", "tenc prices[1].amount e"])
        XCTAssertEqual(text, #"{"prices":[{"amount":1.0,"label":""},{"amount":2.0,"label":""}]}"#)
    }

    func testLegacyHooksStillRun() throws {
        let model = try CXLegacy(json: "{}", options: options)
        XCTAssertEqual(model.n, 8)
        let text = try model.jsonString()
        XCTAssertEqual(text, #"{"n":8,"legacy":true}"#)
        let plain = try CXPrice(json: #"{"amount":2}"#)
        XCTAssertEqual(plain.amount, 2)
        let legacyTransformer = JSONTransformer(Int.self, decode: { ($0.intValue ?? 0) + 1 }, encode: { .number(JSONNumber($0)) })
        XCTAssertEqual(try legacyTransformer.decodeBody(5, MappingContext()) as? Int, 6)
    }

    func testHookThrowingWithContextIsValidationWithPath() throws {
        var options = self.options
        options.userInfo["banned"] = "bob"
        let error = mappingError { try CXTimeline(json: #"{"statuses":[{},{"user":{"name":"bob"}}]}"#, options: options) }
        XCTAssertEqual(error?.kind, .validation)
        XCTAssertEqual(error?.path, "statuses[1].user")
        XCTAssertTrue(error?.message.contains("statuses[1].user") == true, error?.message ?? "")
        XCTAssertEqual(error?.line, 1)
    }

    func testNonTrivialSendableUserInfo() throws {
        var options = DecodingOptions.lenient
        options.userInfo = ["tenant": Tenant(id: "t1"), "clock": Clock(now: 42)]
        let model = try CXStamped(json: "{}", options: options)
        XCTAssertEqual(model.tenant, "t1")
        XCTAssertEqual(model.at, 42)
    }

    func testReachabilityFlag() throws {
        XCTAssertTrue(try MetaCache.shared.codec(for: CXTimeline.self).reachesContext)
        XCTAssertTrue(try MetaCache.shared.codec(for: CXOrder.self).reachesContext)
        XCTAssertFalse(try MetaCache.shared.codec(for: CXPlain.self).reachesContext)
    }
}

private struct CXPlain: JSONMappable { var a = 0; var b: [String] = []; var child: CXPlainChild? = nil }
private struct CXPlainChild: JSONMappable { var c = "" }
