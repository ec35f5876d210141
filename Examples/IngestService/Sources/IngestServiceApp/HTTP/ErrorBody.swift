import ModelMapper

/// The JSON body of every error response: a stable code, a readable message and, for a document that
/// could not be mapped, the ``MappingError``'s fields.
///
/// `{"error":"invalidEvent","message":"line 1, column 9: syntax …","kind":"syntax","path":"","line":1,"column":9,"offset":8}`
struct ErrorBody: JSONMappable {
    var error = ""
    var message = ""
    var kind: String? = nil
    var path: String? = nil
    var line: Int? = nil
    var column: Int? = nil
    var offset: Int? = nil

    init() {}

    init(error: String, message: String) {
        self.error = error
        self.message = message
    }

    init(error: String, mappingError: MappingError) {
        self.error = error
        message = mappingError.description
        kind = mappingError.kind.rawValue
        path = mappingError.path
        line = mappingError.line
        column = mappingError.column
        offset = mappingError.offset
    }
}
