import ModelMapper

/// Which bodies each route takes, by `Content-Type`; anything else is answered with 415.
///
/// - `POST /events`: JSON Lines as `application/x-ndjson`, `application/jsonl`, `application/jsonlines`,
///   `application/x-jsonlines` (one record per line), or `application/json` (one top-level array whose
///   elements are the records, streamed the same way). `application/json-seq` (RFC 7464) is refused:
///   its records start with an RS byte (0x1E), which is not JSON.
/// - `POST /event`: `application/json`.
///
/// A `charset` parameter other than UTF-8 is refused; a missing `Content-Type` is refused.
enum AcceptedContent {
    static let jsonLinesTypes: Set<String> = [
        "application/x-ndjson", "application/jsonl", "application/jsonlines", "application/x-jsonlines",
    ]
    static let jsonType = "application/json"

    /// The stream layout for a `POST /events` body, or nil if its type is not accepted.
    static func streamFormat(contentType: String?) -> JSONStreamFormat? {
        guard let contentType, let media = MediaType(contentType), media.isUTF8 else { return nil }
        if jsonLinesTypes.contains(media.essence) { return .lines }
        if media.essence == jsonType { return .array }
        return nil
    }

    /// Whether a `POST /event` body of this type is accepted.
    static func isSingleDocument(contentType: String?) -> Bool {
        guard let contentType, let media = MediaType(contentType) else { return false }
        return media.isUTF8 && media.essence == jsonType
    }

    static let eventsDescription = (jsonLinesTypes.sorted() + [jsonType]).joined(separator: ", ")
}
