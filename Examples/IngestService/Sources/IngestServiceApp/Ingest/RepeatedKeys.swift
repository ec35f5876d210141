// Unsafe code: reads a record's bytes through `withUnsafeReadableBytes` (an `UnsafeRawBufferPointer`,
// every index checked against its count in the same loop).
import NIOCore

/// One rule for a key repeated in an object (issue #44.7): the typed columns (ModelMapper's mapping path)
/// read the last value, the library's Codable path and Foundation's `JSONDecoder` the first, and RFC 8259
/// leaves it to the reader, so a record stored with `{"id":1,"id":2}` would be one event to one reader and
/// another to the next. The service refuses such a record: `POST /events` rejects it (`unstorable`, the
/// upload goes on), `POST /event` answers 400 `invalidEvent`. Keys compare after their escapes are
/// decoded (`"a"` and `"\u0061"` are one key).
extension ByteBuffer {
    /// The first key found repeated in one of the record's objects (decoded, as text), or nil. The record is
    /// JSON the reader took (a decoded model), so only its structure is followed here, not checked.
    public var firstRepeatedKey: String? {
        withUnsafeReadableBytes { RepeatedKeyScan(bytes: $0).run() }
    }
}

private struct RepeatedKeyScan {
    let bytes: UnsafeRawBufferPointer

    /// An open container: for an object, where its keys start in `keys`, whether a key comes next, and
    /// (past ``linearKeys`` keys) a set of them.
    private struct Frame {
        let isObject: Bool
        let firstKey: Int
        var expectsKey: Bool
        var set: Set<[UInt8]>? = nil
    }

    /// Objects with up to this many keys are checked by comparing each new key with the others.
    private static let linearKeys = 32

    func run() -> String? {
        var frames: [Frame] = []
        /// The keys of the open objects, each as a range of `bytes` (an escaped key: its decoded bytes).
        var keys: [Key] = []
        var p = 0
        let count = bytes.count
        while p < count {
            let byte = bytes[p]
            switch byte {
            case UInt8(ascii: "{"):
                frames.append(Frame(isObject: true, firstKey: keys.count, expectsKey: true))
            case UInt8(ascii: "["):
                frames.append(Frame(isObject: false, firstKey: keys.count, expectsKey: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let frame = frames.popLast() { keys.removeSubrange(frame.firstKey...) }
            case UInt8(ascii: ","):
                if !frames.isEmpty, frames[frames.count - 1].isObject { frames[frames.count - 1].expectsKey = true }
            case UInt8(ascii: ":"):
                if !frames.isEmpty { frames[frames.count - 1].expectsKey = false }
            case UInt8(ascii: "\""):
                let start = p + 1
                var escaped = false
                p = start
                while p < count, bytes[p] != UInt8(ascii: "\"") {
                    if bytes[p] == UInt8(ascii: "\\") {
                        escaped = true
                        p += 1
                    }
                    p += 1
                }
                let end = min(p, count)
                guard !frames.isEmpty, frames[frames.count - 1].isObject, frames[frames.count - 1].expectsKey else { break }
                frames[frames.count - 1].expectsKey = false
                let key = escaped ? Key.decoded(Self.unescape(bytes, start, end)) : .range(start, end)
                var frame = frames[frames.count - 1]
                let known = keys.count - frame.firstKey
                if known < Self.linearKeys {
                    for i in frame.firstKey..<keys.count where same(keys[i], key) { return text(key) }
                } else {
                    if frame.set == nil { frame.set = Set(keys[frame.firstKey...].map(materialize)) }
                    if frame.set!.insert(materialize(key)).inserted == false { return text(key) }
                    frames[frames.count - 1] = frame
                }
                keys.append(key)
            default:
                break
            }
            p += 1
        }
        return nil
    }

    private enum Key {
        case range(Int, Int)
        case decoded([UInt8])
    }

    private func materialize(_ key: Key) -> [UInt8] {
        switch key {
        case .range(let start, let end): Array(bytes[start..<end])
        case .decoded(let bytes): bytes
        }
    }

    private func same(_ a: Key, _ b: Key) -> Bool {
        if case .range(let s1, let e1) = a, case .range(let s2, let e2) = b {
            guard e1 - s1 == e2 - s2 else { return false }
            var i = 0
            while i < e1 - s1 {
                if bytes[s1 + i] != bytes[s2 + i] { return false }
                i += 1
            }
            return true
        }
        return materialize(a) == materialize(b)
    }

    private func text(_ key: Key) -> String { String(decoding: materialize(key), as: UTF8.self) }

    /// A string's bytes with JSON's escapes decoded (a lone or broken `\u` escape is kept as written).
    private static func unescape(_ bytes: UnsafeRawBufferPointer, _ start: Int, _ end: Int) -> [UInt8] {
        var out: [UInt8] = []
        var p = start
        func hex(at q: Int) -> UInt32? {
            guard q + 4 <= end else { return nil }
            var value: UInt32 = 0
            for i in 0..<4 {
                let c = bytes[q + i]
                let digit: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
                default: return nil
                }
                value = value << 4 | digit
            }
            return value
        }
        while p < end {
            let c = bytes[p]
            guard c == UInt8(ascii: "\\"), p + 1 < end else {
                out.append(c)
                p += 1
                continue
            }
            let e = bytes[p + 1]
            switch e {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex(at: p + 2) else {
                    out += [c, e]
                    p += 2
                    continue
                }
                p += 6
                if (0xD800..<0xDC00).contains(scalar), p + 1 < end, bytes[p] == UInt8(ascii: "\\"),
                    bytes[p + 1] == UInt8(ascii: "u"), let low = hex(at: p + 2), (0xDC00..<0xE000).contains(low)
                {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    p += 6
                }
                if let unicode = Unicode.Scalar(scalar) {
                    out += Array(String(Character(unicode)).utf8)
                } else {
                    out += Array(bytes[(p - 6)..<p])  // a lone surrogate: kept as written
                }
                continue
            default: out.append(e)  // \" \\ \/
            }
            p += 2
        }
        return out
    }
}
