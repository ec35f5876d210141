import Hummingbird
import ModelMapper

/// An error the routes answer with a status and an ``ErrorBody``.
struct APIError: HTTPResponseError {
    let status: HTTPResponse.Status
    let body: ErrorBody

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try Response.json(body, status: status)
    }

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

    static func sinkFailed(_ error: any Error) -> APIError {
        APIError(
            status: .serviceUnavailable,
            body: ErrorBody(error: "sinkFailed", message: "the events could not be stored: \(error)"))
    }

    static func deadLetterFailed(_ error: any Error) -> APIError {
        APIError(
            status: .internalServerError,
            body: ErrorBody(error: "deadLetterFailed", message: "rejected records could not be saved: \(error)"))
    }
}
