/// Placeholder, replaced by the Codable bridge.
struct JSONValueDecoder: Decoder {
    let value: JSONValue
    let options: DecodingOptions
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    init(value: JSONValue, options: DecodingOptions) { self.value = value; self.options = options }
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { throw MappingError(.unsupportedType, "Codable fallback not implemented") }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw MappingError(.unsupportedType, "Codable fallback not implemented") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { throw MappingError(.unsupportedType, "Codable fallback not implemented") }
}
