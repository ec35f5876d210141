import Foundation

/// A tape built from values already in memory (a ``JSONValue`` or a `JSONSerialization` object) rather
/// than parsed, so `init(jsonObject:)` and rewritten hook objects decode through the same codecs as bytes.
/// All strings are copied into the arena.
final class ValueTape {
    private let buffers: UnsafeMutablePointer<TapeBuffers>

    /// A tape of one JSON value.
    init(_ value: JSONValue, depthLimit: Int = DecodingOptions.defaultDepthLimit) {
        buffers = .allocate(capacity: 1)
        buffers.initialize(to: TapeBuffers(tokenCapacity: 64, arenaCapacity: 256, depthLimit: Int.max))
        append(value)
    }

    /// A tape of a `JSONSerialization`-style object: `[String: Any]`, `[Any]`, `String`, `NSNumber`,
    /// `Bool`, integers, `Double`, `Decimal`, `NSNull`, or a ``JSONValue``.
    init(foundation object: Any, depthLimit: Int) throws(MappingError) {
        buffers = .allocate(capacity: 1)
        buffers.initialize(to: TapeBuffers(tokenCapacity: 64, arenaCapacity: 256, depthLimit: depthLimit))
        try appendFoundation(object, path: "", depth: 0)
    }

    deinit {
        buffers.pointee.deallocate()
        buffers.deinitialize(count: 1)
        buffers.deallocate()
    }

    func withView<R>(_ body: (TapeView) throws(MappingError) -> R) throws(MappingError) -> R {
        let b = buffers.pointee
        return try body(TapeView(tokens: UnsafePointer(b.tokens), count: b.tokenCount, input: nil,
                                 arena: UnsafePointer(b.arena)))
    }

    private func appendText(_ kind: TokenKind, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            _ = buffers.pointee.appendScalar(kind, bytes: UnsafeRawPointer(utf8.baseAddress), count: utf8.count)
        }
    }

    private func append(_ value: JSONValue) {
        switch value {
        case .null: _ = buffers.pointee.appendScalar(.null, bytes: nil, count: 0)
        case .bool(let b): _ = buffers.pointee.appendScalar(b ? .trueValue : .falseValue, bytes: nil, count: 0)
        case .number(let n): appendText(.number, n.text)
        case .string(let s): appendText(.string, s)
        case .array(let elements):
            _ = buffers.pointee.openContainer(.arrayStart)
            for element in elements { append(element) }
            _ = buffers.pointee.closeContainer(.arrayEnd)
        case .object(let object):
            _ = buffers.pointee.openContainer(.objectStart)
            for (key, element) in object {
                appendText(.key, key)
                append(element)
            }
            _ = buffers.pointee.closeContainer(.objectEnd)
        }
    }

    private func appendFoundation(_ object: Any, path: String, depth: Int) throws(MappingError) {
        switch object {
        case let dictionary as [String: Any]:
            guard buffers.pointee.openContainer(.objectStart) else { throw depthError(path) }
            for (key, element) in dictionary {
                appendText(.key, key)
                try appendFoundation(element, path: path.isEmpty ? key : path + "." + key, depth: depth + 1)
            }
            _ = buffers.pointee.closeContainer(.objectEnd)
        case let array as [Any]:
            guard buffers.pointee.openContainer(.arrayStart) else { throw depthError(path) }
            for (i, element) in array.enumerated() {
                try appendFoundation(element, path: path + "[\(i)]", depth: depth + 1)
            }
            _ = buffers.pointee.closeContainer(.arrayEnd)
        case let string as String:
            appendText(.string, string)
        case let value as JSONValue:
            append(value)
        case let object as JSONObject:
            append(.object(object))
        case is NSNull:
            _ = buffers.pointee.appendScalar(.null, bytes: nil, count: 0)
        case let number as NSDecimalNumber:
            // JSONSerialization keeps long literals as decimals; their text is exact (`doubleValue` is not).
            appendText(.number, number.decimalValue.description)
        case let number as NSNumber:
            try appendNumber(number, path: path)
        case let bool as Bool:
            _ = buffers.pointee.appendScalar(bool ? .trueValue : .falseValue, bytes: nil, count: 0)
        case let value as Int: appendText(.number, String(value))
        case let value as Int64: appendText(.number, String(value))
        case let value as UInt64: appendText(.number, String(value))
        case let value as Decimal: appendText(.number, value.description)
        case let value as Double:
            guard value.isFinite else { throw MappingError(.invalidValue, "\(value) is not a JSON number", path: path) }
            appendText(.number, value.description)
        default:
            throw MappingError(.typeMismatch, "\(type(of: object)) is not a JSON value", path: path)
        }
    }

    private func appendNumber(_ number: NSNumber, path: String) throws(MappingError) {
        if NSNumberKind.isBoolean(number) {
            _ = buffers.pointee.appendScalar(number.boolValue ? .trueValue : .falseValue, bytes: nil, count: 0)
            return
        }
        let text: String
        switch NSNumberKind.of(number) {
        case .signed: text = String(number.int64Value)
        case .unsigned: text = String(number.uint64Value)
        case .floating:
            let value = number.doubleValue
            guard value.isFinite else { throw MappingError(.invalidValue, "\(value) is not a JSON number", path: path) }
            text = value.description
        }
        appendText(.number, text)
    }

    private func depthError(_ path: String) -> MappingError {
        MappingError(.depthLimit, "nesting deeper than \(buffers.pointee.depthLimit) levels", path: path)
    }
}

/// Telling the number types apart inside an `NSNumber`.
enum NSNumberKind {
    case signed, unsigned, floating

    static func isBoolean(_ number: NSNumber) -> Bool {
        let type = String(cString: number.objCType)
        return type == "c" && (number === kCFBooleanTrueValue || number === kCFBooleanFalseValue || type == "B")
            || type == "B"
    }

    private static let kCFBooleanTrueValue = NSNumber(value: true)
    private static let kCFBooleanFalseValue = NSNumber(value: false)

    static func of(_ number: NSNumber) -> NSNumberKind {
        switch String(cString: number.objCType) {
        case "f", "d": return .floating
        case "Q", "L", "I", "S", "C": return .unsigned
        default: return .signed
        }
    }
}
