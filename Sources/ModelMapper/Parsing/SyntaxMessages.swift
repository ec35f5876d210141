/// yajl's syntax error texts in our words: what a user reads in ``MappingError/message`` for a `.syntax`
/// error. yajl's own text (`lexical error: invalid char in json text.`, `parse error: after key and value,
/// inside map, I expect ',' or '}'`) still decides the error's position (`SyntaxErrorPosition`); this
/// table only rewords it, once the position is known.
enum SyntaxMessages {
    /// yajl's message (as `yajl_get_error` renders it, without its trailing newline) in our words; a text
    /// this table does not know is kept as it is, without yajl's `lexical error: ` / `parse error: ` prefix.
    static func inOurWords(_ yajlMessage: String) -> String {
        for (yajl, ours) in table where yajlMessage.contains(yajl) { return ours }
        for prefix in ["lexical error: ", "parse error: "] where yajlMessage.hasPrefix(prefix) {
            return String(yajlMessage.dropFirst(prefix.count))
        }
        return yajlMessage
    }

    /// yajl 2.1's parse and lexical error texts (yajl_parser.c, yajl_lex.c) and ours. The literal message
    /// is yajl's "invalid string in json text", which it reports for a misspelled `true`, `false` or `null`.
    private static let table: [(yajl: String, ours: String)] = [
        ("premature EOF", "unexpected end of input"),
        ("trailing garbage", "unexpected data after the document"),
        ("after key and value, inside map, I expect ',' or '}'", "expected ',' or '}' after an object member"),
        ("after array element, I expect ',' or ']'", "expected ',' or ']' after an array element"),
        ("object key and value must be separated by a colon", "expected ':' after an object key"),
        ("invalid object key (must be a string)", "expected an object key (a string in double quotes)"),
        ("unallowed token at this point in JSON text", "unexpected token: a value was expected"),
        ("invalid char in json text", "invalid character (no JSON value starts with it)"),
        ("invalid string in json text", "invalid literal (expected true, false or null)"),
        ("invalid bytes in UTF8 string", "invalid UTF-8 in a string"),
        ("invalid character inside string", "invalid character inside a string (control characters must be escaped)"),
        ("invalid (non-hex) character occurs after '\\u' inside string", "invalid \\u escape: four hex digits expected"),
        ("malformed number, a digit is required after the exponent", "malformed number: a digit is required after the exponent"),
        ("malformed number, a digit is required after the decimal point", "malformed number: a digit is required after the decimal point"),
        ("malformed number, a digit is required after the minus sign", "malformed number: a digit is required after the minus sign"),
        ("probable comment found in input text, comments are not enabled", "comments are not JSON"),
    ]
}
