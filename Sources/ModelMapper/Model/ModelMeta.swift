// Unsafe code: `slots` is allocated once in `init` and never freed or changed (metadata lives for the
// process); `PropertySlot.codec` is unowned(unsafe) because `properties` keeps every codec alive.

/// Everything ModelMapper knows about a model type, built once by reflection and cached
/// (YYModel's `_YYModelMeta`).
final class ModelMeta: @unchecked Sendable {
    let type: Any.Type
    let isClass: Bool
    /// All mapped properties, in declaration order (superclass first).
    let properties: [PropertyMeta]
    /// Plain JSON key -> first property reading it (`PropertyMeta.next` chains the others).
    let keyTable: KeyTable
    /// Properties with key paths or alternative keys, resolved after the member loop.
    let deferredProperties: [Int]
    /// Number of properties read through plain keys (YYModel's keyMappedCount).
    let keyMappedCount: Int
    /// Properties whose key is required (indices), and their count.
    let requiredProperties: [Int]
    /// Hot-loop data per property.
    let slots: UnsafeMutablePointer<PropertySlot>
    /// The codec for values of this model type (shared by every field of this type).
    let codec: FieldCodec
    /// Hooks, when the type conforms to ``JSONDecodingHooks`` / ``JSONEncodingHooks`` / ``JSONPolymorphic``.
    let decodingHooks: DecodingHooks?
    let encodingHook: ((UnsafeRawPointer, inout JSONObject) throws -> Void)?
    let polymorphic: (any JSONPolymorphic.Type)?
    /// Output layout for encoding (key paths build nested objects), in declaration and in sorted order.
    let encodingPlan: EncodingPlan
    let sortedEncodingPlan: EncodingPlan

    struct DecodingHooks {
        let willDecode: (JSONObject) throws -> JSONObject
        /// Calls `didDecode` on the model variable at the pointer.
        let didDecode: (UnsafeMutableRawPointer, JSONObject) throws -> Void
    }

    init(type: Any.Type, isClass: Bool, properties: [PropertyMeta], codec: FieldCodec,
         decodingHooks: DecodingHooks?, encodingHook: ((UnsafeRawPointer, inout JSONObject) throws -> Void)?,
         polymorphic: (any JSONPolymorphic.Type)?) {
        self.type = type
        self.isClass = isClass
        self.codec = codec
        self.decodingHooks = decodingHooks
        self.encodingHook = encodingHook
        self.polymorphic = polymorphic

        var firstByKey: [String: Int] = [:]
        var lastByKey: [String: Int] = [:]
        var deferred: [Int] = []
        var required: [Int] = []
        for (i, property) in properties.enumerated() {
            if property.isReadOnly { continue }
            if property.isRequired { required.append(i) }
            if property.isPlainKey {
                let key = property.keyPaths[0][0]
                if let last = lastByKey[key] { properties[last].next = i } else { firstByKey[key] = i }
                lastByKey[key] = i
            } else {
                deferred.append(i)
            }
        }
        self.properties = properties
        deferredProperties = deferred
        requiredProperties = required
        keyMappedCount = properties.count - deferred.count - properties.filter(\.isReadOnly).count
        keyTable = KeyTable(firstByKey.map { (key: Array($0.key.utf8), value: $0.value) })
        slots = .allocate(capacity: max(1, properties.count))
        for (i, property) in properties.enumerated() {
            let bit = required.firstIndex(of: i).map { Int32($0) } ?? -1
            (slots + i).initialize(to: PropertySlot(offset: property.offset, codec: property.codec,
                                                    kind: property.codec.fieldKind, takesNull: property.codec.takesNull,
                                                    next: Int32(property.next), requiredBit: bit))
        }
        encodingPlan = EncodingPlan(properties: properties, sorted: false)
        sortedEncodingPlan = EncodingPlan(properties: properties, sorted: true)
    }
}
