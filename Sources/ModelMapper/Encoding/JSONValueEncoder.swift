/// Placeholder, replaced by the Codable bridge.
struct JSONValueEncoder {
    let options: EncodingOptions
    func encode(_ value: any Encodable) throws -> JSONValue { throw MappingError(.unsupportedType, "Codable fallback not implemented") }
}
