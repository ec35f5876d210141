import NIOCore
import NIOHTTPTypes

/// `--idle-timeout`: closes a connection that sends nothing for that long *while the server waits for it*
/// (issue #44.7). Hummingbird's own idle timeout counted the time since the last bytes read, so an upload
/// whose body was all sent while the server was still storing earlier batches (and so not reading: the
/// body waits in the socket's buffers, held back by backpressure) was reset as idle (2 of 4 such uploads).
/// Here the clock runs only while a read is asked for (`read()` passed down and no data back yet) and no
/// request is waiting for its answer: a client trickling nothing into a body or between requests is closed,
/// one the server is not reading from, or is answering, is not.
final class IdleTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    /// Since when the server has asked for data and got none; nil while it is not asking.
    private var waitingSince: NIODeadline?
    /// Requests whose body has ended and whose answer has not (the server is working, the client waits).
    private var answering = 0
    private var check: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        schedule(context, in: timeout)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    func read(context: ChannelHandlerContext) {
        if waitingSince == nil { waitingSince = .now() }
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        waitingSince = nil
        if case .end = unwrapInboundIn(data) { answering += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), answering > 0 {
            answering -= 1
            // The client's time to send its next request starts now.
            if waitingSince != nil { waitingSince = .now() }
        }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        context.fireChannelInactive()
    }

    private func schedule(_ context: ChannelHandlerContext, in delay: TimeAmount) {
        check = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: delay) { [self] in
            self.check = nil
            guard context.channel.isActive else { return }
            guard answering == 0, let since = waitingSince else {
                schedule(context, in: timeout)
                return
            }
            let idle = NIODeadline.now() - since
            if idle >= timeout {
                context.close(promise: nil)
            } else {
                schedule(context, in: timeout - idle)
            }
        }
    }
}
