import Foundation

extension JSONValue {
    /// Parses any JSON document (object, array or scalar) from `Data`, `[UInt8]`, `String` or raw bytes.
    ///
    /// - Throws: ``MappingError`` of kind `.syntax` or `.depthLimit`, with the offset, line and column.
    public init<Input: JSONInput>(json: Input, depthLimit: Int = DecodingOptions.defaultDepthLimit) throws {
        self = try json.withJSONBytes { bytes throws(MappingError) in
            try withParsedDocument(bytes, depthLimit: depthLimit) { tape throws(MappingError) in
                var index = 0
                return JSONValue(tape: tape, index: &index)
            }
        }
    }

    /// Builds the value starting at `index` and advances `index` past it.
    init(tape: TapeView, index: inout Int) {
        let token = tape[index]
        switch token.kind {
        case .null:
            index += 1
            self = .null
        case .falseValue:
            index += 1
            self = .bool(false)
        case .trueValue:
            index += 1
            self = .bool(true)
        case .number:
            index += 1
            self = .number(JSONNumber(text: tape.string(token)))
        case .string, .key:
            index += 1
            self = .string(tape.string(token))
        case .arrayStart:
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(token.length))
            index += 1
            while tape[index].kind != .arrayEnd {
                elements.append(JSONValue(tape: tape, index: &index))
            }
            index += 1
            self = .array(elements)
        case .objectStart:
            self = .object(JSONObject(tape: tape, index: &index))
        case .objectEnd, .arrayEnd:
            preconditionFailure("tape out of sync: value expected at token \(index)")
        }
    }
}

extension JSONObject {
    /// Builds the object starting at `index` (an `objectStart`) and advances `index` past it.
    /// Duplicate keys keep the last value.
    init(tape: TapeView, index: inout Int) {
        self.init()
        reserveCapacity(Int(tape[index].length))
        index += 1
        while tape[index].kind == .key {
            let key = tape.string(tape[index])
            index += 1
            let value = JSONValue(tape: tape, index: &index)
            if position(of: key) != nil { self[key] = value } else { appendUnchecked(key, value) }
        }
        index += 1
    }
}
