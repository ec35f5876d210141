import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle

/// Whether this replica should be sent uploads (`GET /ready`): the store answered its last probe
/// (``StoreProbe``), no probe has been waiting on it longer than the probe timeout, and the server is
/// not draining. `GET /ready` reads this state and never waits on the database itself, so a load
/// balancer polling it often costs the store one probe a second whatever the poll rate.
public final class Readiness: Sendable {
    public enum State: Equatable, Sendable {
        case ready
        /// The store failed its last probe, has not answered one yet, or is taking longer than the
        /// timeout to answer the one in progress.
        case storeUnavailable
        /// SIGTERM (or SIGINT) was received: the server is finishing its uploads and about to stop.
        case draining
    }

    private struct Probes {
        var answered = false
        var started: ContinuousClock.Instant?
        var draining = false
    }

    private let probes = NIOLockedValueBox(Probes())
    /// A probe still running after this long counts as a store that does not answer.
    let probeTimeout: Duration

    public init(probeTimeout: Duration = .seconds(2)) {
        self.probeTimeout = probeTimeout
    }

    public var state: State {
        let now = ContinuousClock.now
        return probes.withLockedValue { probes in
            if probes.draining { return .draining }
            if let started = probes.started, now - started > probeTimeout { return .storeUnavailable }
            return probes.answered ? .ready : .storeUnavailable
        }
    }

    func probeStarted() {
        probes.withLockedValue { $0.started = .now }
    }

    /// Records a probe's outcome; returns whether it changed the store's state.
    func probeEnded(answered: Bool) -> Bool {
        probes.withLockedValue { probes in
            probes.started = nil
            defer { probes.answered = answered }
            return probes.answered != answered
        }
    }

    func startDraining() {
        probes.withLockedValue { $0.draining = true }
    }
}

/// Probes the store (``EventStore/ping()``) once a second, one probe at a time (a probe the store is
/// slow to answer is not joined by more), and keeps ``Readiness`` up to date: a store that stops
/// answering makes `GET /ready` 503 within the probe timeout, and one that comes back makes it 200 again
/// by itself at the next probe. Changes are logged.
struct StoreProbe: Service {
    let store: any EventStore
    let readiness: Readiness
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                readiness.probeStarted()
                do {
                    try await store.ping()
                    if readiness.probeEnded(answered: true) { logger.notice("the store answers again: ready") }
                } catch {
                    if readiness.probeEnded(answered: false) {
                        logger.error("the store does not answer (GET /ready is 503 until it does): \(String(reflecting: error))")
                    }
                }
                guard (try? await Task.sleep(for: interval)) != nil else { return }
            }
        }
    }
}

/// The first service to hear of SIGTERM or SIGINT (the last in the group: services stop in reverse
/// order): it marks the server draining, so `GET /ready` answers 503, and waits `delay` (Loki's
/// `-shutdown-delay`) while the server still takes new connections and uploads, so that a load balancer
/// polling `/ready` stops sending any before the server stops accepting. Then the server stops accepting
/// and finishes its uploads in flight, and the store closes after them. Those uploads have `drainTimeout`:
/// then the ones still reading a body are cut (``UploadDrain``) and answered 503 `shuttingDown`.
struct DrainSignal: Service {
    let readiness: Readiness
    let delay: Duration
    let drain: UploadDrain
    let drainTimeout: Duration
    let logger: Logger

    func run() async throws {
        guard (try? await gracefulShutdown()) != nil else { return }
        readiness.startDraining()
        if delay > .zero {
            logger.notice("draining: GET /ready answers 503; the server stops accepting in \(delay)")
            try? await Task.sleep(for: delay)
        }
        // This service ends here, so that the server stops accepting and drains; the deadline runs on.
        let drain = self.drain
        let timeout = drainTimeout
        let logger = self.logger
        Task {
            try? await Task.sleep(for: timeout)
            logger.warning("the drain deadline (\(timeout)) passed: uploads still reading their bodies are cut (503 shuttingDown)")
            drain.cut()
        }
    }
}
