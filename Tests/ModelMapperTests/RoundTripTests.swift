import Foundation
import XCTest
@testable import ModelMapper

// Property-based round trips: `decode(encode(m))` gives back `m` for randomly generated models covering every
// supported property type and nesting, with a seeded generator (failures print the seed and case number, so
// they reproduce). Equality is checked field by field through reflection (`deepDiff`): Float and Double
// bit for bit (so -0.0 and subnormals count), strings by their UTF-8 bytes (not canonical equivalence),
// JSONValue numbers by their literal text, object key order included; dates to the microsecond (whole
// seconds exactly), since dates are written rounded to the microsecond.

// MARK: - Seeded random numbers

/// Random values of every supported type, biased towards edge cases.
private struct Gen {
    var rng: SplitMix64
    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func below(_ n: Int) -> Int { Int.random(in: 0..<n, using: &rng) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func bool() -> Bool { Bool.random(using: &rng) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    mutating func count(_ max: Int) -> Int { below(max + 1) }

    mutating func int<T: FixedWidthInteger>(_: T.Type = T.self) -> T {
        switch below(10) {
        case 0: return .min
        case 1: return .max
        case 2: return 0
        case 3: return .min &+ 1
        case 4: return .max &- 1
        case 5: return T(truncatingIfNeeded: Int.random(in: (T.isSigned ? -300 : 0)...300, using: &rng))
        default: return T.random(in: .min ... .max, using: &rng)
        }
    }

    static let specialDoubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.2, 0.3, 1.0 / 3, 2.0 / 3, 100, 1e-7, 1e16, 1e21, 1e22, 1e23, 8.8,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, -.leastNormalMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .ulpOfOne, .pi, -.pi,
        Double(sign: .plus, exponentBitPattern: 0, significandBitPattern: (1 << 52) - 1),   // largest subnormal
        9_007_199_254_740_992, 9_007_199_254_740_994, -9_007_199_254_740_992, Double(Int64.max), Double(UInt64.max),
        123_456_789_012_345_680, 2.2250738585072011e-308, 4.9406564584124654e-324, 1.7976931348623157e308,
        0.000_001, 1_000_000.5, 5e-324, 2.5e-323,
    ]

    /// A finite Double: special values, subnormals, short decimals, plain ranges and arbitrary bit patterns
    /// (which cover every exponent).
    mutating func double() -> Double {
        switch below(8) {
        case 0: return pick(Self.specialDoubles)
        case 1:
            return Double(sign: bool() ? .minus : .plus, exponentBitPattern: 0,
                          significandBitPattern: UInt64.random(in: 1...((1 << 52) - 1), using: &rng))
        case 2: return Double("\(Int.random(in: -99_999...99_999, using: &rng))e\(Int.random(in: -30...30, using: &rng))")!
        case 3: return Double.random(in: -1e6...1e6, using: &rng)
        default:
            while true {
                let d = Double(bitPattern: rng.next())
                if d.isFinite { return d }
            }
        }
    }

    static let specialFloats: [Float] = [
        0, -0.0, 1, -1, 0.1, 0.2, 1.0 / 3, 16_777_216, 16_777_218, 1e-7, 3.4028235e38, -3.4028235e38,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude, .ulpOfOne,
    ]

    mutating func float() -> Float {
        switch below(6) {
        case 0: return pick(Self.specialFloats)
        case 1:
            return Float(sign: bool() ? .minus : .plus, exponentBitPattern: 0,
                         significandBitPattern: UInt32.random(in: 1...((1 << 23) - 1), using: &rng))
        case 2: return Float.random(in: -1000...1000, using: &rng)
        default:
            while true {
                let f = Float(bitPattern: UInt32(truncatingIfNeeded: rng.next()))
                if f.isFinite { return f }
            }
        }
    }

    /// A Decimal with 1...38 random digits and a random exponent (the whole range Decimal holds).
    mutating func decimal() -> Decimal {
        if chance(10) {
            // (Decimal.greatestFiniteMagnitude has a 39-digit significand: see testDecimalExtremes.)
            return pick([Decimal(0), Decimal(1), Decimal(-1), Decimal(string: "0.1")!, Decimal(Int64.max), Decimal(Int64.min),
                         Decimal(UInt64.max), .leastNonzeroMagnitude, -Decimal.leastNonzeroMagnitude,
                         Decimal(string: "99999999999999999999999999999999999999e127")!,
                         Decimal(string: "-12345678901234567890123456789012345678e-128")!])
        }
        while true {
            var text = bool() ? "-" : ""
            let digits = Int.random(in: 1...38, using: &rng)
            text += String(Int.random(in: 1...9, using: &rng))
            for _ in 2..<max(2, digits) { text += String(below(10)) }
            if digits > 1 { text += String(Int.random(in: 1...9, using: &rng)) }   // no trailing zeros: see testDecimalExtremes
            let exponent = chance(50) ? Int.random(in: -20...20, using: &rng) : Int.random(in: -128...127, using: &rng)
            text += "e\(exponent)"
            if let d = Decimal(string: text), d.isFinite, !d.isNaN { return d }
        }
    }

    mutating func scalar() -> Unicode.Scalar {
        var v: UInt32
        switch below(14) {
        case 0...4: v = UInt32.random(in: 0x20...0x7E, using: &rng)                       // printable ASCII
        case 5: v = UInt32.random(in: 0...0x1F, using: &rng)                               // control characters
        case 6: v = pick([0x22, 0x5C, 0x2F, 0x7F, 0x00, 0x2028, 0x2029, 0xFEFF, 0x200D, 0xFFFD, 0xFFFE, 0xFFFF, 0x0301, 0x85])
        case 7: v = UInt32.random(in: 0x80...0x7FF, using: &rng)                           // two UTF-8 bytes
        case 8: v = UInt32.random(in: 0x800...0xFFFF, using: &rng)                         // three bytes
        case 9: v = UInt32.random(in: 0x1F300...0x1FAFF, using: &rng)                      // emoji
        case 10: v = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)                    // any astral plane
        case 11: v = UInt32.random(in: 0x300...0x36F, using: &rng)                         // combining marks
        default: v = UInt32(pick(Array("aeiouxyzAEZ019 ".unicodeScalars)).value)
        }
        if (0xD800...0xDFFF).contains(v) { v = 0xE000 }   // Swift strings cannot hold lone surrogates
        return Unicode.Scalar(v)!
    }

    mutating func string(maxLength: Int = 10) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<count(maxLength) { scalars.append(scalar()) }
        if chance(5) { scalars.append(contentsOf: "👩‍👩‍👧‍👦\"\\/\u{0}".unicodeScalars) }
        return String(scalars)
    }

    static let secondsFrom1900: Int64 = -2_208_988_800
    static let secondsTo2100: Int64 = 4_102_444_800

    /// Dates between 1900 and 2100: whole seconds, milliseconds, microseconds, or any Double.
    mutating func date() -> Date {
        switch below(4) {
        case 0: return Date(timeIntervalSince1970: Double(Int64.random(in: Self.secondsFrom1900..<Self.secondsTo2100, using: &rng)))
        case 1: return Date(timeIntervalSince1970: Double(Int64.random(in: Self.secondsFrom1900 * 1000..<Self.secondsTo2100 * 1000, using: &rng)) / 1e3)
        case 2: return Date(timeIntervalSince1970: Double(Int64.random(in: Self.secondsFrom1900 * 1_000_000..<Self.secondsTo2100 * 1_000_000, using: &rng)) / 1e6)
        default: return Date(timeIntervalSince1970: Double.random(in: Double(Self.secondsFrom1900)..<Double(Self.secondsTo2100), using: &rng))
        }
    }

    mutating func word(_ maxLength: Int = 8) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return String((0..<(1 + count(maxLength - 1))).map { _ in pick(alphabet) })
    }

    mutating func url() -> URL {
        let text: String
        switch below(6) {
        case 0: text = "mailto:\(word())@example.com"
        case 1: text = "file:///tmp/\(word())/a%20b.txt"
        case 2: text = "https://example.com/%E2%82%AC/\(word())?q=%22x%22&r=\(word())"
        case 3: text = "urn:isbn:\(Int.random(in: 0...999_999_999, using: &rng))"
        default: text = "https://h\(below(100)).example.org:\(1 + below(65_000))/\(word())/\(word())?a=\(word())&b=\(below(1000))#\(word())"
        }
        return URL(string: text)!
    }

    mutating func uuid() -> UUID {
        let a = rng.next(), b = rng.next()
        return withUnsafeBytes(of: (a, b)) { raw in
            UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7], raw[8], raw[9], raw[10], raw[11],
                        raw[12], raw[13], raw[14], raw[15]))
        }
    }

    mutating func data() -> Data {
        Data((0..<count(24)).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    /// A number literal as JSON can hold it (JSONValue keeps the text).
    mutating func numberText() -> String {
        switch below(9) {
        case 0: return String(int(Int64.self))
        case 1: return String(int(UInt64.self))
        case 2: return double().description
        case 3:
            var digits = String(Int.random(in: 1...9, using: &rng))
            for _ in 0..<Int.random(in: 19...40, using: &rng) { digits += String(below(10)) }
            return (bool() ? "-" : "") + digits                                    // beyond 64 bits
        case 4: return pick(["-0", "0", "1E+2", "0.5e-3", "-1.25E-10", "123.4560", "1e0", "-0.0", "2.50", "1E308"])
        case 5: return decimal().description
        default: return String(Int.random(in: -1000...1000, using: &rng))
        }
    }

    mutating func jsonValue(depth: Int = 3) -> JSONValue {
        switch below(depth > 0 ? 8 : 4) {
        case 0: return .null
        case 1: return .bool(bool())
        case 2: return .number(JSONNumber(text: numberText()))
        case 3: return .string(string())
        case 4, 5: return .array((0..<count(4)).map { _ in jsonValue(depth: depth - 1) })
        default:
            var object = JSONObject()
            for _ in 0..<count(5) { object[string(maxLength: 6)] = jsonValue(depth: depth - 1) }
            return .object(object)
        }
    }

    mutating func optional<T>(_ make: (inout Gen) -> T) -> T? {
        chance(35) ? nil : make(&self)
    }

    mutating func array<T>(_ max: Int = 4, _ make: (inout Gen) -> T) -> [T] {
        (0..<count(max)).map { _ in make(&self) }
    }

    mutating func dictionary<T>(_ max: Int = 4, _ make: (inout Gen) -> T) -> [String: T] {
        var result: [String: T] = [:]
        for _ in 0..<count(max) { result[string(maxLength: 6)] = make(&self) }
        return result
    }
}

// MARK: - Models covering every supported type

private enum RTColor: String, Hashable, CaseIterable { case red, green, quoted = "bl\"ue/\\ü", empty = "", emoji = "🎨\u{1}" }
private enum RTLevel: Int, Hashable, CaseIterable { case low = -1, zero = 0, high = 1000, max = 9_223_372_036_854_775_807 }
private enum RTByte: UInt8, Hashable, CaseIterable { case a = 0, b = 255 }

private struct RTScalars: JSONMappable {
    var flag = false
    var int = 0
    var int8: Int8 = 0
    var int16: Int16 = 0
    var int32: Int32 = 0
    var int64: Int64 = 0
    var uint: UInt = 0
    var uint8: UInt8 = 0
    var uint16: UInt16 = 0
    var uint32: UInt32 = 0
    var uint64: UInt64 = 0
    var float: Float = 0
    var double: Double = 0
    var decimal: Decimal = 0
    var string = ""
    var date = Date(timeIntervalSince1970: 0)
    var url = URL(string: "https://example.com")!
    var uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    var data = Data()
    var color = RTColor.red
    var level = RTLevel.zero
    var byte = RTByte.a
    var json: JSONValue = .null

    static func random(_ g: inout Gen) -> RTScalars {
        var m = RTScalars()
        m.flag = g.bool()
        m.int = g.int(); m.int8 = g.int(); m.int16 = g.int(); m.int32 = g.int(); m.int64 = g.int()
        m.uint = g.int(); m.uint8 = g.int(); m.uint16 = g.int(); m.uint32 = g.int(); m.uint64 = g.int()
        m.float = g.float(); m.double = g.double(); m.decimal = g.decimal()
        m.string = g.string(maxLength: 24); m.date = g.date(); m.url = g.url(); m.uuid = g.uuid(); m.data = g.data()
        m.color = g.pick(RTColor.allCases); m.level = g.pick(RTLevel.allCases); m.byte = g.pick(RTByte.allCases)
        m.json = g.jsonValue()
        return m
    }
}

private struct RTLeaf: JSONMappable, Hashable {
    var id = 0
    var name = ""
    var score = 0.0
    var tags: [String] = []

    static func random(_ g: inout Gen) -> RTLeaf {
        RTLeaf(id: g.int(), name: g.string(), score: g.double(), tags: g.array(3) { $0.string() })
    }
}

private struct RTOptionals: JSONMappable {
    var flag: Bool? = nil
    var int: Int? = nil
    var int8: Int8? = nil
    var uint64: UInt64? = nil
    var float: Float? = nil
    var double: Double? = nil
    var decimal: Decimal? = nil
    var string: String? = nil
    var date: Date? = nil
    var url: URL? = nil
    var uuid: UUID? = nil
    var data: Data? = nil
    var color: RTColor? = nil
    var level: RTLevel? = nil
    var json: JSONValue? = nil
    var leaf: RTLeaf? = nil
    var ints: [Int]? = nil
    var map: [String: String]? = nil

    static func random(_ g: inout Gen) -> RTOptionals {
        var m = RTOptionals()
        m.flag = g.optional { $0.bool() }; m.int = g.optional { $0.int() }; m.int8 = g.optional { $0.int() }
        m.uint64 = g.optional { $0.int() }; m.float = g.optional { $0.float() }; m.double = g.optional { $0.double() }
        m.decimal = g.optional { $0.decimal() }; m.string = g.optional { $0.string() }; m.date = g.optional { $0.date() }
        m.url = g.optional { $0.url() }; m.uuid = g.optional { $0.uuid() }; m.data = g.optional { $0.data() }
        m.color = g.optional { $0.pick(RTColor.allCases) }; m.level = g.optional { $0.pick(RTLevel.allCases) }
        // `.some(.null)` is written as null and reads back as nil (as with Codable): not generated.
        m.json = g.optional { g in
            var v = g.jsonValue()
            while v.isNull { v = g.jsonValue() }
            return v
        }
        m.leaf = g.optional { RTLeaf.random(&$0) }
        m.ints = g.optional { $0.array { $0.int() } }
        m.map = g.optional { $0.dictionary { $0.string() } }
        return m
    }
}

private struct RTContainers: JSONMappable {
    var ints: [Int] = []
    var doubles: [Double] = []
    var floats: ContiguousArray<Float> = []
    var optionalInts: [Int?] = []
    var optionalStrings: [String?] = []
    var strings: Set<String> = []
    var int64s: Set<Int64> = []
    var colors: Set<RTColor> = []
    var uuids: Set<UUID> = []
    var doubleMap: [String: Double] = [:]
    var optionalMap: [String: Int16?] = [:]
    var leafMap: [String: RTLeaf] = [:]
    var matrix: [[Int]] = []
    var words: [[String]] = []
    var cube: [[[UInt8]]] = []
    var leaves: [RTLeaf] = []
    var optionalLeaves: [RTLeaf?] = []
    var contiguousLeaves: ContiguousArray<RTLeaf> = []
    var leafSet: Set<RTLeaf> = []
    var dates: [Date] = []
    var decimals: [Decimal] = []
    var values: [JSONValue] = []
    var listsByKey: [String: [UInt16]] = [:]
    var mapsInList: [[String: Bool]] = []
    var levels: [RTLevel] = []
    var urls: [URL] = []
    var blobs: [Data] = []
    var nestedOptional: [String: [Int?]]? = nil

    static func random(_ g: inout Gen) -> RTContainers {
        var m = RTContainers()
        m.ints = g.array { $0.int() }
        m.doubles = g.array(6) { $0.double() }
        m.floats = ContiguousArray(g.array { $0.float() })
        m.optionalInts = g.array { $0.optional { $0.int() } }
        m.optionalStrings = g.array { $0.optional { $0.string() } }
        m.strings = Set(g.array { $0.string() })
        m.int64s = Set(g.array { $0.int(Int64.self) })
        m.colors = Set(g.array { $0.pick(RTColor.allCases) })
        m.uuids = Set(g.array { $0.uuid() })
        m.doubleMap = g.dictionary { $0.double() }
        m.optionalMap = g.dictionary { $0.optional { $0.int(Int16.self) } }
        m.leafMap = g.dictionary(2) { RTLeaf.random(&$0) }
        m.matrix = g.array(3) { $0.array(3) { $0.int() } }
        m.words = g.array(3) { $0.array(3) { $0.string() } }
        m.cube = g.array(2) { $0.array(2) { $0.array(3) { $0.int(UInt8.self) } } }
        m.leaves = g.array(3) { RTLeaf.random(&$0) }
        m.optionalLeaves = g.array(3) { $0.optional { RTLeaf.random(&$0) } }
        m.contiguousLeaves = ContiguousArray(g.array(2) { RTLeaf.random(&$0) })
        m.leafSet = Set(g.array(2) { RTLeaf.random(&$0) }.filter { !$0.score.isZero })   // ±0 hash alike
        m.dates = g.array { $0.date() }
        m.decimals = g.array { $0.decimal() }
        m.values = g.array { $0.jsonValue() }
        m.listsByKey = g.dictionary { $0.array { $0.int(UInt16.self) } }
        m.mapsInList = g.array(3) { $0.dictionary(3) { $0.bool() } }
        m.levels = g.array { $0.pick(RTLevel.allCases) }
        m.urls = g.array(2) { $0.url() }
        m.blobs = g.array(2) { $0.data() }
        m.nestedOptional = g.optional { $0.dictionary(2) { $0.array(3) { $0.optional { $0.int() } } } }
        return m
    }
}

/// A recursive model.
private struct RTNode: JSONMappable {
    var value = 0
    var label: String? = nil
    var children: [RTNode] = []

    static func random(_ g: inout Gen, depth: Int = 3) -> RTNode {
        RTNode(value: g.int(), label: g.optional { $0.string() },
               children: depth == 0 ? [] : g.array(2) { RTNode.random(&$0, depth: depth - 1) })
    }
}

/// A polymorphic class hierarchy: arrays hold subclasses, encoded as their dynamic type.
private class RTShape: JSONMappable, JSONPolymorphic {
    var kind = "shape"
    var name = ""
    required init() {}
    class var mapping: ModelMapping { ModelMapping() }
    static func modelType(for object: JSONObject) -> (any JSONMappable.Type)? {
        switch object["kind"]?.stringValue {
        case "circle": return RTCircle.self
        case "square": return RTSquare.self
        default: return nil
        }
    }

    static func random(_ g: inout Gen) -> RTShape {
        let shape: RTShape
        switch g.below(3) {
        case 0: shape = RTShape()
        case 1: let c = RTCircle(); c.radius = g.double(); c.center = g.optional { RTLeaf.random(&$0) }; shape = c
        default: let s = RTSquare(); s.side = g.float(); s.corners = g.array { $0.int() }; shape = s
        }
        shape.name = g.string()
        return shape
    }
}

private final class RTCircle: RTShape {
    var radius = 0.0
    var center: RTLeaf? = nil
    required init() { super.init(); kind = "circle" }
}

private final class RTSquare: RTShape {
    var side: Float = 0
    var corners: [Int] = []
    override class var mapping: ModelMapping { super.mapping.merging(ModelMapping(keys: ["side": "ext.side"])) }
    required init() { super.init(); kind = "square" }
}

/// A Codable type the mapper handles through the Codable fallback.
private struct RTCodable: Codable, Equatable {
    var x: Double
    var label: String
    var tags: [String: Int]
}

/// Key paths, alternative keys and snake_case on the way back.
private struct RTMapped: JSONMappable {
    var desc = ""
    var city: String? = nil
    var bookID = 0
    var userName = ""
    var rawValue: Int64 = 0
    static let mapping = ModelMapping(keys: ["desc": "ext.desc", "city": "ext.addr.city", "bookID": ["id", "ID"]],
                                      keyStrategy: .snakeCase)

    static func random(_ g: inout Gen) -> RTMapped {
        RTMapped(desc: g.string(), city: g.optional { $0.string() }, bookID: g.int(), userName: g.string(), rawValue: g.int())
    }
}

private struct RTRoot: JSONMappable {
    var scalars = RTScalars()
    var optionals = RTOptionals()
    var containers = RTContainers()
    var tree = RTNode()
    var shapes: [RTShape] = []
    var shape: RTShape? = nil
    var mapped = RTMapped()
    var codable: RTCodable? = nil
    var child: RTScalars? = nil

    static func random(_ g: inout Gen) -> RTRoot {
        var m = RTRoot()
        m.scalars = RTScalars.random(&g)
        m.optionals = RTOptionals.random(&g)
        m.containers = RTContainers.random(&g)
        m.tree = RTNode.random(&g)
        m.shapes = g.array(3) { RTShape.random(&$0) }
        m.shape = g.optional { RTShape.random(&$0) }
        m.mapped = RTMapped.random(&g)
        m.codable = g.optional { g in RTCodable(x: g.double(), label: g.string(), tags: g.dictionary(2) { $0.int() }) }
        m.child = g.optional { RTScalars.random(&$0) }
        return m
    }
}

// MARK: - Exact comparison through reflection

private struct DiffOptions {
    /// Compare JSONValue numbers by literal text and object members in order (the byte forms keep both);
    /// when false, by numeric value and ignoring order (the `[String: Any]` form cannot keep them).
    var exactJSON = true
    /// Compare object members in order (false when keys were sorted on output).
    var keyOrder = true
    /// Dates: allowed difference in seconds (whole-second dates must still be equal).
    var dateTolerance = 1e-6
}

/// Differences between two values of the same type, as "path: what" lines (at most a few).
private func deepDiff(_ a: Any, _ b: Any, options: DiffOptions = DiffOptions()) -> [String] {
    var out: [String] = []
    deepDiff(a, b, "", options, &out)
    return out
}

private func utf8Equal(_ x: String, _ y: String) -> Bool { x.utf8.elementsEqual(y.utf8) }

private func deepDiff(_ a: Any, _ b: Any, _ path: String, _ options: DiffOptions, _ out: inout [String]) {
    guard out.count < 5 else { return }
    func fail(_ message: String) { out.append("\(path.isEmpty ? "<root>" : path): \(message)") }
    guard type(of: a) == type(of: b) else { return fail("type \(type(of: a)) != \(type(of: b))") }

    // Optionals first (`as?` below would unwrap them).
    let ma = Mirror(reflecting: a), mb = Mirror(reflecting: b)
    if ma.displayStyle == .optional {
        switch (ma.children.first, mb.children.first) {
        case (nil, nil): return
        case let (x?, y?): return deepDiff(x.value, y.value, path, options, &out)
        default: return fail("\(a) != \(b)")
        }
    }

    if let x = a as? Double, let y = b as? Double {
        if x.bitPattern != y.bitPattern { fail("\(x) (\(x.bitPattern)) != \(y) (\(y.bitPattern))") }
        return
    }
    if let x = a as? Float, let y = b as? Float {
        if x.bitPattern != y.bitPattern { fail("\(x) (\(x.bitPattern)) != \(y) (\(y.bitPattern))") }
        return
    }
    if let x = a as? String, let y = b as? String {
        if !utf8Equal(x, y) { fail("\(x.debugDescription) != \(y.debugDescription)") }
        return
    }
    if let x = a as? Date, let y = b as? Date {
        let p = x.timeIntervalSinceReferenceDate, q = y.timeIntervalSinceReferenceDate
        if abs(p - q) > options.dateTolerance || (p.rounded() == p && p != q) {
            fail("date \(p) != \(q) (difference \(p - q) s)")
        }
        return
    }
    if let x = a as? Decimal, let y = b as? Decimal {
        if x != y { fail("decimal \(x) != \(y)") }
        return
    }
    if let x = a as? URL, let y = b as? URL {
        if x != y || x.absoluteString != y.absoluteString { fail("url \(x.absoluteString) != \(y.absoluteString)") }
        return
    }
    if let x = a as? UUID, let y = b as? UUID {
        if x != y { fail("\(x) != \(y)") }
        return
    }
    if let x = a as? Data, let y = b as? Data {
        if x != y { fail("data \(Array(x)) != \(Array(y))") }
        return
    }
    if let x = a as? Bool, let y = b as? Bool {
        if x != y { fail("\(x) != \(y)") }
        return
    }
    if let x = a as? any BinaryInteger {
        if "\(x)" != "\(b)" { fail("\(x) != \(b)") }
        return
    }
    if let x = a as? JSONValue, let y = b as? JSONValue {
        jsonDiff(x, y, path, options, &out)
        return
    }

    switch ma.displayStyle {
    case .collection:
        let xs = ma.children.map(\.value), ys = mb.children.map(\.value)
        guard xs.count == ys.count else { return fail("count \(xs.count) != \(ys.count)") }
        for i in xs.indices { deepDiff(xs[i], ys[i], path + "[\(i)]", options, &out) }
    case .set:
        // Order-free: sort each side by a canonical key, then compare in order.
        func sortedElements(_ m: Mirror) -> [Any] {
            m.children.map(\.value).sorted { canonicalKey($0).lexicographicallyPrecedes(canonicalKey($1)) }
        }
        let xs = sortedElements(ma), ys = sortedElements(mb)
        guard xs.count == ys.count else { return fail("set count \(xs.count) != \(ys.count)") }
        for i in xs.indices { deepDiff(xs[i], ys[i], path + "{\(i)}", options, &out) }
    case .dictionary:
        func entries(_ m: Mirror) -> [(key: String, value: Any)] {
            m.children.map { entry in
                let pair = Array(Mirror(reflecting: entry.value).children)
                return (pair[0].value as! String, pair[1].value)
            }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        }
        let xs = entries(ma), ys = entries(mb)
        guard xs.count == ys.count else { return fail("dictionary count \(xs.count) != \(ys.count): \(xs.map(\.key)) vs \(ys.map(\.key))") }
        for (x, y) in zip(xs, ys) {
            guard utf8Equal(x.key, y.key) else { return fail("key \(x.key.debugDescription) != \(y.key.debugDescription)") }
            deepDiff(x.value, y.value, path + "[\(x.key.debugDescription)]", options, &out)
        }
    case .struct, .class:
        func fields(_ m: Mirror) -> [(String, Any)] {
            var result: [(String, Any)] = []
            var mirror: Mirror? = m
            while let current = mirror {
                result = current.children.map { ($0.label ?? "?", $0.value) } + result
                mirror = current.superclassMirror
            }
            return result
        }
        let xs = fields(ma), ys = fields(mb)
        guard xs.count == ys.count else { return fail("field count \(xs.count) != \(ys.count)") }
        for (x, y) in zip(xs, ys) { deepDiff(x.1, y.1, path.isEmpty ? x.0 : path + "." + x.0, options, &out) }
    case .enum:
        if String(reflecting: a) != String(reflecting: b) { fail("\(a) != \(b)") }
    default:
        fail("cannot compare \(type(of: a))")
    }
}

/// A sort key for set elements: the exact UTF-8 of strings, else the reflected description.
private func canonicalKey(_ value: Any) -> [UInt8] {
    if let s = value as? String { return Array(s.utf8) }
    return Array(String(reflecting: value).utf8)
}

private func jsonDiff(_ x: JSONValue, _ y: JSONValue, _ path: String, _ options: DiffOptions, _ out: inout [String]) {
    func fail(_ message: String) { out.append("\(path.isEmpty ? "<root>" : path): \(message)") }
    switch (x, y) {
    case (.null, .null): return
    case let (.bool(p), .bool(q)): if p != q { fail("\(p) != \(q)") }
    case let (.number(p), .number(q)):
        if options.exactJSON {
            if p.text != q.text { fail("number \(p.text) != \(q.text)") }
        } else if p != q {
            // `[String: Any]` holds numbers as NSNumber: Int, UInt64, Double or Decimal. A literal with more
            // digits than Decimal holds (38) can only come back as the nearest Double.
            let inexact = p.decimalValue == nil || q.decimalValue == nil
            if !inexact || p.doubleValue != q.doubleValue { fail("number \(p.text) != \(q.text)") }
        }
    case let (.string(p), .string(q)): if !utf8Equal(p, q) { fail("\(p.debugDescription) != \(q.debugDescription)") }
    case let (.array(p), .array(q)):
        guard p.count == q.count else { return fail("array count \(p.count) != \(q.count)") }
        for i in p.indices { jsonDiff(p[i], q[i], path + "[\(i)]", options, &out) }
    case let (.object(p), .object(q)):
        guard p.count == q.count else { return fail("object count \(p.count) != \(q.count)") }
        if options.exactJSON && options.keyOrder {
            for ((k1, v1), (k2, v2)) in zip(p, q) {
                guard utf8Equal(k1, k2) else { return fail("key \(k1.debugDescription) != \(k2.debugDescription)") }
                jsonDiff(v1, v2, path + "." + k1, options, &out)
            }
        } else {
            for (k, v) in p {
                guard let w = q[k] else { return fail("missing key \(k.debugDescription)") }
                jsonDiff(v, w, path + "." + k, options, &out)
            }
        }
    default:
        fail("\(x) != \(y)")
    }
}

// MARK: - Tests

final class RoundTripTests: XCTestCase {
    /// Fixed seeds so failures reproduce; each test uses its own stream.
    static let seed: UInt64 = 0x5EED_2024_0001

    private func check<M: JSONMappable>(_ original: M, options: EncodingOptions, case n: Int, seed: UInt64,
                                        diff: DiffOptions = DiffOptions(), file: StaticString = #filePath,
                                        line: UInt = #line) -> Data? {
        var diff = diff
        if options.sortedKeys { diff.keyOrder = false }
        let data: Data
        do {
            data = try original.jsonData(options: options)
        } catch {
            XCTFail("seed \(seed) case \(n) \(options): encoding failed: \(error)", file: file, line: line)
            return nil
        }
        // The output is JSON by Foundation's reckoning too.
        if (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) == nil {
            XCTFail("seed \(seed) case \(n): JSONSerialization rejects the output: \(String(decoding: data, as: UTF8.self))",
                    file: file, line: line)
        }
        do {
            let decoded = try M(json: data)
            let differences = deepDiff(original, decoded, options: diff)
            if !differences.isEmpty {
                XCTFail("seed \(seed) case \(n) options \(options): round trip differs:\n  "
                    + differences.joined(separator: "\n  ") + "\njson: \(String(decoding: data, as: UTF8.self))",
                        file: file, line: line)
            }
        } catch {
            XCTFail("seed \(seed) case \(n): decoding the output failed: \(error)\njson: \(String(decoding: data, as: UTF8.self))",
                    file: file, line: line)
        }
        return data
    }

    /// The deep model (every type and nesting), in every output option.
    func testRandomModelsRoundTripExactly() throws {
        let seed = Self.seed
        var g = Gen(seed: seed)
        let optionSets: [EncodingOptions] = [[], [.writesNulls], [.sortedKeys, .prettyPrinted], [.escapesSlashes, .nulls]]
        var failures = 0
        for n in 0..<1_000 {
            let model = RTRoot.random(&g)
            let before = testRun?.failureCount ?? 0
            for options in optionSets { _ = check(model, options: options, case: n, seed: seed) }
            failures += (testRun?.failureCount ?? 0) - before
            if failures > 10 { return XCTFail("stopping after too many failures") }
        }
    }

    /// Many more cases of the scalar model alone (cheap), so every scalar type sees thousands of values.
    func testRandomScalarsRoundTripExactly() {
        let seed = Self.seed &+ 1
        var g = Gen(seed: seed)
        for n in 0..<8_000 {
            let model = RTScalars.random(&g)
            _ = check(model, options: n % 2 == 0 ? [] : [.sortedKeys], case: n, seed: seed)
            if (testRun?.failureCount ?? 0) > 10 { return XCTFail("stopping after too many failures") }
        }
    }

    /// Doubles and floats alone, many of them: bit-exact through the shortest round-trip text.
    func testDoublesAndFloatsBitExact() {
        struct Numbers: JSONMappable { var d: [Double] = []; var f: [Float] = []; var one = 0.0; var maybe: Float? = nil }
        var g = Gen(seed: Self.seed &+ 2)
        for n in 0..<400 {
            var m = Numbers()
            m.d = (0..<100).map { _ in g.double() }
            m.f = (0..<100).map { _ in g.float() }
            m.one = g.double()
            m.maybe = g.optional { $0.float() }
            _ = check(m, options: [], case: n, seed: Self.seed &+ 2)
            if (testRun?.failureCount ?? 0) > 10 { return XCTFail("stopping after too many failures") }
        }
        // Every value is written in its shortest round-trip form (Swift's `description`).
        struct One: JSONMappable { var v = 0.0 }
        for value in Gen.specialDoubles {
            XCTAssertEqual(try One(v: value).jsonString(), "{\"v\":\(value.description)}")
        }
    }

    /// The `JSONValue` and `[String: Any]` forms decode back to the same model.
    func testJSONValueAndJSONObjectFormsRoundTrip() throws {
        let seed = Self.seed &+ 3
        var g = Gen(seed: seed)
        for n in 0..<400 {
            let model = RTRoot.random(&g)
            let value = try model.jsonValue()
            // The value is the parsed form of the bytes.
            XCTAssertEqual(value, try JSONValue(json: try model.jsonData()), "case \(n)")
            let fromValue = try RTRoot(jsonObject: value)
            let d1 = deepDiff(model, fromValue)
            XCTAssert(d1.isEmpty, "seed \(seed) case \(n): jsonValue() round trip differs:\n  " + d1.joined(separator: "\n  "))

            let object = try model.jsonObject()
            XCTAssertTrue(JSONSerialization.isValidJSONObject(object), "case \(n): jsonObject() is not a valid JSONSerialization object")
            let loose = DiffOptions(exactJSON: false)
            let fromObject = try RTRoot(jsonObject: object)
            let d2 = deepDiff(model, fromObject, options: loose)
            XCTAssert(d2.isEmpty, "seed \(seed) case \(n): jsonObject() round trip differs:\n  " + d2.joined(separator: "\n  "))

            let serialized = try JSONSerialization.data(withJSONObject: object)
            let fromSerialized = try RTRoot(json: serialized)
            let d3 = deepDiff(model, fromSerialized, options: loose)
            XCTAssert(d3.isEmpty, "seed \(seed) case \(n): jsonObject() -> JSONSerialization round trip differs:\n  "
                + d3.joined(separator: "\n  "))
            if (testRun?.failureCount ?? 0) > 10 { return XCTFail("stopping after too many failures") }
        }
    }

    /// Top-level `[T]` and `[String: T]`.
    func testTopLevelCollectionsRoundTrip() throws {
        var g = Gen(seed: Self.seed &+ 4)
        for n in 0..<200 {
            let list = g.array(5) { RTScalars.random(&$0) }
            let decodedList = try [RTScalars](json: try list.jsonData())
            let d1 = deepDiff(list, decodedList)
            XCTAssert(d1.isEmpty, "case \(n): [T] differs:\n  " + d1.joined(separator: "\n  "))
            XCTAssertEqual(try JSONValue(json: try list.jsonData()), try list.jsonValue(), "case \(n)")

            let map = g.dictionary(5) { RTLeaf.random(&$0) }
            let decodedMap = try [String: RTLeaf](json: try map.jsonData(options: [.sortedKeys]))
            let d2 = deepDiff(map, decodedMap)
            XCTAssert(d2.isEmpty, "case \(n): [String: T] differs:\n  " + d2.joined(separator: "\n  "))
            let encoder = ModelEncoder(options: [.prettyPrinted])
            XCTAssertTrue(deepDiff(map, try [String: RTLeaf](json: try encoder.encode(map))).isEmpty, "case \(n)")
        }
    }

    /// Dates (default strategy): ISO 8601 in UTC, fraction rounded to the microsecond with trailing zeros
    /// removed; whole seconds come back exactly, others within 1 µs, and writing the decoded date again gives
    /// the same text. Dates made from whole microseconds show exactly those digits.
    func testDatesRoundTripToTheMicrosecond() throws {
        struct When: JSONMappable { var at = Date(timeIntervalSince1970: 0) }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        var rng = SplitMix64(seed: Self.seed &+ 5)
        for n in 0..<5_000 {
            let micros = Int64.random(in: Gen.secondsFrom1900 * 1_000_000..<Gen.secondsTo2100 * 1_000_000, using: &rng)
            let whole = micros >= 0 ? micros / 1_000_000 : (micros - 999_999) / 1_000_000
            let fraction = micros - whole * 1_000_000
            let date = Date(timeIntervalSince1970: Double(micros) / 1e6)
            let text = try When(at: date).jsonString()

            var expectedFraction = ""
            if fraction != 0 {
                var digits = String(fraction)
                digits = String(repeating: "0", count: 6 - digits.count) + digits
                while digits.hasSuffix("0") { digits.removeLast() }
                expectedFraction = "." + digits
            }
            let wholeText = formatter.string(from: Date(timeIntervalSince1970: Double(whole)))   // yyyy-MM-ddTHH:mm:ssZ
            let expected = "{\"at\":\"" + wholeText.dropLast() + expectedFraction + "Z\"}"
            XCTAssertEqual(text, expected, "case \(n): \(micros) µs")

            let back = try When(json: text).at
            XCTAssertLessThanOrEqual(abs(back.timeIntervalSince(date)), 1e-6, "case \(n): \(text)")
            XCTAssertEqual(try When(at: back).jsonString(), text, "case \(n): writing the decoded date again changed it")
            if (testRun?.failureCount ?? 0) > 10 { return XCTFail("stopping after too many failures") }
        }
        // Arbitrary Doubles: within half a microsecond plus rounding.
        for n in 0..<5_000 {
            let seconds = Double.random(in: Double(Gen.secondsFrom1900)..<Double(Gen.secondsTo2100), using: &rng)
            let date = Date(timeIntervalSince1970: seconds)
            let text = try When(at: date).jsonString()
            let back = try When(json: text).at
            XCTAssertLessThanOrEqual(abs(back.timeIntervalSince(date)), 0.5e-6 + 4 * date.timeIntervalSinceReferenceDate.ulp,
                                     "case \(n): \(seconds) -> \(text)")
            XCTAssertEqual(try When(at: back).jsonString(), text, "case \(n)")
            if (testRun?.failureCount ?? 0) > 10 { return XCTFail("stopping after too many failures") }
        }
        // Whole seconds over the whole four-digit year range come back exactly.
        for n in 0..<2_000 {
            let seconds = Double(Int64.random(in: -62_135_596_800...253_402_300_799, using: &rng))   // 0001...9999
            let date = Date(timeIntervalSince1970: seconds)
            let back = try When(json: try When(at: date).jsonData()).at
            XCTAssertEqual(back, date, "case \(n): \(seconds)")
        }
    }

    /// Strings with every kind of scalar, many of them.
    func testStringsRoundTripByteForByte() throws {
        struct Text: JSONMappable { var s = ""; var list: [String] = []; var map: [String: String] = [:] }
        var g = Gen(seed: Self.seed &+ 6)
        for n in 0..<3_000 {
            var m = Text()
            m.s = g.string(maxLength: 40)
            m.list = g.array(3) { $0.string() }
            m.map = g.dictionary(3) { $0.string() }
            for options: EncodingOptions in [[], [.escapesSlashes], [.prettyPrinted, .sortedKeys]] {
                _ = check(m, options: options, case: n, seed: Self.seed &+ 6)
            }
            if (testRun?.failureCount ?? 0) > 10 { return XCTFail("stopping after too many failures") }
        }
        // Every scalar below U+0800 and a sample above, one at a time.
        var all = String.UnicodeScalarView()
        for v in UInt32(0)..<0x800 { all.append(Unicode.Scalar(v)!) }
        for v in stride(from: UInt32(0x800), to: 0x110000, by: 97) where !(0xD800...0xDFFF).contains(v) { all.append(Unicode.Scalar(v)!) }
        let everything = Text(s: String(all), list: all.map { String($0) }, map: [:])
        _ = check(everything, options: [], case: -1, seed: 0)
    }

    /// Nil is omitted by default and written as null with `.writesNulls`; both read back as nil, and
    /// key-path objects whose leaves are all nil are omitted.
    func testOptionalsOmittedOrNull() throws {
        let empty = RTOptionals()
        XCTAssertEqual(try empty.jsonString(), "{}")
        let nulls = try empty.jsonString(options: [.writesNulls, .sortedKeys])
        XCTAssertEqual(nulls, "{\"color\":null,\"data\":null,\"date\":null,\"decimal\":null,\"double\":null,\"flag\":null,"
            + "\"float\":null,\"int\":null,\"int8\":null,\"ints\":null,\"json\":null,\"leaf\":null,\"level\":null,\"map\":null,"
            + "\"string\":null,\"uint64\":null,\"url\":null,\"uuid\":null}")
        XCTAssertTrue(deepDiff(empty, try RTOptionals(json: nulls)).isEmpty)

        // Nil elements of [T?] and nil values of [String: T?] are data: written as null either way.
        struct Holes: JSONMappable { var list: [Int?] = [1, nil, 3]; var map: [String: Int?] = ["a": nil]; var gone: Int? = nil }
        XCTAssertEqual(try Holes().jsonString(options: .sortedKeys), "{\"list\":[1,null,3],\"map\":{\"a\":null}}")
        XCTAssertEqual(try Holes().jsonString(options: [.sortedKeys, .nulls]), "{\"gone\":null,\"list\":[1,null,3],\"map\":{\"a\":null}}")
        let back = try Holes(json: try Holes().jsonData())
        XCTAssertEqual(back.list, [1, nil, 3])
        XCTAssertEqual(back.map.count, 1)
        XCTAssertEqual(back.map["a"], .some(nil))
    }

    /// The comparison itself catches what the round trips must not lose.
    func testComparisonCatchesDifferences() {
        struct Probe: JSONMappable {
            var d = 0.0; var s = ""; var at = Date(timeIntervalSinceReferenceDate: 0.5); var set: Set<String> = []
            var map: [String: Int?] = [:]; var json: JSONValue = .null; var maybe: Int? = nil
        }
        let base = Probe()
        XCTAssertTrue(deepDiff(base, base).isEmpty)
        var p = base; p.d = -0.0
        XCTAssertFalse(deepDiff(base, p).isEmpty, "-0.0 vs 0.0")
        p = base; p.s = "e\u{301}"
        var q = base; q.s = "\u{E9}"
        XCTAssertFalse(deepDiff(p, q).isEmpty, "canonically equivalent strings")
        p = base; p.at = base.at.addingTimeInterval(2e-6)
        XCTAssertFalse(deepDiff(base, p).isEmpty, "2 µs")
        p = base; p.at = Date(timeIntervalSinceReferenceDate: 1)
        q = base; q.at = Date(timeIntervalSinceReferenceDate: 1 + 1e-7)
        XCTAssertFalse(deepDiff(p, q).isEmpty, "whole seconds are exact")
        p = base; p.set = ["a", "b"]
        q = base; q.set = ["a", "c"]
        XCTAssertFalse(deepDiff(p, q).isEmpty, "sets")
        p = base; p.map = ["a": nil]
        XCTAssertFalse(deepDiff(base, p).isEmpty, "nil dictionary value vs absent key")
        p = base; p.json = ["a": 1, "b": 2]
        q = base; q.json = ["b": 2, "a": 1]
        XCTAssertFalse(deepDiff(p, q).isEmpty, "member order")
        XCTAssertTrue(deepDiff(p, q, options: DiffOptions(keyOrder: false)).isEmpty)
        p = base; p.json = .number(JSONNumber(text: "1.0"))
        q = base; q.json = .number(JSONNumber(text: "1"))
        XCTAssertFalse(deepDiff(p, q).isEmpty, "number text")
        p = base; p.maybe = 0
        XCTAssertFalse(deepDiff(base, p).isEmpty, "nil vs 0")
    }

    /// Decimal's extremes: 38-digit significands at both ends of the exponent range, and the 39-digit
    /// significands Decimal also holds (up to 2^128 - 1, as in `Decimal.greatestFiniteMagnitude`).
    func testDecimalExtremes() throws {
        struct Exact: JSONMappable { var d: Decimal = 0 }
        let values: [Decimal] = [
            Decimal(string: "99999999999999999999999999999999999999e127")!,
            Decimal(string: "-99999999999999999999999999999999999999e-128")!,
            Decimal.leastNonzeroMagnitude,
            Decimal(string: "340282366920938463463374607431768211455")!,
            Decimal(string: "95135653803834027709210000000000000000e127")!,    // trailing zeros in the significand
            Decimal.greatestFiniteMagnitude,
            Decimal.leastFiniteMagnitude,
        ]
        for value in values {
            let text = try Exact(d: value).jsonString()
            XCTAssertEqual(text, "{\"d\":\(value.description)}")
            XCTAssertEqual(try? Exact(json: text).d, value, "\(value) does not read back")
        }
    }

    /// A decoded document written back is the same document (field order, numbers, strings).
    func testDecodeEncodeIsIdentityOnCanonicalJSON() throws {
        struct Doc: JSONMappable {
            var id: Int64 = 0; var name = ""; var ratio = 0.0; var tags: [String] = []; var extra: JSONValue = .null
            var nested: RTLeaf? = nil
        }
        let text = #"{"id":-9223372036854775808,"name":"a\"b\\c\u0001 é 😀 /","ratio":1e-07,"tags":["x",""],"#
            + #""extra":{"z":[1.50,-0,1E+400,12345678901234567890123],"a":null,"":{}},"nested":{"id":1,"name":"n","score":-0.0,"tags":[]}}"#
        XCTAssertEqual(try Doc(json: text).jsonString(), text)
    }
}
