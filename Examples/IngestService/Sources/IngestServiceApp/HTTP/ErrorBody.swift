import ModelMapper

/// The JSON body of every error response: a short, stable reason and the request's id (the log has the
/// details under that id), never SQL, file names or internal type names. A document that could not be
/// mapped (400) also gets the ``MappingError``'s fields, which describe the client's own bytes.
///
/// `{"error":"storeUnavailable","requestId":"…"}`
/// `{"error":"invalidEvent","requestId":"…","message":"line 1, column 9: syntax …","kind":"syntax","path":"","line":1,"column":9,"offset":8}`
struct ErrorBody: JSONMappable {
    var error = ""
    var requestId = ""
    var message: String? = nil
    var kind: String? = nil
    var path: String? = nil
    var line: Int? = nil
    var column: Int? = nil
    var offset: Int? = nil

    init() {}

    init(error: String) {
        self.error = error
    }

    init(error: String, mappingError: MappingError) {
        self.error = error
        message = mappingError.description
        kind = mappingError.kind.rawValue
        path = mappingError.jsonPath  // the client's words: keys as in its document
        line = mappingError.line
        column = mappingError.column
        offset = mappingError.offset
    }
}
