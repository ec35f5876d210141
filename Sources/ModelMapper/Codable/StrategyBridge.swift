import Foundation

// What the strategies' home (Codecs/ValueStrategies.swift) needs from the Codable layer: a value of a
// Codable decoding as a JSONDecoder strategy reads it (`TapeValueSource`), and, for the mapped models of a
// Codable coding (a `JSONCodable` model through `ModelDecoder`/`ModelEncoder`), a Codable decoder or encoder
// at one value with the coder's strategies (`CodableValueReader`, `CodableValueWriter`).

/// The value at `index` of a Codable decoding, for a JSONDecoder strategy.
struct TapeValueSource: StrategyValueSource {
    let state: TapeDecodingState
    let index: Int
    let ref: PathRef

    func double() throws -> Double { try state.decodeDouble(index, state.resolve(ref)) }
    func string() throws -> String { try state.decodeString(index, state.resolve(ref)) }
    func decoder() -> any Decoder { TapeDecoder(state: state, index: index, ref: ref) }
    func corrupted(_ message: String) -> any Error { state.dataCorrupted(index, state.resolve(ref), message) }
}

/// Reads one value of a mapped model with a Codable decoder over the model's tape, in the Foundation mode
/// with the coder's strategies (a decoding nested in the model's: the thread's spare state of that depth).
/// `@unchecked Sendable`: immutable; the strategies' `userInfo` holds `Any` values, shared as JSONDecoder
/// shares them with the strategies' closures.
final class CodableValueReader: CodableValueReading, @unchecked Sendable {
    private let models: any MappedModelCodecs
    private let strategies: FoundationDecodingStrategies

    init(models: any MappedModelCodecs, strategies: FoundationDecodingStrategies) {
        self.models = models
        self.strategies = strategies
    }

    func withSource<T>(_ c: DecodeContext, _ index: Int, _ body: (any StrategyValueSource) throws -> T) throws -> T {
        var state = TapeDecodingState.begin(tape: c.tape, context: c, mode: .foundation, models: models, strategies: strategies)
        defer { TapeDecodingState.end(&state) }
        return try body(TapeValueSource(state: state, index: index, ref: .stack(0)))
    }
}

/// Writes what an `Encoder` body writes into a mapped model's output, with a Codable encoder in the
/// Foundation mode with the coder's strategies. `@unchecked Sendable` as ``CodableValueReader``.
final class CodableValueWriter: CodableValueWriting, @unchecked Sendable {
    private let models: any MappedModelCodecs
    private let strategies: FoundationEncodingStrategies

    init(models: any MappedModelCodecs, strategies: FoundationEncodingStrategies) {
        self.models = models
        self.strategies = strategies
    }

    func write(_ body: (any Encoder) throws -> Void, _ e: inout EncodeContext) throws {
        let state = TapeEncodingState(mode: .foundation, options: e.options, models: models, strategies: strategies)
        let encoder = TapeEncoder(state: state, codingPath: [])
        try body(encoder)
        try state.throwRefusal()
        try state.write(encoder.node ?? .object(EncodedObject()), &e)
    }
}

extension TapeDecodingState {
    /// What a coder's strategy threw inside a mapped model, with its coding path under `path` (the model's
    /// path and the property's): a DecodingError as JSONDecoder would have thrown it there; anything else
    /// as thrown.
    static func rebased(_ error: any Error, under path: [any CodingKey]) -> any Error {
        guard let decoding = error as? DecodingError else { return error }
        func rebased(_ c: DecodingError.Context) -> DecodingError.Context {
            .init(codingPath: path + c.codingPath, debugDescription: c.debugDescription, underlyingError: c.underlyingError)
        }
        switch decoding {
        case .typeMismatch(let type, let c): return DecodingError.typeMismatch(type, rebased(c))
        case .valueNotFound(let type, let c): return DecodingError.valueNotFound(type, rebased(c))
        case .keyNotFound(let key, let c): return DecodingError.keyNotFound(key, rebased(c))
        case .dataCorrupted(let c): return DecodingError.dataCorrupted(rebased(c))
        @unknown default: return error
        }
    }
}
