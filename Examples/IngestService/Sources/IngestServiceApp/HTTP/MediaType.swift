/// A parsed `Content-Type` value: `type/subtype` lowercased, and its charset parameter if any.
struct MediaType: Equatable {
    var type: String
    var subtype: String
    var charset: String?

    /// Parses `application/x-ndjson; charset=utf-8`; nil when the value is not `type/subtype[; params]`.
    init?(_ value: String) {
        let parts = value.split(separator: ";", omittingEmptySubsequences: false)
        guard let essence = parts.first else { return nil }
        let names = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard names.count == 2 else { return nil }
        type = names[0].trimmingSpaces().lowercased()
        subtype = names[1].trimmingSpaces().lowercased()
        guard !type.isEmpty, !subtype.isEmpty else { return nil }
        charset = nil
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == "charset" else { continue }
            charset = pair[1].trimmingSpaces().trimmingQuotes().lowercased()
        }
    }

    var essence: String { "\(type)/\(subtype)" }

    /// JSON is UTF-8 (RFC 8259); a charset parameter, if given, must say so.
    var isUTF8: Bool { charset == nil || charset == "utf-8" || charset == "utf8" }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return self[first...last]
    }

    fileprivate func trimmingQuotes() -> Substring {
        count >= 2 && first == "\"" && last == "\"" ? dropFirst().dropLast() : self
    }
}
