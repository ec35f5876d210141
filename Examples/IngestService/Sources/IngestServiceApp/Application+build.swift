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
    readiness: Readiness = Readiness(),
    drain: UploadDrain = UploadDrain(),
    logger: Logger = Logger(label: "IngestService"),
    uploadLog: Logger? = nil,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    if let directory = configuration.deadLetterDirectory {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    let router = Router(context: IngestRequestContext.self)
    router.add(middleware: RequestIDMiddleware())
    router.add(middleware: ExactPathMiddleware())
    let connections = ConnectionLimits(
        maxOpen: configuration.maxOpenConnections, maxPerAddress: configuration.maxConnectionsPerAddress,
        headTimeout: configuration.headTimeout)
    IngestController(
        configuration: configuration, store: store, keys: keys, metrics: metrics, readiness: readiness, uploadLog: uploadLog,
        drain: drain
    ).addRoutes(to: router)
    return Application(
        router: router,
        // The idle timeout is a handler of ours (IdleTimeoutHandler): Hummingbird's counted the time since the
        // last bytes read, so an upload the server was not reading from (backpressure) was closed as idle.
        // The connection caps and the head deadline are a handler of each connection's (ConnectionLimits).
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: ([connections.handler()] as [any RemovableChannelHandler])
                    + (configuration.idleTimeout.map { [IdleTimeoutHandler(timeout: TimeAmount($0))] } ?? []),
                idleTimeout: nil)),
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "IngestService"),
        onServerRunning: onServerRunning,
        logger: logger)
}

/// The services that serve HTTP, in the order a service group must run them, after `store` (and `keys`):
/// the store's readiness probe, the HTTP server, and the signal that marks the server draining on SIGTERM
/// (last, so that it hears of the shutdown first, then waits `--shutdown-delay` before the server stops
/// accepting).
public func ingestServices(
    configuration: IngestConfiguration,
    store: any EventStore,
    keys: APIKeys? = nil,
    metrics: IngestMetrics = IngestMetrics(),
    logger: Logger = Logger(label: "IngestService"),
    uploadLog: Logger? = nil,
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) throws -> [any Service] {
    let readiness = Readiness(probeTimeout: configuration.readinessTimeout)
    let drain = UploadDrain()
    let app = try buildApplication(
        configuration: configuration, store: store, keys: keys, metrics: metrics, readiness: readiness, drain: drain,
        logger: logger, uploadLog: uploadLog, onServerRunning: onServerRunning)
    return [
        StoreProbe(store: store, readiness: readiness, interval: configuration.readinessInterval, logger: logger),
        app,
        DrainSignal(
            readiness: readiness, delay: configuration.shutdownDelay, drain: drain, drainTimeout: configuration.drainTimeout,
            logger: logger),
    ]
}

/// Runs the store, the API keys' refresh and the HTTP server in one service group until SIGTERM or
/// SIGINT: the server stops accepting, finishes the uploads in flight, and only then the store closes
/// (services shut down in reverse order). Requests wait for the first read of the keys.
///
/// - Parameter events: where events go instead of `store` (the discarding store of the load baseline);
///   the keys still come from `store`.
public func runIngestService(
    configuration: IngestConfiguration, store: any EventStore & KeyStore, events: (any EventStore)? = nil,
    metrics: IngestMetrics, logger: Logger, uploadLog: Logger? = nil
) async throws {
    let keys = APIKeys(store: store, logger: logger)
    var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: store)]
    if let events { services.append(.init(service: events)) }
    services.append(.init(service: keys))
    for service in try ingestServices(
        configuration: configuration, store: events ?? store, keys: keys, metrics: metrics, logger: logger,
        uploadLog: uploadLog)
    {
        services.append(.init(service: service))
    }
    var groupConfiguration = ServiceGroupConfiguration(
        services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    // The uploads are cut at --drain-timeout (UploadDrain); this is the backstop should anything else hang
    // (a store that never answers): then the services are cancelled.
    groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownDelay + configuration.drainTimeout + .seconds(30)
    groupConfiguration.maximumCancellationDuration = .seconds(10)
    let group = ServiceGroup(configuration: groupConfiguration)
    try await group.run()
}
