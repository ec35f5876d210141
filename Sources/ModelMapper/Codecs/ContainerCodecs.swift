// Unsafe code: `OptionalCodec.decode(_:_:into:)` reads and writes the `Wrapped?` at `pointer`, and
// `DictionaryCodec.decode(_:_:into:)` the `[String: Value]` at `pointer`.
//
// Invariants: `pointer` addresses an initialized value and is used only during the call, like an `inout`
// (see FieldCodec.swift); merging passes `&pointer.pointee!` (`&pointer.pointee[key]!`) on as exactly that.

/// `Wrapped?`: null is nil; a present value decodes as `Wrapped` (models merge into an existing value).
final class OptionalCodec<Wrapped>: ValueCodec<Wrapped?>, @unchecked Sendable {
    let wrapped: ValueCodec<Wrapped>
    override var reachesContext: Bool { wrapped.reachesContext }

    init(wrapped: ValueCodec<Wrapped>) {
        self.wrapped = wrapped
        super.init(takesNull: true)
    }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Wrapped? {
        if c.tape[index].kind == .null { return nil }
        return try wrapped.decodeOptional(c, index)
    }

    override func decode(_ c: DecodeContext, _ index: Int, into pointer: UnsafeMutablePointer<Wrapped?>) throws(MappingError) {
        if c.tape[index].kind == .null {
            pointer.pointee = nil
        } else if pointer.pointee != nil, wrapped.mergesInPlace {
            try wrapped.decode(c, index, into: &pointer.pointee!)
        } else {
            pointer.pointee = try wrapped.decodeOptional(c, index)
        }
    }

    override func decodeOptional(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Wrapped?? {
        try decode(c, index)
    }

    override func encode(_ value: Wrapped?, _ e: inout EncodeContext) throws(MappingError) {
        if let value { try wrapped.encode(value, &e) } else { e.writer.null() }
    }

    override func isNil(_ value: Wrapped?) -> Bool { value == nil }

    override var fieldKind: FieldKind { wrapped.fieldKind.optional }

    override var tapeFilter: TapeFilterNode? { wrapped.tapeFilter }
}

/// Iterates the elements of the array at `index`, throwing `.typeMismatch` for a non-array (or wrapping a
/// single value when the options say so), with each element's index added to error paths.
@inline(__always)
func forEachElement(
    _ c: DecodeContext, _ index: Int, takesNull: Bool, _ body: (Int) throws(MappingError) -> Void
) throws(MappingError) {
    let token = c.tape[index]
    guard token.kind == .arrayStart else {
        if c.options.wrapsSingleValues && token.kind != .objectEnd {
            // As element 0, like `decodeArray`: same error paths for every collection type.
            try decodeElement(c, index, position: 0, takesNull: takesNull, body)
            return
        }
        throw c.mismatch(expected: "an array", at: index)
    }
    let end = token.payload
    var i = index + 1
    var n = 0
    while i < end {
        try decodeElement(c, i, position: n, takesNull: takesNull, body)
        i = c.tape.indexAfterValue(at: i)
        n += 1
    }
}

/// Decodes the array at `index` into a new `[Element]` of exactly its length (known from the tape),
/// initializing elements in place: one array metadata lookup per array in unspecialized generic code,
/// rather than one per `append`.
@inline(__always)
func decodeArray<Element>(
    _ c: DecodeContext, _ index: Int, takesNull: Bool, _ decodeOne: (Int) throws(MappingError) -> Element
) throws(MappingError) -> [Element] {
    let token = c.tape[index]
    guard token.kind == .arrayStart else {
        if c.options.wrapsSingleValues && token.kind != .objectEnd {
            return [try decodeElement(c, index, position: 0, takesNull: takesNull, decodeOne)]
        }
        throw c.mismatch(expected: "an array", at: index)
    }
    let count = Int(token.length)
    // Not through `unsafeUninitializedCapacity`: for 0 it writes the count into the shared empty-array
    // singleton, a (benign) race that ThreadSanitizer reports.
    if count == 0 { return [] }
    // Short arrays (coordinate pairs, Twitter's `indices`) as array literals: in specialized code the
    // compiler allocates a literal's storage with statically known metadata (~60 instructions with
    // malloc), while `unsafeUninitializedCapacity` goes through the runtime's generic metadata lookup
    // (~450 instructions per array, measured with callgrind), which dominated decoding canada.json.
    if count <= 4 {
        var i = index + 1
        switch count {
        case 1: return [try nextElement(c, &i, 0, takesNull, decodeOne)]
        case 2:
            let a = try nextElement(c, &i, 0, takesNull, decodeOne)
            return [a, try nextElement(c, &i, 1, takesNull, decodeOne)]
        case 3:
            let a = try nextElement(c, &i, 0, takesNull, decodeOne), b = try nextElement(c, &i, 1, takesNull, decodeOne)
            return [a, b, try nextElement(c, &i, 2, takesNull, decodeOne)]
        default:
            let a = try nextElement(c, &i, 0, takesNull, decodeOne), b = try nextElement(c, &i, 1, takesNull, decodeOne)
            let d = try nextElement(c, &i, 2, takesNull, decodeOne)
            return [a, b, d, try nextElement(c, &i, 3, takesNull, decodeOne)]
        }
    }
    var failure: MappingError? = nil
    let result = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
        var i = index + 1
        while initialized < count {
            do throws(MappingError) {
                (buffer.baseAddress.unsafelyUnwrapped + initialized).initialize(
                    to: try decodeElement(c, i, position: initialized, takesNull: takesNull, decodeOne))
            } catch {
                failure = error
                return
            }
            i = c.tape.indexAfterValue(at: i)
            initialized += 1
        }
    }
    if let failure { throw failure }
    return result
}

/// Element `n` at tape index `i`, advancing `i` past it (no closure: capturing `c` would copy it).
@inline(__always)
private func nextElement<Element>(
    _ c: DecodeContext, _ i: inout Int, _ n: Int, _ takesNull: Bool, _ decodeOne: (Int) throws(MappingError) -> Element
) throws(MappingError) -> Element {
    let value = try decodeElement(c, i, position: n, takesNull: takesNull, decodeOne)
    i = c.tape.indexAfterValue(at: i)
    return value
}

/// One element: null check, the element's index in error paths (and in the report path).
@inline(__always)
private func decodeElement<R>(
    _ c: DecodeContext, _ i: Int, position n: Int, takesNull: Bool, _ body: (Int) throws(MappingError) -> R
) throws(MappingError) -> R {
    if let report = c.report { report.path.append(.init("[\(n)]")) }
    defer { if let report = c.report { report.path.removeLast() } }
    do throws(MappingError) {
        if !takesNull && c.tape[i].kind == .null {
            var error = MappingError(.typeMismatch, "null element in an array of non-optional values")
            error.tokenIndex = i
            throw error
        }
        return try body(i)
    } catch {
        var error = error
        error.prependIndex(n)
        throw error
    }
}

/// What the JSON-array codecs share: the element codec, and the tape filter that keeps, in every element,
/// what the element codec reads.
class ElementsCodec<Value, Element>: ValueCodec<Value>, @unchecked Sendable {
    let element: ValueCodec<Element>
    private let filter: TapeFilterNode?

    init(element: ValueCodec<Element>) {
        self.element = element
        filter = element.tapeFilter.map { TapeFilterNode(.array, child: $0) }
        super.init()
    }

    override final var tapeFilter: TapeFilterNode? { filter }
    override final var reachesContext: Bool { element.reachesContext }
}

/// `[Element]`: an array; null elements are an error unless `Element` is Optional.
final class ArrayCodec<Element>: ElementsCodec<[Element], Element>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> [Element] {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        let element = self.element
        return try decodeArray(c, index, takesNull: element.takesNull) { i throws(MappingError) in try element.decode(c, i) }
    }

    override func encode(_ value: [Element], _ e: inout EncodeContext) throws(MappingError) {
        if e.path != nil { return try encodeElementsTrackingPath(value, element, &e) }
        // By index, not `for in`: unspecialized (Element is generic here), a `for in` asks the runtime for
        // `IndexingIterator<[Element]>`'s metadata and witness table on every array encoded (callgrind:
        // 28% of a reflected twitter_partial encode's instructions).
        e.writer.beginArray()
        let element = self.element
        var n = 0
        while n < value.count {
            e.writer.element(first: n == 0)
            do { try element.encode(value[n], &e) } catch { var error = error; error.prependIndex(n); throw error }
            n += 1
        }
        e.writer.endArray(empty: n == 0)
    }
}

/// `ContiguousArray<Element>`.
final class ContiguousArrayCodec<Element>: ElementsCodec<ContiguousArray<Element>, Element>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> ContiguousArray<Element> {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        var result: ContiguousArray<Element> = []
        result.reserveCapacity(Int(c.tape[index].length))
        let element = self.element
        try forEachElement(c, index, takesNull: element.takesNull) { i throws(MappingError) in
            result.append(try element.decode(c, i))
        }
        return result
    }

    override func encode(_ value: ContiguousArray<Element>, _ e: inout EncodeContext) throws(MappingError) {
        try encodeElements(value, element, &e)
    }
}

/// `Set<Element>`: an array; duplicates collapse.
final class SetCodec<Element: Hashable>: ElementsCodec<Set<Element>, Element>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Set<Element> {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        var result = Set<Element>(minimumCapacity: Int(c.tape[index].length))
        let element = self.element
        try forEachElement(c, index, takesNull: element.takesNull) { i throws(MappingError) in
            result.insert(try element.decode(c, i))
        }
        return result
    }

    override func encode(_ value: Set<Element>, _ e: inout EncodeContext) throws(MappingError) {
        try encodeElements(value, element, &e)
    }
}

func encodeElements<S: Sequence>(_ value: S, _ element: ValueCodec<S.Element>, _ e: inout EncodeContext) throws(MappingError) {
    if e.path != nil { return try encodeElementsTrackingPath(value, element, &e) }
    e.writer.beginArray()
    var n = 0
    for item in value {
        e.writer.element(first: n == 0)
        do { try element.encode(item, &e) } catch { var error = error; error.prependIndex(n); throw error }
        n += 1
    }
    e.writer.endArray(empty: n == 0)
}

/// ``encodeElements(_:_:_:)`` with each element's index on `e.path` (encodes reaching a hook or
/// transformer).
@inline(never)
func encodeElementsTrackingPath<S: Sequence>(_ value: S, _ element: ValueCodec<S.Element>,
                                                     _ e: inout EncodeContext) throws(MappingError) {
    e.writer.beginArray()
    var n = 0
    for item in value {
        e.writer.element(first: n == 0)
        e.path!.append("[\(n)]")
        defer { e.path!.removeLast() }
        do { try element.encode(item, &e) } catch { var error = error; error.prependIndex(n); throw error }
        n += 1
    }
    e.writer.endArray(empty: n == 0)
}

/// `[String: Value]`: an object; duplicate keys keep the last value.
final class DictionaryCodec<Value>: ValueCodec<[String: Value]>, @unchecked Sendable {
    let value: ValueCodec<Value>
    private let filter: TapeFilterNode?
    override var reachesContext: Bool { value.reachesContext }

    init(value: ValueCodec<Value>) {
        self.value = value
        filter = value.tapeFilter.map { TapeFilterNode(.dictionary, child: $0) }
        super.init()
    }

    override var tapeFilter: TapeFilterNode? { filter }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> [String: Value] {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        let token = c.tape[index]
        guard token.kind == .objectStart else { throw c.mismatch(expected: "an object", at: index) }
        var result = [String: Value](minimumCapacity: Int(token.length))
        try forEachEntry(c, index) { key, i throws(MappingError) in result[key] = try value.decode(c, i) }
        return result
    }

    /// Merges into the dictionary held, for models (``ValueCodec/mergesInPlace``), and only below an
    /// `update` root (``DecodeContext/updatesHeldInstances``; every other decode makes a new dictionary):
    /// a key in the object updates the value held under it (a class model's instance itself, a struct
    /// model's value) or adds it; keys absent from the object keep their values (ObjectMapper's and
    /// YYModel's update). Arrays are replaced, as before.
    override func decode(_ c: DecodeContext, _ index: Int, into pointer: UnsafeMutablePointer<[String: Value]>) throws(MappingError) {
        guard c.updatesHeldInstances, value.mergesInPlace, c.tape[index].kind == .objectStart else {
            return pointer.pointee = try decode(c, index)
        }
        try forEachEntry(c, index) { key, i throws(MappingError) in
            if pointer.pointee[key] != nil {
                try value.decode(c, i, into: &pointer.pointee[key]!)
            } else {
                pointer.pointee[key] = try value.decode(c, i)
            }
        }
    }

    /// Calls `body` with each member's key and value index of the object at `index`: the key on the report
    /// path and in the path of errors thrown, a null for non-optional values refused first.
    @inline(__always)
    private func forEachEntry(_ c: DecodeContext, _ index: Int,
                              _ body: (String, Int) throws(MappingError) -> Void) throws(MappingError) {
        let end = c.tape[index].payload
        var i = index + 1
        while i < end {
            let key = try c.tape.string(at: i)
            i += 1
            // Errors reported (not thrown) inside the value need the key in their path.
            if let report = c.report { report.path.append(.init(key)) }
            defer { if let report = c.report { report.path.removeLast() } }
            do throws(MappingError) {
                if !value.takesNull && c.tape[i].kind == .null {
                    var error = MappingError(.typeMismatch, "null value in a dictionary of non-optional values")
                    error.tokenIndex = i
                    throw error
                }
                try body(key, i)
            } catch {
                var error = error
                error.prependKey(key)
                throw error
            }
            i = c.tape.indexAfterValue(at: i)
        }
    }

    override var mergesInPlace: Bool { value.mergesInPlace }

    /// Every entry is written, a nil value as null: unlike an absent property, a key with a nil value is
    /// data (as a nil element of `[T?]` is), so `[String: T?]` round-trips.
    override func encode(_ dictionary: [String: Value], _ e: inout EncodeContext) throws(MappingError) {
        e.writer.beginObject()
        var n = 0
        if e.sortsKeys {
            for (key, item) in dictionary.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                try encodeEntry(key, item, first: n == 0, &e)
                n += 1
            }
        } else {
            for (key, item) in dictionary {
                try encodeEntry(key, item, first: n == 0, &e)
                n += 1
            }
        }
        e.writer.endObject(empty: n == 0)
    }

    @inline(__always)
    private func encodeEntry(_ key: String, _ item: Value, first: Bool, _ e: inout EncodeContext) throws(MappingError) {
        e.writer.key(key, first: first)
        if e.path != nil { e.path!.append(key) }
        defer { if e.path != nil { e.path!.removeLast() } }
        do { try value.encode(item, &e) } catch { var error = error; error.prependKey(key); throw error }
    }
}

/// Enums with a raw value: the raw value as its type reads it (so lenient conversions apply), then
/// `init(rawValue:)`; an unknown raw value is `.invalidValue`, or, for a ``JSONUnknownCaseRepresentable``
/// enum, its `unknownCase` (reported, not thrown).
final class RawEnumCodec<Value: RawRepresentable>: ValueCodec<Value>, @unchecked Sendable {
    let raw: ValueCodec<Value.RawValue>
    /// The fallback for unknown raw values, read once here rather than looked up per value.
    let unknownCase: Value?

    init(raw: ValueCodec<Value.RawValue>) {
        self.raw = raw
        unknownCase = (Value.self as? any JSONUnknownCaseRepresentable.Type).map { $0.unknownCase } as? Value
        super.init()
    }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Value {
        let rawValue = try raw.decode(c, index)
        guard let value = Value(rawValue: rawValue) else {
            let error = c.invalid("\(c.describe(at: index)) is not a valid \(Value.self)", at: index)
            guard let unknownCase else { throw error }
            c.report?.record(Self.fallbackReport(error, unknownCase))
            return unknownCase
        }
        return value
    }

    /// The error reported for a value replaced by `unknownCase`.
    static func fallbackReport(_ error: MappingError, _ unknownCase: Value) -> MappingError {
        var error = error
        error.message += "; decoded as \(Value.self).\(unknownCase)"
        return error
    }

    override func encode(_ value: Value, _ e: inout EncodeContext) throws(MappingError) {
        try raw.encode(value.rawValue, &e)
    }
}
