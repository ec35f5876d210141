/// The kinds of entries on a tape (``TapeBuffers``, read through ``TapeView``).
enum TokenKind: UInt8 {
    case null, falseValue, trueValue, number, string, key, objectStart, objectEnd, arrayStart, arrayEnd
    /// A value of a type JSON does not have (a `URL`, a `Date`, a model instance), met in dictionary input
    /// only (`ValueTape`); `payload` points to it (`TapeView.foreignValue(at:)`).
    case foreign

    var isContainerStart: Bool { self == .objectStart || self == .arrayStart }

    /// The JSON type's name, for error messages ("a string", "an object").
    var typeDescription: String {
        switch self {
        case .null: return "null"
        case .falseValue, .trueValue: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .key: return "a key"
        case .objectStart, .objectEnd: return "an object"
        case .arrayStart, .arrayEnd: return "an array"
        case .foreign: return "a value JSON does not have"
        }
    }
}

/// One parsed JSON token, 16 bytes.
///
/// - `string`, `key`, `number`: `length` bytes at byte `payload` of the input (or of the tape's arena when
///   `inArena`): the string's unescaped UTF-8 (validated by yajl), or the number's literal text.
/// - `objectStart`, `arrayStart`: `payload` is the index of the matching end token (so a skip is O(1)) and
///   `length` the number of members / elements.
/// - `objectEnd`, `arrayEnd`: `payload` is the index of the matching start token.
/// - `key` recorded under a ``TapeFilterNode``: `hint` is the index + 1 of the model property that reads
///   it (0: not known, look the key up). It sits in what would otherwise be padding.
struct Token {
    var kind: TokenKind
    var inArena: Bool
    var hint: UInt16 = 0
    var length: UInt32
    var payload: Int
}
