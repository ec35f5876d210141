// Unsafe code: `DateCodec` parses a string or number token's bytes, an `UnsafeRawBufferPointer` into the tape's
// input or arena (`c.tape.bytes`, Tape.swift); `seconds` keeps them (or the trimmed part of them) in `literal`
// until it returns. The other codecs here read strings, not bytes.
//
// Invariants: the bytes are read only during the decode call, while the tape view is valid, and never
// stored; only tokens that have bytes (strings, numbers) are asked for them, after the kind check, which
// `TapeView.bytes` asserts together with the bytes lying inside their buffer.

import Foundation

/// `Date`, read per ``DateStrategy`` and written per the encoding options' strategy.
final class DateCodec: ValueCodec<Date>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Date {
        let token = c.tape[index]
        if token.kind == .foreign { return try ForeignValues.exact(Date.self, expected: "a date", c, index) }
        switch c.options.dateStrategy {
        case .default:
            switch token.kind {
            case .string:
                if let date = DateParsing.parseYYModel(c.tape.bytes(token)) { return date }
                throw c.invalid("\(c.describe(at: index)) is not a date in a supported format", at: index)
            case .number:
                return try Self.seconds(c, index, scale: 1)
            default:
                throw c.mismatch(expected: "a date string or number", at: index)
            }
        case .iso8601:
            guard token.kind == .string else { throw c.mismatch(expected: "an ISO 8601 date string", at: index) }
            if let date = DateParsing.parseISO8601(c.tape.bytes(token)) { return date }
            throw c.invalid("\(c.describe(at: index)) is not an ISO 8601 date-time", at: index)
        case .secondsSince1970:
            return try Self.seconds(c, index, scale: 1)
        case .millisecondsSince1970:
            return try Self.seconds(c, index, scale: 1000)
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
                return try transform(JSONValue(tape: c.tape, index: &i))
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

    override func encode(_ value: Date, _ e: inout EncodeContext) throws(MappingError) {
        switch e.options.dateStrategy {
        case .secondsSince1970:
            try Self.writeTimestamp(value.timeIntervalSince1970, &e)
        case .millisecondsSince1970:
            try Self.writeTimestamp((value.timeIntervalSince1970 * 1000).rounded(), &e)
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
}

extension DateCodec {
    /// A timestamp as JSONEncoder writes it: an integral one without `.0` (`1712491290500`; integer parsers
    /// in other languages reject `1712491290500.0`), others with their shortest fraction.
    static func writeTimestamp(_ value: Double, _ e: inout EncodeContext) throws(MappingError) {
        guard value.isFinite else { throw MappingError(.invalidValue, "\(value) cannot be written as a JSON timestamp") }
        e.writer.number(value, dropsPointZero: true)
    }
}

/// `URL`: a string, trimmed; an empty string is an error (nil for `URL?`).
final class URLCodec: ValueCodec<URL>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> URL {
        guard let url = try decodeOptional(c, index) else {
            throw c.invalid("an empty string is not a URL", at: index)
        }
        return url
    }

    override func decodeOptional(_ c: DecodeContext, _ index: Int) throws(MappingError) -> URL? {
        let token = c.tape[index]
        guard token.kind == .string else {
            if token.kind == .foreign { return try ForeignValues.exact(URL.self, expected: "a URL string", c, index) }
            throw c.mismatch(expected: "a URL string", at: index)
        }
        let text = try c.tape.string(at: index).trimmingWhitespace()
        if text.isEmpty { return nil }
        guard let url = URL(string: text) else { throw c.invalid("\(c.describe(at: index)) is not a URL", at: index) }
        return url
    }

    override func encode(_ value: URL, _ e: inout EncodeContext) throws(MappingError) {
        e.writer.string(value.absoluteString)
    }
}

/// `UUID`: its string form.
final class UUIDCodec: ValueCodec<UUID>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> UUID {
        let token = c.tape[index]
        guard token.kind == .string else {
            if token.kind == .foreign { return try ForeignValues.exact(UUID.self, expected: "a UUID string", c, index) }
            throw c.mismatch(expected: "a UUID string", at: index)
        }
        guard let uuid = UUID(uuidString: try c.tape.string(at: index).trimmingWhitespace()) else {
            throw c.invalid("\(c.describe(at: index)) is not a UUID", at: index)
        }
        return uuid
    }

    override func encode(_ value: UUID, _ e: inout EncodeContext) throws(MappingError) {
        e.writer.string(value.uuidString)
    }
}

/// `TimeZone`: a string naming it, trimmed. An identifier (`"America/Los_Angeles"`, `"UTC"`, `"GMT+0800"`,
/// whatever `TimeZone(identifier:)` knows) in both modes; lenient mode also takes an abbreviation that is
/// not an identifier (`"PDT"`, `"EDT"`, through Foundation's abbreviation table, as JSONModel's
/// `timeZoneWithName:` does). Identifiers come first so a zone written by `encode` (its identifier) reads
/// back as the same zone: `"EST"` is the fixed zone named EST, not New York. An unknown name is
/// `.invalidValue`.
final class TimeZoneCodec: ValueCodec<TimeZone>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> TimeZone {
        guard c.tape[index].kind == .string else { throw c.mismatch(expected: "a time zone identifier", at: index) }
        let name = try c.tape.string(at: index).trimmingWhitespace()
        if let zone = TimeZone(identifier: name) { return zone }
        if c.lenient, let zone = TimeZone(abbreviation: name) { return zone }
        throw c.invalid("\(c.describe(at: index)) is not a time zone \(c.lenient ? "identifier or abbreviation" : "identifier")", at: index)
    }

    override func encode(_ value: TimeZone, _ e: inout EncodeContext) throws(MappingError) {
        e.writer.string(value.identifier)
    }
}

/// `Data`: a base64 string.
final class DataCodec: ValueCodec<Data>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Data {
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

    override func encode(_ value: Data, _ e: inout EncodeContext) throws(MappingError) {
        e.writer.string(value.base64EncodedString())
    }
}
