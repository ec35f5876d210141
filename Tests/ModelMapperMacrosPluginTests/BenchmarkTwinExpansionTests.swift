import Foundation
import ModelMapperMacrosPlugin
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import XCTest

// The benchmarks' `@JSONModel` twins (Benchmarks/Models/MacroTwins.swift) and the mapping fuzz target's
// (Tests/ModelMapperTests/FuzzMacroTwinsTarget.swift) are written out as the macro expands them, since the
// benchmarks build without swift-syntax and scripts/fuzz compiles with swiftc alone. This expands the
// declarations that file lists (in its comment block) and asserts the file's code is exactly that
// expansion, so the written-out models cannot drift from what the macro generates. On a mismatch, the
// failure message holds the macro's expansion: paste it into the file below its `MARK: - The expansion`.
final class BenchmarkTwinExpansionTests: XCTestCase {
    func testWrittenOutTwinsAreTheMacrosExpansion() throws {
        try assertWrittenOutExpansion(file: "Benchmarks/Models/MacroTwins.swift")
    }

    /// The mapping fuzz target's macro twins (Tests/ModelMapperTests/FuzzMacroTwinsTarget.swift), compiled
    /// by scripts/fuzz without the macro plugin.
    func testWrittenOutFuzzTwinsAreTheMacrosExpansion() throws {
        try assertWrittenOutExpansion(file: "Tests/ModelMapperTests/FuzzMacroTwinsTarget.swift")
    }

    /// The full event model's macro twin (Benchmarks/Models/EventRecordMacroTwin.swift), measured by the
    /// benchmarks' `events` suite beside the mapped and Codable models.
    func testWrittenOutEventTwinIsTheMacrosExpansion() throws {
        try assertWrittenOutExpansion(file: "Benchmarks/Models/EventRecordMacroTwin.swift")
    }
}

/// The repository's root, from this file's path.
private let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Expands the declarations between `BEGIN @JSONModel DECLARATIONS` and `END @JSONModel DECLARATIONS` (each
/// line commented out with `//`) and compares the result with the code after `MARK: - The expansion`,
/// ignoring blank lines and trailing spaces.
func assertWrittenOutExpansion(file relativePath: String, line: UInt = #line) throws {
    let url = repositoryRoot.appendingPathComponent(relativePath)
    let text = try String(contentsOf: url, encoding: .utf8)
    let lines = text.components(separatedBy: "\n")
    guard let begin = lines.firstIndex(of: "// BEGIN @JSONModel DECLARATIONS"),
          let end = lines.firstIndex(of: "// END @JSONModel DECLARATIONS"),
          let mark = lines.firstIndex(of: "// MARK: - The expansion"), begin < end, end < mark
    else { return XCTFail("\(relativePath) lacks its declaration markers or its expansion mark", line: line) }
    let declarations = lines[(begin + 1)..<end].map { $0.hasPrefix("// ") ? String($0.dropFirst(3)) : String($0.dropFirst(2)) }
        .joined(separator: "\n")
    XCTAssertTrue(declarations.contains("@JSONModel"), "no declarations found in \(relativePath)", line: line)
    let written = lines[(mark + 1)...].joined(separator: "\n")

    let source = Parser.parse(source: declarations)
    let context = BasicMacroExpansionContext(
        sourceFiles: [source: .init(moduleName: "BenchmarkModels", fullFilePath: relativePath)])
    let expanded = source.expand(
        macroSpecs: ["JSONModel": MacroSpec(type: JSONModelMacro.self, conformances: ["GeneratedJSONModel"])],
        contextGenerator: { _ in context }, indentationWidth: .spaces(4))
    XCTAssertTrue(context.diagnostics.isEmpty, "the macro diagnosed \(relativePath)'s declarations: \(context.diagnostics.map(\.message))", line: line)
    let actual = expanded.description
    XCTAssertEqual(normalized(written), normalized(actual),
                   "\(relativePath) is not the macro's expansion of its declarations; the expansion is:\n\(actual)", line: line)
}

private func normalized(_ code: String) -> [String] {
    code.components(separatedBy: "\n").map { line in
        var line = Substring(line)
        while line.last == " " { line = line.dropLast() }
        return String(line)
    }.filter { !$0.isEmpty }
}
