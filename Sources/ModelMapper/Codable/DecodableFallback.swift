/// Property types ModelMapper does not handle natively but that are `Decodable` (and `Encodable` for
/// writing) go through Codable, from the same tokens.
enum DecodableFallback {
    static func codec(for type: any Decodable.Type, models: any MappedModelCodecs) throws(MappingError) -> FieldCodec {
        func open<D: Decodable>(_: D.Type) -> FieldCodec { DecodableCodec<D>(models: models) }
        return open(type)
    }
}

/// Decodes a `Decodable` value with the tape decoder (mapping mode: the model's options) from the tokens
/// at the property's key, and encodes it (when `Encodable`) into the same output (streamed; the tree encoder
/// when the stream cannot be used).
/// Errors are `MappingError`s: the coding path becomes the property path below the property, and the
/// position is the failing member's.
final class DecodableCodec<Value: Decodable>: ValueCodec<Value>, @unchecked Sendable {
    /// The codecs of mapped models met inside the value: the cache holding this codec's model, `unowned`
    /// as ``ModelCodec/cache``.
    private unowned let models: any MappedModelCodecs

    init(models: any MappedModelCodecs) {
        self.models = models
        super.init()
    }

    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Value {
        var state = TapeDecodingState.begin(tape: c.tape, context: c, mode: .mapping, models: models)
        defer { TapeDecodingState.end(&state) }
        do {
            return try state.decodeValue(Value.self, index, .stack(0))
        } catch let error as MappingError {
            var error = error
            if error.tokenIndex == nil { error.tokenIndex = index }
            throw error
        } catch {
            let at = state.tokenIndex(of: error, root: index) ?? index
            if var mapped = CodingPathRendering.mappingError(from: error) {
                mapped.tokenIndex = at
                throw mapped
            }
            throw c.invalid("\(Value.self) could not be decoded: \(error)", at: at)
        }
    }

    override func encode(_ value: Value, _ e: inout EncodeContext) throws(MappingError) {
        guard let encodable = value as? any Encodable else {
            throw MappingError(.unsupportedType, "\(Value.self) is Decodable but not Encodable")
        }
        do {
            // Streamed into the output when it can be (see StreamingEncoder.swift), else through the tree.
            if !e.sortsKeys {
                let stream = TapeEncodingState(mode: .mapping, options: e.options, models: models)
                let mark = e.writer.mark
                func streamed<E: Encodable>(_ value: E) throws -> Bool { try stream.streamRoot(value) }
                swap(&stream.out, &e)
                let done: Bool
                do {
                    done = try streamed(encodable)
                } catch {
                    swap(&stream.out, &e)
                    throw error
                }
                swap(&stream.out, &e)
                if done { return }
                e.writer.reset(to: mark)
            }
            let state = TapeEncodingState(mode: .mapping, options: e.options, models: models)
            func box<E: Encodable>(_ value: E) throws -> EncodedNode { try state.box(value, []) }
            let node = try box(encodable)
            try state.throwRefusal()
            try state.write(node, &e)
        } catch let error as MappingError {
            throw error
        } catch {
            if let mapped = CodingPathRendering.mappingError(from: error) { throw mapped }
            throw MappingError(.invalidValue, "\(Value.self) could not be encoded: \(error)")
        }
    }
}
