// Unsafe code: `unsafeBitCast(value, to: X.self)` only after `T.self == X.self` was checked (a same-type
// cast, no dynamic cast).
import Foundation

// Values written by the streaming encoder, and its per-type facts.

extension TapeEncodingState {
    // MARK: Values

    @inline(__always)
    func writeString(_ value: String) {
        out.writer.string(value, escapeSlashes: escapesSlashes)
    }

    /// Writes a value at the current position (after its key or separator); `key` is its coding key
    /// (nil: a single value container's, the path does not grow).
    @inline(__always)
    func streamValue<T: Encodable, K: CodingKey>(_ value: T, depth: Int, key: K) throws {
        if T.self == String.self { return writeString(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return out.writer.integer(unsafeBitCast(value, to: Int.self)) }
        if T.self == Bool.self { return out.writer.bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Double.self { return try streamDouble(unsafeBitCast(value, to: Double.self), depth: depth, key: key) }
        try streamValueBody(value, depth: depth, key: key)
    }

    func streamValueBody<T: Encodable, K: CodingKey>(_ value: T, depth: Int, key: K) throws {
        let kind = encodingKind(T.self)
        switch kind {
        case .other, .stringKeyedDictionary:
            break
        case .string: return writeString(value as! String)
        case .int: return out.writer.integer(value as! Int)
        case .int8: return out.writer.integer(value as! Int8)
        case .int16: return out.writer.integer(value as! Int16)
        case .int32: return out.writer.integer(value as! Int32)
        case .int64: return out.writer.integer(value as! Int64)
        case .uint: return out.writer.integer(value as! UInt)
        case .uint8: return out.writer.integer(value as! UInt8)
        case .uint16: return out.writer.integer(value as! UInt16)
        case .uint32: return out.writer.integer(value as! UInt32)
        case .uint64: return out.writer.integer(value as! UInt64)
        case .bool: return out.writer.bool(value as! Bool)
        case .double: return try streamDouble(value as! Double, depth: depth, key: key)
        case .float: return try streamFloat(value as! Float, depth: depth, key: key)
        case .url: return writeString((value as! URL).absoluteString)
        case .timeZone:
            if !isFoundation { return writeString((value as! TimeZone).identifier) }   // TimeZoneCodec's form
        case .decimal:
            let v = value as! Decimal
            guard v.isFinite else {
                poison()
                throw EncodingError.invalidValue(v, .init(codingPath: path(depth, key), debugDescription: "\(v) cannot be written as JSON"))
            }
            return out.writer.raw(v.description)
        case .jsonValue:
            let node: EncodedNode
            do {
                node = try self.node(value as! JSONValue, path(depth, key))
            } catch {
                poison()
                throw error
            }
            return try write(node, &out)
        case .mappable:
            if usesMapping { return try streamModel(value, depth: depth, key: key) }
        case .date:
            if try streamDate(value as! Date, depth: depth, key: key) { return }
        case .data:
            if try streamData(value as! Data, depth: depth, key: key) { return }
        }
        try streamEncodable(depth: depth, key: key, rawKeys: isFoundation && kind == .stringKeyedDictionary, checksRoot: true) { encoder in
            try value.encode(to: encoder)
        }
    }

    /// Runs `body` with an encoder for a new value slot (its frame pushed above `depth`), then closes it.
    /// `checksRoot`: a root value that writes nothing is an error (as JSONEncoder), not `{}`.
    func streamEncodable<K: CodingKey>(depth: Int, key: K, rawKeys: Bool = false, checksRoot: Bool = false,
                                       _ body: (StreamEncoder) throws -> Void) throws {
        let id = pushFrame(kind: .empty, lazy: false, key: key)
        do {
            try body(StreamEncoder(state: self, id: id, depth: Int32(depth + 1), rawKeys: rawKeys))
        } catch {
            poison()
            throw error
        }
        if topID != id { guard enterSlow(id, depth + 1) else { return } }
        if checksRoot && depth < 0 && isFoundation && frame(at: 0).kind == .empty {
            rootWasEmpty = true
            return
        }
        closeTop()
    }

    @inline(__always)
    func path<K: CodingKey>(_ depth: Int, _ key: K) -> [any CodingKey] {
        if K.self != StreamNoKey.self { return streamPath(depth, key) }
        return streamPath(depth)
    }

    func streamDouble<K: CodingKey>(_ value: Double, depth: Int, key: K) throws {
        if value.isFinite { return out.writer.number(value, dropsPointZero: isFoundation) }
        try streamNonConforming(value, Double(value), depth: depth, key: key)
    }

    func streamFloat<K: CodingKey>(_ value: Float, depth: Int, key: K) throws {
        if value.isFinite { return out.writer.number(value, dropsPointZero: isFoundation) }
        try streamNonConforming(value, Double(value), depth: depth, key: key)
    }

    @inline(never)
    func streamNonConforming<K: CodingKey>(_ value: Any, _ d: Double, depth: Int, key: K) throws {
        if isFoundation, let text = NonConformingFloats.text(of: d, strategies.nonConformingFloats) { return writeString(text) }
        poison()
        throw invalidFloat(value, path(depth, key))
    }

    /// A `JSONMappable` value written by its codec.
    func streamModel<T, K: CodingKey>(_ value: T, depth: Int, key: K) throws {
        let model = value as! any MappedJSONModel
        func open<M: MappedJSONModel>(_ model: M) throws {
            let codec: ValueCodec<M>
            do {
                codec = try models.mappedCodec(for: M.self)
            } catch {
                poison()
                throw encodingError(error, model, path(depth, key))
            }
            do {
                if codec.reachesContext {
                    out.path = CodingPathRendering.components(path(depth, key))
                    defer { out.path = nil }
                    try codec.encode(model, &out)
                } else {
                    try codec.encode(model, &out)
                }
            } catch {
                poison()
                if isFoundation { throw encodingError(error, model, path(depth, key)) }
                var error = error
                CodingPathRendering.prepend(CodingPathRendering.render(path(depth, key)), to: &error)
                throw error
            }
        }
        try open(model)
    }

    /// A value written by ModelMapper's own codec (mapping mode); its error gets the member's path.
    private func streamWithCodec<V, K: CodingKey>(_ codec: ValueCodec<V>, _ value: V, depth: Int, key: K) throws {
        do {
            try codec.encode(value, &out)
        } catch {
            poison()
            var error = error
            CodingPathRendering.prepend(CodingPathRendering.render(path(depth, key)), to: &error)
            throw error
        }
    }

    /// Dates by the strategy; false when the date is written by its own `encode(to:)`.
    func streamDate<K: CodingKey>(_ date: Date, depth: Int, key: K) throws -> Bool {
        guard isFoundation else {
            try streamWithCodec(dateCodec, date, depth: depth, key: key)
            return true
        }
        return try stream(DateStrategies.output(date, strategies.dates), of: date, depth: depth, key: key)
    }

    /// Data by the strategy; false when written by its own `encode(to:)`.
    func streamData<K: CodingKey>(_ data: Data, depth: Int, key: K) throws -> Bool {
        guard isFoundation else {
            try streamWithCodec(dataCodec, data, depth: depth, key: key)
            return true
        }
        return try stream(DataStrategies.output(data, strategies.data), of: data, depth: depth, key: key)
    }

    /// Writes a strategy's output; false for `.deferred` (the value's own `encode(to:)`, the caller's path).
    private func stream<K: CodingKey>(_ output: StrategyOutput, of value: Any, depth: Int, key: K) throws -> Bool {
        switch output {
        case .number(let d): try streamDouble(d, depth: depth, key: key)
        case .string(let s): writeString(s)
        case .encoder(let body): try streamEncodable(depth: depth, key: key) { try body($0) }
        case .deferred: return false
        case .unsupported(let message):
            poison()
            throw EncodingError.invalidValue(value, .init(codingPath: path(depth, key), debugDescription: message))
        }
        return true
    }

    // MARK: Types

    /// How values of a type are written, decided once per type and encoding.
    enum EncodingKind: UInt8 {
        case other, stringKeyedDictionary, mappable
        case string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, bool, double, float
        case date, data, url, decimal, jsonValue, timeZone
    }

    @inline(__always)
    func encodingKind<T>(_ type: T.Type) -> EncodingKind {
        let id = ObjectIdentifier(type)
        let slot = Int(truncatingIfNeeded: (UInt(bitPattern: id) >> 4) & 31)
        if kindCache[slot].0 == id { return kindCache[slot].1 }
        let kind = Self.classify(type)
        kindCache[slot] = (id, kind)
        return kind
    }

    static func classify<T>(_ type: T.Type) -> EncodingKind {
        if T.self == String.self { return .string }
        if T.self == Int.self { return .int }
        if T.self == Int8.self { return .int8 }
        if T.self == Int16.self { return .int16 }
        if T.self == Int32.self { return .int32 }
        if T.self == Int64.self { return .int64 }
        if T.self == UInt.self { return .uint }
        if T.self == UInt8.self { return .uint8 }
        if T.self == UInt16.self { return .uint16 }
        if T.self == UInt32.self { return .uint32 }
        if T.self == UInt64.self { return .uint64 }
        if T.self == Bool.self { return .bool }
        if T.self == Double.self { return .double }
        if T.self == Float.self { return .float }
        if T.self == Date.self { return .date }
        if T.self == Data.self { return .data }
        if T.self == URL.self { return .url }
        if T.self == TimeZone.self { return .timeZone }
        if T.self == Decimal.self { return .decimal }
        if T.self == JSONValue.self { return .jsonValue }
        if type is any MappedJSONModel.Type { return .mappable }
        if type is any StringKeyedDictionaryMarker.Type { return .stringKeyedDictionary }
        return .other
    }
}
