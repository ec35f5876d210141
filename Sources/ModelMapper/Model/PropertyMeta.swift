/// One mapped stored property of a model (YYModel's `_YYModelPropertyMeta`).
final class PropertyMeta: @unchecked Sendable {
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
    /// The next property reading the same plain key (index in the model's properties), or -1.
    var next = -1

    init(name: String, offset: Int, codec: FieldCodec, keyPaths: [[String]], isRequired: Bool, isReadOnly: Bool = false) {
        self.isReadOnly = isReadOnly
        self.name = name
        self.offset = offset
        self.codec = codec
        self.keyPaths = keyPaths
        keyPathBytes = keyPaths.map { $0.map { Array($0.utf8) } }
        self.isRequired = isRequired
    }

    /// Read through the key table (a single plain key) rather than looked up after the member loop.
    var isPlainKey: Bool { keyPaths.count == 1 && keyPaths[0].count == 1 }
}

/// The per-property data the decoding loop touches, packed without reference counting.
struct PropertySlot {
    let offset: Int
    /// Unmanaged so the loop calls it without retain/release (`ModelMeta.properties` keeps it alive).
    let codecReference: Unmanaged<FieldCodec>
    /// Built-in types take a switch instead of a codec call.
    let kind: FieldKind
    let takesNull: Bool
    let next: Int32
    /// Bit in the required mask, or -1.
    let requiredBit: Int32

    init(offset: Int, codec: FieldCodec, kind: FieldKind, takesNull: Bool, next: Int32, requiredBit: Int32) {
        self.offset = offset
        codecReference = Unmanaged.passUnretained(codec)
        self.kind = kind
        self.takesNull = takesNull
        self.next = next
        self.requiredBit = requiredBit
    }

    /// Calls the codec's `decodeField` without retaining it.
    @inline(__always)
    func decode(_ c: DecodeContext, _ index: Int, _ field: UnsafeMutableRawPointer) throws(MappingError) {
        var failure: MappingError? = nil
        codecReference._withUnsafeGuaranteedRef { codec in
            do throws(MappingError) { try codec.decodeField(c, index, field) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Calls the codec's `encodeField` without retaining it.
    @inline(__always)
    func encode(_ field: UnsafeRawPointer, _ e: inout EncodeContext) throws(MappingError) {
        var failure: MappingError? = nil
        codecReference._withUnsafeGuaranteedRef { codec in
            do throws(MappingError) { try codec.encodeField(field, &e) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Whether the field holds nil.
    @inline(__always)
    func isNil(_ field: UnsafeRawPointer) -> Bool {
        codecReference._withUnsafeGuaranteedRef { $0.isNilField(field) }
    }
}
