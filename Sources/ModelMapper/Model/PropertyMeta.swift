/// One mapped stored property of a model (YYModel's `_YYModelPropertyMeta`).
final class PropertyMeta: Sendable {
    /// The Swift property name (used in error paths).
    let name: String
    /// Byte offset of the stored property from the start of the struct or class instance.
    let offset: Int
    /// Decodes and encodes the property's type.
    let codec: FieldCodec
    /// Where the value is: one or more key paths (one path of one component is a plain key).
    let keyPaths: [[String]]
    /// `keyPaths` as UTF-8 bytes, for matching against the tape.
    let keyPathBytes: [[[UInt8]]]
    /// Whether a missing key is an error.
    let isRequired: Bool
    /// A struct `let`: encoded, never decoded (writing it would be undefined behaviour).
    let isReadOnly: Bool
    /// Whether decoding reads it: not a `let`, not in `ignoredWhenDecoding`.
    let isDecoded: Bool
    /// The key path written when encoding (`encodingKeys`, else the first of `keyPaths`); nil: never
    /// written (`ignoredWhenEncoding`).
    let encodingPath: [String]?

    init(name: String, offset: Int, codec: FieldCodec, keyPaths: [[String]], isRequired: Bool, isReadOnly: Bool,
         isDecoded: Bool, encodingPath: [String]?) {
        self.isReadOnly = isReadOnly
        self.isDecoded = isDecoded && !isReadOnly
        self.encodingPath = encodingPath
        self.name = name
        self.offset = offset
        self.codec = codec
        self.keyPaths = keyPaths
        keyPathBytes = keyPaths.map { $0.map { Array($0.utf8) } }
        self.isRequired = isRequired
    }

    /// Read through the key table (a single plain key) rather than looked up after the member loop.
    var isPlainKey: Bool { keyPaths.count == 1 && keyPaths[0].count == 1 }

    /// Adds this property to the path of an error raised while encoding it: its name, and in the JSON
    /// path the key path it is written to.
    func prependEncoded(to error: inout MappingError) {
        error.prependKey(name, jsonKey: encodingPath?.joined(separator: "."))
    }
}
