/// Lossy collections (``ModelMapping/lossy``): each element is decoded on its own; one that fails is
/// dropped and, when the options have an invalid-value handler, reported with its path and position.
/// Encoding and the tape filter are the plain collection codec's: a lossy collection is written as any
/// other.
///
/// An element is decoded without forgiving its inner errors (``ErrorReport/forgives`` is off inside it),
/// so whether an element is dropped does not depend on a handler being installed: with one, a model
/// element with a bad `price` is dropped and reported as `items[3].price`, as without one it is dropped.
/// What was reported inside a dropped element (enum fallbacks, drops in nested lossy collections) is
/// withdrawn: the element's one report replaces it.

/// Collections a lossy codec builds element by element.
protocol LossyCollection {
    associatedtype Item
    init(lossyCapacity: Int)
    mutating func lossyAdd(_ item: Item)
}

extension Array: LossyCollection {
    init(lossyCapacity: Int) { self.init(); reserveCapacity(lossyCapacity) }
    mutating func lossyAdd(_ item: Element) { append(item) }
}

extension ContiguousArray: LossyCollection {
    init(lossyCapacity: Int) { self.init(); reserveCapacity(lossyCapacity) }
    mutating func lossyAdd(_ item: Element) { append(item) }
}

extension Set: LossyCollection {
    init(lossyCapacity: Int) { self.init(minimumCapacity: lossyCapacity) }
    mutating func lossyAdd(_ item: Element) { insert(item) }
}

/// Whether a lossy collection drops an element that failed with `error`: conversion, missing-key and
/// validation failures; never a depth-limit or unsupported-type error (those are not about the data of
/// one element, and `.syntax` cannot occur after parsing).
@inline(__always)
func isDroppable(_ error: MappingError) -> Bool {
    switch error.kind {
    case .typeMismatch, .invalidValue, .missingKey, .validation: return true
    case .syntax, .unsupportedType, .depthLimit: return false
    }
}

/// Decodes one element of a lossy collection with `component` (`[3]` or the key) on the report path;
/// nil when it was dropped (reported if there is a report), other errors thrown with the component.
@inline(__always)
func decodeLossyElement<R>(
    _ c: DecodeContext, _ i: Int, component: String, takesNull: Bool, isIndex: Bool,
    _ body: (Int) throws(MappingError) -> R
) throws(MappingError) -> R? {
    let report = c.report
    let reportedBefore = report?.errors.count ?? 0
    let forgave = report?.forgives ?? false
    if let report {
        report.path.append(.init(component))
        report.forgives = false
    }
    defer {
        if let report {
            report.path.removeLast()
            report.forgives = forgave
        }
    }
    do throws(MappingError) {
        if !takesNull && c.tape[i].kind == .null {
            var error = MappingError(.typeMismatch, "null element in a collection of non-optional values")
            error.tokenIndex = i
            throw error
        }
        return try body(i)
    } catch where isDroppable(error) {
        if let report {
            report.errors.removeSubrange(reportedBefore...)
            var dropped = error
            dropped.message = "element dropped: " + dropped.message
            report.record(dropped)
        }
        return nil
    } catch {
        var error = error
        if isIndex { error.prependComponent(component) } else { error.prependKey(component) }
        throw error
    }
}

/// A lossy array, `ContiguousArray` or set.
final class LossyElementsCodec<C: LossyCollection>: ValueCodec<C>, @unchecked Sendable {
    /// The plain codec of the collection, for encoding and the tape filter.
    let plain: ValueCodec<C>
    let element: ValueCodec<C.Item>
    override var reachesContext: Bool { element.reachesContext }

    init(plain: ValueCodec<C>, element: ValueCodec<C.Item>) {
        self.plain = plain
        self.element = element
        super.init()
    }

    override var tapeFilter: TapeFilterNode? { plain.tapeFilter }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> C {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        let token = c.tape[index]
        guard token.kind == .arrayStart else {
            if c.options.wrapsSingleValues && token.kind != .objectEnd {
                var result = C(lossyCapacity: 1)
                if let item = try item(c, index, position: 0) { result.lossyAdd(item) }
                return result
            }
            throw c.mismatch(expected: "an array", at: index)
        }
        var result = C(lossyCapacity: Int(token.length))
        var i = index + 1
        var n = 0
        while i < token.payload {
            if let item = try item(c, i, position: n) { result.lossyAdd(item) }
            i = c.tape.indexAfterValue(at: i)
            n += 1
        }
        return result
    }

    /// Element `position` at tape index `i`, or nil when dropped.
    private func item(_ c: DecodeContext, _ i: Int, position: Int) throws(MappingError) -> C.Item? {
        let element = self.element
        return try decodeLossyElement(c, i, component: "[\(position)]", takesNull: element.takesNull, isIndex: true) {
            i throws(MappingError) in try element.decode(c, i)
        }
    }

    override func encode(_ value: C, _ e: inout EncodeContext) throws(MappingError) {
        try plain.encode(value, &e)
    }
}

/// A lossy `[String: Value]`.
final class LossyDictionaryCodec<Value>: ValueCodec<[String: Value]>, @unchecked Sendable {
    let plain: DictionaryCodec<Value>
    override var reachesContext: Bool { plain.reachesContext }

    init(plain: DictionaryCodec<Value>) {
        self.plain = plain
        super.init()
    }

    override var tapeFilter: TapeFilterNode? { plain.tapeFilter }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> [String: Value] {
        if isEmbeddedJSON(c, index) { return try decodeEmbedded(c, index) { inner, i throws(MappingError) in try self.decode(inner, i) } }
        let token = c.tape[index]
        guard token.kind == .objectStart else { throw c.mismatch(expected: "an object", at: index) }
        let value = plain.value
        var result = [String: Value](minimumCapacity: Int(token.length))
        var i = index + 1
        while i < token.payload {
            let key = try c.tape.string(at: i)
            i += 1
            let item = try decodeLossyElement(c, i, component: key, takesNull: value.takesNull, isIndex: false) {
                i throws(MappingError) in try value.decode(c, i)
            }
            if let item { result[key] = item }
            i = c.tape.indexAfterValue(at: i)
        }
        return result
    }

    override func encode(_ value: [String: Value], _ e: inout EncodeContext) throws(MappingError) {
        try plain.encode(value, &e)
    }
}
