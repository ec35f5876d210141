import Foundation
import ModelMapper

/// One line of `GET /rejected`: a stored rejected record of the calling client. `raw` is the record's bytes
/// as a string when they are UTF-8 (JSON escapes what it must); bytes that are not UTF-8 come as
/// `rawBase64` instead (standard base64), so nothing is lost or replaced.
public struct RejectedLine: JSONMappable, Sendable, Equatable {
    /// The cursor: pass the last line's `id` as `after` for the next page.
    public var id: Int64 = 0
    /// The upload's id (the `uploadId` of its `POST /events` answer).
    public var upload = ""
    /// The record's 0-based number in its upload, and the 1-based line where it started.
    public var index = 0
    public var line = 0
    /// The rejection's kind (`syntax`, `typeMismatch`, `tooLarge`, `unstorable`, …) and message.
    public var kind = ""
    public var message = ""
    public var raw: String? = nil
    public var rawBase64: String? = nil

    public init() {}

    public init(_ record: ListedRejection) {
        id = record.id
        upload = record.uploadID
        index = record.index
        line = record.line
        kind = record.kind
        message = record.message
        if let text = String(validating: record.raw, as: UTF8.self) {
            raw = text
        } else {
            rawBase64 = Data(record.raw).base64EncodedString()
        }
    }

    /// The record's bytes, from whichever field holds them.
    public var rawBytes: [UInt8] {
        if let raw { return Array(raw.utf8) }
        return rawBase64.flatMap { Data(base64Encoded: $0) }.map(Array.init) ?? []
    }
}
