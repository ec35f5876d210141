import Foundation

// The Foundation value types. Dates and `Data` are read and written per strategy in ValueStrategies.swift,
// the strategies' one home.

/// `Date`, read per ``DateStrategy`` and written per the encoding options' strategy; for the models of a
/// Codable coding, per the coder's JSONDecoder/JSONEncoder strategy where it has no `DateStrategy` equivalent.
final class DateCodec: ValueCodec<Date>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Date {
        if c.tape[index].kind == .foreign { return try ForeignValues.exact(Date.self, expected: "a date", c, index) }
        if let codable = c.options.codableStrategies, let strategy = codable.dates {
            return try codable.read(c, index) { try DateStrategies.decode(strategy, from: $0) }
        }
        return try DateStrategies.decode(c.options.dateStrategy, c, index)
    }

    override func encode(_ value: Date, _ e: inout EncodeContext) throws(MappingError) {
        if let codable = e.options.codableStrategies, let strategy = codable.dates {
            return try codable.write(DateStrategies.output(value, strategy), of: value, &e)
        }
        try DateStrategies.encode(value, e.options.dateStrategy, &e)
    }
}

/// `URL`: a string, trimmed; an empty string is an error (nil for `URL?`). `.lenient` reads the string as
/// this Foundation's `URL(string:)` does, which percent-escapes what a URL cannot hold (`"100%"` is
/// `100%25`, `"http://github.com/a b"` is `http://github.com/a%20b`), as JSONDecoder does; `.strict`
/// refuses a string that is not a URL as written (`URL(string:encodingInvalidCharacters: false)`, Mantle's
/// rule), `.invalidValue`.
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
        guard let url = URL(string: text, encodingInvalidCharacters: c.lenient) else {
            let reason = c.lenient ? "" : " without percent-escaping (strict)"
            throw c.invalid("\(c.describe(at: index)) is not a URL\(reason)", at: index)
        }
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
        // The canonical form from the bytes, without a String; anything else (padding, errors) as before.
        if let uuid = UUIDParsing.parse(c.tape.bytes(token)) { return uuid }
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

/// `Data`: a base64 string; for the models of a Codable coding, per the coder's data strategy.
final class DataCodec: ValueCodec<Data>, @unchecked Sendable {
    override func decode(_ c: DecodeContext, _ index: Int) throws(MappingError) -> Data {
        if let codable = c.options.codableStrategies, let strategy = codable.data, c.tape[index].kind != .foreign {
            return try codable.read(c, index) { try DataStrategies.decode(strategy, from: $0) }
        }
        return try DataStrategies.decode(c, index)
    }

    override func encode(_ value: Data, _ e: inout EncodeContext) throws(MappingError) {
        if let codable = e.options.codableStrategies, let strategy = codable.data {
            return try codable.write(DataStrategies.output(value, strategy), of: value, &e)
        }
        DataStrategies.encode(value, &e)
    }
}
