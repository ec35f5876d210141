// Unsafe code: `DateStrategies.decode` parses a string or number token's bytes, an `UnsafeRawBufferPointer`
// into the tape's input or arena (`c.tape.bytes`, Tape.swift); `seconds` keeps them (or the trimmed part of
// them) in `literal` until it returns; `iso8601` reads a String's UTF-8 through `withUTF8`.
//
// Invariants: the bytes are read only during the decode call, while the tape view (or the String) is valid,
// and never stored; only tokens that have bytes (strings, numbers) are asked for them, after the kind
// check, which `TapeView.bytes` asserts together with the bytes lying inside their buffer.

import Foundation

// The one home of the date and data strategies (issue 40.3): how each strategy reads and writes a value,
// for the four paths —
//
// - mapped decode: `DateCodec`/`DataCodec` → `DateStrategies.decode(_:_:_:)` (a ``DateStrategy``), or, for
//   the models of a Codable decoding whose coder set a JSONDecoder strategy with no `DateStrategy`
//   equivalent (a `JSONCodable` model through `ModelDecoder`), `CodableValueStrategies`;
// - mapped encode: `DateStrategies.encode(_:_:_:)`, or `CodableEncodingStrategies`;
// - Codable decode (`TapeDecoder`): `DateStrategies.decode(_:from:)`, `DataStrategies.decode(_:from:)`;
// - Codable encode (`TapeEncoder`, `StreamingEncoder`): `DateStrategies.output`, `DataStrategies.output`.
//
// A new strategy is one case here. The Codable layer supplies what only it can make: a `Decoder` at a
// token (`StrategyValueSource`, `CodableValueReading`) and an `Encoder` writing into the output
// (`CodableValueWriting`).

// MARK: - What the Codable paths provide

/// A value of a Codable decoding as a JSONDecoder strategy reads it: JSONDecoder's own reading of a number
/// or a string there, a `Decoder` positioned at it, and its data-corrupted error.
protocol StrategyValueSource {
    func double() throws -> Double
    func string() throws -> String
    func decoder() -> any Decoder
    func corrupted(_ message: String) -> any Error
}

/// What a JSONEncoder strategy writes for a value.
enum StrategyOutput {
    /// A number, written as the encoder writes a `Double` (non-conforming values by its float strategy).
    case number(Double)
    case string(String)
    /// What this body writes through an `Encoder` (a `.custom` strategy; `.deferredToData`).
    case encoder((any Encoder) throws -> Void)
    /// The value's own `encode(to:)` (`.deferredToDate`): the encoder's generic path.
    case deferred
    /// A strategy this version does not know: an error, never a value written some other way.
    case unsupported(String)
}

/// Reads a value of a mapped model through a Codable `Decoder` at its token (the Codable layer's decoder
/// over the same tape, with the coder's strategies).
protocol CodableValueReading: AnyObject, Sendable {
    func withSource<T>(_ c: DecodeContext, _ index: Int, _ body: (any StrategyValueSource) throws -> T) throws -> T
}

/// Writes what an `Encoder` body writes into a mapped model's output (the Codable layer's encoder, with the
/// coder's strategies).
protocol CodableValueWriting: AnyObject, Sendable {
    func write(_ body: (any Encoder) throws -> Void, _ e: inout EncodeContext) throws
}

// MARK: - Dates

enum DateStrategies {
    // Mapped: `DateStrategy`.

    /// The date at `index` per `strategy` (the mapping's rules, lenient or strict as `c` says).
    static func decode(_ strategy: DateStrategy, _ c: DecodeContext, _ index: Int) throws(MappingError) -> Date {
        let token = c.tape[index]
        switch strategy {
        case .default:
            switch token.kind {
            case .string:
                if let date = DateParsing.parseYYModel(c.tape.bytes(token)) { return date }
                throw c.invalid("\(c.describe(at: index)) is not a date in a supported format", at: index)
            case .number:
                return try seconds(c, index, scale: 1)
            default:
                throw c.mismatch(expected: "a date string or number", at: index)
            }
        case .iso8601:
            guard token.kind == .string else { throw c.mismatch(expected: "an ISO 8601 date string", at: index) }
            if let date = DateParsing.parseISO8601(c.tape.bytes(token)) { return date }
            throw c.invalid("\(c.describe(at: index)) is not an ISO 8601 date-time", at: index)
        case .secondsSince1970:
            return try seconds(c, index, scale: 1)
        case .millisecondsSince1970:
            return try seconds(c, index, scale: 1000)
        case .formatted(let format):
            guard let pattern = DateFormatPattern(format) else {
                throw MappingError(.unsupportedType, "unsupported date pattern \"\(format)\"")
            }
            guard token.kind == .string else { throw c.mismatch(expected: "a date string", at: index) }
            if let date = DateParsing.parseFormatted(c.tape.bytes(token), format: pattern) { return date }
            throw c.invalid("\(c.describe(at: index)) does not match \"\(format)\"", at: index)
        case .custom(let transform):
            var i = index
            do {
                return try transform.body(JSONValue(tape: c.tape, index: &i))
            } catch let error as MappingError {
                var error = error
                if error.tokenIndex == nil { error.tokenIndex = index }
                throw error
            } catch {
                throw c.invalid("date conversion failed: \(error)", at: index)
            }
        }
    }

    private static func seconds(_ c: DecodeContext, _ index: Int, scale: Double) throws(MappingError) -> Date {
        let token = c.tape[index]
        let literal: UnsafeRawBufferPointer
        switch token.kind {
        case .number:
            literal = c.tape.bytes(token)
        case .string where c.lenient:
            guard let trimmed = NumberParsing.trimmedNumericLiteral(c.tape.bytes(token)) else {
                throw c.invalid("\(c.describe(at: index)) is not a timestamp", at: index)
            }
            literal = trimmed
        default:
            throw c.mismatch(expected: "a timestamp number", at: index)
        }
        guard let value = NumberParsing.double(literal) else {
            throw c.invalid("\(c.describe(at: index)) is out of range for a date", at: index)
        }
        return Date(timeIntervalSince1970: value / scale)
    }

    /// Writes `value` per `strategy` (custom strategies, which only read, write ISO 8601).
    static func encode(_ value: Date, _ strategy: DateStrategy, _ e: inout EncodeContext) throws(MappingError) {
        switch strategy {
        case .secondsSince1970:
            try writeTimestamp(value.timeIntervalSince1970, &e)
        case .millisecondsSince1970:
            try writeTimestamp((value.timeIntervalSince1970 * 1000).rounded(), &e)
        case .formatted(let format):
            guard let pattern = DateFormatPattern(format) else {
                throw MappingError(.unsupportedType, "unsupported date pattern \"\(format)\"")
            }
            var bytes: [UInt8] = []
            DateFormatting.format(value, pattern: pattern, into: &bytes)
            e.writer.string(String(decoding: bytes, as: UTF8.self))
        case .default, .iso8601, .custom:
            e.writer.string(DateFormatting.iso8601String(value))
        }
    }

    /// A timestamp as JSONEncoder writes it: an integral one without `.0` (`1712491290500`; integer parsers
    /// in other languages reject `1712491290500.0`), others with their shortest fraction.
    static func writeTimestamp(_ value: Double, _ e: inout EncodeContext) throws(MappingError) {
        guard value.isFinite else { throw MappingError(.invalidValue, "\(value) cannot be written as a JSON timestamp") }
        e.writer.number(value, dropsPointZero: true)
    }

    /// The mapping's equivalent of a JSONDecoder date strategy (read by the mapping's own parser, no
    /// Decoder needed); nil where there is none.
    static func mapped(_ strategy: JSONDecoder.DateDecodingStrategy) -> DateStrategy? {
        switch strategy {
        case .secondsSince1970: return .secondsSince1970
        case .millisecondsSince1970: return .millisecondsSince1970
        case .iso8601: return .iso8601
        default: return nil
        }
    }

    /// The mapping's equivalent of a JSONEncoder date strategy; nil where there is none.
    static func mapped(_ strategy: JSONEncoder.DateEncodingStrategy) -> DateStrategy? {
        switch strategy {
        case .secondsSince1970: return .secondsSince1970
        case .millisecondsSince1970: return .millisecondsSince1970
        case .iso8601: return .iso8601
        default: return nil
        }
    }

    // Codable: JSONDecoder's and JSONEncoder's strategies.

    /// The date at `source` as JSONDecoder reads it with `strategy`.
    static func decode(_ strategy: JSONDecoder.DateDecodingStrategy, from source: some StrategyValueSource) throws -> Date {
        switch strategy {
        case .deferredToDate:
            return try Date(from: source.decoder())
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try source.double())
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try source.double() / 1000)
        case .iso8601:
            // JSONDecoder's reading (fractions of 1...9 digits and its other rules), by the same parser as
            // `DateStrategy.iso8601` (`DateParsing.parseISO8601`, dialect `.jsonDecoder`).
            var text = try source.string()
            guard let date = text.withUTF8({ DateParsing.parseISO8601(UnsafeRawBufferPointer($0), .jsonDecoder) }) else {
                throw source.corrupted("Expected date string to be ISO8601-formatted.")
            }
            return date
        #if canImport(Darwin)
        // Apple's Foundation has `.formatted(DateFormatter)` as a case of its own (swift-corelibs-foundation
        // makes it a `.custom` strategy, handled below); read as JSONDecoder reads it.
        case .formatted(let formatter):
            guard let date = formatter.date(from: try source.string()) else {
                throw source.corrupted("Date string does not match format expected by formatter.")
            }
            return date
        #endif
        case .custom(let transform):
            return try transform(source.decoder())
        @unknown default:
            throw source.corrupted("ModelDecoder does not support this dateDecodingStrategy (\(strategy)).")
        }
    }

    /// What JSONEncoder writes for `date` with `strategy`.
    static func output(_ date: Date, _ strategy: JSONEncoder.DateEncodingStrategy) -> StrategyOutput {
        switch strategy {
        case .deferredToDate: return .deferred
        case .secondsSince1970: return .number(date.timeIntervalSince1970)
        case .millisecondsSince1970: return .number(1000.0 * date.timeIntervalSince1970)
        case .iso8601: return .string(DateFormatting.iso8601JSONEncoder(date))
        #if canImport(Darwin)
        case .formatted(let formatter): return .string(formatter.string(from: date))
        #endif
        case .custom(let transform): return .encoder { try transform(date, $0) }
        @unknown default: return .unsupported("ModelEncoder does not support this dateEncodingStrategy (\(strategy)).")
        }
    }
}

// MARK: - Data

enum DataStrategies {
    /// Mapped: a base64 string.
    static func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Data {
        let token = c.tape[index]
        guard token.kind == .string else {
            if token.kind == .foreign { return try ForeignValues.exact(Data.self, expected: "a base64 string", c, index) }
            throw c.mismatch(expected: "a base64 string", at: index)
        }
        guard let data = Data(base64Encoded: try c.tape.string(at: index)) else {
            throw c.invalid("\(c.describe(at: index)) is not valid base64", at: index)
        }
        return data
    }

    /// Mapped: a base64 string.
    static func encode(_ value: Data, _ e: inout EncodeContext) {
        e.writer.string(value.base64EncodedString())
    }

    /// The data at `source` as JSONDecoder reads it with `strategy`.
    static func decode(_ strategy: JSONDecoder.DataDecodingStrategy, from source: some StrategyValueSource) throws -> Data {
        switch strategy {
        case .deferredToData:
            return try Data(from: source.decoder())
        case .base64:
            guard let data = Data(base64Encoded: try source.string()) else {
                throw source.corrupted("Encountered Data is not valid Base64.")
            }
            return data
        case .custom(let transform):
            return try transform(source.decoder())
        @unknown default:
            throw source.corrupted("ModelDecoder does not support this dataDecodingStrategy (\(strategy)).")
        }
    }

    /// What JSONEncoder writes for `data` with `strategy`.
    static func output(_ data: Data, _ strategy: JSONEncoder.DataEncodingStrategy) -> StrategyOutput {
        switch strategy {
        case .deferredToData: return .encoder { try data.encode(to: $0) }
        case .base64: return .string(data.base64EncodedString())
        case .custom(let transform): return .encoder { try transform(data, $0) }
        @unknown default: return .unsupported("ModelEncoder does not support this dataEncodingStrategy (\(strategy)).")
        }
    }
}

// MARK: - Non-conforming floats

enum NonConformingFloats {
    /// The value a string stands for under `strategy` (`.convertFromString`), if it is one of its forms.
    static func value(of text: String, _ strategy: JSONDecoder.NonConformingFloatDecodingStrategy) -> Double? {
        guard case .convertFromString(let positive, let negative, let nan) = strategy else { return nil }
        if text == positive { return .infinity }
        if text == negative { return -.infinity }
        if text == nan { return .nan }
        return nil
    }

    /// The string a non-finite value is written as under `strategy` (`.convertToString`); nil: an error.
    static func text(of value: Double, _ strategy: JSONEncoder.NonConformingFloatEncodingStrategy) -> String? {
        guard case .convertToString(let positive, let negative, let nan) = strategy else { return nil }
        return value.isNaN ? nan : value > 0 ? positive : negative
    }
}

// MARK: - A Codable coder's strategies for mapped models

/// JSONDecoder's date, data and non-conforming-float strategies for the mapped models of one Codable
/// decoding (a ``JSONCodable`` model through `ModelDecoder`), set on its options
/// (`DecodingOptions.codableStrategies`) where a strategy has no ``DateStrategy`` equivalent; nil everywhere
/// else, so the mapped paths pay one nil check on a date, data or non-number float value.
final class CodableValueStrategies: Sendable {
    /// nil: the options' own ``DateStrategy``.
    let dates: JSONDecoder.DateDecodingStrategy?
    /// nil: the mapping's base64 (JSONDecoder's `.base64`).
    let data: JSONDecoder.DataDecodingStrategy?
    let nonConformingFloats: JSONDecoder.NonConformingFloatDecodingStrategy
    let reader: any CodableValueReading

    init(dates: JSONDecoder.DateDecodingStrategy?, data: JSONDecoder.DataDecodingStrategy?,
         nonConformingFloats: JSONDecoder.NonConformingFloatDecodingStrategy, reader: any CodableValueReading) {
        self.dates = dates
        self.data = data
        self.nonConformingFloats = nonConformingFloats
        self.reader = reader
    }

    /// `read` through a Codable decoder at the token; what it throws becomes a ``MappingError`` that keeps
    /// the original (`codableError`), which the Codable decoder throws again as JSONDecoder would.
    func read<T>(_ c: DecodeContext, _ index: Int, _ read: (any StrategyValueSource) throws -> T) throws(MappingError) -> T {
        do {
            return try reader.withSource(c, index, read)
        } catch {
            var mapped: MappingError
            switch error {
            case let error as MappingError: mapped = error
            case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
                mapped = MappingError(.typeMismatch, context.debugDescription)
            case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context):
                mapped = MappingError(.invalidValue, context.debugDescription)
            default:
                mapped = MappingError(.invalidValue, "\(error)")
            }
            if mapped.tokenIndex == nil { mapped.tokenIndex = index }
            if !(error is MappingError) { mapped.codableError = error }
            throw mapped
        }
    }
}

/// JSONEncoder's date, data and non-conforming-float strategies for the mapped models of one Codable
/// encoding (a ``JSONCodable`` model through `ModelEncoder`), as ``CodableValueStrategies`` for decoding.
final class CodableEncodingStrategies: Sendable {
    let dates: JSONEncoder.DateEncodingStrategy?
    let data: JSONEncoder.DataEncodingStrategy?
    let nonConformingFloats: JSONEncoder.NonConformingFloatEncodingStrategy
    let writer: any CodableValueWriting

    init(dates: JSONEncoder.DateEncodingStrategy?, data: JSONEncoder.DataEncodingStrategy?,
         nonConformingFloats: JSONEncoder.NonConformingFloatEncodingStrategy, writer: any CodableValueWriting) {
        self.dates = dates
        self.data = data
        self.nonConformingFloats = nonConformingFloats
        self.writer = writer
    }

    /// Writes `output` for `value` into the mapped model's output.
    func write(_ output: StrategyOutput, of value: some Encodable, _ e: inout EncodeContext) throws(MappingError) {
        do {
            switch output {
            case .number(let d):
                if d.isFinite { return e.writer.number(d, dropsPointZero: true) }
                guard let text = NonConformingFloats.text(of: d, nonConformingFloats) else {
                    throw MappingError(.invalidValue, "Unable to encode Double.\(d) directly in JSON.")
                }
                e.writer.string(text)
            case .string(let s):
                e.writer.string(s)
            case .encoder(let body):
                try writer.write(body, &e)
            case .deferred:
                try writer.write({ try value.encode(to: $0) }, &e)
            case .unsupported(let message):
                throw MappingError(.invalidValue, message)
            }
        } catch let error as MappingError {
            throw error
        } catch {
            var mapped = MappingError(.invalidValue, "\(error)")
            mapped.codableError = error
            throw mapped
        }
    }
}
