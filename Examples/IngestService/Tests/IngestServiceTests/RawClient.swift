import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking TCP client that can misbehave: send part of a request and hang up.
final class RawClient: @unchecked Sendable {
    private let fd: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestFailure("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw TestFailure("connect: \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < buffer.count {
                let n = Foundation.send(fd, base + done, buffer.count - done, Int32(MSG_NOSIGNAL))
                guard n > 0 else { throw TestFailure("send: \(errno)") }
                done += n
            }
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Reads until the server closes the connection or `timeout` passes (blocking: call it off the
    /// cooperative pool, see ``offThread(_:)``): the bytes read, and whether the server closed it.
    func readUntilClosed(timeout: Duration) -> (bytes: [UInt8], closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return (bytes, false) }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000) + 1
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (bytes, true) }  // closed (FIN) or reset
            bytes += buffer.prefix(n)
        }
    }

    /// Closes the connection at once (RST rather than FIN, as a crashed client would).
    func abort() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(fd, Int32(SHUT_RDWR))
    }
}

/// Runs blocking `work` on a thread of its own, so that it holds none of the cooperative pool's threads
/// (two on this machine), which the in-process server's handlers need.
func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
