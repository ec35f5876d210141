// Unsafe code: key bytes written from rebased slices inside `names.quoted` (the table's quoted name,
// which the slice bounds stay inside: asserted by the rebasing subscripts in debug builds).
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

}
