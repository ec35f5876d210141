import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct ModelMapperMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [JSONModelMacro.self]
}
