import Foundation
@testable import ModelMapper
import XCTest

// Deeply nested JSONValues (issue 44.8b) on a thread with a small stack: writing, describing, hashing and
// comparing never recurse; parsing refuses nesting past JSONValue.maximumDepth (whose release Swift's
// runtime does recursively) whatever the depth limit, and a value that deep is released safely.

/// Runs `body` on a new thread with a 512 KiB stack (a dispatch thread's size) and waits for it.
private func onSmallStack(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 512 << 10
    thread.start()
    done.wait()
}

/// `depth` arrays (even levels) and objects with key "k" (odd levels) around `leaf`.
private func nested(_ depth: Int, leaf: JSONValue) -> JSONValue {
    var value = leaf
    for level in 0..<depth { value = level % 2 == 0 ? .array([value]) : .object(["k": value]) }
    return value
}

/// The same nesting as JSON text.
private func nestedText(_ depth: Int, leaf: String) -> String {
    var open = "", close = ""
    for level in (0..<depth).reversed() {
        open += level % 2 == 0 ? "[" : #"{"k":"#
        close += level % 2 == 0 ? "]" : "}"
    }
    return open + leaf + String(close.reversed())
}

/// Takes a value apart from the outside in, so that nothing freed still holds a deep child: the test's
/// way to let go of a value nested deeper than Swift's runtime can release recursively.
private func dismantle(_ value: consuming JSONValue) {
    var pending = [consume value]
    while var next = pending.popLast() {
        switch next {
        case .array(var elements):
            next = .null
            while let element = elements.popLast() { pending.append(element) }
        case .object(let object):
            next = .null
            var object = object
            for key in object.keys { if let member = object.removeValue(forKey: key) { pending.append(member) } }
        default:
            break
        }
    }
}

private struct DeepHolder: JSONMappable {
    var value: JSONValue = .null
}

final class DeepJSONValueTests: XCTestCase {
    func testParsingPastTheMaximumDepthIsRefusedWhateverTheDepthLimit() {
        XCTAssertEqual(JSONValue.maximumDepth, 1_000)
        for text in [String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
                     nestedText(100_000, leaf: "1")] {
            nonisolated(unsafe) var caught: MappingError?
            onSmallStack {
                do { _ = try JSONValue(json: text, depthLimit: 200_000) } catch { caught = error as? MappingError }
            }
            XCTAssertEqual(caught?.kind, .depthLimit)
            XCTAssertEqual(caught?.message, "a JSONValue nests at most 1000 arrays and objects deep")
            // At the container that opens level 1,001.
            let opening = text.hasPrefix("[[") ? 1_000 : 500 * #"{"k":"#.utf8.count + 500  // 500 objects, 500 arrays
            XCTAssertEqual(caught?.offset, opening)
        }
        // A model's JSONValue property goes the same way.
        struct Holder: JSONMappable { var value: JSONValue = .null }
        let deep = #"{"value":"# + nestedText(1_001, leaf: "1") + "}"
        XCTAssertThrowsError(try Holder(json: deep, options: DecodingOptions(depthLimit: 5_000))) {
            XCTAssertEqual(($0 as? MappingError)?.kind, .depthLimit)
        }
    }

    func testValueAtTheMaximumDepthIsParsedWrittenHashedComparedAndReleasedOnASmallStack() {
        let text = nestedText(JSONValue.maximumDepth, leaf: #""leaf""#)
        nonisolated(unsafe) var checks: [String: Bool] = [:]
        onSmallStack {
            do {
                let value = try JSONValue(json: text, depthLimit: 2_000)
                let again = try JSONValue(json: text, depthLimit: 2_000)
                let other = try JSONValue(json: nestedText(JSONValue.maximumDepth, leaf: #""leaves""#), depthLimit: 2_000)
                checks["jsonData"] = try value.jsonData() == Data(text.utf8)
                checks["description"] = value.description == text
                checks["=="] = value == again
                checks["!="] = value != other
                checks["hash"] = value.hashValue == again.hashValue
                checks["sorted"] = String(decoding: try value.jsonData(options: .sortedKeys), as: UTF8.self) == text
                // `value`, `again` and `other` are released here, on the small stack.
            } catch {
                checks["parse"] = false
            }
        }
        XCTAssertEqual(checks, ["jsonData": true, "description": true, "==": true, "!=": true, "hash": true, "sorted": true])
    }

    func testValueBuiltInCodeAtDepth100000OnASmallStack() {
        nonisolated(unsafe) var checks: [String: Bool] = [:]
        onSmallStack {
            let depth = 100_000
            // Held in an array and dismantled from it at the end: no other reference may outlive them.
            var values = [nested(depth, leaf: 1), nested(depth, leaf: 1), nested(depth, leaf: 2),
                          nested(depth, leaf: .number(JSONNumber(Double.nan)))]
            let text = nestedText(depth, leaf: "1")
            checks["jsonData"] = (try? values[0].jsonData()) == Data(text.utf8)
            checks["description"] = values[0].description == text
            checks["=="] = values[0] == values[1]
            checks["!="] = values[0] != values[2] && values[2] != values[3]
            checks["hash"] = values[0].hashValue == values[1].hashValue && values[0].hashValue != values[2].hashValue
            checks["set"] = Set(values[0..<3]).count == 2
            // A model holding it encodes through the same writer.
            var holder = DeepHolder()
            holder.value = values[0]
            checks["model"] = (try? holder.jsonData()) == Data((#"{"value":"# + text + "}").utf8)
            holder.value = .null
            // An invalid number deep inside: a clear error whose path leads to it.
            do {
                _ = try values[3].jsonData()
                checks["nan"] = false
            } catch let error as MappingError {
                checks["nan"] = error.kind == .invalidValue && error.path.hasPrefix("k[0].k[0].k")
                    && error.path.hasSuffix(".k[0]") && error.path.utf8.count == depth / 2 * 5 - 1
            } catch {
                checks["nan"] = false
            }
            while let value = values.popLast() { dismantle(value) }
        }
        XCTAssertEqual(checks, ["jsonData": true, "description": true, "==": true, "!=": true, "hash": true, "set": true,
                                "nan": true, "model": true])
    }

    func testObjectsCompareAndHashInAnyOrder() {
        let a: JSONValue = ["x": [1, ["y": "z", "w": nil]], "v": true]
        let b: JSONValue = ["v": true, "x": [1, ["w": nil, "y": "z"]]]
        let c: JSONValue = ["v": true, "x": [1, ["w": nil, "y": "Z"]]]
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertNotEqual(a, c)
        XCTAssertNotEqual(JSONValue.array([1, 2]), [2, 1])
        XCTAssertNotEqual(JSONValue.array([]), JSONValue.object([:]))
        XCTAssertEqual(a.description, #"{"x":[1,{"y":"z","w":null}],"v":true}"#)
        XCTAssertEqual(String(decoding: try a.jsonData(options: .sortedKeys), as: UTF8.self), #"{"v":true,"x":[1,{"w":null,"y":"z"}]}"#)
    }
}
