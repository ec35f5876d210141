import XCTest
import Foundation
@testable import ModelMapper

// Invariants the unsafe code states, checked from outside: tapes built from values in memory
// (`ValueTape`) honour the depth limit as the tokenizer does.

fileprivate struct IVLeaf: JSONMappable, Equatable {
    var any: JSONValue = .null
    static let mapping = ModelMapping()
}

/// A hook that wraps the `payload` member in `depth` arrays: the rewritten object is decoded from a
/// `ValueTape` of the hook's result, which must respect the depth limit too.
fileprivate struct IVDeepening: JSONMappable, JSONDecodingHooks, Equatable {
    var payload: JSONValue = .null
    static let mapping = ModelMapping()

    static func willDecode(_ object: JSONObject) throws -> JSONObject {
        var object = object
        guard let depth = object["depth"]?.intValue else { return object }
        var value = object["payload"] ?? .null
        for _ in 0..<depth { value = [value] }
        object["payload"] = value
        return object
    }
}

final class InvariantTests: XCTestCase {
    /// `[[…[1]…]]` nested `depth` arrays deep, as JSONSerialization would produce it.
    private func nestedArrays(_ depth: Int) -> Any {
        var value: Any = 1
        for _ in 0..<depth { value = [value] }
        return value
    }

    private func nestedJSONValue(_ depth: Int) -> JSONValue {
        var value: JSONValue = 1
        for _ in 0..<depth { value = [value] }
        return value
    }

    /// The message the tokenizer gives for the same nesting, to compare with.
    private func tokenizerError(depth: Int, limit: Int) -> MappingError? {
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        do {
            _ = try JSONValue(json: Array(text.utf8), depthLimit: limit)
            return nil
        } catch {
            return error as? MappingError
        }
    }

    func testFoundationObjectDeeperThanTheLimitThrowsDepthLimit() throws {
        var options = DecodingOptions.lenient
        options.depthLimit = 10
        // The model's object is level 1, `any` holds the rest: 10 levels fit, 11 do not.
        let fits: [String: Any] = ["any": nestedArrays(9)]
        XCTAssertNoThrow(try IVLeaf(jsonObject: fits, options: options))
        let tooDeep: [String: Any] = ["any": nestedArrays(10)]
        XCTAssertThrowsError(try IVLeaf(jsonObject: tooDeep, options: options)) { error in
            let error = error as? MappingError
            XCTAssertEqual(error?.kind, .depthLimit)
            XCTAssertEqual(error?.message, self.tokenizerError(depth: 11, limit: 10)?.message)
            XCTAssertEqual(error?.message, "nesting deeper than 10 levels")
        }
    }

    func testJSONValueDeeperThanTheLimitThrowsDepthLimit() throws {
        var options = DecodingOptions.lenient
        options.depthLimit = 10
        XCTAssertNoThrow(try IVLeaf(jsonObject: ["any": nestedJSONValue(9)] as JSONValue, options: options))
        XCTAssertThrowsError(try IVLeaf(jsonObject: ["any": nestedJSONValue(10)] as JSONValue, options: options)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .depthLimit)
            XCTAssertEqual((error as? MappingError)?.message, "nesting deeper than 10 levels")
        }
    }

    /// A `willDecode` result is decoded from a `ValueTape` of it, which ignored `depthLimit` before.
    func testObjectRewrittenByAHookRespectsTheDepthLimit() throws {
        var options = DecodingOptions.lenient
        options.depthLimit = 10
        let shallow = try IVDeepening(json: #"{"depth": 3, "payload": 1}"#, options: options)
        XCTAssertEqual(shallow.payload, [[[1]]])
        XCTAssertThrowsError(try IVDeepening(json: #"{"depth": 50, "payload": 1}"#, options: options)) { error in
            let error = error as? MappingError
            XCTAssertEqual(error?.kind, .depthLimit)
            XCTAssertEqual(error?.message, "nesting deeper than 10 levels")
            XCTAssertEqual(error?.line, 1, "the error points at the original object")
        }
        XCTAssertThrowsError(try IVDeepening(jsonObject: ["depth": 50, "payload": 1] as [String: Any], options: options)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .depthLimit)
        }
    }

    func testValueTapeThrowsOnceTheLimitIsExceeded() throws {
        XCTAssertNoThrow(try ValueTape(nestedJSONValue(5), depthLimit: 5))
        XCTAssertThrowsError(try ValueTape(nestedJSONValue(6), depthLimit: 5)) { error in
            XCTAssertEqual((error as? MappingError)?.kind, .depthLimit)
            XCTAssertEqual((error as? MappingError)?.path, "[0][0][0][0][0]")
        }
    }
}
