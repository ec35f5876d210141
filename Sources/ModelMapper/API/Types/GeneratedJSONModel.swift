// Unsafe code: `makeJSONModel(decodingSlots:)` hands the address of a model's `JSONModelSlots` (a local of
// that function) to the engine's decoding loop for the length of one call, and a field's `slotIsNil` reads
// the slot at the address the engine passes it. Invariant: the address is only used inside `decode`, and
// only at the offsets and with the slot types of that same type's `jsonModelFields` (Model/GeneratedModels.swift,
// which asserts them, and checks `slotIsNil` against the slot it was asked about).
/// A model whose stored properties are known at compile time: what `@JSONModel` (the ModelMapperMacros
/// module) conforms a struct or final class to. Write `@JSONModel` rather than these members by hand.
///
/// It is the second front end of the one engine: where ``JSONMappable`` finds a model's fields by
/// reflection and writes them into an instance made by `init()`, a generated model lists its fields
/// (``jsonModelFields``) and builds itself from the decoded values (``init(jsonModelSlots:)``), so `let`s
/// are set and no `init()` is needed. Everything else (keys, key paths, strategies, transformers, hooks,
/// lossy collections, conversions, errors) is the same ``ModelMapping`` applied by the same code.
///
/// Decoding fills a ``JSONModelSlots`` value, one Optional per stored property (nil: the JSON did not
/// give it), then calls ``init(jsonModelSlots:)``; encoding reads ``jsonModelSlots()``.
public protocol GeneratedJSONModel: MappedJSONModel, Codable {
    /// One Optional `var` per stored property, each nil at first.
    associatedtype JSONModelSlots: GeneratedJSONModelSlots
    /// The stored properties in declaration order.
    static var jsonModelFields: [JSONModelField<JSONModelSlots>] { get }
    /// The model from decoded values: each property from its slot, else its initial value; a slot that
    /// is nil for a property with neither (only possible when an invalid-value handler forgave its
    /// value) throws ``MappingError``.
    init(jsonModelSlots slots: inout JSONModelSlots) throws
    /// Decodes a model: makes empty slots, lets `decode` fill them (it gets their address; the engine's
    /// decoding loop writes each property's slot there), then builds the model from them
    /// (``init(jsonModelSlots:)``). `@JSONModel` generates it, so that it is compiled for the type (the
    /// slots a fixed-size local, the construction direct stored-property writes); the default does the
    /// same through generic code.
    static func makeJSONModel(decodingSlots decode: (UnsafeMutableRawPointer) throws(MappingError) -> Void) throws -> Self
    /// The model's current values, every slot set.
    func jsonModelSlots() -> JSONModelSlots
    /// `update(json:)`: takes the slots' values (every slot set: the current values merged with the JSON).
    /// A struct is rebuilt (its `let`s may change); a class sets its `var`s (its `let`s cannot change).
    mutating func updateJSONModel(from slots: inout JSONModelSlots) throws
}

extension GeneratedJSONModel {
    /// The generic `makeJSONModel(decodingSlots:)`, for conformances that do not write their own.
    public static func makeJSONModel(decodingSlots decode: (UnsafeMutableRawPointer) throws(MappingError) -> Void) throws -> Self {
        var slots = JSONModelSlots()
        try withUnsafeMutablePointer(to: &slots) { (slots) throws(MappingError) in try decode(UnsafeMutableRawPointer(slots)) }
        return try Self(jsonModelSlots: &slots)
    }
}

/// The slots of a ``GeneratedJSONModel``: a struct of Optional `var`s, all nil after `init()` (an
/// Optional property without an initial value has a slot of its own type; every other one `T?`).
public protocol GeneratedJSONModelSlots {
    init()
}

/// One stored property of a ``GeneratedJSONModel``, as `@JSONModel` lists it.
///
/// The initializers are inlinable so that they are compiled where the fields are listed, for the slot's
/// concrete type: `slotIsNil` is code for that type, where the engine's own (unspecialized) code can only
/// ask a generic Optional whether it is nil by copying it.
public struct JSONModelField<Slots> {
    /// The property's name.
    public let name: String
    /// The declared type (not Optional-wrapped by the slot).
    @usableFromInline let type: Any.Type
    /// `Optional<type>`, or `type` itself when ``slotIsValue``: the slot's type.
    @usableFromInline let slotType: Any.Type
    /// Byte offset of the slot in `Slots`.
    @usableFromInline let offset: Int
    /// Whether the declaration gives an initial value (used when the key is absent).
    public let hasInitialValue: Bool
    /// Whether the property is a `let`. A `let` with an initial value is a constant: encoded, never decoded.
    public let isLet: Bool
    /// Whether the slot is the property's own type: an Optional without an initial value, for which nil
    /// means both "absent" and "null", so it needs no second Optional (and decodes as a reflected
    /// model's Optional does, through the built-in `T?` fields).
    @usableFromInline let slotIsValue: Bool
    /// Whether the slot at this address (the slots' base plus `offset`) is nil.
    @usableFromInline let slotIsNil: @Sendable (UnsafeRawPointer) -> Bool

    /// A property of type `T` whose slot is `slot`.
    @inlinable
    public init<T>(_ name: String, _ slot: WritableKeyPath<Slots, T?>, hasInitialValue: Bool, isLet: Bool) {
        self.init(name, slot, type: T.self, hasInitialValue: hasInitialValue, isLet: isLet, slotIsValue: false)
    }

    /// An Optional property of type `T?` without an initial value, whose slot (of the same type) is
    /// nil when the key is absent or null.
    @inlinable
    public init<T>(optional name: String, _ slot: WritableKeyPath<Slots, T?>, isLet: Bool) {
        self.init(name, slot, type: T?.self, hasInitialValue: false, isLet: isLet, slotIsValue: true)
    }

    @inlinable
    init<T>(_ name: String, _ slot: WritableKeyPath<Slots, T?>, type: Any.Type, hasInitialValue: Bool, isLet: Bool,
            slotIsValue: Bool) {
        self.name = name
        self.type = type
        slotType = T?.self
        guard let offset = MemoryLayout<Slots>.offset(of: slot) else {
            preconditionFailure("the slot of \(name) is not a stored property of \(Slots.self)")
        }
        self.offset = offset
        self.hasInitialValue = hasInitialValue
        self.isLet = isLet
        self.slotIsValue = slotIsValue
        slotIsNil = { $0.assumingMemoryBound(to: T?.self).pointee == nil }
    }

    /// Encoded, never decoded: a `let` with an initial value.
    var isConstant: Bool { isLet && hasInitialValue }
}

/// What the code `@JSONModel` generates calls.
public enum GeneratedJSONModelSupport {
    /// The error for a property with no initial value whose slot is empty when the model is built: its
    /// value was forgiven by an invalid-value handler (absent and `null` keys are reported before this,
    /// as ``MappingError/Kind/missingKey``).
    public static func missingValue<T>(_ name: String, of model: Any.Type) throws -> T {
        var error = MappingError(.missingKey, "\(model).\(name) has no value (its value was not decoded) and no initial value")
        error.missingProperties = [name]
        error.prependKey(name, jsonKey: nil)
        throw error
    }
}
