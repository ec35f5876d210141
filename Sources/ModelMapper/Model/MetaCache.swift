import Foundation

/// The process-wide table of model metadata, keyed by type.
///
/// Lookups take a short lock; building takes a separate build lock held for a whole build session (a
/// model and every model it reaches), so concurrent first use of many types from many threads builds each
/// type once and never observes a half-built meta. Failures (unsupported types, unknown names) are cached
/// too, so every use reports the same error.
///
/// `@unchecked Sendable`: `table` is read and written only under `lookupLock`, and builds run only under
/// `buildLock`; the locks themselves are thread-safe.
final class MetaCache: MappedModelCodecs, @unchecked Sendable {
    static let shared = MetaCache()

    private let lookupLock = NSLock()
    private var table: [ObjectIdentifier: Result<ModelMeta, MappingError>] = [:]
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
        lookupLock.lock()
        for (builtID, meta) in builder.finished where table[builtID] == nil { table[builtID] = .success(meta) }
        table[id] = result
        lookupLock.unlock()
        return try result.get()
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
