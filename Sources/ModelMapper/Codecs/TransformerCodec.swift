/// A property read and written through a ``JSONTransformer``. For an Optional property, JSON null is nil
/// and the transformer sees only non-null values.
final class TransformerCodec<Value>: ValueCodec<Value>, @unchecked Sendable {
    private let transformer: JSONTransformer
    private let nilValue: Value?

    init(_ transformer: JSONTransformer, nilValue: Value?) {
        self.transformer = transformer
        self.nilValue = nilValue
        super.init(takesNull: nilValue != nil)
    }

    override var reachesContext: Bool { true }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Value {
        if let nilValue, c.tape[index].kind == .null { return nilValue }
        var i = index
        let json = try JSONValue(tape: c.tape, index: &i)
        let result: Any
        do {
            result = try transformer.decodeBody(json, c.mappingContext())
        } catch let error as MappingError {
            var error = error
            if error.tokenIndex == nil { error.tokenIndex = index }
            throw error
        } catch {
            throw c.invalid("transformer rejected \(c.describe(at: index)): \(error)", at: index)
        }
        guard let value = result as? Value else {
            throw MappingError(.unsupportedType, "transformer returned \(type(of: result)), expected \(Value.self)")
        }
        return value
    }

    override func encode(_ value: Value, _ e: inout EncodeContext) throws(MappingError) {
        if nilValue != nil, isNil(value) {
            e.writer.null()
            return
        }
        let json: JSONValue
        do {
            json = try transformer.encodeBody(Self.unwrapped(value), e.mappingContext())
        } catch let error as MappingError {
            throw error
        } catch {
            throw MappingError(.invalidValue, "transformer could not encode \(value): \(error)")
        }
        try JSONValueCodec.validateNumbers(json)
        e.writer.write(json)
    }

    override func isNil(_ value: Value) -> Bool {
        nilValue != nil && (value as Any as? any OptionalField).map { $0.isNone } == true
    }

    private static func unwrapped(_ value: Value) -> Any {
        (value as Any as? any OptionalField)?.someValue ?? value
    }
}

extension OptionalField {
    var isNone: Bool { someValue == nil }
}

extension Optional {
    var someValue: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}

/// Optionals, for transformers on Optional properties.
protocol OptionalField {
    static var wrappedType: Any.Type { get }
    static var nilValue: Any { get }
    /// The wrapped value, or nil.
    var someValue: Any? { get }
}
