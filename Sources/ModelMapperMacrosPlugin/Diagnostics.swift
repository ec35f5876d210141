import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// What `@JSONModel` reports at compile time.
enum JSONModelDiagnostic: DiagnosticMessage {
    case unsupportedDeclaration(String)
    case nonFinalClass(String)
    case needsTypeAnnotation(String)
    case unknownMappingName(name: String, argument: String, model: String)
    case genericModel(String)
    case propertyWrapper(attribute: String, property: String)
    case implicitlyUnwrapped(property: String, wrapped: String)

    var message: String {
        switch self {
        case .unsupportedDeclaration(let kind):
            return "@JSONModel applies to a struct or a final class, not to \(kind)"
        case .nonFinalClass(let name):
            return "@JSONModel applies to final classes only: a subclass's stored properties would not be known; declare 'final class \(name)'"
        case .needsTypeAnnotation(let name):
            return "@JSONModel cannot know the type of '\(name)' from its initial value; add a type annotation"
        case .unknownMappingName(let name, let argument, let model):
            return "'\(name)' in mapping's \(argument) is not a stored property of \(model)"
        case .genericModel(let name):
            return "@JSONModel does not support generic types: '\(name)' has generic parameters, whose fields cannot be listed once for every specialization; declare a non-generic model (or conform a generic one to JSONMappable)"
        case .propertyWrapper(let attribute, let property):
            return "@JSONModel does not support property wrappers: '@\(attribute)' on '\(property)' stores a wrapper, not the declared type; declare the plain property and map it with ModelMapping's transformers"
        case .implicitlyUnwrapped(let property, let wrapped):
            return "'\(property)' is declared '\(wrapped)!': @JSONModel takes '\(wrapped)?' (nil when absent or null) or '\(wrapped)' (required), not an implicitly unwrapped Optional"
        }
    }

    var diagnosticID: MessageID {
        let id: String
        switch self {
        case .unsupportedDeclaration: id = "unsupportedDeclaration"
        case .nonFinalClass: id = "nonFinalClass"
        case .needsTypeAnnotation: id = "needsTypeAnnotation"
        case .unknownMappingName: id = "unknownMappingName"
        case .genericModel: id = "genericModel"
        case .propertyWrapper: id = "propertyWrapper"
        case .implicitlyUnwrapped: id = "implicitlyUnwrapped"
        }
        return MessageID(domain: "ModelMapperMacros", id: id)
    }

    var severity: DiagnosticSeverity { .error }
}

enum JSONModelFixIt: FixItMessage {
    case addFinal
    case useOptional

    var message: String {
        switch self {
        case .addFinal: return "add 'final'"
        case .useOptional: return "use '?'"
        }
    }

    var fixItID: MessageID {
        switch self {
        case .addFinal: return MessageID(domain: "ModelMapperMacros", id: "addFinal")
        case .useOptional: return MessageID(domain: "ModelMapperMacros", id: "useOptional")
        }
    }
}

/// The literal property names in `static let mapping = ModelMapping(...)` (the keys of `keys:`,
/// `encodingKeys:`, `transformers:`, the elements of `ignored:`, `only:`, `required:` and the others):
/// one naming no stored property is an error here, as it is at first use at run time.
enum MappingNames {
    private static let dictionaryArguments: Set<String> = ["keys", "encodingKeys", "transformers"]
    private static let listArguments: Set<String> = ["ignored", "only", "required", "ignoredWhenEncoding", "ignoredWhenDecoding", "flattened", "lossy"]

    static func check(_ members: MemberBlockItemListSyntax, properties: [StoredProperty], model: String,
                      in context: some MacroExpansionContext) {
        let names = Set(properties.map(\.name))
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else { continue }
            for binding in variable.bindings {
                guard binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "mapping",
                      let call = mappingCall(binding) else { continue }
                for argument in call.arguments {
                    guard let label = argument.label?.text else { continue }
                    var literals: [StringLiteralExprSyntax] = []
                    if dictionaryArguments.contains(label), let dictionary = argument.expression.as(DictionaryExprSyntax.self),
                       case .elements(let elements) = dictionary.content {
                        literals = elements.compactMap { $0.key.as(StringLiteralExprSyntax.self) }
                    } else if listArguments.contains(label), let array = argument.expression.as(ArrayExprSyntax.self) {
                        literals = array.elements.compactMap { $0.expression.as(StringLiteralExprSyntax.self) }
                    }
                    for literal in literals {
                        guard let name = literal.representedLiteralValue, !names.contains(name) else { continue }
                        context.diagnose(Diagnostic(node: Syntax(literal), message: JSONModelDiagnostic.unknownMappingName(name: name, argument: label, model: model)))
                    }
                }
            }
        }
    }

    /// The `ModelMapping(...)` call initializing `mapping` (`= ModelMapping(...)` or `{ ModelMapping(...) }`).
    private static func mappingCall(_ binding: PatternBindingSyntax) -> FunctionCallExprSyntax? {
        var expression = binding.initializer?.value
        if expression == nil, case .getter(let body)? = binding.accessorBlock?.accessors, body.count == 1,
           let item = body.first?.item, case .expr(let value) = item {
            expression = value
        }
        guard let call = expression?.as(FunctionCallExprSyntax.self) else { return nil }
        let callee = call.calledExpression.trimmedDescription
        return callee == "ModelMapping" || callee == ".init" || callee == "ModelMapper.ModelMapping" ? call : nil
    }
}
