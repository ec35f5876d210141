// ModelMapper for Vapor 4 (the package's `Vapor` trait): ModelDecoder and ModelEncoder as Vapor's JSON
// content coders, mapped models as request and response bodies, and a body that cannot be decoded answered
// 400 with a JSON body (JSONBodyError) rather than 500.
#if Vapor
@_exported public import ModelMapper
@_exported public import ModelMapperNIO
public import Vapor

// MARK: - The coders

extension ModelDecoder: ContentDecoder {
    /// Decodes `body` as `decodable` with this decoder's settings: what `req.content.decode(_:)` calls for
    /// JSON when this decoder is configured for it (``Vapor/Application/useModelMapper(decoder:encoder:)``).
    ///
    /// - Throws: ``JSONBodyError`` (answered 400 with a JSON body) when the body is not valid JSON for the type.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        do {
            return try decode(D.self, from: body)
        } catch {
            throw JSONBodyError(error) ?? error
        }
    }

    /// As `decode(_:from:headers:)`, with `userInfo` added to this decoder's.
    public func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders,
                                     userInfo: [CodingUserInfoKey: any Sendable]) throws -> D {
        var decoder = self
        decoder.userInfo.merge(userInfo) { $1 }
        return try decoder.decode(D.self, from: body, headers: headers)
    }
}

extension ModelEncoder: ContentEncoder {
    /// Appends `encodable`'s JSON to `body` (no `Data` in between) and sets the content type to JSON.
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders) throws {
        try encode(encodable, into: &body)
        headers.contentType = .json
    }

    /// As `encode(_:to:headers:)`, with `userInfo` added to this encoder's.
    public func encode<E: Encodable>(_ encodable: E, to body: inout ByteBuffer, headers: inout HTTPHeaders,
                                     userInfo: [CodingUserInfoKey: any Sendable]) throws {
        var encoder = self
        encoder.userInfo.merge(userInfo) { $1 }
        try encoder.encode(encodable, to: &body, headers: &headers)
    }
}

// MARK: - Set-up

extension Application {
    /// The one line of set-up: ModelMapper's coders for JSON (`application/json`, in
    /// `ContentConfiguration.global`, which every application of the process shares) and
    /// ``ModelMapperErrorMiddleware`` (a body that cannot be decoded is answered 400 with a JSON body).
    ///
    /// The default coders read and write `Date` values of Codable types as ISO 8601, as Vapor's default JSON
    /// coders do (mapped models' dates are ISO 8601 by default too).
    public func useModelMapper(decoder: ModelDecoder = .vaporDefault, encoder: ModelEncoder = .vaporDefault) {
        ContentConfiguration.global.use(decoder: decoder, for: .json)
        ContentConfiguration.global.use(encoder: encoder, for: .json)
        middleware.use(ModelMapperErrorMiddleware())
    }
}

extension ModelDecoder {
    /// A ModelDecoder with ISO 8601 dates for Codable types, like Vapor's default JSON decoder.
    public static var vaporDefault: ModelDecoder {
        var decoder = ModelDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

extension ModelEncoder {
    /// A ModelEncoder with ISO 8601 dates for Codable types, like Vapor's default JSON encoder.
    public static var vaporDefault: ModelEncoder {
        var encoder = ModelEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

// MARK: - The 400 answer

/// Answers a ``JSONBodyError`` (a request body that could not be decoded) with 400 and its JSON body
/// (`message`, `jsonPath`, `line`, `column`), where Vapor's `ErrorMiddleware` would write
/// `{"error":true,"reason":…}`. Added by ``Vapor/Application/useModelMapper(decoder:encoder:)``; other
/// errors pass on unchanged.
public struct ModelMapperErrorMiddleware: AsyncMiddleware, Sendable {
    /// The middleware (``Vapor/Application/useModelMapper(decoder:encoder:)`` adds one).
    public init() {}

    /// The next responder's response, or the 400 answer for a ``JSONBodyError`` it threw.
    public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch let error as JSONBodyError {
            request.logger.debug("bad request body: \(error.underlying)")
            return Self.response(error, for: request)
        }
    }

    static func response(_ error: JSONBodyError, for request: Request) -> Response {
        var headers = HTTPHeaders()
        headers.contentType = .json
        return Response(status: .badRequest, headers: headers,
                        body: .init(buffer: error.body(allocator: request.byteBufferAllocator),
                                    byteBufferAllocator: request.byteBufferAllocator))
    }
}

extension JSONBodyError: AbortError {
    /// 400 Bad Request (where ``ModelMapperErrorMiddleware`` is not installed, Vapor's `ErrorMiddleware`
    /// answers with it and ``description`` as the reason).
    public var status: HTTPResponseStatus { .badRequest }
    /// ``description``: the path, the position and the message.
    public var reason: String { description }
}

// MARK: - Mapped models as bodies

extension ContentContainer {
    /// Decodes the body as a mapped model (``JSONMappable``, not `Decodable`) with the configured JSON
    /// decoder when it is a ModelDecoder (a default one otherwise).
    ///
    /// - Throws: ``JSONBodyError`` (400) when the body is not valid JSON for `type`; 415 for a content type
    ///   that is not JSON; 422 for an empty body (as Vapor does for `Content`).
    public func decode<M: MappedJSONModel>(_ type: M.Type) throws -> M {
        if let contentType, !MappedBodyDecoder.isJSON(contentType) { throw Abort(.unsupportedMediaType) }
        return try decode(MappedBody<M>.self, using: MappedBodyDecoder()).model
    }

    /// A mapped model that is also `Decodable` (``JSONCodable``, `@JSONModel`): decoded by the configured
    /// decoder, as Vapor decodes any `Decodable` (this overload only settles which of the two applies).
    public func decode<M: MappedJSONModel & Decodable>(_ type: M.Type) throws -> M {
        try decodeDecodable(M.self)
    }

    /// A mapped model that is also `Content`: decoded as Vapor decodes `Content` (`afterDecode()` included).
    public func decode<M: MappedJSONModel & Content>(_ type: M.Type) throws -> M {
        try decodeContent(M.self)
    }

    private func decodeDecodable<T: Decodable>(_ type: T.Type) throws -> T { try decode(T.self) }
    private func decodeContent<T: Content>(_ type: T.Type) throws -> T { try decode(T.self) }
}

/// A mapped model as a Vapor body, both ways: a route can return it and `req.content.decode(_:)` reads it.
/// Declare the conformance, nothing more: `extension Book: MappedContent {}`. Its JSON is written by the
/// configured JSON encoder when it is a ModelEncoder (a default one otherwise), with one copy into the response's
/// `ByteBuffer`. Codable models (``JSONCodable``, `@JSONModel`) can be Vapor's `Content` instead.
public protocol MappedContent: MappedJSONModel, AsyncResponseEncodable, ResponseEncodable, AsyncRequestDecodable,
    RequestDecodable, Sendable {}

extension MappedContent {
    /// A 200 response whose body is the model's JSON (`application/json`).
    public func encodeResponse(for request: Request) async throws -> Response {
        try MappedBodyDecoder.response(self, for: request)
    }

    /// A 200 response whose body is the model's JSON (`application/json`), for synchronous routes.
    public func encodeResponse(for request: Request) -> EventLoopFuture<Response> {
        request.eventLoop.makeCompletedFuture(withResultOf: { try MappedBodyDecoder.response(self, for: request) })
    }

    /// The request's body as this model (`req.content.decode(_:)`).
    public static func decodeRequest(_ request: Request) async throws -> Self {
        try request.content.decode(Self.self)
    }

    /// The request's body as this model, as a future.
    public static func decodeRequest(_ request: Request) -> EventLoopFuture<Self> {
        request.eventLoop.makeCompletedFuture(withResultOf: { try request.content.decode(Self.self) })
    }
}

/// The mapped model a ``MappedBodyDecoder`` made (Vapor's content API asks for a `Decodable` type).
struct MappedBody<M: MappedJSONModel>: Decodable, MappedBodyMaking {
    var model: M

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a mapped model is read by MappedBodyDecoder"))
    }

    init(model: M) { self.model = model }

    static func make(from body: ByteBuffer, with decoder: ModelDecoder) throws -> any MappedBodyMaking {
        MappedBody(model: try decoder.decode(M.self, from: body))
    }
}

protocol MappedBodyMaking {
    static func make(from body: ByteBuffer, with decoder: ModelDecoder) throws -> any MappedBodyMaking
}

/// Reads a ``MappedBody`` from the request's bytes with the configured ModelDecoder.
struct MappedBodyDecoder: ContentDecoder {
    func decode<D: Decodable>(_ decodable: D.Type, from body: ByteBuffer, headers: HTTPHeaders) throws -> D {
        guard let making = D.self as? any MappedBodyMaking.Type else {
            preconditionFailure("MappedBodyDecoder reads MappedBody only")
        }
        do {
            return try making.make(from: body, with: Self.modelDecoder) as! D
        } catch {
            throw JSONBodyError(error) ?? error
        }
    }

    static var modelDecoder: ModelDecoder {
        (try? ContentConfiguration.global.requireDecoder(for: .json)) as? ModelDecoder ?? ModelDecoder()
    }

    static var modelEncoder: ModelEncoder {
        (try? ContentConfiguration.global.requireEncoder(for: .json)) as? ModelEncoder ?? ModelEncoder()
    }

    static func isJSON(_ type: HTTPMediaType) -> Bool {
        type.type == "application" && (type.subType == "json" || type.subType.hasSuffix("+json"))
    }

    static func response<M: MappedJSONModel>(_ model: M, for request: Request) throws -> Response {
        var buffer = request.byteBufferAllocator.buffer(capacity: 0)
        try modelEncoder.encode(model, into: &buffer)
        var headers = HTTPHeaders()
        headers.contentType = .json
        return Response(status: .ok, headers: headers, body: .init(buffer: buffer, byteBufferAllocator: request.byteBufferAllocator))
    }
}
#endif
