/// Property types ModelMapper does not handle natively but that are `Decodable` (and `Encodable` for
/// writing) go through Codable, from the same tokens.
enum DecodableFallback {
    static func codec(for type: any Decodable.Type) throws(MappingError) -> FieldCodec {
        func open<D: Decodable>(_: D.Type) -> FieldCodec { DecodableCodec<D>() }
        return open(type)
    }
}

/// Decodes a `Decodable` value with a `Decoder` over the JSON value at the property's key, and encodes it
/// (when `Encodable`) with an `Encoder` producing a JSON value.
final class DecodableCodec<Value: Decodable>: ValueCodec<Value>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Value {
        var i = index
        let json = try JSONValue(tape: c.tape, index: &i)
        do {
            return try Value(from: JSONValueDecoder(value: json, options: c.options))
        } catch let error as MappingError {
            var error = error
            if error.tokenIndex == nil { error.tokenIndex = index }
            throw error
        } catch {
            throw c.invalid("\(Value.self) could not be decoded: \(error)", at: index)
        }
    }

    override func encode(_ value: Value, _ e: inout EncodeContext) throws(MappingError) {
        guard let encodable = value as? any Encodable else {
            throw MappingError(.unsupportedType, "\(Value.self) is Decodable but not Encodable")
        }
        let json: JSONValue
        do {
            json = try JSONValueEncoder(options: e.options).encode(encodable)
        } catch let error as MappingError {
            throw error
        } catch {
            throw MappingError(.invalidValue, "\(Value.self) could not be encoded: \(error)")
        }
        try JSONValueCodec.validateNumbers(json)
        e.writer.write(json)
    }
}
