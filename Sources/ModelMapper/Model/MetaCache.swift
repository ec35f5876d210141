import Foundation

/// The process-wide table of model metadata, keyed by type.
///
/// Lookups take no lock (``PublishedTable``). A first use builds in a session of its own (a model and every model it
/// reaches, ``MetaBuilder``) with no lock held, since building runs user code; the session's metas are
/// published together once all are complete, so no thread observes a half-built meta. Failures
/// (unsupported types, unknown names) publish nothing: every use builds again and reports the same error.
///
/// Options that change how keys are matched (``DecodingOptions/keyStrategy``,
/// ``DecodingOptions/caseInsensitiveKeys``, ``EncodingOptions/keyStrategy``), how collections decode
/// (``DecodingOptions/lossyCollections``) or which keys are required (``DecodingOptions/requiresAllKeys``)
/// select a *variant* cache
/// (``forDecoding(_:)``): a whole set of metas built with that default strategy and matching, found once
/// per decode or encode call, so the per-value paths never look at those options. Options without them use
/// ``shared``.
///
/// `@unchecked Sendable`: `table` is thread-safe; a build session's metas are its thread's own until
/// published.
final class MetaCache: MappedModelCodecs, @unchecked Sendable {
    static let shared = MetaCache(defaultKeyStrategy: nil, matchesKeysIgnoringCase: false, lossyCollections: false,
                                  requiresAllKeys: false)

    /// The key strategy of models whose mapping sets none (nil: `.identity`).
    let defaultKeyStrategy: KeyStrategy?
    /// Whether plain keys also match ignoring ASCII case (an exact match wins).
    let matchesKeysIgnoringCase: Bool
    /// Whether every collection codec is lossy (``DecodingOptions/lossyCollections``).
    let lossyCollections: Bool
    /// Whether every decoded non-Optional property is required (``DecodingOptions/requiresAllKeys``).
    let requiresAllKeys: Bool

    private init(defaultKeyStrategy: KeyStrategy?, matchesKeysIgnoringCase: Bool, lossyCollections: Bool,
                 requiresAllKeys: Bool) {
        self.defaultKeyStrategy = defaultKeyStrategy
        self.matchesKeysIgnoringCase = matchesKeysIgnoringCase
        self.lossyCollections = lossyCollections
        self.requiresAllKeys = requiresAllKeys
    }

    /// The cache whose metas follow `options`' key strategy and case matching.
    @inline(__always)
    static func forDecoding(_ options: DecodingOptions) throws(MappingError) -> MetaCache {
        if options.keyStrategy == nil && !options.caseInsensitiveKeys && !options.lossyCollections && !options.requiresAllKeys {
            return shared
        }
        return try Variants.shared.cache(options.keyStrategy, ignoringCase: options.caseInsensitiveKeys,
                                         lossyCollections: options.lossyCollections, requiresAllKeys: options.requiresAllKeys)
    }

    /// The cache whose metas follow `options`' key strategy.
    @inline(__always)
    static func forEncoding(_ options: EncodingOptions) throws(MappingError) -> MetaCache {
        guard let strategy = options.keyStrategy else { return shared }
        return try Variants.shared.cache(strategy, ignoringCase: false, lossyCollections: false, requiresAllKeys: false)
    }

    /// Variant caches, made on first use and kept for the process (metas are never freed).
    ///
    /// A `.custom` strategy is told apart by the closure value itself (its function and context
    /// pointers; the cache keeps the closure, so the context's address is not reused): options made once
    /// and reused share one variant, and so do the strategies of one `KeyStrategy.custom(id:_:)` id (the
    /// same closure value, `NamedKeyStrategies`). Since each variant keeps its metas for good, at most
    /// `maxCustomVariants` distinct unnamed closures are accepted; more is reported as `.unsupportedType`
    /// naming `custom(id:_:)` (a closure made anew for every call would otherwise grow memory without
    /// bound). Named ones are not counted: their number is the caller's number of ids.
    ///
    /// Both kinds are found without a lock (``PublishedTable``); only adding a variant takes one.
    private final class Variants: @unchecked Sendable {
        static let shared = Variants()
        static let maxCustomVariants = 32

        /// Built-in strategies (and nil) by ``builtinKey(_:ignoringCase:)``.
        private let builtins = PublishedTable<MetaCache>(capacity: 32)
        /// `.custom` strategies by a hash of their ``CustomKey``; entries whose hashes collide are chained.
        private let customs = PublishedTable<CustomEntry>(capacity: 64)
        /// Unnamed custom variants made (changed only inside `customs`' update, under its lock).
        private var customCount = 0

        struct CustomKey: Hashable {
            let closure: ClosureWords
            let ignoringCase: Bool
            let lossyCollections: Bool
            let requiresAllKeys: Bool

            /// A nonzero table key.
            var tableKey: UInt {
                var hasher = Hasher()
                hasher.combine(self)
                return UInt(bitPattern: hasher.finalize()) | 1
            }
        }

        /// One custom variant, and the entry it displaced in its slot (same table key); immutable.
        final class CustomEntry {
            let key: CustomKey
            let cache: MetaCache
            let next: CustomEntry?

            init(key: CustomKey, cache: MetaCache, next: CustomEntry?) {
                self.key = key
                self.cache = cache
                self.next = next
            }

            func find(_ key: CustomKey) -> MetaCache? {
                var entry: CustomEntry? = self
                while let e = entry {
                    if e.key == key { return e.cache }
                    entry = e.next
                }
                return nil
            }
        }

        func cache(_ strategy: KeyStrategy?, ignoringCase: Bool, lossyCollections: Bool,
                   requiresAllKeys: Bool) throws(MappingError) -> MetaCache {
            let index: UInt
            switch strategy {
            case nil: index = 1
            case .identity: index = 2
            case .snakeCase: index = 3
            case .kebabCase: index = 4
            case .pascalCase: index = 5
            case .screamingSnakeCase: index = 6
            case .firstLetterLowercased: index = 7
            case .custom:
                return try customCache(strategy!, ignoringCase: ignoringCase, lossyCollections: lossyCollections,
                                       requiresAllKeys: requiresAllKeys)
            }
            let key = index << 3 | (ignoringCase ? 1 : 0) | (lossyCollections ? 2 : 0) | (requiresAllKeys ? 4 : 0)
            if let cache = builtins.value(for: key) { return cache }
            return builtins.insertIfAbsent(key, MetaCache(defaultKeyStrategy: strategy, matchesKeysIgnoringCase: ignoringCase,
                                                          lossyCollections: lossyCollections, requiresAllKeys: requiresAllKeys))
        }

        private func customCache(_ strategy: KeyStrategy, ignoringCase: Bool, lossyCollections: Bool,
                                 requiresAllKeys: Bool) throws(MappingError) -> MetaCache {
            let key = CustomKey(closure: strategy.customIdentity!, ignoringCase: ignoringCase, lossyCollections: lossyCollections,
                                requiresAllKeys: requiresAllKeys)
            let tableKey = key.tableKey
            if let found = customs.value(for: tableKey)?.find(key) { return found }
            var full = false
            let kept = customs.update(tableKey) { present in
                if present?.find(key) != nil { return nil }
                if !strategy.isNamedCustom {
                    guard customCount < Self.maxCustomVariants else {
                        full = true
                        return nil
                    }
                    customCount += 1
                }
                return CustomEntry(key: key, cache: MetaCache(defaultKeyStrategy: strategy, matchesKeysIgnoringCase: ignoringCase,
                                                              lossyCollections: lossyCollections, requiresAllKeys: requiresAllKeys),
                                   next: present)
            }
            if let found = kept?.find(key) { return found }
            assert(full, "a custom variant is either found or refused")
            throw MappingError(.unsupportedType, "more than \(Self.maxCustomVariants) different KeyStrategy.custom closures in options; make the options (or the closure) once and reuse them, or name the strategy with KeyStrategy.custom(id:_:)")
        }
    }

    /// Published metas by type, read without a lock.
    private let table = PublishedTable<ModelMeta>()

    /// The metadata of model type `M`, built on first use.
    ///
    /// A build runs without a lock (it calls user code, which may decode with ModelMapper itself) and
    /// publishes its models only when it succeeds; two threads' first use of one type may both build it,
    /// and the first to publish wins. A failure publishes nothing, so every use reports it again.
    func meta<M: JSONMappable>(for type: M.Type) throws(MappingError) -> ModelMeta {
        let id = ObjectIdentifier(type)
        if let meta = published(id) { return meta }
        let builder = MetaBuilder(cache: self)
        _ = try builder.meta(for: type)
        return publish(builder.finished, returning: id)
    }

    /// Publishes the metas of a successful build session, each unless another session published its type
    /// first (both are complete; the published one is kept), and returns the published meta of `id`.
    private func publish(_ metas: [ObjectIdentifier: ModelMeta], returning id: ObjectIdentifier) -> ModelMeta {
        Self.markReachesContext(Array(metas.values))
        for (builtID, meta) in metas { _ = table.insertIfAbsent(UInt(bitPattern: builtID), meta) }
        return table.value(for: UInt(bitPattern: id))!
    }

    /// Sets ``ModelMeta/reachesContext`` on the metas of one build session (before they are published,
    /// while only the session's thread sees them): a model calls a hook or transformer itself, or has a property whose codec
    /// reaches one, through models of this session (a fixpoint, for recursive models) or of earlier
    /// sessions (whose flags are final: what a type reaches was built with it).
    private static func markReachesContext(_ metas: [ModelMeta]) {
        for meta in metas {
            meta.reachesContext = meta.decodingHooks != nil || meta.encodingHook != nil || meta.polymorphic != nil
        }
        var changed = true
        while changed {
            changed = false
            for meta in metas where !meta.reachesContext && meta.properties.contains(where: { $0.codec.reachesContext }) {
                meta.reachesContext = true
                changed = true
            }
        }
    }

    /// The codec of model type `M` (its metadata's, built on first use).
    func codec<M: JSONMappable>(for type: M.Type) throws(MappingError) -> ModelCodec<M> {
        // The builder stores a `ModelCodec<M>` in the meta of `M` (MetaBuilder.meta(for:)).
        try meta(for: type).codec as! ModelCodec<M>
    }

    func mappedCodec<M: JSONMappable>(for type: M.Type) throws(MappingError) -> ValueCodec<M> {
        try codec(for: type)
    }

    /// The metadata of a model type known only at run time (polymorphic choices).
    func meta(forDynamic type: any JSONMappable.Type) throws(MappingError) -> ModelMeta {
        func open<M: JSONMappable>(_ t: M.Type) throws(MappingError) -> ModelMeta { try meta(for: t) }
        return try open(type)
    }

    /// The published metadata of a type, if any (complete, with its flags final); takes no lock.
    @inline(__always)
    func published(_ id: ObjectIdentifier) -> ModelMeta? {
        table.value(for: UInt(bitPattern: id))
    }
}
