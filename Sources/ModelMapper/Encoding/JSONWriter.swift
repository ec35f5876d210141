/// Appends JSON text to a byte buffer: strings escaped per RFC 8259, numbers as literal text, and the
/// layout (`prettyPrinted`) handled in one place for values and models alike.
struct JSONWriter {
    var bytes: [UInt8] = []
    let options: EncodingOptions
    private let pretty: Bool
    private var indent = 0

    init(options: EncodingOptions, capacity: Int = 256) {
        self.options = options
        pretty = options.contains(.prettyPrinted)
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        indent += 1
    }

    /// Closes an object; `empty` when no member was written.
    mutating func endObject(empty: Bool) {
        indent -= 1
        if pretty && !empty { newline() }
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        bytes.append(UInt8(ascii: "["))
        indent += 1
    }

    mutating func endArray(empty: Bool) {
        indent -= 1
        if pretty && !empty { newline() }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Starts an array element; `first` for the first one.
    @inline(__always)
    mutating func element(first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        if pretty { newline() }
    }

    /// Writes a member's key and colon; `first` for the first member.
    @inline(__always)
    mutating func key(_ key: String, first: Bool) {
        element(first: first)
        string(key)
        if pretty {
            bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: ":")); bytes.append(UInt8(ascii: " "))
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
    }

    /// Writes a key given as pre-escaped bytes including quotes.
    @inline(__always)
    mutating func key(escaped: [UInt8], first: Bool) {
        element(first: first)
        bytes.append(contentsOf: escaped)
        if pretty {
            bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: ":")); bytes.append(UInt8(ascii: " "))
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
    }

    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<indent { bytes.append(UInt8(ascii: " ")); bytes.append(UInt8(ascii: " ")) }
    }

    // MARK: Scalars

    mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

    mutating func bool(_ value: Bool) {
        if value { bytes.append(contentsOf: [0x74, 0x72, 0x75, 0x65]) } else { bytes.append(contentsOf: [0x66, 0x61, 0x6C, 0x73, 0x65]) }
    }

    /// Appends ASCII literal text (numbers).
    mutating func raw(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func integer<I: BinaryInteger>(_ value: I) {
        raw(String(value))
    }

    /// A quoted, escaped string.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in JSONWriter.appendEscaped(utf8, to: &bytes, escapeSlashes: options.contains(.escapesSlashes)) }
    }

    static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8], escapeSlashes: Bool) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var i = 0
        let count = utf8.count
        while i < count {
            let byte = utf8[i]
            let needsEscape = byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                || (escapeSlashes && byte == UInt8(ascii: "/"))
            if needsEscape {
                if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "/"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(UInt8(ascii: "u")); bytes.append(UInt8(ascii: "0")); bytes.append(UInt8(ascii: "0"))
                    bytes.append(hex[Int(byte >> 4)]); bytes.append(hex[Int(byte & 0xF)])
                }
                runStart = i + 1
            }
            i += 1
        }
        if runStart < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count])) }
        bytes.append(UInt8(ascii: "\""))
    }

    // MARK: Values

    /// Writes any JSON value. Numbers whose text is not valid JSON (NaN, infinity) are written as given;
    /// the model encoder validates numbers before they get here.
    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): raw(n.text)
        case .string(let s): string(s)
        case .array(let elements):
            beginArray()
            for (i, element) in elements.enumerated() {
                self.element(first: i == 0)
                write(element)
            }
            endArray(empty: elements.isEmpty)
        case .object(let object):
            beginObject()
            if options.contains(.sortedKeys) {
                let sorted = object.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
                for (i, (k, v)) in sorted.enumerated() {
                    key(k, first: i == 0)
                    write(v)
                }
            } else {
                for (i, (k, v)) in object.enumerated() {
                    key(k, first: i == 0)
                    write(v)
                }
            }
            endObject(empty: object.isEmpty)
        }
    }
}
