import Foundation

extension KeyStrategy {
    /// A custom strategy with an identity: every strategy made with an equal `id` is the same strategy, the
    /// first `transform` given for that `id` (later ones are not called).
    ///
    /// Model metadata is built once per key strategy and kept for the process. A plain ``custom(_:)`` is
    /// known by its closure value, so options made once and reused share one set; but a closure made anew
    /// for each call (one that captures per-request values, say) is a new strategy every time, and at most
    /// 32 of those are accepted. Name the strategy instead, and options built for every request share the
    /// metadata of the first:
    ///
    /// ```swift
    /// var options = DecodingOptions.lenient
    /// options.keyStrategy = .custom(id: "legacy-keys") { "k_" + $0 }   // any number of times
    /// ```
    ///
    /// Any number of ids is accepted; each keeps its metadata for the process, like a type's own, so use one
    /// id per behaviour, not per call.
    public static func custom(id: some Hashable & Sendable, _ transform: @escaping @Sendable (String) -> String) -> KeyStrategy {
        NamedKeyStrategies.shared.strategy(AnyHashable(id), .custom(transform))
    }

    /// Whether this is a strategy made by ``custom(id:_:)``.
    var isNamedCustom: Bool {
        guard let identity = customIdentity else { return false }
        return NamedKeyStrategies.shared.contains(identity)
    }
}

/// The strategies made by `KeyStrategy.custom(id:_:)`, kept for the process: each id's first strategy
/// value, handed out again for the id (the same closure words, so the same identity for `MetaCache` and
/// for options' equality). The values are stored as `KeyStrategy`s, never as bare closures: a closure
/// stored in a generic container comes back reabstracted, with a context of its own each time.
/// The lock is taken when a strategy is made or a variant cache first built, never by a decode.
final class NamedKeyStrategies: Sendable {
    static let shared = NamedKeyStrategies()

    private struct State {
        var byID: [AnyHashable: KeyStrategy] = [:]
        var identities: Set<ClosureWords> = []
    }

    private let state = LockedValue(State())

    func strategy(_ id: AnyHashable, _ made: KeyStrategy) -> KeyStrategy {
        state.withLock { state in
            if let kept = state.byID[id] { return kept }
            state.byID[id] = made
            state.identities.insert(made.customIdentity!)
            return made
        }
    }

    func contains(_ identity: ClosureWords) -> Bool {
        state.withLock { $0.identities.contains(identity) }
    }
}
