import NIOConcurrencyHelpers

/// The SIGTERM drain's deadline (`--drain-timeout`, issue #44.7: a client trickling a byte every 5 s held
/// shutdown for 63 s). ``DrainSignal`` starts it when the server stops accepting; when it passes, every
/// upload still reading its body is cut (``CuttableBody``): it stops waiting for the client, stores the
/// records it has read, and is answered 503 `shuttingDown` with what it committed.
public final class UploadDrain: Sendable {
    private struct State {
        var cut = false
        var nextID = 0
        var handlers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// Whether the deadline has passed.
    public var isCut: Bool { state.withLockedValue { $0.cut } }

    /// Cuts every upload reading now, and every one that reads after this.
    public func cut() {
        let handlers = state.withLockedValue { state -> [@Sendable () -> Void] in
            state.cut = true
            defer { state.handlers = [:] }
            return Array(state.handlers.values)
        }
        for handler in handlers { handler() }
    }

    /// Calls `handler` at the cut; nil (and no call) when it has come already.
    func register(_ handler: @escaping @Sendable () -> Void) -> Int? {
        state.withLockedValue { state in
            guard !state.cut else { return nil }
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return state.nextID
        }
    }

    func unregister(_ id: Int) {
        _ = state.withLockedValue { $0.handlers.removeValue(forKey: id) }
    }
}

/// Thrown by ``CuttableBody`` at the drain's deadline.
struct DrainCutError: Error, CustomStringConvertible {
    var description: String { "the server is shutting down (its drain deadline passed)" }
}

/// A request body that stops at ``UploadDrain/cut()``, even while it waits for a client that sends
/// nothing: each read runs in a task of its own, raced against the cut (the task is then cancelled, which
/// ends the connection's inbound stream, so the server closes the connection after the answer).
struct CuttableBody<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
    typealias Element = Base.Element
    let base: Base
    let drain: UploadDrain

    /// The base iterator, used by one read at a time (each read is awaited before the next starts).
    fileprivate final class Box: @unchecked Sendable {
        var iterator: Base.AsyncIterator
        init(_ iterator: Base.AsyncIterator) { self.iterator = iterator }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let box: Box
        let drain: UploadDrain
        var done = false

        mutating func next() async throws -> Element? {
            guard !done else { return nil }
            let race = FirstResult<Element?>()
            let box = self.box
            let read = Task { race.finish(await Result { try await box.iterator.next() }) }
            guard let id = drain.register({ race.finish(.failure(DrainCutError())); read.cancel() }) else {
                read.cancel()
                done = true
                throw DrainCutError()
            }
            defer { drain.unregister(id) }
            do {
                let element = try await withTaskCancellationHandler {
                    try await race.value()
                } onCancel: {
                    race.finish(.failure(CancellationError()))
                    read.cancel()
                }
                if element == nil { done = true }
                return element
            } catch {
                done = true
                throw error
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(box: Box(base.makeAsyncIterator()), drain: drain)
    }
}
