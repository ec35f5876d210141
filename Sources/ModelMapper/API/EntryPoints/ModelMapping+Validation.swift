extension ModelMapping {
    /// Builds the metadata of `types`, and of every model they reach, now rather than at their first
    /// decode or encode, and throws the first ``MappingError`` a first use would throw: an unknown name in
    /// `keys`, `ignored`, `only`, `required` or another list, a flattened property that cannot be
    /// flattened, a weak or unowned property that is not ignored, a property type the mapper cannot read,
    /// an ambiguous `_name` field (a property wrapper whose `wrappedValue` is computed). A server calls it
    /// once at start-up, so a mapping mistake stops the boot instead of failing the first request.
    ///
    /// ```swift
    /// try ModelMapping.validate(Book.self, Author.self)
    /// ```
    ///
    /// The errors are of kind `.unsupportedType` and name the type, the property and the name at fault.
    /// What is built is kept (as a first use keeps it): later decodes and encodes with default key matching
    /// find it ready. Options that select other metadata (``DecodingOptions/keyStrategy``,
    /// ``DecodingOptions/caseInsensitiveKeys``, ``DecodingOptions/lossyCollections``,
    /// ``DecodingOptions/requiresAllKeys``, ``EncodingOptions/keyStrategy``) build theirs at their first
    /// use; pass them with ``validate(_:decoding:)`` to build those too. Subclasses chosen by
    /// ``JSONPolymorphic`` at run time are not reached: list them. What only encoding refuses (a key
    /// path with an array index) does not fail a model here, which decodes: ``validate(_:encoding:)``
    /// reports it.
    public static func validate(_ types: any MappedJSONModel.Type...) throws {
        try validate(types, decoding: .lenient)
    }

    /// ``validate(_:)`` for the metadata that `options` select.
    public static func validate(_ types: [any MappedJSONModel.Type], decoding options: DecodingOptions) throws {
        let cache = try MetaCache.forDecoding(options)
        for type in types { _ = try cache.meta(forDynamic: type) }
    }

    /// ``validate(_:)`` for encoding with `options`: also throws what encoding one of `types` would throw
    /// whatever its values, a property written to a key path with an array index (`keys: ["second":
    /// "nested.1.value"]` without `encodingKeys` or `ignoredWhenEncoding`). ``validate(_:)`` does not
    /// report that: such a model decodes, and only its encoding fails (at encode time, naming the property
    /// and the key path). Models reached through properties are checked when they are listed.
    public static func validate(_ types: [any MappedJSONModel.Type], encoding options: EncodingOptions) throws {
        let cache = try MetaCache.forEncoding(options)
        for type in types {
            if let limit = try cache.meta(forDynamic: type).encodingLimit { throw limit }
        }
    }
}
