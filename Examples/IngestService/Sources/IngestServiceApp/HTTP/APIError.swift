import Hummingbird
import ModelMapper

/// An error the routes answer with a status and an ``ErrorBody`` (with the request's id); `detail`, if
/// any, goes to the log only (``RequestIDMiddleware``).
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    var body: ErrorBody
    var headers: HTTPFields = [:]
    /// What happened, for the log (never sent).
    var detail: String? = nil

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var body = self.body
        body.requestId = context.id
        var response = try Response.json(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    /// No API key, or one that is not valid (unknown, revoked, malformed): 401 with a Bearer challenge.
    static let unauthorized = APIError(
        status: .unauthorized,
        body: ErrorBody(error: "unauthorized"),
        headers: [.wwwAuthenticate: "Bearer"])

    /// A `Content-Type` the route does not take, a charset other than UTF-8, or a body that is UTF-16 or
    /// UTF-32 (JSON is UTF-8).
    static let unsupportedMediaType = APIError(status: .unsupportedMediaType, body: ErrorBody(error: "unsupportedMediaType"))

    /// `Content-Encoding: gzip` whose bytes are not gzip, or that end inside a gzip member.
    static let invalidGzip = APIError(status: .badRequest, body: ErrorBody(error: "invalidGzip"))

    /// Too many uploads of this client: past `--rate-limit` (then `seconds` until its next token) or
    /// `--max-uploads-per-client` at once.
    static func tooManyRequests(_ reason: String, retryAfter seconds: Int) -> APIError {
        APIError(status: .tooManyRequests, body: ErrorBody(error: reason), headers: [.retryAfter: "\(seconds)"])
    }

    /// The process-wide memory budget (`--memory-budget`) cannot hold this request now: 503 with
    /// `Retry-After`, before any of its body is read or its query run.
    static let overloaded = APIError(
        status: .serviceUnavailable, body: ErrorBody(error: "overloaded"), headers: [.retryAfter: "1"])

    /// `GET /ready` while the store does not answer or the server drains.
    static func notReady(_ state: Readiness.State) -> APIError {
        APIError(status: .serviceUnavailable, body: ErrorBody(error: state == .draining ? "draining" : "storeUnavailable"))
    }

    /// The `Retry-After` of a 503 for a store that failed: a few readiness probes' time.
    static let storeRetryAfterSeconds = 5

    /// The drain's deadline (`--drain-timeout`) passed while the request's body was still coming.
    static let shuttingDown = APIError(
        status: .serviceUnavailable, body: ErrorBody(error: "shuttingDown"),
        headers: [.retryAfter: "1", .connection: "close"])

    /// The request's HTTP framing is malformed (a chunk size that is not hex, a chunk cut short).
    static let badFraming = APIError(
        status: .badRequest, body: ErrorBody(error: "badRequest"), headers: [.connection: "close"])

    static let contentTooLarge = APIError(status: .contentTooLarge, body: ErrorBody(error: "contentTooLarge"))

    static func invalidEvent(_ error: MappingError) -> APIError {
        APIError(status: .badRequest, body: ErrorBody(error: "invalidEvent", mappingError: error))
    }

    static func unstorableEvent(_ reason: String) -> APIError {
        var body = ErrorBody(error: "invalidEvent")
        body.message = reason
        return APIError(status: .badRequest, body: body)
    }

    /// The store did not commit a batch: nothing of that batch is stored, and the answer promises nothing
    /// past what earlier batches committed (retry the upload: stored records count as duplicates).
    static func storeFailed(_ error: any Error) -> APIError {
        APIError(
            status: .serviceUnavailable, body: ErrorBody(error: "storeUnavailable"),
            headers: [.retryAfter: "\(storeRetryAfterSeconds)"],
            detail: "the events could not be stored: \(String(reflecting: error))")
    }

    /// A query parameter out of its range (`GET /rejected`).
    static func invalidQuery(_ message: String) -> APIError {
        var body = ErrorBody(error: "invalidQuery")
        body.message = message
        return APIError(status: .badRequest, body: body)
    }

    static func deadLetterFailed(_ error: any Error) -> APIError {
        APIError(
            status: .internalServerError, body: ErrorBody(error: "deadLetterFailed"),
            detail: "rejected records could not be saved: \(error)")
    }
}
