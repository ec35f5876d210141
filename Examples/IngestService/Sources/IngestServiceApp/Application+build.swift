import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Builds the HTTP service: routes, limits and counters from `configuration`. Run it in a service group
/// after `store` and `keys` (see ``runIngestService(configuration:store:events:metrics:logger:)``). The
/// dead-letter directory, if configured, is created if missing.
///
/// - Parameters:
///   - store: where records go (the store must be running in the same service group).
///   - keys: the API keys POST requests are checked against; nil for none (then only
///     `configuration.allowAnonymous` lets a POST in).
///   - metrics: the counters `GET /metrics` reports (pass one in to read them from a test).
///   - onServerRunning: called with the listening channel (its `localAddress` has the port when
///     `configuration.port` is 0).
public func buildApplication(
    configuration: IngestConfiguration,
    store: any EventStore,
    keys: APIKeys? = nil,
    metrics: IngestMetrics = IngestMetrics(),
    logger: Logger = Logger(label: "IngestService"),
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    if let directory = configuration.deadLetterDirectory {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    let router = Router()
    router.add(middleware: RequestIDMiddleware())
    IngestController(configuration: configuration, store: store, keys: keys, metrics: metrics).addRoutes(to: router)
    return Application(
        router: router,
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "IngestService"),
        onServerRunning: onServerRunning,
        logger: logger)
}

/// Runs the store, the API keys' refresh and the HTTP server in one service group until SIGTERM or
/// SIGINT: the server stops accepting, finishes the uploads in flight, and only then the store closes
/// (services shut down in reverse order). Requests wait for the first read of the keys.
///
/// - Parameter events: where events go instead of `store` (the discarding store of the load baseline);
///   the keys still come from `store`.
public func runIngestService(
    configuration: IngestConfiguration, store: any EventStore & KeyStore, events: (any EventStore)? = nil,
    metrics: IngestMetrics, logger: Logger
) async throws {
    let keys = APIKeys(store: store, logger: logger)
    var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: store)]
    if let events { services.append(.init(service: events)) }
    services.append(.init(service: keys))
    let app = try buildApplication(
        configuration: configuration, store: events ?? store, keys: keys, metrics: metrics, logger: logger)
    services.append(.init(service: app))
    let group = ServiceGroup(
        configuration: ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    try await group.run()
}
