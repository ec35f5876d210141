import Foundation

/// Values of types JSON does not have, met in dictionary input (`init(jsonObject:)`, a `.foreign` token of
/// `ValueTape`), as YYModel's `ModelSetValueForProperty` takes them:
///
/// - a value of the property's own type is taken as it is, in both modes: a `Date` by a `Date` property,
///   a `URL`, `Data` or `UUID` by one of that type, a model instance by a property of its model type
///   (``exact(_:expected:_:_:)``, called by those codecs);
/// - lenient mode converts into a `String` what YYModel converts: a `URL` (its `absoluteString`), an
///   `NSAttributedString` (its text), `Data` holding UTF-8 text (``string(_:_:)``); strict mode rejects
///   them;
/// - anything else is a `.typeMismatch` of the property reading it, which
///   ``DecodingOptions/skippingInvalidValues`` forgives like any other.
///
/// (A `Set` or `NSSet` is not foreign: the tape holds it as an array.)
enum ForeignValues {
    /// The value for messages: "a value of type URL" (a non-finite number by its value).
    static func describe(_ value: Any) -> String {
        if let number = value as? Double, !number.isFinite { return "the number \(number), which JSON cannot hold" }
        return "a value of type \(type(of: value))"
    }

    /// The foreign value at `index` when it already is a `T`, else a type mismatch expecting `expected`.
    static func exact<T>(_ type: T.Type, expected: String, _ c: DecodeContext, _ index: Int) throws(MappingError) -> T {
        if let value = c.tape.foreignValue(at: index) as? T { return value }
        throw c.mismatch(expected: expected, at: index)
    }

    /// The foreign value at `index` converted into a `String` (lenient mode; see the type's comment).
    static func string(_ c: DecodeContext, _ index: Int) throws(MappingError) -> String {
        let value = c.tape.foreignValue(at: index)
        let text: String?
        switch value {
        case let url as URL: text = url.absoluteString
        case let attributed as NSAttributedString: text = attributed.string
        case let data as Data: text = String(validating: data, as: UTF8.self)
        default: throw c.mismatch(expected: "a string", at: index)
        }
        guard c.lenient else {
            throw c.mismatch(expected: "a string (lenient mode converts \(describe(value)) into one)", at: index)
        }
        guard let text else { throw c.invalid("\(describe(value)) is not UTF-8 text", at: index) }
        return text
    }
}
