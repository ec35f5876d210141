/// Lossy collection properties (``ModelMapping/lossy``): the collection types, and Optionals of them,
/// recognised through conformances as `ContainerField` recognises them.
protocol LossyContainerField {
    static func makeLossyCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec
}

extension MetaBuilder {
    /// The codec of a property listed in `lossy`: its element codec wrapped so that bad elements are dropped.
    func lossyCodec(for type: Any.Type) throws(MappingError) -> FieldCodec {
        guard let container = type as? any LossyContainerField.Type else {
            throw MappingError(.unsupportedType, "\(type) cannot be lossy (only arrays, sets, dictionaries and Optionals of them)")
        }
        return try container.makeLossyCodec(self)
    }

    fileprivate func lossyElements<C: LossyCollection>(_: C.Type) throws(MappingError) -> FieldCodec {
        LossyElementsCodec<C>(plain: try valueCodec(for: C.self), element: try valueCodec(for: C.Item.self))
    }
}

extension Optional: LossyContainerField where Wrapped: LossyContainerField {
    static func makeLossyCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec {
        guard let wrapped = try Wrapped.makeLossyCodec(builder) as? ValueCodec<Wrapped> else {
            throw MappingError(.unsupportedType, "internal: lossy codec for \(Wrapped.self) has another type")
        }
        return OptionalCodec<Wrapped>(wrapped: wrapped)
    }
}

extension Array: LossyContainerField {
    static func makeLossyCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec { try builder.lossyElements(Self.self) }
}

extension ContiguousArray: LossyContainerField {
    static func makeLossyCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec { try builder.lossyElements(Self.self) }
}

extension Set: LossyContainerField {
    static func makeLossyCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec { try builder.lossyElements(Self.self) }
}

extension Dictionary: LossyContainerField {
    static func makeLossyCodec(_ builder: MetaBuilder) throws(MappingError) -> FieldCodec {
        guard Key.self == String.self else {
            throw MappingError(.unsupportedType, "dictionaries need String keys, not \(Key.self)")
        }
        return LossyDictionaryCodec<Value>(plain: DictionaryCodec<Value>(value: try builder.valueCodec(for: Value.self)))
    }
}
