import XCTest
import Foundation
@_spi(Benchmarks) @testable import ModelMapper
import ModelMapperBenchmarkModels

// Differential tests of the Codable fast paths: the streaming encoder against the tree encoder, byte for
// byte (strategies, pretty printing, fallbacks, escaping), key tables, arrays and out-of-order keys
// against JSONDecoder.

private struct P: Codable, Equatable { var x = 1; var y: Double = 2.5; var name = "a/b\"c"; var opt: Int? = nil; var list = [1, 2] }
private struct Nested: Encodable {
    enum K: String, CodingKey { case info, list, tail, super_ = "super" }
    enum I: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        var info = c.nestedContainer(keyedBy: I.self, forKey: .info)
        try info.encode(1, forKey: .a)
        try info.encode("x", forKey: .b)
        var u = c.nestedUnkeyedContainer(forKey: .list)
        try u.encode(1.5)
        try u.encode(P())
        var uu = u.nestedUnkeyedContainer()
        try uu.encode(true)
        var uk = u.nestedContainer(keyedBy: I.self)
        try uk.encodeNil(forKey: .a)
        try P().encode(to: u.superEncoder())
        try c.encode([P(), P()], forKey: .tail)
        try P().encode(to: c.superEncoder())
    }
}
/// Writes to a nested container after its parent moved on: the tree is needed.
private struct OutOfOrder: Encodable {
    enum K: String, CodingKey { case a, b, c }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        var n = c.nestedContainer(keyedBy: K.self, forKey: .a)
        try c.encode(2, forKey: .b)
        try n.encode(3, forKey: .c)
    }
}
private struct Twice: Encodable {
    enum K: String, CodingKey { case a, b }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        try c.encode(1, forKey: .a)
        try c.encode(2, forKey: .b)
        try c.encode("again", forKey: .a)
    }
}
private struct TwiceSuper: Encodable {
    enum K: String, CodingKey { case super_ = "super", b }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        try c.encode(1, forKey: .super_)
        try c.encode(2, forKey: .b)
        try P().encode(to: c.superEncoder())
    }
}
private struct Alias: Encodable {
    enum K: CodingKey { case a, b; var stringValue: String { "same" } }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        try c.encode(1, forKey: .a)
        try c.encode(2, forKey: .b)
    }
}
private struct MixedKeyTypes: Encodable {
    enum K1: String, CodingKey { case a, b }
    enum K2: String, CodingKey { case b, a, c }
    let dup: Bool
    func encode(to encoder: any Encoder) throws {
        var c1 = encoder.container(keyedBy: K1.self)
        try c1.encode(1, forKey: .a)
        var c2 = encoder.container(keyedBy: K2.self)
        try c2.encode(2, forKey: dup ? .a : .c)
        try c1.encode(3, forKey: .b)
    }
}
private struct Caught: Encodable {
    enum K: String, CodingKey { case a, b, c }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        try c.encode(1, forKey: .a)
        try? c.encode(Double.nan, forKey: .b)
        try? c.encode([1.0, .nan], forKey: .b)
        try c.encode(3, forKey: .c)
    }
}
private struct Empty: Encodable { func encode(to encoder: any Encoder) throws {} }
private struct HasEmpty: Encodable { var e = Empty(); var xs = [Empty()] }
private struct SingleTwice: Encodable {
    func encode(to encoder: any Encoder) throws {
        var s = encoder.singleValueContainer()
        try s.encode(1)
        try s.encode(2)
    }
}
private struct Wrapper: Encodable { var inner: SingleTwice = SingleTwice(); var x = 1 }
private class ZAnimal: Encodable {
    var name = "n"
    enum K: String, CodingKey { case name }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        try c.encode(name, forKey: .name)
    }
}
private final class CodableFastPathDog: ZAnimal {
    var breed = "lab"
    enum DK: String, CodingKey { case breed }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: DK.self)
        try c.encode(breed, forKey: .breed)
        try super.encode(to: encoder)
    }
}
private final class CodableFastPathCat: ZAnimal {
    var lives = 9
    enum CK: String, CodingKey { case lives }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CK.self)
        try c.encode(lives, forKey: .lives)
        try super.encode(to: c.superEncoder())
    }
}
private struct Many: Encodable {
    struct K: CodingKey {
        var stringValue: String; var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    let names: [String]
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: K.self)
        for (i, n) in names.enumerated() { try c.encode(i, forKey: K(stringValue: n)) }
    }
}
private struct Rich: Encodable {
    var date = Date(timeIntervalSince1970: 1_400_000_000.25)
    var data = Data([0, 1, 2, 250])
    var url = URL(string: "https://e.com/a?b")!
    var dec = Decimal(string: "3.14")!

    var i8: Int8 = -3; var u64 = UInt64.max; var f: Float = 0.1; var d = 2.0
    var ints: [Int64] = [1, -2]; var floats: [Float] = [1.5, 2]; var opts: [Int?] = [1, nil]
    var dict = ["k": [1, 2], "j": []]
    var intDict = [1: "one", 22: "two"]
    var nestedArr = [[1], [], [2, 3]]
    var userID = 5
}

private func treeBytes<T: Encodable>(_ value: T, _ enc: ModelEncoder, usesMapping: Bool = true) throws -> [UInt8] {
    var strategies = FoundationEncodingStrategies()
    strategies.keys = enc.keyEncodingStrategy
    strategies.dates = enc.dateEncodingStrategy
    strategies.data = enc.dataEncodingStrategy
    strategies.nonConformingFloats = enc.nonConformingFloatEncodingStrategy
    let options = enc.codableOptions
    let state = TapeEncodingState(mode: .foundation, options: options, models: MetaCache.shared, strategies: strategies, usesMapping: usesMapping)
    let node: EncodedNode
    if usesMapping, let model = value as? any JSONMappable {
        node = try state.modelNode(model, [])
    } else {
        let encoder = TapeEncoder(state: state, codingPath: [], rawKeys: T.self is any StringKeyedDictionaryMarker.Type)
        if T.self == String.self || T.self == Int.self || T.self == Double.self || T.self == Bool.self
            || T.self == Date.self || T.self == Data.self || T.self == URL.self || T.self == Decimal.self
            || T.self == JSONValue.self {
            encoder.node = try state.box(value, [])
        } else {
            try value.encode(to: encoder)
        }
        node = encoder.node!
    }
    var context = EncodeContext(options: options, capacity: 4096)
    try state.write(node, &context)
    return context.writer.bytes
}

private func streamed<T: Encodable>(_ value: T, _ enc: ModelEncoder) throws -> Bool {
    var strategies = FoundationEncodingStrategies()
    strategies.keys = enc.keyEncodingStrategy
    strategies.dates = enc.dateEncodingStrategy
    strategies.data = enc.dataEncodingStrategy
    strategies.nonConformingFloats = enc.nonConformingFloatEncodingStrategy
    let state = TapeEncodingState(mode: .foundation, options: enc.codableOptions, models: MetaCache.shared, strategies: strategies, usesMapping: true)
    return try state.streamRoot(value)
}

final class StreamingEncoderDifferentialTests: XCTestCase {
    func check<T: Encodable>(_ value: T, streams: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        for pretty in [false, true] {
            for keys in [JSONEncoder.KeyEncodingStrategy.useDefaultKeys, .convertToSnakeCase,
                         .custom { path in JSONStringKey("\(path.count)_" + path.last!.stringValue) }] {
                for dates in [JSONEncoder.DateEncodingStrategy.deferredToDate, .iso8601, .secondsSince1970,
                              .custom { d, e in var c = e.singleValueContainer(); try c.encode("D\(d.timeIntervalSince1970)") },
                              .custom { _, _ in }] {
                    for slashes in [false, true] {
                        var enc = ModelEncoder()
                        enc.outputFormatting = pretty ? .prettyPrinted : []
                        if slashes { enc.outputFormatting.insert(.withoutEscapingSlashes) }
                        enc.keyEncodingStrategy = keys
                        enc.dateEncodingStrategy = dates
                        enc.dataEncodingStrategy = .base64
                        let a = try enc.encode(value)
                        let b = try treeBytes(value, enc)
                        XCTAssertEqual(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self), file: file, line: line)
                        if !(T.self == TwiceSuper.self && keys.isCustom) { XCTAssertEqual(try streamed(value, enc), streams, "streams \(T.self)", file: file, line: line) }
                    }
                }
            }
        }
    }

    func testStreamVsTree() throws {
        try check(P(), streams: true)
        try check([P(), P()], streams: true)
        try check(Nested(), streams: true)
        try check(OutOfOrder(), streams: false)
        try check(Twice(), streams: false)
        try check(TwiceSuper(), streams: false)
        try check(Alias(), streams: false)
        try check(MixedKeyTypes(dup: false), streams: true)
        try check(MixedKeyTypes(dup: true), streams: false)
        try check(Caught(), streams: false)
        try check(HasEmpty(), streams: true)
        // A single value container written twice: JSONEncoder's precondition, our EncodingError (issue 26),
        // from the stream's fallback as from the tree.
        XCTAssertThrowsError(try ModelEncoder().encode(Wrapper())) { error in
            guard case EncodingError.invalidValue(_, let context)? = error as? EncodingError else { return XCTFail("\(error)") }
            XCTAssertEqual(context.codingPath.map(\.stringValue), ["inner"])
        }
        XCTAssertThrowsError(try treeBytes(Wrapper(), ModelEncoder()))
        try check(CodableFastPathDog(), streams: true)
        try check(CodableFastPathCat(), streams: true)
        try check([CodableFastPathDog(), CodableFastPathDog()], streams: true)
        try check(Many(names: ["a", "b", "c"]), streams: true)
        try check(Many(names: ["a", "b", "a"]), streams: false)
        try check(Many(names: (0..<100).map { "k\($0)" } + ["k5"]), streams: false)
        try check(Rich(), streams: true)
        try check(["b": P(), "a": P()], streams: true)
        try check("str", streams: true)
        try check(3.0, streams: true)
        try check(Optional<Int>.none, streams: true)
        try check(Date(timeIntervalSince1970: 5), streams: true)
    }

    func testBenchmarkModelsUnsorted() throws {
        func run<T: Codable & Equatable>(_ t: T.Type, _ path: String) throws {
            let data = try TestData.data(path)
            let v = try JSONDecoder().decode(T.self, from: data)
            for pretty in [false, true] {
                var enc = ModelEncoder()
                enc.outputFormatting = pretty ? .prettyPrinted : []
                let a = try enc.encodeUsingCodable(v)
                let b = try treeBytes(v, enc, usesMapping: false)
                if a != Data(b) {
                    let x = [UInt8](a)
                    let i = (0..<min(x.count, b.count)).first { x[$0] != b[$0] } ?? min(x.count, b.count)
                    XCTFail("\(path) \(x.count) \(b.count) at \(i): \(String(decoding: x[max(0, i - 80)..<min(x.count, i + 40)], as: UTF8.self)) vs \(String(decoding: b[max(0, i - 80)..<min(b.count, i + 40)], as: UTF8.self))")
                }
                let je = JSONEncoder()
                je.outputFormatting = pretty ? .prettyPrinted : []
                let c = try je.encode(v)
                if !pretty { XCTAssertEqual(a.count, c.count, path) }
                XCTAssertTrue(try JSONDecoder().decode(T.self, from: a) == v)
            }
        }
        try run(TwitterTimeline.self, "bench/twitter.json")
        try run(CitmCatalog.self, "bench/citm_catalog.json")
        try run(CanadaFeatureCollection.self, "bench/canada.json")
        try run([GithubEvent].self, "bench/github_events.json")
        try run(GithubUser.self, "yymodel/user.json")
        try run(WeiboStatus.self, "yymodel/weibo.json")
    }

    func testErrorsMatch() throws {
        struct F: Encodable { var values: [Double] = [1, .nan]; var x = 1 }
        struct G: Encodable { var inner = F() }
        for v in [G()] as [any Encodable] {
            func describe(_ body: () throws -> Any) -> String {
                do { _ = try body(); return "none" } catch { return "\(error)" }
            }
            func enc<E: Encodable>(_ e: E) throws -> Data { try ModelEncoder().encode(e) }
            func tree<E: Encodable>(_ e: E) throws -> [UInt8] { try treeBytes(e, ModelEncoder()) }
            XCTAssertEqual(describe { try enc(v) }.replacingOccurrences(of: "StreamEncoder", with: "X"),
                           describe { try tree(v) }.replacingOccurrences(of: "TapeEncoder", with: "X"))
        }
        XCTAssertThrowsError(try ModelEncoder().encode(Empty()))
    }
}

extension JSONEncoder.KeyEncodingStrategy {
    var isCustom: Bool { if case .custom = self { return true } else { return false } }
}

private struct MapHolder: JSONMappable { var p = P(); var n = 1; var rich: [P] = [P(), P()] }
private struct HasModel: Codable { var title = "t"; var when = Date(timeIntervalSince1970: 7) }

/// Every type `encodeIfPresent` has an overload for (OptionalMemberEncoding), nil.
private struct AllOptionalsNil: Codable {
    var bool: Bool?, string: String?, double: Double?, float: Float?
    var int: Int?, int8: Int8?, int16: Int16?, int32: Int32?, int64: Int64?
    var uint: UInt?, uint8: UInt8?, uint16: UInt16?, uint32: UInt32?, uint64: UInt64?
    var date: Date?
}

final class CodableFastPathStreamMappingTests: XCTestCase {
    /// A nil member of every `encodeIfPresent` overload, through the streaming and the tree encoder: omitted
    /// by default, `null` with `.writesNulls` (the standard library's defaults would omit it always).
    func testNilMembersOfEveryOverload() throws {
        let keys = ["bool", "string", "double", "float", "int", "int8", "int16", "int32", "int64",
                    "uint", "uint8", "uint16", "uint32", "uint64", "date"]
        for (options, expected) in [(EncodingOptions(), "[{}]"),
                                    ([.writesNulls, .sortedKeys], "[{" + keys.sorted().map { #""\#($0)":null"# }.joined(separator: ",") + "}]")]
            as [(EncodingOptions, String)]
        {
            var streamed = EncodeContext(options: options)
            streamed.writer.beginArray(); streamed.writer.element(first: true)
            try DecodableCodec<AllOptionalsNil>(models: MetaCache.shared).encode(AllOptionalsNil(), &streamed)
            streamed.writer.endArray(empty: false)
            let state = TapeEncodingState(mode: .mapping, options: options, models: MetaCache.shared)
            var tree = EncodeContext(options: options)
            tree.writer.beginArray(); tree.writer.element(first: true)
            try state.write(try state.box(AllOptionalsNil(), []), &tree)
            tree.writer.endArray(empty: false)
            XCTAssertEqual(String(decoding: streamed.writer.bytes, as: UTF8.self), expected, "streaming encoder")
            XCTAssertEqual(String(decoding: tree.writer.bytes, as: UTF8.self), expected, "tree encoder")
        }
    }

    func mapCheck<T: Codable>(_ value: T, file: StaticString = #filePath, line: UInt = #line) throws {
        for options in [EncodingOptions(), [.prettyPrinted], [.writesNulls], [.writesNulls, .prettyPrinted, .escapesSlashes],
                        .dates(.secondsSince1970)] as [EncodingOptions] {
            var e1 = EncodeContext(options: options)
            e1.writer.beginArray(); e1.writer.element(first: true)
            try DecodableCodec<T>(models: MetaCache.shared).encode(value, &e1)
            e1.writer.endArray(empty: false)
            let state = TapeEncodingState(mode: .mapping, options: options, models: MetaCache.shared)
            var e2 = EncodeContext(options: options)
            e2.writer.beginArray(); e2.writer.element(first: true)
            try state.write(try state.box(value, []), &e2)
            e2.writer.endArray(empty: false)
            XCTAssertEqual(String(decoding: e1.writer.bytes, as: UTF8.self), String(decoding: e2.writer.bytes, as: UTF8.self), file: file, line: line)
        }
    }
    func testMapping() throws {
        try mapCheck(P())
        try mapCheck([P(opt: 3)])
        try mapCheck(HasModel())
        try mapCheck(["a": HasModel()])
        try mapCheck(Optional<P>.none)
        let m = MapHolder()
        for o in [EncodingOptions(), [.prettyPrinted], [.writesNulls]] as [EncodingOptions] {
            let s = try m.jsonString(options: o)
            XCTAssertTrue(s.contains("\"p\""), s)
            print(s)
        }
    }
}

final class CodableFastPathStreamPoolTests: XCTestCase {
    func testPool() throws {
        weak var weakState: TapeEncodingState?
        do {
            let state = TapeEncodingState(mode: .foundation, options: [], models: MetaCache.shared)
            weakState = state
            XCTAssertTrue(try state.streamRoot([P(), P(), P()]))
            XCTAssertEqual(String(decoding: state.out.writer.bytes, as: UTF8.self).count > 10, true)
        }
        XCTAssertNil(weakState, "state leaked")
    }
}

final class CodableFastPathStreamPoolTests2: XCTestCase {
    func make(_ state: TapeEncodingState) {
        let c = state.keyedContainer(JSONStringKey.self, id: 0, depth: 0, rawKeys: false)
        withExtendedLifetime(c) {}
    }
    func testPoolReuse() throws {
        let state = TapeEncodingState(mode: .foundation, options: [], models: MetaCache.shared)
        var held: [KeyedEncodingContainer<JSONStringKey>] = []
        for _ in 0..<5 { make(state) }
        for _ in 0..<3 { held.append(state.keyedContainer(JSONStringKey.self, id: 0, depth: 0, rawKeys: false)) }
        for _ in 0..<5 { make(state) }
        state.endStream()
        withExtendedLifetime(held) {}
    }
}

final class CodableFastPathStreamTextTests: XCTestCase {
    func testEscapingMatchesWriter() {
        var rng = SplitMix64(seed: 42)
        let alphabet: [UInt8] = Array("abc/\\\"\n\t\u{1}\u{1f} é😀xyz0123456789".utf8) + [0x7f, 0x08, 0x0c, 0x0d]
        for n in 0..<3000 {
            let len = n < 600 ? n : Int(rng.next() % 2000)
            var bytes: [UInt8] = []
            let heavy = rng.next() % 3 == 0
            for _ in 0..<len {
                if heavy || rng.next() % 8 == 0 { bytes.append(alphabet[Int(rng.next() % UInt64(alphabet.count))]) } else { bytes.append(UInt8(ascii: "a") + UInt8(rng.next() % 26)) }
            }
            let s = String(decoding: bytes, as: UTF8.self)
            for slashes in [false, true] {
                var a: [UInt8] = [1, 2]
                var b: [UInt8] = [1, 2]
                var writer = JSONWriter(layout: JSONWriter.Layout())
                writer.string(s, escapeSlashes: slashes)
                writer.withBytes { a.append(contentsOf: $0) }
                var t = s
                t.withUTF8 { JSONWriter.appendEscaped($0, to: &b, escapeSlashes: slashes) }
                if a != b { XCTFail("mismatch len \(len)"); return }
            }
        }
    }
}

private final class Embedding: Decodable {
    enum K: String, CodingKey { case a, embedded, b }
    let a: Int; let b: String; let inner: Embedding?
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: K.self)
        a = try container.decode(Int.self, forKey: .a)
        let embedded = try container.decode(String.self, forKey: .embedded)
        inner = embedded.isEmpty ? nil : try ModelDecoder().decode(Embedding.self, from: Data(embedded.utf8))
        b = try container.decode(String.self, forKey: .b)
    }
}
private struct Node: Codable, Equatable { var value: Int; var children: [Node]; var meta: [String: Int]? }
private struct TwoAtOnce: Decodable, Equatable {
    enum K: String, CodingKey { case a, b, inner }
    var a: Int; var b: Int; var ia: Int; var ib: Int
    init(from decoder: any Decoder) throws {
        let outer = try decoder.container(keyedBy: K.self)
        let inner = try outer.nestedContainer(keyedBy: K.self, forKey: .inner)
        let inner2 = try outer.nestedContainer(keyedBy: K.self, forKey: .inner)
        ib = try inner.decode(Int.self, forKey: .b)
        a = try outer.decode(Int.self, forKey: .a)
        ia = try inner2.decode(Int.self, forKey: .a)
        b = try outer.decode(Int.self, forKey: .b)
    }
}
final class CodableFastPathDecodePoolTests: XCTestCase {
    func testRecursive() throws {
        let json = #"{"value":1,"children":[{"value":2,"children":[{"value":3,"children":[],"meta":{"x":1}}]},{"value":4,"children":[]}],"meta":null}"#
        let a = try ModelDecoder().decode(Node.self, from: json)
        let b = try JSONDecoder().decode(Node.self, from: Data(json.utf8))
        XCTAssertEqual(a, b)
        let t = #"{"a":1,"b":2,"inner":{"b":4,"a":3}}"#
        let x = try ModelDecoder().decode([TwoAtOnce].self, from: "[\(t),\(t)]")
        XCTAssertEqual(x.map { [$0.a, $0.b, $0.ia, $0.ib] }, [[1, 2, 3, 4], [1, 2, 3, 4]])
        for _ in 0..<3 {
            let big = "[" + Array(repeating: json, count: 50).joined(separator: ",") + "]"
            XCTAssertEqual(try ModelDecoder().decode([Node].self, from: big), try JSONDecoder().decode([Node].self, from: Data(big.utf8)))
        }
    }
    /// An `init(from:)` that decodes another document with `ModelDecoder` while its own decoding is under
    /// way (the thread's spare state is in use) gets a state of its own: both results are right, and the
    /// outer containers keep reading the outer document.
    func testNestedDecodeOnTheSameThreadUsesItsOwnState() throws {
        let json = Data(#"{"a":1,"embedded":"{\"a\":2,\"embedded\":\"\",\"b\":\"inner\"}","b":"outer"}"#.utf8)
        for _ in 0..<3 {
            let value = try ModelDecoder().decode(Embedding.self, from: json)
            XCTAssertEqual(value.a, 1)
            XCTAssertEqual(value.b, "outer")
            XCTAssertEqual(value.inner?.a, 2)
            XCTAssertEqual(value.inner?.b, "inner")
            XCTAssertNil(value.inner?.inner)
        }
    }

    /// The thread's spare state keeps nothing of the caller's: a `userInfo` object is freed with the decode.
    func testSpareStateKeepsNoUserInfo() throws {
        final class Token: Sendable {}
        weak var weakToken: Token?
        try {
            let token = Token()
            weakToken = token
            var decoder = ModelDecoder()
            decoder.userInfo = [CodingUserInfoKey(rawValue: "token")!: token]
            XCTAssertEqual(try decoder.decode([Node].self, from: Data(#"[{"value":1,"children":[]}]"#.utf8)).first?.value, 1)
        }()
        XCTAssertNil(weakToken, "the decoding state kept the caller's userInfo")
    }

    /// A state handed back by `end()` is the thread's spare: the next decoding on the thread gets it again,
    /// with its key tables, and once the thread lets go of it (`retire()` here) it is freed.
    func testSpareStateIsReusedAndRetiredWithoutLeak() throws {
        weak var weakState: TapeDecodingState?
        let first = Array(#"[{"value":1,"children":[{"value":2,"children":[]}]},{"value":1,"children":[]}]"#.utf8)
        let second = Array(#"[{"value":7,"children":[]},{"value":8,"children":[{"value":9,"children":[]}]}]"#.utf8)
        func decode(_ json: [UInt8], _ finish: (inout TapeDecodingState) -> Void) throws -> [Node]? {
            try json.withUnsafeBytes { bytes in
                try withParsedDocument(bytes, depthLimit: 100) { tape throws(MappingError) in
                    var state = TapeDecodingState.begin(tape: tape, context: DecodeContext(tape: tape, options: DecodingOptions()),
                                                        mode: .foundation, models: MetaCache.shared)
                    if let weakState { XCTAssertTrue(state === weakState, "the thread's spare state is not reused") }
                    weakState = state
                    defer { finish(&state) }
                    return try? state.decodeValue([Node].self, 0, .stack(0))
                }
            }
        }
        XCTAssertEqual(try decode(first) { TapeDecodingState.end(&$0) }, try JSONDecoder().decode([Node].self, from: Data(first)))
        XCTAssertNotNil(weakState, "an ended state is not kept as the thread's spare")
        // The reused state reads the second document, not the first's tape.
        XCTAssertEqual(try decode(second) { $0.retire() }, try JSONDecoder().decode([Node].self, from: Data(second)))
        XCTAssertNil(weakState)
    }
}

private struct ArrHolder: Codable, Equatable { var a: [[Int]]; var b: [String]?; var c: [Int64] = []; var d: [Float]? }
final class CodableFastPathArrayTests: XCTestCase {
    func summary(_ body: () throws -> Any) -> String {
        do { return "ok \(try body())" } catch let e as DecodingError {
            switch e {
            case .typeMismatch(let t, let c): return "typeMismatch \(t) \(c.codingPath.map(\.stringValue)) \(c.debugDescription.prefix(40))"
            case .valueNotFound(let t, let c): return "valueNotFound \(t) \(c.codingPath.map(\.stringValue)) \(c.debugDescription.prefix(40))"
            case .keyNotFound(let k, let c): return "keyNotFound \(k.stringValue) \(c.codingPath.map(\.stringValue))"
            case .dataCorrupted(let c): return "dataCorrupted \(c.codingPath.map(\.stringValue)) \(c.debugDescription.prefix(30))"
            @unknown default: return "?"
            }
        } catch { return "other \(error)" }
    }
    func testArraysLikeJSONDecoder() {
        let inputs = [#"{"a":[[1,2],[3]],"b":["x"],"c":[1,-2],"d":[1.5]}"#, #"{"a":[[1,"x"]]}"#, #"{"a":{"k":1}}"#, #"{"a":null}"#,
                      #"{"a":[null]}"#, #"{"a":[[1]],"b":null}"#, #"{"a":[[1]],"b":[1]}"#, 
                      #"{"a":[[1]],"d":[1e50]}"#, #"{"a":[[2.0]]}"#, #"{"a":[]}"#, #"{"a":[[]]}"#]
        for input in inputs {
            let ours = summary { try ModelDecoder().decode(ArrHolder.self, from: input) }
            let theirs = summary { try JSONDecoder().decode(ArrHolder.self, from: Data(input.utf8)) }
            XCTAssertEqual(ours, theirs, input)
        }
        for input in ["[1,2]", "[]", "null", "{}", "[[1],[2,3]]", "[1,null]"] {
            XCTAssertEqual(summary { try ModelDecoder().decode([Int].self, from: input) }, summary { try JSONDecoder().decode([Int].self, from: Data(input.utf8)) }, input)
            XCTAssertEqual(summary { try ModelDecoder().decode([[Int]].self, from: input) }, summary { try JSONDecoder().decode([[Int]].self, from: Data(input.utf8)) }, input)
            XCTAssertEqual(summary { try ModelDecoder().decode([Int?].self, from: input) }, summary { try JSONDecoder().decode([Int?].self, from: Data(input.utf8)) }, input)
        }
    }
}

private struct Wide: Codable, Equatable {
    var a0: Int; var z: String?; var m: [Int]
    struct K: CodingKey { var stringValue: String; var intValue: Int? { nil }; init(stringValue: String) { self.stringValue = stringValue }; init?(intValue: Int) { nil } }
    init(a0: Int, z: String?, m: [Int]) { self.a0 = a0; self.z = z; self.m = m }
}
private struct Many2: Decodable, Equatable {
    var values: [Int]
    enum K: Int, CodingKey { case k0, k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16, k17, k18, k19, k20, k21, k22, k23, k24, k25, k26, k27, k28, k29, k30, k31, k32, k33, k34, k35, k36, k37, k38, k39, k40, k41, k42, k43, k44, k45, k46, k47, k48, k49, k50, k51, k52, k53, k54, k55, k56, k57, k58, k59, k60, k61, k62, k63, k64, k65, k66, k67, k68, k69 }
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: K.self)
        var v: [Int] = []
        for i in stride(from: 69, through: 0, by: -1) { v.append(try c.decodeIfPresent(Int.self, forKey: K(rawValue: i)!) ?? -1) }
        values = v
    }
}
final class CodableFastPathOrderTests: XCTestCase {
    func testOutOfOrderAndWide() throws {
        // Keys in varying orders, missing keys, more than 64 members.
        var objects: [String] = []
        for n in 0..<20 {
            var keys = (0..<70).map { "\"k\($0)\":\($0 * 10 + n)" }
            if n % 3 == 0 { keys.reverse() }
            if n % 4 == 1 { keys.shuffle() }
            if n % 5 == 2 { keys.removeLast(5) }
            objects.append("{" + keys.joined(separator: ",") + "}")
        }
        let json = "[" + objects.joined(separator: ",") + "]"
        // JSONDecoder cannot decode Int-raw-value keys by string "k0"... use stringValue "k\(i)"? Int enums' stringValue is the case name.
        let ours = try ModelDecoder().decode([Many2].self, from: json)
        let theirs = try JSONDecoder().decode([Many2].self, from: Data(json.utf8))
        XCTAssertEqual(ours, theirs)
        XCTAssertEqual(ours[2].values.first, -1)
    }
}
