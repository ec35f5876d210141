import XCTest
import Foundation
@testable import ModelMapper

// Value conversions (DESIGN.md section 4): every row of the conversion table, in `.lenient` and `.strict`,
// for every property kind, as a plain property, as an Optional, as an element of `[T]` and `[T?]` and as a
// value of `[String: T]`. Plain String/Int/Int64/Double/Bool properties go through the decoding loop's
// built-in fast path, everything else (and every collection element) through the codecs: the matrix checks
// that both agree, including on error kinds, paths and columns. Every row also goes through the other paths
// that share the codecs (`otherPaths`): a `Decodable` value inside a model, dictionary input and a JSON
// Lines record, which must give the same value or the same error kind, message, path and column.

// MARK: - Fixtures

fileprivate protocol CVDefault { static var cvZero: Self { get } }

extension Bool: CVDefault { fileprivate static var cvZero: Bool { false } }
extension Int: CVDefault { fileprivate static var cvZero: Int { 0 } }
extension Int8: CVDefault { fileprivate static var cvZero: Int8 { 0 } }
extension Int16: CVDefault { fileprivate static var cvZero: Int16 { 0 } }
extension Int32: CVDefault { fileprivate static var cvZero: Int32 { 0 } }
extension Int64: CVDefault { fileprivate static var cvZero: Int64 { 0 } }
extension UInt: CVDefault { fileprivate static var cvZero: UInt { 0 } }
extension UInt8: CVDefault { fileprivate static var cvZero: UInt8 { 0 } }
extension UInt16: CVDefault { fileprivate static var cvZero: UInt16 { 0 } }
extension UInt32: CVDefault { fileprivate static var cvZero: UInt32 { 0 } }
extension UInt64: CVDefault { fileprivate static var cvZero: UInt64 { 0 } }
extension Float: CVDefault { fileprivate static var cvZero: Float { 0 } }
extension Double: CVDefault { fileprivate static var cvZero: Double { 0 } }
extension Decimal: CVDefault { fileprivate static var cvZero: Decimal { 0 } }
extension String: CVDefault { fileprivate static var cvZero: String { "" } }
extension URL: CVDefault { fileprivate static var cvZero: URL { URL(string: "about:blank")! } }
extension UUID: CVDefault { fileprivate static var cvZero: UUID { UUID(uuidString: "00000000-0000-0000-0000-000000000000")! } }
extension TimeZone: CVDefault { fileprivate static var cvZero: TimeZone { TimeZone(identifier: "GMT")! } }
extension Data: CVDefault { fileprivate static var cvZero: Data { Data() } }
extension Date: CVDefault { fileprivate static var cvZero: Date { Date(timeIntervalSince1970: 0) } }
extension Optional: CVDefault where Wrapped: CVDefault { fileprivate static var cvZero: Wrapped? { nil } }
extension Array: CVDefault { fileprivate static var cvZero: [Element] { [] } }

fileprivate enum CVStringEnum: String, CVDefault, Equatable, Hashable {
    case alpha, beta, one = "1"
    static var cvZero: CVStringEnum { .alpha }
}

fileprivate enum CVIntEnum: Int, CVDefault, Equatable, Hashable {
    case zero = 0, one = 1, two = 2
    static var cvZero: CVIntEnum { .zero }
}

fileprivate struct CVInner: JSONMappable, CVDefault, Equatable, Hashable {
    var x = 0
    var s = ""
    static var cvZero: CVInner { CVInner() }
}

/// One property `v` of type `T`.
fileprivate struct CVBox<T: CVDefault>: JSONMappable {
    var v: T = .cvZero
    init() {}
}

fileprivate struct CVArrayBox<T>: JSONMappable {
    var v: [T] = []
    init() {}
}

fileprivate struct CVSetBox<T: Hashable>: JSONMappable {
    var v: Set<T> = []
    init() {}
}

fileprivate struct CVDictBox<T>: JSONMappable {
    var v: [String: T] = [:]
    init() {}
}

fileprivate struct CVContiguousBox<T>: JSONMappable {
    var v: ContiguousArray<T> = []
    init() {}
}

/// The expected result of decoding one JSON literal.
fileprivate enum CVOutcome<T: Equatable>: Equatable, CustomStringConvertible {
    case value(T)
    case error(MappingError.Kind)

    static func v(_ value: T) -> CVOutcome<T> { .value(value) }
    static func e(_ kind: MappingError.Kind) -> CVOutcome<T> { .error(kind) }

    func map<U: Equatable>(_ transform: (T) -> U) -> CVOutcome<U> {
        switch self {
        case .value(let v): return .value(transform(v))
        case .error(let k): return .error(k)
        }
    }

    var description: String {
        switch self {
        case .value(let v): return "value(\(v))"
        case .error(let k): return "error(.\(k))"
        }
    }
}

fileprivate let tm = MappingError.Kind.typeMismatch
fileprivate let iv = MappingError.Kind.invalidValue

/// Decodes `json` as `M` and returns the extracted value or the error (with the error itself).
fileprivate func cvDecode<M: JSONMappable, R: Equatable>(
    _: M.Type, _ json: String, _ options: DecodingOptions, _ extract: (M) -> R
) -> (CVOutcome<R>, MappingError?) {
    do {
        let model = try M(json: json, options: options)
        return (.value(extract(model)), nil)
    } catch let error as MappingError {
        return (.error(error.kind), error)
    } catch {
        XCTFail("not a MappingError: \(error)")
        return (.error(.unsupportedType), nil)
    }
}

fileprivate func cvCompare<R: Equatable>(
    _ got: (CVOutcome<R>, MappingError?), _ expected: CVOutcome<R>, path: String, column: Int, what: String,
    file: StaticString, line: UInt
) {
    XCTAssertEqual(got.0, expected, what, file: file, line: line)
    if case .error = expected, let error = got.1 {
        XCTAssertEqual(error.path, path, "path, " + what, file: file, line: line)
        XCTAssertEqual(error.line, 1, "line, " + what, file: file, line: line)
        XCTAssertEqual(error.column, column, "column, " + what, file: file, line: line)
        XCTAssertEqual(error.offset, column - 1, "offset, " + what, file: file, line: line)
    }
}

/// Checks one JSON literal against one property type in both modes, as `T`, `T?`, `[T]`, `[T?]` and
/// `[String: T]`. `strict` defaults to `lenient`; `optional` overrides the expectation for `T?` and `[T?]`.
fileprivate func row<T: CVDefault & Equatable>(
    _: T.Type, _ literal: String, _ lenient: CVOutcome<T>, _ strict: CVOutcome<T>? = nil,
    optional: CVOutcome<T?>? = nil, file: StaticString = #filePath, line: UInt = #line
) {
    for (name, options, expected) in [("lenient", DecodingOptions.lenient, lenient),
                                      ("strict", DecodingOptions.strict, strict ?? lenient)] {
        let what = "\(literal) into \(T.self), \(name)"
        let plainJSON = #"{"v":\#(literal)}"#
        let arrayJSON = #"{"v":[\#(literal)]}"#
        let dictJSON = #"{"v":{"k":\#(literal)}}"#
        let optionalExpected: CVOutcome<T?> = optional ?? expected.map { Optional($0) }

        cvCompare(cvDecode(CVBox<T>.self, plainJSON, options) { $0.v }, expected,
                  path: "v", column: 6, what: what, file: file, line: line)
        cvCompare(cvDecode(CVBox<T?>.self, plainJSON, options) { $0.v }, optionalExpected,
                  path: "v", column: 6, what: what + " (Optional)", file: file, line: line)
        cvCompare(cvDecode(CVArrayBox<T>.self, arrayJSON, options) { $0.v }, expected.map { [$0] },
                  path: "v[0]", column: 7, what: what + " (array element)", file: file, line: line)
        cvCompare(cvDecode(CVArrayBox<T?>.self, arrayJSON, options) { $0.v }, optionalExpected.map { [$0] },
                  path: "v[0]", column: 7, what: what + " (Optional array element)", file: file, line: line)
        cvCompare(cvDecode(CVDictBox<T>.self, dictJSON, options) { $0.v }, expected.map { ["k": $0] },
                  path: "v.k", column: 11, what: what + " (dictionary value)", file: file, line: line)
        otherPaths(T.self, plainJSON, options, expected, plain: cvDecode(CVBox<T>.self, plainJSON, options) { $0.v }.1,
                   what: what, file: file, line: line)
    }
}

// MARK: - The same row through every path

/// A `Decodable` value holding the property: decoded by the Codable bridge, which must apply the model's
/// options and the same codecs.
fileprivate struct CVCodable<T: Decodable>: Decodable {
    var v: T
}

fileprivate struct CVCodableField<T: Decodable & CVDefault>: JSONMappable {
    var w: CVCodable<T>? = nil
    init() {}
}

/// Checks one literal (as `{"v":literal}`) through the paths other than a plain property — a `Decodable`
/// struct inside a model, dictionary input (a ``JSONValue``), a JSON Lines record — against the plain
/// property's outcome: the same value, or the same error kind and message at the same column, with the
/// path as that path writes it.
fileprivate func otherPaths<T: CVDefault & Equatable>(
    _: T.Type, _ json: String, _ options: DecodingOptions, _ expected: CVOutcome<T>, plain: MappingError?,
    what: String, file: StaticString, line: UInt
) {
    func check(_ got: (CVOutcome<T>, MappingError?), path: String, columnShift: Int?, _ column: String) {
        XCTAssertEqual(got.0, expected, "\(what) [\(column)]", file: file, line: line)
        guard let error = got.1, let plain else { return }
        XCTAssertEqual(error.message, plain.message, "message, \(what) [\(column)]", file: file, line: line)
        XCTAssertEqual(error.path, path, "path, \(what) [\(column)]", file: file, line: line)
        if let columnShift {
            XCTAssertEqual(error.line, plain.line, "line, \(what) [\(column)]", file: file, line: line)
            XCTAssertEqual(error.column, plain.column.map { $0 + columnShift }, "column, \(what) [\(column)]",
                           file: file, line: line)
        }
    }
    func outcome(_ body: () throws -> T) -> (CVOutcome<T>, MappingError?) {
        do { return (.value(try body()), nil) }
        catch let error as MappingError { return (.error(error.kind), error) }
        catch { XCTFail("not a MappingError: \(error), \(what)", file: file, line: line); return (.error(.unsupportedType), nil) }
    }

    // Inside a Decodable: {"w":{"v":literal}}, five columns to the right.
    if let decodable = T.self as? any (Decodable & CVDefault & Equatable).Type {
        func open<D: Decodable & CVDefault & Equatable>(_: D.Type) {
            let got = outcome {
                let model = try CVCodableField<D>(json: #"{"w":\#(json)}"#, options: options)
                return model.w!.v as! T
            }
            check(got, path: "w.v", columnShift: 5, "inside a Decodable")
        }
        open(decodable)
    }
    // Dictionary input: no positions.
    check(outcome { try CVBox<T>(jsonObject: try JSONValue(json: json), options: options).v },
          path: "v", columnShift: nil, "dictionary input")
    // A JSON Lines record: the record index prefixes the path.
    check(outcome {
        var records = JSONLines<CVBox<T>>(bytes: Array((json + "\n").utf8), options: options).makeSyncIterator()
        guard let model = try records.next() else { throw MappingError(.syntax, "no record") }
        return model.v
    }, path: "[0].v", columnShift: 0, "JSON Lines record")
}

/// Literals no scalar accepts: containers.
fileprivate func containersRejected<T: CVDefault & Equatable>(_: T.Type, file: StaticString = #filePath, line: UInt = #line) {
    row(T.self, "[]", .e(tm), file: file, line: line)
    row(T.self, "[1]", .e(tm), file: file, line: line)
    row(T.self, "{}", .e(tm), file: file, line: line)
    row(T.self, #"{"a":1}"#, .e(tm), file: file, line: line)
}

/// JSON null: a plain property keeps its value in lenient mode and is a `.typeMismatch` in strict mode
/// (issue 43.2: JSONDecoder's valueNotFound), an Optional becomes nil, `[T]` rejects a null element,
/// `[T?]` keeps it as nil, `[String: T]` rejects a null value.
fileprivate func nullHandling<T: CVDefault & Equatable>(_: T.Type, sample: T, file: StaticString = #filePath, line: UInt = #line) {
    for options in [DecodingOptions.lenient, .strict] {
        do {
            var plain = CVBox<T>()
            plain.v = sample
            if options.conversion == .lenient {
                try plain.update(json: #"{"v":null}"#, options: options)
                XCTAssertEqual(plain.v, sample, "null keeps a non-Optional \(T.self)", file: file, line: line)
                XCTAssertEqual(try CVBox<T>(json: #"{"v":null}"#, options: options).v, T.cvZero, file: file, line: line)
            } else {
                cvCompare(cvDecode(CVBox<T>.self, #"{"v":null}"#, options) { $0.v }, .e(tm),
                          path: "v", column: 6, what: "null into a non-Optional \(T.self), strict", file: file, line: line)
            }
            try plain.update(json: #"{"other":1}"#, options: options)
            XCTAssertEqual(plain.v, sample, "an absent key keeps \(T.self)", file: file, line: line)

            var optional = CVBox<T?>()
            optional.v = sample
            try optional.update(json: #"{"other":1}"#, options: options)
            XCTAssertEqual(optional.v, sample, "an absent key keeps \(T.self)?", file: file, line: line)
            try optional.update(json: #"{"v":null}"#, options: options)
            XCTAssertNil(optional.v, "null into \(T.self)?", file: file, line: line)

            XCTAssertEqual(try CVArrayBox<T?>(json: #"{"v":[null]}"#, options: options).v, [nil], file: file, line: line)
            XCTAssertEqual(try CVDictBox<T?>(json: #"{"v":{"k":null}}"#, options: options).v, ["k": nil], file: file, line: line)
        } catch {
            XCTFail("\(T.self): \(error)", file: file, line: line)
        }
        cvCompare(cvDecode(CVArrayBox<T>.self, #"{"v":[null]}"#, options) { $0.v }, .e(tm),
                  path: "v[0]", column: 7, what: "null element in [\(T.self)]", file: file, line: line)
        cvCompare(cvDecode(CVDictBox<T>.self, #"{"v":{"k":null}}"#, options) { $0.v }, .e(tm),
                  path: "v.k", column: 11, what: "null value in [String: \(T.self)]", file: file, line: line)
    }
}

/// Rows shared by every integer width.
fileprivate func integerRows<T: FixedWidthInteger & CVDefault>(
    _: T.Type, max: String, overMax: String, min: String, underMin: String,
    file: StaticString = #filePath, line: UInt = #line
) {
    row(T.self, "42", .v(42), file: file, line: line)
    row(T.self, "0", .v(0), file: file, line: line)
    row(T.self, "-0", .v(0), file: file, line: line)
    row(T.self, "127", .v(127), file: file, line: line)
    // floats with a zero fraction: lenient only
    row(T.self, "2.0", .v(2), .e(iv), file: file, line: line)
    row(T.self, "1e2", .v(100), .e(iv), file: file, line: line)
    row(T.self, "1.00E1", .v(10), .e(iv), file: file, line: line)
    // a fraction is never dropped
    row(T.self, "1.5", .e(iv), file: file, line: line)
    row(T.self, "0.1", .e(iv), file: file, line: line)
    row(T.self, "1e-1", .e(iv), file: file, line: line)
    // decimal strings: lenient only
    row(T.self, #""100""#, .v(100), .e(tm), file: file, line: line)
    row(T.self, #"" 42 ""#, .v(42), .e(tm), file: file, line: line)
    row(T.self, #""\t7\n""#, .v(7), .e(tm), file: file, line: line)   // escaped whitespace is whitespace
    row(T.self, #""1.5""#, .e(iv), .e(tm), file: file, line: line)
    row(T.self, #""12abc""#, .e(iv), .e(tm), file: file, line: line)
    row(T.self, #""abc""#, .e(iv), .e(tm), file: file, line: line)
    row(T.self, #""""#, .e(iv), .e(tm), file: file, line: line)
    row(T.self, #"" ""#, .e(iv), .e(tm), file: file, line: line)
    row(T.self, #""0x10""#, .e(iv), .e(tm), file: file, line: line)
    // Booleans are not integers
    row(T.self, "true", .e(tm), file: file, line: line)
    row(T.self, "false", .e(tm), file: file, line: line)
    containersRejected(T.self, file: file, line: line)
    // range
    row(T.self, max, .v(T.max), file: file, line: line)
    row(T.self, min, .v(T.min), file: file, line: line)
    row(T.self, overMax, .e(iv), file: file, line: line)
    row(T.self, underMin, .e(iv), file: file, line: line)
    row(T.self, "\"\(overMax)\"", .e(iv), .e(tm), file: file, line: line)
    row(T.self, "\"\(max)\"", .v(T.max), .e(tm), file: file, line: line)
    row(T.self, "1e30", .e(iv), file: file, line: line)
    row(T.self, "-1e30", .e(iv), file: file, line: line)
    row(T.self, "123456789012345678901234567890", .e(iv), file: file, line: line)
    if T.isSigned {
        row(T.self, "-42", .v(-42), file: file, line: line)
        row(T.self, #""-42""#, .v(-42), .e(tm), file: file, line: line)
    } else {
        row(T.self, "-1", .e(iv), file: file, line: line)
        row(T.self, #""-1""#, .e(iv), .e(tm), file: file, line: line)
    }
    nullHandling(T.self, sample: 7, file: file, line: line)
}

// MARK: - Tests

final class ConversionTests: XCTestCase {

    // MARK: Bool

    /// Three cases where the old JSONValue bridge and the codecs disagreed: a `Decodable` value inside a
    /// model now gives exactly what a plain property gives.
    func testDecodableInsideAModelFollowsThePlainPropertyRules() throws {
        struct N: Decodable { var n: Int }
        struct WrapsN: JSONMappable { var w: N? = nil }
        struct PlainN: JSONMappable { var n = 0 }
        // 1e30 into Int: one message ("out of range"), not two.
        let plain = try XCTUnwrap(mappingError { try PlainN(json: #"{"n": 1e30}"#) })
        let inside = try XCTUnwrap(mappingError { try WrapsN(json: #"{"w": {"n": 1e30}}"#) })
        XCTAssertEqual(inside.kind, plain.kind)
        XCTAssertEqual(inside.message, plain.message)
        XCTAssertEqual(inside.path, "w.n")

        // A UUID with surrounding spaces: the same outcome both ways, in both modes.
        struct U: Decodable { var u: UUID? }
        struct WrapsU: JSONMappable { var w: U? = nil }
        struct PlainU: JSONMappable { var u: UUID? = nil }
        let spaced = #"" 123e4567-e89b-12d3-a456-426614174000 ""#
        let plainUUID = try PlainU(json: #"{"u": \#(spaced)}"#).u
        XCTAssertEqual(plainUUID, UUID(uuidString: "123e4567-e89b-12d3-a456-426614174000"))
        XCTAssertEqual(try WrapsU(json: #"{"w": {"u": \#(spaced)}}"#).w?.u, plainUUID)
        XCTAssertEqual(try WrapsU(json: #"{"w": {"u": \#(spaced)}}"#, options: .strict).w?.u,
                       try PlainU(json: #"{"u": \#(spaced)}"#, options: .strict).u)

        // The position of a bad member inside the Decodable value: the member's value, not the value's start.
        let positioned = try XCTUnwrap(mappingError { try WrapsN(json: #"{"w": {"n": "x"}}"#) })
        XCTAssertEqual(positioned.path, "w.n")
        XCTAssertEqual(positioned.line, 1)
        XCTAssertEqual(positioned.column, 13)
    }

    func testBool() {
        row(Bool.self, "true", .v(true))
        row(Bool.self, "false", .v(false))
        // numbers 0 and 1: lenient only; other numbers are not Booleans
        row(Bool.self, "1", .v(true), .e(tm))
        row(Bool.self, "0", .v(false), .e(tm))
        row(Bool.self, "2", .e(iv), .e(tm))
        row(Bool.self, "-1", .e(iv), .e(tm))
        row(Bool.self, "0.5", .e(iv), .e(tm))
        // strings true/false/yes/no/1/0 in any case: lenient only
        for word in ["true", "TRUE", "True", "yes", "YES", "Yes", "1", " true "] {
            row(Bool.self, "\"\(word)\"", .v(true), .e(tm))
        }
        for word in ["false", "FALSE", "fAlSe", "no", "NO", "No", "0", " no "] {
            row(Bool.self, "\"\(word)\"", .v(false), .e(tm))
        }
        for word in ["", "maybe", "y", "n", "2", "on", "off", "tr ue", "n o", "yes!", "truetrue", "\\u0000yes", "ｙｅｓ"] {
            row(Bool.self, "\"\(word)\"", .e(iv), .e(tm))
        }
        containersRejected(Bool.self)
        nullHandling(Bool.self, sample: true)
    }

    // MARK: Integers

    func testInt() {
        integerRows(Int.self, max: "9223372036854775807", overMax: "9223372036854775808",
                    min: "-9223372036854775808", underMin: "-9223372036854775809")
    }

    func testInt8() {
        integerRows(Int8.self, max: "127", overMax: "128", min: "-128", underMin: "-129")
        // the issue's example
        row(Int8.self, "300", .e(iv))
        row(Int8.self, #""300""#, .e(iv), .e(tm))
    }

    func testInt16() {
        integerRows(Int16.self, max: "32767", overMax: "32768", min: "-32768", underMin: "-32769")
    }

    func testInt32() {
        integerRows(Int32.self, max: "2147483647", overMax: "2147483648", min: "-2147483648", underMin: "-2147483649")
    }

    func testInt64() {
        integerRows(Int64.self, max: "9223372036854775807", overMax: "9223372036854775808",
                    min: "-9223372036854775808", underMin: "-9223372036854775809")
        row(Int64.self, "9007199254740993", .v(9007199254740993))   // not representable as Double
    }

    func testUInt() {
        integerRows(UInt.self, max: "18446744073709551615", overMax: "18446744073709551616", min: "0", underMin: "-1")
    }

    func testUInt8() {
        integerRows(UInt8.self, max: "255", overMax: "256", min: "0", underMin: "-1")
        row(UInt8.self, "300", .e(iv))
    }

    func testUInt16() {
        integerRows(UInt16.self, max: "65535", overMax: "65536", min: "0", underMin: "-1")
    }

    func testUInt32() {
        integerRows(UInt32.self, max: "4294967295", overMax: "4294967296", min: "0", underMin: "-1")
    }

    func testUInt64() {
        integerRows(UInt64.self, max: "18446744073709551615", overMax: "18446744073709551616", min: "0", underMin: "-1")
        row(UInt64.self, "18446744073709551615.0", .v(UInt64.max), .e(iv))
    }

    // MARK: Floating point and Decimal

    func testDouble() {
        row(Double.self, "1.5", .v(1.5))
        row(Double.self, "-0.25", .v(-0.25))
        row(Double.self, "42", .v(42))
        row(Double.self, "1e2", .v(100))
        row(Double.self, "8.8", .v(8.8))
        row(Double.self, "0.1", .v(0.1))
        row(Double.self, "-0", .v(-0.0))
        row(Double.self, "1.7976931348623157e308", .v(.greatestFiniteMagnitude))
        row(Double.self, "5e-324", .v(.leastNonzeroMagnitude))
        row(Double.self, "1e-400", .e(iv))   // not zero, and would read as 0: out of range (JSONDecoder's rule)
        row(Double.self, "-2e-324", .e(iv))
        row(Double.self, "3e-324", .v(.leastNonzeroMagnitude))
        row(Double.self, "0e-400", .v(0))
        row(Double.self, #""1e-400""#, .e(iv), .e(tm))
        row(Double.self, "1e400", .e(iv))
        row(Double.self, "-1e400", .e(iv))
        row(Double.self, "9007199254740993", .v(9007199254740992))   // correctly rounded
        // numeric strings: lenient only
        row(Double.self, #""3.25""#, .v(3.25), .e(tm))
        row(Double.self, #"" -1e3 ""#, .v(-1000), .e(tm))
        row(Double.self, #""1e400""#, .e(iv), .e(tm))
        for text in ["abc", "", "NaN", "nan", "Infinity", "-inf", "0x1p3", "1,5", ".5", "1.", "+1"] {
            row(Double.self, "\"\(text)\"", .e(iv), .e(tm))
        }
        row(Double.self, "true", .e(tm))
        containersRejected(Double.self)
        nullHandling(Double.self, sample: 2.5)
        // -0 keeps its sign
        XCTAssertEqual(try CVBox<Double>(json: #"{"v":-0.0}"#).v.sign, .minus)
    }

    func testFloat() {
        row(Float.self, "1.5", .v(1.5))
        row(Float.self, "0.1", .v(0.1))   // correctly rounded from the literal
        row(Float.self, "16777217", .v(16777216))
        row(Float.self, "3.4028235e38", .v(.greatestFiniteMagnitude))
        row(Float.self, "1e39", .e(iv))
        row(Float.self, "-1e39", .e(iv))
        row(Float.self, "1e-46", .e(iv))   // would read as 0
        row(Float.self, "1e-45", .v(.leastNonzeroMagnitude))
        row(Float.self, "0.0e-99", .v(0))
        row(Float.self, #""2.5""#, .v(2.5), .e(tm))
        row(Float.self, #""x""#, .e(iv), .e(tm))
        row(Float.self, #""NaN""#, .e(iv), .e(tm))
        row(Float.self, "false", .e(tm))
        containersRejected(Float.self)
        nullHandling(Float.self, sample: 2.5)
        // Float parsing is not Double parsing then rounding: this literal rounds differently through Double.
        XCTAssertEqual(try CVBox<Float>(json: #"{"v":1.00000005960464477550}"#).v, 1.0000001)
    }

    func testDecimal() {
        func d(_ s: String) -> Decimal { Decimal(string: s)! }
        row(Decimal.self, "0.1", .v(d("0.1")))
        row(Decimal.self, "42", .v(42))
        row(Decimal.self, "-12.345", .v(d("-12.345")))
        row(Decimal.self, "1e2", .v(100))
        row(Decimal.self, "1.5E-3", .v(d("0.0015")))
        row(Decimal.self, "123456789012345678901234567.891", .v(d("123456789012345678901234567.891")))
        row(Decimal.self, "9007199254740993", .v(d("9007199254740993")))   // no Double in between
        row(Decimal.self, #""0.1""#, .v(d("0.1")), .e(tm))
        row(Decimal.self, #"" 19.99 ""#, .v(d("19.99")), .e(tm))
        row(Decimal.self, #""abc""#, .e(iv), .e(tm))
        row(Decimal.self, "1e400", .e(iv))
        row(Decimal.self, "true", .e(tm))
        containersRejected(Decimal.self)
        nullHandling(Decimal.self, sample: d("1.25"))
        // exactness: 0.1 + 0.2 == 0.3 holds for decoded Decimals
        let box = try! CVArrayBox<Decimal>(json: #"{"v":[0.1, 0.2, 0.3]}"#)
        XCTAssertEqual(box.v[0] + box.v[1], box.v[2])
    }

    // MARK: String

    func testString() {
        row(String.self, #""abc""#, .v("abc"))
        row(String.self, #""""#, .v(""))
        row(String.self, #""caf\u00e9 \"q\" \n""#, .v("café \"q\" \n"))
        row(String.self, #""😀""#, .v("😀"))
        row(String.self, #""\ud83d\ude00""#, .v("😀"))
        // numbers keep their literal text exactly: lenient only
        row(String.self, "8.8", .v("8.8"), .e(tm))
        row(String.self, "1e2", .v("1e2"), .e(tm))
        row(String.self, "1E+2", .v("1E+2"), .e(tm))
        row(String.self, "-0", .v("-0"), .e(tm))
        row(String.self, "100", .v("100"), .e(tm))
        row(String.self, "0.30000000000000004", .v("0.30000000000000004"), .e(tm))
        row(String.self, "123456789012345678901234567890", .v("123456789012345678901234567890"), .e(tm))
        // Booleans: lenient only
        row(String.self, "true", .v("true"), .e(tm))
        row(String.self, "false", .v("false"), .e(tm))
        containersRejected(String.self)
        nullHandling(String.self, sample: "kept")
    }

    // MARK: Foundation types

    func testURL() {
        let url = URL(string: "https://example.com/a?b=1")!
        row(URL.self, #""https://example.com/a?b=1""#, .v(url))
        row(URL.self, #""  https://example.com/a?b=1  ""#, .v(url))       // trimmed
        row(URL.self, #""\thttps://example.com/a?b=1\n""#, .v(url))       // trimmed
        row(URL.self, #""relative/path""#, .v(URL(string: "relative/path")!))
        // empty: an error, or nil for URL?
        row(URL.self, #""""#, .e(iv), optional: .v(nil))
        row(URL.self, #""   ""#, .e(iv), optional: .v(nil))
        row(URL.self, #""http://exa mple.com""#, .e(iv))
        row(URL.self, "1", .e(tm))
        row(URL.self, "true", .e(tm))
        containersRejected(URL.self)
        nullHandling(URL.self, sample: url)
    }

    func testUUID() {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        row(UUID.self, #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#, .v(uuid))
        row(UUID.self, #""e621e1f8-c36c-495a-93fc-0c247a3e6e5f""#, .v(uuid))
        row(UUID.self, #""not-a-uuid""#, .e(iv))
        row(UUID.self, #""E621E1F8C36C495A93FC0C247A3E6E5F""#, .e(iv))
        row(UUID.self, #""""#, .e(iv))
        row(UUID.self, "1", .e(tm))
        containersRejected(UUID.self)
        nullHandling(UUID.self, sample: uuid)
    }

    func testTimeZone() throws {
        let losAngeles = TimeZone(identifier: "America/Los_Angeles")!
        row(TimeZone.self, #""America/Los_Angeles""#, .v(losAngeles))
        row(TimeZone.self, #"" America/Los_Angeles ""#, .v(losAngeles))      // trimmed
        row(TimeZone.self, #""UTC""#, .v(TimeZone(identifier: "UTC")!))
        row(TimeZone.self, #""GMT+0800""#, .v(TimeZone(secondsFromGMT: 8 * 3600)!))
        // An identifier wins over the abbreviation of the same name: EST is the fixed zone, not New York.
        row(TimeZone.self, #""EST""#, .v(TimeZone(identifier: "EST")!))
        // An abbreviation that is no identifier: lenient only.
        row(TimeZone.self, #""PDT""#, .v(losAngeles), .e(iv))
        row(TimeZone.self, #""EDT""#, .v(TimeZone(identifier: "America/New_York")!), .e(iv))
        row(TimeZone.self, #""Nowhere/City""#, .e(iv))
        row(TimeZone.self, #""""#, .e(iv))
        row(TimeZone.self, "-28800", .e(tm))
        row(TimeZone.self, "true", .e(tm))
        containersRejected(TimeZone.self)
        nullHandling(TimeZone.self, sample: losAngeles)

        // Written as the identifier: an abbreviation read leniently comes back as its zone's identifier.
        let read = try CVBox<TimeZone>(json: #"{"v":"PDT"}"#)
        XCTAssertEqual(try read.jsonString(), #"{"v":"America/Los_Angeles"}"#)
        struct Holder: Codable { var v: TimeZone }
        struct HolderField: JSONMappable { var w: Holder? = nil }   // a Codable value inside a model: the codec's form
        XCTAssertEqual(try HolderField(json: #"{"w":{"v":"PDT"}}"#).jsonString(), #"{"w":{"v":"America/Los_Angeles"}}"#)
        XCTAssertEqual(String(decoding: try ModelEncoder().encode([HolderField(w: Holder(v: losAngeles))]), as: UTF8.self),
                       #"[{"w":{"v":"America/Los_Angeles"}}]"#)
        let message = try XCTUnwrap(cvDecode(CVBox<TimeZone>.self, #"{"v":"Nowhere/City"}"#, .lenient) { $0.v }.1).message
        XCTAssertEqual(message, #"the string "Nowhere/City" is not a time zone identifier or abbreviation"#)

        // The Codable API keeps JSONDecoder's and JSONEncoder's form (TimeZone's own Codable: an object).
        struct Plain: Codable, Equatable { var zone: TimeZone }
        let foundation = try JSONEncoder().encode(Plain(zone: losAngeles))
        XCTAssertEqual(try ModelDecoder().decode(Plain.self, from: foundation), try JSONDecoder().decode(Plain.self, from: foundation))
        XCTAssertEqual(try ModelEncoder().encode(Plain(zone: losAngeles)), foundation)
    }

    func testData() {
        row(Data.self, #""aGVsbG8=""#, .v(Data("hello".utf8)))
        row(Data.self, #""AAEC/w==""#, .v(Data([0, 1, 2, 255])))
        row(Data.self, #""""#, .v(Data()))
        row(Data.self, #""not base64!""#, .e(iv))
        row(Data.self, #""aGVsbG8""#, .e(iv))   // missing padding
        row(Data.self, "1", .e(tm))
        row(Data.self, "[104, 105]", .e(tm))
        containersRejected(Data.self)
        nullHandling(Data.self, sample: Data([1, 2, 3]))
    }

    func testDate() {
        let date = Date(timeIntervalSince1970: 1_390_220_688)   // 2014-01-20T12:24:48Z
        row(Date.self, #""2014-01-20T12:24:48Z""#, .v(date))
        row(Date.self, #""2014-01-20T20:24:48+08:00""#, .v(date))
        row(Date.self, "1390220688", .v(date))                  // numbers are seconds, in both modes
        row(Date.self, "1390220688.5", .v(date.addingTimeInterval(0.5)))
        row(Date.self, #""yesterday""#, .e(iv))
        row(Date.self, #""2014-13-01""#, .e(iv))
        row(Date.self, #""""#, .e(iv))
        row(Date.self, "true", .e(tm))
        containersRejected(Date.self)
        nullHandling(Date.self, sample: date)
    }

    // MARK: Enums

    func testStringEnum() {
        row(CVStringEnum.self, #""alpha""#, .v(.alpha))
        row(CVStringEnum.self, #""beta""#, .v(.beta))
        row(CVStringEnum.self, #""1""#, .v(.one))
        row(CVStringEnum.self, #""gamma""#, .e(iv))      // unknown raw value
        row(CVStringEnum.self, #""Alpha""#, .e(iv))      // raw values are case-sensitive
        row(CVStringEnum.self, #""""#, .e(iv))
        // the raw value after the String conversions: lenient only
        row(CVStringEnum.self, "1", .v(.one), .e(tm))
        row(CVStringEnum.self, "2", .e(iv), .e(tm))
        row(CVStringEnum.self, "true", .e(iv), .e(tm))
        containersRejected(CVStringEnum.self)
        nullHandling(CVStringEnum.self, sample: .beta)
    }

    func testIntEnum() {
        row(CVIntEnum.self, "0", .v(.zero))
        row(CVIntEnum.self, "2", .v(.two))
        row(CVIntEnum.self, "3", .e(iv))                 // unknown raw value
        row(CVIntEnum.self, "-1", .e(iv))
        row(CVIntEnum.self, "1.5", .e(iv))
        // the raw value after the Int conversions: lenient only
        row(CVIntEnum.self, #""1""#, .v(.one), .e(tm))
        row(CVIntEnum.self, #"" 2 ""#, .v(.two), .e(tm))
        row(CVIntEnum.self, "1.0", .v(.one), .e(iv))
        row(CVIntEnum.self, #""7""#, .e(iv), .e(tm))
        row(CVIntEnum.self, #""one""#, .e(iv), .e(tm))
        row(CVIntEnum.self, "true", .e(tm))
        containersRejected(CVIntEnum.self)
        nullHandling(CVIntEnum.self, sample: .two)
    }

    // MARK: Nested models

    func testNestedModel() {
        row(CVInner.self, #"{"x":1,"s":"a"}"#, .v(CVInner(x: 1, s: "a")))
        row(CVInner.self, "{}", .v(CVInner()))
        row(CVInner.self, #"{"unknown":[1,{"a":null}]}"#, .v(CVInner()))
        // lenient conversions apply inside: "1" -> 1, 2 -> "2"
        XCTAssertEqual(try CVBox<CVInner>(json: #"{"v":{"x":"1","s":2}}"#).v, CVInner(x: 1, s: "2"))
        XCTAssertEqual(try CVArrayBox<CVInner>(json: #"{"v":[{"x":"1","s":2}]}"#).v, [CVInner(x: 1, s: "2")])
        XCTAssertThrowsError(try CVBox<CVInner>(json: #"{"v":{"x":"1","s":2}}"#, options: .strict)) { error in
            XCTAssertEqual((error as! MappingError).kind, .typeMismatch)
            XCTAssertEqual((error as! MappingError).path, "v.x")
        }
        for literal in ["1", #""x""#, "true", "[]", #"[{"x":1}]"#] {
            row(CVInner.self, literal, .e(tm))
        }
        // A string holding an object is embedded JSON in lenient mode only (EmbeddedJSONTests).
        XCTAssertEqual(try CVBox<CVInner>(json: #"{"v":"{\"x\":1}"}"#).v, CVInner(x: 1, s: ""))
        XCTAssertEqual(mappingError { try CVBox<CVInner>(json: #"{"v":"{}"}"#, options: .strict) }?.kind, .typeMismatch)
        nullHandling(CVInner.self, sample: CVInner(x: 5, s: "kept"))

        // the error inside the nested model carries the nested path and the column of the value
        for options in [DecodingOptions.lenient, .strict] {
            XCTAssertThrowsError(try CVBox<CVInner>(json: #"{"v":{"x":1.5}}"#, options: options)) { error in
                let error = error as! MappingError
                XCTAssertEqual(error.kind, .invalidValue)
                XCTAssertEqual(error.path, "v.x")
                XCTAssertEqual(error.column, 11)
            }
            XCTAssertThrowsError(try CVArrayBox<CVInner>(json: #"{"v":[{"x":1},{"s":[]}]}"#, options: options)) { error in
                let error = error as! MappingError
                XCTAssertEqual(error.kind, .typeMismatch)
                XCTAssertEqual(error.path, "v[1].s")
                XCTAssertEqual(error.column, 20)
            }
        }
    }

    /// Nested struct models merge into the current value on `update`; keys absent keep their values.
    func testNestedModelMergesOnUpdate() throws {
        var box = CVBox<CVInner>()
        box.v = CVInner(x: 1, s: "one")
        try box.update(json: #"{"v":{"x":2}}"#)
        XCTAssertEqual(box.v, CVInner(x: 2, s: "one"))

        var optional = CVBox<CVInner?>()
        try optional.update(json: #"{"v":{"s":"new"}}"#)
        XCTAssertEqual(optional.v, CVInner(x: 0, s: "new"))
        try optional.update(json: #"{"v":{"x":9}}"#)
        XCTAssertEqual(optional.v, CVInner(x: 9, s: "new"))
    }

    // MARK: Collections

    func testArrayNullElements() {
        for options in [DecodingOptions.lenient, .strict] {
            XCTAssertEqual(try CVArrayBox<Int?>(json: #"{"v":[1,null,3]}"#, options: options).v, [1, nil, 3])
            XCTAssertEqual(try CVArrayBox<String?>(json: #"{"v":["a",null]}"#, options: options).v, ["a", nil])
            XCTAssertEqual(try CVSetBox<String?>(json: #"{"v":["a",null,"a"]}"#, options: options).v, ["a", nil])
            XCTAssertEqual(try CVArrayBox<CVInner?>(json: #"{"v":[null,{"x":2}]}"#, options: options).v, [nil, CVInner(x: 2)])
            XCTAssertEqual(try CVArrayBox<[Int]?>(json: #"{"v":[null,[1]]}"#, options: options).v, [nil, [1]])
            for (json, column) in [(#"{"v":[1,null,3]}"#, 9), (#"{"v":[1, 2, null]}"#, 13)] {
                XCTAssertThrowsError(try CVArrayBox<Int>(json: json, options: options)) { error in
                    let error = error as! MappingError
                    XCTAssertEqual(error.kind, .typeMismatch)
                    XCTAssertEqual(error.path, json.contains("3") ? "v[1]" : "v[2]")
                    XCTAssertEqual(error.column, column)
                }
                XCTAssertThrowsError(try CVSetBox<Int>(json: json, options: options)) { error in
                    XCTAssertEqual((error as! MappingError).kind, .typeMismatch)
                    XCTAssertEqual((error as! MappingError).column, column)
                }
                XCTAssertThrowsError(try CVContiguousBox<Int>(json: json, options: options)) { error in
                    XCTAssertEqual((error as! MappingError).kind, .typeMismatch)
                }
            }
            XCTAssertThrowsError(try CVArrayBox<CVInner>(json: #"{"v":[{},null]}"#, options: options)) { error in
                XCTAssertEqual((error as! MappingError).path, "v[1]")
            }
        }
    }

    func testArrayElementConversions() throws {
        // elements convert like properties
        XCTAssertEqual(try CVArrayBox<Int>(json: #"{"v":[1,"2",3.0," 4 "]}"#).v, [1, 2, 3, 4])
        XCTAssertEqual(try CVArrayBox<String>(json: #"{"v":["a",8.8,1e2,true]}"#).v, ["a", "8.8", "1e2", "true"])
        XCTAssertEqual(try CVSetBox<Int>(json: #"{"v":[1,"1",1.0,2]}"#).v, [1, 2])
        XCTAssertEqual(try CVContiguousBox<Double>(json: #"{"v":[1,"2.5"]}"#).v, [1, 2.5])
        XCTAssertEqual(try CVArrayBox<CVIntEnum>(json: #"{"v":[0,"1",2]}"#).v, [.zero, .one, .two])
        XCTAssertEqual(try CVArrayBox<[Int]>(json: #"{"v":[[1,2],[],["3"]]}"#).v, [[1, 2], [], [3]])
        XCTAssertEqual(try CVArrayBox<Int>(json: #"{"v":[]}"#).v, [])
        XCTAssertThrowsError(try CVArrayBox<[Int]>(json: #"{"v":[[1,2],[3,"x"]]}"#, options: .strict)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .typeMismatch)
            XCTAssertEqual(error.path, "v[1][1]")
            XCTAssertEqual(error.column, 16)
        }
        XCTAssertThrowsError(try CVSetBox<Int8>(json: #"{"v":[1,300]}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .invalidValue)
            XCTAssertEqual((error as! MappingError).path, "v[1]")
        }
    }

    func testSingleValuesAndWrapping() throws {
        // without the option, a non-array is a type mismatch in both modes
        for options in [DecodingOptions.lenient, .strict] {
            for literal in ["5", #""a""#, "{}", "true"] {
                XCTAssertThrowsError(try CVArrayBox<Int>(json: #"{"v":\#(literal)}"#, options: options)) { error in
                    let error = error as! MappingError
                    XCTAssertEqual(error.kind, .typeMismatch)
                    XCTAssertEqual(error.path, "v")
                    XCTAssertEqual(error.column, 6)
                }
                XCTAssertThrowsError(try CVSetBox<Int>(json: #"{"v":\#(literal)}"#, options: options))
            }
        }
        var wrapping = DecodingOptions.lenient
        wrapping.wrapsSingleValues = true
        XCTAssertEqual(try CVArrayBox<Int>(json: #"{"v":5}"#, options: wrapping).v, [5])
        XCTAssertEqual(try CVArrayBox<Int>(json: #"{"v":"6"}"#, options: wrapping).v, [6])
        XCTAssertEqual(try CVArrayBox<Int>(json: #"{"v":[5]}"#, options: wrapping).v, [5])
        XCTAssertEqual(try CVSetBox<String>(json: #"{"v":"a"}"#, options: wrapping).v, ["a"])
        XCTAssertEqual(try CVContiguousBox<Int>(json: #"{"v":1}"#, options: wrapping).v, [1])
        XCTAssertEqual(try CVArrayBox<CVInner>(json: #"{"v":{"x":3}}"#, options: wrapping).v, [CVInner(x: 3)])
        XCTAssertEqual(try CVArrayBox<Int?>(json: #"{"v":4}"#, options: wrapping).v, [4])
        // null is still "no value": the property keeps its value; an Optional array becomes nil
        var kept = CVArrayBox<Int>()
        kept.v = [9]
        try kept.update(json: #"{"v":null}"#, options: wrapping)
        XCTAssertEqual(kept.v, [9])
        XCTAssertNil(try CVBox<[Int]?>(json: #"{"v":null}"#, options: wrapping).v)
        // the wrapped value still converts per the mode
        var strictWrapping = DecodingOptions.strict
        strictWrapping.wrapsSingleValues = true
        XCTAssertEqual(try CVArrayBox<Int>(json: #"{"v":5}"#, options: strictWrapping).v, [5])
        XCTAssertThrowsError(try CVArrayBox<Int>(json: #"{"v":"5"}"#, options: strictWrapping)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .typeMismatch)
            XCTAssertEqual(error.column, 6)
        }
        XCTAssertThrowsError(try CVArrayBox<Int>(json: #"{"v":{}}"#, options: wrapping)) { error in
            XCTAssertEqual((error as! MappingError).kind, .typeMismatch)
        }
        // a wrapped value that fails reports the same path (the element's) whatever the collection type
        let paths = [
            cvDecode(CVArrayBox<Int>.self, #"{"v":"x"}"#, strictWrapping) { $0.v }.1?.path,
            cvDecode(CVArrayBox<Int?>.self, #"{"v":"x"}"#, strictWrapping) { $0.v }.1?.path,
            cvDecode(CVArrayBox<Int8>.self, #"{"v":"x"}"#, strictWrapping) { $0.v }.1?.path,
            cvDecode(CVSetBox<Int>.self, #"{"v":"x"}"#, strictWrapping) { $0.v }.1?.path,
            cvDecode(CVContiguousBox<Int>.self, #"{"v":"x"}"#, strictWrapping) { $0.v }.1?.path,
        ]
        XCTAssertEqual(paths, Array(repeating: "v[0]", count: paths.count))
    }

    func testDictionaries() throws {
        XCTAssertEqual(try CVDictBox<Int>(json: #"{"v":{"a":1,"b":"2"}}"#).v, ["a": 1, "b": 2])
        XCTAssertEqual(try CVDictBox<Int>(json: #"{"v":{}}"#).v, [:])
        XCTAssertEqual(try CVDictBox<Int>(json: #"{"v":{"a":1,"a":2}}"#).v, ["a": 2])   // last duplicate wins
        XCTAssertEqual(try CVDictBox<CVInner>(json: #"{"v":{"k":{"x":1}}}"#).v, ["k": CVInner(x: 1)])
        XCTAssertEqual(try CVDictBox<[String]>(json: #"{"v":{"k":["a",1]}}"#).v, ["k": ["a", "1"]])
        XCTAssertEqual(try CVDictBox<[String: Bool]>(json: #"{"v":{"k":{"j":"yes"}}}"#).v, ["k": ["j": true]])
        XCTAssertEqual(try CVDictBox<Int?>(json: #"{"v":{"a":null,"b":2}}"#).v, ["a": nil, "b": 2])
        XCTAssertEqual(try CVDictBox<String>(json: #"{"v":{"a.b":"dots","":"empty"}}"#).v, ["a.b": "dots", "": "empty"])

        XCTAssertThrowsError(try CVDictBox<Int>(json: #"{"v":{"a":1,"b":"2"}}"#, options: .strict)) { error in
            let error = error as! MappingError
            XCTAssertEqual(error.kind, .typeMismatch)
            XCTAssertEqual(error.path, "v.b")
            XCTAssertEqual(error.column, 17)
        }
        for options in [DecodingOptions.lenient, .strict] {
            for literal in ["[]", "[1]", "1", #""{}""#] where !(options.conversion == .lenient && literal == #""{}""#) {
                XCTAssertThrowsError(try CVDictBox<Int>(json: #"{"v":\#(literal)}"#, options: options)) { error in
                    let error = error as! MappingError
                    XCTAssertEqual(error.kind, .typeMismatch)
                    XCTAssertEqual(error.path, "v")
                }
            }
            XCTAssertThrowsError(try CVDictBox<CVInner>(json: #"{"v":{"k":{"x":[]}}}"#, options: options)) { error in
                let error = error as! MappingError
                XCTAssertEqual(error.path, "v.k.x")
                XCTAssertEqual(error.column, 16)
            }
        }
    }

    // MARK: YYModel's robustness cases

    fileprivate struct YYRepo: JSONMappable {
        var type = ""
        var followers: UInt32 = 0
        var updatedAt = Date(timeIntervalSince1970: 0)
        var name: String? = "initial"
        var count = 5
        var owner = CVInner()
        static let mapping = ModelMapping(keys: ["updatedAt": "updated_at"])
    }

    func testYYModelRobustness() throws {
        XCTAssertEqual(try YYRepo(json: #"{"type":1}"#).type, "1")
        XCTAssertEqual(try YYRepo(json: #"{"followers":"100"}"#).followers, 100)
        XCTAssertEqual(try YYRepo(json: #"{"updated_at":"2009-04-02T03:35:22Z"}"#).updatedAt,
                       Date(timeIntervalSince1970: 1_238_643_322))
        // null into Optional is nil; into non-Optional keeps the value
        let nulls = try YYRepo(json: #"{"name":null,"count":null,"type":null,"owner":null,"updated_at":null}"#)
        XCTAssertNil(nulls.name)
        XCTAssertEqual(nulls.count, 5)
        XCTAssertEqual(nulls.type, "")
        XCTAssertEqual(nulls.owner, CVInner())
        XCTAssertEqual(nulls.updatedAt, Date(timeIntervalSince1970: 0))
        // absent keys keep their values
        let empty = try YYRepo(json: "{}")
        XCTAssertEqual(empty.name, "initial")
        XCTAssertEqual(empty.count, 5)
        var model = YYRepo()
        model.count = 42
        model.name = "set"
        try model.update(json: #"{"type":"t"}"#)
        XCTAssertEqual(model.count, 42)
        XCTAssertEqual(model.name, "set")
        XCTAssertEqual(model.type, "t")
        // strict mode rejects the conversions YYModel makes
        XCTAssertThrowsError(try YYRepo(json: #"{"type":1}"#, options: .strict)) { error in
            XCTAssertEqual((error as! MappingError).kind, .typeMismatch)
            XCTAssertEqual((error as! MappingError).path, "type")
        }
        XCTAssertThrowsError(try YYRepo(json: #"{"followers":"100"}"#, options: .strict)) { error in
            XCTAssertEqual((error as! MappingError).path, "followers")
        }
        // wrong container types are errors, not crashes
        XCTAssertThrowsError(try YYRepo(json: #"{"owner":"abc"}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .typeMismatch)
            XCTAssertEqual((error as! MappingError).path, "owner")
        }
        XCTAssertThrowsError(try YYRepo(json: #"{"type":[1,2]}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .typeMismatch)
        }
        XCTAssertThrowsError(try YYRepo(json: #"{"followers":-1}"#)) { error in
            XCTAssertEqual((error as! MappingError).kind, .invalidValue)
        }
        // a document that is not an object is a type mismatch at the root
        for json in ["[]", "1", #""s""#, "null", "true"] {
            XCTAssertThrowsError(try YYRepo(json: json)) { error in
                let error = error as! MappingError
                XCTAssertEqual(error.kind, .typeMismatch, json)
                XCTAssertEqual(error.path, "", json)
            }
        }
    }

    // MARK: The fast path and the codec path agree

    fileprivate struct FastFields: JSONMappable, Equatable {
        var s = ""; var i = 0; var l: Int64 = 0; var d = 0.0; var b = false
        var os: String? = nil; var oi: Int? = nil; var ol: Int64? = nil; var od: Double? = nil; var ob: Bool? = nil
    }

    fileprivate struct SlowFields: JSONMappable, Equatable {
        var s: [String] = []; var i: [Int] = []; var l: [Int64] = []; var d: [Double] = []; var b: [Bool] = []
        var os: [String?] = []; var oi: [Int?] = []; var ol: [Int64?] = []; var od: [Double?] = []; var ob: [Bool?] = []
    }

    func testFastPathAndCodecPathAgree() throws {
        let values = [#""x""#, #""12""#, #"" 7 ""#, #""yes""#, #""1.5""#, "12", "2.0", "1.5", "1e2", "1", "0",
                      "true", "false", "null", "[]", "{}", "9223372036854775808", "1e400", "-0", "8.8"]
        let keys = ["s", "i", "l", "d", "b", "os", "oi", "ol", "od", "ob"]
        for options in [DecodingOptions.lenient, .strict] {
            for key in keys {
                for value in values {
                    let fast = cvDecode(FastFields.self, #"{"\#(key)":\#(value)}"#, options) { $0 }
                    let slow = cvDecode(SlowFields.self, #"{"\#(key)":[\#(value)]}"#, options) { $0 }
                    let what = "\(key) = \(value), \(options.conversion)"
                    switch (fast.0, slow.0) {
                    case (.value(let f), .value(let s)):
                        func check<T: Equatable>(_ a: T, _ b: [T]) {
                            XCTAssertEqual([a], b, what)
                        }
                        switch key {
                        case "s": check(f.s, s.s)
                        case "i": check(f.i, s.i)
                        case "l": check(f.l, s.l)
                        case "d": check(f.d, s.d)
                        case "b": check(f.b, s.b)
                        case "os": check(f.os, s.os)
                        case "oi": check(f.oi, s.oi)
                        case "ol": check(f.ol, s.ol)
                        case "od": check(f.od, s.od)
                        default: check(f.ob, s.ob)
                        }
                    case (.error(let a), .error(let b)):
                        XCTAssertEqual(a, b, what)
                        XCTAssertEqual(fast.1?.path, key, what)
                        XCTAssertEqual(slow.1?.path, key + "[0]", what)
                        // Strict null: the same kind; the messages say property and element.
                        if value != "null" { XCTAssertEqual(fast.1?.message, slow.1?.message, what) }
                    case (.error, .value):
                        // only null is allowed to differ: a plain property keeps its value (lenient), [T] rejects it
                        XCTFail("fast path failed, codec path succeeded: \(what)")
                    case (.value, .error(let kind)):
                        XCTAssertTrue(value == "null" && !key.hasPrefix("o") && kind == .typeMismatch && options.conversion == .lenient, what)
                    }
                }
            }
        }
    }

    /// The fast path is also used for several properties in one object; each is set independently.
    func testFastFieldsTogether() throws {
        let json = #"{"s":"a","i":"3","l":"-9223372036854775808","d":"2.5","b":"NO","os":1.5,"oi":null,"ol":4,"od":5,"ob":0}"#
        let m = try FastFields(json: json)
        XCTAssertEqual(m, FastFields(s: "a", i: 3, l: .min, d: 2.5, b: false, os: "1.5", oi: nil, ol: 4, od: 5, ob: false))
        let strict = try FastFields(json: #"{"s":"a","i":3,"l":-1,"d":2.5,"b":false,"os":null,"oi":1,"ol":null,"od":1e2,"ob":true}"#,
                                    options: .strict)
        XCTAssertEqual(strict, FastFields(s: "a", i: 3, l: -1, d: 2.5, b: false, os: nil, oi: 1, ol: nil, od: 100, ob: true))
    }

    // MARK: Options values

    func testOptionsPresets() {
        XCTAssertEqual(DecodingOptions.lenient.conversion, .lenient)
        XCTAssertEqual(DecodingOptions.strict.conversion, .strict)
        XCTAssertEqual(DecodingOptions().conversion, .lenient)
        XCTAssertFalse(DecodingOptions().wrapsSingleValues)
        XCTAssertNil(DecodingOptions().invalidValueHandler)
        // the default is lenient
        XCTAssertEqual(try CVBox<Int>(json: #"{"v":"5"}"#).v, 5)
    }
}
