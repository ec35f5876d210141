import Foundation
import XCTest
@testable import ModelMapper
#if canImport(Glibc)
import Glibc
#endif

// Stress and limit tests: input far beyond normal sizes must end in the documented error or the exact
// value — never a crash, a hang or a silent loss. Each test stays under ~20 s in a debug build; the largest
// (a 500 MB string) runs only in release builds or with MM_STRESS=1:
//
//   swift test -c release -Xswiftc -enable-testing --filter StressTests
//   MM_STRESS=1 swift test --filter StressTests
//
// `testErrorPathsRepeatedly` is also the workload for leak checking (its iteration count comes from
// MM_LEAK_ITERATIONS; "definitely lost" must not grow with it):
//
//   MM_LEAK_ITERATIONS=200 valgrind --leak-check=full \
//     .build/x86_64-unknown-linux-gnu/debug/ModelMapperPackageTests.xctest ModelMapperTests.StressTests/testErrorPathsRepeatedly

private struct STText: JSONMappable { var s = ""; var n = 0 }
private struct STInts: JSONMappable { var ints: [Int] = [] }
private struct STItem: JSONMappable, Equatable { var id = 0; var name = ""; var ok = false }
private struct STNumbers: JSONMappable {
    var i = 0
    var d = 0.0
    var f: Float = 0
    var dec: Decimal = 0
    var s = ""
    var any: JSONValue = .null
}
private struct STTreeStruct: JSONMappable { var kids: [STTreeStruct] = []; var a: [String: STTreeStruct] = [:] }
private final class STTreeClass: JSONMappable { var a: STTreeClass? = nil; var kids: [STTreeClass] = []; required init() {} }
private struct STHolder: JSONMappable { var any: JSONValue = .null; var tree = STTreeStruct(); var node: STTreeClass? = nil }

private enum STKind: String { case a, b, c }
private struct STMixed: JSONMappable, Equatable {
    var id = 0
    var when: Date? = nil
    var kind: STKind = .a
    var tags: Set<String> = []
    var scores: [String: Double] = [:]
    var items: [STItem] = []
    var raw: JSONValue = .null
    var price: Decimal = 0
    static let mapping = ModelMapping(keys: ["id": ["id", "ID"], "price": "cost.amount"], required: ["id"])
}

private class STAnimal: JSONMappable, JSONPolymorphic, Equatable {
    var name = ""
    required init() {}
    class var mapping: ModelMapping { ModelMapping() }
    static func modelType(for object: JSONObject) -> (any JSONMappable.Type)? { object["barks"] != nil ? STDog.self : nil }
    static func == (a: STAnimal, b: STAnimal) -> Bool {
        type(of: a) == type(of: b) && a.name == b.name && (a as? STDog)?.barks == (b as? STDog)?.barks
    }
}
private final class STDog: STAnimal { var barks = false }

private struct STValidated: JSONMappable, JSONDecodingHooks, Equatable {
    var n = 0
    var label = ""
    static func willDecode(_ object: JSONObject) throws -> JSONObject {
        var object = object
        if object["label"] == nil { object["label"] = "default" }
        return object
    }
    mutating func didDecode(from object: JSONObject) throws {
        if n < 0 { throw MappingError(.validation, "negative") }
    }
}

private let isDebugBuild: Bool = {
    #if DEBUG
    return true
    #else
    return false
    #endif
}()

/// Whether a sanitizer runtime is loaded (`swift test --sanitize=…`, scripts/sanitize), which makes the
/// largest workloads 10-20x slower; they are scaled down there.
private let isSanitized: Bool = {
    let runtimes: [String] = ["__asan_init", "__tsan_init"]
    return runtimes.contains { dlsym(nil, $0) != nil }
}()

final class StressTests: XCTestCase {

    // MARK: Deep nesting

    private static func nested(_ depth: Int, open: String, close: String, inner: String = "") -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(depth * (open.utf8.count + close.utf8.count) + inner.utf8.count)
        for _ in 0..<depth { bytes += open.utf8 }
        bytes += inner.utf8
        for _ in 0..<depth { bytes += close.utf8 }
        return bytes
    }

    /// 100 000 levels of arrays, objects and models: `.depthLimit` at the 513th level, whatever reads it.
    func testHundredThousandLevelsStopAtTheDepthLimit() throws {
        let depth = 100_000
        let limit = DecodingOptions.defaultDepthLimit
        let arrays = Self.nested(depth, open: "[", close: "]")
        let objects = Self.nested(depth, open: #"{"a":"#, close: "}", inner: "1")
        let kidArrays = Self.nested(depth, open: #"{"kids":["#, close: "]}", inner: "{}")
        let mixed = Self.nested(depth / 2, open: #"[{"a":"#, close: "}]", inner: "null")

        // JSONValue: the error points at the bracket that opens level limit + 1.
        let arrayError = mappingError { _ = try JSONValue(json: arrays) }
        XCTAssertEqual(arrayError?.kind, .depthLimit)
        XCTAssertEqual(arrayError?.offset, limit)
        XCTAssertEqual(arrayError?.line, 1)
        XCTAssertEqual(arrayError?.column, limit + 1)
        let objectError = mappingError { _ = try JSONValue(json: objects) }
        XCTAssertEqual(objectError?.kind, .depthLimit)
        XCTAssertEqual(objectError?.offset, limit * 5)
        XCTAssertEqual(mappingError { _ = try JSONValue(json: mixed) }?.kind, .depthLimit)

        // Models: recursive structs and classes, JSONValue fields, top-level arrays and dictionaries.
        XCTAssertEqual(mappingError { _ = try STTreeClass(json: objects) }?.kind, .depthLimit)
        XCTAssertEqual(mappingError { _ = try STTreeStruct(json: objects) }?.kind, .depthLimit)
        XCTAssertEqual(mappingError { _ = try STTreeStruct(json: kidArrays) }?.kind, .depthLimit)
        XCTAssertEqual(mappingError { _ = try STTreeClass(json: kidArrays) }?.kind, .depthLimit)
        XCTAssertEqual(mappingError { _ = try STHolder(json: Array(#"{"any":"#.utf8) + arrays + Array("}".utf8)) }?.kind, .depthLimit)
        XCTAssertEqual(mappingError { _ = try [STTreeStruct](json: arrays) }?.kind, .depthLimit)
        XCTAssertEqual(mappingError { _ = try [String: STTreeClass](json: objects) }?.kind, .depthLimit)
        for options in [DecodingOptions.lenient, .strict] {
            XCTAssertEqual(mappingError { _ = try STTreeClass(json: objects, options: options) }?.kind, .depthLimit)
        }
        // A higher limit is honoured, and still ends with an error rather than a stack overflow.
        var deeper = DecodingOptions.lenient
        deeper.depthLimit = 5_000
        XCTAssertEqual(mappingError { _ = try STTreeClass(json: objects, options: deeper) }?.kind, .depthLimit)
        XCTAssertEqual(mappingError { _ = try JSONValue(json: arrays, depthLimit: 5_000) }?.kind, .depthLimit)

        // Streaming: the deep record is rejected, the records around it are kept.
        var lines = Array(#"{"kids":[]}"#.utf8) + [0x0A] + kidArrays + [0x0A] + Array(#"{"kids":[{}]}"#.utf8) + [0x0A]
        let rejected = Collected<RejectedRecord>()
        let models = try JSONLines<STTreeStruct>.decodeAll(lines, workers: 1, onError: .skip { rejected.append($0) })
        XCTAssertEqual(models.map(\.kids.count), [0, 1])
        XCTAssertEqual(rejected.map(\.index), [1])
        XCTAssertEqual(rejected.first?.error.kind, .depthLimit)
        XCTAssertEqual(rejected.first?.raw.count, kidArrays.count)
        var streamed: [STTreeStruct] = []
        try JSONLines<STTreeStruct>(bytes: lines, onError: .skip { _ in }).forEach { streamed.append($0) }
        XCTAssertEqual(streamed.count, 2)
        lines = Array("[".utf8) + objects + Array("]".utf8)
        XCTAssertEqual(mappingError { _ = try JSONArrayStream<STTreeClass>(bytes: lines).forEach { _ in } }?.kind, .depthLimit)

        // Exactly at the limit still decodes.
        let atLimit = Self.nested(limit, open: "[", close: "]")
        XCTAssertNoThrow(try JSONValue(json: atLimit))
        // A model level takes about 16 KB of stack in a debug build (far less optimized), so 512 of them
        // need more than the main thread's 8 MB: the stack guard reports `.depthLimit` there rather than
        // crash. Decoded on a thread with a large stack, the whole depth works.
        let classAtLimit = Self.nested(limit - 1, open: #"{"a":"#, close: "}", inner: "{}")
        nonisolated(unsafe) var levels = 0
        nonisolated(unsafe) var failure: (any Error)? = nil
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                var node: STTreeClass? = try STTreeClass(json: classAtLimit)
                while let current = node { levels += 1; node = current.a }
            } catch { failure = error }
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.start()
        done.wait()
        XCTAssertNil(failure)
        XCTAssertEqual(levels, limit)
    }

    // MARK: Huge values

    /// A 500 MB string value decodes into a String property, byte for byte.
    func testFiveHundredMegabyteString() throws {
        let stress = ProcessInfo.processInfo.environment["MM_STRESS"] == "1"
        if isDebugBuild && !stress {
            throw XCTSkip("500 MB string: runs in release builds (swift test -c release -Xswiftc -enable-testing) or with MM_STRESS=1")
        }
        let length = 500_000_000
        var json = [UInt8]()
        json.reserveCapacity(length + 32)
        json += #"{"n":1,"s":""#.utf8
        // A repeating pattern with every ASCII letter, so a shifted or truncated copy would be noticed.
        let pattern = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_".utf8)   // 64 bytes
        for i in 0..<(length / pattern.count) { _ = i; json += pattern }
        json += pattern[0..<(length % pattern.count)]
        json += #""}"#.utf8

        var model = try STText(json: json)
        XCTAssertEqual(model.n, 1)
        XCTAssertEqual(model.s.utf8.count, length)
        model.s.withUTF8 { utf8 in
            XCTAssertTrue(utf8.prefix(64).elementsEqual(pattern))
            XCTAssertEqual(utf8[length - 1], pattern[(length - 1) % pattern.count])
            XCTAssertEqual(utf8[length / 2], pattern[(length / 2) % pattern.count])
        }
        json = []
        // And back out: the writer copes with it too.
        let out = try model.jsonData()
        XCTAssertEqual(out.count, length + #"{"s":"","n":1}"#.utf8.count)
    }

    /// One million integers in an `[Int]` property.
    func testMillionElementIntArray() throws {
        let count = 1_000_000
        var ints = [UInt8]()
        ints.reserveCapacity(count * 8)
        ints += #"{"ints":["#.utf8
        for i in 0..<count {
            if i > 0 { ints.append(UInt8(ascii: ",")) }
            Self.appendDecimal(i &* 7919 % 1_000_003 - 500_000, to: &ints)
        }
        ints += "]}".utf8
        let decoded = try STInts(json: ints)
        XCTAssertEqual(decoded.ints.count, count)
        XCTAssertEqual(decoded.ints[123_456], 123_456 &* 7919 % 1_000_003 - 500_000)
        XCTAssertEqual(try STInts(json: decoded.jsonData()).ints, decoded.ints)
    }

    /// One million models in a top-level `[Model]` (a fifth under sanitizers), and as JSON Lines.
    func testMillionElementModelArray() throws {
        let count = 1_000_000
        let models = isSanitized ? count / 5 : count
        var array = [UInt8]()
        var lines = [UInt8]()
        array.reserveCapacity(models * 40)
        lines.reserveCapacity(models * 40)
        array.append(UInt8(ascii: "["))
        let (trueBytes, falseBytes) = (Array(#"true}"#.utf8), Array(#"false}"#.utf8))
        for i in 0..<models {
            let start = lines.count
            lines += #"{"id":"#.utf8
            Self.appendDecimal(i, to: &lines)
            lines += #","name":"n"#.utf8
            Self.appendDecimal(i % 100, to: &lines)
            lines += #"","ok":"#.utf8
            lines += i % 2 == 0 ? trueBytes : falseBytes
            if i > 0 { array.append(UInt8(ascii: ",")) }
            array += lines[start...]
            lines.append(0x0A)
        }
        array.append(UInt8(ascii: "]"))
        let items = try [STItem](json: array)
        XCTAssertEqual(items.count, models)
        XCTAssertEqual(items[models - 1], STItem(id: models - 1, name: "n\((models - 1) % 100)", ok: (models - 1) % 2 == 0))
        // Encoding writes exactly the input back (same key order, no spaces).
        let encoded = try items.jsonData()
        XCTAssertTrue(encoded.elementsEqual(array), "encoded \(encoded.count) bytes, input \(array.count)")
        XCTAssertEqual(try JSONLines<STItem>.decodeAll(lines, workers: 2), items)
        // An error at the very end: the last `true`/`false` becomes `tru1`/`fals1`.
        array[array.count - 3] = UInt8(ascii: "1")
        let error = mappingError { _ = try [STItem](json: array) }
        XCTAssertEqual(error?.kind, .syntax)
        let lastIsTrue = (models - 1) % 2 == 0
        XCTAssertEqual(error?.offset, array.count - (lastIsTrue ? 6 : 7), "the offset of the bad literal")
    }

    /// Appends the decimal digits of `n` (faster than string interpolation in debug builds).
    private static func appendDecimal(_ n: Int, to bytes: inout [UInt8]) {
        if n < 0 { bytes.append(UInt8(ascii: "-")) }
        var v = n.magnitude
        var divisor: UInt = 1
        while divisor <= v / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: 48 + v / divisor))
            v %= divisor
            divisor /= 10
        }
    }

    /// Numbers with 100 000 digits: kept exactly as JSON text, rejected where they do not fit, and
    /// correctly rounded where they do.
    func testHundredThousandDigitNumbers() throws {
        let digits = 100_000
        var big = "9"
        for i in 1..<digits { big.append(Character(Unicode.Scalar(UInt8(48 + (i * 7) % 10)))) }
        XCTAssertEqual(big.utf8.count, digits)

        // JSONValue keeps the literal.
        let value = try JSONValue(json: "[\(big),-\(big),\(big)e-99999]")
        XCTAssertEqual(value[0]?.numberValue?.text, big)
        XCTAssertEqual(value[1]?.numberValue?.text, "-" + big)
        XCTAssertEqual(value[2]?.numberValue?.text, big + "e-99999")
        XCTAssertEqual(try JSONValue(json: value.jsonData()), value)
        XCTAssertNil(value[0]?.intValue)
        XCTAssertNil(value[0]?.doubleValue)

        // Int, Double, Float, Decimal: out of range is `.invalidValue`, with the path.
        for key in ["i", "d", "f", "dec"] {
            for options in [DecodingOptions.lenient, .strict] {
                let error = mappingError { _ = try STNumbers(json: #"{"\#(key)":\#(big)}"#, options: options) }
                XCTAssertEqual(error?.kind, .invalidValue, key)
                XCTAssertEqual(error?.path, key)
                XCTAssertLessThan(error?.message.utf8.count ?? .max, 1_000, "error messages shorten the literal")
            }
        }
        // A JSONValue field and a lenient String take it as is.
        let kept = try STNumbers(json: #"{"any":\#(big),"s":\#(big)}"#)
        XCTAssertEqual(kept.any.numberValue?.text, big)
        XCTAssertEqual(kept.s, big)
        XCTAssertEqual(try STNumbers(json: kept.jsonData()).any, kept.any)

        // Correct rounding with 100 000 significant digits. 9007199254740993 is halfway between two
        // Doubles (2^53 and 2^53 + 2): zeros after it round to even (down), any later non-zero digit rounds up.
        let zeros = String(repeating: "0", count: digits - 17)
        let halfway = "9007199254740993" + zeros + "0e-\(digits - 16)"
        let aboveHalfway = "9007199254740993" + zeros + "1e-\(digits - 16)"
        XCTAssertEqual(try STNumbers(json: #"{"d":\#(halfway)}"#).d, 9_007_199_254_740_992)
        XCTAssertEqual(try STNumbers(json: #"{"d":\#(aboveHalfway)}"#).d, 9_007_199_254_740_994)
        // 0.000…1 (100 000 digits after the point) is far below the smallest subnormal: it would read as +0,
        // so it is out of range (as in JSONDecoder); the same with 100 000 zeros after it.
        let tiny = "0." + String(repeating: "0", count: digits - 1) + "1"
        for key in ["d", "f"] {
            XCTAssertEqual(mappingError { _ = try STNumbers(json: #"{"\#(key)":\#(tiny)}"#) }?.kind, .invalidValue, key)
            XCTAssertEqual(mappingError { _ = try STNumbers(json: #"{"\#(key)":\#(tiny + zeros)}"#) }?.kind, .invalidValue, key)
        }
        // A zero with 100 000 digits is zero.
        let zero = try STNumbers(json: #"{"d":0.\#(zeros),"f":0.\#(zeros)}"#)
        XCTAssertEqual(zero.d.bitPattern, 0.0.bitPattern)
        XCTAssertEqual(zero.f.bitPattern, Float(0).bitPattern)
        // 0.1000…0001: the tail is far below half an ulp of 0.1.
        let nearTenth = "0.1" + String(repeating: "0", count: digits - 3) + "1"
        XCTAssertEqual(try STNumbers(json: #"{"d":\#(nearTenth),"f":\#(nearTenth)}"#).d, 0.1)
        XCTAssertEqual(try STNumbers(json: #"{"f":\#(nearTenth)}"#).f, Float(0.1))
        // Long random digit strings agree with strtod.
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<10 {
            var text = String(Int.random(in: 1...9, using: &rng)) + "."
            for _ in 0..<(digits - 1) { text.append(Character(Unicode.Scalar(UInt8(48 + Int.random(in: 0...9, using: &rng))))) }
            text += "e\(Int.random(in: -300...300, using: &rng))"
            let expected = strtod(text, nil)
            XCTAssertEqual(try STNumbers(json: #"{"d":\#(text)}"#).d.bitPattern, expected.bitPattern, String(text.suffix(8)))
        }
        // A 100 000-digit integer as a Decimal string is rejected too (lenient), not truncated.
        XCTAssertEqual(mappingError { _ = try STNumbers(json: #"{"dec":"\#(big)"}"#) }?.kind, .invalidValue)
    }

    // MARK: Concurrency

    /// Many threads decode and encode many types at once (models, classes, polymorphism, hooks, JSON values,
    /// streams, errors), sharing option values, and every result equals the single-threaded one.
    func testConcurrentMixedDecodingAndEncoding() throws {
        let mixed = #"{"ID":7,"when":"2024-01-02T03:04:05.678Z","kind":"b","tags":["x","y"],"scores":{"a":1.5},"#
            + #""items":[{"id":1,"name":"one","ok":true},{"id":2}],"raw":{"k":[1,2.50,"s",null]},"cost":{"amount":"12.345"}}"#
        let animals = #"[{"name":"cat"},{"name":"rex","barks":true}]"#
        let lines = (0..<64).map { #"{"id":\#($0),"name":"r\#($0)","ok":\#($0 % 3 == 0)}"# }.joined(separator: "\n")
            + "\n{bad}\n"
        let reported = LockedCounter()
        let options = DecodingOptions.lenient.skippingInvalidValues { _ in reported.increment() }

        let referenceMixed = try STMixed(json: mixed)
        nonisolated(unsafe) let referenceAnimals = try [STAnimal](json: animals)
        let referenceLines = try JSONLines<STItem>.decodeAll(lines, workers: 1, onError: .skip { _ in })
        XCTAssertEqual(referenceLines.count, 64)
        XCTAssertTrue(referenceAnimals[1] is STDog)

        let iterations = isDebugBuild ? 400 : 4_000
        let failures = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            for n in 0..<iterations {
                do {
                    switch (thread + n) % 8 {
                    case 0:
                        let m = try STMixed(json: mixed)
                        if m != referenceMixed { failures.increment() }
                        if try STMixed(json: m.jsonData(options: [.sortedKeys])) != m { failures.increment() }
                    case 1:
                        let a = try [STAnimal](json: animals)
                        if a != referenceAnimals || !(a[1] is STDog) { failures.increment() }
                        if try [STAnimal](json: a.jsonData()) != a { failures.increment() }
                    case 2:
                        let v = try STValidated(json: #"{"n":\#(n)}"#)
                        if v.label != "default" || v.n != n { failures.increment() }
                        if mappingError({ _ = try STValidated(json: #"{"n":-1}"#) })?.kind != .validation { failures.increment() }
                    case 3:
                        let items = try JSONLines<STItem>.decodeAll(lines, workers: 2, onError: .skip { _ in })
                        if items != referenceLines { failures.increment() }
                    case 4:
                        let value = try JSONValue(json: mixed)
                        if try JSONValue(json: value.jsonData()) != value { failures.increment() }
                        if value["items"]?[1]?["id"]?.intValue != 2 { failures.increment() }
                    case 5:
                        // Errors: missing required key, type mismatch, syntax.
                        if mappingError({ _ = try STMixed(json: #"{"kind":"a"}"#) })?.kind != .missingKey { failures.increment() }
                        if mappingError({ _ = try STMixed(json: #"{"id":"x"}"#, options: .strict) })?.kind != .typeMismatch {
                            failures.increment()
                        }
                        if mappingError({ _ = try STMixed(json: #"{"id":1,"#) })?.kind != .syntax { failures.increment() }
                    case 6:
                        // Shared options with an invalid-value handler.
                        let m = try STMixed(json: #"{"id":1,"kind":"zzz","price":"x"}"#, options: options)
                        if m.id != 1 || m.kind != .a { failures.increment() }
                    default:
                        var m = referenceMixed
                        try m.update(json: #"{"id":\#(n),"tags":[]}"#)
                        if m.id != n || !m.tags.isEmpty || m.items != referenceMixed.items { failures.increment() }
                        let object = try m.jsonObject()
                        if try STMixed(jsonObject: object) != m { failures.increment() }
                    }
                } catch {
                    failures.increment()
                }
            }
        }
        XCTAssertEqual(failures.value, 0)
        XCTAssertGreaterThan(reported.value, 0)
    }

    // MARK: Error paths (leak check workload)

    /// Every kind of error, repeatedly: run under valgrind or LeakSanitizer to check that error paths free
    /// everything (tapes, partly built models and collections, yajl handles, hook objects, stream windows).
    func testErrorPathsRepeatedly() throws {
        let iterations = Int(ProcessInfo.processInfo.environment["MM_LEAK_ITERATIONS"] ?? "") ?? 20
        let documents: [(String, MappingError.Kind)] = [
            (#"{"ID":1,"items":[{"id":1,"name":"a"},{"id":"#, .syntax),
            (#"{"ID":1,"items":[{"id":1,"name":"long string that is heap allocated"},{"id":true}]}"#, .typeMismatch),
            (#"{"ID":1,"tags":["a","b",3],"scores":{"a":1,"b":"x"}}"#, .invalidValue),
            (#"{"items":[{"id":1,"name":"long string that is heap allocated"}]}"#, .missingKey),
            (#"{"ID":1,"kind":"nope","raw":{"a":[1,2,3]}}"#, .invalidValue),
            (#"{"ID":1,"raw":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}"#, .depthLimit),
            ("{\"ID\":1,\"when\":\"\u{1}\"}", .syntax),
            ("{\"ID\":1,\"items\":[{\"name\":\"\\ud800\\u", .syntax),
            ("{\"ID\":1,\"items\":[{\"id\":2,\"name\":\"a long string \\ud800 with a lone surrogate\"}]}", .syntax),
        ]
        var shallow = DecodingOptions.lenient
        shallow.depthLimit = 32
        for _ in 0..<iterations {
            for (document, kind) in documents {
                XCTAssertEqual(mappingError { _ = try STMixed(json: document, options: shallow) }?.kind, kind, document)
                _ = mappingError { _ = try [STMixed](json: "[\(document)]", options: shallow) }
                // Most of these documents are valid JSON: only an error, if any, must be a MappingError.
                do { _ = try JSONValue(json: document, depthLimit: 32) } catch {
                    XCTAssertTrue(error is MappingError, "not a MappingError: \(error)")
                }
            }
            // UTF-8 yajl lets through (an encoded surrogate), found while making the String.
            let badText = Array(#"{"ID":1,"items":[{"id":2,"name":"a long string with an encoded surrogate "#.utf8)
                + [0xED, 0xA0, 0x80] + Array(#""}]}"#.utf8)
            XCTAssertEqual(mappingError { _ = try STMixed(json: badText) }?.kind, .syntax)
            XCTAssertEqual(mappingError { _ = try JSONValue(json: badText) }?.kind, .syntax)
            XCTAssertEqual(mappingError { _ = try STValidated(json: #"{"n":-5,"label":"a long label, heap allocated"}"#) }?.kind, .validation)
            XCTAssertEqual(mappingError { _ = try [STAnimal](json: #"[{"name":"rex","barks":"maybe"}]"#, options: .strict) }?.kind, .typeMismatch)
            XCTAssertEqual(mappingError { _ = try STTreeClass(json: #"{"a":{"a":{"kids":[{"a":5}]}}}"#) }?.kind, .typeMismatch)
            let rejected = Collected<Int>()
            let stream = "{\"id\":1}\n{\"id\":\"x\",\"name\":\"long string that is heap allocated\"}\n{oops\n[1,2\n"
            _ = try JSONLines<STItem>.decodeAll(stream, workers: 1, onError: .skip { rejected.append($0.index) })
            XCTAssertEqual(mappingError { try JSONLines<STItem>(bytes: Array(stream.utf8)).forEach { _ in } }?.kind, .invalidValue)
            XCTAssertEqual(mappingError { try JSONArrayStream<STItem>(bytes: Array("[{\"id\":1},{\"id\":".utf8)).forEach { _ in } }?.kind, .syntax)
            XCTAssertEqual(rejected.count, 3)
            // Encoding errors: NaN cannot be written.
            struct NaNModel: JSONMappable { var d = Double.nan; var list = ["a long string that is heap allocated"] }
            XCTAssertEqual(mappingError { _ = try NaNModel().jsonData() }?.kind, .invalidValue)
        }
    }
}
