/// JSON is UTF-8 (RFC 8259). A body whose first bytes show UTF-16 or UTF-32 — a byte-order mark of
/// either, or a NUL byte (UTF-8 JSON text has none, and ASCII text in UTF-16 or UTF-32 has one in every two
/// or four bytes) — is refused with 415 before anything of it is stored.
enum BodyEncoding {
    /// How many first bytes are looked at.
    static let headLength = 4

    /// Whether `head` (the body's first bytes, up to ``headLength``) shows UTF-16 or UTF-32.
    static func isUTF16Or32(_ head: [UInt8]) -> Bool {
        if head.contains(0) { return true }
        return head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE])
    }
}

/// The body is not UTF-8 (see ``BodyEncoding``).
struct UnsupportedEncodingError: Error, CustomStringConvertible {
    var description: String { "the body is UTF-16 or UTF-32, not UTF-8" }
}
