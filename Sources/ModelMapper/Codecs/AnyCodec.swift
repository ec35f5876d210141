import Foundation

/// `Any` properties (and `Any?`, `[Any]`, `[String: Any]` through the container codecs): any JSON, held as
/// `JSONSerialization` would give it (in dictionary input, a value of a type JSON does not have is kept as
/// it is), exactly what ``JSONValue/foundationObject`` (and so `jsonObject()`)
/// returns for the same JSON: `[String: Any]`, `[Any]`, `String`, `Bool`, `Int` / `UInt64` for integer
/// literals, `Double` (or `Decimal` when a `Double` would lose digits), `NSNull` for null.
///
/// Encoding takes those types back, plus what dictionary input accepts (`NSNumber`, `Int64`, ``JSONValue``,
/// ``JSONObject``): the value is read by the same rules as `init(jsonObject:)` (`ValueTape`). A value of
/// another type (a `Date`, a model) is a `.typeMismatch` error with its path, a non-finite `Double`
/// `.invalidValue`.
final class AnyCodec: ValueCodec<Any>, @unchecked Sendable {
    init() { super.init(takesNull: true) }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Any {
        var i = index
        do {
            return Self.foundationObject(try JSONValue(tape: c.tape, index: &i))
        } catch where error.tokenIndex.map({ c.tape[$0].kind == .foreign }) == true {
            return try Self.foundationObject(c, index)
        }
    }

    /// The value at `index` of a tape holding values of types JSON does not have (dictionary input): they
    /// are kept as they are, as YYModel sets an `id` property to the value it is given.
    private static func foundationObject(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Any {
        let token = c.tape[index]
        switch token.kind {
        case .foreign:
            return c.tape.foreignValue(at: index)
        case .arrayStart:
            var elements: [Any] = []
            var i = index + 1
            while i < token.payload {
                elements.append(try foundationObject(c, i))
                i = c.tape.indexAfterValue(at: i)
            }
            return elements
        case .objectStart:
            var dictionary: [String: Any] = [:]
            var i = index + 1
            while i < token.payload {
                dictionary[try c.tape.string(at: i)] = try foundationObject(c, i + 1)
                i = c.tape.indexAfterValue(at: i + 1)
            }
            return dictionary
        default:
            var i = index
            return foundationObject(try JSONValue(tape: c.tape, index: &i))
        }
    }

    override func encode(_ value: Any, _ e: inout EncodeContext) throws(MappingError) {
        let tape = try ValueTape(foundation: value, depthLimit: DecodingOptions.defaultDepthLimit, foreign: .reject)
        let json = try tape.withView { view throws(MappingError) in
            var i = 0
            return try JSONValue(tape: view, index: &i)
        }
        e.writer.write(json)
    }

    /// `value` as `JSONSerialization` would produce it (the one home of this rule).
    static func foundationObject(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let b): return b
        case .number(let n):
            // Only literals without fraction or exponent are integers, as JSONSerialization reads them
            // ("2.0" stays a Double, and "-0.0" keeps its sign).
            if n.withLiteralBytes({ NumberParsing.isPlainInteger($0) }) {
                if let i = n.intValue { return i }
                if let u = n.uint64Value { return u }
            }
            if let d = n.doubleValue, let exact = n.decimalValue, Decimal(string: d.description) == exact { return d }
            if let exact = n.decimalValue { return exact }
            return n.doubleValue ?? 0
        case .string(let s): return s
        case .array(let a): return a.map(foundationObject)
        case .object(let o):
            var dictionary = [String: Any](minimumCapacity: o.count)
            for (k, v) in o { dictionary[k] = foundationObject(v) }
            return dictionary
        }
    }
}
