/// Property-wrapper-backed properties (`@Trimmed var age = 0`). Reflection sees only the wrapper's
/// storage, a stored property `_age` of the wrapper type; this file tells that storage apart from a plain
/// property whose name starts with an underscore (MongoDB's `_id`), and says how the property is read.
///
/// The rule (the runtime records no `@propertyWrapper` attribute, so it is decided by shape): a stored
/// property `_name` is a wrapper's storage when its type is a struct or class with a stored property
/// named `wrappedValue`, the shape of nearly every wrapper. Such a property is mapped as `name` (its key,
/// and the name `ModelMapping` and error paths use). A wrapper that computes `wrappedValue` from other
/// storage cannot be told from a plain property of its type by shape. A `_name` of a JSON scalar, model,
/// raw-value enum or collection type is a plain property (`_id: String` keeps the key `_id`); any other
/// `_name` with no stored `name` beside it is ambiguous (`isAmbiguousStorage`), and its model is refused
/// until `ModelMapping.keys` maps it one way or the other: guessing would read `{"age": 42}` as nothing
/// and write `{"_age": …}`, silently.
enum PropertyWrappers {
    /// A wrapper's storage field and what reflection shows of the wrapper.
    struct Storage {
        /// The stored `wrappedValue` inside a struct wrapper (offset relative to the wrapper); nil for a
        /// class wrapper, whose value lies in its own instance.
        let wrappedValue: ReflectedField?
        let wrapperType: Any.Type
    }

    /// `fields` with every wrapper's storage renamed to its property's name, and the storages by that name.
    static func resolve(_ fields: [ReflectedField]) -> (fields: [ReflectedField], storages: [String: Storage]) {
        var storages: [String: Storage] = [:]
        let resolved = fields.map { field -> ReflectedField in
            guard field.name.count > 1, field.name.first == "_", let storage = storage(of: field.type) else { return field }
            var renamed = field
            renamed.name = String(field.name.dropFirst())
            storages[renamed.name] = storage
            return renamed
        }
        return (resolved, storages)
    }

    /// Whether `field`, left unresolved by `resolve`, may be a wrapper's storage as well as a plain
    /// property: named `_name` with no stored `name` among `fields`, and of a type that is no JSON scalar
    /// (`codecs`: the built-in scalar codecs), collection, model or raw-value enum — the types a wrapper
    /// has, which the mapper would read through `Decodable`.
    static func isAmbiguousStorage(_ field: ReflectedField, among fields: [ReflectedField],
                                   codecs: [ObjectIdentifier: @Sendable () -> FieldCodec]) -> Bool {
        guard field.name.count > 1, field.name.first == "_" else { return false }
        let name = field.name.dropFirst()
        if fields.contains(where: { $0.name == name }) { return false }
        let type = field.type
        if codecs[ObjectIdentifier(type)] != nil { return false }
        if type is any ContainerField.Type || type is any MappedJSONModel.Type || type is any RawRepresentable.Type { return false }
        return true
    }

    /// The wrapper shape of `type`: a struct or class with a stored `wrappedValue`, else nil.
    private static func storage(of type: Any.Type) -> Storage? {
        func fields<T>(_ t: T.Type) -> [ReflectedField]? { Reflection.fields(of: t) }
        guard let fields = _openExistential(type, do: fields),
              let wrappedValue = fields.first(where: { $0.name == "wrappedValue" }) else { return nil }
        return Storage(wrappedValue: type is AnyClass ? nil : wrappedValue, wrapperType: type)
    }
}

extension MetaBuilder {
    /// The field a wrapper-backed property is decoded and encoded through: the wrapper itself when it is
    /// `Decodable` and the property has no transformer and is not lossy (its own conformance reads and
    /// writes the value, as with JSONDecoder), else its stored `wrappedValue`, as a field at the storage's
    /// offset plus `wrappedValue`'s (written directly: a wrapper's setter logic does not run, since the
    /// value is stored, there is none but observers). A class wrapper, or a `let wrappedValue`, without a
    /// conformance cannot be read.
    func wrappedField(_ field: ReflectedField, _ storage: PropertyWrappers.Storage,
                      throughValue: Bool) throws(MappingError) -> ReflectedField {
        if !throughValue && storage.wrapperType is any Decodable.Type { return field }
        guard let value = storage.wrappedValue, value.isWritable else {
            let shape = storage.wrappedValue == nil ? "a class" : "a struct whose wrappedValue is a let"
            throw MappingError(.unsupportedType, "its property wrapper \(storage.wrapperType) is \(shape) without a Codable conformance, so its value cannot be read and written; make the wrapper Codable or add \(field.name) to `ignored`")
        }
        var inner = field
        inner.offset = field.offset + value.offset
        inner.type = value.type
        return inner
    }
}
