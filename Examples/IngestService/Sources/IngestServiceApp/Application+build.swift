import Foundation
import Hummingbird
import Logging
import NIOCore

/// Builds the service: routes, limits and counters from `configuration`, ready to `run()` or
/// `runService()`. The dead-letter directory is created if missing.
///
/// - Parameters:
///   - sink: where decoded events go (default: dropped after counting).
///   - metrics: the counters `GET /metrics` reports (pass one in to read them from a test).
///   - onServerRunning: called with the listening channel (its `localAddress` has the port when
///     `configuration.port` is 0).
public func buildApplication(
    configuration: IngestConfiguration,
    sink: any EventSink = DiscardingSink(),
    metrics: IngestMetrics = IngestMetrics(),
    logger: Logger = Logger(label: "IngestService"),
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    try FileManager.default.createDirectory(
        atPath: configuration.deadLetterDirectory, withIntermediateDirectories: true)
    let router = Router()
    IngestController(configuration: configuration, sink: sink, metrics: metrics).addRoutes(to: router)
    return Application(
        router: router,
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "IngestService"),
        onServerRunning: onServerRunning,
        logger: logger)
}
