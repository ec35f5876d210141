import Foundation

// Error building for the Codable decoder: DecodingErrors as JSONDecoder throws them, each carrying the
// token it refers to (`TapeLocation`), and the token a coding path leads to.

/// The token a `DecodingError` refers to, kept as the context's underlying error until the entry point
/// replaces it with a positioned ``MappingError`` (`TapeErrors.positioned`): `error` when a codec or a model
/// failed (its kind and message), else one made from the DecodingError.
struct TapeLocation: Error {
    let index: Int
    var error: MappingError? = nil
    /// Whether the coding path ends with `error`'s own ``MappingError/jsonPath`` (a mapped model's error,
    /// ``TapeDecodingState/convertedModelError(_:_:_:_:)``), so the entry point can give the underlying
    /// error the model's property path in front of which the coding path's outer part goes.
    var pathEndsWithError = false
}

extension TapeDecodingState {
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
    /// The coding path names the document's keys (``CodingPathRendering/decodingError(_:_:under:underlying:)``).
    func convertedModelError(_ error: MappingError, _ type: Any.Type, _ index: Int, _ path: [any CodingKey]) -> DecodingError {
        let at = error.tokenIndex ?? index
        var location = location(at, error)
        location?.pathEndsWithError = true
        return CodingPathRendering.decodingError(error, type, under: path, underlying: location)
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
