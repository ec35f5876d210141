// Unsafe code: the per-property slots the decoding loop reads, and the hooks' access to a model variable.
//
// Invariants:
// - `slots` holds `properties.count` entries, allocated and initialized once in `init`, never changed, and
//   freed with `keyTable`, `foldedKeys` and the encoding plans in `deinit`. A meta is freed only when no
//   decode or encode can reach it: a published one lives as long as its cache (the process, or a custom key
//   strategy's cache, freed with the strategy's last copy); a build session's unpublished ones (a race to
//   first use lost, a failed build) are freed by the session that made them, which no one else has seen.
// - `PropertySlot.codecReference` is unretained: `properties` keeps every codec alive as long as the meta.
// - Each slot's field lies inside the model's memory: `offset + codec.valueSize <= size`; a slot with a
//   built-in `kind` has a codec of exactly that kind's type (see BuiltinFields.swift).
// - The hooks' pointer is the address of a variable of the hook's model type (see ModelCodec.swift).
//
// `ModelMeta` is `@unchecked Sendable` because of the above: it is immutable once built, and published
// (through `MetaCache`'s lock) only after that.

/// Everything ModelMapper knows about a model type, built once by reflection and cached
/// (YYModel's `_YYModelMeta`).
final class ModelMeta: @unchecked Sendable {
    let type: Any.Type
    let isClass: Bool
    /// Bytes of model memory the fields lie in: `MemoryLayout.size` for a struct; for a class, the end of
    /// its last stored field (an instance is at least that large).
    let size: Int
    /// All mapped properties, in declaration order (superclass first).
    let properties: [PropertyMeta]
    /// Plain JSON key -> first property reading it (`PropertySlot.next` chains the others).
    let keyTable: KeyTable
    /// Properties with key paths or alternative keys, resolved after the member loop.
    let deferredProperties: [Int]
    /// Properties whose key is required (indices), and their count.
    let requiredProperties: [Int]
    /// Hot-loop data per property.
    let slots: UnsafeMutablePointer<PropertySlot>
    /// The codec for values of this model type (shared by every field of this type).
    let codec: FieldCodec
    /// Hooks, when the type conforms to ``JSONDecodingHooks`` / ``JSONEncodingHooks`` / ``JSONPolymorphic``.
    let decodingHooks: DecodingHooks?
    let encodingHook: ((UnsafeRawPointer, inout JSONObject, MappingContext) throws -> Void)?
    let polymorphic: (any JSONPolymorphic.Type)?
    /// ``DecodingOptions/caseInsensitiveKeys``: plain keys folded to ASCII lowercase -> index into
    /// `foldedGroups`, the plain-key properties whose key folds to it. Nil when keys match exactly.
    let foldedKeys: KeyTable?
    let foldedGroups: [[Int]]
    /// Whether decoding or encoding this model may call a hook or transformer (its own, a property's,
    /// a nested model's; a polymorphic model's subclasses count as reachable). Set once by
    /// ``MetaCache`` when the build session that made this meta ends, before the meta is published; the
    /// decode or encode of a root codec reaching one tracks the path for ``MappingContext/path``.
    var reachesContext = false
    /// Flattened properties read from the model's whole object (an Optional, class or hooked model) whose
    /// object's members are added to the model's when encoding, in order; set by the builder before the
    /// meta is published. Such a model has an `encodingHook` (a no-op one if it has none), so it is
    /// encoded through `encodeWithHook`, which adds them.
    var flattenedObjects: [Int] = []
    /// Why this model cannot be encoded (a property written to a key path with an array index), thrown by
    /// every encode of it; nil for most. Decoding ignores it. Set by the builder before the meta is published.
    var encodingLimit: MappingError?
    /// Output layout for encoding (key paths build nested objects), in declaration and in sorted order.
    let encodingPlan: EncodingPlan
    let sortedEncodingPlan: EncodingPlan

    struct DecodingHooks {
        let willDecode: (JSONObject, MappingContext) throws -> JSONObject
        /// Calls `didDecode` on the model variable at the pointer.
        let didDecode: (UnsafeMutableRawPointer, JSONObject, MappingContext) throws -> Void

        /// The hooks of model type `type`; the pointer given to `didDecode` addresses a `type` variable.
        init(_ type: any JSONDecodingHooks.Type) {
            func make<H: JSONDecodingHooks>(_: H.Type) -> DecodingHooks {
                DecodingHooks(willDecode: { try H.willDecode($0, context: $1) },
                              didDecode: { pointer, object, context in
                                  try pointer.assumingMemoryBound(to: H.self).pointee.didDecode(from: object, context: context)
                              })
            }
            self = make(type)
        }

        private init(willDecode: @escaping (JSONObject, MappingContext) throws -> JSONObject,
                     didDecode: @escaping (UnsafeMutableRawPointer, JSONObject, MappingContext) throws -> Void) {
            self.willDecode = willDecode
            self.didDecode = didDecode
        }
    }

    /// The encoding hook of model type `type`; the pointer it is given addresses a `type` variable.
    static func encodingHook(_ type: any JSONEncodingHooks.Type) -> (UnsafeRawPointer, inout JSONObject, MappingContext) throws -> Void {
        func make<H: JSONEncodingHooks>(_: H.Type) -> (UnsafeRawPointer, inout JSONObject, MappingContext) throws -> Void {
            { pointer, object, context in
                try pointer.assumingMemoryBound(to: H.self).pointee.didEncode(into: &object, context: context)
            }
        }
        return make(type)
    }

    init(type: Any.Type, isClass: Bool, size: Int, properties: [PropertyMeta], codec: FieldCodec,
         decodingHooks: DecodingHooks?, encodingHook: ((UnsafeRawPointer, inout JSONObject, MappingContext) throws -> Void)?,
         polymorphic: (any JSONPolymorphic.Type)?, matchesKeysIgnoringCase: Bool) {
        self.type = type
        self.isClass = isClass
        self.size = size
        self.codec = codec
        self.decodingHooks = decodingHooks
        self.encodingHook = encodingHook
        self.polymorphic = polymorphic

        var firstByKey: [String: Int] = [:]
        var lastByKey: [String: Int] = [:]
        var next = [Int](repeating: -1, count: properties.count)
        var deferred: [Int] = []
        var required: [Int] = []
        for (i, property) in properties.enumerated() {
            if !property.isDecoded { continue }
            if property.isRequired { required.append(i) }
            if property.isPlainKey {
                let key = property.keyPaths[0][0]
                if let last = lastByKey[key] { next[last] = i } else { firstByKey[key] = i }
                lastByKey[key] = i
            } else {
                deferred.append(i)
            }
        }
        self.properties = properties
        deferredProperties = deferred
        requiredProperties = required
        keyTable = KeyTable(firstByKey.map { (key: Array($0.key.utf8), value: $0.value) })
        if matchesKeysIgnoringCase {
            var groups: [[UInt8]: Int] = [:]
            var members: [[Int]] = []
            for (i, property) in properties.enumerated() where property.isDecoded && property.isPlainKey {
                let folded = ModelMeta.foldedASCII(property.keyPathBytes[0][0])
                if let g = groups[folded] { members[g].append(i) } else {
                    groups[folded] = members.count
                    members.append([i])
                }
            }
            foldedKeys = KeyTable(groups.map { (key: $0.key, value: $0.value) })
            foldedGroups = members
        } else {
            foldedKeys = nil
            foldedGroups = []
        }
        slots = .allocate(capacity: max(1, properties.count))
        for (i, property) in properties.enumerated() {
            let bit = required.firstIndex(of: i).map { Int32($0) } ?? -1
            let kind = property.codec.fieldKind
            assert(property.offset >= 0 && property.offset + property.codec.valueSize <= size,
                   "property \(property.name) lies outside the memory of \(type)")
            assert(kind == .codec || kind.valueType == property.codec.valueType,
                   "property \(property.name): built-in kind \(kind) for a codec of \(property.codec.valueType)")
            (slots + i).initialize(to: PropertySlot(offset: property.offset, codec: property.codec,
                                                    kind: kind, takesNull: property.codec.takesNull,
                                                    next: Int32(next[i]), requiredBit: bit))
        }
        encodingPlan = EncodingPlan(properties: properties, sorted: false)
        sortedEncodingPlan = EncodingPlan(properties: properties, sorted: true)
        #if DEBUG
        MetadataBuffers.allocated()
        #endif
    }

    /// The raw buffers go with the meta (they are its own: nothing else points into them).
    deinit {
        #if DEBUG
        MetadataBuffers.freed()
        #endif
        slots.deinitialize(count: properties.count)
        slots.deallocate()
        keyTable.deallocate()
        foldedKeys?.deallocate()
        encodingPlan.deallocate()
        sortedEncodingPlan.deallocate()
    }
}

extension ModelMeta {
    /// `bytes` with ASCII letters lowercased (other bytes, UTF-8 included, as they are).
    static func foldedASCII(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }
}

/// The per-property data the decoding loop touches, packed without reference counting.
struct PropertySlot {
    let offset: Int
    /// Unmanaged so the loop calls it without retain/release (`ModelMeta.properties` keeps it alive).
    let codecReference: Unmanaged<FieldCodec>
    /// Built-in types take a switch instead of a codec call.
    let kind: FieldKind
    let takesNull: Bool
    /// The next property reading the same plain key (index in the model's properties), or -1.
    let next: Int32
    /// Bit in the required mask, or -1.
    let requiredBit: Int32

    init(offset: Int, codec: FieldCodec, kind: FieldKind, takesNull: Bool, next: Int32, requiredBit: Int32) {
        self.offset = offset
        codecReference = Unmanaged.passUnretained(codec)
        self.kind = kind
        self.takesNull = takesNull
        self.next = next
        self.requiredBit = requiredBit
    }

    /// Calls the codec's `decodeField` without retaining it.
    @inline(__always)
    func decode(_ c: DecodeContext, _ index: Int, _ field: UnsafeMutableRawPointer) throws(MappingError) {
        var failure: MappingError? = nil
        codecReference._withUnsafeGuaranteedRef { codec in
            do throws(MappingError) { try codec.decodeField(c, index, field) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Calls the codec's `encodeField` without retaining it.
    @inline(__always)
    func encode(_ field: UnsafeRawPointer, _ e: inout EncodeContext) throws(MappingError) {
        var failure: MappingError? = nil
        codecReference._withUnsafeGuaranteedRef { codec in
            do throws(MappingError) { try codec.encodeField(field, &e) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The size of the field's type (for debug checks).
    var fieldSize: Int {
        codecReference._withUnsafeGuaranteedRef { $0.valueSize }
    }

    /// Whether the field holds nil.
    @inline(__always)
    func isNil(_ field: UnsafeRawPointer) -> Bool {
        codecReference._withUnsafeGuaranteedRef { $0.isNilField(field) }
    }
}
