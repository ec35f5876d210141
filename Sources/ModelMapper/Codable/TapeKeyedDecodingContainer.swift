// Unsafe code: an unretained (`Unmanaged`) reference from a keyed container to its decoding state, and
// raw-buffer comparisons of key bytes. Invariants:
// - The container holds its state (`owner`, asserted to be its decoder's state); `unretainedState` is the
//   same object, borrowed (`withState`) only while the container lives.
// - Key slices lie inside `names.quoted` (asserted by the rebasing subscripts in debug builds); tape bytes
//   are read only through `TapeView.bytes`. A wanted key's buffer is used only inside the lookup it was
//   handed to (`withUTF8`, or `names.bytes(of:)` of a table the container holds).
import Foundation

// The Codable decoder's keyed container: finds members by their raw key bytes on the tape.

/// What a keyed container reads (the key-type-independent part, which `TapeDecodingState.detach` points
/// at the copy of the tape).
class TapeKeyedContainerBase {
    /// `owner` again, unretained: the per-value paths borrow it (`withState`) instead of retaining and
    /// releasing it per value. Unmanaged rather than unowned(unsafe), whose every read retains and releases.
    private final let unretainedState: Unmanaged<TapeDecodingState>
    /// The state, retained by the caller (for paths that make a decoder or an error).
    final var state: TapeDecodingState { unretainedState.takeUnretainedValue() }
    /// Holds the state while the container lives.
    private final let owner: TapeDecodingState
    /// The state's tape (the copy once the state is detached).
    @exclusivity(unchecked) final var tape: TapeView
    /// The object's start token and the decoder's path (`TapeDecoder.packed`): the decoder without its
    /// reference to the state, which `state` holds (storing the decoder retained and released the state
    /// per object).
    final var objectIndex: Int
    final var packedPath: Int
    final var decoder: TapeDecoder { TapeDecoder(state: state, index: objectIndex, packed: packedPath) }
    /// Calls `body` with the state borrowed, not retained: it lives while this container does (see
    /// `unretainedState`).
    @inline(__always)
    final func withState<R>(_ body: (TapeDecodingState) throws -> R) rethrows -> R {
        try unretainedState._withUnsafeGuaranteedRef(body)
    }
    /// Index of the object's end token.
    final var end: Int
    /// The key token where the next lookup starts (members are usually read in document order).
    final var cursor: Int
    /// A converting key strategy applies to this object's keys (`convertedKeys` or `snakeCaseMembers`).
    final var keysConverted = false
    /// Member keys after the key strategy, in member order (with a converting strategy other than
    /// `.convertFromSnakeCase` on a plain-enum key type).
    final var convertedKeys: [(keyIndex: Int, name: String)]?
    /// The key type's entry.
    final let keys: TapeDecodingState.KeyTypeEntry
    /// Its keys' names by tag (`keys.names` when the container was made).
    @exclusivity(unchecked) final var names: StreamKeyNames
    /// The key tokens of the object's first members (`memberCount` of them; -1: not listed yet).
    @exclusivity(unchecked) final var members = FixedArray64<Int32>(repeating: 0)
    @exclusivity(unchecked) final var memberCount = -1
    @exclusivity(unchecked) final var membersTruncated = false

    /// A container for the object of `decoder`; `owner` is its state.
    init(decoder: TapeDecoder, keys: TapeDecodingState.KeyTypeEntry, owner: TapeDecodingState) throws {
        assert(owner === decoder.state, "a container owned by another state")
        unretainedState = Unmanaged.passUnretained(decoder.state)
        self.owner = owner
        tape = decoder.state.tape
        self.keys = keys
        names = keys.names
        objectIndex = decoder.index
        packedPath = decoder.packed
        end = 0
        cursor = 0
        try reset(decoder)
        owner.liveKeyed.append(.passUnretained(self))
    }

    deinit {
        owner.forgetKeyed(self)
    }

    /// Points the container at the object of `decoder`.
    final func reset(_ decoder: TapeDecoder) throws {
        assert(decoder.state === state, "a container reset for another decoding's state")
        objectIndex = decoder.index
        packedPath = decoder.packed
        tape = decoder.state.tape
        if names !== keys.names { names = keys.names }
        memberCount = -1
        end = tape[objectIndex].payload
        cursor = objectIndex + 1
        keysConverted = decoder.state.convertsKeys && !decoder.rawKeys
        guard keysConverted else { return }
        convertedKeys = nil
        snakeCaseMembers = false
        if decoder.state.convertsFromSnakeCase && names.tagged {
            try indexSnakeCaseMembers(decoder)
            return
        }
        // `.custom` (or a key type that is not a plain enum): every key converted for this object. A custom
        // conversion is not kept: JSONDecoder calls it with the coding path, on which it may depend.
        convertedKeys = try decoder.state.convertedMemberKeys(objectIndex, end: end, codingPath: decoder.codingPath)
    }

    // MARK: `.convertFromSnakeCase`

    /// Members indexed by key tag (`members[tag]`, where `presentTags` has the tag's bit): on.
    final var snakeCaseMembers = false
    /// Tags (below 64) whose first member is in `members[tag]`.
    final var presentTags: UInt64 = 0
    /// A member whose spelling has no tag (a name no key of the type had when indexed, or a tag past 63).
    final var unresolvedMembers = false
    /// The key type's `nameGeneration` when the members were indexed.
    final var indexedGeneration = 0

    /// Indexes the object's members by the tag of their converted key, the first member of each name (as
    /// JSONDecoder reads colliding keys): one hash lookup of the key's bytes per member, a conversion only for a
    /// spelling the key type's `SnakeCaseSpellings` has not met.
    @inline(__always)
    final func indexSnakeCaseMembers(_ decoder: TapeDecoder) throws {
        snakeCaseMembers = true
        presentTags = 0
        unresolvedMembers = false
        indexedGeneration = keys.nameGeneration
        let spellings = keys.spellings()
        var k = objectIndex + 1
        while k < end {
            let bytes = tape.bytes(tape[k])
            let hash = SnakeCaseSpellings.hash(bytes)
            let slot = try spellings.slot(bytes, hash: hash) ?? newSpelling(k, bytes, hash, spellings, decoder)
            if slot.tag >= 0 && k <= Int(Int32.max) {
                let bit: UInt64 = 1 << UInt64(slot.tag)
                if presentTags & bit == 0 {
                    presentTags |= bit
                    members[Int(slot.tag)] = Int32(truncatingIfNeeded: k)
                }
            } else {
                unresolvedMembers = true
            }
            k = tape.indexAfterValue(at: k + 1)
        }
    }

    /// A spelling met for the first time: converted (invalid UTF-8 throws, as every conversion) and kept.
    @inline(never)
    private final func newSpelling(_ k: Int, _ bytes: UnsafeRawBufferPointer, _ hash: UInt32,
                                   _ spellings: SnakeCaseSpellings, _ decoder: TapeDecoder) throws -> SnakeCaseSpellings.Slot {
        let name = try decoder.state.convertedKey(k, codingPath: decoder.codingPath)
        return spellings.insert(bytes, hash: hash, name: name, keyNames: keys.names)
    }

    /// The converted name of the member whose key token is `k` (a spelling `indexSnakeCaseMembers` converted).
    final func snakeCaseName(_ k: Int) -> String? {
        let bytes = tape.bytes(tape[k])
        let hash = SnakeCaseSpellings.hash(bytes)
        let spellings = keys.spellings()
        if let slot = spellings.slot(bytes, hash: hash) { return spellings.names[Int(slot.name)] }
        // The table started over since (it holds a bounded number of spellings).
        guard let slot = try? newSpelling(k, bytes, hash, spellings, decoder) else { return nil }
        return spellings.names[Int(slot.name)]
    }

    /// The members' converted keys in member order, under any converting strategy.
    final func convertedMembers() -> [(keyIndex: Int, name: String)] {
        if let convertedKeys { return convertedKeys }
        var list: [(keyIndex: Int, name: String)] = []
        var k = objectIndex + 1
        while k < end {
            if let name = snakeCaseName(k) { list.append((k, name)) }
            k = tape.indexAfterValue(at: k + 1)
        }
        return list
    }
}

final class TapeKeyedContainer<Key: CodingKey>: TapeKeyedContainerBase, KeyedDecodingContainerProtocol {
    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The members' keys in member order. Under a key strategy, two members whose keys convert to the same
    /// name are one key, listed once, as in JSONDecoder's dictionary (the first member's value is read). A key
    /// repeated in the JSON itself stays listed twice (see the fuzz target's `duplicateKeys` difference).
    var allKeys: [Key] {
        var keys: [Key] = []
        if keysConverted {
            var seen = Set<String>()
            for (_, name) in convertedMembers() where seen.insert(name).inserted {
                if let key = Key(stringValue: name) { keys.append(key) }
            }
            return keys
        }
        var k = objectIndex + 1
        while k < end {
            if let name = try? tape.string(at: k), let key = Key(stringValue: name) { keys.append(key) }
            k = tape.indexAfterValue(at: k + 1)
        }
        return keys
    }

    /// The value token of `key`, or nil: raw key bytes compared from the cursor to the end, then from the
    /// start to the cursor.
    @inline(__always)
    func find(_ key: Key) -> Int? {
        if keysConverted { return convertedMember(key) }
        if names.tagged {
            // The key's name from the key type's table (no `stringValue` per lookup).
            let tag = names.tag(key)
            if let slot = names.slot(tag) { return lookup(names.bytes(of: slot), tag: tag) }
            // A new key: added to this decoding's copy of the table, which this container uses from now.
            names = keys.learn(tag, name: key.stringValue)
            return lookup(names.bytes(of: names.slot(tag)!), tag: tag)
        }
        var name = key.stringValue
        return name.withUTF8 { lookup($0) }
    }

    /// The value token of `key` under a converting strategy (out of line: the CodingKeys path pays one
    /// test for it). `.convertFromSnakeCase`: the member indexed for the key's tag, or none when every
    /// member's spelling had a tag; else (a name learned since the index, a spelling of no key, a tag past
    /// 63) the first member whose converted key is the key's name. Other strategies: the first member whose
    /// converted key is the key's name.
    @inline(never)
    private func convertedMember(_ key: Key) -> Int? {
        guard snakeCaseMembers else {
            let name = key.stringValue
            for (keyIndex, converted) in convertedKeys ?? [] where converted == name { return keyIndex + 1 }
            return nil
        }
        let tag = names.tag(key)
        if names.slot(tag) == nil { names = keys.learn(tag, name: key.stringValue) }
        if tag < 64 && indexedGeneration == keys.nameGeneration {
            if presentTags & (1 << UInt64(tag)) != 0 { return Int(members[tag]) + 1 }
            if !unresolvedMembers { return nil }
        }
        let name = key.stringValue
        var k = objectIndex + 1
        while k < end {
            if snakeCaseName(k) == name { return k + 1 }
            k = tape.indexAfterValue(at: k + 1)
        }
        return nil
    }

    /// A tagged key's member: at the cursor (members read in document order), else ahead of it (members
    /// skipped) unless the key has a learned ordinal, else at the ordinal where a container of the key type last
    /// found the key (`KeyTypeEntry.ordinals`), else by a scan of the members; learns the ordinal.
    @inline(__always)
    private func lookup(_ wanted: UnsafeBufferPointer<UInt8>, tag: Int) -> Int? {
        if cursor < end && matches(cursor, wanted) { return found(cursor) }
        guard tag < 64 else { return lookup(wanted) }
        if memberCount < 0 && keys.ordinals[tag] == 255 {
            // No ordinal learned: read ahead from the cursor first (document order, members skipped),
            // which touches no more of the tape than the value itself needs.
            if let hit = scan(wanted, from: cursor, to: end) { return hit }
        }
        indexMembers()
        let predicted = Int(keys.ordinals[tag])
        if predicted < memberCount, matches(Int(members[predicted]), wanted) { return found(Int(members[predicted])) }
        var i = 0
        while i < memberCount {
            let k = Int(members[i])
            if matches(k, wanted) {
                if i < 255 { keys.ordinals[tag] = UInt8(i) }
                return found(k)
            }
            i &+= 1
        }
        return membersTruncated ? lookup(wanted) : nil
    }

    /// Whether the key token at `k` is `wanted`.
    @inline(__always)
    private func matches(_ k: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let token = tape[k]
        guard Int(token.length) == wanted.count else { return false }
        return wanted.count == 0 || KeyTable.equal(tape.bytes(token).baseAddress!, wanted.baseAddress!, count: wanted.count)
    }

    /// The value of the member whose key token is `k`; the cursor moves past it.
    @inline(__always)
    private func found(_ k: Int) -> Int {
        let valueIndex = k + 1
        cursor = tape.indexAfterValue(at: valueIndex)
        if cursor >= end { cursor = objectIndex + 1 }
        return valueIndex
    }

    /// Lists the members' key tokens (once per object, on the first lookup away from the cursor).
    @inline(__always)
    private func indexMembers() {
        guard memberCount < 0 else { return }
        var k = objectIndex + 1
        var n = 0
        while k < end && n < members.count {
            members[n] = Int32(truncatingIfNeeded: k)
            n &+= 1
            k = tape.indexAfterValue(at: k + 1)
        }
        memberCount = n
        // More members than the index holds: a key not among the first ones is found by a scan.
        membersTruncated = k < end
    }

    /// The value token of the member named `wanted`: from the cursor to the end, then from the start to
    /// the cursor.
    @inline(__always)
    private func lookup(_ wanted: UnsafeBufferPointer<UInt8>) -> Int? {
        let start = objectIndex + 1
        if let found = scan(wanted, from: cursor, to: end) { return found }
        return cursor > start ? scan(wanted, from: start, to: cursor) : nil
    }

    @inline(__always)
    private func scan(_ wanted: UnsafeBufferPointer<UInt8>, from: Int, to limit: Int) -> Int? {
        var k = from
        while k < limit {
            let token = tape[k]
            let valueIndex = k + 1
            if Int(token.length) == wanted.count {
                let bytes = tape.bytes(token)
                if wanted.count == 0 || KeyTable.equal(bytes.baseAddress!, wanted.baseAddress!, count: wanted.count) {
                    cursor = tape.indexAfterValue(at: valueIndex)
                    if cursor >= end { cursor = objectIndex + 1 }
                    return valueIndex
                }
            }
            k = tape.indexAfterValue(at: valueIndex)
        }
        return nil
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    @inline(__always)
    func path(_ key: Key) -> [any CodingKey] { decoder.childPath(key) }

    func keyNotFound(_ key: Key) -> DecodingError {
        .keyNotFound(key, .init(codingPath: codingPath,
                                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\").",
                                underlyingError: state.location(objectIndex)))
    }

    @inline(__always)
    func value(_ key: Key) throws -> Int {
        guard let index = find(key) else { throw keyNotFound(key) }
        return index
    }

    /// JSONDecoder: a missing key is `keyNotFound`. Mapping mode keeps the bridge's answer: true.
    func decodeNil(forKey key: Key) throws -> Bool {
        guard let index = find(key) else {
            if state.isFoundation { throw keyNotFound(key) }
            return true
        }
        return tape[index].kind == .null
    }

    /// The scalar of `key` read by `read` (the state borrowed, the value's token, its coding path on demand):
    /// the one path every typed `decode(_:forKey:)` takes.
    @inline(__always)
    private func scalar<V>(_ key: Key, _ read: (TapeDecodingState, Int, () -> [any CodingKey]) throws -> V) throws -> V {
        try withState { s in try read(s, try value(key), { path(key) }) }
    }

    /// The value token of `key` for `decodeIfPresent`, nil when missing or `null`: one lookup (the protocol's
    /// defaults look the key up three times).
    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let index = find(key), tape[index].kind != .null else { return nil }
        return index
    }

    /// `scalar` for `decodeIfPresent`.
    @inline(__always)
    private func presentScalar<V>(_ key: Key, _ read: (TapeDecodingState, Int, () -> [any CodingKey]) throws -> V) throws -> V? {
        guard let index = present(key) else { return nil }
        return try withState { s in try read(s, index, { path(key) }) }
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try scalar(key) { s, i, p in try s.decodeInteger(T.self, i, p()) }
    }

    @inline(__always)
    private func presentInteger<T: FixedWidthInteger>(_ key: Key) throws -> T? {
        try presentScalar(key) { s, i, p in try s.decodeInteger(T.self, i, p()) }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(key) { s, i, p in try s.decodeBool(i, p()) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(key) { s, i, p in try s.decodeString(i, p()) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(key) { s, i, p in try s.decodeDouble(i, p()) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(key) { s, i, p in try s.decodeFloat(i, p()) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try withState { s in try s.decodeChild(type, try value(key), parent: TapeDecoder(state: s, index: objectIndex, packed: packedPath), key: key) }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentScalar(key) { s, i, p in try s.decodeBool(i, p()) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentScalar(key) { s, i, p in try s.decodeString(i, p()) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try presentScalar(key) { s, i, p in try s.decodeDouble(i, p()) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try presentScalar(key) { s, i, p in try s.decodeFloat(i, p()) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try presentInteger(key) }

    /// Missing and `null` are nil; in mapping mode so is an empty (or blank) string for `URL?`, as for
    /// ModelMapper's own `URL?` properties.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let i = present(key) else { return nil }
        if !state.isFoundation, T.self == URL.self, tape[i].kind == .string {
            do {
                return try state.urlCodec.decodeOptional(state.c, i) as! T?
            } catch {
                throw state.converted(error, URL.self, i, path(key))
            }
        }
        return try withState { s in try s.decodeChild(type, i, parent: TapeDecoder(state: s, index: objectIndex, packed: packedPath), key: key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        guard let index = find(key) else {
            throw DecodingError.keyNotFound(key, .init(
                codingPath: codingPath,
                debugDescription: "Cannot get nested keyed container -- no value found for key \"\(key.stringValue)\"",
                underlyingError: state.location(objectIndex)))
        }
        return try TapeDecoder(state: state, index: index, codingPath: path(key)).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        guard let index = find(key) else {
            throw DecodingError.keyNotFound(key, .init(
                codingPath: codingPath,
                debugDescription: "Cannot get nested unkeyed container -- no value found for key \"\(key.stringValue)\"",
                underlyingError: state.location(objectIndex)))
        }
        return try TapeDecoder(state: state, index: index, codingPath: path(key)).unkeyedContainer()
    }

    /// A decoder for the member `super` (`null` when absent, as JSONDecoder).
    func superDecoder() throws -> any Decoder {
        let key = JSONStringKey("super")
        var name = "super"
        let index = name.withUTF8 { wanted in scan(wanted, from: objectIndex + 1, to: end) } ?? -1
        return TapeDecoder(state: state, index: index, codingPath: decoder.childPath(key))
    }

    /// A decoder for the member `key` (`null` when absent).
    func superDecoder(forKey key: Key) throws -> any Decoder {
        TapeDecoder(state: state, index: find(key) ?? -1, codingPath: path(key))
    }
}
