// Unsafe code: writes fields at `base + offset`; see the invariants in ModelCodec.swift.
//
// Invariants: `base` addresses model memory of `meta.size` bytes laid out as `meta.type`; a property index
// comes from the key table or a key token's hint and is below `meta.properties.count`; every field
// written lies inside the model (`offset + size <= meta.size`).

/// The decoding loop shared by every model type (not generic, so it is compiled once): walk the object's
/// members once, match each key's bytes in the key table, and let the property's codec write the value
/// in place. Unknown keys are skipped in O(1) (containers store their end index).
///
/// Required keys: a `null` for one is an error unless the property takes null (an Optional); a missing one
/// is an error naming every missing required key, except when `merging` (the root of an update, where
/// absent keys keep their values). Under `.strict`, `null` for any property that cannot hold it is an
/// error too (``refuseNull(_:_:required:jsonKey:at:)``).
func decodeProperties(_ c: DecodeContext, _ index: Int, base: UnsafeMutableRawPointer, meta: ModelMeta,
                      merging: Bool = false) throws(MappingError) {
    let start = c.tape[index]
    guard start.kind == .objectStart else { throw c.mismatch(expected: "an object", at: index) }
    let end = start.payload
    assert(end > index && end < c.tape.count, "an object's end index is outside the tape")
    let slots = meta.slots
    let table = meta.keyTable
    let tracksRequired = !meta.requiredProperties.isEmpty
    var seenRequired = RequiredSet(count: tracksRequired ? meta.requiredProperties.count : 0)
    var i = index + 1
    while i < end {
        let valueIndex = i + 1
        let key = c.tape[i]
        // A filtered tape names the property in the key token; otherwise look the key up.
        var p = key.hint != 0 ? Int(key.hint) - 1 : table.find(c.tape.bytes(key))
        assert(key.hint == 0 || p == table.find(c.tape.bytes(key)), "a key hint from another model's filter")
        assert(p < meta.properties.count, "property index out of bounds")
        while p >= 0 {
            assert(p < meta.properties.count, "a property chain leads out of bounds")
            let slot = slots[p]
            if slot.takesNull || c.tape[valueIndex].kind != .null {
                try decodeField(slot, c, valueIndex, base, meta, p)
            } else if slot.requiredBit >= 0 || !c.lenient {
                try refuseNull(c, meta.properties[p], required: slot.requiredBit >= 0, jsonKey: c.tape.text(key), at: valueIndex)
            }
            if tracksRequired && slot.requiredBit >= 0 { seenRequired.insert(Int(slot.requiredBit)) }
            p = Int(slot.next)
        }
        i = c.tape.indexAfterValue(at: valueIndex)
    }
    if !meta.deferredProperties.isEmpty {
        try decodeDeferred(c, index, base: base, meta: meta, seenRequired: &seenRequired)
    }
    if meta.foldedKeys != nil {
        try decodeCaseFolded(c, index, base: base, meta: meta, seenRequired: &seenRequired)
    }
    if tracksRequired && !merging && !seenRequired.containsAll(meta.requiredProperties.count) {
        throw missingRequired(meta, seenRequired, at: index)  // names every missing one
    }
}

/// A `null` for a property that cannot hold it (not an Optional, `Any` or `JSONValue`) where `null` is
/// refused: for a required key (`.missingKey`, "is null", the required rule), and under `.strict` for
/// every other key (JSONDecoder's `valueNotFound`): `.typeMismatch`, as a `null` element of `[T]` is, so an
/// invalid-value handler forgives it like any other mismatch (reported, the property keeping its value).
/// `.lenient` keeps the value silently (YYModel's rule).
@inline(never)
private func refuseNull(_ c: DecodeContext, _ property: PropertyMeta, required: Bool, jsonKey: String,
                        at valueIndex: Int) throws(MappingError) {
    var error: MappingError
    if required {
        error = MappingError(.missingKey, "required key \(MappingKey(storage: .alternatives(property.keyPaths))) is null")
        error.missingProperties = [property.name]
        error.tokenIndex = valueIndex
        error.valueIsNull = true
    } else {
        error = c.mismatch(expected: "a value (strict: \(property.name) is not Optional, so it cannot hold null)", at: valueIndex)
    }
    error.prependKey(property.name, jsonKey: jsonKey)
    if !required, let report = c.report, report.forgives {
        report.record(error)
        return
    }
    throw error
}

/// The `.typeMismatch` error for a key path that runs into a value it cannot go through (`"nested.name"`
/// over `{"nested": "bar"}`, `"users.name"` over an array of users): the error is at the property, its
/// ``MappingError/jsonPath`` the key path, its position the value in the way.
@inline(never)
private func blockedKeyPath(_ c: DecodeContext, _ property: PropertyMeta, _ path: [[UInt8]], at index: Int,
                            depth: Int) -> MappingError {
    let name = jsonKey(path)
    let stop = jsonKey(Array(path[..<depth]))
    var expected = "an object at \"\(stop)\" on the key path \"\(name)\""
    if c.tape[index].kind == .arrayStart {
        expected += " (or an array index: \"\(jsonKey([path[depth]]))\" is not one)"
    }
    var error = c.mismatch(expected: expected, at: index)
    error.prependKey(property.name, jsonKey: name)
    return error
}

/// A key or key path of a property as ``MappingError/jsonPath`` writes it (`user.id_str`).
private func jsonKey(_ path: [[UInt8]]) -> String {
    path.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".")
}

/// The JSON key a property's value at `valueIndex` was read from: the key path that was matched
/// (`matched`, for key paths and alternatives), else the key token before the value (a member of the
/// object, as the document spells it: also a key matched ignoring case).
private func jsonKey(_ c: DecodeContext, _ valueIndex: Int, matched: [[UInt8]]?) -> String {
    if let matched { return jsonKey(matched) }
    assert(valueIndex > 0 && c.tape[valueIndex - 1].kind == .key, "a member's value follows its key")
    return c.tape.text(c.tape[valueIndex - 1])
}

/// The `.missingKey` error naming every required key absent from the object at `index`: the first
/// property is the path, all of them are ``MappingError/missingProperties``.
@inline(never)
private func missingRequired(_ meta: ModelMeta, _ seen: RequiredSet, at index: Int) -> MappingError {
    let missing = meta.requiredProperties.indices.filter { !seen.contains($0) }.map { meta.properties[meta.requiredProperties[$0]] }
    let keys = missing.map { "\(MappingKey(storage: .alternatives($0.keyPaths)))" }
    let message = keys.count == 1 ? "required key \(keys[0]) is missing" : "required keys \(keys.joined(separator: ", ")) are missing"
    var error = MappingError(.missingKey, message)
    error.missingProperties = missing.map(\.name)
    error.tokenIndex = index
    error.prependKey(missing[0].name, jsonKey: jsonKey(missing[0].keyPathBytes[0]))
    return error
}

/// Key paths and alternative keys: looked up in the object after the member loop (YYModel's
/// keyPathPropertyMetas and multiKeysPropertyMetas). The first alternative present wins, in list order.
private func decodeDeferred(_ c: DecodeContext, _ index: Int, base: UnsafeMutableRawPointer, meta: ModelMeta,
                            seenRequired: inout RequiredSet) throws(MappingError) {
    let passes = meta.foldedKeys != nil ? 2 : 1
    for p in meta.deferredProperties {
        let property = meta.properties[p]
        let slot = meta.slots[p]
        // With case-insensitive keys, every alternative is tried exactly before any ignoring case.
        search: for pass in 0..<passes {
            let ignoringCase = pass == 1
            for path in property.keyPathBytes {
                let valueIndex: Int
                switch lookUp(c.tape, objectIndex: index, path: path, ignoringCase: ignoringCase) {
                case .value(let found):
                    valueIndex = found
                case .absent:
                    continue
                case .blocked(let blocker, let depth):
                    // Absent under `.lenient` (YYModel's rule), reported when a handler is installed (once,
                    // from the exact pass); an error under `.strict`, where a handler forgives it too.
                    guard pass == 0 else { continue }
                    let error = blockedKeyPath(c, property, path, at: blocker, depth: depth)
                    if let report = c.report, report.forgives {
                        report.record(error)
                    } else if !c.lenient {
                        throw error
                    }
                    continue
                }
                let isNull = c.tape[valueIndex].kind == .null
                if slot.takesNull || !isNull {
                    try decodeField(slot, c, valueIndex, base, meta, p, matched: path)
                } else if slot.requiredBit >= 0 || !c.lenient {
                    try refuseNull(c, property, required: slot.requiredBit >= 0, jsonKey: jsonKey(path), at: valueIndex)
                }
                if isNull, let report = c.report, report.forgives, property.keyPathBytes.count > 1 {
                    reportBlockingNull(c, index, property, path, at: valueIndex, report, ignoringCase: ignoringCase)
                }
                if slot.requiredBit >= 0 { seenRequired.insert(Int(slot.requiredBit)) }
                break search
            }
        }
    }
}

/// A `null` under an alternative key blocks the alternatives after it (YYModel's rule: the first key
/// present wins; the property keeps its value, an Optional becomes nil); with an invalid-value handler, a later alternative that
/// holds a value is reported as not read, so the choice is not silent.
@inline(never)
private func reportBlockingNull(_ c: DecodeContext, _ index: Int, _ property: PropertyMeta, _ path: [[UInt8]],
                                at valueIndex: Int, _ report: ErrorReport, ignoringCase: Bool) {
    guard let first = property.keyPathBytes.firstIndex(of: path) else { return }
    for later in property.keyPathBytes[(first + 1)...] {
        guard let laterIndex = findValue(c.tape, objectIndex: index, path: later, ignoringCase: ignoringCase),
              c.tape[laterIndex].kind != .null else { continue }
        func name(_ path: [[UInt8]]) -> String { path.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".") }
        var error = MappingError(.invalidValue, "null under \"\(name(path))\" is the property's value; the alternative "
            + "\"\(name(later))\" holds one that is not read (the first alternative present wins, as in YYModel)")
        error.tokenIndex = valueIndex
        error.prependKey(property.name, jsonKey: name(path))
        report.record(error)
        return
    }
}

/// ``DecodingOptions/caseInsensitiveKeys``: after the member loop (which matched exact keys), a key that
/// matched nothing sets the plain-key properties whose key it equals ignoring ASCII case — unless the
/// property's exact key is in the object too (an exact match wins, wherever it is). Runs only for metas
/// built for case-insensitive options.
@inline(never)
private func decodeCaseFolded(_ c: DecodeContext, _ index: Int, base: UnsafeMutableRawPointer, meta: ModelMeta,
                              seenRequired: inout RequiredSet) throws(MappingError) {
    guard let folded = meta.foldedKeys else { return }
    let end = c.tape[index].payload
    var i = index + 1
    while i < end {
        let valueIndex = i + 1
        defer { i = c.tape.indexAfterValue(at: valueIndex) }
        let key = c.tape.bytes(c.tape[i])
        guard meta.keyTable.find(key) < 0 else { continue }
        let group = ModelMeta.foldedASCII(key).withUnsafeBytes { folded.find($0) }
        guard group >= 0 else { continue }
        for p in meta.foldedGroups[group] {
            let slot = meta.slots[p]
            if findValue(c.tape, objectIndex: index, path: meta.properties[p].keyPathBytes[0]) != nil { continue }
            if slot.takesNull || c.tape[valueIndex].kind != .null {
                try decodeField(slot, c, valueIndex, base, meta, p)
            } else if slot.requiredBit >= 0 || !c.lenient {
                try refuseNull(c, meta.properties[p], required: slot.requiredBit >= 0,
                               jsonKey: jsonKey(c, valueIndex, matched: nil), at: valueIndex)
            }
            if slot.requiredBit >= 0 { seenRequired.insert(Int(slot.requiredBit)) }
        }
    }
}

/// What following a key path below an object found.
enum KeyPathLookup {
    /// The token index of the value.
    case value(Int)
    /// A key on the way is missing, an array index is past the array's end, or a value on the way is `null`.
    case absent
    /// The value at `index` (reached by the first `depth` components) is neither an object nor an array
    /// the next component indexes: a string, number or Boolean, or an array under a component that is
    /// not decimal digits.
    case blocked(index: Int, depth: Int)
}

/// The value at `path` below the object at `objectIndex` (``KeyPathLookup``). Duplicate keys: the last one
/// counts, as in the member loop. `ignoringCase`: keys compare with ASCII letters folded. A component of
/// decimal digits indexes an array where the value on the way is an array (`"nested.1.value"`,
/// ObjectMapper's rule); where it is an object, it is a key like any other.
func lookUp(_ tape: TapeView, objectIndex: Int, path: [[UInt8]], ignoringCase: Bool = false) -> KeyPathLookup {
    var current = objectIndex
    for (depth, component) in path.enumerated() {
        let token = tape[current]
        if token.kind == .arrayStart {
            guard let position = arrayIndex(component) else { return .blocked(index: current, depth: depth) }
            var i = current + 1
            var n = 0
            while i < token.payload && n < position {
                i = tape.indexAfterValue(at: i)
                n += 1
            }
            guard i < token.payload else { return .absent }
            current = i
            continue
        }
        if token.kind == .null { return .absent }
        guard token.kind == .objectStart else { return .blocked(index: current, depth: depth) }
        var found: Int? = nil
        var i = current + 1
        while i < token.payload {
            let valueIndex = i + 1
            let key = tape.bytes(tape[i])
            if key.count == component.count
                && (ignoringCase ? ModelMeta.foldedASCII(key) == ModelMeta.foldedASCII(component) : key.elementsEqual(component))
            {
                found = valueIndex
            }
            i = tape.indexAfterValue(at: valueIndex)
        }
        guard let next = found else { return .absent }
        current = next
    }
    return .value(current)
}

/// The value at `path` below the object at `objectIndex`, nil when ``lookUp(_:objectIndex:path:ignoringCase:)``
/// finds none (absent, or a value in the way).
func findValue(_ tape: TapeView, objectIndex: Int, path: [[UInt8]], ignoringCase: Bool = false) -> Int? {
    if case .value(let index) = lookUp(tape, objectIndex: objectIndex, path: path, ignoringCase: ignoringCase) { return index }
    return nil
}

/// A key path component as an array index: decimal digits only, no sign, at most 18 of them.
func arrayIndex(_ component: [UInt8]) -> Int? {
    guard !component.isEmpty, component.count <= 18, component.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return component.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
}

/// Decodes one property; errors get the property added to their path, and the JSON key it was read
/// from (`matched`: the key path or alternative that was found; nil: the member's key) to their JSON
/// path. With an invalid-value handler (`c.report`), conversion errors are recorded with the full path
/// and the property keeps its value.
@inline(__always)
private func decodeField(_ slot: PropertySlot, _ c: DecodeContext, _ valueIndex: Int, _ base: UnsafeMutableRawPointer,
                         _ meta: ModelMeta, _ p: Int, matched: [[UInt8]]? = nil) throws(MappingError) {
    assert(slot.offset >= 0 && slot.offset + slot.fieldSize <= meta.size, "a field write outside the model's memory")
    if let report = c.report {
        return try decodeFieldReporting(slot, c, valueIndex, base, meta.properties[p], report, matched: matched)
    }
    do {
        if slot.kind == .codec {
            try slot.decode(c, valueIndex, base + slot.offset)
        } else {
            try decodeBuiltin(slot.kind, c, valueIndex, base + slot.offset)
        }
    } catch {
        var error = error
        error.prependKey(meta.properties[p].name, jsonKey: jsonKey(c, valueIndex, matched: matched))
        throw error
    }
}

@inline(never)
private func decodeFieldReporting(_ slot: PropertySlot, _ c: DecodeContext, _ valueIndex: Int,
                                  _ base: UnsafeMutableRawPointer, _ property: PropertyMeta,
                                  _ report: ErrorReport, matched: [[UInt8]]?) throws(MappingError) {
    // The JSON key only when it differs from the name: no String is made for the common case.
    let key: String?
    if matched == nil, c.tape.bytes(c.tape[valueIndex - 1]).elementsEqual(property.name.utf8) {
        key = nil
    } else {
        key = jsonKey(c, valueIndex, matched: matched)
    }
    report.path.append(.init(property.name, jsonKey: key))
    defer { report.path.removeLast() }
    do {
        try slot.decode(c, valueIndex, base + slot.offset)
    } catch where report.forgives && (error.kind == .typeMismatch || error.kind == .invalidValue) {
        report.record(error)
    } catch {
        var error = error
        error.prependKey(property.name, jsonKey: key)
        throw error
    }
}

/// Which required properties were seen; no allocation for up to 64 of them.
struct RequiredSet {
    private var small: UInt64 = 0
    private var large: [Bool]

    init(count: Int) {
        large = count > 64 ? [Bool](repeating: false, count: count) : []
    }

    @inline(__always)
    mutating func insert(_ bit: Int) {
        if bit < 64 { small |= 1 << UInt64(bit) } else { large[bit] = true }
    }

    func contains(_ bit: Int) -> Bool {
        bit < 64 ? small & (1 << UInt64(bit)) != 0 : large[bit]
    }

    /// Whether bits `0..<count` are all set: one comparison for up to 64 (every property of a `@JSONModel`
    /// without an initial value or an Optional type is required).
    @inline(__always)
    func containsAll(_ count: Int) -> Bool {
        let mask: UInt64 = count >= 64 ? .max : (1 << UInt64(count)) - 1
        return small & mask == mask && (count <= 64 || !large[64..<count].contains(false))
    }
}
