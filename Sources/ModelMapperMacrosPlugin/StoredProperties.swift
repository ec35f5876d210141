import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// A stored property as `@JSONModel` reads it from the declaration.
struct StoredProperty {
    /// The identifier as written (backticks kept), for code.
    let identifier: String
    /// The name without backticks: the property's name in `ModelMapping` and in errors.
    let name: String
    let type: TypeSyntax
    let initialValue: ExprSyntax?
    let isLet: Bool

    /// A `let` with an initial value: encoded, never decoded, never assigned by the generated init.
    var isConstant: Bool { isLet && initialValue != nil }
    /// An Optional without an initial value: its slot is a `T?` of its own (nil: absent or null), not `T??`.
    var slotIsValue: Bool { isOptional && initialValue == nil }
    /// Whether the declared type is spelled as an Optional (`T?`, `Optional<T>`): nil when absent.
    var isOptional: Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let named = type.as(IdentifierTypeSyntax.self), named.name.text == "Optional" { return true }
        if let member = type.as(MemberTypeSyntax.self), member.name.text == "Optional" { return true }
        return false
    }
}

enum StoredProperties {
    /// The stored instance properties of `members`, in declaration order; a property whose type cannot be
    /// known is diagnosed (in `context`: nil when another role of the macro reports it) and left out.
    static func read(_ members: MemberBlockItemListSyntax, in context: (any MacroExpansionContext)?) -> [StoredProperty] {
        var result: [StoredProperty] = []
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            if variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) }) { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
            let bindings = Array(variable.bindings)
            if let wrapper = propertyWrapper(variable) {
                // Computed properties may carry any attribute; a stored one with a wrapper is not its declared type.
                if !bindings.allSatisfy({ $0.accessorBlock.map(isComputed) ?? false }) {
                    let property = bindings.first?.pattern.trimmedDescription ?? "?"
                    context?.diagnose(Diagnostic(node: Syntax(wrapper), message: JSONModelDiagnostic.propertyWrapper(
                        attribute: wrapper.attributeName.trimmedDescription, property: property)))
                }
                continue
            }
            for (i, binding) in bindings.enumerated() {
                if let accessors = binding.accessorBlock, isComputed(accessors) { continue }
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                let identifier = pattern.identifier.text
                // `var a, b: Int`: a binding without a type or value takes the type of the next one.
                var type = binding.typeAnnotation?.type
                if type == nil, binding.initializer == nil {
                    type = bindings[(i + 1)...].first(where: { $0.typeAnnotation != nil })?.typeAnnotation?.type
                }
                if type == nil, let value = binding.initializer?.value { type = literalType(of: value) }
                guard let type else {
                    context?.diagnose(Diagnostic(node: Syntax(binding.pattern), message: JSONModelDiagnostic.needsTypeAnnotation(identifier)))
                    continue
                }
                if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
                    let optional = TypeSyntax(OptionalTypeSyntax(wrappedType: unwrapped.wrappedType.trimmed))
                    context?.diagnose(Diagnostic(
                        node: Syntax(unwrapped),
                        message: JSONModelDiagnostic.implicitlyUnwrapped(property: identifier, wrapped: unwrapped.wrappedType.trimmedDescription),
                        fixIt: FixIt(message: JSONModelFixIt.useOptional, changes: [
                            .replace(oldNode: Syntax(unwrapped), newNode: Syntax(optional.with(\.trailingTrivia, unwrapped.trailingTrivia)))])))
                    continue
                }
                result.append(StoredProperty(identifier: identifier, name: identifier.filter { $0 != "`" },
                                             type: type.trimmed, initialValue: binding.initializer?.value.trimmed, isLet: isLet))
            }
        }
        return result
    }

    /// Attributes that leave a stored property's storage as declared; any other attribute on a stored
    /// property is taken to be a property wrapper (a custom attribute), which the macro cannot see through.
    private static let plainAttributes: Set<String> = [
        "available", "objc", "nonobjc", "preconcurrency", "MainActor", "usableFromInline", "_spi", "exclusivity",
        "NSCopying", "NSManaged", "IBOutlet", "IBInspectable", "GKInspectable", "_hasStorage", "_documentation",
    ]

    /// The first attribute of `variable` that is not one of ``plainAttributes``.
    private static func propertyWrapper(_ variable: VariableDeclSyntax) -> AttributeSyntax? {
        for element in variable.attributes {
            guard case .attribute(let attribute) = element else { continue }
            let name = attribute.attributeName.trimmedDescription
            if !plainAttributes.contains(name) { return attribute }
        }
        return nil
    }

    /// A getter (a code block, or `get`/`set` accessors) rather than storage with observers.
    private static func isComputed(_ accessors: AccessorBlockSyntax) -> Bool {
        switch accessors.accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { ["get", "set", "_read", "_modify", "unsafeAddress", "unsafeMutableAddress"].contains($0.accessorSpecifier.text) }
        }
    }

    /// The type of a literal initial value (`0`, `1.5`, `"x"`, `true`, `-3`): what Swift infers without
    /// context. Nil for anything else, which needs an annotation.
    static func literalType(of value: ExprSyntax) -> TypeSyntax? {
        var value = value
        if let prefix = value.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" { value = prefix.expression }
        if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if value.is(FloatLiteralExprSyntax.self) { return "Double" }
        if value.is(StringLiteralExprSyntax.self) { return "String" }
        if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        return nil
    }
}
