// Unsafe code: a `TapeBuffers` allocation filled from values in memory rather than by yajl.
//
// Invariants: `buffers` is allocated and initialized in `init` and freed only in `deinit`; every string,
// key and number is copied into the arena (the tape has no input), each while its UTF-8 is borrowed; a
// container is opened only when `openContainer` accepted it (within the depth limit), so every close
// matches an open; the view given to `withView` is used only inside the call. A filter is set only while
// `init` appends (the caller keeps its node alive for the call) and cleared before `init` returns.
// A `.foreign` token's payload is the address of a `ForeignValue` box that `foreignValues` holds (so it
// lives as long as the tape; a `DetachedTape` copying the tokens retains the boxes too);
// `TapeView.foreignValue(at:)` reads it back unretained, only for a `.foreign` token.
import Foundation

/// A tape built from values already in memory (a ``JSONValue`` or a `JSONSerialization` object) rather
/// than parsed, so `init(jsonObject:)` and rewritten hook objects decode through the same codecs as bytes.
/// All strings are copied into the arena.
///
/// With a filter (the decoding model's, as for bytes), a member whose key the model does not read is not
/// looked at: neither its value nor anything inside it is converted, recorded or counted against the depth
/// limit; a kept key's token carries the reading property's index, as on a filtered parse.
final class ValueTape {
    private let buffers: UnsafeMutablePointer<TapeBuffers>
    /// What a value of a type JSON does not have becomes (see ``ForeignValuePolicy``).
    private let foreignPolicy: ForeignValuePolicy
    /// The boxes `.foreign` tokens point to.
    private var foreignValues: [ForeignValue] = []

    /// A tape of one JSON value; nesting deeper than `depthLimit` throws `.depthLimit`, as parsing does.
    init(_ value: JSONValue, depthLimit: Int, filter: TapeFilterNode? = nil) throws(MappingError) {
        foreignPolicy = .reject
        buffers = .allocate(capacity: 1)
        buffers.initialize(to: TapeBuffers(tokenCapacity: 64, arenaCapacity: 256, depthLimit: depthLimit))
        buffers.pointee.setFilter(filter)
        defer { buffers.pointee.resetFilter() }
        try withExtendedLifetime(filter) { () throws(MappingError) in try append(value) }
    }

    /// A tape of a `JSONSerialization`-style object: `[String: Any]`, `[Any]`, `String`, `NSNumber`,
    /// `Bool`, integers, `Double`, `Decimal`, `NSNull`, or a ``JSONValue``; a `Set` or `NSSet` is an array
    /// (in no particular order). Any other value (a `URL`, a `Date`, a model instance, a non-finite number)
    /// is handled per `foreign`.
    init(foundation object: Any, depthLimit: Int, filter: TapeFilterNode? = nil,
         foreign: ForeignValuePolicy = .record) throws(MappingError) {
        foreignPolicy = foreign
        buffers = .allocate(capacity: 1)
        buffers.initialize(to: TapeBuffers(tokenCapacity: 64, arenaCapacity: 256, depthLimit: depthLimit))
        buffers.pointee.setFilter(filter)
        defer { buffers.pointee.resetFilter() }
        try withExtendedLifetime(filter) { () throws(MappingError) in try appendFoundation(object) }
    }

    deinit {
        buffers.pointee.deallocate()
        buffers.deinitialize(count: 1)
        buffers.deallocate()
    }

    func withView<R>(_ body: (TapeView) throws(MappingError) -> R) throws(MappingError) -> R {
        let b = buffers.pointee
        assert(b.depth == 0, "a tape is read with a container still open")
        var view = TapeView(tokens: UnsafePointer(b.tokens), count: b.tokenCount, input: nil, arena: UnsafePointer(b.arena))
        #if DEBUG
        view.inputCount = 0
        view.arenaCount = b.arenaCount
        #endif
        return try body(view)
    }

    /// Appends a member's key; false when the filter skips the member, whose value is then not appended
    /// nor walked (the depth limit guards recursion, and a skipped value is not recursed into).
    @inline(__always)
    private func appendKeeping(_ key: String) -> Bool {
        appendText(.key, key)
        guard buffers.pointee.skipsNextValue else { return true }
        buffers.pointee.skipPendingValue()
        return false
    }

    private func appendText(_ kind: TokenKind, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            let bytes = UnsafeRawPointer(utf8.baseAddress)
            _ = kind == .key ? buffers.pointee.appendKey(bytes: bytes, count: utf8.count)
                : buffers.pointee.appendScalar(kind, bytes: bytes, count: utf8.count)
        }
    }

    /// Appends a value; a container deeper than the limit throws (before anything unbalanced is recorded).
    /// Paths are added only to errors, as they travel up.
    private func append(_ value: JSONValue) throws(MappingError) {
        switch value {
        case .null: _ = buffers.pointee.appendScalar(.null, bytes: nil, count: 0)
        case .bool(let b): _ = buffers.pointee.appendScalar(b ? .trueValue : .falseValue, bytes: nil, count: 0)
        case .number(let n): appendText(.number, n.text)
        case .string(let s): appendText(.string, s)
        case .array(let elements):
            guard buffers.pointee.openContainer(.arrayStart) else { throw depthError() }
            for (i, element) in elements.enumerated() {
                do { try append(element) } catch { var e = error; e.prependIndex(i); throw e }
            }
            _ = buffers.pointee.closeContainer(.arrayEnd)
        case .object(let object):
            guard buffers.pointee.openContainer(.objectStart) else { throw depthError() }
            for (key, element) in object where appendKeeping(key) {
                do { try append(element) } catch { var e = error; e.prependKey(key); throw e }
            }
            _ = buffers.pointee.closeContainer(.objectEnd)
        }
    }

    /// Dispatches on the exact dynamic type first (what JSONSerialization produces: `[String: Any]`,
    /// `[Any]`, `String`, `NSNumber` and its boolean and decimal subclasses, `NSNull`), since a chain of
    /// `as?` casts costs a bridging attempt per failed cast; other types take the cast chain. Paths are
    /// added only to errors, as they travel up.
    private func appendFoundation(_ object: Any) throws(MappingError) {
        let type = ObjectIdentifier(Swift.type(of: object))
        if type == FoundationTypes.dictionary {
            try appendDictionary(object as! [String: Any])
        } else if type == FoundationTypes.string {
            appendText(.string, object as! String)
        } else if type == FoundationTypes.number || type == FoundationTypes.boolean {
            try appendNumber(object as! NSNumber)
        } else if type == FoundationTypes.array {
            try appendArray(object as! [Any])
        } else if type == FoundationTypes.null {
            _ = buffers.pointee.appendScalar(.null, bytes: nil, count: 0)
        } else if type == FoundationTypes.decimalNumber {
            appendDecimal((object as! NSDecimalNumber).decimalValue)
        } else {
            try appendOther(object)
        }
    }

    private func appendDictionary(_ dictionary: [String: Any]) throws(MappingError) {
        guard buffers.pointee.openContainer(.objectStart) else { throw depthError() }
        if let names = keptNames(), names.count < dictionary.count {
            // A model reading fewer keys than the dictionary holds: look its keys up, as handwritten code
            // would, instead of visiting every entry.
            for key in names {
                guard let element = dictionary[key] else { continue }
                let kept = appendKeeping(key)
                assert(kept, "a key of the filter's table is not kept")
                try appendFoundation(element, under: key)
            }
        } else {
            for (key, element) in dictionary where appendKeeping(key) { try appendFoundation(element, under: key) }
        }
        _ = buffers.pointee.closeContainer(.objectEnd)
    }

    /// A member's value; its errors get the member's key in front of their path.
    private func appendFoundation(_ element: Any, under key: String) throws(MappingError) {
        do { try appendFoundation(element) } catch { var e = error; e.prependKey(key); throw e }
    }

    /// In an object the filter reads member by member (just opened), the keys it keeps; nil otherwise.
    @inline(__always)
    private func keptNames() -> [String]? {
        let depth = buffers.pointee.depth
        guard buffers.pointee.filtering, depth > 0, let table = buffers.pointee.stack[depth].filter,
              table.pointee.shape == .object else { return nil }
        return table.pointee.keyNames
    }

    private func appendArray(_ array: [Any]) throws(MappingError) {
        guard buffers.pointee.openContainer(.arrayStart) else { throw depthError() }
        for (i, element) in array.enumerated() {
            do { try appendFoundation(element) } catch { var e = error; e.prependIndex(i); throw e }
        }
        _ = buffers.pointee.closeContainer(.arrayEnd)
    }

    private func appendOther(_ object: Any) throws(MappingError) {
        switch object {
        case let dictionary as [String: Any]: try appendDictionary(dictionary)
        case let array as [Any]: try appendArray(array)
        case let string as String: appendText(.string, string)
        case let value as JSONValue: try append(value)
        case let object as JSONObject: try append(.object(object))
        case is NSNull: _ = buffers.pointee.appendScalar(.null, bytes: nil, count: 0)
        case let number as NSDecimalNumber: appendDecimal(number.decimalValue)
        case let number as NSNumber: try appendNumber(number)
        case let bool as Bool: _ = buffers.pointee.appendScalar(bool ? .trueValue : .falseValue, bytes: nil, count: 0)
        case let value as Int: appendText(.number, String(value))
        case let value as Int64: appendText(.number, String(value))
        case let value as UInt64: appendText(.number, String(value))
        case let value as Decimal: appendDecimal(value)
        case let value as Double:
            guard value.isFinite else { return try appendNonFinite(value) }
            appendText(.number, value.description)
        case let set as any SetOfValues: try appendArray(set.elementsInAnyOrder)
        case let set as NSSet: try appendArray(set.allObjects)
        default:
            try appendForeign(object, rejection: MappingError(.typeMismatch, "\(Swift.type(of: object)) is not a JSON value"))
        }
    }

    private func appendNonFinite(_ value: Any) throws(MappingError) {
        try appendForeign(value, rejection: MappingError(.invalidValue, "\(value) is not a JSON number"))
    }

    /// A value of a type JSON does not have: a `.foreign` token the codecs convert or reject (as a
    /// forgivable error of the property reading it), or `rejection` thrown now under `.reject`.
    private func appendForeign(_ object: Any, rejection: @autoclosure () -> MappingError) throws(MappingError) {
        guard foreignPolicy == .record else { throw rejection() }
        let box = ForeignValue(object)
        let before = buffers.pointee.tokenCount
        _ = buffers.pointee.appendScalar(.foreign, bytes: nil, count: 0)
        guard buffers.pointee.tokenCount > before else { return }
        buffers.pointee.tokens[before].payload = Int(bitPattern: Unmanaged.passUnretained(box).toOpaque())
        foreignValues.append(box)
    }

    private func appendNumber(_ number: NSNumber) throws(MappingError) {
        if ObjectIdentifier(Swift.type(of: number)) == FoundationTypes.boolean {
            _ = buffers.pointee.appendScalar(number.boolValue ? .trueValue : .falseValue, bytes: nil, count: 0)
            return
        }
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "d"), UInt8(ascii: "f"):
            let value = number.doubleValue
            guard value.isFinite else { return try appendNonFinite(value) }
            appendText(.number, value.description)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            appendText(.number, String(number.uint64Value))
        case UInt8(ascii: "B"):
            _ = buffers.pointee.appendScalar(number.boolValue ? .trueValue : .falseValue, bytes: nil, count: 0)
        case UInt8(ascii: "c") where NSNumberKind.isBoolean(number):
            // "c" is also an `Int8`: only the two boolean singletons are booleans.
            _ = buffers.pointee.appendScalar(number.boolValue ? .trueValue : .falseValue, bytes: nil, count: 0)
        default:
            appendText(.number, String(number.int64Value))
        }
    }

    /// A decimal as `<significand digits>e<exponent>`: exact, and about 80 times faster than
    /// `Decimal.description` (JSONSerialization hands every long literal over as an `NSDecimalNumber`;
    /// its `doubleValue` is not correctly rounded).
    private func appendDecimal(_ decimal: Decimal) {
        let significand = decimal.significand
        if decimal.isFinite, significand <= FoundationTypes.maxExactSignificand {
            let digits = NSDecimalNumber(decimal: significand).uint64Value
            var text = decimal.sign == .minus && digits != 0 ? "-" : ""
            text += String(digits)
            if decimal.exponent != 0 { text += "e" + String(decimal.exponent) }
            appendText(.number, text)
        } else {
            appendText(.number, decimal.description)
        }
    }

    /// The tokenizer's error for the same nesting (see `Tokenizer.failure(status:chunk:)`).
    private func depthError() -> MappingError {
        MappingError(.depthLimit, "nesting deeper than \(buffers.pointee.depthLimit) levels")
    }
}

/// What a ``ValueTape`` does with a value of a type JSON does not have.
enum ForeignValuePolicy {
    /// Records it as a `.foreign` token: dictionary input, where the property reading it converts it (a
    /// `URL` into a `String` in lenient mode, a `Date` into a `Date`) or reports an error the
    /// invalid-value handler can forgive.
    case record
    /// Throws when it is met (encoding an `Any` property, which writes only JSON's own types).
    case reject
}

/// The value a `.foreign` token stands for, boxed so that the token can point to it.
final class ForeignValue {
    let value: Any
    init(_ value: Any) { self.value = value }
}

extension TapeView {
    /// The value of the `.foreign` token at `index` (valid while the tape is).
    func foreignValue(at index: Int) -> Any {
        let token = self[index]
        assert(token.kind == .foreign && token.payload != 0, "not a foreign value's token")
        return Unmanaged<ForeignValue>.fromOpaque(UnsafeRawPointer(bitPattern: token.payload).unsafelyUnwrapped)
            .takeUnretainedValue().value
    }
}

/// Sets of any element type, read as arrays by dictionary input.
protocol SetOfValues {
    var elementsInAnyOrder: [Any] { get }
}

extension Set: SetOfValues {
    var elementsInAnyOrder: [Any] { map { $0 } }
}

/// Telling booleans apart from `Int8`s inside an `NSNumber`.
enum NSNumberKind {
    static func isBoolean(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "c" && (number === kCFBooleanTrueValue || number === kCFBooleanFalseValue || type == "B")
            || type == "B"
    }

    private static let kCFBooleanTrueValue = NSNumber(value: true)
    private static let kCFBooleanFalseValue = NSNumber(value: false)
}

/// The exact dynamic types `JSONSerialization` produces, for dispatch without casts.
enum FoundationTypes {
    static let dictionary = ObjectIdentifier([String: Any].self)
    static let array = ObjectIdentifier([Any].self)
    static let string = ObjectIdentifier(String.self)
    static let number = ObjectIdentifier(NSNumber.self)
    static let decimalNumber = ObjectIdentifier(NSDecimalNumber.self)
    static let boolean = ObjectIdentifier(type(of: NSNumber(value: true)))
    static let null = ObjectIdentifier(NSNull.self)
    /// Significands up to this convert to `UInt64` exactly.
    static let maxExactSignificand = Decimal(UInt64.max)
}
