import Foundation

extension JSONValue {
    /// Parses any JSON document (object, array or scalar) from `Data`, `[UInt8]`, `String` or raw bytes.
    ///
    /// The text is read as JSONDecoder reads it — UTF-8 (a byte-order mark skipped), UTF-16 or UTF-32 — but
    /// its syntax is RFC 8259's exactly: unlike the decoders, this rejects trailing commas (`[1,]`).
    ///
    /// - Throws: ``MappingError`` of kind `.syntax` or `.depthLimit`, with the offset (in the input's bytes),
    ///   line and column (in characters).
    public init<Input: JSONInput>(json: Input, depthLimit: Int = DecodingOptions.defaultDepthLimit) throws {
        self = try json.withJSONBytes { bytes throws(MappingError) in
            try withParsedInput(bytes, depthLimit: depthLimit, allowsTrailingCommas: false) { tape, _ throws(MappingError) in
                var index = 0
                return try JSONValue(tape: tape, index: &index)
            }
        }
    }

    /// Builds the value starting at `index` and advances `index` past it.
    ///
    /// Iterative, with explicit stacks: nesting is bounded by the depth limit, but the thread's stack may
    /// be small (dispatch threads) and frames large (sanitizers). Nesting past ``maximumDepth`` is
    /// refused whatever the depth limit: such a value could not be released safely.
    init(tape: TapeView, index: inout Int) throws(MappingError) {
        var arrays: [[JSONValue]] = []
        var objects: [JSONObject] = []
        var keys: [String] = []
        var isObject: [Bool] = []
        var i = index
        while true {
            let token = tape[i]
            i += 1
            var value: JSONValue
            switch token.kind {
            case .null: value = .null
            case .falseValue: value = .bool(false)
            case .trueValue: value = .bool(true)
            case .number: value = .number(JSONNumber(text: tape.text(token)))
            case .string: value = .string(try tape.string(at: i - 1))
            case .key:
                keys.append(try tape.string(at: i - 1))
                continue
            case .arrayStart:
                if isObject.count >= JSONValue.maximumDepth { throw JSONValue.tooDeep(at: i - 1) }
                var elements: [JSONValue] = []
                elements.reserveCapacity(Int(token.length))
                arrays.append(elements)
                isObject.append(false)
                continue
            case .objectStart:
                if isObject.count >= JSONValue.maximumDepth { throw JSONValue.tooDeep(at: i - 1) }
                var object = JSONObject()
                object.reserveCapacity(Int(token.length))
                objects.append(object)
                isObject.append(true)
                continue
            case .arrayEnd:
                isObject.removeLast()
                value = .array(arrays.removeLast())
            case .objectEnd:
                isObject.removeLast()
                value = .object(objects.removeLast())
            case .foreign:
                var error = MappingError(.typeMismatch, "\(ForeignValues.describe(tape.foreignValue(at: i - 1))) is not a JSON value")
                error.tokenIndex = i - 1
                throw error
            }
            guard let parentIsObject = isObject.last else {
                index = i
                self = value
                return
            }
            if parentIsObject {
                let key = keys.removeLast()
                // Duplicate keys: the last value wins.
                if objects[objects.count - 1].position(of: key) != nil {
                    objects[objects.count - 1][key] = value
                } else {
                    objects[objects.count - 1].appendUnchecked(key, value)
                }
            } else {
                arrays[arrays.count - 1].append(value)
            }
        }
    }
}

extension JSONValue {
    /// The error for a value nested deeper than ``maximumDepth``, at the container that opens the level.
    static func tooDeep(at index: Int) -> MappingError {
        var error = MappingError(.depthLimit, "a JSONValue nests at most \(maximumDepth) arrays and objects deep")
        error.tokenIndex = index
        return error
    }
}

extension JSONObject {
    /// Builds the object starting at `index` (an `objectStart`) and advances `index` past it.
    /// Duplicate keys keep the last value.
    init(tape: TapeView, index: inout Int) throws(MappingError) {
        guard case .object(let object) = try JSONValue(tape: tape, index: &index) else {
            preconditionFailure("tape out of sync: object expected")
        }
        self = object
    }
}
