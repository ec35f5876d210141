import Foundation

/// What a POST body's `Content-Encoding` says: none (or `identity`), or gzip (`gzip`, or its old name
/// `x-gzip`, RFC 9110 §8.4.1.3). Any other coding — `deflate`, `br`, `zstd`, gzip applied twice — is
/// answered 415 before the body is read, as RFC 9110 §15.5.16 has it for a content coding the server does not
/// take.
enum ContentEncoding: Equatable {
    case identity
    case gzip

    /// The header's value (nil: no header); nil when the coding is not one the service takes.
    init?(header: String?) {
        let codings = (header ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        switch codings {
        case []: self = .identity
        case ["gzip"], ["x-gzip"]: self = .gzip
        default: return nil
        }
    }
}
