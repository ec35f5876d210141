@_spi(Reflection) import Swift

/// A stored property as the standard library's reflection reports it.
struct ReflectedField {
    var name: String
    var offset: Int
    var type: Any.Type
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
        var reached = Set<String>()
        if !isClass {
            // Stops (returns false) at a field no key path can describe, such as a function type;
            // fields from there on are not reached.
            _ = _forEachFieldWithKeyPath(of: type) { name, keyPath in
                let field = String(cString: name)
                reached.insert(field)
                if isWritableKeyPath(keyPath) { writable.insert(field) }
                return true
            }
        }
        return raw.map { name, offset, fieldType in
            // Classes: the stdlib gives no mutability for class fields, so a class `let` cannot be
            // detected (documented limitation: list it in `ignored`). Struct fields the key-path walk
            // did not reach (after a function-typed field) are treated as writable, so their type is still
            // checked and an unsupported one reported rather than silently skipped.
            let isWritable = isClass || writable.contains(name) || !reached.contains(name)
            return ReflectedField(name: name, offset: offset, type: fieldType, isWritable: isWritable)
        }
    }

    /// `MemoryLayout.size` of a type known only at run time.
    static func size(of type: Any.Type) -> Int {
        func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
        return _openExistential(type, do: size)
    }

    private static func isWritableKeyPath<Root>(_ keyPath: PartialKeyPath<Root>) -> Bool {
        func check<Value>(_: Value.Type) -> Bool { keyPath is WritableKeyPath<Root, Value> }
        return _openExistential(type(of: keyPath).valueType, do: check)
    }
}
