import Foundation

// `encodeIfPresent` for both keyed encoding containers (the streaming encoder's and the tree encoder's).

/// A keyed encoding container whose `encodeIfPresent` encodes a value it is given, and hands a nil to
/// `encodeAbsent`: omitted, as JSONEncoder does, or (mapping mode with `writesNulls`) written as null.
/// The standard library's defaults would omit every nil.
protocol OptionalMemberEncoding: KeyedEncodingContainerProtocol {
    /// The member `key` for a nil value.
    mutating func encodeAbsent(forKey key: Key)
}

extension OptionalMemberEncoding {
    @inline(__always)
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
    @inline(__always)
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { encodeAbsent(forKey: key) }
    }
}
