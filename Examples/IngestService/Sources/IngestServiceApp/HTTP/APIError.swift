import Hummingbird
import ModelMapper

/// An error the routes answer with a status and an ``ErrorBody``.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let body: ErrorBody
    var headers: HTTPFields = [:]

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try Response.json(body, status: status)
        response.headers.append(contentsOf: headers)
        return response
    }

    /// No API key, or one that is not valid (unknown, revoked, malformed): 401 with a Bearer challenge.
    static let unauthorized = APIError(
        status: .unauthorized,
        body: ErrorBody(error: "unauthorized", message: "an API key is required: Authorization: Bearer KEY"),
        headers: [.wwwAuthenticate: "Bearer"])

    static func unsupportedMediaType(_ contentType: String?, accepted: String) -> APIError {
        APIError(
            status: .unsupportedMediaType,
            body: ErrorBody(
                error: "unsupportedMediaType",
                message: "Content-Type \(contentType.map { "'\($0)'" } ?? "missing"); this route accepts \(accepted)"))
    }

    static func contentTooLarge(limit: Int) -> APIError {
        APIError(
            status: .contentTooLarge,
            body: ErrorBody(error: "contentTooLarge", message: "the body is larger than \(limit) bytes"))
    }

    static func invalidEvent(_ error: MappingError) -> APIError {
        APIError(status: .badRequest, body: ErrorBody(error: "invalidEvent", mappingError: error))
    }

    static func unstorableEvent(_ reason: String) -> APIError {
        APIError(status: .badRequest, body: ErrorBody(error: "invalidEvent", message: reason))
    }

    /// The store did not commit a batch: nothing of that batch is stored, and the answer promises nothing
    /// past what earlier batches committed (retry the upload: stored records count as duplicates).
    static func storeFailed(_ error: any Error) -> APIError {
        APIError(
            status: .serviceUnavailable,
            body: ErrorBody(error: "storeUnavailable", message: "the events could not be stored: \(String(reflecting: error))"))
    }

    static func deadLetterFailed(_ error: any Error) -> APIError {
        APIError(
            status: .internalServerError,
            body: ErrorBody(error: "deadLetterFailed", message: "rejected records could not be saved: \(error)"))
    }
}
