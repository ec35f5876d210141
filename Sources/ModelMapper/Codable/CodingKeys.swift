import Foundation

// Coding keys and coding-path helpers shared by the tape decoder and the encoder.

/// The key of an element of an unkeyed container: `Index n`, as Foundation's own decoders name it;
/// rendered as `[n]` in `MappingError` paths.
struct JSONIndexKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// A plain string key (`super`, dictionary keys, keys made by a key strategy).
struct JSONStringKey: CodingKey {
    let stringValue: String
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { stringValue = String(intValue) }
    var intValue: Int? { nil }
}

enum CodingPathRendering {
    /// `items[2].count`: keys by their string value joined by ".", unkeyed positions as `[n]` — ours and
    /// the standard library's (`Index 4`, as in `DecodingError.dataCorruptedError(in: unkeyedContainer)`).
    /// Other integer keys (`Int`-keyed dictionaries, `Int` coding keys) are object members: by name.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key as? JSONIndexKey {
                text += "[\(index.index)]"
            } else if let n = key.intValue, key.stringValue == "Index \(n)" {
                text += "[\(n)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }

    /// The components of ``render(_:)``'s path (`"items"`, `"[2]"`), as the decoders track them for
    /// ``MappingContext/path``.
    static func components(_ path: [any CodingKey]) -> [String] {
        path.map { key in
            if let index = key as? JSONIndexKey { return "[\(index.index)]" }
            if let n = key.intValue, key.stringValue == "Index \(n)" { return "[\(n)]" }
            return key.stringValue
        }
    }

    /// Coding keys for a rendered `MappingError` path (`statuses[3].user.id`), for DecodingErrors built
    /// from a model's error.
    static func keys(_ path: String) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var current = ""
        var i = path.startIndex
        func flush() {
            if !current.isEmpty { keys.append(JSONStringKey(current)); current = "" }
        }
        while i < path.endIndex {
            let ch = path[i]
            if ch == "." {
                flush()
            } else if ch == "[", let close = path[i...].firstIndex(of: "]") {
                flush()
                let inner = path[path.index(after: i)..<close]
                if let n = Int(inner) { keys.append(JSONIndexKey(n)) } else { keys.append(JSONStringKey(String(inner))) }
                i = close
            } else {
                current.append(ch)
            }
            i = path.index(after: i)
        }
        flush()
        return keys
    }

    /// Puts `prefix` (a rendered coding path) in front of an error's path, which is relative to it.
    static func prepend(_ prefix: String, to error: inout MappingError) {
        guard !prefix.isEmpty else { return }
        error.prependKey(prefix)  // to the JSON path too, where it differs
    }

    /// A mapped model's error as the DecodingError a Codable decode throws in its place, for
    /// ``ModelDecoder`` (the model on the tape) and for `init(from:)` of any other decoder alike, so that
    /// both give the same case: the coding path is `codingPath` followed by the error's
    /// ``MappingError/jsonPath`` (the keys as the document spells them, as JSONDecoder's coding path names
    /// them: `user_id`, not the property `userID`); `.typeMismatch` is `typeMismatch`, `.missingKey`
    /// `keyNotFound` of the missing key (`valueNotFound` when the key holds `null`, as JSONDecoder says
    /// it), every other kind `dataCorrupted`.
    static func decodingError(_ error: MappingError, _ type: Any.Type, under codingPath: [any CodingKey],
                              underlying: (any Error)?) -> DecodingError {
        let full = codingPath + keys(error.jsonPath)
        let context = DecodingError.Context(codingPath: full, debugDescription: error.message, underlyingError: underlying)
        switch error.kind {
        case .typeMismatch: return .typeMismatch(type, context)
        case .missingKey where error.valueIsNull:
            return .valueNotFound(type, context)
        case .missingKey:
            guard let last = full.last else { return .dataCorrupted(context) }
            return .keyNotFound(last, .init(codingPath: Array(full.dropLast()), debugDescription: error.message,
                                            underlyingError: underlying))
        default: return .dataCorrupted(context)
        }
    }

    /// A mapped model's error carried by a DecodingError (``decodingError(_:_:under:underlying:)``): the
    /// model's own error, its property path and JSON path behind the outer part of the coding path.
    static func modelError(from decoding: DecodingError) -> MappingError? {
        let context: DecodingError.Context, full: [any CodingKey]
        switch decoding {
        case .keyNotFound(let key, let c): (context, full) = (c, c.codingPath + [key])
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): (context, full) = (c, c.codingPath)
        @unknown default: return nil
        }
        guard let location = context.underlyingError as? TapeLocation, location.pathEndsWithError,
              var error = location.error else { return nil }
        prepend(render(Array(full.dropLast(keys(error.jsonPath).count))), to: &error)
        return error
    }

    /// A Foundation coding error (ours or thrown by user code in `init(from:)` / `encode(to:)`) as a
    /// `MappingError` whose path is the coding path.
    static func mappingError(from error: any Error) -> MappingError? {
        if let decoding = error as? DecodingError {
            if let model = modelError(from: decoding) { return model }
            switch decoding {
            case .typeMismatch(_, let context):
                return MappingError(.typeMismatch, context.debugDescription, path: render(context.codingPath))
            case .valueNotFound(_, let context):
                return MappingError(.typeMismatch, context.debugDescription, path: render(context.codingPath))
            case .keyNotFound(let key, let context):
                return MappingError(.missingKey, context.debugDescription, path: render(context.codingPath + [key]))
            case .dataCorrupted(let context):
                return MappingError(.invalidValue, context.debugDescription, path: render(context.codingPath))
            @unknown default:
                return MappingError(.invalidValue, "\(decoding)")
            }
        }
        if let encoding = error as? EncodingError {
            switch encoding {
            case .invalidValue(_, let context):
                return MappingError(.invalidValue, context.debugDescription, path: render(context.codingPath))
            @unknown default:
                return MappingError(.invalidValue, "\(encoding)")
            }
        }
        return nil
    }
}

/// Foundation's key conversions, exactly as `JSONDecoder`/`JSONEncoder` implement them.
enum FoundationKeys {
    /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`: leading and trailing underscores kept,
    /// words between underscores capitalized after the first, the first word as is (not lowercased).
    static func fromSnakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        guard let firstNonUnderscore = key.firstIndex(where: { $0 != "_" }) else { return key }
        var lastNonUnderscore = key.index(before: key.endIndex)
        while lastNonUnderscore > firstNonUnderscore && key[lastNonUnderscore] == "_" {
            key.formIndex(before: &lastNonUnderscore)
        }
        let keyRange = firstNonUnderscore...lastNonUnderscore
        let trailing = key.index(after: lastNonUnderscore)..<key.endIndex
        let components = key[keyRange].split(separator: "_")
        let joined: String
        if components.count == 1 {
            joined = String(key[keyRange])
        } else {
            joined = ([components[0].lowercased()] + components[1...].map { $0.capitalized }).joined()
        }
        return String(key[key.startIndex..<firstNonUnderscore]) + joined + String(key[trailing])
    }

    /// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`.
    static func toSnakeCase(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        return KeyStrategy.snakeCased(key)
    }
}

/// `[String: Value]` dictionaries: JSONDecoder and JSONEncoder apply no key strategy to their keys.
protocol StringKeyedDictionaryMarker {}
extension Dictionary: StringKeyedDictionaryMarker where Key == String {}
