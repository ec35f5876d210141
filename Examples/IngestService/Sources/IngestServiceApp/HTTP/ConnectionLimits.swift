import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// `--max-open-connections`, `--max-connections-per-address` and `--head-timeout`: the connections open
/// at once, in all and per peer address, and how long a new one may take to send its first request head.
///
/// A connection past either cap does not wait in the accept queue (where `/health` and `/ready` would
/// wait behind it): it closes the oldest connection that is waiting for a request head (a silent one, one
/// trickling its head, or a kept-alive one between requests), of the same address at the address cap, of
/// any at the global one. Only when every connection is inside a request is the new one closed at once
/// (nothing is written to it). So a flood of silent connections cannot keep a probe or an upload out, and
/// each of them is closed after `--head-timeout` anyway; the descriptors in use stay under the cap.
public final class ConnectionLimits: Sendable {
    private struct Entry {
        let channel: any Channel
        let address: String
        /// When it began to wait for a request head (an order, not a time); nil while in a request.
        var waitingSince: UInt64?
        /// Whether it has sent a request head yet.
        var started = false
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var sequence: UInt64 = 0
        var closedByLimits = 0
    }

    public let maxOpen: Int
    public let maxPerAddress: Int
    public let headTimeout: Duration
    private let state = NIOLockedValueBox(State())

    public init(maxOpen: Int, maxPerAddress: Int, headTimeout: Duration) {
        self.maxOpen = maxOpen
        self.maxPerAddress = maxPerAddress
        self.headTimeout = headTimeout
    }

    /// Connections open now.
    public var openConnections: Int { state.withLockedValue { $0.open.count } }
    /// Connections closed by a cap or the head deadline so far.
    public var closedConnections: Int { state.withLockedValue { $0.closedByLimits } }

    /// A handler for a new connection's pipeline (after the HTTP decoder).
    func handler() -> ConnectionLimitsHandler { ConnectionLimitsHandler(limits: self) }

    /// Registers a new connection: true when it may stay (having perhaps closed an older, waiting one).
    fileprivate func opened(_ channel: any Channel) -> Bool {
        let address = Self.address(of: channel)
        let (admitted, evicted): (Bool, (any Channel)?) = state.withLockedValue { state in
            var evicted: (any Channel)?
            func evictOldestWaiting(where matches: (Entry) -> Bool) -> Bool {
                let oldest = state.open.filter { $0.value.waitingSince != nil && matches($0.value) }
                    .min { $0.value.waitingSince! < $1.value.waitingSince! }
                guard let oldest else { return false }
                remove(oldest.key, from: &state)
                evicted = oldest.value.channel
                return true
            }
            if state.perAddress[address, default: 0] >= maxPerAddress,
                !evictOldestWaiting(where: { $0.address == address })
            {
                state.closedByLimits += 1
                return (false, nil)
            }
            if state.open.count >= maxOpen, evicted == nil, !evictOldestWaiting(where: { _ in true }) {
                state.closedByLimits += 1
                return (false, nil)
            }
            if evicted != nil { state.closedByLimits += 1 }
            state.sequence += 1
            state.open[ObjectIdentifier(channel)] = Entry(channel: channel, address: address, waitingSince: state.sequence)
            state.perAddress[address, default: 0] += 1
            return (true, evicted)
        }
        evicted?.close(promise: nil)
        return admitted
    }

    fileprivate func requestStarted(_ channel: any Channel) {
        state.withLockedValue { state in
            state.open[ObjectIdentifier(channel)]?.waitingSince = nil
            state.open[ObjectIdentifier(channel)]?.started = true
        }
    }

    fileprivate func responseEnded(_ channel: any Channel) {
        state.withLockedValue { state in
            guard state.open[ObjectIdentifier(channel)] != nil else { return }
            state.sequence += 1
            state.open[ObjectIdentifier(channel)]?.waitingSince = state.sequence
        }
    }

    /// At the head deadline: true (and forgotten) when the connection has sent no request head yet.
    fileprivate func headDeadlinePassed(_ channel: any Channel) -> Bool {
        state.withLockedValue { state in
            let id = ObjectIdentifier(channel)
            guard let entry = state.open[id], !entry.started else { return false }
            remove(id, from: &state)
            state.closedByLimits += 1
            return true
        }
    }

    fileprivate func closed(_ channel: any Channel) {
        state.withLockedValue { remove(ObjectIdentifier(channel), from: &$0) }
    }

    private func remove(_ id: ObjectIdentifier, from state: inout State) {
        guard let entry = state.open.removeValue(forKey: id) else { return }
        let left = state.perAddress[entry.address, default: 1] - 1
        state.perAddress[entry.address] = left > 0 ? left : nil
    }

    private static func address(of channel: any Channel) -> String {
        channel.remoteAddress?.ipAddress ?? "unknown"
    }
}

/// One connection's part of ``ConnectionLimits``: registers it, notes each request head and response
/// end, and closes it at the head deadline if no head came.
final class ConnectionLimitsHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private var deadline: Scheduled<Void>?

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        guard limits.opened(channel) else {
            context.close(promise: nil)
            return
        }
        let limits = self.limits
        let nanoseconds = limits.headTimeout.components.seconds * 1_000_000_000
            + limits.headTimeout.components.attoseconds / 1_000_000_000
        deadline = context.eventLoop.scheduleTask(in: .nanoseconds(nanoseconds)) {
            if limits.headDeadlinePassed(channel) { channel.close(promise: nil) }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        limits.closed(context.channel)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        limits.closed(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            deadline?.cancel()
            deadline = nil
            limits.requestStarted(context.channel)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { limits.responseEnded(context.channel) }
        context.write(data, promise: promise)
    }
}
