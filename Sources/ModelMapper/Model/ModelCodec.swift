// Unsafe code: properties are written at `base + offset`, where `base` is the address of a struct value
// (from `UnsafeMutablePointer<M>`) or of a class instance (its reference bits). Invariants:
// - offsets and types come from the stdlib's reflection of exactly the type whose memory `base` points
//   to (for classes: the meta of the instance's class or of a superclass, whose fields are a prefix of
//   the instance's), which `baseAddress` and `encode(at:_:)` assert;
// - the memory is initialized (the model was made by `init()`), so a write releases the old value;
// - a class instance is kept alive by the variable `base` was read from for the whole call.

/// Decodes and encodes a model type; one per model type, shared by every property of that type.
final class ModelCodec<M: MappedJSONModel>: ValueCodec<M>, @unchecked Sendable {
    /// Set by the builder right after the meta is built (before any decoding); completes `filter`.
    var meta: ModelMeta! {
        didSet { if let meta { Self.completeFilter(filter, meta: meta) } }
    }
    private let isClass = M.self is AnyClass
    /// A generated model (`@JSONModel`) is built from slots rather than made by `init()` and written in
    /// place; nil for a ``JSONMappable`` model.
    private let building = ModelBuilding<M>.of(M.self)
    /// Makes a ``JSONMappable`` model with `init()`; nil for a generated model.
    private let making = ModelMaking<M>.of(M.self)
    /// Made empty with the codec, so collections of this model (and recursive models) can point at it
    /// before the meta exists.
    private let filter = TapeFilterNode()

    /// The cache this codec's meta is in: its polymorphic choices and subclasses come from the same one
    /// (the same key strategy and matching). `unowned`: the cache holds this codec's meta, and a custom
    /// key strategy's cache is freed with the strategy; every caller reached this codec through its cache
    /// and holds the cache (or the options holding the strategy) for the call.
    unowned let cache: MetaCache

    init(cache: MetaCache) {
        self.cache = cache
        super.init()
    }

    override var tapeFilter: TapeFilterNode? { filter }

    /// Drops the reference to the meta (which holds this codec): called by a cache that is being freed
    /// (a custom key strategy's), whose codecs no one uses any more, so that its metas and codecs go too.
    override func releaseMeta() {
        meta = nil
        filter.releaseChildren()
    }

    override var reachesContext: Bool { meta?.reachesContext ?? false }

    /// The members the decoding walk reads: plain keys (with the property index as the key token's hint,
    /// and the property codec's node for the value) and the first component of every key path and
    /// alternative key (recorded whole, found after the member loop). Hooks and polymorphic classes see
    /// the whole object, so their objects are recorded whole; so do models matching keys ignoring case
    /// (any key may be one of theirs).
    private static func completeFilter(_ filter: TapeFilterNode, meta: ModelMeta) {
        // A flattened Optional, class or hooked model reads the whole object too (its empty key path).
        if meta.decodingHooks != nil || meta.polymorphic != nil || meta.foldedKeys != nil
            || meta.properties.contains(where: { $0.keyPaths.contains(where: \.isEmpty) }) {
            filter.completeAsWhole()
            return
        }
        var order: [String] = []
        var members: [String: (hint: Int, readers: Int, whole: Bool)] = [:]
        for (p, property) in meta.properties.enumerated() where property.isDecoded {
            if property.isPlainKey {
                let key = property.keyPaths[0][0]
                if let m = members[key] {
                    // The key table finds the first plain reader; the walk follows the chain from it.
                    members[key] = (m.hint >= 0 ? m.hint : p, m.readers + 1, m.whole)
                } else {
                    order.append(key)
                    members[key] = (p, 1, false)
                }
            } else {
                for path in property.keyPaths {
                    let key = path[0]
                    if let m = members[key] { members[key] = (m.hint, m.readers, true) } else {
                        order.append(key)
                        members[key] = (-1, 0, true)
                    }
                }
            }
        }
        filter.complete(members: order.map { key in
            let m = members[key]!
            let child = m.whole || m.readers != 1 ? nil : meta.properties[m.hint].codec.tapeFilter
            return (key: Array(key.utf8), hint: m.hint, child: child)
        })
    }

    /// A nested model is decoded into the value the property holds, so keys absent from the object keep
    /// their values: a struct merges into its own copy; a class merges into the instance it holds only
    /// below an `update` root (``DecodeContext/updatesHeldInstances``), and otherwise is a new instance
    /// (see `decodeClass`).
    override var mergesInPlace: Bool { true }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> M {
        // A value made here (an absent Optional, a new dictionary key or an array element below an update)
        // holds no instance the update's root held: below it every class model is new, and the defaults
        // it starts with (a shared `static let`) are never merged into.
        if c.updatesHeldInstances { return try decode(c.makingNewInstances, index) }
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try decode(inner, i) } }
        if c.tape[index].kind == .foreign { return try instance(c, index) }
        if let building { return try building.decode(self, c, index) }
        guard let making else { preconditionFailure("\(M.self) is neither generated nor JSONMappable") }
        var value = making.make()
        if isClass {
            try decodeClass(c, index, into: &value, reusingHeld: true)  // `value` is this decode's own instance
        } else {
            try decodeModel(c, index, into: &value, meta: meta)
        }
        return value
    }

    override func decode(_ c: DecodeContext, _ index: Int, into pointer: UnsafeMutablePointer<M>) throws(MappingError) {
        if isEmbeddedJSON(c, index) {
            return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try decode(inner, i, into: pointer) }
        }
        if c.tape[index].kind == .foreign { return pointer.pointee = try instance(c, index) }
        if let building { return try building.decode(self, c, index, into: pointer) }
        if isClass {
            try decodeClass(c, index, into: &pointer.pointee, reusingHeld: c.updatesHeldInstances)
        } else {
            try decodeModel(c, index, into: pointer, meta: meta)
        }
    }

    /// Root-level update of an existing model. A struct is all or nothing: it is decoded into a copy that
    /// replaces it only when the whole decode succeeds (class instances it holds, nested class models, are
    /// updated in place and keep what was decoded before an error). A class keeps its instance, updated
    /// in place: an error leaves the properties decoded before it changed. Its required keys are checked
    /// only for what the update carries (a `null` for one is an error; an absent one keeps its value);
    /// nested models decoded by it check theirs as in any decode (JSONModel's `mergeFromDictionary:`).
    func update(_ c: DecodeContext, _ index: Int, _ pointer: UnsafeMutablePointer<M>) throws(MappingError) {
        if isEmbeddedJSON(c, index) {
            return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try update(inner, i, pointer) }
        }
        if c.tape[index].kind == .foreign { return pointer.pointee = try instance(c, index) }
        var c = c
        c.updatesHeldInstances = true
        if let building { return try building.update(self, c, index, pointer) }
        if isClass {
            try decodeClass(c, index, into: &pointer.pointee, reusingHeld: true, merging: true)
        } else {
            var copy = pointer.pointee
            try decodeModel(c, index, into: &copy, meta: meta, merging: true)
            pointer.pointee = copy
        }
    }

    /// A model instance in dictionary input (`["owner": someUser]`) is taken as it is, in both modes, as
    /// YYModel sets it: a class instance (of `M` or a subclass) by reference, a struct as a copy. The
    /// value replaces what the property held (nothing is merged). Other foreign values are mismatches.
    private func instance(_ c: DecodeContext, _ index: Int) throws(MappingError) -> M {
        try ForeignValues.exact(M.self, expected: "an object", c, index)
    }

    /// Classes. With `reusingHeld` (an update, or an instance this decode made) the object is decoded into
    /// the instance `variable` holds, with the metadata of its dynamic class. Otherwise (any decode below a
    /// property, element or root that did not make the instance) a new instance of that dynamic class is
    /// made with `init()`, decoded, and stored only once its decode succeeded: the held instance may be a
    /// default shared by every value (`static let standard`), and is never written. ``JSONPolymorphic``
    /// choosing another class makes a new instance of it the same way, in both modes. A failure (forgiven
    /// by the invalid-value handler, say) leaves `variable` untouched unless it was decoded in place.
    private func decodeClass(_ c: DecodeContext, _ index: Int, into variable: inout M, reusingHeld: Bool,
                             merging: Bool = false) throws(MappingError) {
        if let polymorphic = meta.polymorphic, c.tape[index].kind == .objectStart {
            var i = index
            let object = try JSONObject(tape: c.tape, index: &i)
            if let type = polymorphic.modelType(for: object), ObjectIdentifier(type) != ObjectIdentifier(Swift.type(of: variable as AnyObject)) {
                guard let chosenClass = type as? M.Type else {
                    var error = MappingError(.unsupportedType, "\(polymorphic).modelType(for:) returned \(type), which is not a \(M.self)")
                    error.tokenIndex = index
                    throw error
                }
                variable = try decodeNewInstance(of: chosenClass, meta: try cache.meta(forDynamic: type), c, index)
                return
            }
        }
        let instanceMeta = try dynamicMeta(variable)
        guard reusingHeld else {
            variable = try decodeNewInstance(of: Swift.type(of: variable), meta: instanceMeta, c, index)
            return
        }
        try withUnsafeMutablePointer(to: &variable) { pointer throws(MappingError) in
            try decodeModel(c, index, into: pointer, meta: instanceMeta, merging: merging)
        }
    }

    /// A new instance of `type` (`M` or a subclass, whose metadata is `meta`) decoded from the object at `index`.
    private func decodeNewInstance(of type: M.Type, meta: ModelMeta, _ c: DecodeContext, _ index: Int) throws(MappingError) -> M {
        guard let mappable = type as? any JSONMappable.Type else { preconditionFailure("\(type) is not JSONMappable") }
        var fresh = mappable.init() as! M
        try withUnsafeMutablePointer(to: &fresh) { pointer throws(MappingError) in
            try decodeModel(c.makingNewInstances, index, into: pointer, meta: meta)
        }
        return fresh
    }

    /// Decodes the object at `index` into the model variable at `pointer`, running hooks when the type
    /// has them. `merging`: the root of an update (see `decodeProperties`).
    private func decodeModel(_ c: DecodeContext, _ index: Int, into pointer: UnsafeMutablePointer<M>, meta: ModelMeta,
                             merging: Bool = false) throws(MappingError) {
        let object = try decodeMembers(c, index, base: baseAddress(pointer, meta), meta: meta, merging: merging)
        if let object, let hooks = meta.decodingHooks {
            try didDecode(hooks, UnsafeMutableRawPointer(pointer), object, c, index)
        }
    }

    /// Decodes the members of the object at `index` into the model memory at `base` (after `willDecode`,
    /// when the type has hooks); returns the object `didDecode` is to get (nil without hooks).
    func decodeMembers(_ c: DecodeContext, _ index: Int, base: UnsafeMutableRawPointer, meta: ModelMeta,
                       merging: Bool) throws(MappingError) -> JSONObject? {
        guard StackGuard.hasRoom() else { throw StackGuard.error(at: index) }
        guard let hooks = meta.decodingHooks else {
            try decodeProperties(c, index, base: base, meta: meta, merging: merging)
            return nil
        }
        guard c.tape[index].kind == .objectStart else { throw c.mismatch(expected: "an object", at: index) }
        var i = index
        let original = try JSONObject(tape: c.tape, index: &i)
        let object: JSONObject
        do {
            object = try hooks.willDecode(original, c.mappingContext())
        } catch {
            throw Self.validationError(error, at: index)
        }
        if object == original {
            try decodeProperties(c, index, base: base, meta: meta, merging: merging)
        } else {
            // The hook rewrote the object: decode from a tape of the new object (nested no deeper than the
            // depth limit allows a document); positions refer to the original object.
            // Errors reported (not thrown) while decoding the new tape hold its token indices: point them
            // at the original object too.
            let reportedBefore = c.report?.errors.count ?? 0
            defer {
                if let report = c.report {
                    for k in reportedBefore..<report.errors.count { report.errors[k].tokenIndex = index }
                }
            }
            do {
                let tape = try ValueTape(.object(object), depthLimit: c.options.depthLimit)
                try tape.withView { view throws(MappingError) in
                    let inner = c.over(view)
                    try decodeProperties(inner, 0, base: base, meta: meta, merging: merging)
                }
            } catch {
                var error = error
                error.tokenIndex = index
                throw error
            }
        }
        return object
    }

    /// Runs `didDecode` on the model variable at `variable`; a throw becomes `.validation` at `index`.
    func didDecode(_ hooks: ModelMeta.DecodingHooks, _ variable: UnsafeMutableRawPointer, _ object: JSONObject,
                   _ c: DecodeContext, _ index: Int) throws(MappingError) {
        do {
            try hooks.didDecode(variable, object, c.mappingContext())
        } catch {
            throw Self.validationError(error, at: index)
        }
    }

    private static func validationError(_ error: any Error, at index: Int) -> MappingError {
        var result = (error as? MappingError) ?? MappingError(.validation, "\(error)")
        if !(error is MappingError) { result.kind = .validation }
        if result.tokenIndex == nil { result.tokenIndex = index }
        return result
    }

    @inline(__always)
    private func baseAddress(_ pointer: UnsafeMutablePointer<M>, _ meta: ModelMeta) -> UnsafeMutableRawPointer {
        assert(isLaidOut(UnsafePointer(pointer), as: meta), "model memory decoded with the meta of another type")
        if isClass {
            // The variable holds a single strong reference: its bits are the instance address.
            return UnsafeMutableRawPointer(pointer).load(as: UnsafeMutableRawPointer.self)
        }
        return UnsafeMutableRawPointer(pointer)
    }

    /// Whether the model at `pointer` has `meta`'s layout: a struct of exactly its type, or an instance of
    /// its class or of a subclass (for debug checks).
    private func isLaidOut(_ pointer: UnsafePointer<M>, as meta: ModelMeta) -> Bool {
        guard isClass else { return meta.type == M.self }
        var type: AnyClass? = Swift.type(of: pointer.pointee as AnyObject)
        while let current = type {
            if ObjectIdentifier(current) == ObjectIdentifier(meta.type) { return true }
            type = _getSuperclass(current)
        }
        return false
    }

    // MARK: Encoding

    override func encode(_ value: M, _ e: inout EncodeContext) throws(MappingError) {
        try withUnsafePointer(to: value) { pointer throws(MappingError) in try encode(at: pointer, &e) }
    }

    override func encode(at pointer: UnsafePointer<M>, _ e: inout EncodeContext) throws(MappingError) {
        guard StackGuard.hasRoom() else { throw StackGuard.error(at: nil) }
        if let building { return try building.encode(self, at: pointer, &e) }
        let meta = isClass ? try dynamicMeta(pointer.pointee) : self.meta!
        assert(isLaidOut(pointer, as: meta), "model memory encoded with the meta of another type")
        if let limit = meta.encodingLimit { throw limit }
        let variable = UnsafeRawPointer(pointer)
        // Struct: the fields are at the value's address. Class: the variable holds the instance address.
        let base = isClass ? variable.load(as: UnsafeRawPointer.self) : variable
        try encodeFields(base, variable: variable, meta: meta, &e)
    }

    /// Encodes the fields at `base` (the hook, if any, gets the model variable at `variable`).
    func encodeFields(_ base: UnsafeRawPointer, variable: UnsafeRawPointer, meta: ModelMeta, _ e: inout EncodeContext) throws(MappingError) {
        if let hook = meta.encodingHook {
            try encodeWithHook(base, variable: variable, meta: meta, hook: hook, &e)
        } else {
            try encodeProperties(base, meta: meta, &e)
        }
    }

    /// Classes encode the properties of their dynamic type.
    private func dynamicMeta(_ value: M) throws(MappingError) -> ModelMeta {
        let dynamicType: any AnyObject.Type = Swift.type(of: value as AnyObject)
        if ObjectIdentifier(dynamicType) == ObjectIdentifier(M.self) { return meta }
        guard let mappable = dynamicType as? any MappedJSONModel.Type else { return meta }
        return try cache.meta(forDynamic: mappable)
    }
}

/// How ``ModelCodec`` makes a ``JSONMappable`` model: `M()`, called through a class generic over the
/// `JSONMappable` type, opened once when the codec is made. Calling `init()` on the existential
/// `any JSONMappable.Type` instead boxed every new struct value larger than an existential's inline buffer
/// (one allocation per decoded model: twitter's decode 2,641 -> 2,961 allocations, +4.4% instructions).
class ModelMaking<M>: @unchecked Sendable {
    func make() -> M { fatalError("abstract") }

    /// The making of `M` when it is a ``JSONMappable`` model.
    static func of(_ type: M.Type) -> ModelMaking<M>? {
        guard let mappable = type as? any JSONMappable.Type else { return nil }
        func open<J: JSONMappable>(_: J.Type) -> ModelMaking<M> { MappableModelMaking<J>() as! ModelMaking<M> }
        return open(mappable)
    }
}

/// `J()` for a ``JSONMappable`` model type `J`.
final class MappableModelMaking<J: JSONMappable>: ModelMaking<J>, @unchecked Sendable {
    override func make() -> J { J() }
}
