// Unsafe code: a generated model (``GeneratedJSONModel``, `@JSONModel`) is decoded into, and encoded
// from, a `JSONModelSlots` value on the stack, whose address is the `base` the decoding loop and the
// encoder use. Invariants:
// - the slots' metadata comes from `jsonModelFields` of exactly that type: each field's offset is
//   `MemoryLayout<Slots>.offset(of:)` of its slot, and its codec (`SlotCodec<T?>`) reads and writes `T?`,
//   the slot's type (`JSONModelField.init` takes the slot as a `WritableKeyPath<Slots, T?>`);
// - the slots are initialized (`init()` sets every slot to nil, `jsonModelSlots()` to the current values)
//   and the pointer is used only inside `withUnsafeMutablePointer(to:)`/`withUnsafePointer(to:)` (for a
//   decode, inside the model's `makeJSONModel(decodingSlots:)`, which passes the address of its slots);
// - the hooks get a pointer to a variable of the model type, as ModelCodec.swift's do.

/// The codec of a generated model's property: the slot is `T?` (nil: the JSON did not give it), decoded
/// and encoded by the property's own codec (`declared`, built by the same rules as a ``JSONMappable``'s
/// property of type `T`: transformers, lossy, built-ins). Null reaches it only when `T` takes null, as
/// the decoding loop passes null only to codecs that take it.
///
/// Generic over the slot type `Slot` (`T?`) rather than `T`: this code is compiled once, unspecialized,
/// and code generic over `T` looks up the metadata of `T?` at run time for every value it stores (a
/// hash-table probe, more than the rest of the slot's work); `Slot`'s metadata is the class's own
/// generic argument, and the slot operations are `Optional`'s ``SlotField`` witnesses, which get it too.
final class SlotCodec<Slot: SlotField>: ValueCodec<Slot>, @unchecked Sendable {
    let declared: ValueCodec<Slot.SlotValue>
    /// The field's own nil check, compiled for `Slot` where the model lists its fields: asked here, a
    /// generic `Optional` is copied to be checked (a retain and a release of everything a nested model holds).
    let isNil: @Sendable (UnsafeRawPointer) -> Bool

    init(declared: ValueCodec<Slot.SlotValue>, isNil: @escaping @Sendable (UnsafeRawPointer) -> Bool) {
        self.declared = declared
        self.isNil = isNil
        super.init(takesNull: declared.takesNull)
    }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Slot {
        try Slot.decodeSlot(declared, c, index)
    }

    override func decode(_ c: DecodeContext, _ index: Int, into pointer: UnsafeMutablePointer<Slot>) throws(MappingError) {
        try Slot.decodeSlot(declared, c, index, into: pointer, isEmpty: isNil(UnsafeRawPointer(pointer)))
    }

    override func encode(_ value: Slot, _ e: inout EncodeContext) throws(MappingError) {
        try value.encodeSlot(declared, &e)
    }

    override func isNil(_ value: Slot) -> Bool { value.slotIsNil(declared) }

    override var mergesInPlace: Bool { declared.mergesInPlace }
    override var tapeFilter: TapeFilterNode? { declared.tapeFilter }
    override var reachesContext: Bool { declared.reachesContext }
    /// A built-in `T` is written as the built-in `T?` (the loop never passes it null: `T` does not take it).
    override var fieldKind: FieldKind { declared.fieldKind.optional }
}

/// Slot types (`Optional<T>`): make the `SlotCodec` of their property from its declared codec, and do
/// the slot's work for it (see ``SlotCodec`` for why these are witnesses of the slot type).
protocol SlotField {
    /// `T`, the property's declared type.
    associatedtype SlotValue
    static func slotCodec(wrapping declared: FieldCodec, isNil: @escaping @Sendable (UnsafeRawPointer) -> Bool) -> FieldCodec?
    /// The slot's value from the JSON at `index`.
    static func decodeSlot(_ declared: ValueCodec<SlotValue>, _ c: DecodeContext, _ index: Int) throws(MappingError) -> Self
    /// Decodes into the slot (`isEmpty`: it is nil): merged into the value it holds when `declared` merges
    /// in place (an update's current values, a key given twice), else replaced.
    static func decodeSlot(_ declared: ValueCodec<SlotValue>, _ c: DecodeContext, _ index: Int,
                           into pointer: UnsafeMutablePointer<Self>, isEmpty: Bool) throws(MappingError)
    func encodeSlot(_ declared: ValueCodec<SlotValue>, _ e: inout EncodeContext) throws(MappingError)
    func slotIsNil(_ declared: ValueCodec<SlotValue>) -> Bool
}

extension Optional: SlotField {
    typealias SlotValue = Wrapped

    static func slotCodec(wrapping declared: FieldCodec, isNil: @escaping @Sendable (UnsafeRawPointer) -> Bool) -> FieldCodec? {
        (declared as? ValueCodec<Wrapped>).map { SlotCodec<Self>(declared: $0, isNil: isNil) }
    }

    @inline(__always)
    static func decodeSlot(_ declared: ValueCodec<Wrapped>, _ c: DecodeContext, _ index: Int) throws(MappingError) -> Self {
        try declared.decode(c, index)
    }

    @inline(__always)
    static func decodeSlot(_ declared: ValueCodec<Wrapped>, _ c: DecodeContext, _ index: Int,
                           into pointer: UnsafeMutablePointer<Self>, isEmpty: Bool) throws(MappingError) {
        assert(isEmpty == (pointer.pointee == nil), "the field's nil check disagrees with its slot")
        if isEmpty {
            // An empty slot (every slot of a decode) holds nothing to release: the value is moved in.
            pointer.initialize(to: try declared.decode(c, index))
        } else if declared.mergesInPlace {
            try declared.decode(c, index, into: &pointer.pointee!)
        } else {
            pointer.pointee = try declared.decode(c, index)
        }
    }

    @inline(__always)
    func encodeSlot(_ declared: ValueCodec<Wrapped>, _ e: inout EncodeContext) throws(MappingError) {
        if let value = self { try declared.encode(value, &e) } else { e.writer.null() }
    }

    @inline(__always)
    func slotIsNil(_ declared: ValueCodec<Wrapped>) -> Bool { map(declared.isNil) ?? true }
}

extension GeneratedJSONModel {
    /// The stored properties as the metadata builder takes them: a field per slot, at the slot's offset.
    static var reflectedSlots: [ReflectedField] {
        jsonModelFields.map {
            ReflectedField(name: $0.name, offset: $0.offset, type: $0.type, isWritable: !$0.isConstant, isStrong: true,
                           slotIsValue: $0.slotIsValue, slotIsNil: $0.slotIsNil)
        }
    }

    static var slotsSize: Int { MemoryLayout<JSONModelSlots>.size }

    /// Which properties have neither an initial value nor an Optional type: absent → `.missingKey`.
    static var requiredByDeclaration: Set<String> {
        Set(jsonModelFields.filter { !$0.hasInitialValue && !($0.type is any OptionalField.Type) }.map(\.name))
    }
}

/// How ``ModelCodec`` makes, updates and reads a model that is not made by `init()` and written in
/// place: the generated models. Nil for ``JSONMappable`` models.
class ModelBuilding<M: MappedJSONModel>: @unchecked Sendable {
    func decode(_ codec: ModelCodec<M>, _ c: DecodeContext, _ index: Int) throws(MappingError) -> M { fatalError("abstract") }
    func decode(_ codec: ModelCodec<M>, _ c: DecodeContext, _ index: Int, into pointer: UnsafeMutablePointer<M>) throws(MappingError) { fatalError("abstract") }
    func update(_ codec: ModelCodec<M>, _ c: DecodeContext, _ index: Int, _ pointer: UnsafeMutablePointer<M>) throws(MappingError) { fatalError("abstract") }
    func encode(_ codec: ModelCodec<M>, at pointer: UnsafePointer<M>, _ e: inout EncodeContext) throws(MappingError) { fatalError("abstract") }

    /// The building of `M` when it is a generated model.
    static func of(_ type: M.Type) -> ModelBuilding<M>? {
        guard let generated = type as? any GeneratedJSONModel.Type else { return nil }
        func open<G: GeneratedJSONModel>(_: G.Type) -> ModelBuilding<M> { GeneratedModelBuilding<G>() as! ModelBuilding<M> }
        return open(generated)
    }
}

/// A generated model is decoded into its slots by the shared decoding loop (``ModelCodec/decodeMembers``:
/// `willDecode`, keys, key paths, required keys), then built (``GeneratedJSONModel/init(jsonModelSlots:)``),
/// then handed to `didDecode`, so the hook sees the `let`s set.
final class GeneratedModelBuilding<G: GeneratedJSONModel>: ModelBuilding<G>, @unchecked Sendable {
    private let isClass = G.self is AnyClass

    override func decode(_ codec: ModelCodec<G>, _ c: DecodeContext, _ index: Int) throws(MappingError) -> G {
        // The slots are made, filled and taken by the model's own `makeJSONModel` (compiled for `G`): this
        // generic class makes one call per model, the decoding loop writes the slots in place.
        let meta: ModelMeta = codec.meta
        var failure: MappingError? = nil
        guard let hooks = meta.decodingHooks else {
            // Built straight into the caller's result: this code is generic over `G`, so a local model
            // would be a value of run-time size, moved out again (a memcpy of the whole model).
            do {
                return try G.makeJSONModel { (base) throws(MappingError) in
                    do throws(MappingError) {
                        _ = try codec.decodeMembers(c, index, base: base, meta: meta, merging: false)
                    } catch {
                        failure = error
                        throw error
                    }
                }
            } catch {
                // A decoding error goes out as it was thrown; one building the model is placed at the object.
                throw failure ?? Self.buildError(error, at: index)
            }
        }
        var object: JSONObject? = nil
        let model: G
        do {
            model = try G.makeJSONModel { (base) throws(MappingError) in
                do throws(MappingError) {
                    object = try codec.decodeMembers(c, index, base: base, meta: meta, merging: false)
                } catch {
                    failure = error
                    throw error
                }
            }
        } catch {
            throw failure ?? Self.buildError(error, at: index)
        }
        guard let object else { return model }
        var hooked = model
        try withUnsafeMutablePointer(to: &hooked) { pointer throws(MappingError) in
            try codec.didDecode(hooks, UnsafeMutableRawPointer(pointer), object, c, index)
        }
        return hooked
    }

    /// A struct merges into the value the field holds, as a ``JSONMappable`` struct does (keys absent
    /// from the object keep its values); a class is a new instance, except below an update's root, which
    /// updates the instances it holds.
    override func decode(_ codec: ModelCodec<G>, _ c: DecodeContext, _ index: Int, into pointer: UnsafeMutablePointer<G>) throws(MappingError) {
        if isClass && !c.updatesHeldInstances { return pointer.pointee = try decode(codec, c, index) }
        var slots = pointer.pointee.jsonModelSlots()
        var value = pointer.pointee
        try update(&value, codec, c, index, &slots, merging: false)
        pointer.pointee = value
    }

    /// All or nothing: the slots start from the current values, the JSON's keys replace theirs, and the
    /// model takes them only when the whole decode (and `didDecode`) succeeded.
    override func update(_ codec: ModelCodec<G>, _ c: DecodeContext, _ index: Int, _ pointer: UnsafeMutablePointer<G>) throws(MappingError) {
        var slots = pointer.pointee.jsonModelSlots()
        var value = pointer.pointee
        try update(&value, codec, c, index, &slots, merging: true)
        pointer.pointee = value
    }

    override func encode(_ codec: ModelCodec<G>, at pointer: UnsafePointer<G>, _ e: inout EncodeContext) throws(MappingError) {
        var slots = pointer.pointee.jsonModelSlots()
        try withUnsafePointer(to: &slots) { base throws(MappingError) in
            try codec.encodeFields(UnsafeRawPointer(base), variable: UnsafeRawPointer(pointer), meta: codec.meta, &e)
        }
    }

    /// Decodes the object at `index` into `slots`; returns the object `didDecode` is to get (nil without hooks).
    private func decodeSlots(_ codec: ModelCodec<G>, _ c: DecodeContext, _ index: Int, _ slots: inout G.JSONModelSlots,
                             merging: Bool) throws(MappingError) -> JSONObject? {
        let meta: ModelMeta = codec.meta
        return try withUnsafeMutablePointer(to: &slots) { base throws(MappingError) in
            try codec.decodeMembers(c, index, base: UnsafeMutableRawPointer(base), meta: meta, merging: merging)
        }
    }

    /// Decodes the object at `index` into `slots` (holding `model`'s values), then updates `model` from
    /// them and runs `didDecode` on it.
    private func update(_ model: inout G, _ codec: ModelCodec<G>, _ c: DecodeContext, _ index: Int,
                        _ slots: inout G.JSONModelSlots, merging: Bool) throws(MappingError) {
        let object = try decodeSlots(codec, c, index, &slots, merging: merging)
        do { try model.updateJSONModel(from: &slots) } catch { throw Self.buildError(error, at: index) }
        if let object, let hooks = codec.meta.decodingHooks {
            try withUnsafeMutablePointer(to: &model) { pointer throws(MappingError) in
                try codec.didDecode(hooks, UnsafeMutableRawPointer(pointer), object, c, index)
            }
        }
    }

    /// What building the model threw (a forgiven required value: ``GeneratedJSONModelSupport``), at the object.
    private static func buildError(_ error: any Error, at index: Int) -> MappingError {
        var failure = (error as? MappingError) ?? MappingError(.validation, "\(error)")
        if failure.tokenIndex == nil { failure.tokenIndex = index }
        return failure
    }
}
