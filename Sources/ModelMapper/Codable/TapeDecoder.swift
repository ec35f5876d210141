// Unsafe code: unretained (`Unmanaged`) references from keyed containers to their state, and raw-buffer
// comparisons of key bytes. Invariants:
// - Key slices lie inside `names.quoted` (asserted by the rebasing subscripts in debug builds); tape bytes
//   are read only through `TapeView.bytes`.
// - The state's `unretained` setting is only borrowed while `current` (a strong reference to the same
//   object, asserted) is set. `current` is nil only in a spare state, and no decoder or container refers
//   to a spare state: `end` gives the state back as the spare only when the caller's reference is the only
//   one (`isKnownUniquelyReferenced`: decoders and containers hold the state).
// - Otherwise the decoding kept something (JSONDecoder allows it) and `end` detaches the state: it reads a
//   `DetachedTape` (a copy owned by its setting), every keyed container alive is pointed at the copy
//   (through `liveKeyed`, which each adds itself to and removes itself from), and it is never reused. So a
//   kept decoder or container never reads the caller's bytes or the tokenizer's buffers after the entry
//   point returned.
// - A keyed container holds its state (`owner`) and borrows it unretained (`withState`, the same object:
//   asserted) only while the container is alive.
// - A key type's entry is borrowed by `keyedContainer` while `keyTypes` holds it (entries go only in
//   `retire()`).
import Foundation
import Synchronization

// The Codable decoder: a `Decoder` over the tape.
//
// Keyed containers find keys by comparing the raw UTF-8 key bytes on the tape (a cursor makes the usual
// in-order lookups O(1)); numbers are converted from their literal text by the codecs (ScalarCodecs,
// FoundationCodecs), never by rules restated here. Two modes:
//
// - `.foundation` (`ModelDecoder().decode(T.self, from:)` for any Decodable): JSONDecoder's behaviour —
//   only the matching JSON type (integers also from integral number literals such as `2.0`, as
//   JSONDecoder), its key/date/data/non-conforming-float strategies, `DecodingError`s with the coding path.
// - `.mapping` (`Decodable` fields of `JSONMappable` models): the model's `DecodingOptions` (lenient or
//   strict conversions, `dateStrategy`), errors turned into `MappingError` with the property path by
//   `DecodableCodec`.
//
// Every error carries the token index of the failing value (see `TapeLocation`), resolved into line and
// column by the entry point that owns the input.

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

/// The token a `DecodingError` refers to, kept as the context's underlying error until the entry point
/// replaces it with a positioned ``MappingError`` (`TapeErrors.positioned`): `error` when a codec or a model
/// failed (its kind and message), else one made from the DecodingError.
struct TapeLocation: Error {
    let index: Int
    var error: MappingError? = nil
}

/// What every decoder and container of one decoding shares. Made by `begin` and handed back by `end`:
/// each thread keeps a spare (ThreadSpare.swift), so the next decoding reuses its containers, key tables
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

    /// The member key at token `keyIndex` after the key strategy.
    func convertedKey(_ keyIndex: Int, codingPath: [any CodingKey]) throws -> String {
        let raw = try text(at: keyIndex, codingPath)
        switch strategies.keys {
        case .useDefaultKeys:
            return raw
        case .convertFromSnakeCase:
            return FoundationKeys.fromSnakeCase(raw)
        case .custom(let transform):
            return transform(codingPath + [JSONStringKey(raw)]).stringValue
        @unknown default:
            return raw
        }
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
        @exclusivity(unchecked) final var ordinals = InlineArray<64, UInt8>(repeating: 255)

        init<Key: CodingKey>(_ type: Key.Type) {
            self.type = ObjectIdentifier(type)
            if MemoryLayout<Key>.size <= 1, let shared = StreamKeyNameCache.shared.names(.init(type: self.type, variant: 4)) {
                names = shared
            } else {
                names = StreamKeyNames(type, raw: true)
            }
        }

        /// The table to add a key to (a copy of the shared one, made once).
        final func namesToFill() -> StreamKeyNames {
            if names.frozen { names = StreamKeyNames(copyOf: names) }
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
    /// `KeyedDecodingContainer` (one allocation for each, per object).
    @inline(__always)
    func keyedContainer<Key: CodingKey>(_ type: Key.Type, _ decoder: TapeDecoder) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(try TapeKeyedContainer<Key>(decoder: decoder, keys: keyTypeEntry(type), owner: self))
    }

    // MARK: Per-type facts

    /// How values of a type are decoded, decided once per type and decoding.
    enum DecodingKind: UInt8 {
        case other, mappable, stringKeyedDictionary, array
        case int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float
        case date, data, url, decimal, jsonValue, uuid, timeZone
        /// A raw-value enum adopting ``JSONUnknownCaseRepresentable``.
        case unknownCaseEnum
    }

    struct TypeInfo {
        var kind: DecodingKind
        /// Arrays: their element-by-element decoding.
        var array: (any TapeDecodableArray.Type)?
    }

    /// By type, direct-mapped (a document has few types; this beats the runtime's conformance lookups).
    @exclusivity(unchecked) private var typeMemo = [(ObjectIdentifier?, TypeInfo)](
        repeating: (nil, TypeInfo(kind: .other, array: nil)), count: 32)

    @inline(__always)
    func typeInfo<T>(_ type: T.Type) -> TypeInfo {
        let id = ObjectIdentifier(type)
        let slot = Int(truncatingIfNeeded: (UInt(bitPattern: id) >> 4) & 31)
        if typeMemo[slot].0 == id { return typeMemo[slot].1 }
        let info = DecodingTypeCache.shared.info(type, id)
        typeMemo[slot] = (id, info)
        return info
    }

    /// The process-wide memo behind `typeMemo`: a failed conformance check costs the runtime thousands of
    /// instructions each time (three per new type), so a type is classified once per process, not once
    /// per decoding.
    final class DecodingTypeCache: Sendable {
        static let shared = DecodingTypeCache()
        /// `@unchecked Sendable`: immutable (a type's conformance facts).
        private final class Entry: @unchecked Sendable {
            let info: TypeInfo
            init(_ info: TypeInfo) { self.info = info }
        }
        /// Read without a lock: a memo miss on any thread costs a search, not a lock.
        private let infos = PublishedTable<Entry>()

        func info<T>(_ type: T.Type, _ id: ObjectIdentifier) -> TypeInfo {
            let key = UInt(bitPattern: id)
            if let entry = infos.value(for: key) { return entry.info }
            return infos.insertIfAbsent(key, Entry(TapeDecodingState.classify(type))).info
        }
    }

    static func classify<T>(_ type: T.Type) -> TypeInfo {
        func kind(_ kind: DecodingKind) -> TypeInfo { TypeInfo(kind: kind, array: nil) }
        if T.self == Int8.self { return kind(.int8) }
        if T.self == Int16.self { return kind(.int16) }
        if T.self == Int32.self { return kind(.int32) }
        if T.self == Int64.self { return kind(.int64) }
        if T.self == UInt.self { return kind(.uint) }
        if T.self == UInt8.self { return kind(.uint8) }
        if T.self == UInt16.self { return kind(.uint16) }
        if T.self == UInt32.self { return kind(.uint32) }
        if T.self == UInt64.self { return kind(.uint64) }
        if T.self == Float.self { return kind(.float) }
        if T.self == Date.self { return kind(.date) }
        if T.self == Data.self { return kind(.data) }
        if T.self == URL.self { return kind(.url) }
        if T.self == Decimal.self { return kind(.decimal) }
        if T.self == JSONValue.self { return kind(.jsonValue) }
        if T.self == UUID.self { return kind(.uuid) }
        if T.self == TimeZone.self { return kind(.timeZone) }
        if type is any JSONMappable.Type { return kind(.mappable) }
        if type is any StringKeyedDictionaryMarker.Type { return kind(.stringKeyedDictionary) }
        if let array = type as? any TapeDecodableArray.Type { return TypeInfo(kind: .array, array: array) }
        if type is any JSONUnknownCaseRepresentable.Type && type is any RawRepresentable.Type { return kind(.unknownCaseEnum) }
        return kind(.other)
    }

    // MARK: Errors

    func describeForFoundation(_ index: Int) -> String {
        switch kind(index) {
        case .null: return "null"
        case .trueValue, .falseValue: return "bool"
        case .number: return "number"
        case .string: return "a string"
        case .objectStart: return "a dictionary"
        case .arrayStart: return "an array"
        default: return "a value"
        }
    }

    func typeMismatch(_ type: Any.Type, _ index: Int, _ path: [any CodingKey], _ message: String? = nil) -> DecodingError {
        let text = message ?? "Expected to decode \(type) but found \(describeForFoundation(index)) instead."
        return .typeMismatch(type, .init(codingPath: path, debugDescription: text, underlyingError: location(index)))
    }

    func valueNotFound(_ type: Any.Type, _ index: Int, _ path: [any CodingKey]) -> DecodingError {
        .valueNotFound(type, .init(codingPath: path, debugDescription: "Cannot get value of type \(type) -- found null value instead",
                                   underlyingError: location(index)))
    }

    func dataCorrupted(_ index: Int, _ path: [any CodingKey], _ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: path, debugDescription: message, underlyingError: location(index)))
    }

    func location(_ index: Int, _ error: MappingError? = nil) -> TapeLocation? {
        index >= 0 ? TapeLocation(index: index, error: error) : nil
    }

    /// A codec's error as the DecodingError JSONDecoder throws in its place.
    func converted(_ error: MappingError, _ type: Any.Type, _ index: Int, _ path: [any CodingKey]) -> DecodingError {
        let at = error.tokenIndex ?? index
        switch error.kind {
        case .typeMismatch:
            return .typeMismatch(type, .init(codingPath: path, debugDescription: error.message, underlyingError: location(at, error)))
        default:
            return .dataCorrupted(.init(codingPath: path, debugDescription: error.message, underlyingError: location(at, error)))
        }
    }

    /// A model's error (its path relative to the value being decoded) as a DecodingError under `path`.
    func convertedModelError(_ error: MappingError, _ type: Any.Type, _ index: Int, _ path: [any CodingKey]) -> DecodingError {
        let full = path + CodingPathRendering.keys(error.path)
        let at = error.tokenIndex ?? index
        let context = DecodingError.Context(codingPath: full, debugDescription: error.message, underlyingError: location(at, error))
        switch error.kind {
        case .typeMismatch: return .typeMismatch(type, context)
        case .missingKey:
            if let last = full.last {
                return .keyNotFound(last, .init(codingPath: Array(full.dropLast()), debugDescription: error.message,
                                                underlyingError: location(at, error)))
            }
            return .dataCorrupted(context)
        default: return .dataCorrupted(context)
        }
    }

    // MARK: Scalars

    @inline(__always)
    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, _ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> T {
        let kind = self.kind(index)
        if kind == .number {
            do {
                return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try IntegerCodec<T>.read(s.numberContext, index) } }.get()
            } catch {
                throw converted(error, T.self, index, path())
            }
        }
        if kind == .null { throw valueNotFound(T.self, index, path()) }
        if isFoundation { throw typeMismatch(T.self, index, path()) }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try IntegerCodec<T>.read(s.c, index) } }.get()
        } catch {
            throw converted(error, T.self, index, path())
        }
    }

    @inline(__always)
    func decodeString(_ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> String {
        if kind(index) == .null { throw valueNotFound(String.self, index, path()) }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try StringCodec.read(s.scalarContext, index) } }.get()
        } catch {
            throw isFoundation && error.kind == .typeMismatch ? typeMismatch(String.self, index, path())
                : converted(error, String.self, index, path())
        }
    }

    @inline(__always)
    func decodeBool(_ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        if kind(index) == .null { throw valueNotFound(Bool.self, index, path()) }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try BoolCodec.read(s.scalarContext, index) } }.get()
        } catch {
            throw isFoundation && error.kind == .typeMismatch ? typeMismatch(Bool.self, index, path())
                : converted(error, Bool.self, index, path())
        }
    }

    /// `nonConformingFloatDecodingStrategy`: the string forms of infinity and NaN, when configured.
    private func nonConforming(_ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Double? {
        guard isFoundation, kind(index) == .string, case .convertFromString = strategies.nonConformingFloats else { return nil }
        return NonConformingFloats.value(of: try text(at: index, path()), strategies.nonConformingFloats)
    }

    /// The text of the string or key token at `index`, for a strategy that reads it; invalid UTF-8 is a
    /// DecodingError (dataCorrupted) like every other error of this decoder.
    private func text(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> String {
        do {
            return try tape.string(at: index)
        } catch {
            throw dataCorrupted(index, path(), error.message)
        }
    }

    @inline(__always)
    func decodeDouble(_ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Double {
        let kind = self.kind(index)
        if kind == .null { throw valueNotFound(Double.self, index, path()) }
        if kind != .number, let special = try nonConforming(index, path()) { return special }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try DoubleCodec.read(s.scalarContext, index) } }.get()
        } catch {
            throw isFoundation && error.kind == .typeMismatch ? typeMismatch(Double.self, index, path())
                : converted(error, Double.self, index, path())
        }
    }

    func decodeFloat(_ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Float {
        let kind = self.kind(index)
        if kind == .null { throw valueNotFound(Float.self, index, path()) }
        if kind != .number, let special = try nonConforming(index, path()) { return Float(special) }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in Result { () throws(MappingError) in try floatCodec.decode(s.scalarContext, index) } }.get()
        } catch {
            throw isFoundation && error.kind == .typeMismatch ? typeMismatch(Float.self, index, path())
                : converted(error, Float.self, index, path())
        }
    }

    // MARK: Any Decodable

    /// Special types natively, `JSONMappable` models through their mapping, everything else through its
    /// `init(from:)`. `type` is the dynamic type: a class metatype may name a subclass of `T`, which is
    /// what is decoded (as JSONDecoder calls `type.init(from:)`).
    func decodeValue<T: Decodable>(_ type: T.Type, _ index: Int, _ ref: PathRef) throws -> T {
        if T.self == String.self { return same(try decodeString(index, resolve(ref)), as: T.self) }
        if T.self == Int.self { return same(try decodeInteger(Int.self, index, resolve(ref)), as: T.self) }
        if T.self == Double.self { return same(try decodeDouble(index, resolve(ref)), as: T.self) }
        if T.self == Bool.self { return same(try decodeBool(index, resolve(ref)), as: T.self) }
        let info = typeInfo(T.self)
        switch info.kind {
        case .other: break
        case .int8: return same(try decodeInteger(Int8.self, index, resolve(ref)), as: T.self)
        case .int16: return same(try decodeInteger(Int16.self, index, resolve(ref)), as: T.self)
        case .int32: return same(try decodeInteger(Int32.self, index, resolve(ref)), as: T.self)
        case .int64: return same(try decodeInteger(Int64.self, index, resolve(ref)), as: T.self)
        case .uint: return same(try decodeInteger(UInt.self, index, resolve(ref)), as: T.self)
        case .uint8: return same(try decodeInteger(UInt8.self, index, resolve(ref)), as: T.self)
        case .uint16: return same(try decodeInteger(UInt16.self, index, resolve(ref)), as: T.self)
        case .uint32: return same(try decodeInteger(UInt32.self, index, resolve(ref)), as: T.self)
        case .uint64: return same(try decodeInteger(UInt64.self, index, resolve(ref)), as: T.self)
        case .float: return same(try decodeFloat(index, resolve(ref)), as: T.self)
        case .date: return same(try decodeDate(index, ref), as: T.self)
        case .data: return same(try decodeData(index, ref), as: T.self)
        case .url: return same(try decodeURL(index, ref), as: T.self)
        case .decimal: return same(try decodeWithCodec(decimalCodec, strictInFoundation: true, index, ref), as: T.self)
        case .jsonValue:
            if index < 0 { return same(JSONValue.null, as: T.self) }
            var i = index
            do { return same(try JSONValue(tape: tape, index: &i), as: T.self) } catch { throw converted(error, T.self, index, resolve(ref)) }
        case .uuid:
            if !isFoundation { return same(try decodeWithCodec(uuidCodec, strictInFoundation: false, index, ref), as: T.self) }
        case .timeZone:
            // A model's rule (a name); JSONDecoder's is TimeZone's own Codable form, an object.
            if !isFoundation { return same(try decodeWithCodec(timeZoneCodec, strictInFoundation: false, index, ref), as: T.self) }
        case .mappable:
            if usesMapping, let model = type as? any JSONMappable.Type { return try decodeModel(model, index, ref) as! T }
        case .array:
            // Arrays element by element into their storage (no per-element generic append).
            try checkStack(index, ref)
            if let array = info.array { return try array.tapeDecode(self, index, ref, as: T.self) }
        case .unknownCaseEnum:
            if let value = try decodeUnknownCaseEnum(T.self, index, ref) { return value as! T }
        case .stringKeyedDictionary:
            // JSONDecoder applies no key strategy to `[String: Value]` keys.
            try checkStack(index, ref)
            return try type.init(from: TapeDecoder(state: self, index: index, ref: ref, rawKeys: isFoundation))
        }
        try checkStack(index, ref)
        return try type.init(from: TapeDecoder(state: self, index: index, ref: ref))
    }

    /// A ``JSONUnknownCaseRepresentable`` raw-value enum: the raw value, then `init(rawValue:)` (what the
    /// synthesized `init(from:)` does), an unknown raw value becoming `unknownCase`, reported when the
    /// context has a report. Nil when the raw type is not `Decodable` (then `init(from:)` runs).
    /// Returns `Any?`, not `T?`: a `T?` result would make every `decodeValue` call look up `Optional<T>`'s
    /// metadata (the caller reserves its stack slot), +4% instructions on the twitter Codable decode.
    private func decodeUnknownCaseEnum<T: Decodable>(_ type: T.Type, _ index: Int, _ ref: PathRef) throws -> Any? {
        guard let enumType = T.self as? any RawRepresentable.Type else { return nil }
        func open<E: RawRepresentable>(_: E.Type) throws -> Any? {
            guard let rawType = E.RawValue.self as? any Decodable.Type else { return nil }
            func decodeRaw<R: Decodable>(_: R.Type) throws -> Any { try decodeValue(R.self, index, ref) }
            guard let raw = try decodeRaw(rawType) as? E.RawValue else { return nil }
            if let value = E(rawValue: raw) { return value }
            guard let fallback = (E.self as? any JSONUnknownCaseRepresentable.Type).map({ $0.unknownCase }) as? E else {
                return nil
            }
            if let report = c.report {
                var error = RawEnumCodec<E>.fallbackReport(
                    c.invalid("\(c.describe(at: index)) is not a valid \(E.self)", at: index), fallback)
                for key in resolve(ref).reversed() {
                    if let i = key.intValue { error.prependIndex(i) } else { error.prependKey(key.stringValue) }
                }
                report.record(error)
            }
            return fallback
        }
        return try open(enumType)
    }

    /// Nested Decodable values recurse on the thread's stack: stop before it runs out, as models do (a
    /// debug build overflowed a 512 KB stack at ~100 levels of a recursive class).
    @inline(__always)
    private func checkStack(_ index: Int, _ ref: PathRef) throws {
        guard StackGuard.hasRoom() else {
            throw DecodingError.dataCorrupted(.init(codingPath: resolve(ref),
                                                    debugDescription: "nesting too deep for this thread's stack",
                                                    underlyingError: location(index)))
        }
    }

    /// `value` as `T`, which the caller checked is its type (no dynamic cast).
    @inline(__always)
    func same<V, T>(_ value: V, as type: T.Type) -> T {
        assert(V.self == T.self, "not the same type")
        return unsafeBitCast(value, to: T.self)
    }

    private func decodeWithCodec<V>(_ codec: ValueCodec<V>, strictInFoundation: Bool, _ index: Int, _ ref: PathRef) throws -> V {
        if kind(index) == .null { throw valueNotFound(V.self, index, resolve(ref)) }
        do {
            return try borrowed._withUnsafeGuaranteedRef { s in
                Result { () throws(MappingError) in try codec.decode(s.isFoundation && strictInFoundation ? s.scalarContext : s.c, index) }
            }.get()
        } catch {
            throw converted(error, V.self, index, resolve(ref))
        }
    }

    /// A `JSONMappable` model on the same tape, with the caller's options; its errors are thrown (not
    /// reported), with this decoder's path in front.
    func decodeModel(_ type: any JSONMappable.Type, _ index: Int, _ ref: PathRef) throws -> Any {
        func open<M: JSONMappable>(_: M.Type) throws -> M {
            if index < 0 { throw valueNotFound(M.self, index, resolve(ref)) }
            do {
                let codec = try models.mappedCodec(for: M.self)
                if codec.reachesContext { return try codec.decode(trackingContext(ref), index) }
                return try codec.decode(c.report == nil ? c : unreported, index)
            } catch {
                // A coder's strategy failed inside the model: what it threw, as JSONDecoder throws it.
                if let thrown = error.codableError { throw Self.rebased(thrown, under: resolve(ref) + CodingPathRendering.keys(error.path)) }
                throw convertedModelError(error, M.self, index, resolve(ref))
            }
        }
        return try open(type)
    }

    /// For a model that may call a hook or transformer: `unreported`'s options with a report that only
    /// tracks the path (``MappingContext/path``), starting from the model's own path under the caller's
    /// (the Codable value's coding path after the path of the property holding it, when that is tracked).
    private func trackingContext(_ ref: PathRef) -> DecodeContext {
        var components = c.report?.path ?? []
        components += CodingPathRendering.components(resolve(ref)).map { ErrorReport.Component($0) }
        let tracker = ErrorReport(forgiving: false)
        tracker.path = components
        tracker.contextPrefix = c.report?.contextPrefix ?? []
        return DecodeContext(tape: tape, options: unreported.options, report: tracker)
    }

    func decodeDate(_ index: Int, _ ref: PathRef) throws -> Date {
        guard isFoundation else { return try decodeWithCodec(dateCodec, strictInFoundation: false, index, ref) }
        return try DateStrategies.decode(strategies.dates, from: TapeValueSource(state: self, index: index, ref: ref))
    }

    func decodeData(_ index: Int, _ ref: PathRef) throws -> Data {
        guard isFoundation else { return try decodeWithCodec(dataCodec, strictInFoundation: false, index, ref) }
        return try DataStrategies.decode(strategies.data, from: TapeValueSource(state: self, index: index, ref: ref))
    }

    func decodeURL(_ index: Int, _ ref: PathRef) throws -> URL {
        guard isFoundation else { return try decodeWithCodec(urlCodec, strictInFoundation: false, index, ref) }
        let text = try decodeString(index, resolve(ref))
        guard let url = URL(string: text) else { throw dataCorrupted(index, resolve(ref), "Invalid URL string.") }
        return url
    }

    // MARK: Locating errors

    /// The token a coding path leads to from `root`, as far as the path can be followed (the container
    /// of a missing key, the array of an index past its end).
    func locate(_ path: [any CodingKey], from root: Int) -> Int {
        var i = root
        for key in path {
            guard i >= 0 && i < tape.count else { return root }
            let token = tape[i]
            if token.kind == .objectStart {
                var k = i + 1
                var found = -1
                while k < token.payload {
                    let name = (try? tape.string(at: k)) ?? ""
                    if name == key.stringValue || (convertsKeys && (try? convertedKey(k, codingPath: [])) == key.stringValue) {
                        found = k + 1
                    }
                    if found >= 0 { break }
                    k = tape.indexAfterValue(at: k + 1)
                }
                if found < 0 { return i }
                i = found
            } else if token.kind == .arrayStart, let n = key.intValue, n >= 0, n < Int(token.length) {
                var k = i + 1
                for _ in 0..<n { k = tape.indexAfterValue(at: k) }
                i = k
            } else {
                return i
            }
        }
        return i
    }

    /// The token an error refers to: the one recorded in it, or where its coding path leads.
    func tokenIndex(of error: any Error, root: Int) -> Int? {
        switch error {
        case let error as DecodingError:
            let context: DecodingError.Context
            switch error {
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
            @unknown default: return nil
            }
            if let location = context.underlyingError as? TapeLocation { return location.index }
            return locate(context.codingPath, from: root)
        case let error as MappingError:
            return error.tokenIndex
        default:
            return nil
        }
    }
}

// MARK: - Decoder

/// A `Decoder` for the value at one tape index; also its single-value container.
/// Where a decoder's coding path is: on the state's stack (`keyStack[0..<depth]`), or fixed.
enum PathRef {
    case stack(Int)
    case fixed([any CodingKey])
}

/// Three words, so that passing it as `any Decoder` needs no box.
struct TapeDecoder: Decoder, SingleValueDecodingContainer {
    let state: TapeDecodingState
    let index: Int
    /// Bit 0: `rawKeys`. The rest: the depth of a path on the key stack (>= 0), or `-(n + 1)` for the
    /// fixed path `state.fixedPaths[n]`.
    let packed: Int

    init(state: TapeDecodingState, index: Int, ref: PathRef, rawKeys: Bool = false) {
        self.state = state
        self.index = index
        let path: Int
        switch ref {
        case .stack(let depth):
            path = depth
        case .fixed(let keys):
            path = -(state.fixedPaths.count + 1)
            state.fixedPaths.append(keys)
        }
        packed = path << 1 | (rawKeys ? 1 : 0)
    }

    /// A decoder with a packed path (see `packed`).
    init(state: TapeDecodingState, index: Int, packed: Int) {
        self.state = state
        self.index = index
        self.packed = packed
    }

    /// Keys are used as they are (a `[String: Value]` dictionary: no key strategy, as JSONDecoder).
    @inline(__always)
    var rawKeys: Bool { packed & 1 != 0 }

    /// The depth of the path on the key stack, nil for a fixed path.
    @inline(__always)
    var stackDepth: Int? {
        let path = packed >> 1
        return path >= 0 ? path : nil
    }

    var ref: PathRef {
        let path = packed >> 1
        return path >= 0 ? .stack(path) : .fixed(state.fixedPaths[-path - 1])
    }

    /// A decoder with a fixed coding path (handed out for later use).
    init(state: TapeDecodingState, index: Int, codingPath: [any CodingKey]) {
        self.init(state: state, index: index, ref: .fixed(codingPath))
    }

    var codingPath: [any CodingKey] { state.resolve(ref) }

    var userInfo: [CodingUserInfoKey: Any] { state.strategies.userInfo }

    @inline(__always)
    func childPath(_ key: any CodingKey) -> [any CodingKey] {
        var path = codingPath
        path.append(key)
        return path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let kind = state.kind(index)
        guard kind == .objectStart else {
            if kind == .null, state.isFoundation {
                throw DecodingError.valueNotFound([String: Any].self, .init(
                    codingPath: codingPath, debugDescription: "Cannot get keyed decoding container -- found null value instead",
                    underlyingError: state.location(index)))
            }
            throw state.typeMismatch([String: Any].self, index, codingPath, state.isFoundation ? nil
                : "expected an object, found \(state.c.describe(at: index))")
        }
        return try state.keyedContainer(Key.self, self)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let kind = state.kind(index)
        guard kind == .arrayStart else {
            if kind == .null, state.isFoundation {
                throw DecodingError.valueNotFound([Any].self, .init(
                    codingPath: codingPath, debugDescription: "Cannot get unkeyed decoding container -- found null value instead",
                    underlyingError: state.location(index)))
            }
            throw state.typeMismatch([Any].self, index, codingPath, state.isFoundation ? nil
                : "expected an array, found \(state.c.describe(at: index))")
        }
        return TapeUnkeyedContainer(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { state.kind(index) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try state.decodeBool(index, codingPath) }
    func decode(_ type: String.Type) throws -> String { try state.decodeString(index, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try state.decodeDouble(index, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try state.decodeFloat(index, codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try state.decodeInteger(Int.self, index, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try state.decodeInteger(Int8.self, index, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try state.decodeInteger(Int16.self, index, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try state.decodeInteger(Int32.self, index, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try state.decodeInteger(Int64.self, index, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try state.decodeInteger(UInt.self, index, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try state.decodeInteger(UInt8.self, index, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try state.decodeInteger(UInt16.self, index, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try state.decodeInteger(UInt32.self, index, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try state.decodeInteger(UInt64.self, index, codingPath) }
    func decode(_ type: Int128.Type) throws -> Int128 { try state.decodeInteger(Int128.self, index, codingPath) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try state.decodeInteger(UInt128.self, index, codingPath) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.decodeValue(type, index, ref)
    }
}

// MARK: - Keyed

/// What a keyed container reads (the key-type-independent part, which `TapeDecodingState.detach` points
/// at the copy of the tape).
class TapeKeyedContainerBase {
    /// `owner` again, unretained: the per-value paths borrow it (`withState`) instead of retaining and
    /// releasing it per value. Unmanaged rather than unowned(unsafe), whose every read retains and releases.
    private final let unretainedState: Unmanaged<TapeDecodingState>
    /// The state, retained by the caller (for paths that make a decoder or an error).
    final var state: TapeDecodingState { unretainedState.takeUnretainedValue() }
    /// Holds the state while the container lives.
    private final let owner: TapeDecodingState
    /// The state's tape (the copy once the state is detached).
    @exclusivity(unchecked) final var tape: TapeView
    /// The object's start token and the decoder's path (`TapeDecoder.packed`): the decoder without its
    /// reference to the state, which `state` holds (storing the decoder retained and released the state
    /// per object).
    final var objectIndex: Int
    final var packedPath: Int
    final var decoder: TapeDecoder { TapeDecoder(state: state, index: objectIndex, packed: packedPath) }
    /// Calls `body` with the state borrowed, not retained: it lives while this container does (see
    /// `unretainedState`).
    @inline(__always)
    final func withState<R>(_ body: (TapeDecodingState) throws -> R) rethrows -> R {
        try unretainedState._withUnsafeGuaranteedRef(body)
    }
    /// Index of the object's end token.
    final var end: Int
    /// The key token where the next lookup starts (members are usually read in document order).
    final var cursor: Int
    /// Member keys after the key strategy, in member order (only with a converting strategy).
    final var convertedKeys: [(keyIndex: Int, name: String)]?
    /// The key type's entry.
    final let keys: TapeDecodingState.KeyTypeEntry
    /// Its keys' names by tag (`keys.names` when the container was made).
    @exclusivity(unchecked) final var names: StreamKeyNames
    /// The key tokens of the object's first members (`memberCount` of them; -1: not listed yet).
    @exclusivity(unchecked) final var members = InlineArray<64, Int32>(repeating: 0)
    @exclusivity(unchecked) final var memberCount = -1
    @exclusivity(unchecked) final var membersTruncated = false

    /// A container for the object of `decoder`; `owner` is its state.
    init(decoder: TapeDecoder, keys: TapeDecodingState.KeyTypeEntry, owner: TapeDecodingState) throws {
        assert(owner === decoder.state, "a container owned by another state")
        unretainedState = Unmanaged.passUnretained(decoder.state)
        self.owner = owner
        tape = decoder.state.tape
        self.keys = keys
        names = keys.names
        objectIndex = decoder.index
        packedPath = decoder.packed
        end = 0
        cursor = 0
        try reset(decoder)
        owner.liveKeyed.append(.passUnretained(self))
    }

    deinit {
        owner.forgetKeyed(self)
    }

    /// Points the container at the object of `decoder`.
    final func reset(_ decoder: TapeDecoder) throws {
        assert(decoder.state === state, "a container reset for another decoding's state")
        objectIndex = decoder.index
        packedPath = decoder.packed
        tape = decoder.state.tape
        if names !== keys.names { names = keys.names }
        memberCount = -1
        end = tape[objectIndex].payload
        cursor = objectIndex + 1
        if decoder.state.convertsKeys && !decoder.rawKeys {
            var keys: [(Int, String)] = []
            var k = objectIndex + 1
            while k < end {
                keys.append((k, try decoder.state.convertedKey(k, codingPath: decoder.codingPath)))
                k = tape.indexAfterValue(at: k + 1)
            }
            convertedKeys = keys
        } else {
            convertedKeys = nil
        }
    }
}

final class TapeKeyedContainer<Key: CodingKey>: TapeKeyedContainerBase, KeyedDecodingContainerProtocol {
    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The members' keys in member order. Under a key strategy, two members whose keys convert to the same
    /// name are one key, listed once, as in JSONDecoder's dictionary (the first member's value is read). A key
    /// repeated in the JSON itself stays listed twice (see the fuzz target's `duplicateKeys` difference).
    var allKeys: [Key] {
        var keys: [Key] = []
        if let convertedKeys {
            var seen = Set<String>()
            for (_, name) in convertedKeys where seen.insert(name).inserted {
                if let key = Key(stringValue: name) { keys.append(key) }
            }
            return keys
        }
        var k = objectIndex + 1
        while k < end {
            if let name = try? tape.string(at: k), let key = Key(stringValue: name) { keys.append(key) }
            k = tape.indexAfterValue(at: k + 1)
        }
        return keys
    }

    /// The value token of `key`, or nil: raw key bytes compared from the cursor to the end, then from the
    /// start to the cursor.
    @inline(__always)
    func find(_ key: Key) -> Int? {
        if let convertedKeys {
            let name = key.stringValue
            for (keyIndex, converted) in convertedKeys where converted == name { return keyIndex + 1 }
            return nil
        }
        if names.tagged {
            // The key's name from the key type's table (no `stringValue` per lookup).
            let tag = names.tag(key)
            if let slot = names.slot(tag) { return lookup(names.bytes(of: slot), tag: tag) }
            // A new key: added to this decoding's copy of the table, which this container uses from now.
            let filling = keys.namesToFill()
            names = filling
            if filling.slot(tag) == nil { filling.fill(tag, name: key.stringValue, escapeSlashes: false) }
            return lookup(filling.bytes(of: filling.slot(tag)!), tag: tag)
        }
        var name = key.stringValue
        return name.withUTF8 { lookup($0) }
    }

    /// A tagged key's member: at the cursor (members read in document order), else ahead of it (members
    /// skipped) unless the key has a learned ordinal, else at the ordinal where a container of the key type last
    /// found the key (`KeyTypeEntry.ordinals`), else by a scan of the members; learns the ordinal.
    @inline(__always)
    private func lookup(_ wanted: UnsafeBufferPointer<UInt8>, tag: Int) -> Int? {
        if cursor < end && matches(cursor, wanted) { return found(cursor) }
        guard tag < 64 else { return lookup(wanted) }
        if memberCount < 0 && keys.ordinals[tag] == 255 {
            // No ordinal learned: read ahead from the cursor first (document order, members skipped),
            // which touches no more of the tape than the value itself needs.
            if let hit = scan(wanted, from: cursor, to: end) { return hit }
        }
        indexMembers()
        let predicted = Int(keys.ordinals[tag])
        if predicted < memberCount, matches(Int(members[predicted]), wanted) { return found(Int(members[predicted])) }
        var i = 0
        while i < memberCount {
            let k = Int(members[i])
            if matches(k, wanted) {
                if i < 255 { keys.ordinals[tag] = UInt8(i) }
                return found(k)
            }
            i &+= 1
        }
        return membersTruncated ? lookup(wanted) : nil
    }

    /// Whether the key token at `k` is `wanted`.
    @inline(__always)
    private func matches(_ k: Int, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let token = tape[k]
        guard Int(token.length) == wanted.count else { return false }
        return wanted.count == 0 || KeyTable.equal(tape.bytes(token).baseAddress!, wanted.baseAddress!, count: wanted.count)
    }

    /// The value of the member whose key token is `k`; the cursor moves past it.
    @inline(__always)
    private func found(_ k: Int) -> Int {
        let valueIndex = k + 1
        cursor = tape.indexAfterValue(at: valueIndex)
        if cursor >= end { cursor = objectIndex + 1 }
        return valueIndex
    }

    /// Lists the members' key tokens (once per object, on the first lookup away from the cursor).
    @inline(__always)
    private func indexMembers() {
        guard memberCount < 0 else { return }
        var k = objectIndex + 1
        var n = 0
        while k < end && n < members.count {
            members[n] = Int32(truncatingIfNeeded: k)
            n &+= 1
            k = tape.indexAfterValue(at: k + 1)
        }
        memberCount = n
        // More members than the index holds: a key not among the first ones is found by a scan.
        membersTruncated = k < end
    }

    /// The value token of the member named `wanted`: from the cursor to the end, then from the start to
    /// the cursor.
    @inline(__always)
    private func lookup(_ wanted: UnsafeBufferPointer<UInt8>) -> Int? {
        let start = objectIndex + 1
        if let found = scan(wanted, from: cursor, to: end) { return found }
        return cursor > start ? scan(wanted, from: start, to: cursor) : nil
    }

    @inline(__always)
    private func scan(_ wanted: UnsafeBufferPointer<UInt8>, from: Int, to limit: Int) -> Int? {
        var k = from
        while k < limit {
            let token = tape[k]
            let valueIndex = k + 1
            if Int(token.length) == wanted.count {
                let bytes = tape.bytes(token)
                if wanted.count == 0 || KeyTable.equal(bytes.baseAddress!, wanted.baseAddress!, count: wanted.count) {
                    cursor = tape.indexAfterValue(at: valueIndex)
                    if cursor >= end { cursor = objectIndex + 1 }
                    return valueIndex
                }
            }
            k = tape.indexAfterValue(at: valueIndex)
        }
        return nil
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    @inline(__always)
    func path(_ key: Key) -> [any CodingKey] { decoder.childPath(key) }

    func keyNotFound(_ key: Key) -> DecodingError {
        .keyNotFound(key, .init(codingPath: codingPath,
                                debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\").",
                                underlyingError: state.location(objectIndex)))
    }

    @inline(__always)
    func value(_ key: Key) throws -> Int {
        guard let index = find(key) else { throw keyNotFound(key) }
        return index
    }

    /// JSONDecoder: a missing key is `keyNotFound`. Mapping mode keeps the bridge's answer: true.
    func decodeNil(forKey key: Key) throws -> Bool {
        guard let index = find(key) else {
            if state.isFoundation { throw keyNotFound(key) }
            return true
        }
        return tape[index].kind == .null
    }

    /// The scalar of `key` read by `read` (the state borrowed, the value's token, its coding path on demand):
    /// the one path every typed `decode(_:forKey:)` takes.
    @inline(__always)
    private func scalar<V>(_ key: Key, _ read: (TapeDecodingState, Int, () -> [any CodingKey]) throws -> V) throws -> V {
        try withState { s in try read(s, try value(key), { path(key) }) }
    }

    /// The value token of `key` for `decodeIfPresent`, nil when missing or `null`: one lookup (the protocol's
    /// defaults look the key up three times).
    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let index = find(key), tape[index].kind != .null else { return nil }
        return index
    }

    /// `scalar` for `decodeIfPresent`.
    @inline(__always)
    private func presentScalar<V>(_ key: Key, _ read: (TapeDecodingState, Int, () -> [any CodingKey]) throws -> V) throws -> V? {
        guard let index = present(key) else { return nil }
        return try withState { s in try read(s, index, { path(key) }) }
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        try scalar(key) { s, i, p in try s.decodeInteger(T.self, i, p()) }
    }

    @inline(__always)
    private func presentInteger<T: FixedWidthInteger>(_ key: Key) throws -> T? {
        try presentScalar(key) { s, i, p in try s.decodeInteger(T.self, i, p()) }
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(key) { s, i, p in try s.decodeBool(i, p()) } }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(key) { s, i, p in try s.decodeString(i, p()) } }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(key) { s, i, p in try s.decodeDouble(i, p()) } }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(key) { s, i, p in try s.decodeFloat(i, p()) } }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try integer(key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try integer(key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try withState { s in try s.decodeChild(type, try value(key), parent: TapeDecoder(state: s, index: objectIndex, packed: packedPath), key: key) }
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try presentScalar(key) { s, i, p in try s.decodeBool(i, p()) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try presentScalar(key) { s, i, p in try s.decodeString(i, p()) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try presentScalar(key) { s, i, p in try s.decodeDouble(i, p()) } }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try presentScalar(key) { s, i, p in try s.decodeFloat(i, p()) } }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentInteger(key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try presentInteger(key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try presentInteger(key) }

    /// Missing and `null` are nil; in mapping mode so is an empty (or blank) string for `URL?`, as for
    /// ModelMapper's own `URL?` properties.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let i = present(key) else { return nil }
        if !state.isFoundation, T.self == URL.self, tape[i].kind == .string {
            do {
                return try state.urlCodec.decodeOptional(state.c, i) as! T?
            } catch {
                throw state.converted(error, URL.self, i, path(key))
            }
        }
        return try withState { s in try s.decodeChild(type, i, parent: TapeDecoder(state: s, index: objectIndex, packed: packedPath), key: key) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        guard let index = find(key) else {
            throw DecodingError.keyNotFound(key, .init(
                codingPath: codingPath,
                debugDescription: "Cannot get nested keyed container -- no value found for key \"\(key.stringValue)\"",
                underlyingError: state.location(objectIndex)))
        }
        return try TapeDecoder(state: state, index: index, codingPath: path(key)).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        guard let index = find(key) else {
            throw DecodingError.keyNotFound(key, .init(
                codingPath: codingPath,
                debugDescription: "Cannot get nested unkeyed container -- no value found for key \"\(key.stringValue)\"",
                underlyingError: state.location(objectIndex)))
        }
        return try TapeDecoder(state: state, index: index, codingPath: path(key)).unkeyedContainer()
    }

    /// A decoder for the member `super` (`null` when absent, as JSONDecoder).
    func superDecoder() throws -> any Decoder {
        let key = JSONStringKey("super")
        var name = "super"
        let index = name.withUTF8 { wanted in scan(wanted, from: objectIndex + 1, to: end) } ?? -1
        return TapeDecoder(state: state, index: index, codingPath: decoder.childPath(key))
    }

    /// A decoder for the member `key` (`null` when absent).
    func superDecoder(forKey key: Key) throws -> any Decoder {
        TapeDecoder(state: state, index: find(key) ?? -1, codingPath: path(key))
    }
}

// MARK: - Unkeyed

/// Three words (32-bit token indices), so that `any UnkeyedDecodingContainer` holds it inline (no
/// allocation per array); a value, so copies keep their own position (as JSONDecoder's).
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let state: TapeDecodingState
    /// The array's start token.
    private let array: Int32
    /// The decoder's path (`TapeDecoder.packed`).
    private let packedPath: Int32
    /// Token index of the current element (the array's end token when at the end).
    private var position32: Int32
    private var currentIndex32: Int32 = 0

    init(decoder: TapeDecoder) {
        state = decoder.state
        precondition(state.tape.count < Int(Int32.max) && decoder.packed >= Int(Int32.min) && decoder.packed <= Int(Int32.max),
                     "tape too large for 32-bit token indices")
        array = Int32(truncatingIfNeeded: decoder.index)
        packedPath = Int32(truncatingIfNeeded: decoder.packed)
        position32 = Int32(truncatingIfNeeded: decoder.index + 1)
    }

    var decoder: TapeDecoder { TapeDecoder(state: state, index: Int(array), packed: Int(packedPath)) }
    private var position: Int {
        get { Int(position32) }
        set { position32 = Int32(truncatingIfNeeded: newValue) }
    }
    /// Index of the array's end token.
    private var end: Int { state.tape[Int(array)].payload }
    var currentIndex: Int {
        get { Int(currentIndex32) }
        set { currentIndex32 = Int32(truncatingIfNeeded: newValue) }
    }
    var count: Int? { Int(state.tape[Int(array)].length) }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var isAtEnd: Bool { position >= end }

    @inline(__always)
    private func path() -> [any CodingKey] { decoder.childPath(JSONIndexKey(currentIndex)) }

    private func atEnd(_ type: Any.Type) -> DecodingError {
        .valueNotFound(type, .init(codingPath: path(), debugDescription: "Unkeyed container is at end.",
                                   underlyingError: state.location(decoder.index)))
    }

    /// Decodes the current element and moves past it only on success.
    @inline(__always)
    private mutating func next<R>(_ type: Any.Type, _ body: (TapeDecodingState, Int, () -> [any CodingKey]) throws -> R) throws -> R {
        guard position < end else { throw atEnd(type) }
        let decoder = self.decoder
        let n = currentIndex
        let result = try body(state, position, { decoder.childPath(JSONIndexKey(n)) })
        position = state.tape.indexAfterValue(at: position)
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard position < end else { throw atEnd(Any?.self) }
        if state.tape[position].kind == .null {
            position += 1
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type) { s, i, p in try s.decodeBool(i, p()) } }
    mutating func decode(_ type: String.Type) throws -> String { try next(type) { s, i, p in try s.decodeString(i, p()) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type) { s, i, p in try s.decodeDouble(i, p()) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type) { s, i, p in try s.decodeFloat(i, p()) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type) { s, i, p in try s.decodeInteger(Int.self, i, p()) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type) { s, i, p in try s.decodeInteger(Int8.self, i, p()) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type) { s, i, p in try s.decodeInteger(Int16.self, i, p()) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type) { s, i, p in try s.decodeInteger(Int32.self, i, p()) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type) { s, i, p in try s.decodeInteger(Int64.self, i, p()) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type) { s, i, p in try s.decodeInteger(UInt.self, i, p()) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type) { s, i, p in try s.decodeInteger(UInt8.self, i, p()) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type) { s, i, p in try s.decodeInteger(UInt16.self, i, p()) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type) { s, i, p in try s.decodeInteger(UInt32.self, i, p()) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type) { s, i, p in try s.decodeInteger(UInt64.self, i, p()) } }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try next(type) { s, i, p in try s.decodeInteger(Int128.self, i, p()) } }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try next(type) { s, i, p in try s.decodeInteger(UInt128.self, i, p()) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard position < end else { throw atEnd(type) }
        let result = try state.decodeChild(type, position, parent: decoder, key: JSONIndexKey(currentIndex))
        position = state.tape.indexAfterValue(at: position)
        currentIndex += 1
        return result
    }

    /// At the end and `null` are nil; in mapping mode so is an empty string for `URL?`.
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        if isAtEnd { return nil }
        if try decodeNil() { return nil }
        if !state.isFoundation, T.self == URL.self, state.tape[position].kind == .string {
            let url: URL?
            do {
                url = try state.urlCodec.decodeOptional(state.c, position)
            } catch {
                throw state.converted(error, URL.self, position, path())
            }
            position += 1
            currentIndex += 1
            return url as! T?
        }
        return try decode(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next(KeyedDecodingContainer<NestedKey>.self) { s, i, p in
            try TapeDecoder(state: s, index: i, codingPath: p()).container(keyedBy: NestedKey.self)
        }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next((any UnkeyedDecodingContainer).self) { s, i, p in
            try TapeDecoder(state: s, index: i, codingPath: p()).unkeyedContainer()
        }
    }

    mutating func superDecoder() throws -> any Decoder {
        try next((any Decoder).self) { s, i, p in TapeDecoder(state: s, index: i, codingPath: p()) }
    }
}

// MARK: - Arrays

/// Arrays decoded element by element into their storage, sized from the array token: the same values
/// and errors as `Array.init(from:)` (which appends one element at a time through unspecialized code,
/// with a metadata lookup per element).
protocol TapeDecodableArray {
    static func tapeDecode<R>(_ state: TapeDecodingState, _ index: Int, _ ref: PathRef, as: R.Type) throws -> R
}

extension Array: TapeDecodableArray where Element: Decodable {
    static func tapeDecode<R>(_ state: TapeDecodingState, _ index: Int, _ ref: PathRef, as: R.Type) throws -> R {
        assert(R.self == [Element].self, "not this array type")
        let decoder = TapeDecoder(state: state, index: index, ref: ref)
        guard state.kind(index) == .arrayStart else {
            // Not an array: the error `Array.init(from:)` gets from its unkeyed container.
            _ = try decoder.unkeyedContainer()
            preconditionFailure("unkeyedContainer() accepted a value that is not an array")
        }
        let token = state.tape[index]
        let count = Int(token.length)
        let end = token.payload
        // Common scalars in specialized code (no generic metadata lookup for the array storage).
        if Element.self == Double.self {
            return unsafeBitCast(try scalars(state, decoder, index, count, end) { s, i, p in try s.decodeDouble(i, p()) }, to: R.self)
        }
        if Element.self == Int.self {
            return unsafeBitCast(try scalars(state, decoder, index, count, end) { s, i, p in try s.decodeInteger(Int.self, i, p()) },
                                 to: R.self)
        }
        if Element.self == String.self {
            return unsafeBitCast(try scalars(state, decoder, index, count, end) { s, i, p in try s.decodeString(i, p()) }, to: R.self)
        }
        if Element.self == Int64.self {
            return unsafeBitCast(try scalars(state, decoder, index, count, end) { s, i, p in try s.decodeInteger(Int64.self, i, p()) },
                                 to: R.self)
        }
        if Element.self == Bool.self {
            return unsafeBitCast(try scalars(state, decoder, index, count, end) { s, i, p in try s.decodeBool(i, p()) }, to: R.self)
        }
        let array = try [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            var position = index + 1
            var n = 0
            while position < end && n < count {
                (buffer.baseAddress! + n).initialize(to: try state.decodeChild(Element.self, position, parent: decoder, key: JSONIndexKey(n)))
                n += 1
                initialized = n
                position = state.tape.indexAfterValue(at: position)
            }
        }
        return unsafeBitCast(array, to: R.self)
    }

    /// An array of scalars read by `read` (the element's token, its coding path on demand).
    @inline(__always)
    private static func scalars<V>(_ state: TapeDecodingState, _ decoder: TapeDecoder, _ index: Int, _ count: Int, _ end: Int,
                                   _ read: (TapeDecodingState, Int, () -> [any CodingKey]) throws -> V) throws -> [V] {
        try [V](unsafeUninitializedCapacity: count) { buffer, initialized in
            var position = index + 1
            var n = 0
            while position < end && n < count {
                let k = n
                (buffer.baseAddress! + n).initialize(to: try read(state, position, { decoder.childPath(JSONIndexKey(k)) }))
                n += 1
                initialized = n
                position = state.tape.indexAfterValue(at: position)
            }
        }
    }
}
