import Foundation

// Strategy application in the Codable decoder: the key strategy, non-conforming floats, dates, data and
// URLs (the date and data strategies themselves are applied by Codecs/ValueStrategies.swift).

extension TapeDecodingState {
    /// The member key at token `keyIndex` after the key strategy.
    func convertedKey(_ keyIndex: Int, codingPath: [any CodingKey]) throws -> String {
        let raw = try text(at: keyIndex, codingPath)
        switch strategies.keys {
        case .useDefaultKeys:
            return raw
        case .convertFromSnakeCase:
            return FoundationKeys.fromSnakeCase(raw)
        case .custom(let transform):
            return transform(codingPath + [JSONStringKey(raw)]).stringValue
        @unknown default:
            return raw
        }
    }

    /// The keys of the members of the object at `object` (its end token `end`) after the key strategy, in
    /// member order. A `.custom` conversion gets the object's path and the member's key, as from JSONDecoder;
    /// the path is built once per object (the closure keeping it makes the next member's path a copy).
    func convertedMemberKeys(_ object: Int, end: Int, codingPath: [any CodingKey]) throws -> [(Int, String)] {
        var keys: [(Int, String)] = []
        var path = codingPath
        path.append(JSONStringKey(""))
        var k = object + 1
        while k < end {
            let raw = try text(at: k, codingPath)
            switch strategies.keys {
            case .convertFromSnakeCase:
                keys.append((k, FoundationKeys.fromSnakeCase(raw)))
            case .custom(let transform):
                path[path.count - 1] = JSONStringKey(raw)
                keys.append((k, transform(path).stringValue))
            default:
                keys.append((k, raw))
            }
            k = tape.indexAfterValue(at: k + 1)
        }
        return keys
    }

    /// `nonConformingFloatDecodingStrategy`: the string forms of infinity and NaN, when configured.
    func nonConforming(_ index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> Double? {
        guard isFoundation, kind(index) == .string, case .convertFromString = strategies.nonConformingFloats else { return nil }
        return NonConformingFloats.value(of: try text(at: index, path()), strategies.nonConformingFloats)
    }

    /// The text of the string or key token at `index`, for a strategy that reads it; invalid UTF-8 is a
    /// DecodingError (dataCorrupted) like every other error of this decoder.
    private func text(at index: Int, _ path: @autoclosure () -> [any CodingKey]) throws -> String {
        do {
            return try tape.string(at: index)
        } catch {
            throw dataCorrupted(index, path(), error.message)
        }
    }

    func decodeDate(_ index: Int, _ ref: PathRef) throws -> Date {
        guard isFoundation else { return try decodeWithCodec(dateCodec, strictInFoundation: false, index, ref) }
        // `.iso8601` from the string's bytes (the parser `DateStrategies` uses after making a String); a
        // string it does not read goes the general way below, which makes JSONDecoder's error.
        if case .iso8601 = strategies.dates, index >= 0, tape[index].kind == .string,
           let date = DateParsing.parseISO8601(tape.bytes(tape[index]), .jsonDecoder) {
            return date
        }
        return try DateStrategies.decode(strategies.dates, from: TapeValueSource(state: self, index: index, ref: ref))
    }

    func decodeData(_ index: Int, _ ref: PathRef) throws -> Data {
        guard isFoundation else { return try decodeWithCodec(dataCodec, strictInFoundation: false, index, ref) }
        return try DataStrategies.decode(strategies.data, from: TapeValueSource(state: self, index: index, ref: ref))
    }

    func decodeURL(_ index: Int, _ ref: PathRef) throws -> URL {
        guard isFoundation else { return try decodeWithCodec(urlCodec, strictInFoundation: false, index, ref) }
        let text = try decodeString(index, resolve(ref))
        guard let url = URL(string: text) else { throw dataCorrupted(index, resolve(ref), "Invalid URL string.") }
        return url
    }
}
