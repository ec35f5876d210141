// Unsafe code: reads fields at `base + offset`; see the invariants in ModelCodec.swift (reads need the
// same guarantees as writes, minus the release of old values).
//
// Invariants: the encoding plan's property indices are below `meta.properties.count`, and every field read
// lies inside the model (`offset + size <= meta.size`).

/// Writes a model's properties following its encoding plan (not generic: compiled once).
func encodeProperties(_ base: UnsafeRawPointer, meta: ModelMeta, _ e: inout EncodeContext) throws(MappingError) {
    let plan = e.sortsKeys ? meta.sortedEncodingPlan : meta.encodingPlan
    if e.path != nil { return try encodeMembersTrackingPath(plan.members, base, meta, &e) }
    try encodeMembers(plan.members, base, meta, &e)
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
                error.prependKey(meta.properties[p].name)
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

/// Models with ``JSONEncodingHooks``: encode, hand the object to the hook, write what it returns.
func encodeWithHook(_ base: UnsafeRawPointer, variable: UnsafeRawPointer, meta: ModelMeta,
                    hook: (UnsafeRawPointer, inout JSONObject, MappingContext) throws -> Void, _ e: inout EncodeContext) throws(MappingError) {
    var inner = EncodeContext(options: e.options.subtracting([.prettyPrinted, .sortedKeys]))
    inner.path = e.path
    try encodeProperties(base, meta: meta, &inner)
    var object: JSONObject
    do {
        let value = try JSONValue(json: inner.writer.bytes)
        object = value.objectValue ?? JSONObject()
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
