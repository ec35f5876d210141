// Unsafe code: the mutability and ownership of a stored property are read from the Swift runtime's
// `swift_reflectionMirror_recursiveChildMetadata` (the entry point behind the standard library's
// `_forEachField` and `_forEachFieldWithKeyPath`), declared here with `@_silgen_name`, which fills a
// `FieldFacts` laid out as the standard library's internal `_FieldReflectionMetadata`. Invariants:
// - `FieldFacts` matches that layout (name pointer, name free function, isStrong, isVar): checked once per
//   process on probe types whose answers are known (`runtimeAnswersAreKnown`); if they are not, every model
//   is reported as not reflectable rather than read with wrong facts;
// - the runtime's child index `i` is the `i`th field `_forEachField` reports (both walk the same recursive
//   child list, superclass fields first): checked by name for every field;
// - the name the runtime hands out is freed with the function it gives, once.
@_spi(Reflection) import Swift

/// A stored property as the standard library's reflection reports it.
struct ReflectedField {
    var name: String
    var offset: Int
    var type: Any.Type
    /// False for a `let` (of a struct or a class): it is never written, since the optimizer may
    /// constant-fold it.
    let isWritable: Bool
    /// False for `weak` and `unowned` storage, whose memory does not hold a plain strong reference.
    let isStrong: Bool
    /// A generated model's field whose slot is the property's own type (``JSONModelField/slotIsValue``):
    /// decoded by the codec of its type, not through a ``SlotCodec``.
    var slotIsValue = false
    /// A generated model's field: whether its slot is nil (``JSONModelField/slotIsNil``).
    var slotIsNil: (@Sendable (UnsafeRawPointer) -> Bool)? = nil
}

/// Stored properties through the stdlib's maintained `_forEachField` API (never by reading runtime
/// metadata layouts by hand, which broke HandyJSON and KakaJSON on Swift releases).
enum Reflection {
    /// The stored properties of `type`, superclass properties first for classes; nil if the type cannot
    /// be reflected.
    static func fields<Root>(of type: Root.Type) -> [ReflectedField]? {
        guard runtimeAnswersAreKnown else { return nil }
        let isClass = type is AnyClass
        var fields: [ReflectedField] = []
        var consistent = true
        let ok = _forEachField(of: type, options: isClass ? classFields : []) { name, offset, fieldType, _ in
            guard let facts = facts(of: type, field: fields.count, named: name) else {
                consistent = false
                return false
            }
            fields.append(ReflectedField(name: String(cString: name), offset: offset, type: fieldType,
                                         isWritable: facts.isVar, isStrong: facts.isStrong))
            return true
        }
        guard ok, consistent else { return nil }
        return fields
    }

    /// `_EachFieldOptions.classType` (the SPI's static is a `var`, which strict concurrency rejects).
    private static let classFields = _EachFieldOptions(rawValue: 1 << 0)

    /// `MemoryLayout.size` of a type known only at run time.
    static func size(of type: Any.Type) -> Int {
        func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
        return _openExistential(type, do: size)
    }

    // MARK: Mutability and ownership from the runtime

    /// The standard library's `_FieldReflectionMetadata`.
    private struct FieldFacts {
        var name: UnsafePointer<CChar>? = nil
        var freeName: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
        var isStrong = false
        var isVar = false
    }

    @_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
    private static func _childMetadata(_ type: Any.Type, index: Int, facts: UnsafeMutablePointer<FieldFacts>) -> Any.Type

    /// The runtime's facts about field `index` of `type`; nil if the runtime names it differently from
    /// `_forEachField` (the two walks disagree: nothing is trusted).
    private static func facts(of type: Any.Type, field index: Int, named name: UnsafePointer<CChar>) -> FieldFacts? {
        var facts = FieldFacts()
        _ = _childMetadata(type, index: index, facts: &facts)
        defer { facts.freeName?(facts.name) }
        guard let runtimeName = facts.name, String(cString: runtimeName) == String(cString: name) else { return nil }
        return facts
    }

    private struct ProbeStruct { var a = 0; let b = 0 }
    private final class ProbeClass { let a = 0; var b = 0; weak var c: ProbeClass?; unowned(unsafe) var d = ProbeHolder.shared }
    private final class ProbeHolder: Sendable { static let shared = ProbeHolder() }

    /// Whether the runtime answers as `FieldFacts` expects on types whose answers are known.
    private static let runtimeAnswersAreKnown: Bool = {
        func answers<T>(_ type: T.Type) -> [String]? {
            var result: [String] = []
            var consistent = true
            _ = _forEachField(of: type, options: type is AnyClass ? classFields : []) { name, _, _, _ in
                guard let facts = facts(of: type, field: result.count, named: name) else {
                    consistent = false
                    return false
                }
                result.append((facts.isVar ? "var" : "let") + (facts.isStrong ? "" : " weak"))
                return true
            }
            return consistent ? result : nil
        }
        return answers(ProbeStruct.self) == ["var", "let"]
            && answers(ProbeClass.self) == ["let", "var", "var weak", "var weak"]
    }()
}
