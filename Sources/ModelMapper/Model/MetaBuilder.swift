import Foundation

/// One build session: the metadata of a model and of every model it reaches that the cache has not
/// published yet, with the codec of every property type. It runs on the calling thread with no lock held
/// (it calls user code: `M.mapping`) and keeps what it builds to itself until the cache publishes it
/// whole (``finished``) — or, if it throws, nothing of it. Child models are resolved while their parent is
/// built; recursive models (a `Node` with `[Node]` children) get the codec registered before their
/// properties are built.
final class MetaBuilder {
    private let cache: MetaCache
    private var inProgress: [ObjectIdentifier: FieldCodec] = [:]
    private(set) var finished: [ObjectIdentifier: ModelMeta] = [:]

    init(cache: MetaCache) {
        self.cache = cache
    }

    // MARK: Models

    func meta<M: MappedJSONModel>(for type: M.Type) throws(MappingError) -> ModelMeta {
        let id = ObjectIdentifier(type)
        if let done = finished[id] { return done }
        if let published = cache.published(id) { return published }
        guard TypesBeingBuilt.begin(id) else {
            throw MappingError(.unsupportedType, "\(M.self) is reached again while its own metadata is being built (its mapping, or code it runs, decodes or encodes \(M.self)); this cycle cannot be built")
        }
        defer { TypesBeingBuilt.end(id) }

        let codec = ModelCodec<M>(cache: cache)
        inProgress[id] = codec
        defer { inProgress[id] = nil }

        // A generated model (`@JSONModel`) lists its fields, at the offsets of its slots; others are reflected.
        let generated = M.self as? any GeneratedJSONModel.Type
        let fields: [ReflectedField]
        let wrapperStorages: [String: PropertyWrappers.Storage]
        if let generated {
            (fields, wrapperStorages) = (generated.reflectedSlots, [:])
        } else {
            guard let reflected = Reflection.fields(of: type) else {
                throw MappingError(.unsupportedType, "\(M.self) cannot be reflected (only structs and classes can be models)")
            }
            (fields, wrapperStorages) = PropertyWrappers.resolve(reflected)
        }
        let requiredByDeclaration = generated?.requiredByDeclaration ?? []
        let mapping = M.mapping
        try validate(mapping, fields: fields, model: M.self)
        let keyStrategy = mapping.keyStrategy ?? cache.defaultKeyStrategy ?? .identity

        var properties: [PropertyMeta] = []
        /// Which flattened property each entry of `properties` comes from (nil: the model's own).
        var origins: [String?] = []
        /// Flattened properties decoded from the whole object and merged into it when encoding.
        var flattenedObjects: [Int] = []
        for var field in fields {
            if field.name.hasPrefix("$__lazy_storage_$_") { continue }
            let isDecodedAtAll = !mapping.ignored.contains(field.name) && !mapping.ignoredWhenDecoding.contains(field.name)
                && mapping.only?.contains(field.name) != false
            if requiredByDeclaration.contains(field.name) && !isDecodedAtAll {
                throw MappingError(.unsupportedType, "\(M.self).\(field.name) is never decoded (ignored, ignoredWhenDecoding or not in only) but has no initial value and is not Optional, so \(M.self) could not be built; give it an initial value")
            }
            if mapping.ignored.contains(field.name) { continue }
            if let only = mapping.only, !only.contains(field.name) { continue }
            guard field.isStrong else {
                throw MappingError(.unsupportedType, "property \(field.name) of \(M.self) is weak or unowned, which cannot be read or written as a value; add it to `ignored`")
            }
            let isDecoded = !mapping.ignoredWhenDecoding.contains(field.name)
            let isEncoded = !mapping.ignoredWhenEncoding.contains(field.name)
            if mapping.flattened.contains(field.name) {
                if let whole = try flattenedObject(field, in: M.self, isDecoded: isDecoded, inSlot: generated != nil && !field.slotIsValue) {
                    if isEncoded { flattenedObjects.append(properties.count) }
                    properties.append(whole)
                    origins.append(field.name)
                    continue
                }
                for property in try flattenedProperties(field, in: M.self, isDecoded: isDecoded, isEncoded: isEncoded) {
                    properties.append(property)
                    origins.append(field.name)
                }
                continue
            }
            if mapping.keys[field.name] == nil, PropertyWrappers.isAmbiguousStorage(field, among: fields, codecs: Self.scalarCodecs) {
                throw MappingError(.unsupportedType, "property \(field.name) of \(M.self) is either the storage of a property wrapper whose wrappedValue is computed (read as \(field.name.dropFirst())) or a property named \(field.name), which cannot be told apart; map `\(field.name)` explicitly: keys [\"\(field.name)\": \"\(field.name.dropFirst())\"] or [\"\(field.name)\": \"\(field.name)\"]")
            }
            let keyPaths = mapping.keys[field.name]?.paths ?? [[keyStrategy.key(for: field.name)]]
            var fieldCodec: FieldCodec
            do {
                if let storage = wrapperStorages[field.name] {
                    let throughValue = mapping.transformers[field.name] != nil || mapping.lossy.contains(field.name)
                    field = try wrappedField(field, storage, throughValue: throughValue)
                }
                if let transformer = mapping.transformers[field.name] {
                    fieldCodec = try transformerCodec(transformer, fieldType: field.type)
                } else if mapping.lossy.contains(field.name) {
                    fieldCodec = try lossyCodec(for: field.type)
                } else {
                    fieldCodec = try self.codec(for: field.type)
                }
                if generated != nil && !field.slotIsValue { fieldCodec = try slotCodec(wrapping: fieldCodec, of: field) }
            } catch {
                var error = error
                error.message = "property \(field.name) of \(M.self): " + error.message
                throw error
            }
            let encodingPath = isEncoded ? mapping.encodingKeys[field.name]?.paths[0] ?? keyPaths[0] : nil
            properties.append(PropertyMeta(name: field.name, offset: field.offset, codec: fieldCodec,
                                           keyPaths: keyPaths,
                                           isRequired: mapping.required.contains(field.name) || requiredByDeclaration.contains(field.name)
                                               || (cache.requiresAllKeys && isDecoded && field.isWritable && !fieldCodec.takesNull),
                                           isReadOnly: !field.isWritable, isDecoded: isDecoded,
                                           encodingPath: encodingPath))
            origins.append(nil)
        }
        if !mapping.flattened.isEmpty { resolveFlattenedKeys(&properties, origins: origins) }

        // A generated model's fields are its slots, a struct; a class instance ends with its last stored
        // field (plus padding), and `fields` has them all.
        let isClass = generated == nil && M.self is AnyClass
        let size = generated?.slotsSize
            ?? (isClass ? fields.map { $0.offset + Reflection.size(of: $0.type) }.max() ?? 0 : MemoryLayout<M>.size)
        let meta = ModelMeta(type: M.self, isClass: isClass, size: size, properties: properties, codec: codec,
                             decodingHooks: (M.self as? any JSONDecodingHooks.Type).map(ModelMeta.DecodingHooks.init),
                             encodingHook: (M.self as? any JSONEncodingHooks.Type).map(ModelMeta.encodingHook)
                                ?? (flattenedObjects.isEmpty ? nil : { _, _, _ in }),
                             polymorphic: generated == nil ? M.self as? any JSONPolymorphic.Type : nil,
                             matchesKeysIgnoringCase: cache.matchesKeysIgnoringCase)
        meta.flattenedObjects = flattenedObjects
        meta.encodingLimit = encodingLimit(of: properties, in: M.self)
        codec.meta = meta
        finished[id] = meta
        return meta
    }

    /// Every name the mapping mentions must be a stored property; `let`s cannot be mapped.
    private func validate(_ mapping: ModelMapping, fields: [ReflectedField], model: Any.Type) throws(MappingError) {
        let names = Set(fields.map(\.name))
        let lets = Set(fields.filter { !$0.isWritable }.map(\.name))
        func check(_ list: some Sequence<String>, _ what: String) throws(MappingError) {
            for name in list where !names.contains(name) {
                throw MappingError(.unsupportedType, "\(model).mapping.\(what) names \"\(name)\", which is not a stored property of \(model)")
            }
        }
        try check(mapping.keys.keys, "keys")
        try check(mapping.ignored, "ignored")
        try check(mapping.only ?? [], "only")
        try check(mapping.required, "required")
        try check(mapping.transformers.keys, "transformers")
        try check(mapping.encodingKeys.keys, "encodingKeys")
        try check(mapping.ignoredWhenEncoding, "ignoredWhenEncoding")
        try check(mapping.ignoredWhenDecoding, "ignoredWhenDecoding")
        try check(mapping.flattened, "flattened")
        for name in mapping.required where mapping.ignoredWhenDecoding.contains(name) {
            throw MappingError(.unsupportedType, "\(model).\(name) is in ignoredWhenDecoding, so it cannot be required")
        }
        for name in mapping.flattened {
            // A flattened property has no key of its own: its model's keys are used.
            for (list, what) in [(Array(mapping.keys.keys), "keys"), (Array(mapping.encodingKeys.keys), "encodingKeys"),
                                 (mapping.required, "required"), (Array(mapping.transformers.keys), "transformers")]
            where list.contains(name) {
                throw MappingError(.unsupportedType, "\(model).mapping.\(what) names \"\(name)\", which is flattened (its model's own keys are used)")
            }
        }
        for (name, key) in mapping.encodingKeys {
            guard key.paths.count == 1, let path = key.paths.first, !path.isEmpty, !path.contains(where: \.isEmpty) else {
                throw MappingError(.unsupportedType, "\(model).mapping.encodingKeys[\"\(name)\"] must be one key or key path (one is written), without empty components")
            }
        }
        try check(mapping.lossy, "lossy")
        for name in mapping.lossy where mapping.transformers[name] != nil {
            throw MappingError(.unsupportedType, "\(model).\(name) has a transformer and is lossy; the transformer reads the whole value, so choose one")
        }
        for name in mapping.required where lets.contains(name) {
            throw MappingError(.unsupportedType, "\(model).\(name) is a let and is never decoded, so it cannot be required; make it a var")
        }
        for (list, what) in [(mapping.keys, "keys"), (mapping.encodingKeys, "encodingKeys")] {
            for (name, key) in list {
                if let text = key.invalidEscape { throw Self.invalidEscape(text, at: "\(model).mapping.\(what)[\"\(name)\"]") }
            }
        }
        for (name, key) in mapping.keys {
            for path in key.paths where path.isEmpty || path.contains(where: \.isEmpty) {
                throw MappingError(.unsupportedType, "\(model).mapping.keys[\"\(name)\"] has an empty key or key path component")
            }
        }
    }

    /// The error encoding the model throws (``ModelMeta/encodingLimit``): the first property written to a
    /// key path with a component of digits after the first (`"nested.1.value"`). Decoding reads such a
    /// component as an array index where the value is an array; a writer cannot know which was meant, and
    /// writing an object key would not read back. Only encoding is refused: a decode-only model works.
    private func encodingLimit(of properties: [PropertyMeta], in model: Any.Type) -> MappingError? {
        for property in properties {
            guard let path = property.encodingPath,
                  let index = path.dropFirst().first(where: { arrayIndex(Array($0.utf8)) != nil }) else { continue }
            var error = MappingError(.unsupportedType, "\(model).\(property.name) is written to the key path \"\(path.joined(separator: "."))\", whose component \"\(index)\" may index an array, which encoding cannot write; add \(property.name) to ignoredWhenEncoding or give it encodingKeys without such a component")
            property.prependEncoded(to: &error)
            return error
        }
        return nil
    }

    /// The error for a mapped key whose text has a backslash that is not before a dot (``MappingKey``).
    static func invalidEscape(_ text: String, at place: String) -> MappingError {
        MappingError(.unsupportedType, "\(place) is \"\(text)\", with a backslash that is not before a dot; \"\\.\" is a literal dot inside a key (\"a\\.b\" is the key a.b), and a key holding a backslash is written .literal(\"...\")")
    }

    // MARK: Flattening

    /// A flattened property whose model cannot lie in the parent's memory as its properties (an Optional
    /// model, a class model, a model with hooks or polymorphism) is one property read from the parent's
    /// whole object (the empty key path) by its own codec, so its hooks see that object and an Optional
    /// is set; when encoding, the members of its object are added to the parent's, for keys the parent
    /// does not write (`encodeWithHook`). Nil when `field` is a plain struct model, inlined instead.
    /// `inSlot`: the parent is a generated model, whose field is an Optional slot: always read whole.
    private func flattenedObject(_ field: ReflectedField, in model: Any.Type, isDecoded: Bool, inSlot: Bool) throws(MappingError) -> PropertyMeta? {
        let optional = field.type as? any OptionalField.Type
        guard let childType = (optional?.wrappedType ?? field.type) as? any MappedJSONModel.Type else { return nil }
        guard inProgress[ObjectIdentifier(childType)] == nil else {
            throw MappingError(.unsupportedType, "\(model).\(field.name) cannot be flattened: \(field.type) contains itself")
        }
        if !inSlot && optional == nil && !(childType is AnyClass) && !(childType is any GeneratedJSONModel.Type) {
            func open<C: MappedJSONModel>(_ c: C.Type) throws(MappingError) -> ModelMeta { try meta(for: c) }
            let child = try open(childType)
            if child.decodingHooks == nil && child.encodingHook == nil && child.polymorphic == nil { return nil }
        }
        let fieldCodec = try codec(for: field.type)
        return PropertyMeta(name: field.name, offset: field.offset,
                            codec: inSlot ? try slotCodec(wrapping: fieldCodec, of: field) : fieldCodec, keyPaths: [[]],
                            isRequired: false, isReadOnly: !field.isWritable, isDecoded: isDecoded, encodingPath: nil)
    }

    /// The properties of the struct model in `field`, as properties of the parent `model`: at the
    /// field's offset plus their own (the child lies in the parent's memory), read and written with the
    /// child's keys in the parent's object. Named `field.child` in error paths.
    private func flattenedProperties(_ field: ReflectedField, in model: Any.Type, isDecoded: Bool,
                                     isEncoded: Bool) throws(MappingError) -> [PropertyMeta] {
        func fail(_ reason: String) -> MappingError {
            MappingError(.unsupportedType, "\(model).\(field.name) cannot be flattened: \(reason)")
        }
        guard let childType = field.type as? any MappedJSONModel.Type else { throw fail("\(field.type) is not a JSONMappable model") }
        guard inProgress[ObjectIdentifier(childType)] == nil else { throw fail("\(field.type) contains itself") }
        func open<C: MappedJSONModel>(_ c: C.Type) throws(MappingError) -> ModelMeta { try meta(for: c) }
        let child = try open(childType)
        return child.properties.map { property in
            PropertyMeta(name: field.name + "." + property.name, offset: field.offset + property.offset,
                         codec: property.codec, keyPaths: property.keyPaths, isRequired: property.isRequired,
                         isReadOnly: property.isReadOnly || !field.isWritable, isDecoded: isDecoded && property.isDecoded,
                         encodingPath: isEncoded ? property.encodingPath : nil)
        }
    }

    /// A flattened model may share keys with its parent (SmartCodable's `@SmartFlat` child reads the
    /// parent's keys too): decoding sets every property that reads a key; encoding writes a shared key
    /// once, and the parent's value wins, then the first declared flattened model's. So a flattened
    /// property whose encoding key the parent (or an earlier flattened model) writes is not encoded. Key
    /// paths share a key when one is a prefix of the other (the shorter one's value holds the longer's).
    private func resolveFlattenedKeys(_ properties: inout [PropertyMeta], origins: [String?]) {
        func shared(_ a: [String], _ b: [String]) -> Bool {
            a.count <= b.count ? Array(b.prefix(a.count)) == a : Array(a.prefix(b.count)) == b
        }
        for j in properties.indices where origins[j] != nil {
            guard let path = properties[j].encodingPath else { continue }
            let written = properties.indices.contains { i in
                guard let other = properties[i].encodingPath, origins[i] != origins[j] else { return false }
                return (origins[i] == nil || i < j) && shared(other, path)
            }
            guard written else { continue }
            let p = properties[j]
            properties[j] = PropertyMeta(name: p.name, offset: p.offset, codec: p.codec, keyPaths: p.keyPaths,
                                         isRequired: p.isRequired, isReadOnly: p.isReadOnly, isDecoded: p.isDecoded,
                                         encodingPath: nil)
        }
    }

    /// The codec of a generated model's slot (`T?`) around the codec of its declared type `T`.
    private func slotCodec(wrapping declared: FieldCodec, of field: ReflectedField) throws(MappingError) -> FieldCodec {
        func slotType<T>(_: T.Type) -> Any.Type { T?.self }
        guard let slot = _openExistential(field.type, do: slotType) as? any SlotField.Type,
              let isNil = field.slotIsNil, let codec = slot.slotCodec(wrapping: declared, isNil: isNil) else {
            throw MappingError(.unsupportedType, "internal: no slot codec for \(field.type) around \(Swift.type(of: declared))")
        }
        return codec
    }

    private func modelCodec<M: MappedJSONModel>(_ type: M.Type) throws(MappingError) -> FieldCodec {
        if let pending = inProgress[ObjectIdentifier(type)] { return pending }
        return try meta(for: type).codec
    }

    // MARK: Field types

    /// The codec for a property or element type: built-in scalars, containers (recursively), models,
    /// raw-value enums, then `Decodable` as a fallback.
    func codec(for type: Any.Type) throws(MappingError) -> FieldCodec {
        if let make = Self.scalarCodecs[ObjectIdentifier(type)] { return make() }
        if let container = type as? any ContainerField.Type {
            if cache.lossyCollections, let lossy = type as? any LossyContainerField.Type { return try lossy.makeLossyCodec(self) }
            return try container.makeCodec(self)
        }
        if let model = type as? any MappedJSONModel.Type {
            func open<M: MappedJSONModel>(_ m: M.Type) throws(MappingError) -> FieldCodec { try modelCodec(m) }
            return try open(model)
        }
        if let rawEnum = type as? any RawRepresentable.Type {
            func open<E: RawRepresentable>(_ e: E.Type) throws(MappingError) -> FieldCodec {
                guard let raw = try codec(for: E.RawValue.self) as? ValueCodec<E.RawValue> else {
                    throw MappingError(.unsupportedType, "raw type \(E.RawValue.self) of \(E.self) is not supported")
                }
                return RawEnumCodec<E>(raw: raw)
            }
            return try open(rawEnum)
        }
        if let decodable = type as? any Decodable.Type {
            return try DecodableFallback.codec(for: decodable, models: cache)
        }
        throw MappingError(.unsupportedType, "\(type) is not supported (not a model, collection, raw-value enum or Decodable); add it to `ignored`")
    }

    /// Typed access for container factories.
    func valueCodec<T>(for type: T.Type) throws(MappingError) -> ValueCodec<T> {
        let codec = try codec(for: type)
        guard let typed = codec as? ValueCodec<T> else {
            throw MappingError(.unsupportedType, "internal: codec for \(T.self) has type \(Swift.type(of: codec))")
        }
        return typed
    }

    private func transformerCodec(_ transformer: JSONTransformer, fieldType: Any.Type) throws(MappingError) -> FieldCodec {
        func open<V>(_: V.Type) throws(MappingError) -> FieldCodec {
            let optional = V.self as? any OptionalField.Type
            guard transformer.valueType == V.self || optional?.wrappedType == transformer.valueType else {
                throw MappingError(.unsupportedType, "transformer produces \(transformer.valueType), the property is \(V.self)")
            }
            return TransformerCodec<V>(transformer, nilValue: optional.map { $0.nilValue as! V })
        }
        return try open(fieldType)
    }

    static let scalarCodecs: [ObjectIdentifier: @Sendable () -> FieldCodec] = {
        var codecs = commonScalarCodecs
        #if !(os(Windows) || os(Android)) && (arch(i386) || arch(x86_64))
        codecs[ObjectIdentifier(Float80.self)] = { Float80Codec() }
        #endif
        return codecs
    }()

    private static let commonScalarCodecs: [ObjectIdentifier: @Sendable () -> FieldCodec] = [
        ObjectIdentifier(Int.self): { IntegerCodec<Int>() },
        ObjectIdentifier(Int8.self): { IntegerCodec<Int8>() },
        ObjectIdentifier(Int16.self): { IntegerCodec<Int16>() },
        ObjectIdentifier(Int32.self): { IntegerCodec<Int32>() },
        ObjectIdentifier(Int64.self): { IntegerCodec<Int64>() },
        ObjectIdentifier(UInt.self): { IntegerCodec<UInt>() },
        ObjectIdentifier(UInt8.self): { IntegerCodec<UInt8>() },
        ObjectIdentifier(UInt16.self): { IntegerCodec<UInt16>() },
        ObjectIdentifier(UInt32.self): { IntegerCodec<UInt32>() },
        ObjectIdentifier(UInt64.self): { IntegerCodec<UInt64>() },
        ObjectIdentifier(Int128.self): { IntegerCodec<Int128>() },
        ObjectIdentifier(UInt128.self): { IntegerCodec<UInt128>() },
        ObjectIdentifier(Double.self): { DoubleCodec() },
        ObjectIdentifier(Float.self): { FloatCodec() },
        ObjectIdentifier(Bool.self): { BoolCodec() },
        ObjectIdentifier(String.self): { StringCodec() },
        ObjectIdentifier(Decimal.self): { DecimalCodec() },
        ObjectIdentifier(Date.self): { DateCodec() },
        ObjectIdentifier(URL.self): { URLCodec() },
        ObjectIdentifier(UUID.self): { UUIDCodec() },
        ObjectIdentifier(TimeZone.self): { TimeZoneCodec() },
        ObjectIdentifier(Data.self): { DataCodec() },
        ObjectIdentifier(JSONValue.self): { JSONValueCodec() },
        ObjectIdentifier(JSONObject.self): { JSONObjectCodec() },
        ObjectIdentifier(Any.self): { AnyCodec() },
    ]
}

// MARK: - Containers, recognised through conformances of the standard collection types

/// Collection and Optional types whose codec is built from their element's codec.
protocol ContainerField {
    static func makeCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec
}

extension Optional: ContainerField, OptionalField {
    static func makeCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec {
        OptionalCodec<Wrapped>(wrapped: try builder.valueCodec(for: Wrapped.self))
    }
    static var wrappedType: Any.Type { Wrapped.self }
    static var nilValue: Any { Wrapped?.none as Any }
}

extension Array: ContainerField {
    static func makeCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec {
        if let builtin = BuiltinArrays.codec(for: Element.self) { return builtin }
        return ArrayCodec<Element>(element: try builder.valueCodec(for: Element.self))
    }
}

extension ContiguousArray: ContainerField {
    static func makeCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec {
        ContiguousArrayCodec<Element>(element: try builder.valueCodec(for: Element.self))
    }
}

extension Set: ContainerField {
    static func makeCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec {
        SetCodec<Element>(element: try builder.valueCodec(for: Element.self))
    }
}

extension Dictionary: ContainerField {
    static func makeCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec {
        guard Key.self == String.self else {
            throw MappingError(.unsupportedType, "dictionaries need String keys, not \(Key.self)")
        }
        return DictionaryCodec<Value>(value: try builder.valueCodec(for: Value.self))
    }
}
