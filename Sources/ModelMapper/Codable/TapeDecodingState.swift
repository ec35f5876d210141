// Unsafe code: the current setting borrowed unretained (`borrowed`, an `Unmanaged`), and the live keyed
// containers listed unretained (`liveKeyed`). Invariants:
// - The state's `unretained` setting is only borrowed while `current` (a strong reference to the same
//   object, asserted) is set. `current` is nil only in a spare state, and no decoder or container refers
//   to a spare state: `end` gives the state back as the spare only when the caller's reference is the only
//   one (`isKnownUniquelyReferenced`: decoders and containers hold the state).
// - Otherwise the decoding kept something (JSONDecoder allows it) and `end` detaches the state: it reads a
//   `DetachedTape` (a copy owned by its setting), every keyed container alive is pointed at the copy
//   (through `liveKeyed`), and it is never reused. So a kept decoder or container never reads the caller's
//   bytes or the tokenizer's buffers after the entry point returned.
// - `liveKeyed` lists only live containers: each adds itself in its init and removes itself in its deinit
//   (TapeKeyedDecodingContainer.swift).
// - A key type's entry is borrowed by `keyedContainer` while `keyTypes` holds it (entries go only in
//   `retire()`).
import Foundation
import Synchronization

/// Which behaviour the tape decoder follows.
enum TapeCodingMode {
    case foundation
    case mapping
}

/// The options of the Foundation mode (`ModelDecoder`'s JSONDecoder-style properties).
struct FoundationDecodingStrategies {
    var keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    var dates: JSONDecoder.DateDecodingStrategy = .deferredToDate
    var data: JSONDecoder.DataDecodingStrategy = .base64
    var nonConformingFloats: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    var userInfo: [CodingUserInfoKey: Any] = [:]
}

/// What every decoder and container of one decoding shares. Made by `begin` and handed back by `end`:
/// each thread keeps a spare (ThreadSpare.swift), so the next decoding reuses its key tables, type facts
/// and coding-path storage instead of allocating them again.
final class TapeDecodingState: ThreadSpareObject {
    /// What one decoding reads and how: set again when the spare state is reused. A class with constant
    /// fields, so a value's codec borrows its context instead of copying it out of the state.
    final class Setting {
        /// Where `JSONMappable` values inside the Codable value find their codecs.
        let models: any MappedModelCodecs
        let tape: TapeView
        /// The context for the codecs: the caller's options in `.mapping` mode (and for `JSONMappable`
        /// models in both modes).
        let c: DecodeContext
        /// Scalars: strict conversions (the JSON type must match) in the Foundation mode, `c` in the
        /// mapping mode.
        let scalarContext: DecodeContext
        /// Number tokens into integers: lenient conversions in the Foundation mode (only used on number
        /// tokens, where lenient adds integral floats such as `2.0`), `c` otherwise.
        let numberContext: DecodeContext
        let mode: TapeCodingMode
        let strategies: FoundationDecodingStrategies
        /// Whether `JSONMappable` types are decoded by their mapping (ModelMapper's own rules).
        let usesMapping: Bool
        let convertsKeys: Bool
        /// The key strategy is `.convertFromSnakeCase` (and `convertsKeys`): a key's name depends on its
        /// spelling alone, so keyed containers of tagged key types find members through the key type's
        /// `SnakeCaseSpellings`.
        let convertsFromSnakeCase: Bool
        let isFoundation: Bool
        /// What owns `tape` when it is not the caller's: the copy a decoding detached onto (`DetachedTape`).
        let keepsAlive: AnyObject?

        init(tape: TapeView, context: DecodeContext, mode: TapeCodingMode, models: any MappedModelCodecs,
             strategies: FoundationDecodingStrategies, usesMapping: Bool, keepsAlive: AnyObject? = nil) {
            self.keepsAlive = keepsAlive
            self.models = models
            self.tape = tape
            c = context
            if mode == .foundation {
                var strictOptions = context.options
                strictOptions.conversion = .strict
                strictOptions.invalidValueHandler = nil
                scalarContext = DecodeContext(tape: tape, options: strictOptions)
                var lenientOptions = context.options
                lenientOptions.conversion = .lenient
                lenientOptions.invalidValueHandler = nil
                numberContext = DecodeContext(tape: tape, options: lenientOptions)
            } else {
                scalarContext = context
                numberContext = context
            }
            self.mode = mode
            self.strategies = strategies
            self.usesMapping = usesMapping
            isFoundation = mode == .foundation
            if case .useDefaultKeys = strategies.keys { convertsKeys = false } else { convertsKeys = mode == .foundation }
            if case .convertFromSnakeCase = strategies.keys { convertsFromSnakeCase = convertsKeys } else { convertsFromSnakeCase = false }
        }

        /// The same setting reading `copy`, a copy of its tape.
        func reading(_ copy: DetachedTape) -> Setting {
            Setting(tape: copy.view, context: DecodeContext(tape: copy.view, options: c.options, report: c.report), mode: mode,
                    models: models, strategies: strategies, usesMapping: usesMapping, keepsAlive: copy)
        }
    }

    /// The current decoding's setting; nil between decodings, so a spare state keeps none of the last
    /// caller's options (userInfo, closures) alive.
    @exclusivity(unchecked) private var current: Setting?

    /// Valid between `begin` and `end`, and for good once the state is detached (`end`): a decoder or
    /// container kept past its decoding always finds its setting. Only a spare state has none, and no
    /// decoder or container refers to a spare state (`end` checks it).
    var setting: Setting {
        guard let current else { preconditionFailure("a Decoder or container of ModelDecoder used after its decoding ended") }
        return current
    }

    /// `current` again, unretained (see `borrowed`); set with `current`, read only while it is set.
    @exclusivity(unchecked) private var unretained: Unmanaged<Setting>

    /// The setting, unretained, for a per-value path to borrow: `borrowed._withUnsafeGuaranteedRef { … }`.
    /// Through `setting` (or `let setting = self.setting`) it is retained and released per value, about 1%
    /// of a Codable decode. (Written out at each use: a helper taking the conversion as a closure is not
    /// inlined, and the call and the copy of the context it takes cost more than the retain saved.)
    var borrowed: Unmanaged<Setting> {
        @inline(__always) get {
            if current == nil { preconditionFailure("a Decoder or container of ModelDecoder used after its decoding ended") }
            assert(current === unretained.takeUnretainedValue(), "the unretained setting is not the current one")
            return unretained
        }
    }

    // The setting's fields. A per-value path reads its context through `borrowed`: read through these
    // properties, a context is copied (retains and all) per value.
    var models: any MappedModelCodecs { _read { yield setting.models } }
    var tape: TapeView { _read { yield setting.tape } }
    var c: DecodeContext { _read { yield setting.c } }
    var scalarContext: DecodeContext { _read { yield setting.scalarContext } }
    var numberContext: DecodeContext { _read { yield setting.numberContext } }
    var mode: TapeCodingMode { setting.mode }
    var strategies: FoundationDecodingStrategies { _read { yield setting.strategies } }
    var usesMapping: Bool { setting.usesMapping }
    var convertsKeys: Bool { setting.convertsKeys }
    var convertsFromSnakeCase: Bool { setting.convertsFromSnakeCase }
    var isFoundation: Bool { setting.isFoundation }

    /// The caller's options without an invalid-value handler: a model inside a Codable value throws.
    var unreported: DecodeContext {
        if let unreportedContext { return unreportedContext }
        var options = c.options
        options.invalidValueHandler = nil
        let made = DecodeContext(tape: tape, options: options)
        unreportedContext = made
        return made
    }
    @exclusivity(unchecked) private var unreportedContext: DecodeContext?

    // Codecs without a static entry point (they hold no options), made once per state.
    lazy var floatCodec = FloatCodec()
    lazy var decimalCodec = DecimalCodec()
    lazy var dateCodec = DateCodec()
    lazy var urlCodec = URLCodec()
    lazy var dataCodec = DataCodec()
    lazy var uuidCodec = UUIDCodec()
    lazy var timeZoneCodec = TimeZoneCodec()

    /// Set by `detach`, for good.
    @exclusivity(unchecked) private(set) var isDetached = false

    private init(_ setting: Setting) {
        current = setting
        unretained = Unmanaged.passUnretained(setting)
        Self.madeCounter.add(1, ordering: .relaxed)
    }

    /// How many decoding states this process has made (for tests: none per decoding after first use).
    static var made: Int { madeCounter.load(ordering: .relaxed) }
    private static let madeCounter = Atomic<Int>(0)

    deinit {
        // A detached state is freed when the last decoder or container kept from it goes.
        retire()
    }

    /// One spare state per thread and nesting depth: a decoding nested in another on the same thread (a
    /// `Codable` value holding a mapped model that has a `Decodable` field; an `init(from:)` that decodes
    /// again) reuses the next level's state, instead of making one, sweeping the kept states under their
    /// lock, and leaving the outer state no empty slot to go back to (issue #36).
    private static let spare = NestedThreadSpare<TapeDecodingState>(levels: spareLevels)

    /// The nesting depths that keep a spare state (deeper nesting makes and retires a state per decoding).
    static let spareLevels = 4

    /// The `spare` level this state was taken from (-1: made, not taken), where `end` gives it back.
    @exclusivity(unchecked) private var spareLevel = -1

    /// A state for one decoding: the thread's spare when it has one. Pair with `end(_:)`.
    static func begin(tape: TapeView, context: DecodeContext, mode: TapeCodingMode, models: any MappedModelCodecs,
                      strategies: FoundationDecodingStrategies = FoundationDecodingStrategies(),
                      usesMapping: Bool = true) -> TapeDecodingState {
        let setting = Setting(tape: tape, context: context, mode: mode, models: models, strategies: strategies,
                              usesMapping: usesMapping)
        guard let taken = spare.take() else { return TapeDecodingState(setting) }
        let state = taken.object
        assert(state.current == nil && !state.isDetached, "a spare decoding state in use")
        state.spareLevel = taken.level
        state.current = setting
        state.unretained = Unmanaged.passUnretained(setting)
        return state
    }

    /// Ends a decoding; `state` is the caller's reference from `begin`, and must be its only one left unless
    /// the decoded value kept a decoder or container. Publishes the key names it added. Then:
    /// - nothing kept: the state becomes the thread's spare (its key tables, path storage and codecs
    ///   serve the next decoding);
    /// - a decoder or container kept (JSONDecoder allows reading it later): the state is detached — it
    ///   reads a copy of the tape from now on, is never reused for another decoding, and lives while what
    ///   was kept refers to it (see `detach`).
    static func end(_ state: inout TapeDecodingState) {
        for entry in state.keyTypes { entry.publish() }
        guard isKnownUniquelyReferenced(&state) else {
            state.detach()
            return
        }
        state.keyStack.removeAll(keepingCapacity: true)
        state.fixedPaths.removeAll(keepingCapacity: true)
        state.unreportedContext = nil
        state.current = nil
        // A thread that meets many key types starts over rather than search a long list per object.
        if state.keyTypes.count > TapeDecodingState.keptKeyTypes { state.retire() }
        TapeDecodingState.spare.give(state, level: state.spareLevel)
    }

    /// Moves the state onto a copy of its tape (the tokenizer's buffers and the caller's bytes are reused
    /// or freed once the decoding returns). The kept decoders and containers hold the state: it lives while
    /// they do.
    private func detach() {
        let copy = DetachedTape(copying: tape)
        let moved = setting.reading(copy)
        current = moved
        unretained = Unmanaged.passUnretained(moved)
        unreportedContext = nil
        isDetached = true
        for container in liveKeyed { container.takeUnretainedValue().tape = copy.view }
    }

    /// The most key types a spare state keeps entries for.
    static let keptKeyTypes = 32

    /// Drops the key types' entries: when a spare state has met too many key types, at thread exit (a
    /// spare state), when a detached state goes.
    func retire() {
        keyTypes.removeAll()
    }

    /// The keyed containers alive (they hold the state; each adds itself and removes itself in its
    /// deinit), so that `detach` points them at the copy of the tape.
    @exclusivity(unchecked) var liveKeyed: [Unmanaged<TapeKeyedContainerBase>] = []

    func forgetKeyed(_ container: TapeKeyedContainerBase) {
        if let i = liveKeyed.lastIndex(where: { $0.toOpaque() == Unmanaged.passUnretained(container).toOpaque() }) {
            liveKeyed.remove(at: i)
        }
    }

    /// The kind of the token at `index`; index -1 is a null that is not on the tape (a missing `super`).
    @inline(__always)
    func kind(_ index: Int) -> TokenKind {
        index < 0 ? .null : tape[index].kind
    }

    // MARK: Coding paths

    /// Keys from the root to the value being decoded (`keyStack[0..<depth]` is the path of a decoder at
    /// `depth` while it decodes): pushed and popped around nested values, so no array is built per
    /// value; paths are materialized only for errors and `codingPath`. Decoders handed out for later use
    /// (nested containers, super decoders) carry a fixed path instead.
    @exclusivity(unchecked) var keyStack: [any CodingKey] = []
    /// The paths of decoders with a fixed path (`TapeDecoder.packed` refers to them by index).
    @exclusivity(unchecked) var fixedPaths: [[any CodingKey]] = []

    func codingPath(_ depth: Int) -> [any CodingKey] {
        depth >= keyStack.count ? keyStack : Array(keyStack[0..<depth])
    }

    func resolve(_ ref: PathRef) -> [any CodingKey] {
        switch ref {
        case .stack(let depth): return codingPath(depth)
        case .fixed(let path): return path
        }
    }

    /// A member or element of a container: scalars directly, other values with the key pushed.
    @inline(__always)
    func decodeChild<T: Decodable, K: CodingKey>(_ type: T.Type, _ index: Int, parent: TapeDecoder, key: K) throws -> T {
        if T.self == String.self { return same(try decodeString(index, parent.childPath(key)), as: T.self) }
        if T.self == Int.self { return same(try decodeInteger(Int.self, index, parent.childPath(key)), as: T.self) }
        if T.self == Double.self { return same(try decodeDouble(index, parent.childPath(key)), as: T.self) }
        if T.self == Bool.self { return same(try decodeBool(index, parent.childPath(key)), as: T.self) }
        guard let depth = parent.stackDepth else {
            return try decodeValue(type, index, .fixed(parent.childPath(key)))
        }
        if keyStack.count > depth { keyStack.removeSubrange(depth...) }
        keyStack.append(key)
        defer {
            if keyStack.count == depth + 1 { keyStack.removeLast() } else if keyStack.count > depth { keyStack.removeSubrange(depth...) }
        }
        return try decodeValue(type, index, .stack(depth + 1))
    }

    // MARK: Keyed containers

    /// Per key type: the keys' names and where containers of the type found them.
    final class KeyTypeEntry {
        final let type: ObjectIdentifier
        /// The keys' names: the shared frozen table of earlier decodings while it has every key asked
        /// for, else this decoding's copy (published at the end).
        @exclusivity(unchecked) final private(set) var names: StreamKeyNames
        /// Per key tag (below 64): the member ordinal where a container of this key type last found the
        /// key (255: none). Shared by the type's containers: objects of one type usually share their
        /// member order, which need not be the order their keys are read in.
        @exclusivity(unchecked) final var ordinals = FixedArray64<UInt8>(repeating: 255)

        init<Key: CodingKey>(_ type: Key.Type) {
            self.type = ObjectIdentifier(type)
            if MemoryLayout<Key>.size <= 1, let shared = StreamKeyNameCache.shared.names(.init(type: self.type, variant: 4)) {
                names = shared
            } else {
                names = StreamKeyNames(type, raw: true)
            }
        }

        /// `.convertFromSnakeCase`'s spellings of the type's keys, made on first use (kept with the entry,
        /// so across the decodings that reuse this state).
        @exclusivity(unchecked) final private(set) var snakeCaseSpellings: SnakeCaseSpellings?
        /// Counts the names this entry's table learned (`learn`): a keyed container's member index from an
        /// earlier count may miss a key learned since.
        @exclusivity(unchecked) final private(set) var nameGeneration = 0

        /// The spellings table, made on first use.
        @inline(__always)
        final func spellings() -> SnakeCaseSpellings {
            if let snakeCaseSpellings { return snakeCaseSpellings }
            let made = SnakeCaseSpellings()
            snakeCaseSpellings = made
            return made
        }

        /// Adds the key of `tag` named `name` to this decoding's copy of the table (made once from the
        /// shared one) and returns that table.
        final func learn(_ tag: Int, name: String) -> StreamKeyNames {
            if names.frozen { names = StreamKeyNames(copyOf: names) }
            if names.slot(tag) == nil {
                names.fill(tag, name: name, escapeSlashes: false)
                nameGeneration &+= 1
                snakeCaseSpellings?.resolve(names)
            }
            return names
        }

        /// Publishes the names this decoding added.
        final func publish() {
            guard !names.frozen && names.added else { return }
            StreamKeyNameCache.shared.publish(names, for: .init(type: type, variant: 4))
        }
    }

    @exclusivity(unchecked) private var keyTypes: [KeyTypeEntry] = []

    /// The entry of key type `Key`.
    @inline(__always)
    func keyTypeEntry<Key: CodingKey>(_ type: Key.Type) -> KeyTypeEntry {
        let id = ObjectIdentifier(type)
        for candidate in keyTypes where candidate.type == id { return candidate }
        let created = KeyTypeEntry(type)
        // A detached state's list stays as it was; its containers hold their entry.
        if !isDetached { keyTypes.append(created) }
        return created
    }

    /// A keyed container over the object of `decoder`: a `TapeKeyedContainer` in the standard library's
    /// `KeyedDecodingContainer` (one allocation for each, per object). Not pooled: a struct container lent a
    /// pooled reader (when uniquely referenced) saved 24% of twitter's Codable allocations but cost 1.7% more
    /// instructions (2026-11-28, scripts/counts' method), since the box copies a generic struct through its
    /// unspecialized value witnesses; CodableContainersAliveTests guards any such reuse.
    @inline(__always)
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, _ decoder: TapeDecoder) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try TapeKeyedContainer<Key>(decoder: decoder, keys: keyTypeEntry(type), owner: self))
    }

    /// By type, direct-mapped (see `typeInfo`, DecodingTypeFacts.swift).
    @exclusivity(unchecked) var typeMemo = [(ObjectIdentifier?, TypeInfo)](
        repeating: (nil, TypeInfo(kind: .other, array: nil)), count: 32)
}
