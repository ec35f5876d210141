import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Builds the HTTP service: routes, limits and counters from `configuration`. Run it in a service group
/// after `store` (see ``runIngestService(configuration:store:metrics:logger:)``). The dead-letter
/// directory, if configured, is created if missing.
///
/// - Parameters:
///   - store: where records go (the store must be running in the same service group).
///   - metrics: the counters `GET /metrics` reports (pass one in to read them from a test).
///   - onServerRunning: called with the listening channel (its `localAddress` has the port when
///     `configuration.port` is 0).
public func buildApplication(
    configuration: IngestConfiguration,
    store: any EventStore,
    metrics: IngestMetrics = IngestMetrics(),
    logger: Logger = Logger(label: "IngestService"),
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    if let directory = configuration.deadLetterDirectory {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    let router = Router()
    IngestController(configuration: configuration, store: store, metrics: metrics).addRoutes(to: router)
    return Application(
        router: router,
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "IngestService"),
        onServerRunning: onServerRunning,
        logger: logger)
}

/// Runs the store and the HTTP server in one service group until SIGTERM or SIGINT: the server stops
/// accepting, finishes the uploads in flight, and only then the store closes (services shut down in
/// reverse order).
public func runIngestService(
    configuration: IngestConfiguration, store: any EventStore, metrics: IngestMetrics, logger: Logger
) async throws {
    let app = try buildApplication(configuration: configuration, store: store, metrics: metrics, logger: logger)
    let group = ServiceGroup(
        configuration: ServiceGroupConfiguration(
            services: [.init(service: store), .init(service: app)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
    try await group.run()
}
