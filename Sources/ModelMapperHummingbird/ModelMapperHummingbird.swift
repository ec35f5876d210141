// ModelMapper for Hummingbird 2 (the package's `Hummingbird` trait): ModelDecoder and ModelEncoder as a
// request context's coders, mapped models as request and response bodies, and a body that cannot be decoded
// answered 400 with a JSON body (JSONBodyError) rather than 500.
#if Hummingbird
@_exported public import ModelMapper
@_exported public import ModelMapperNIO
public import Hummingbird
import NIOCore

// MARK: - The coders

extension ModelDecoder: RequestDecoder {
    /// Decodes the request's body (collected up to the context's `maxUploadSize`) as `type`, with this
    /// decoder's settings: `request.decode(as:context:)` calls it when this is the context's
    /// `requestDecoder`.
    ///
    /// - Throws: ``JSONBodyError`` (answered 400 with a JSON body) when the body is not valid JSON for
    ///   `type`; a body over the limit throws Hummingbird's 413.
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        do {
            return try decode(T.self, from: buffer)
        } catch {
            throw JSONBodyError(error) ?? error
        }
    }

    /// Decodes the request's body as a mapped model (``JSONMappable``, `@JSONModel`), as
    /// `decode(_:from:context:)` does for Codable types.
    public func decodeModel<M: MappedJSONModel>(_ type: M.Type, from request: Request, context: some RequestContext) async throws -> M {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        do {
            return try decode(M.self, from: buffer)
        } catch {
            throw JSONBodyError(error) ?? error
        }
    }
}

extension ModelEncoder: ResponseEncoder {
    /// A 200 response whose body is `value`'s JSON (`application/json; charset=utf-8`), encoded straight
    /// into the body's `ByteBuffer`: what a handler's `ResponseEncodable` value becomes when this is the
    /// context's `responseEncoder`.
    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        var buffer = ByteBuffer()
        try encode(value, into: &buffer)
        return Self.jsonResponse(buffer)
    }

    /// A 200 response whose body is the mapped model's JSON, copied once from the encoder's buffer into the body's `ByteBuffer`.
    public func encodeModel<M: MappedJSONModel>(_ model: M, from request: Request, context: some RequestContext) throws -> Response {
        var buffer = ByteBuffer()
        try encode(model, into: &buffer)
        return Self.jsonResponse(buffer)
    }

    static func jsonResponse(_ buffer: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(buffer.readableBytes)],
            body: .init(byteBuffer: buffer)
        )
    }
}

// MARK: - The context

/// A request context whose coders are ModelMapper's, otherwise Hummingbird's `BasicRequestContext`: the
/// one line of set-up is `Router(context: ModelMapperRequestContext.self)`.
///
/// The coders read and write `Date` values of Codable types as ISO 8601, as Hummingbird's default JSON
/// coders do (mapped models' dates are ISO 8601 by default too). A context of your own gets the same by
/// declaring `var requestDecoder: ModelDecoder` and `var responseEncoder: ModelEncoder`.
public struct ModelMapperRequestContext: RequestContext, Sendable {
    /// Hummingbird's per-request storage (logger, parameters, endpoint path).
    public var coreContext: CoreRequestContextStorage

    /// The context of a request the application received.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    /// A ModelDecoder with ISO 8601 dates for Codable types.
    public var requestDecoder: ModelDecoder {
        var decoder = ModelDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// A ModelEncoder with ISO 8601 dates for Codable types.
    public var responseEncoder: ModelEncoder {
        var encoder = ModelEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

// MARK: - Mapped models as bodies

extension RequestContext {
    /// The context's decoder when it is a ModelDecoder, else a default one (for mapped models, which the
    /// context's own decoder cannot read when it is Foundation's).
    var modelDecoder: ModelDecoder { requestDecoder as? ModelDecoder ?? ModelDecoder() }
    /// The context's encoder when it is a ModelEncoder, else a default one.
    var modelEncoder: ModelEncoder { responseEncoder as? ModelEncoder ?? ModelEncoder() }
}

extension Request {
    /// Decodes the body as a mapped model (``JSONMappable``, not `Decodable`) with the context's
    /// ModelDecoder (a default one when the context's decoder is another).
    ///
    /// - Throws: ``JSONBodyError`` (answered 400 with a JSON body) when the body is not valid JSON for `type`.
    public func decode<M: MappedJSONModel>(as type: M.Type, context: some RequestContext) async throws -> M {
        try await context.modelDecoder.decodeModel(M.self, from: self, context: context)
    }

    /// A mapped model that is also `Decodable` (``JSONCodable``, `@JSONModel`): decoded by the context's
    /// `requestDecoder`, as Hummingbird decodes any `Decodable` (this overload only settles which of the two
    /// above applies).
    public func decode<M: MappedJSONModel & Decodable>(as type: M.Type, context: some RequestContext) async throws -> M {
        try await decodeDecodable(M.self, context: context)
    }

    private func decodeDecodable<T: Decodable>(_ type: T.Type, context: some RequestContext) async throws -> T {
        try await decode(as: T.self, context: context)
    }
}

/// A mapped model that a route can return: its JSON, written by the context's ModelEncoder (a default one
/// when the context's encoder is another). Declare the conformance, nothing more:
/// `extension Book: MappedResponseGenerator {}`. Codable models (``JSONCodable``, `@JSONModel`) can be
/// Hummingbird's `ResponseEncodable` instead.
public protocol MappedResponseGenerator: MappedJSONModel, ResponseGenerator {}

extension MappedResponseGenerator {
    /// A 200 response whose body is the model's JSON, written by the context's ModelEncoder (one copy, no `Data`) into
    /// the body's `ByteBuffer`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try context.modelEncoder.encodeModel(self, from: request, context: context)
    }
}

// MARK: - The 400 answer

extension JSONBodyError: HTTPResponseError {
    /// 400 Bad Request.
    public var status: HTTPResponse.Status { .badRequest }

    /// The 400 response with the JSON body (``JSONBodyError/json``).
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        ModelEncoder.jsonResponse(body(), status: .badRequest)
    }
}
#endif
