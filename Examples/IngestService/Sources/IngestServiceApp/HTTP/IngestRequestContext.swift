import Foundation
import Hummingbird
import NIOCore

/// The request context of the service's routes: Hummingbird's basic one plus the peer's address, which
/// the log lines of refused requests name (issue #44.7).
struct IngestRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

extension RequestContext {
    /// The peer's address as the logs write it (`127.0.0.1:53212`), if the context knows it.
    var peer: String? {
        guard let address = (self as? any RemoteAddressRequestContext)?.remoteAddress else { return nil }
        switch address {
        case .v4, .v6: return "\(address.ipAddress ?? "?"):\(address.port ?? 0)"
        case .unixDomainSocket: return address.pathname
        }
    }
}

/// Serves a route at its exact path only (issue #44.7): Hummingbird's router takes `//metrics` and
/// `/metrics/` for `/metrics`, so a proxy rule that guards `/metrics` could be passed by; a request target
/// with an empty path segment (`//`, a trailing `/`) is 404 `notFound` before any route sees it.
struct ExactPathMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let target = request.head.path ?? ""
        let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path != "/", path.contains("//") || path.hasSuffix("/") else { return try await next(request, context) }
        throw HTTPError(.notFound)
    }
}
