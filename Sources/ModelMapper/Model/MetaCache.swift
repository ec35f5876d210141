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

    /// Variant caches, made on first use. A built-in strategy's are kept for the process (metas are never
    /// freed), like the types' own. A `.custom` strategy's are held by the strategy's box
    /// (``KeyStrategy/Transform``, one slot per combination of the other settings: at most eight per
    /// strategy) and freed with it: the metas they hold refer to their cache `unowned` (``ModelCodec``,
    /// `DecodableCodec`) and the cache holds a copy of the strategy's function without its caches
    /// (``KeyStrategy/Transform/detached``), so nothing holds the box but the strategy's own copies. Any
    /// number of custom strategies may be used; one made anew per call builds its metadata per call.
    ///
    /// Both kinds are found without a lock (``PublishedTable``, ``StrategyCaches``); only adding a
    /// built-in variant takes one.
    private final class Variants: @unchecked Sendable {
        static let shared = Variants()

        /// Built-in strategies (and nil) by index and flags.
        private let builtins = PublishedTable<MetaCache>(capacity: 32)

        func cache(_ strategy: KeyStrategy?, ignoringCase: Bool, lossyCollections: Bool,
                   requiresAllKeys: Bool) throws(MappingError) -> MetaCache {
            let flags = (ignoringCase ? 1 : 0) | (lossyCollections ? 2 : 0) | (requiresAllKeys ? 4 : 0)
            let index: UInt
            switch strategy {
            case nil: index = 1
            case .identity: index = 2
            case .snakeCase: index = 3
            case .kebabCase: index = 4
            case .pascalCase: index = 5
            case .screamingSnakeCase: index = 6
            case .firstLetterLowercased: index = 7
            case .custom(let transform):
                guard let caches = transform.caches else {
                    preconditionFailure("a detached custom key strategy selects a variant")
                }
                let made = try caches.object(flags) {
                    MetaCache(defaultKeyStrategy: .custom(transform.detached), matchesKeysIgnoringCase: ignoringCase,
                              lossyCollections: lossyCollections, requiresAllKeys: requiresAllKeys)
                }
                return made as! MetaCache
            }
            let key = index << 3 | UInt(flags)
            if let cache = builtins.value(for: key) { return cache }
            return builtins.insertIfAbsent(key, MetaCache(defaultKeyStrategy: strategy, matchesKeysIgnoringCase: ignoringCase,
                                                          lossyCollections: lossyCollections, requiresAllKeys: requiresAllKeys))
        }
    }

    /// Published metas by type, read without a lock.
    private let table = PublishedTable<ModelMeta>()

    /// A custom key strategy's cache goes with the strategy: its metas and their codecs refer to each
    /// other (a codec to its meta, a meta to its codec), so the codecs drop their metas here. Nothing uses
    /// them any more: a decode or encode holds the cache, or the options holding the strategy, while it runs.
    deinit {
        table.forEachValue { $0.codec.releaseMeta() }
    }

    /// The metadata of model type `M`, built on first use.
    ///
    /// A build runs without a lock (it calls user code, which may decode with ModelMapper itself) and
    /// publishes its models only when it succeeds; two threads' first use of one type may both build it.
    /// A session publishes all its models or none: when another session published one of them first, it
    /// drops its own metas (breaking their codec-meta cycles, so they are freed) and builds again, reusing
    /// what is published. A failure publishes nothing, so every use reports it again.
    func meta<M: MappedJSONModel>(for type: M.Type) throws(MappingError) -> ModelMeta {
        let id = ObjectIdentifier(type)
        while true {
            if let meta = published(id) { return meta }
            let builder = MetaBuilder(cache: self)
            do {
                _ = try builder.meta(for: type)
            } catch {
                Self.release(builder.finished)
                throw error
            }
            if let meta = publish(builder.finished, returning: id) { return meta }
        }
    }

    /// Taken to publish a session's metas together (first uses only; lookups take no lock).
    private let publishing = CacheLock()

    /// Publishes the metas of a successful build session and returns the published meta of `id`; nil
    /// when another session published one of their types first, after dropping them.
    private func publish(_ metas: [ObjectIdentifier: ModelMeta], returning id: ObjectIdentifier) -> ModelMeta? {
        Self.markReachesContext(Array(metas.values))
        let published = publishing.withLock { () -> Bool in
            if metas.keys.contains(where: { self.published($0) != nil }) { return false }
            for (builtID, meta) in metas { _ = table.insertIfAbsent(UInt(bitPattern: builtID), meta) }
            return true
        }
        guard published else {
            Self.release(metas)
            return nil
        }
        return table.value(for: UInt(bitPattern: id))!
    }

    /// Frees the metas of a session that publishes nothing: no one else has seen them, and each refers to
    /// its codec, which refers back to it.
    private static func release(_ metas: [ObjectIdentifier: ModelMeta]) {
        for meta in metas.values { meta.codec.releaseMeta() }
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
    func codec<M: MappedJSONModel>(for type: M.Type) throws(MappingError) -> ModelCodec<M> {
        // The builder stores a `ModelCodec<M>` in the meta of `M` (MetaBuilder.meta(for:)).
        try meta(for: type).codec as! ModelCodec<M>
    }

    func mappedCodec<M: MappedJSONModel>(for type: M.Type) throws(MappingError) -> ValueCodec<M> {
        try codec(for: type)
    }

    /// The metadata of a model type known only at run time (polymorphic choices).
    func meta(forDynamic type: any MappedJSONModel.Type) throws(MappingError) -> ModelMeta {
        func open<M: MappedJSONModel>(_ t: M.Type) throws(MappingError) -> ModelMeta { try meta(for: t) }
        return try open(type)
    }

    /// The published metadata of a type, if any (complete, with its flags final); takes no lock.
    @inline(__always)
    func published(_ id: ObjectIdentifier) -> ModelMeta? {
        table.value(for: UInt(bitPattern: id))
    }
}
