import Hummingbird
import Logging

extension HTTPFields {
    /// Sets `X-Request-Id`: the request's id on every answer (and in the log lines about the request).
    mutating func setRequestID(_ id: String) {
        let field: HTTPFields = [.init("X-Request-Id")!: id]
        append(contentsOf: field)
    }
}

/// Puts the request's id (Hummingbird's, which every log line about the request carries as
/// `hb.request.id`) in an `X-Request-Id` header on every answer, and turns every error into an answer
/// that tells nothing of the service's internals: ``APIError``s are answered with their own short body,
/// and their details (a database error, a file name) are logged under the request id; Hummingbird's own
/// errors (404, a bad request) get the same kind of body; any other error is a 500 whose details are
/// only in the log.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            if let detail = error.detail {
                context.logger.error("\(request.method) \(request.uri.path): \(error.body.error): \(detail)")
            }
            response = try error.response(from: request, context: context)
        } catch let error as HTTPResponseError {
            let status = error.status
            let code = status == .notFound ? "notFound" : status.code < 500 ? "badRequest" : "internal"
            if status.code >= 500 { context.logger.error("\(request.method) \(request.uri.path): \(String(reflecting: error))") }
            response = try APIError(status: status, body: ErrorBody(error: code)).response(from: request, context: context)
        } catch {
            context.logger.error("\(request.method) \(request.uri.path): \(String(reflecting: error))")
            response = try APIError(status: .internalServerError, body: ErrorBody(error: "internal"))
                .response(from: request, context: context)
        }
        response.headers.setRequestID(context.id)
        return response
    }
}
