// Unsafe code: `unsafeBitCast` of a decoded `[Element]` to `R`, which is `[Element]` (asserted), and an
// array's uninitialized storage filled element by element (`unsafeUninitializedCapacity`; `initialized`
// counts exactly the elements written, so a throw leaves no uninitialized element counted).
import Foundation

// MARK: - Arrays

/// Arrays decoded element by element into their storage, sized from the array token: the same values
/// and errors as `Array.init(from:)` (which appends one element at a time through unspecialized code,
/// with a metadata lookup per element).
protocol TapeDecodableArray {
    static func tapeDecode<R>(_ state: TapeDecodingState, _ index: Int, _ ref: PathRef, as: R.Type) throws -> R
}

extension Array: TapeDecodableArray where Element: Decodable {
    static func tapeDecode<R>(_ state: TapeDecodingState, _ index: Int, _ ref: PathRef, as: R.Type) throws -> R {
        assert(R.self == [Element].self, "not this array type")
        let decoder = TapeDecoder(state: state, index: index, ref: ref)
        guard state.kind(index) == .arrayStart else {
            // Not an array: the error `Array.init(from:)` gets from its unkeyed container.
            _ = try decoder.unkeyedContainer()
            preconditionFailure("unkeyedContainer() accepted a value that is not an array")
        }
        let token = state.tape[index]
        let count = Int(token.length)
        let end = token.payload
        // Not through `unsafeUninitializedCapacity` for 0: it writes the count into the shared empty-array
        // singleton, a (benign) race ThreadSanitizer reports when two threads decode empty arrays at once
        // (the mapped path's rule, Codecs/ContainerCodecs.swift).
        if count == 0 { return unsafeBitCast([Element](), to: R.self) }
        // Common scalars in specialized code (no generic metadata lookup for the array storage).
        if Element.self == Double.self {
            return unsafeBitCast(try scalars(state, decoder, index, count, end) { s, i, p in try s.decodeDouble(i, p()) }, to: R.self)
        }
        if Element.self == Int.self {
            return unsafeBitCast(try scalars(state, decoder, index, count, end) { s, i, p in try s.decodeInteger(Int.self, i, p()) },
                                 to: R.self)
        }
        if Element.self == String.self {
            return unsafeBitCast(try scalars(state, decoder, index, count, end) { s, i, p in try s.decodeString(i, p()) }, to: R.self)
        }
        if Element.self == Int64.self {
            return unsafeBitCast(try scalars(state, decoder, index, count, end) { s, i, p in try s.decodeInteger(Int64.self, i, p()) },
                                 to: R.self)
        }
        if Element.self == Bool.self {
            return unsafeBitCast(try scalars(state, decoder, index, count, end) { s, i, p in try s.decodeBool(i, p()) }, to: R.self)
        }
        let array = try [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            var position = index + 1
            var n = 0
            while position < end && n < count {
                (buffer.baseAddress! + n).initialize(to: try state.decodeChild(Element.self, position, parent: decoder, key: JSONIndexKey(n)))
                n += 1
                initialized = n
                position = state.tape.indexAfterValue(at: position)
            }
        }
        return unsafeBitCast(array, to: R.self)
    }

    /// An array of scalars read by `read` (the element's token, its coding path on demand).
    @inline(__always)
    private static func scalars<V>(_ state: TapeDecodingState, _ decoder: TapeDecoder, _ index: Int, _ count: Int, _ end: Int,
                                   _ read: (TapeDecodingState, Int, () -> [any CodingKey]) throws -> V) throws -> [V] {
        try [V](unsafeUninitializedCapacity: count) { buffer, initialized in
            var position = index + 1
            var n = 0
            while position < end && n < count {
                let k = n
                (buffer.baseAddress! + n).initialize(to: try read(state, position, { decoder.childPath(JSONIndexKey(k)) }))
                n += 1
                initialized = n
                position = state.tape.indexAfterValue(at: position)
            }
        }
    }
}
