#if NIO
public import ModelMapper
public import NIOCore
import Foundation

/// A request body that could not be decoded, as the framework glue answers it: HTTP 400 with a small JSON
/// body that tells the client what and where, and nothing of the server's internals:
///
/// ```json
/// {"message":"expected an integer, found a string","jsonPath":"items[1].id","line":1,"column":24}
/// ```
///
/// `line` and `column` are left out when the position is not known. ModelMapperHummingbird and
/// ModelMapperVapor throw it from their request decoders in place of the ``MappingError`` (or, for a
/// Codable type, the `DecodingError`) that decoding threw; ``underlying`` keeps that error for logs.
public struct JSONBodyError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, in plain words (``MappingError/message``, or the `DecodingError`'s description).
    public var message: String
    /// Where in the document, as the document spells it (``MappingError/jsonPath``): `items[1].id`; empty
    /// at the root.
    public var jsonPath: String
    /// The 1-based line of the offending input, when known.
    public var line: Int?
    /// The 1-based column of the offending input, when known.
    public var column: Int?
    /// The error decoding threw (for logs; never sent to the client).
    public var underlying: any Error

    /// The answer for an error thrown while decoding a request body: a ``MappingError`` (except
    /// ``MappingError/Kind/unsupportedType``, a model the server cannot map, which stays a server error)
    /// or a `DecodingError`. Nil for any other error, which is not the client's.
    public init?(_ error: any Error) {
        if let error = error as? JSONBodyError {
            self = error
        } else if let error = error as? MappingError {
            guard error.kind != .unsupportedType else { return nil }
            self.init(message: error.message, jsonPath: error.jsonPath, line: error.line, column: error.column,
                      underlying: error)
        } else if let error = error as? DecodingError {
            let (context, fallback) = Self.context(of: error)
            guard let context else { return nil }
            // ModelDecoder puts the positioned MappingError under a DecodingError it throws.
            if let mapped = context.underlyingError as? MappingError {
                self.init(message: mapped.message, jsonPath: mapped.jsonPath, line: mapped.line,
                          column: mapped.column, underlying: error)
            } else {
                self.init(message: fallback ?? context.debugDescription, jsonPath: Self.path(context.codingPath),
                          line: nil, column: nil, underlying: error)
            }
        } else {
            return nil
        }
    }

    /// An answer with the given fields.
    public init(message: String, jsonPath: String, line: Int? = nil, column: Int? = nil,
                underlying: any Error) {
        self.message = message
        self.jsonPath = jsonPath
        self.line = line
        self.column = column
        self.underlying = underlying
    }

    /// The JSON body: `message`, `jsonPath`, and `line` and `column` when known.
    public var json: JSONValue {
        var object: JSONObject = ["message": .string(message), "jsonPath": .string(jsonPath)]
        if let line { object["line"] = .number(JSONNumber(line)) }
        if let column { object["column"] = .number(JSONNumber(column)) }
        return .object(object)
    }

    /// The JSON body as bytes (compact, UTF-8).
    public func body(allocator: ByteBufferAllocator = ByteBufferAllocator()) -> ByteBuffer {
        let data = (try? json.jsonData()) ?? Data(#"{"message":"bad request body"}"#.utf8)
        var buffer = allocator.buffer(capacity: data.count)
        buffer.writeBytes(data)
        return buffer
    }

    /// One line for logs: `bad request body (line 1, column 24) at items[1].id: expected an integer, …`.
    public var description: String {
        var text = "bad request body"
        if let line, let column { text += " (line \(line), column \(column))" }
        if !jsonPath.isEmpty { text += " at \(jsonPath)" }
        return text + ": " + message
    }

    private static func context(of error: DecodingError) -> (DecodingError.Context?, String?) {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return (context, nil)
        case .keyNotFound(let key, let context):
            return (context, "key \"\(key.stringValue)\" not found")
        @unknown default:
            return (nil, nil)
        }
    }

    /// A coding path as ModelMapper writes paths: `items[1].id`.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        var path = ""
        for key in codingPath {
            if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
                path += "[\(index)]"
            } else {
                if !path.isEmpty { path += "." }
                path += key.stringValue
            }
        }
        return path
    }
}
#endif
