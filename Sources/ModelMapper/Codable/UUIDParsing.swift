// Unsafe code: reads the bytes of a string token through the `UnsafeRawBufferPointer` the tape hands out
// (`TapeView.bytes`, valid while the tape lives, which outlives the call), by index within its count, and
// writes the 16 parsed bytes into a local `uuid_t` through `withUnsafeMutableBytes(of:)`.
//
// Invariants: `parse` reads `bytes[i]` only for `i < 36 == bytes.count` (checked first) and writes
// `out[j]` only for `j < 16 == MemoryLayout<uuid_t>.size` (asserted).

import Foundation

/// UUIDs in their canonical text form (`8-4-4-4-12` hex digits, either case), read from the tape's bytes
/// without making a `String`. Anything else is nil, and the callers then take their general path
/// (`UUID(uuidString:)`, which also reads the canonical form only, and makes their error), so what is
/// accepted and what is thrown do not change; only the canonical form is faster.
enum UUIDParsing {
    static func parse(_ bytes: UnsafeRawBufferPointer) -> UUID? {
        guard bytes.count == 36, bytes[8] == 0x2D, bytes[13] == 0x2D, bytes[18] == 0x2D, bytes[23] == 0x2D else {
            return nil
        }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &value) { out -> Bool in
            assert(out.count == 16, "uuid_t is 16 bytes")
            var i = 0, j = 0
            var bad: UInt8 = 0
            while j < 16 {
                if i == 8 || i == 13 || i == 18 || i == 23 { i += 1 }
                let high = hexDigit(bytes[i]), low = hexDigit(bytes[i + 1])
                bad |= high | low
                out[j] = (high << 4) | (low & 0x0F)
                i += 2
                j += 1
            }
            return bad & 0xF0 == 0
        }
        return ok ? UUID(uuid: value) : nil
    }

    /// 0...15 for a hex digit, 0xFF for anything else.
    @inline(__always)
    private static func hexDigit(_ c: UInt8) -> UInt8 {
        let digit = c &- 0x30
        if digit < 10 { return digit }
        let letter = (c | 0x20) &- 0x61
        if letter < 6 { return letter &+ 10 }
        return 0xFF
    }
}
