import Foundation

/// The process-wide table of model metadata, keyed by type.
///
/// Lookups take a short lock; building takes a separate build lock held for a whole build session (a
/// model and every model it reaches), so concurrent first use of many types from many threads builds each
/// type once and never observes a half-built meta. Failures (unsupported types, unknown names) are cached
/// too, so every use reports the same error.
///
/// Options that change how keys are matched (``DecodingOptions/keyStrategy``,
/// ``DecodingOptions/caseInsensitiveKeys``, ``EncodingOptions/keyStrategy``) or how collections decode
/// (``DecodingOptions/lossyCollections``) select a *variant* cache
/// (``forDecoding(_:)``): a whole set of metas built with that default strategy and matching, found once
/// per decode or encode call, so the per-value paths never look at those options. Options without them use
/// ``shared``.
///
/// `@unchecked Sendable`: `table` is read and written only under `lookupLock`, and builds run only under
/// `buildLock`; the locks themselves are thread-safe.
final class MetaCache: MappedModelCodecs, @unchecked Sendable {
    static let shared = MetaCache(defaultKeyStrategy: nil, matchesKeysIgnoringCase: false)

    /// The key strategy of models whose mapping sets none (nil: `.identity`).
    let defaultKeyStrategy: KeyStrategy?
    /// Whether plain keys also match ignoring ASCII case (an exact match wins).
    let matchesKeysIgnoringCase: Bool
    /// Whether every collection codec is lossy (``DecodingOptions/lossyCollections``).
    let lossyCollections: Bool

    private init(defaultKeyStrategy: KeyStrategy?, matchesKeysIgnoringCase: Bool, lossyCollections: Bool = false) {
        self.defaultKeyStrategy = defaultKeyStrategy
        self.matchesKeysIgnoringCase = matchesKeysIgnoringCase
        self.lossyCollections = lossyCollections
    }

    /// The cache whose metas follow `options`' key strategy and case matching.
    @inline(__always)
    static func forDecoding(_ options: DecodingOptions) throws(MappingError) -> MetaCache {
        if options.keyStrategy == nil && !options.caseInsensitiveKeys && !options.lossyCollections { return shared }
        return try Variants.shared.cache(options.keyStrategy, ignoringCase: options.caseInsensitiveKeys,
                                         lossyCollections: options.lossyCollections)
    }

    /// The cache whose metas follow `options`' key strategy.
    @inline(__always)
    static func forEncoding(_ options: EncodingOptions) throws(MappingError) -> MetaCache {
        guard let strategy = options.keyStrategy else { return shared }
        return try Variants.shared.cache(strategy, ignoringCase: false, lossyCollections: false)
    }

    /// Variant caches, made on first use and kept for the process (metas are never freed).
    ///
    /// A `.custom` strategy is told apart by the closure value itself (its function and context
    /// pointers; the cache keeps the closure, so the context's address is not reused): options made once
    /// and reused share one variant. Since each variant keeps its metas for good, at most
    /// `maxCustomVariants` distinct custom closures are accepted; more is reported as `.unsupportedType`
    /// (a closure made anew for every call would otherwise grow memory without bound).
    private final class Variants: @unchecked Sendable {
        static let shared = Variants()
        static let maxCustomVariants = 32

        enum StrategyID: Hashable {
            case none, identity, snakeCase, kebabCase, pascalCase, screamingSnakeCase
            case custom(UInt, UInt)
        }
        struct Key: Hashable {
            let strategy: StrategyID
            let ignoringCase: Bool
            let lossyCollections: Bool
        }

        private let lock = NSLock()
        private var caches: [Key: MetaCache] = [:]
        private var customCount = 0

        func cache(_ strategy: KeyStrategy?, ignoringCase: Bool, lossyCollections: Bool) throws(MappingError) -> MetaCache {
            let id: StrategyID
            switch strategy {
            case nil: id = .none
            case .identity: id = .identity
            case .snakeCase: id = .snakeCase
            case .kebabCase: id = .kebabCase
            case .pascalCase: id = .pascalCase
            case .screamingSnakeCase: id = .screamingSnakeCase
            case .custom(let transform):
                let bits = unsafeBitCast(transform, to: (UInt, UInt).self)
                id = .custom(bits.0, bits.1)
            }
            let key = Key(strategy: id, ignoringCase: ignoringCase, lossyCollections: lossyCollections)
            lock.lock()
            defer { lock.unlock() }
            if let cache = caches[key] { return cache }
            if case .custom = id {
                guard customCount < Self.maxCustomVariants else {
                    throw MappingError(.unsupportedType, "more than \(Self.maxCustomVariants) different KeyStrategy.custom closures in options; make the options (or the closure) once and reuse them")
                }
                customCount += 1
            }
            let cache = MetaCache(defaultKeyStrategy: strategy, matchesKeysIgnoringCase: ignoringCase,
                                  lossyCollections: lossyCollections)
            caches[key] = cache
            return cache
        }
    }

    private let lookupLock = NSLock()
    /// Read and written under `lookupLock` only, so the runtime's exclusivity checks are redundant.
    @exclusivity(unchecked) private var table: [ObjectIdentifier: Result<ModelMeta, MappingError>] = [:]
    private let buildLock = NSLock()

    /// The metadata of model type `M`, built on first use.
    func meta<M: JSONMappable>(for type: M.Type) throws(MappingError) -> ModelMeta {
        let id = ObjectIdentifier(type)
        lookupLock.lock()
        let cached = table[id]
        lookupLock.unlock()
        if let cached { return try cached.get() }

        buildLock.lock()
        defer { buildLock.unlock() }
        lookupLock.lock()
        let built = table[id]
        lookupLock.unlock()
        if let built { return try built.get() }

        let builder = MetaBuilder(cache: self)
        let result: Result<ModelMeta, MappingError>
        do {
            result = .success(try builder.meta(for: type))
        } catch {
            result = .failure(error)
        }
        Self.markReachesContext(Array(builder.finished.values))
        lookupLock.lock()
        for (builtID, meta) in builder.finished where table[builtID] == nil { table[builtID] = .success(meta) }
        table[id] = result
        lookupLock.unlock()
        return try result.get()
    }

    /// Sets ``ModelMeta/reachesContext`` on the metas of one build session (under the build lock, before
    /// they are published): a model calls a hook or transformer itself, or has a property whose codec
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

    /// Only for the builder, which holds the build lock.
    func lookupWhileBuilding(_ id: ObjectIdentifier) -> Result<ModelMeta, MappingError>? {
        lookupLock.lock()
        defer { lookupLock.unlock() }
        return table[id]
    }
}
