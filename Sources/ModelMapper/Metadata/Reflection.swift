@_spi(Reflection) import Swift

/// A stored property as the standard library's reflection reports it.
struct ReflectedField {
    let name: String
    let offset: Int
    let type: Any.Type
    /// False for a struct's `let` (never written: the optimizer may constant-fold it).
    let isWritable: Bool
}

/// Stored properties through the stdlib's maintained `_forEachField` API (never by reading runtime
/// metadata layouts by hand, which broke HandyJSON and KakaJSON on Swift releases).
enum Reflection {
    /// The stored properties of `type`, superclass properties first for classes; nil if the type cannot
    /// be reflected.
    static func fields<Root>(of type: Root.Type) -> [ReflectedField]? {
        let isClass = type is AnyClass
        var raw: [(String, Int, Any.Type)] = []
        let ok = _forEachField(of: type, options: isClass ? _EachFieldOptions(rawValue: 1 << 0) : []) { name, offset, fieldType, _ in
            raw.append((String(cString: name), offset, fieldType))
            return true
        }
        guard ok else { return nil }
        var writable = Set<String>()
        if !isClass {
            _ = _forEachFieldWithKeyPath(of: type) { name, keyPath in
                if isWritableKeyPath(keyPath) { writable.insert(String(cString: name)) }
                return true
            }
        }
        return raw.map { name, offset, fieldType in
            // Classes: the stdlib gives no mutability for class fields; `let` cannot be detected there
            // (documented limitation: use `ignored` for a class `let`).
            ReflectedField(name: name, offset: offset, type: fieldType, isWritable: isClass || writable.contains(name))
        }
    }

    private static func isWritableKeyPath<Root>(_ keyPath: PartialKeyPath<Root>) -> Bool {
        func check<Value>(_: Value.Type) -> Bool { keyPath is WritableKeyPath<Root, Value> }
        return _openExistential(type(of: keyPath).valueType, do: check)
    }
}
