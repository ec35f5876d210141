// Unsafe code: none runs here, but the code this macro generates does: `makeJSONModel(decodingSlots:)`
// passes the address of its local `JSONModelSlots` (`withUnsafeMutablePointer`) to the engine for one call,
// as the library's default does (API/Types/GeneratedJSONModel.swift says the invariant).
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@JSONModel`: conforms a struct or final class to `GeneratedJSONModel` (the ModelMapper module) from
/// its stored properties. It generates only the field list and the construction; every mapping rule is
/// applied by ModelMapper's engine at run time.
///
/// Members: `JSONModelSlots` (one Optional `var` per stored property: `T?` for a property of type `T`, the
/// property's own type for an Optional without an initial value), `jsonModelFields`,
/// `makeJSONModel(decodingSlots:)` (the decode's slots and construction, compiled for the type: no generic
/// code between the engine's decoding loop and the model's stored properties), `jsonModelSlots()`,
/// `updateJSONModel(from:)`; for a final class also `init(jsonModelSlots:)` (a
/// designated initializer must be in the class) and, when the class declares no initializer, a memberwise
/// one. The extension adds the conformance, and for a struct `init(jsonModelSlots:)`, so that the struct
/// keeps its memberwise initializer.
public enum JSONModelMacro: MemberMacro, ExtensionMacro {
    public static func expansion(of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
                                 conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext) throws -> [DeclSyntax] {
        guard let model = Model(declaration, diagnosingIn: context, at: node) else { return [] }
        let properties = StoredProperties.read(declaration.memberBlock.members, in: context)
        MappingNames.check(declaration.memberBlock.members, properties: properties, model: model.name, in: context)
        let access = model.access
        let slots = properties.map {
            "\(access)var \($0.identifier): \($0.slotIsValue ? "\($0.type)" : "Swift.Optional<\($0.type)>") = nil"
        }
        let fields = properties.map {
            $0.slotIsValue
                ? ".init(optional: \"\($0.name)\", \\JSONModelSlots.\($0.identifier), isLet: \($0.isLet))"
                : ".init(\"\($0.name)\", \\JSONModelSlots.\($0.identifier), hasInitialValue: \($0.initialValue != nil), isLet: \($0.isLet))"
        }
        let reads = properties.map { "slots.\($0.identifier) = self.\($0.identifier)" }
        var members: [DeclSyntax] = [
            """
            \(raw: access)struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
            \(raw: (slots + ["\(access)init() {}"]).map { "    " + $0 }.joined(separator: "\n"))
            }
            """,
            """
            \(raw: access)static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
                [
            \(raw: fields.map { "        " + $0 + "," }.joined(separator: "\n"))
                ]
            }
            """,
            """
            \(raw: access)static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
                var slots = JSONModelSlots()
                try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
                    try decode(Swift.UnsafeMutableRawPointer(slots))
                }
                return try Self(jsonModelSlots: &slots)
            }
            """,
            """
            \(raw: access)func jsonModelSlots() -> JSONModelSlots {
                var slots = JSONModelSlots()
            \(raw: reads.map { "    " + $0 }.joined(separator: "\n"))
                return slots
            }
            """,
        ]
        if model.isClass {
            // A class's `let`s cannot change after init: an update sets its `var`s.
            let assignments = properties.filter { !$0.isLet }.map {
                $0.slotIsValue ? "self.\($0.identifier) = slots.\($0.identifier).take()"
                    : "if let value = slots.\($0.identifier).take() { self.\($0.identifier) = value }"
            }
            members.append("""
                \(raw: access)func updateJSONModel(from slots: inout JSONModelSlots) throws {
                \(raw: assignments.map { "    " + $0 }.joined(separator: "\n"))
                }
                """)
            members.append(slotsInitializer(properties, access: access))
            if !declaration.memberBlock.members.contains(where: { $0.decl.is(InitializerDeclSyntax.self) }) {
                members.append(memberwiseInitializer(properties, access: access))
            }
        } else {
            members.append("""
                \(raw: access)mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
                    self = try Self(jsonModelSlots: &slots)
                }
                """)
        }
        return members
    }

    public static func expansion(of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
                                 providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
                                 in context: some MacroExpansionContext) throws -> [ExtensionDeclSyntax] {
        // The member expansion diagnoses what is wrong; nothing is generated then.
        guard let model = Model(declaration, diagnosingIn: nil, at: node) else { return [] }
        let conformance = protocols.isEmpty ? "" : ": ModelMapper.GeneratedJSONModel"
        var body = ""
        if !model.isClass {
            let properties = StoredProperties.read(declaration.memberBlock.members, in: nil)
            body = slotsInitializer(properties, access: model.access).description
        }
        let indented = body.split(separator: "\n").map { "    " + $0 + "\n" }.joined()
        let decl: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformance) {
            \(raw: indented)}
            """
        guard let ext = decl.as(ExtensionDeclSyntax.self) else { return [] }
        return [ext]
    }

    /// `init(jsonModelSlots:)`: each property from its slot, else its initial value (evaluated only then),
    /// else nil for an Optional; a property with none of them throws. Constants are not assigned. Values
    /// are moved out of the slots (`take()`), so no String or array is retained and released again. The
    /// values that may throw are taken into locals first, and only then are the properties assigned: with
    /// a `try` between the assignments the compiler built the value aside and copied it out (a retain and a
    /// release of every String and array of the model per decode).
    private static func slotsInitializer(_ properties: [StoredProperty], access: String) -> DeclSyntax {
        var takes: [String] = []
        let assignments = properties.filter { !$0.isConstant }.map { property -> String in
            if property.slotIsValue { return "self.\(property.identifier) = slots.\(property.identifier).take()" }
            if let value = property.initialValue {
                return "self.\(property.identifier) = slots.\(property.identifier).take() ?? \(value)"
            }
            let local = "_" + property.name
            takes.append("let \(local) = try slots.\(property.identifier).take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue(\"\(property.name)\", of: Self.self)")
            return "self.\(property.identifier) = \(local)"
        }
        return """
            \(raw: access)init(jsonModelSlots slots: inout JSONModelSlots) throws {
            \(raw: (takes + assignments).map { "    " + $0 }.joined(separator: "\n"))
            }
            """
    }

    /// A final class's memberwise initializer (what a struct gets from Swift): a parameter per property
    /// that is not a constant, defaulting to its initial value (nil for an Optional without one).
    private static func memberwiseInitializer(_ properties: [StoredProperty], access: String) -> DeclSyntax {
        let assigned = properties.filter { !$0.isConstant }
        let parameters = assigned.map { property -> String in
            let fallback = property.initialValue.map { " = \($0)" } ?? (property.isOptional && !property.isLet ? " = nil" : "")
            return "\(property.identifier): \(property.type)\(fallback)"
        }
        return """
            \(raw: access)init(\(raw: parameters.joined(separator: ", "))) {
            \(raw: assigned.map { "    self.\($0.identifier) = \($0.identifier)" }.joined(separator: "\n"))
            }
            """
    }
}

/// The declaration `@JSONModel` is attached to, when it is one it supports.
struct Model {
    let name: String
    let isClass: Bool
    /// `public ` or `package ` when the type is, so the conformance's members are as visible as it.
    let access: String

    init?(_ declaration: some DeclGroupSyntax, diagnosingIn context: (any MacroExpansionContext)?, at node: AttributeSyntax) {
        if let decl = declaration.as(StructDeclSyntax.self) {
            name = decl.name.text
            isClass = false
            if let generics = decl.genericParameterClause {
                context?.diagnose(Diagnostic(node: Syntax(generics), message: JSONModelDiagnostic.genericModel(name)))
                return nil
            }
        } else if let decl = declaration.as(ClassDeclSyntax.self) {
            name = decl.name.text
            isClass = true
            if let generics = decl.genericParameterClause {
                context?.diagnose(Diagnostic(node: Syntax(generics), message: JSONModelDiagnostic.genericModel(name)))
                return nil
            }
            guard decl.modifiers.contains(where: { $0.name.text == "final" }) else {
                context?.diagnose(Diagnostic(node: Syntax(decl.classKeyword), message: JSONModelDiagnostic.nonFinalClass(name),
                                             fixIt: FixIt(message: JSONModelFixIt.addFinal, changes: [
                                                 .replace(oldNode: Syntax(decl.classKeyword),
                                                          newNode: Syntax(TokenSyntax.keyword(.class, leadingTrivia: decl.classKeyword.leadingTrivia)
                                                                            .with(\.leadingTrivia, "final ")))])))
                return nil
            }
        } else {
            let kind: String
            switch declaration.kind {
            case .enumDecl: kind = "an enum"
            case .protocolDecl: kind = "a protocol"
            case .actorDecl: kind = "an actor"
            case .extensionDecl: kind = "an extension"
            default: kind = "this declaration"
            }
            context?.diagnose(Diagnostic(node: Syntax(node), message: JSONModelDiagnostic.unsupportedDeclaration(kind)))
            return nil
        }
        let modifiers = declaration.modifiers.map(\.name.text)
        access = modifiers.contains("public") || modifiers.contains("open") ? "public " : modifiers.contains("package") ? "package " : ""
    }
}
