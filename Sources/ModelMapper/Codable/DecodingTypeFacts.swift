import Foundation

// How the Codable decoder decodes each type: classified once per process, memoized per decoding.

extension TapeDecodingState {
    // MARK: Per-type facts

    /// How values of a type are decoded, decided once per type and decoding.
    enum DecodingKind: UInt8 {
        case other, mappable, stringKeyedDictionary, array
        case int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float
        case date, data, url, decimal, jsonValue, uuid, timeZone
        /// A raw-value enum adopting ``JSONUnknownCaseRepresentable``.
        case unknownCaseEnum
    }

    struct TypeInfo {
        var kind: DecodingKind
        /// Arrays: their element-by-element decoding.
        var array: (any TapeDecodableArray.Type)?
    }

    @inline(__always)
    func typeInfo<T>(_ type: T.Type) -> TypeInfo {
        let id = ObjectIdentifier(type)
        let slot = Int(truncatingIfNeeded: (UInt(bitPattern: id) >> 4) & 31)
        if typeMemo[slot].0 == id { return typeMemo[slot].1 }
        let info = DecodingTypeCache.shared.info(type, id)
        typeMemo[slot] = (id, info)
        return info
    }

    /// The process-wide memo behind `typeMemo`: a failed conformance check costs the runtime thousands of
    /// instructions each time (three per new type), so a type is classified once per process, not once
    /// per decoding.
    final class DecodingTypeCache: Sendable {
        static let shared = DecodingTypeCache()
        /// `@unchecked Sendable`: immutable (a type's conformance facts).
        private final class Entry: @unchecked Sendable {
            let info: TypeInfo
            init(_ info: TypeInfo) { self.info = info }
        }
        /// Read without a lock: a memo miss on any thread costs a search, not a lock.
        private let infos = PublishedTable<Entry>()

        func info<T>(_ type: T.Type, _ id: ObjectIdentifier) -> TypeInfo {
            let key = UInt(bitPattern: id)
            if let entry = infos.value(for: key) { return entry.info }
            return infos.insertIfAbsent(key, Entry(TapeDecodingState.classify(type))).info
        }
    }

    static func classify<T>(_ type: T.Type) -> TypeInfo {
        func kind(_ kind: DecodingKind) -> TypeInfo { TypeInfo(kind: kind, array: nil) }
        if T.self == Int8.self { return kind(.int8) }
        if T.self == Int16.self { return kind(.int16) }
        if T.self == Int32.self { return kind(.int32) }
        if T.self == Int64.self { return kind(.int64) }
        if T.self == UInt.self { return kind(.uint) }
        if T.self == UInt8.self { return kind(.uint8) }
        if T.self == UInt16.self { return kind(.uint16) }
        if T.self == UInt32.self { return kind(.uint32) }
        if T.self == UInt64.self { return kind(.uint64) }
        if T.self == Float.self { return kind(.float) }
        if T.self == Date.self { return kind(.date) }
        if T.self == Data.self { return kind(.data) }
        if T.self == URL.self { return kind(.url) }
        if T.self == Decimal.self { return kind(.decimal) }
        if T.self == JSONValue.self { return kind(.jsonValue) }
        if T.self == UUID.self { return kind(.uuid) }
        if T.self == TimeZone.self { return kind(.timeZone) }
        if type is any MappedJSONModel.Type { return kind(.mappable) }
        if type is any StringKeyedDictionaryMarker.Type { return kind(.stringKeyedDictionary) }
        if let array = type as? any TapeDecodableArray.Type { return TypeInfo(kind: .array, array: array) }
        if type is any JSONUnknownCaseRepresentable.Type && type is any RawRepresentable.Type { return kind(.unknownCaseEnum) }
        return kind(.other)
    }
}
