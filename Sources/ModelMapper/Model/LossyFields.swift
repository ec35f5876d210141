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

    /// The plain codec (for encoding and the tape filter) is made by the collection itself, not looked
    /// up through `codec(for:)`, which returns the lossy one under ``DecodingOptions/lossyCollections``.
    fileprivate func lossyElements<C: LossyCollection & ContainerField>(_: C.Type) throws(MappingError) -> FieldCodec {
        guard let plain = try C.makeCodec(self) as? ValueCodec<C> else {
            throw MappingError(.unsupportedType, "internal: the codec for \(C.self) has another type")
        }
        return LossyElementsCodec<C>(plain: plain, element: try valueCodec(for: C.Item.self))
    }
}

extension MetaCache {
    /// The codec of a top-level `[M]` (a whole document, a root path): lossy under
    /// ``DecodingOptions/lossyCollections``, like every collection inside.
    func rootArrayCodec<M: MappedJSONModel>(of _: M.Type) throws(MappingError) -> ValueCodec<[M]> {
        let plain = ArrayCodec<M>(element: try codec(for: M.self))
        return lossyCollections ? LossyElementsCodec<[M]>(plain: plain, element: plain.element) : plain
    }

    /// The codec of a top-level `[String: M]`; lossy as ``rootArrayCodec(of:)``.
    func rootDictionaryCodec<M: MappedJSONModel>(of _: M.Type) throws(MappingError) -> ValueCodec<[String: M]> {
        let plain = DictionaryCodec<M>(value: try codec(for: M.self))
        return lossyCollections ? LossyDictionaryCodec<M>(plain: plain) : plain
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
