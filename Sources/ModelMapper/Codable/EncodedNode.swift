import Foundation

// The tree encoder's nodes (TapeEncoder.swift).

/// One encoded value.
enum EncodedNode {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    /// Number text written as is (Decimal).
    case number(String)
    case array(EncodedArray)
    case object(EncodedObject)
    /// A value written by another encoder (`superEncoder`), resolved when writing.
    case encoder(TapeEncoder)
    /// A value written by a codec (`JSONMappable` models, mapping-mode dates and data).
    case custom(EncodedCustom)
}

extension EncodedNode {
    /// What an `EncodingError` shows of an encoded value: what `JSONSerialization` would give for it
    /// (`NSNull`, `Bool`, a number, `String`, `[Any]`, `[String: Any]`), never this internal type. A value a
    /// mapped model's codec writes when the tree is written is shown by its kind.
    static func errorValue(_ node: EncodedNode?) -> Any {
        switch node {
        case nil, .null?: return NSNull()
        case .bool(let v)?: return v
        case .int(let v)?: return v
        case .uint(let v)?: return v
        case .double(let v)?: return v
        case .float(let v)?: return v
        case .string(let v)?, .number(let v)?: return v
        case .array(let array)?: return array.values.map { errorValue($0) }
        case .object(let object)?:
            return Dictionary(object.members.map { ($0.key, errorValue($0.value)) }, uniquingKeysWith: { _, last in last })
        case .encoder(let encoder)?: return errorValue(encoder.node)
        case .custom?: return "a value written by a mapped model's codec"
        }
    }
}

final class EncodedArray {
    @exclusivity(unchecked) var values: [EncodedNode] = []
}

/// Members in insertion order; encoding a key again replaces its value in place (found by comparing
/// UTF-8 lengths first, so distinct keys rarely cost a string comparison).
final class EncodedObject {
    struct Member {
        var key: String
        var length: Int
        var value: EncodedNode
    }

    @exclusivity(unchecked) var members: [Member] = []
    /// Key -> member index, once the object is large (dictionaries): lookups stay O(1).
    @exclusivity(unchecked) var index: [String: Int]? = nil

    init() {
        members.reserveCapacity(16)
    }

    @inline(__always)
    func set(_ key: String, _ value: EncodedNode) {
        if members.count >= 16 { return setIndexed(key, value) }
        let length = key.utf8.count
        for i in members.indices where members[i].length == length && members[i].key == key {
            members[i].value = value
            return
        }
        members.append(Member(key: key, length: length, value: value))
    }

    /// The value of member `key`, if there is one.
    func value(_ key: String) -> EncodedNode? {
        if let index { return index[key].map { members[$0].value } }
        for member in members where member.key == key { return member.value }
        return nil
    }

    private func setIndexed(_ key: String, _ value: EncodedNode) {
        if index == nil {
            var built = [String: Int](minimumCapacity: members.count * 2)
            for (i, member) in members.enumerated() { built[member.key] = i }
            index = built
        }
        if let i = index![key] {
            members[i].value = value
        } else {
            index![key] = members.count
            members.append(Member(key: key, length: 0, value: value))
        }
    }
}

final class EncodedCustom {
    let path: [any CodingKey]
    let write: (inout EncodeContext) throws(MappingError) -> Void
    init(path: [any CodingKey], write: @escaping (inout EncodeContext) throws(MappingError) -> Void) {
        self.path = path
        self.write = write
    }
}
