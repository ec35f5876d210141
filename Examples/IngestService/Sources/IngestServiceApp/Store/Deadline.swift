import NIOConcurrencyHelpers

/// Runs `body` in a task of its own and answers by `timeout` whether or not that task has ended: with
/// its result, or with ``StoreError/unavailable(_:)`` (the task is then cancelled and left to end on
/// its own).
///
/// Why not a task group racing a sleep: a group waits for all its children, so a child that neither
/// finishes nor heeds cancellation holds the caller forever. postgres-nio has such an await: a query
/// written to a connection whose channel has already been torn down (the server ended the session) is
/// dropped by the empty pipeline, and its promise is never completed (`PostgresConnection.query` writes
/// with `promise: nil`; the upstream fix, vapor/postgres-nio#487, was reverted). An upload waiting on it
/// would never be answered. Here the caller gets its 503 on time; the abandoned task keeps what it holds
/// (one batch) until its query ends, which such a query never does — rare, and bounded per failure.
func withDeadline<T: Sendable>(
    _ timeout: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = FirstResult<T>()
    let work = Task { race.finish(await Result { try await body() }) }
    let timer = Task {
        guard (try? await Task.sleep(for: timeout)) != nil else { return }
        race.finish(.failure(StoreError.unavailable("\(what) took longer than \(timeout)")))
        work.cancel()
    }
    defer { timer.cancel() }
    return try await withTaskCancellationHandler {
        try await race.value()
    } onCancel: {
        race.finish(.failure(CancellationError()))
        work.cancel()
    }
}

/// The first of several results, handed to one waiter (who may come before or after it).
final class FirstResult<T: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<T, any Error>)
        case finished(Result<T, any Error>)
        case delivered
    }

    private let state = NIOLockedValueBox(State.empty)

    func finish(_ result: Result<T, any Error>) {
        state.withLockedValue { state in
            switch state {
            case .empty: state = .finished(result)
            case .waiting(let continuation):
                state = .delivered
                continuation.resume(with: result)
            case .finished, .delivered: break
            }
        }
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            state.withLockedValue { state in
                switch state {
                case .empty: state = .waiting(continuation)
                case .finished(let result):
                    state = .delivered
                    continuation.resume(with: result)
                case .waiting, .delivered: preconditionFailure("one waiter only")
                }
            }
        }
    }
}

extension Result where Failure == any Error {
    /// The outcome of an async throwing `body`.
    init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
