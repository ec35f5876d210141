// Unsafe code: codecs read and write values of their type at raw field addresses.
//
// Invariants: `decodeField`, `encodeField` and `isNilField` are given the address of an initialized value
// of exactly `valueType` (`valueSize` bytes) inside model memory (the decoding loop checks this; see
// ModelMeta.swift), so `ValueCodec` binds it to `Value`; `decode(_:_:into:)` and `encode(at:_:)` use the
// typed pointer only during the call, like an `inout`.

/// What every codec needs while decoding: the parsed tape and the options.
struct DecodeContext {
    let tape: TapeView
    let options: DecodingOptions
    let lenient: Bool
    /// Collects errors that `invalidValueHandler` turns into reports; nil when errors are thrown.
    let report: ErrorReport?
    /// Whether nested class models are decoded into the instances their properties hold: only below the
    /// root of an `update` (YYModel's update). Everywhere else a class model read from JSON is a new
    /// instance, so a decode never writes into an object it did not create (a shared default).
    var updatesHeldInstances = false

    init(tape: TapeView, options: DecodingOptions, report: ErrorReport? = nil) {
        self.tape = tape
        self.options = options
        lenient = options.conversion == .lenient
        self.report = report
    }

    /// A context for another tape of the same decode (a hook's rewritten object, an embedded document):
    /// the same options, report and update mode.
    func over(_ tape: TapeView) -> DecodeContext {
        var context = DecodeContext(tape: tape, options: options, report: report)
        context.updatesHeldInstances = updatesHeldInstances
        return context
    }

    /// This context for a value the decode makes (not one an update's root holds): nested class models
    /// below it are new instances.
    var makingNewInstances: DecodeContext {
        var context = self
        context.updatesHeldInstances = false
        return context
    }

    /// A type-mismatch error for the value at `index`.
    func mismatch(expected: String, at index: Int) -> MappingError {
        var error = MappingError(.typeMismatch, "expected \(expected), found \(describe(at: index))")
        error.tokenIndex = index
        return error
    }

    /// An invalid-value error for the value at `index`.
    func invalid(_ message: String, at index: Int) -> MappingError {
        var error = MappingError(.invalidValue, message)
        error.tokenIndex = index
        return error
    }

    /// The value at `index` for messages: scalars with their text (shortened), containers by type.
    func describe(at index: Int) -> String {
        let token = tape[index]
        switch token.kind {
        case .number:
            return "the number " + Self.shortened(tape.text(token))
        case .string:
            return "the string \"" + Self.shortened(tape.text(token)) + "\""
        case .trueValue: return "true"
        case .falseValue: return "false"
        case .foreign: return ForeignValues.describe(tape.foreignValue(at: index))
        default: return token.kind.typeDescription
        }
    }

    static func shortened(_ text: String) -> String {
        text.utf8.count <= 40 ? text : String(text.prefix(37)) + "..."
    }
}

/// Errors kept instead of thrown (``DecodingOptions/invalidValueHandler``), with the property path built
/// while descending, since a caught error does not travel up through the parents.
///
/// Also the path tracker of a decode that may call a hook or transformer (``FieldCodec/reachesContext``):
/// then it exists without a handler, made with `forgiving: false` (nothing is forgiven, what is recorded
/// is never delivered), only so that ``MappingContext/path`` can be read from `path`.
final class ErrorReport {
    /// One step of ``path``: a property name (with the JSON key it was read from, when that differs), an
    /// element index (`[3]`) or a dictionary key.
    struct Component {
        var name: String
        /// The key as the document spells it; nil: `name`.
        var jsonKey: String?

        init(_ name: String, jsonKey: String? = nil) {
            self.name = name
            self.jsonKey = jsonKey
        }
    }

    var errors: [MappingError] = []
    var path: [Component] = []
    /// Whether a property's conversion error is recorded (the property keeping its value) rather than
    /// thrown; off inside an element of a lossy collection, which drops the element instead, and in a
    /// report that only tracks the path.
    var forgives: Bool
    /// Components in front of `path` in ``MappingContext/path`` only (a JSON Lines record's `[12]`, which
    /// the record decoder puts in front of errors itself).
    var contextPrefix: [String] = []

    init(forgiving: Bool = true) {
        forgives = forgiving
    }

    func record(_ error: MappingError) {
        var error = error
        for component in path.reversed() {
            if component.name.first == "[" {
                error.prependComponent(component.name)
            } else {
                error.prependKey(component.name, jsonKey: component.jsonKey)
            }
        }
        errors.append(error)
    }

    /// `path` written as ``MappingError/path`` (`statuses[3].user`).
    var pathString: String {
        var text = ""
        for component in contextPrefix + path.map(\.name) {
            if component.first == "[" || text.isEmpty { text += component } else { text += "." + component }
        }
        return text
    }
}

extension DecodeContext {
    /// The context handed to a hook or transformer running at the current position: built only when one
    /// is called. The path is known when the decode tracks it (see ``ErrorReport``), else "".
    func mappingContext() -> MappingContext {
        MappingContext(userInfo: options.userInfo, path: report?.pathString ?? "")
    }
}

/// Decodes and encodes one Swift type at a raw field address; one instance per property type, built when
/// the model's metadata is built (so nothing is looked up per value).
///
/// Subclasses are `ValueCodec<Value>`; this type-erased base lets `PropertyMeta` hold any of them.
///
/// `@unchecked Sendable` (the one claim for every codec): a codec does not change once its model's
/// metadata is built. Codecs store only `let`s set in `init` (other codecs, filter nodes, `Sendable`
/// transformers, constants), except `ModelCodec.meta`, which the builder sets once, under `MetaCache`'s
/// build lock, before the codec is reachable from any other thread. Decoding state lives in
/// `DecodeContext` and `EncodeContext`, never in a codec. Swift makes every subclass restate the inherited
/// `@unchecked Sendable` ("must restate inherited '@unchecked Sendable' conformance"); those restatements
/// rest on this comment, and a subclass adding mutable state must not restate it.
class FieldCodec: @unchecked Sendable {
    /// Whether JSON `null` is a value of this type (Optional, JSONValue). Otherwise a null leaves a
    /// property unchanged and is an error inside collections.
    let takesNull: Bool
    /// The Swift type handled.
    let valueType: Any.Type
    /// `MemoryLayout.size` of `valueType`: the bytes a field of it occupies.
    let valueSize: Int

    init(valueType: Any.Type, valueSize: Int, takesNull: Bool) {
        self.valueType = valueType
        self.valueSize = valueSize
        self.takesNull = takesNull
    }

    /// Decodes the value at tape `index` into the initialized field at `field`.
    func decodeField(_ c: DecodeContext, _ index: Int, _ field: UnsafeMutableRawPointer) throws(MappingError) {
        fatalError("abstract")
    }

    /// Encodes the initialized field at `field`.
    func encodeField(_ field: UnsafeRawPointer, _ e: inout EncodeContext) throws(MappingError) {
        fatalError("abstract")
    }

    /// Whether the field holds nil (omitted on encoding unless nulls are written).
    func isNilField(_ field: UnsafeRawPointer) -> Bool { false }

    /// Drops a model codec's reference to its meta (a cache being freed breaks the cycle); nothing here.
    func releaseMeta() {}

    /// The decoding loop's built-in path for this codec's type, or `.codec` to call the codec.
    var fieldKind: FieldKind { .codec }

    /// What the tape must record of a value this codec decodes; nil records the value whole. Models and
    /// collections of models return a node so that members no model reads are skipped while parsing.
    var tapeFilter: TapeFilterNode? { nil }

    /// Whether decoding or encoding a value with this codec may call a hook or a transformer, which is
    /// handed the value's path: then the decode or encode tracks the path from its root (see
    /// ``ErrorReport``). Containers answer for their elements, models for their metadata (computed once,
    /// when the metadata is built); other codecs never call one.
    var reachesContext: Bool { false }
}

/// A codec for values of type `Value`.
class ValueCodec<Value>: FieldCodec, @unchecked Sendable {
    init(takesNull: Bool = false) {
        super.init(valueType: Value.self, valueSize: MemoryLayout<Value>.size, takesNull: takesNull)
    }

    /// Decodes a new value from the tape at `index`.
    func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Value {
        fatalError("abstract")
    }

    /// Decodes into existing storage; models override this to decode in place (merging).
    func decode(_ c: DecodeContext, _ index: Int, into pointer: UnsafeMutablePointer<Value>) throws(MappingError) {
        pointer.pointee = try decode(c, index)
    }

    /// Decodes for an Optional wrapper; a codec may map some values to nil (an empty URL string).
    func decodeOptional(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Value? {
        try decode(c, index)
    }

    /// Writes `value` as JSON.
    func encode(_ value: Value, _ e: inout EncodeContext) throws(MappingError) {
        fatalError("abstract")
    }

    /// Whether `decode(_:_:into:)` merges into the existing value (struct models) rather than replacing it.
    var mergesInPlace: Bool { false }

    /// Whether `value` is nil (Optional codecs).
    func isNil(_ value: Value) -> Bool { false }

    override final func decodeField(_ c: DecodeContext, _ index: Int, _ field: UnsafeMutableRawPointer) throws(MappingError) {
        try decode(c, index, into: field.assumingMemoryBound(to: Value.self))
    }

    override final func encodeField(_ field: UnsafeRawPointer, _ e: inout EncodeContext) throws(MappingError) {
        try encode(at: field.assumingMemoryBound(to: Value.self), &e)
    }

    /// Writes the value stored at `pointer`; models override this to read their fields in place instead
    /// of copying the whole value (and retaining every field) first.
    func encode(at pointer: UnsafePointer<Value>, _ e: inout EncodeContext) throws(MappingError) {
        try encode(pointer.pointee, &e)
    }

    override final func isNilField(_ field: UnsafeRawPointer) -> Bool {
        isNil(field.assumingMemoryBound(to: Value.self).pointee)
    }
}

/// Where code below `Model/` finds the codec of a mapped model type: `Model/`'s `MetaCache` implements
/// it and hands itself to the Codable bridge (`TapeDecodingState`, `TapeEncodingState`), so the bridge needs
/// no name from `Model/` and the folders depend one way (Model uses Codable, never the reverse).
protocol MappedModelCodecs: AnyObject, Sendable {
    /// The codec of model type `M`, built on first use.
    func mappedCodec<M: MappedJSONModel>(for type: M.Type) throws(MappingError) -> ValueCodec<M>
}
