import Foundation

/// A ``JSONMappable`` model that is also `Codable` through its mapping: `init(from:)` and `encode(to:)`
/// follow the mapping (keys, key paths, strategies, transformers, hooks), so the model works with any
/// Decoder or Encoder — JSONDecoder, PropertyListEncoder, server frameworks — and takes ModelMapper's
/// fast path (the model's codec on the same tape / output) with ``ModelDecoder`` and ``ModelEncoder``.
///
/// ```swift
/// struct User: JSONCodable { var id = 0; var name = "" }
/// let user = try JSONDecoder().decode(User.self, from: data)
/// ```
///
/// Through ``ModelDecoder`` and ``ModelEncoder``'s Codable API the model gets the settings JSONDecoder and
/// JSONEncoder apply to a Codable type (key, date, data and non-conforming-float strategies, slash escaping
/// and layout, `userInfo`), mapped onto its mapping options where the options leave them unset.
///
/// Other decoders: the value is read through the standard containers into a ``JSONValue`` and mapped
/// from it (so `DecodingOptions` defaults apply); errors are `DecodingError`s under the decoder's coding
/// path. Classes must be `final` (the protocol supplies `init(from:)`).
public protocol JSONCodable: JSONMappable, Codable {}

extension JSONCodable {
    public init(from decoder: any Decoder) throws {
        self = try MappedCodable.decode(Self.self, from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        try MappedCodable.encode(self, to: encoder)
    }
}

extension GeneratedJSONModel {
    /// Decodes through the model's mapping, as ``JSONCodable`` does.
    public init(from decoder: any Decoder) throws {
        self = try MappedCodable.decode(Self.self, from: decoder)
    }

    /// Encodes through the model's mapping, as ``JSONCodable`` does.
    public func encode(to encoder: any Encoder) throws {
        try MappedCodable.encode(self, to: encoder)
    }
}

/// `Codable` through a model's mapping: the one implementation behind ``JSONCodable`` and
/// ``GeneratedJSONModel``.
enum MappedCodable {
    /// Decodes the model through its ``MappedJSONModel/mapping``: directly from the tape when `decoder` is
    /// ``ModelDecoder``'s, otherwise by reading the value through the standard containers first.
    /// A ``MappingError`` becomes a `DecodingError` under the decoder's coding path.
    static func decode<M: MappedJSONModel>(_: M.Type, from decoder: any Decoder) throws -> M {
        var options = DecodingOptions.lenient
        if let tape = decoder as? TapeDecoder {
            if tape.state.strategies.mapsModelsDirectly {
                return try tape.state.decodeModel(M.self, tape.index, tape.ref) as! M
            }
            // A `.custom` key strategy: read as JSONDecoder reads it (below), keys converted by the
            // containers, with the decoder's mapping options.
            options = tape.state.c.options
        }
        let json = try AnyJSONValue(from: decoder).value
        do {
            return try ModelDecoder(options: options).decode(M.self, fromJSONObject: json)
        } catch let error as MappingError {
            throw CodingPathRendering.decodingError(error, M.self, under: decoder.codingPath, underlying: error)
        }
    }

    /// Encodes the model through its ``MappedJSONModel/mapping`` (the same JSON as ``MappedJSONModel/jsonData(options:)``),
    /// through the standard containers of any `Encoder`.
    static func encode<M: MappedJSONModel>(_ model: M, to encoder: any Encoder) throws {
        var options = EncodingOptions()
        if let tape = encoder as? TapeEncoder {
            if tape.state.strategies.mapsModelsDirectly {
                tape.node = try tape.state.modelNode(model, tape.codingPath)
                return
            }
            // A `.custom` key strategy: written as JSONEncoder writes it (below), keys converted by the
            // containers, with the encoder's mapping options.
            options = tape.state.out.options
        }
        let json: JSONValue
        do {
            json = try model.jsonValue(options: options)
        } catch let error as MappingError {
            throw EncodingError.invalidValue(model, .init(codingPath: encoder.codingPath + CodingPathRendering.keys(error.path),
                                                         debugDescription: error.message, underlyingError: error))
        }
        try AnyJSONValue(json).encode(to: encoder)
    }
}

/// A ``JSONValue`` read from and written to any Decoder/Encoder through the standard containers.
struct AnyJSONValue: Codable {
    var value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: JSONStringKey.self) {
            var object = JSONObject()
            for key in keyed.allKeys {
                object[key.stringValue] = try keyed.decode(AnyJSONValue.self, forKey: key).value
            }
            value = .object(object)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !unkeyed.isAtEnd { elements.append(try unkeyed.decode(AnyJSONValue.self).value) }
            value = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = .null
        } else if let b = try? single.decode(Bool.self) {
            value = .bool(b)
        } else if let i = try? single.decode(Int64.self) {
            value = .number(JSONNumber(i))
        } else if let u = try? single.decode(UInt64.self) {
            value = .number(JSONNumber(u))
        } else if let d = try? single.decode(Double.self) {
            value = .number(JSONNumber(d))
        } else {
            value = .string(try single.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let n):
            var c = encoder.singleValueContainer()
            if n.withLiteralBytes({ NumberParsing.isPlainInteger($0) }), let i = n.int64Value {
                try c.encode(i)
            } else if n.withLiteralBytes({ NumberParsing.isPlainInteger($0) }), let u = n.uint64Value {
                try c.encode(u)
            } else {
                try c.encode(n.doubleValue ?? 0)
            }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let elements):
            var c = encoder.unkeyedContainer()
            for element in elements { try c.encode(AnyJSONValue(element)) }
        case .object(let object):
            var c = encoder.container(keyedBy: JSONStringKey.self)
            for (k, v) in object { try c.encode(AnyJSONValue(v), forKey: JSONStringKey(k)) }
        }
    }
}
