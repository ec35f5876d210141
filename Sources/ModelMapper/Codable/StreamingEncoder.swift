// Unsafe code: `unsafeBitCast(value, to: X.self)` only after `T.self == X.self` was checked; key bytes
// written from rebased slices inside `names.quoted`.
import Foundation

// The streaming Codable encoder: the fast path of `ModelEncoder().encode(_:)` and of `Encodable` fields of
// models. Synthesized (and most handwritten) `encode(to:)` implementations use their containers in stack
// order — a container is written to until the next sibling or parent write — so every value is written
// straight into the output: a keyed container writes `"key":value`, a nested container or value opens its
// object or array in place, and closes it when its parent is used again or its `encode(to:)` returns.
//
// Anything the stream cannot express *poisons* the run: a container used after it was closed, a key
// encoded twice in one object (JSONEncoder replaces the earlier value), a single value container written
// twice, an error thrown through the encoder (the caller may catch it and go on). From then on every
// operation is a no-op, and the caller encodes the value again with the tree encoder (`TapeEncoder`),
// which handles every order; `encode(to:)` is a pure function of the value, so the second run sees the
// same calls. Sorted keys always take the tree (members are written in `encode(to:)` order).
//
// The open values are a stack of frames (`StreamFrame`), one per open object, array or value slot.
// Containers and encoders are small structs naming their frame by a unique id and its depth.

/// What a frame holds so far.
enum StreamSlotKind: UInt8 {
    /// A value slot nothing was written to yet (closed as `{}`, as the tree encoder writes it).
    case empty
    case object
    case array
    /// A scalar (or a whole value) was written.
    case filled
}

struct StreamFrame {
    var id: Int
    var kind: StreamSlotKind
    /// Closed by the next write to an enclosing container (nested containers, super encoders); other
    /// frames (values being encoded) are closed by the code that opened them.
    var lazy: Bool
    /// Whether the frame's coding key is on `pathKeys`.
    var hasKey: Bool
    /// Whether some member was checked by name (its names are in `frameNames[id]`).
    var hasNames = false
    /// Members or elements written.
    var count = 0
    /// Keys written, by their bit in `owner`'s table.
    var written: UInt64 = 0
    /// The key table whose bits `written` holds.
    var owner: ObjectIdentifier? = nil
}

/// The coding key of a value that adds none to the path (the root, a single value container's value);
/// generic parameters take it instead of an optional key (no `Optional<Key>` metadata per value).
struct StreamNoKey: CodingKey {
    init() {}
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
    var stringValue: String { "" }
    var intValue: Int? { nil }
}

extension TapeEncodingState {
    // MARK: Running

    /// Encodes `value` into `out` through the stream. Returns false when the run was poisoned (the output
    /// is then incomplete: encode again with the tree). The root value has no container: depth -1.
    func streamRoot<T: Encodable>(_ value: T) throws -> Bool {
        defer { endStream() }
        try streamValueBody(value, depth: -1, key: StreamNoKey())
        if rootWasEmpty {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
        assert(poisoned || openFrames == 0, "a frame is left open after the root value")
        return !poisoned
    }

    // MARK: Frames
    //
    // The top frame is `topFrame` (no array access on the hot path); `frames` holds the ones below it.

    /// Open frames.
    @inline(__always)
    var frameCount: Int { openFrames }

    /// The frame at `depth` (0: outermost).
    @inline(__always)
    func frame(at depth: Int) -> StreamFrame {
        assert(depth >= 0 && depth < openFrames, "no frame at this depth")
        return depth == openFrames &- 1 ? topFrame : frames[depth]
    }

    @inline(__always)
    func pushFrame<K: CodingKey>(kind: StreamSlotKind, lazy: Bool, key: K) -> Int {
        nextFrameID &+= 1
        let id = nextFrameID
        let hasKey = K.self != StreamNoKey.self
        if hasKey { pathKeys.append(key) }
        if openFrames > 0 { frames.append(topFrame) }
        topFrame = StreamFrame(id: id, kind: kind, lazy: lazy, hasKey: hasKey)
        openFrames &+= 1
        topID = id
        return id
    }

    /// Writes the end of the top frame and pops it.
    func closeTop() {
        assert(openFrames > 0, "no frame to close")
        let frame = topFrame
        switch frame.kind {
        case .empty:
            out.writer.beginObject()
            out.writer.endObject(empty: true)
        case .object: out.writer.endObject(empty: frame.count == 0)
        case .array: out.writer.endArray(empty: frame.count == 0)
        case .filled: break
        }
        if frame.hasKey { pathKeys.removeLast() }
        if frame.hasNames { frameNames[frame.id] = nil }
        openFrames &-= 1
        if openFrames > 0 {
            topFrame = frames.removeLast()
            topID = topFrame.id
        } else {
            topFrame = StreamFrame(id: 0, kind: .filled, lazy: false, hasKey: false)
            topID = 0
        }
    }

    /// Makes frame `id` (at `depth`) the top one, closing the nested containers above it; false (and
    /// poisoned) when it was closed already or a value above it is still being encoded.
    @inline(__always)
    func enter(_ id: Int, _ depth: Int) -> Bool {
        topID == id || enterSlow(id, depth)
    }

    @inline(never)
    func enterSlow(_ id: Int, _ depth: Int) -> Bool {
        guard !poisoned, depth >= 0, depth < openFrames, frame(at: depth).id == id else {
            poison()
            return false
        }
        var i = openFrames - 1
        while i > depth {
            guard frame(at: i).lazy else {
                poison()
                return false
            }
            i -= 1
        }
        while openFrames - 1 > depth { closeTop() }
        return true
    }

    func poison() {
        poisoned = true
        topID = -1
    }

    /// The coding path of the frame at `depth`.
    func streamPath(_ depth: Int) -> [any CodingKey] {
        var path: [any CodingKey] = []
        var k = 0
        var i = 0
        while i < openFrames && i <= depth {
            if frame(at: i).hasKey {
                if k < pathKeys.count { path.append(pathKeys[k]) }
                k += 1
            }
            i += 1
        }
        return path
    }

    /// The coding path of frame `id` at `depth`, for an encoder or container asking for its own: one whose
    /// frame is closed is used out of order (poisoned; its path is then only a guess).
    func streamPath(_ depth: Int, of id: Int) -> [any CodingKey] {
        if depth >= 0 && (depth >= openFrames || frame(at: depth).id != id) { poison() }
        return streamPath(depth)
    }

    @inline(__always)
    func streamPath<K: CodingKey>(_ depth: Int, _ key: K) -> [any CodingKey] {
        var path = streamPath(depth)
        path.append(key)
        return path
    }

    // MARK: Members

    /// The key table of `Key` for this encoding.
    func keyNames<Key: CodingKey>(_ type: Key.Type) -> StreamKeyNames {
        let id = ObjectIdentifier(type)
        for entry in keyTables where entry.0 == id { return entry.1 }
        let table = StreamKeyNames(type)
        if table.tagged && !customKeys, let cached = StreamKeyNameCache.shared.names(.init(type: id, variant: keyVariant)) {
            table.load(cached)
            table.added = false
        }
        keyTables.append((id, table))
        return table
    }

    /// Which names a key table holds (escaped slashes, snake case).
    var keyVariant: UInt8 {
        var variant: UInt8 = escapesSlashes ? 1 : 0
        if convertsKeys, case .convertToSnakeCase = strategies.keys { variant |= 2 }
        return variant
    }

    /// A keyed container writing to frame `id`: a `StreamKeyedContainer` in the standard library's
    /// `KeyedEncodingContainer`.
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, id: Int, depth: Int, rawKeys: Bool) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(StreamKeyedContainer<Key>(state: self, id: id, depth: depth, rawKeys: rawKeys, names: keyNames(Key.self)))
    }

    /// Ends a streaming run: publishes the names it added and drops the key tables.
    func endStream() {
        for (id, table) in keyTables {
            if table.added {
                // A frozen copy (this table belongs to this encoding).
                let published = StreamKeyNames(copyOf: table)
                StreamKeyNameCache.shared.publish(published, for: .init(type: id, variant: keyVariant))
            }
        }
        keyTables.removeAll()
    }

    /// Starts the member `key` of the top frame (an object): checks it was not written yet and writes
    /// the separator and the key. False when the run is poisoned.
    @inline(__always)
    func beginMember<Key: CodingKey>(_ key: Key, _ names: StreamKeyNames, rawKeys: Bool, depth: Int) -> Bool {
        if names.tagged && !customKeys && !rawKeys {
            let tag = names.tag(key)
            let slot: StreamKeyNames.Slot
            if let known = names.slot(tag) {
                slot = known
            } else {
                names.fill(tag, name: keyName(key, depth: depth, raw: false), escapeSlashes: escapesSlashes)
                slot = names.slot(tag)!
            }
            let owner = ObjectIdentifier(names)
            if slot.bit != 0 && (topFrame.owner == owner || topFrame.owner == nil) {
                if topFrame.written & slot.bit != 0 || (topFrame.hasNames && !checkName(names.names[tag])) {
                    poison()
                    return false
                }
                topFrame.written |= slot.bit
                topFrame.owner = owner
            } else if !checkName(names.names[tag]) {
                poison()
                return false
            }
            let first = topFrame.count == 0
            topFrame.count &+= 1
            let text = names.bytes(of: slot)
            if pretty {
                out.writer.key(escaped: UnsafeBufferPointer(rebasing: text[1..<(text.count - 1)]), first: first)
            } else {
                out.writer.append(contentsOf: first ? UnsafeBufferPointer(rebasing: text[1...]) : text)
            }
            return true
        }
        // `[String: Value]` keys are unique (a dictionary's).
        return beginNamedMember(keyName(key, depth: depth, raw: rawKeys), checked: !rawKeys)
    }

    /// Starts the member `name` of the top frame, checked against the names written when `checked`.
    func beginNamedMember(_ name: String, checked: Bool) -> Bool {
        if checked && !checkName(name) {
            poison()
            return false
        }
        let first = topFrame.count == 0
        topFrame.count &+= 1
        if pretty {
            out.writer.key(name, first: first)
        } else {
            if !first { out.writer.append(UInt8(ascii: ",")) }
            writeString(name)
            out.writer.append(UInt8(ascii: ":"))
        }
        return true
    }

    /// The JSON name of `key` after the key strategy.
    func keyName<Key: CodingKey>(_ key: Key, depth: Int, raw: Bool) -> String {
        guard convertsKeys && !raw else { return key.stringValue }
        switch strategies.keys {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return FoundationKeys.toSnakeCase(key.stringValue)
        case .custom(let transform): return transform(streamPath(depth, key)).stringValue
        @unknown default: return key.stringValue
        }
    }

    /// Records `name` as written in the top frame; false when it was written already (by name or by a
    /// key type's bit).
    func checkName(_ name: String) -> Bool {
        let frame = topFrame
        if frame.written != 0, let owner = frame.owner,
           let table = keyTables.first(where: { ObjectIdentifier($0.1) == owner })?.1 {
            var bits = frame.written
            while bits != 0 {
                let bit = bits & (~bits &+ 1)
                if table.name(ofBit: bit) == name { return false }
                bits &= bits &- 1
            }
        }
        if frame.hasNames {
            return frameNames[frame.id, default: []].insert(name).inserted
        }
        topFrame.hasNames = true
        frameNames[frame.id] = [name]
        return true
    }

    /// Starts the next element of the top frame (an array); returns its index.
    @inline(__always)
    func beginElement() -> Int {
        let n = topFrame.count
        topFrame.count = n &+ 1
        out.writer.element(first: n == 0)
        return n
    }

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
        let model = value as! any JSONMappable
        func open<M: JSONMappable>(_ model: M) throws {
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
        if type is any JSONMappable.Type { return .mappable }
        if type is any StringKeyedDictionaryMarker.Type { return .stringKeyedDictionary }
        return .other
    }
}

// MARK: - Encoder

struct StreamEncoder: Encoder {
    let state: TapeEncodingState
    /// The value slot this encoder writes.
    let id: Int
    let depth: Int32
    /// `[String: Value]` dictionaries: keys as they are (no key strategy, as JSONEncoder).
    let rawKeys: Bool

    var codingPath: [any CodingKey] { state.streamPath(Int(depth), of: id) }
    var userInfo: [CodingUserInfoKey: Any] { state.strategies.userInfo }

    /// The same object for every call (a subclass and its superclass share one object).
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if state.enter(id, Int(depth)) {
            switch state.topFrame.kind {
            case .empty:
                state.topFrame.kind = .object
                state.out.writer.beginObject()
            case .object: break
            default: state.poison()
            }
        }
        return state.keyedContainer(Key.self, id: id, depth: Int(depth), rawKeys: rawKeys)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if state.enter(id, Int(depth)) {
            switch state.topFrame.kind {
            case .empty:
                state.topFrame.kind = .array
                state.out.writer.beginArray()
            case .array: break
            default: state.poison()
            }
        }
        return StreamUnkeyedContainer(state: state, id: id, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        StreamSingleValueContainer(state: state, id: id, depth: depth)
    }
}

// MARK: - Keyed

struct StreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let state: TapeEncodingState
    /// The frame it writes to.
    let id: Int
    let depth: Int
    let rawKeys: Bool
    let names: StreamKeyNames

    var codingPath: [any CodingKey] { state.streamPath(depth, of: id) }

    @inline(__always)
    private func member(_ key: Key) -> Bool {
        state.enter(id, depth) && state.beginMember(key, names, rawKeys: rawKeys, depth: depth)
    }

    mutating func encodeNil(forKey key: Key) throws { if member(key) { state.out.writer.null() } }
    mutating func encode(_ value: Bool, forKey key: Key) throws { if member(key) { state.out.writer.bool(value) } }
    mutating func encode(_ value: String, forKey key: Key) throws { if member(key) { state.writeString(value) } }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        if member(key) { try state.streamDouble(value, depth: depth, key: key) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        if member(key) { try state.streamFloat(value, depth: depth, key: key) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int8, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int16, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int64, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int128, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt128, forKey key: Key) throws { if member(key) { state.out.writer.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if member(key) { try state.streamValue(value, depth: depth, key: key) }
    }

    // encodeIfPresent: nil is omitted, or (mapping mode with `writesNulls`) written as null.

    @inline(__always)
    private mutating func absent(_ key: Key) {
        if state.writesNulls, member(key) { state.out.writer.null() }
    }

    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { absent(key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        var nestedID = -1
        if member(key) {
            nestedID = state.pushFrame(kind: .object, lazy: true, key: key)
            state.out.writer.beginObject()
        }
        return state.keyedContainer(NestedKey.self, id: nestedID, depth: depth + 1, rawKeys: false)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        var nestedID = -1
        if member(key) {
            nestedID = state.pushFrame(kind: .array, lazy: true, key: key)
            state.out.writer.beginArray()
        }
        return StreamUnkeyedContainer(state: state, id: nestedID, depth: Int32(depth + 1))
    }

    /// The member `super` (its name is not converted by the key strategy, as JSONEncoder).
    mutating func superEncoder() -> any Encoder {
        let key = JSONStringKey("super")
        var nestedID = -1
        if state.enter(id, depth) && state.beginNamedMember("super", checked: true) {
            nestedID = state.pushFrame(kind: .empty, lazy: true, key: key)
        }
        return StreamEncoder(state: state, id: nestedID, depth: Int32(depth + 1), rawKeys: false)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        var nestedID = -1
        if member(key) { nestedID = state.pushFrame(kind: .empty, lazy: true, key: key) }
        return StreamEncoder(state: state, id: nestedID, depth: Int32(depth + 1), rawKeys: false)
    }
}

// MARK: - Unkeyed

struct StreamUnkeyedContainer: UnkeyedEncodingContainer {
    let state: TapeEncodingState
    let id: Int
    let depth: Int32

    var codingPath: [any CodingKey] { state.streamPath(Int(depth), of: id) }

    var count: Int {
        let d = Int(depth)
        guard d >= 0 && d < state.frameCount, state.frame(at: d).id == id else {
            state.poison()
            return 0
        }
        return state.frame(at: d).count
    }

    /// Starts the next element; its index, or nil when poisoned.
    @inline(__always)
    private func element() -> Int? {
        state.enter(id, Int(depth)) ? state.beginElement() : nil
    }

    mutating func encodeNil() throws { if element() != nil { state.out.writer.null() } }
    mutating func encode(_ value: Bool) throws { if element() != nil { state.out.writer.bool(value) } }
    mutating func encode(_ value: String) throws { if element() != nil { state.writeString(value) } }
    mutating func encode(_ value: Double) throws {
        if let n = element() { try state.streamDouble(value, depth: Int(depth), key: JSONIndexKey(n)) }
    }
    mutating func encode(_ value: Float) throws {
        if let n = element() { try state.streamFloat(value, depth: Int(depth), key: JSONIndexKey(n)) }
    }
    mutating func encode(_ value: Int) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int8) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int16) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int32) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int64) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt8) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt16) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt32) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt64) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int128) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt128) throws { if element() != nil { state.out.writer.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if let n = element() { try state.streamValue(value, depth: Int(depth), key: JSONIndexKey(n)) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        var nestedID = -1
        if let n = element() {
            nestedID = state.pushFrame(kind: .object, lazy: true, key: JSONIndexKey(n))
            state.out.writer.beginObject()
        }
        return state.keyedContainer(NestedKey.self, id: nestedID, depth: Int(depth) + 1, rawKeys: false)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        var nestedID = -1
        if let n = element() {
            nestedID = state.pushFrame(kind: .array, lazy: true, key: JSONIndexKey(n))
            state.out.writer.beginArray()
        }
        return StreamUnkeyedContainer(state: state, id: nestedID, depth: depth + 1)
    }

    mutating func superEncoder() -> any Encoder {
        var nestedID = -1
        if let n = element() { nestedID = state.pushFrame(kind: .empty, lazy: true, key: JSONIndexKey(n)) }
        return StreamEncoder(state: state, id: nestedID, depth: depth + 1, rawKeys: false)
    }
}

// MARK: - Single value

struct StreamSingleValueContainer: SingleValueEncodingContainer {
    let state: TapeEncodingState
    let id: Int
    let depth: Int32

    var codingPath: [any CodingKey] { state.streamPath(Int(depth), of: id) }

    /// Claims the slot for one value; false (poisoned) when something was written to it already.
    @inline(__always)
    private func claim() -> Bool {
        guard state.enter(id, Int(depth)) else { return false }
        guard state.topFrame.kind == .empty else {
            state.poison()
            return false
        }
        state.topFrame.kind = .filled
        return true
    }

    mutating func encodeNil() throws { if claim() { state.out.writer.null() } }
    mutating func encode(_ value: Bool) throws { if claim() { state.out.writer.bool(value) } }
    mutating func encode(_ value: String) throws { if claim() { state.writeString(value) } }
    mutating func encode(_ value: Double) throws {
        if claim() { try state.streamDouble(value, depth: Int(depth), key: StreamNoKey()) }
    }
    mutating func encode(_ value: Float) throws {
        if claim() { try state.streamFloat(value, depth: Int(depth), key: StreamNoKey()) }
    }
    mutating func encode(_ value: Int) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int8) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int16) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int32) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int64) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt8) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt16) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt32) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt64) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: Int128) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode(_ value: UInt128) throws { if claim() { state.out.writer.integer(value) } }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if claim() { try state.streamValue(value, depth: Int(depth), key: StreamNoKey()) }
    }
}
