// The Codable fuzz target: `ModelDecoder().decode(T.self, from:)` for plain `Decodable` types (the
// Foundation mode: JSONDecoder's behaviour, `DecodingError`s) and `ModelEncoder().encode(_:)`.
//
// Compiled like FuzzRegressionTests.swift (which calls `codable(_:_:)` from `FuzzTargets.run`): into the
// test target as is, and into the fuzzer with `-D FUZZING` (scripts/fuzz lists this file).
//
// For every input, with the default keys and with `.convertFromSnakeCase`, and for each type below:
// - decoding never traps, and anything it throws is a `DecodingError`;
// - a decoded value encoded by `ModelEncoder` decodes back (ModelDecoder, and JSONDecoder too) to the same
//   value, compared field by field (floats bit for bit, strings by their UTF-8 bytes);
// - invalid JSON (what `JSONValue(json:)` rejects) is `DecodingError.dataCorrupted`;
// - for valid JSON, Foundation's `JSONDecoder` (same key strategy) agrees: both decode the same value, or
//   both throw the same `DecodingError` case with the same coding path. Not compared, for the reasons given
//   where they are excluded: invalid JSON (`codable(_:_:)`), inputs JSONDecoder reads as another encoding
//   (`foundationComparable`), the debug descriptions, which member of a Swift dictionary fails first
//   (`unorderedContainers`), the coding path of a number that does not fit, and the disagreements listed
//   in `FoundationDifference` (found by this target, reported, not fixed here).

#if !FUZZING
@testable import ModelMapper
#endif
import Foundation

// MARK: - Codable fuzz types (plain Codable: no JSONMappable conformance)

enum FZCKind: String, Codable { case alpha, beta, gammaRay = "gamma_ray", empty = "" }
enum FZCRank: Int, Codable { case low = -1, zero = 0, high = 100 }
enum FZCByte: UInt8, Codable { case zero = 0, max = 255 }

/// An enum with associated values: synthesized as a keyed container with exactly one key.
enum FZCShape: Codable {
    case circle(radius: Double)
    case rect(w: Int, h: Int)
    case none
}

struct FZCInner: Codable {
    var name: String
    var score: Double?
    var tags: [String]?
}

/// A recursive final class (synthesized Codable).
final class FZCNode: Codable {
    var id: Int
    var label: String?
    var next: FZCNode?
}

/// A class family: the subclass writes its superclass's fields under `super` (`superDecoder()`).
class FZCBase: Codable {
    var id: Int
    var tag: String?
}

final class FZCDerived: FZCBase {
    var extra: [Float]
    var child: FZCDerived?
    private enum CodingKeys: String, CodingKey { case extra, child }

    required init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        extra = try c.decode([Float].self, forKey: .extra)
        child = try c.decodeIfPresent(FZCDerived.self, forKey: .child)
        try super.init(from: c.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(extra, forKey: .extra)
        try c.encodeIfPresent(child, forKey: .child)
        try super.encode(to: c.superEncoder())
    }
}

/// Every kind of property, all optional (so that most JSON objects decode to something).
struct FZCAll: Codable {
    var i: Int?
    var i8: Int8?
    var i16: Int16?
    var i32: Int32?
    var i64: Int64?
    var u: UInt?
    var u8: UInt8?
    var u16: UInt16?
    var u32: UInt32?
    var u64: UInt64?
    var f: Float?
    var d: Double?
    var b: Bool?
    var bools: [Bool]?
    var s: String?
    var date: Date?
    var data: Data?
    var url: URL?
    var kind: FZCKind?
    var rank: FZCRank?
    var byte: FZCByte?
    var shape: FZCShape?
    var inner: FZCInner?
    var inners: [FZCInner]?
    var ints: [Int]?
    var optInts: [Int?]?
    var grid: [[Double]]?
    var floats: [Float]?
    var dict: [String: Int]?
    var innerDict: [String: FZCInner]?
    var intKeyed: [Int: String]?
    var kinds: [FZCKind]?
    var dates: [Date]?
    var blobs: [Data]?
    var node: FZCNode?
    var derived: FZCDerived?
    // camelCase names: with .convertFromSnakeCase they are read from user_name, created_at, ...
    var userName: String?
    var createdAt: Date?
    var homePageURL: URL?        // from snake case "home_page_url" becomes "homePageUrl": never found, as in JSONDecoder
    var isHTTPSecure: Bool?
    var int8Values: [Int8]?
    var uint64Values: [UInt64]?
}

/// Required (non-optional) properties: missing keys and nulls are errors.
struct FZCRequired: Codable {
    var id: Int64
    var name: String
    var values: [UInt16]
    var flag: Bool
    var ratio: Float
    var when: Date
    var kind: FZCKind
    var inner: FZCInner
}

// MARK: - The target

extension FuzzTargets {
    /// Disagreements with JSONDecoder this target found. Each is excused only where it shows (the
    /// comparison goes on for everything else), with one of the regression inputs named.
    enum FoundationDifference: String {
        /// Duplicate object keys: JSONDecoder keeps the first everywhere (its containers are
        /// dictionaries). ModelDecoder also finds the first for a struct's properties, but `allKeys` lists
        /// every occurrence: `[String: V]` (whose `init(from:)` walks `allKeys`) ends with the last value,
        /// and an enum with associated values sees two keys and throws typeMismatch.
        /// codable-duplicate-key-dictionary.json, codable-duplicate-key-enum.json.
        /// Also here (not a ModelDecoder issue): distinct keys naming the same `Int` key of an `[Int: V]`
        /// (`"1"` and `"+1"`): the last in JSONDecoder's `allKeys` order, a hash order, wins there.
        case duplicateKeys
        /// An integral number written with a fraction or an exponent at the 64-bit bounds
        /// (`9223372036854775807.0`, `-9223372036854775808.0`, `1.8446744073709551615e19`): ModelDecoder
        /// decodes it exactly, JSONDecoder throws dataCorrupted ("not valid JSON").
        /// codable-integral-float-at-64-bit-bound.json.
        case integralFloatAtBound
        /// A number written with a fraction or an exponent that Double rounds to an integer: past 2^53
        /// (`922337203685477588.700`, `9007199254740993.0`), with more digits than Double holds
        /// (`0.99999999999999999999`), or too small for it (`9234.9e-3244`). JSONDecoder converts it
        /// through Double and takes the rounded value as the integer; ModelDecoder reads the literal, so it
        /// decodes an integral one exactly (another value past 2^53) and throws dataCorrupted ("not an
        /// integer") for any other. codable-rounded-through-double.json, codable-underflow-to-integer.json.
        case roundedThroughDouble
        /// `null` where a `Bool` is required: JSONDecoder throws typeMismatch ("Expected to decode Bool but
        /// found null instead."; valueNotFound for every other type), ModelDecoder valueNotFound.
        /// codable-null-bool.json.
        case nullBool
        /// `0` with an unsigned one-digit exponent (`0e6`, `0E1`; not `0e0`, `0e12`, `-0e6` or `0e+6`):
        /// valid JSON (RFC 8259; JSONSerialization reads it) that this toolchain's JSONDecoder rejects as
        /// dataCorrupted ("not valid JSON") — Foundation's bug. ModelDecoder decodes 0.
        /// codable-zero-with-exponent.json.
        case zeroWithExponent
    }

    /// The differences of `FoundationDifference` that the document shows.
    static func foundationDifferences(_ bytes: [UInt8]) -> Set<FoundationDifference> {
        var found: Set<FoundationDifference> = []
        if hasDuplicateKeys(bytes) { found.insert(.duplicateKeys) }
        guard let document = try? decodersReading(bytes).get() else { return found }
        func walk(_ value: JSONValue) {
            switch value {
            case .number(let n):
                let text = n.text
                let floating = text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
                let mantissa = text.prefix { $0 != "e" && $0 != "E" }
                if floating, let d = Double(text) {
                    if d.magnitude >= 9.2e18 {
                        found.insert(.integralFloatAtBound)
                    } else if d == d.rounded() {
                        let significant = mantissa.filter(\.isNumber).drop { $0 == "0" }.reversed().drop { $0 == "0" }
                        if d.magnitude >= 0x1p53 || significant.count > 15 || (d == 0 && !significant.isEmpty) {
                            found.insert(.roundedThroughDouble)
                        }
                    }
                }
                if text.count == 3, text.hasPrefix("0"), text.dropFirst().first.map({ $0 == "e" || $0 == "E" }) == true,
                   text.last.map({ $0 >= "1" && $0 <= "9" }) == true {
                    found.insert(.zeroWithExponent)
                }
            case .array(let items): items.forEach(walk)
            case .object(let members):
                let ints = members.keys.compactMap { Int($0) }
                if Set(ints).count != ints.count { found.insert(.duplicateKeys) }
                members.forEach { walk($0.1) }
            default: break
            }
        }
        walk(document)
        return found
    }

    /// Runs the Codable target on `bytes`, recording what each case did ("ok" or the DecodingError case).
    static func codable(_ bytes: [UInt8], _ outcomes: inout [String: String]) throws(FuzzFailure) {
        // Invalid JSON is not compared with JSONDecoder: it validates numbers and string contents only in
        // the values it decodes, so it decodes `{"i":1,"x":-}`, `{"i":1,"x":01}` or `{"i":1,"x":"\x"}` into
        // FZCAll (and a lone `-` or `"\ud800"` into a typeMismatch), although both decoders are documented
        // to throw dataCorrupted for invalid JSON. ModelDecoder must throw dataCorrupted, except for invalid
        // UTF-8 that yajl lets through (`isTextError`), which is found only in the strings it makes.
        var parses = true, valid = true
        if case .failure(let error) = decodersReading(bytes) {
            parses = false
            valid = error.isTextError
        }
        let comparable = parses && foundationComparable(bytes)
        for (keysName, keys) in [("default", JSONDecoder.KeyDecodingStrategy.useDefaultKeys), ("snake", .convertFromSnakeCase)] {
            try codableCase(FZCAll.self, bytes, keysName, keys, valid, comparable, &outcomes)
            try codableCase(FZCRequired.self, bytes, keysName, keys, valid, comparable, &outcomes)
            try codableCase([FZCInner].self, bytes, keysName, keys, valid, comparable, &outcomes)
            try codableCase([String: FZCShape].self, bytes, keysName, keys, valid, comparable, &outcomes)
            try codableCase(FZCProfile.self, bytes, keysName, keys, valid, comparable, &outcomes)
        }
        // Class instances, a shared class default, two threads at once (FuzzSharingTarget.swift)
        try codableSharing(bytes, &outcomes)
    }

    /// The coding paths (rendered as by `renderedPath`) of the Swift dictionaries in each type: JSONDecoder
    /// decodes their members in hash order, so when two members fail, which error it throws is unspecified
    /// (and changes from run to run). An error inside one of them is compared only as "inside it".
    static func unorderedContainers(_ type: Any.Type) -> [String] {
        if type == FZCAll.self { return [".dict", ".innerDict", ".intKeyed"] }
        if type == [String: FZCShape].self { return [""] }
        if type == FZCProfile.self { return [".byKey"] }
        return []
    }

    /// Whether JSONDecoder's answer for `bytes` is comparable with ModelDecoder's.
    static func foundationComparable(_ bytes: [UInt8]) -> Bool {
        // Both detect UTF-16 and UTF-32 and skip a BOM, with two deliberate differences (Codable article):
        // ModelDecoder reads the UTF-32LE BOM, and rejects a last code unit cut short, which JSONDecoder drops.
        let (encoding, bomLength) = bytes.withUnsafeBytes { InputEncoding.detect($0) }
        if bytes.starts(with: [0xFF, 0xFE, 0, 0]) { return false }
        return (bytes.count - bomLength) % encoding.unitSize == 0
    }

    private static func codableCase<T: Codable>(
        _ type: T.Type, _ bytes: [UInt8], _ keysName: String, _ keys: JSONDecoder.KeyDecodingStrategy,
        _ valid: Bool, _ comparable: Bool, _ outcomes: inout [String: String]
    ) throws(FuzzFailure) {
        let name = "Codable \(T.self).\(keysName)"
        var decoder = ModelDecoder()
        decoder.keyDecodingStrategy = keys
        let ours: Result<T, DecodingError>
        do {
            ours = .success(try decoder.decode(T.self, from: bytes))
        } catch let error as DecodingError {
            ours = .failure(error)
        } catch {
            throw FuzzFailure("\(name) threw a non-DecodingError: \(Swift.type(of: error)): \(error)")
        }

        switch ours {
        case .failure(let error):
            outcomes[name] = caseName(error)
            if !valid, caseName(error) != "dataCorrupted" {
                throw FuzzFailure("\(name): invalid JSON, but ModelDecoder throws \(caseName(error)): \(error)")
            }
        case .success(let value):
            outcomes[name] = "ok"
            if !valid { throw FuzzFailure("\(name): ModelDecoder decodes a document JSONValue rejects") }
            try codableRoundTrip(value, name)
        }

        guard comparable else { return }
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = keys
        let theirs: Result<T, any Error>
        do {
            theirs = .success(try foundation.decode(T.self, from: Data(bytes)))
        } catch {
            theirs = .failure(error)
        }
        switch (ours, theirs) {
        case (.success(let mine), .success(let other)):
            if let diff = onLargeStack({ deepDiff(mine, other, "", 0) }) {
                if !foundationDifferences(bytes).isDisjoint(with: [.duplicateKeys, .roundedThroughDouble]) { return }
                throw FuzzFailure("\(name): ModelDecoder and JSONDecoder decode differently: \(diff)")
            }
        case (.success, .failure(let other)):
            let known = foundationDifferences(bytes)
            if !known.isEmpty, let other = other as? DecodingError, case .dataCorrupted(let context) = other,
               context.codingPath.isEmpty, context.debugDescription == "The given data was not valid JSON." {
                return
            }
            if known.contains(.duplicateKeys) { return }
            throw FuzzFailure("\(name): ModelDecoder decodes, JSONDecoder throws \(other)")
        case (.failure(let mine), .success):
            let known = foundationDifferences(bytes)
            if known.contains(.duplicateKeys) { return }
            if known.contains(.roundedThroughDouble), case .dataCorrupted = mine { return }
            throw FuzzFailure("\(name): JSONDecoder decodes, ModelDecoder throws \(mine)")
        case (.failure(let mine), .failure(let other)):
            guard let other = other as? DecodingError else {
                throw FuzzFailure("\(name): JSONDecoder threw a non-DecodingError: \(other)")
            }
            // The debug descriptions differ by design (ModelMapper's wording, with the line and column
            // at the end): compared are the case and the coding path.
            let (mineCase, minePath) = (caseName(mine), renderedPath(mine))
            let (otherCase, otherPath) = (caseName(other), renderedPath(other))
            if unorderedContainers(T.self).contains(where: { inside(minePath, $0) && inside(otherPath, $0) }) { return }
            // A number that does not fit the type (65807 as UInt16, 1.5 as Int8, 1e39 as Float, 1e400 as
            // Double): this Foundation throws dataCorrupted "The given data was not valid JSON." with an empty
            // coding path and no underlying error, for a valid document; ModelDecoder throws dataCorrupted
            // at the number's path. Only the case is compared.
            if mineCase == "dataCorrupted" && otherCase == "dataCorrupted" && otherPath.isEmpty,
               case .dataCorrupted(let context) = other, context.debugDescription == "The given data was not valid JSON." {
                return
            }
            if mineCase == "valueNotFound", case .typeMismatch(let type, _) = other, type == Bool.self,
               minePath == otherPath {
                return   // FoundationDifference.nullBool
            }
            if mineCase != otherCase || minePath != otherPath {
                let known = foundationDifferences(bytes)
                if known.contains(.duplicateKeys) { return }
                // A number only one of them rejects (the number differences): JSONDecoder stops there with its
                // root "not valid JSON", or ModelDecoder with dataCorrupted, and the other goes on to fail at
                // another value (`9223372036854775807.0` as an Int64 beside a missing key: ModelDecoder reads
                // the number and throws keyNotFound). codable-underflow-then-missing-key.json was such a case
                // until a Float that would read as 0 became out of range for ModelDecoder too.
                if !known.isDisjoint(with: [.integralFloatAtBound, .roundedThroughDouble, .zeroWithExponent]) {
                    if case .dataCorrupted(let context) = other, otherPath.isEmpty,
                       context.debugDescription == "The given data was not valid JSON." { return }
                    if mineCase == "dataCorrupted" { return }
                }
                throw FuzzFailure("\(name): ModelDecoder throws \(mineCase) at \(minePath.debugDescription), JSONDecoder \(otherCase) at \(otherPath.debugDescription)\n  ModelDecoder: \(mine)\n  JSONDecoder: \(other)")
            }
        }
    }

    /// A decoded value, encoded by ModelEncoder, decodes back to itself (default keys on both sides: the
    /// snake-case conversion does not round-trip every name, in JSONDecoder/JSONEncoder either), with
    /// ModelDecoder and with JSONDecoder.
    private static func codableRoundTrip<T: Codable>(_ value: T, _ name: String) throws(FuzzFailure) {
        let encoded: Data
        do {
            encoded = try ModelEncoder().encode(value)
        } catch {
            throw FuzzFailure("\(name): ModelEncoder cannot encode a decoded value: \(error)")
        }
        let text = String(decoding: encoded, as: UTF8.self)
        do {
            let back = try ModelDecoder().decode(T.self, from: encoded)
            if let diff = onLargeStack({ deepDiff(value, back, "", 0) }) { throw FuzzFailure("\(name): decode(encode(v)) != v: \(diff)\n  json: \(text)") }
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("\(name): ModelDecoder cannot decode ModelEncoder's output: \(error)\n  json: \(text)")
        }
        do {
            let back = try JSONDecoder().decode(T.self, from: encoded)
            if let diff = onLargeStack({ deepDiff(value, back, "", 0) }) {
                throw FuzzFailure("\(name): JSONDecoder reads ModelEncoder's output differently: \(diff)\n  json: \(text)")
            }
        } catch let failure as FuzzFailure {
            throw failure
        } catch {
            throw FuzzFailure("\(name): JSONDecoder cannot decode ModelEncoder's output: \(error)\n  json: \(text)")
        }
    }

    final class LargeStackJob<R>: @unchecked Sendable {
        var body: (() -> R)?
        var result: R?
    }

    /// Runs `body` on a thread with a 256 MB stack: the reflection-based `deepDiff` recurses several frames
    /// per level and overflows a normal stack on values nested close to the depth limit (the decoders
    /// themselves run on the caller's thread).
    static func onLargeStack<R>(_ body: @escaping () -> R) -> R {
        let job = LargeStackJob<R>()
        job.body = body
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            job.result = job.body?()
            job.body = nil
            done.signal()
        }
        thread.stackSize = 256 << 20
        thread.start()
        done.wait()
        return job.result!
    }

    /// Whether rendered path `path` is `container` or inside it.
    static func inside(_ path: String, _ container: String) -> Bool {
        guard path.hasPrefix(container) else { return false }
        let rest = path.dropFirst(container.count)
        return rest.isEmpty || rest.first == "." || rest.first == "["
    }

    static func caseName(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch: return "typeMismatch"
        case .valueNotFound: return "valueNotFound"
        case .keyNotFound: return "keyNotFound"
        case .dataCorrupted: return "dataCorrupted"
        @unknown default: return "unknown"
        }
    }

    /// The coding path (with the missing key for `keyNotFound`), keys by string value, indices as `[n]`.
    static func renderedPath(_ error: DecodingError) -> String {
        let path: [any CodingKey]
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): path = c.codingPath
        case .keyNotFound(let key, let c): path = c.codingPath + [key]
        @unknown default: path = []
        }
        return path.map { key in
            if let n = key.intValue, key.stringValue == "Index \(n)" { return "[\(n)]" }
            return "." + key.stringValue
        }.joined()
    }
}
