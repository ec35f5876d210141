// Unsafe code: `decodeTape` decodes the value into a one-element `withUnsafeTemporaryAllocation` slot and
// moves it out; the input's bytes (`withJSONBytes`, `withParsedInput`) are passed to the parser and to
// `TapeErrors.positioned`, which reads them to position an error.
//
// Invariants:
// - The slot is initialized exactly once, and only when decoding succeeded (`decoded`; then no failure is
//   returned): it is moved out on success, deinitialized if it was initialized on failure, and never read
//   uninitialized (asserted before the initialization and before the move).
// - The bytes are valid only during `withJSONBytes`/`withParsedInput` and never kept: errors carry offsets
//   and positions, not pointers. `positioned` reads them through `TokenLocator` and `TextPosition`.

import Foundation

extension ModelDecoder {
    /// Decodes any `Decodable` value with a `Decoder` over the parsed tape, as JSONDecoder would (its key,
    /// date, data and non-conforming float strategies, `userInfo`).
    ///
    /// `JSONMappable` types met on the way (at the root or nested) are decoded by their mapping with
    /// ``options``.
    ///
    /// - Throws: `DecodingError` with the coding path as JSONDecoder throws it; the context's
    ///   `debugDescription` ends with the position in the input (`(line 3, column 12)`), and its
    ///   `underlyingError` is a ``MappingError`` with that position (``MappingError/line``,
    ///   ``MappingError/column``, ``MappingError/offset``), the kind and the path as a property path. Invalid
    ///   JSON is `DecodingError.dataCorrupted`. Every call of `decode` with a `Decodable` type throws these,
    ///   whatever the static type at the call site (a ``JSONCodable`` model named or generic alike).
    public func decode<T: Decodable, Input: JSONInput>(_ type: T.Type, from json: Input) throws -> T {
        try decodeCodable(type, from: json, usesMapping: true)
    }

    /// Decodes any `Decodable` value through `init(from:)` only, ignoring `JSONMappable` conformances —
    /// what `JSONDecoder` does with the same type. For the benchmarks (which compare the two this way) and
    /// tests only: not part of the public API (`@_spi(Benchmarks) import ModelMapper`).
    @_spi(Benchmarks)
    public func decodeUsingCodable<T: Decodable, Input: JSONInput>(_ type: T.Type, from json: Input) throws -> T {
        try decodeCodable(type, from: json, usesMapping: false)
    }

    /// A model that is also `Decodable` (a ``JSONCodable`` model): decoded by its mapping, with the errors
    /// of ``decode(_:from:)-(T.Type,_)`` — the same value and the same `DecodingError` as when the call
    /// sees only `Decodable` (inside `func f<T: Decodable>`). Without this overload the `JSONMappable` one
    /// would be chosen, which throws ``MappingError`` for models that are not `Decodable`.
    public func decode<M: MappedJSONModel & Decodable, Input: JSONInput>(_ type: M.Type, from json: Input) throws -> M {
        try decodeCodable(type, from: json, usesMapping: true)
    }

    /// A top-level array of models that are also `Decodable`: as ``decode(_:from:)-(T.Type,_)`` decodes it.
    public func decode<M: MappedJSONModel & Decodable, Input: JSONInput>(_ type: [M].Type, from json: Input) throws -> [M] {
        try decodeCodable(type, from: json, usesMapping: true)
    }

    /// A top-level object of models that are also `Decodable`: as ``decode(_:from:)-(T.Type,_)`` decodes it.
    public func decode<M: MappedJSONModel & Decodable, Input: JSONInput>(_ type: [String: M].Type, from json: Input) throws -> [String: M] {
        try decodeCodable(type, from: json, usesMapping: true)
    }

    // MARK: Configuration

    /// Decodes a `DecodableWithConfiguration` value (its `init(from:configuration:)`), as JSONDecoder's
    /// `decode(_:from:configuration:)`.
    public func decode<T: DecodableWithConfiguration, Input: JSONInput>(_ type: T.Type, from json: Input,
                                                                        configuration: T.DecodingConfiguration) throws -> T {
        try decodeTape(from: json, usesMapping: true) { state, index in
            try type.init(from: TapeDecoder(state: state, index: index, ref: .stack(state.keyStack.count)), configuration: configuration)
        }
    }

    /// Decodes a `DecodableWithConfiguration` value with the configuration `C` provides.
    public func decode<T: DecodableWithConfiguration, C: DecodingConfigurationProviding, Input: JSONInput>(
        _ type: T.Type, from json: Input, configuration: C.Type
    ) throws -> T where T.DecodingConfiguration == C.DecodingConfiguration {
        try decode(type, from: json, configuration: C.decodingConfiguration)
    }

    // MARK: Root paths

    /// Decodes any `Decodable` value at a key path of the document (`"data.user"`), as
    /// ``decode(_:from:)-(T.Type,_)`` decodes the document; the rest of the document is skipped.
    ///
    /// - Throws: `DecodingError.keyNotFound` when a key on the path is absent, `.typeMismatch` when a value on
    ///   it is not an object, each with the coding path up to there; errors inside the value have the root
    ///   path's keys in front of their coding path.
    public func decode<T: Decodable, Input: JSONInput>(_ type: T.Type, from json: Input, at path: MappingKey) throws -> T {
        try decodeCodable(type, from: json, usesMapping: true, at: try RootPath(path))
    }

    /// A model that is also `Decodable`, at a key path: as ``decode(_:from:at:)-(T.Type,_,_)`` decodes it
    /// (`DecodingError`s, whatever the static type at the call site).
    public func decode<M: MappedJSONModel & Decodable, Input: JSONInput>(_ type: M.Type, from json: Input,
                                                                      at path: MappingKey) throws -> M {
        try decodeCodable(type, from: json, usesMapping: true, at: try RootPath(path))
    }

    /// An array of models that are also `Decodable`, at a key path: as ``decode(_:from:at:)-(T.Type,_,_)``.
    public func decode<M: MappedJSONModel & Decodable, Input: JSONInput>(_ type: [M].Type, from json: Input,
                                                                      at path: MappingKey) throws -> [M] {
        try decodeCodable(type, from: json, usesMapping: true, at: try RootPath(path))
    }

    /// An object of models that are also `Decodable`, at a key path: as ``decode(_:from:at:)-(T.Type,_,_)``.
    public func decode<M: MappedJSONModel & Decodable, Input: JSONInput>(_ type: [String: M].Type, from json: Input,
                                                                      at path: MappingKey) throws -> [String: M] {
        try decodeCodable(type, from: json, usesMapping: true, at: try RootPath(path))
    }

    var foundationStrategies: FoundationDecodingStrategies {
        var s = FoundationDecodingStrategies()
        s.keys = keyDecodingStrategy
        s.dates = dateDecodingStrategy
        s.data = dataDecodingStrategy
        s.nonConformingFloats = nonConformingFloatDecodingStrategy
        s.userInfo = userInfo
        return s
    }

    /// `json` inside braces when ``assumesTopLevelDictionary`` is set and it does not open an object.
    func bracedIfAssumed<Input: JSONInput>(_ json: Input) -> [UInt8]? {
        guard assumesTopLevelDictionary else { return nil }
        return json.withJSONBytes(TopLevelDictionary.braced)
    }

    func decodeCodable<T: Decodable, Input: JSONInput>(_ type: T.Type, from json: Input, usesMapping: Bool,
                                                       at root: RootPath? = nil) throws -> T {
        try decodeTape(from: json, usesMapping: usesMapping, at: root) { state, index in
            try state.decodeValue(type, index, .stack(state.keyStack.count))
        }
    }

    /// Parses `json` and calls `read` with the Codable decoding state and the root value's token (the
    /// value at `root` when given); errors become `DecodingError`s with the input position.
    func decodeTape<T, Input: JSONInput>(from json: Input, usesMapping: Bool, at root: RootPath? = nil,
                                         _ read: (TapeDecodingState, Int) throws -> T) throws -> T {
        if let braced = bracedIfAssumed(json) { return try decodeTape(from: braced, usesMapping: usesMapping, at: root, read) }
        var options = codableModelOptions
        options.invalidValueHandler = nil
        let strategies = foundationStrategies
        let models = try MetaCache.forDecoding(options)
        options.codableStrategies = codableValueStrategies(for: options, models: models)
        // The value is written into a stack slot and moved out (neither a `Result` nor an optional: no
        // copy of the value, no metadata lookup for a wrapper type).
        return try withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { slot in
            let value = slot.baseAddress!
            var decoded = false
            let failure: (any Error)? = json.withJSONBytes { bytes in
                do {
                    let filter = root?.filter(leaf: nil)
                    return try withParsedInput(bytes, depthLimit: options.depthLimit, filter: filter, allowsTrailingCommas: true) { tape, bytes throws(MappingError) in
                        // A `.custom` key strategy: models are read through `init(from:)`, as JSONDecoder reads them.
                        var state = TapeDecodingState.begin(tape: tape, context: DecodeContext(tape: tape, options: options),
                                                            mode: .foundation, models: models, strategies: strategies,
                                                            usesMapping: usesMapping && strategies.mapsModelsDirectly)
                        defer { TapeDecodingState.end(&state) }
                        var index = 0
                        if let root {
                            switch root.find(tape) {
                            case .value(let found, let path):
                                index = found
                                state.keyStack = path.map(JSONStringKey.init)
                            case .missing(let path, let depth, let object):
                                let error = DecodingError.keyNotFound(JSONStringKey(path[depth]), .init(
                                    codingPath: path[..<depth].map(JSONStringKey.init),
                                    debugDescription: "No value associated with key \"\(path[depth])\" on the root path \(RootPath.text(path))."))
                                return TapeErrors.positioned(error, index: tape.documentOrdinal(of: object), in: bytes)
                            case .notObject(let path, let depth, let found):
                                let error = DecodingError.typeMismatch([String: Any].self, .init(
                                    codingPath: path[..<depth].map(JSONStringKey.init),
                                    debugDescription: "Expected to decode Dictionary<String, Any> on the root path \(RootPath.text(path)) but found \(tape[found].kind.typeDescription) instead."))
                                return TapeErrors.positioned(error, index: tape.documentOrdinal(of: found), in: bytes)
                            }
                        }
                        do {
                            assert(!decoded, "the value slot is initialized twice")
                            value.initialize(to: try read(state, index))
                            decoded = true
                            return nil
                        } catch {
                            // A root path filters the tape: positions are counted in the document.
                            let index = state.tokenIndex(of: error, root: 0).map(tape.documentOrdinal(of:))
                            return TapeErrors.positioned(error, index: index, in: bytes)
                        }
                    }
                } catch {
                    // Invalid JSON (positioned by the tokenizer).
                    return DecodingError.dataCorrupted(.init(
                        codingPath: [], debugDescription: "The given data was not valid JSON: \(error)", underlyingError: error))
                }
            }
            if let failure {
                if decoded { value.deinitialize(count: 1) }
                throw failure
            }
            assert(decoded, "an uninitialized value slot is moved out")
            return value.move()
        }
    }
}

enum TapeErrors {
    /// `error` with the input position of token `index` at the end of its debug description, and as its
    /// underlying error a ``MappingError`` with that position (line, column, byte offset), the kind and
    /// message of the codec or model that failed (else ones made from the DecodingError) and the coding
    /// path rendered as a property path — what `init(json:)` would report. An underlying error of the
    /// caller's own (thrown by an `init(from:)`) is kept as it is.
    static func positioned(_ error: any Error, index: Int?, in bytes: UnsafeRawBufferPointer) -> any Error {
        guard let decoding = error as? DecodingError else { return error }
        var position: (offset: Int, text: TextPosition)?
        if let index, let offset = TokenLocator.offset(ofToken: index, in: bytes) {
            position = (offset, TextPosition.of(offset: offset, in: bytes))
        }
        let suffix = position.map { " (line \($0.text.line), column \($0.text.column))" } ?? ""
        func structured(_ underlying: (any Error)?) -> (any Error)? {
            var result: MappingError
            switch underlying {
            case nil:
                guard let made = CodingPathRendering.mappingError(from: decoding) else { return nil }
                result = made
            case is TapeLocation where CodingPathRendering.modelError(from: decoding) != nil:
                // A mapped model's error: its own path (properties) and JSON path (the document's keys).
                result = CodingPathRendering.modelError(from: decoding)!
            case let location as TapeLocation:
                guard let made = CodingPathRendering.mappingError(from: decoding) else { return nil }
                result = made
                if let failed = location.error {
                    result.kind = failed.kind
                    result.message = failed.message
                    result.missingProperties = failed.missingProperties
                }
            case let mapping as MappingError where mapping.line == nil:
                result = mapping
            default:
                return underlying
            }
            result.tokenIndex = nil
            if let position {
                result.line = position.text.line
                result.column = position.text.column
                result.offset = position.offset
            }
            return result
        }
        func rebuilt(_ c: DecodingError.Context) -> DecodingError.Context {
            .init(codingPath: c.codingPath, debugDescription: c.debugDescription + suffix, underlyingError: structured(c.underlyingError))
        }
        switch decoding {
        case .typeMismatch(let type, let c): return DecodingError.typeMismatch(type, rebuilt(c))
        case .valueNotFound(let type, let c): return DecodingError.valueNotFound(type, rebuilt(c))
        case .keyNotFound(let key, let c): return DecodingError.keyNotFound(key, rebuilt(c))
        case .dataCorrupted(let c): return DecodingError.dataCorrupted(rebuilt(c))
        @unknown default: return error
        }
    }
}
