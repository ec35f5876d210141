// Unsafe code: reads fields at `base + offset`; see the invariants in ModelCodec.swift (reads need the
// same guarantees as writes, minus the release of old values).
//
// Invariants: the encoding plan's property indices are below `meta.properties.count`, and every field read
// lies inside the model (`offset + size <= meta.size`).

/// Writes a model's properties following its encoding plan (not generic: compiled once).
func encodeProperties(_ base: UnsafeRawPointer, meta: ModelMeta, _ e: inout EncodeContext) throws(MappingError) {
    let plan = e.sortsKeys ? meta.sortedEncodingPlan : meta.encodingPlan
    if e.path != nil { return try encodeMembersTrackingPath(plan.members, base, meta, &e) }
    if e.writesPlainKeys { return try encodeEntries(plan, base, meta, &e) }
    try encodeMembers(plan.members, base, meta, &e)
}

/// The compact loop: the plan's flat entries (keys written with their separators in one copy), and the
/// built-in field kinds written by a switch rather than through their codecs (as the decoding loop does).
/// Same output as ``encodeMembers(_:_:_:_:)``.
@inline(never)
private func encodeEntries(_ plan: EncodingPlan, _ base: UnsafeRawPointer, _ meta: ModelMeta,
                           _ e: inout EncodeContext) throws(MappingError) {
    e.writer.beginObject()
    var first = true
    let slots = meta.slots
    let writesNulls = e.writesNulls
    for entry in plan.entries {
        let p = entry.property
        if p >= 0 {
            assert(p < meta.properties.count, "an encoding plan's property index out of bounds")
            let slot = slots[p]
            assert(slot.offset >= 0 && slot.offset + slot.fieldSize <= meta.size, "a field read outside the model's memory")
            let field = base + slot.offset
            switch slot.kind {
            case .string:
                writeEntryKey(entry, first: first, &e)
                e.writer.string(field.assumingMemoryBound(to: String.self).pointee)
            case .int:
                writeEntryKey(entry, first: first, &e)
                e.writer.integer(field.load(as: Int.self))
            case .int64:
                writeEntryKey(entry, first: first, &e)
                e.writer.integer(field.load(as: Int64.self))
            case .bool:
                writeEntryKey(entry, first: first, &e)
                e.writer.bool(field.load(as: Bool.self))
            case .optionalString:
                let value = field.assumingMemoryBound(to: String?.self)
                guard writeOptional(value.pointee, entry, first: first, writesNulls, &e, { $1.string($0) }) else { continue }
            case .optionalInt:
                guard writeOptional(field.load(as: Int?.self), entry, first: first, writesNulls, &e, { $1.integer($0) }) else { continue }
            case .optionalInt64:
                guard writeOptional(field.load(as: Int64?.self), entry, first: first, writesNulls, &e, { $1.integer($0) }) else { continue }
            case .optionalBool:
                guard writeOptional(field.load(as: Bool?.self), entry, first: first, writesNulls, &e, { $1.bool($0) }) else { continue }
            case .double:
                writeEntryKey(entry, first: first, &e)
                do { try DoubleCodec.write(field.load(as: Double.self), &e) } catch {
                    var error = error
                    meta.properties[p].prependEncoded(to: &error)
                    throw error
                }
            case .optionalDouble, .codec:
                if !writesNulls && slot.isNil(field) { continue }
                writeEntryKey(entry, first: first, &e)
                do { try slot.encode(field, &e) } catch {
                    var error = error
                    meta.properties[p].prependEncoded(to: &error)
                    throw error
                }
            }
        } else {
            let i = -1 - p
            assert(i < plan.members.count, "an encoding plan's member index out of bounds")
            guard case .object(let children) = plan.members[i].node else { preconditionFailure("not an object member") }
            guard writesNulls || hasContent(children, base, meta) else { continue }
            writeEntryKey(entry, first: first, &e)
            try encodeMembers(children, base, meta, &e)
        }
        first = false
    }
    e.writer.endObject(empty: first)
}

/// An optional built-in field with its key: the value, or `null` when nulls are written. False when
/// nothing was written (nil, nulls omitted).
@inline(__always)
private func writeOptional<T>(_ value: T?, _ entry: EncodingPlan.Entry, first: Bool, _ writesNulls: Bool,
                              _ e: inout EncodeContext, _ write: (T, inout JSONWriter) -> Void) -> Bool {
    guard let value else {
        guard writesNulls else { return false }
        writeEntryKey(entry, first: first, &e)
        e.writer.null()
        return true
    }
    writeEntryKey(entry, first: first, &e)
    write(value, &e.writer)
    return true
}

/// An entry's key with its separators (`,"key":`; no comma for the first member).
@inline(__always)
private func writeEntryKey(_ entry: EncodingPlan.Entry, first: Bool, _ e: inout EncodeContext) {
    let skip = first ? 1 : 0
    e.writer.append(contentsOf: UnsafeBufferPointer(start: entry.key + skip, count: entry.keyCount &- skip))
}

@inline(never)
private func encodeMembers(_ members: [EncodingPlan.Member], _ base: UnsafeRawPointer, _ meta: ModelMeta,
                           _ e: inout EncodeContext) throws(MappingError) {
    try encodeMembersBody(members, base, meta, tracksPath: false, &e)
}

/// ``encodeMembers(_:_:_:_:)`` with each property's name on `e.path` while it is written, for encodes
/// that may call a hook or transformer (``FieldCodec/reachesContext``); the plain loop never looks.
@inline(never)
private func encodeMembersTrackingPath(_ members: [EncodingPlan.Member], _ base: UnsafeRawPointer, _ meta: ModelMeta,
                                       _ e: inout EncodeContext) throws(MappingError) {
    try encodeMembersBody(members, base, meta, tracksPath: true, &e)
}

@inline(__always)
private func encodeMembersBody(_ members: [EncodingPlan.Member], _ base: UnsafeRawPointer, _ meta: ModelMeta,
                               tracksPath: Bool, _ e: inout EncodeContext) throws(MappingError) {
    e.writer.beginObject()
    var written = 0
    for member in members {
        switch member.node {
        case .property(let p):
            assert(p >= 0 && p < meta.properties.count, "an encoding plan's property index out of bounds")
            let slot = meta.slots[p]
            assert(slot.offset >= 0 && slot.offset + slot.fieldSize <= meta.size, "a field read outside the model's memory")
            let field = base + slot.offset
            if !e.writesNulls && slot.isNil(field) { continue }
            writeKey(member, first: written == 0, &e)
            if tracksPath { e.path!.append(meta.properties[p].name) }
            defer { if tracksPath { e.path!.removeLast() } }
            do {
                try slot.encode(field, &e)
            } catch {
                var error = error
                meta.properties[p].prependEncoded(to: &error)
                throw error
            }
        case .object(let children):
            guard e.writesNulls || hasContent(children, base, meta) else { continue }
            writeKey(member, first: written == 0, &e)
            if tracksPath {
                try encodeMembersTrackingPath(children, base, meta, &e)
            } else {
                try encodeMembers(children, base, meta, &e)
            }
        }
        written += 1
    }
    e.writer.endObject(empty: written == 0)
}

/// A plan member's key: pre-escaped, unless `/` must be escaped too.
@inline(__always)
private func writeKey(_ member: EncodingPlan.Member, first: Bool, _ e: inout EncodeContext) {
    if e.escapesSlashes {
        e.writer.key(member.key, first: first)
    } else {
        e.writer.key(escaped: member.escapedKey, first: first)
    }
}

/// Whether a key-path object has any member to write (all-nil leaves omit the object).
private func hasContent(_ members: [EncodingPlan.Member], _ base: UnsafeRawPointer, _ meta: ModelMeta) -> Bool {
    for member in members {
        switch member.node {
        case .property(let p):
            assert(p >= 0 && p < meta.properties.count, "an encoding plan's property index out of bounds")
            let slot = meta.slots[p]
            assert(slot.offset >= 0 && slot.offset + slot.fieldSize <= meta.size, "a field read outside the model's memory")
            if !slot.isNil(base + slot.offset) { return true }
        case .object(let children):
            if hasContent(children, base, meta) { return true }
        }
    }
    return false
}

/// Models with ``JSONEncodingHooks`` (or flattened models read from the whole object, see
/// ``ModelMeta/flattenedObjects``): encode, add the flattened models' members, hand the object to the
/// hook, write what it returns.
func encodeWithHook(_ base: UnsafeRawPointer, variable: UnsafeRawPointer, meta: ModelMeta,
                    hook: (UnsafeRawPointer, inout JSONObject, MappingContext) throws -> Void, _ e: inout EncodeContext) throws(MappingError) {
    var compact = e.options
    compact.prettyPrinted = false
    compact.sortedKeys = false
    var inner = EncodeContext(options: compact)
    inner.path = e.path
    try encodeProperties(base, meta: meta, &inner)
    var object = try JSONObject(encoded: inner.writer.bytes)
    for p in meta.flattenedObjects {
        // A flattened model read from the whole object: its members join the object, for keys not
        // already there (the parent's value wins, then the earlier flattened model's).
        let slot = meta.slots[p]
        let field = base + slot.offset
        if slot.isNil(field) { continue }
        var child = EncodeContext(options: inner.options)
        child.path = e.path
        do {
            try slot.encode(field, &child)
        } catch {
            var error = error
            meta.properties[p].prependEncoded(to: &error)
            throw error
        }
        for (key, value) in try JSONObject(encoded: child.writer.bytes) where object[key] == nil { object[key] = value }
    }
    do {
        try hook(variable, &object, e.mappingContext())
    } catch let error as MappingError {
        throw error
    } catch {
        throw MappingError(.validation, "didEncode failed: \(error)")
    }
    let value = JSONValue.object(object)
    try JSONValueCodec.validateNumbers(value)
    e.writer.write(value)
}

extension JSONObject {
    /// The object our own encoder wrote (an empty one if it wrote another value).
    fileprivate init(encoded bytes: [UInt8]) throws(MappingError) {
        do {
            self = try JSONValue(json: bytes).objectValue ?? JSONObject()
        } catch let error as MappingError {
            throw error
        } catch {
            throw MappingError(.validation, "re-reading an encoded object failed: \(error)")
        }
    }
}
