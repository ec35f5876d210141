import ModelMapperMacrosPlugin
import SwiftSyntaxMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosTestSupport
import XCTest

// What `@JSONModel` generates for every shape it supports, and what it reports where it cannot.

private let macros: [String: MacroSpec] = ["JSONModel": MacroSpec(type: JSONModelMacro.self, conformances: ["GeneratedJSONModel"])]

final class JSONModelExpansionTests: XCTestCase {
    func testStruct() {
        assertMacroExpansion(
            """
            @JSONModel
            struct Repo {
                let id: Int
                var stars: Int = 0
                let license: String?
                let kind = "repo"
                var score = 1.5
                var a, b: Bool
                var observed: Int = 1 { didSet {} }
                var computed: Int { id + 1 }
                static let mapping = ModelMapping(keys: ["stars": "stargazers_count"])
            }
            """,
            expandedSource: """

            struct Repo {
                let id: Int
                var stars: Int = 0
                let license: String?
                let kind = "repo"
                var score = 1.5
                var a, b: Bool
                var observed: Int = 1 { didSet {} }
                var computed: Int { id + 1 }
                static let mapping = ModelMapping(keys: ["stars": "stargazers_count"])

                struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
                    var id: Swift.Optional<Int> = nil
                    var stars: Swift.Optional<Int> = nil
                    var license: String? = nil
                    var kind: Swift.Optional<String> = nil
                    var score: Swift.Optional<Double> = nil
                    var a: Swift.Optional<Bool> = nil
                    var b: Swift.Optional<Bool> = nil
                    var observed: Swift.Optional<Int> = nil
                    init() {
                    }
                }

                static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
                    [
                        .init("id", \\JSONModelSlots.id, hasInitialValue: false, isLet: true),
                        .init("stars", \\JSONModelSlots.stars, hasInitialValue: true, isLet: false),
                        .init(optional: "license", \\JSONModelSlots.license, isLet: true),
                        .init("kind", \\JSONModelSlots.kind, hasInitialValue: true, isLet: true),
                        .init("score", \\JSONModelSlots.score, hasInitialValue: true, isLet: false),
                        .init("a", \\JSONModelSlots.a, hasInitialValue: false, isLet: false),
                        .init("b", \\JSONModelSlots.b, hasInitialValue: false, isLet: false),
                        .init("observed", \\JSONModelSlots.observed, hasInitialValue: true, isLet: false),
                    ]
                }

                static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
                    var slots = JSONModelSlots()
                    try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
                        try decode(Swift.UnsafeMutableRawPointer(slots))
                    }
                    return try Self(jsonModelSlots: &slots)
                }

                func jsonModelSlots() -> JSONModelSlots {
                    var slots = JSONModelSlots()
                    slots.id = self.id
                    slots.stars = self.stars
                    slots.license = self.license
                    slots.kind = self.kind
                    slots.score = self.score
                    slots.a = self.a
                    slots.b = self.b
                    slots.observed = self.observed
                    return slots
                }

                mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
                    self = try Self(jsonModelSlots: &slots)
                }
            }

            extension Repo: ModelMapper.GeneratedJSONModel {
                init(jsonModelSlots slots: inout JSONModelSlots) throws {
                    let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
                    let _a = try slots.a.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("a", of: Self.self)
                    let _b = try slots.b.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("b", of: Self.self)
                    self.id = _id
                    self.stars = slots.stars.take() ?? 0
                    self.license = slots.license.take()
                    self.score = slots.score.take() ?? 1.5
                    self.a = _a
                    self.b = _b
                    self.observed = slots.observed.take() ?? 1
                }
            }
            """,
            macroSpecs: macros)
    }

    func testPublicStruct() {
        assertMacroExpansion(
            """
            @JSONModel
            public struct Tag {
                public let name: String
            }
            """,
            expandedSource: """

            public struct Tag {
                public let name: String

                public struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
                    public var name: Swift.Optional<String> = nil
                    public init() {
                    }
                }

                public static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
                    [
                        .init("name", \\JSONModelSlots.name, hasInitialValue: false, isLet: true),
                    ]
                }

                public static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
                    var slots = JSONModelSlots()
                    try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
                        try decode(Swift.UnsafeMutableRawPointer(slots))
                    }
                    return try Self(jsonModelSlots: &slots)
                }

                public func jsonModelSlots() -> JSONModelSlots {
                    var slots = JSONModelSlots()
                    slots.name = self.name
                    return slots
                }

                public mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
                    self = try Self(jsonModelSlots: &slots)
                }
            }

            extension Tag: ModelMapper.GeneratedJSONModel {
                public init(jsonModelSlots slots: inout JSONModelSlots) throws {
                    let _name = try slots.name.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("name", of: Self.self)
                    self.name = _name
                }
            }
            """,
            macroSpecs: macros)
    }

    func testFinalClass() {
        assertMacroExpansion(
            """
            @JSONModel
            final class Account {
                let name: String
                var plan = "free"
                var note: String?
            }
            """,
            expandedSource: """

            final class Account {
                let name: String
                var plan = "free"
                var note: String?

                struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
                    var name: Swift.Optional<String> = nil
                    var plan: Swift.Optional<String> = nil
                    var note: String? = nil
                    init() {
                    }
                }

                static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
                    [
                        .init("name", \\JSONModelSlots.name, hasInitialValue: false, isLet: true),
                        .init("plan", \\JSONModelSlots.plan, hasInitialValue: true, isLet: false),
                        .init(optional: "note", \\JSONModelSlots.note, isLet: false),
                    ]
                }

                static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
                    var slots = JSONModelSlots()
                    try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
                        try decode(Swift.UnsafeMutableRawPointer(slots))
                    }
                    return try Self(jsonModelSlots: &slots)
                }

                func jsonModelSlots() -> JSONModelSlots {
                    var slots = JSONModelSlots()
                    slots.name = self.name
                    slots.plan = self.plan
                    slots.note = self.note
                    return slots
                }

                func updateJSONModel(from slots: inout JSONModelSlots) throws {
                    if let value = slots.plan.take() {
                        self.plan = value
                    }
                    self.note = slots.note.take()
                }

                init(jsonModelSlots slots: inout JSONModelSlots) throws {
                    let _name = try slots.name.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("name", of: Self.self)
                    self.name = _name
                    self.plan = slots.plan.take() ?? "free"
                    self.note = slots.note.take()
                }

                init(name: String, plan: String = "free", note: String? = nil) {
                    self.name = name
                    self.plan = plan
                    self.note = note
                }
            }

            extension Account: ModelMapper.GeneratedJSONModel {
            }
            """,
            macroSpecs: macros)
    }

    func testFinalClassWithItsOwnInitializer() {
        assertMacroExpansion(
            """
            @JSONModel
            final class Account {
                let name: String
                init(name: String) { self.name = name }
            }
            """,
            expandedSource: """

            final class Account {
                let name: String
                init(name: String) { self.name = name }

                struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
                    var name: Swift.Optional<String> = nil
                    init() {
                    }
                }

                static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
                    [
                        .init("name", \\JSONModelSlots.name, hasInitialValue: false, isLet: true),
                    ]
                }

                static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
                    var slots = JSONModelSlots()
                    try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
                        try decode(Swift.UnsafeMutableRawPointer(slots))
                    }
                    return try Self(jsonModelSlots: &slots)
                }

                func jsonModelSlots() -> JSONModelSlots {
                    var slots = JSONModelSlots()
                    slots.name = self.name
                    return slots
                }

                func updateJSONModel(from slots: inout JSONModelSlots) throws {

                }

                init(jsonModelSlots slots: inout JSONModelSlots) throws {
                    let _name = try slots.name.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("name", of: Self.self)
                    self.name = _name
                }
            }

            extension Account: ModelMapper.GeneratedJSONModel {
            }
            """,
            macroSpecs: macros)
    }

    func testDiagnostics() {
        assertMacroExpansion(
            """
            @JSONModel
            enum E {
                case a
            }
            """,
            expandedSource: """
            enum E {
                case a
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@JSONModel applies to a struct or a final class, not to an enum", line: 1, column: 1),
            ],
            macroSpecs: macros)
        assertMacroExpansion(
            """
            @JSONModel
            protocol P {}
            """,
            expandedSource: """
            protocol P {}
            """,
            diagnostics: [
                DiagnosticSpec(message: "@JSONModel applies to a struct or a final class, not to a protocol", line: 1, column: 1),
            ],
            macroSpecs: macros)
        assertMacroExpansion(
            """
            @JSONModel
            class Base {
                var a = 0
            }
            """,
            expandedSource: """
            class Base {
                var a = 0
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@JSONModel applies to final classes only: a subclass's stored properties would not be known; declare 'final class Base'", line: 2, column: 1, fixIts: [FixItSpec(message: "add 'final'")]),
            ],
            macroSpecs: macros)
        assertMacroExpansion(
            """
            @JSONModel
            struct S {
                var when = Date()
                var a = 0
                static let mapping = ModelMapping(keys: ["b": "B", "a": "A"], ignored: ["c"])
            }
            """,
            expandedSource: """

            struct S {
                var when = Date()
                var a = 0
                static let mapping = ModelMapping(keys: ["b": "B", "a": "A"], ignored: ["c"])

                struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
                    var a: Swift.Optional<Int> = nil
                    init() {
                    }
                }

                static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
                    [
                        .init("a", \\JSONModelSlots.a, hasInitialValue: true, isLet: false),
                    ]
                }

                static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
                    var slots = JSONModelSlots()
                    try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
                        try decode(Swift.UnsafeMutableRawPointer(slots))
                    }
                    return try Self(jsonModelSlots: &slots)
                }

                func jsonModelSlots() -> JSONModelSlots {
                    var slots = JSONModelSlots()
                    slots.a = self.a
                    return slots
                }

                mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
                    self = try Self(jsonModelSlots: &slots)
                }
            }

            extension S: ModelMapper.GeneratedJSONModel {
                init(jsonModelSlots slots: inout JSONModelSlots) throws {
                    self.a = slots.a.take() ?? 0
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@JSONModel cannot know the type of 'when' from its initial value; add a type annotation", line: 3, column: 9),
                DiagnosticSpec(message: "'b' in mapping's keys is not a stored property of S", line: 5, column: 46),
                DiagnosticSpec(message: "'c' in mapping's ignored is not a stored property of S", line: 5, column: 77),
            ],
            macroSpecs: macros)
    }
    func testDiagnosticsForGenericsPropertyWrappersAndImplicitlyUnwrappedOptionals() {
        assertMacroExpansion(
            """
            @JSONModel
            struct Box<T> {
                let value: T
            }
            """,
            expandedSource: """
            struct Box<T> {
                let value: T
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@JSONModel does not support generic types: 'Box' has generic parameters, whose fields cannot be listed once for every specialization; declare a non-generic model (or conform a generic one to JSONMappable)", line: 2, column: 11),
            ],
            macroSpecs: macros)
        assertMacroExpansion(
            """
            @JSONModel
            final class Pair<A, B> {
                let a: A
            }
            """,
            expandedSource: """
            final class Pair<A, B> {
                let a: A
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@JSONModel does not support generic types: 'Pair' has generic parameters, whose fields cannot be listed once for every specialization; declare a non-generic model (or conform a generic one to JSONMappable)", line: 2, column: 17),
            ],
            macroSpecs: macros)
        assertMacroExpansion(
            """
            @JSONModel
            struct S {
                @Clamped var level: Int
                @available(*, deprecated) var old: Int { 0 }
                let id: Int
            }
            """,
            expandedSource: """

            struct S {
                @Clamped var level: Int
                @available(*, deprecated) var old: Int { 0 }
                let id: Int

                struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
                    var id: Swift.Optional<Int> = nil
                    init() {
                    }
                }

                static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
                    [
                        .init("id", \\JSONModelSlots.id, hasInitialValue: false, isLet: true),
                    ]
                }

                static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
                    var slots = JSONModelSlots()
                    try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
                        try decode(Swift.UnsafeMutableRawPointer(slots))
                    }
                    return try Self(jsonModelSlots: &slots)
                }

                func jsonModelSlots() -> JSONModelSlots {
                    var slots = JSONModelSlots()
                    slots.id = self.id
                    return slots
                }

                mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
                    self = try Self(jsonModelSlots: &slots)
                }
            }

            extension S: ModelMapper.GeneratedJSONModel {
                init(jsonModelSlots slots: inout JSONModelSlots) throws {
                    let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
                    self.id = _id
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@JSONModel does not support property wrappers: '@Clamped' on 'level' stores a wrapper, not the declared type; declare the plain property and map it with ModelMapping's transformers", line: 3, column: 5),
            ],
            macroSpecs: macros)
        assertMacroExpansion(
            """
            @JSONModel
            struct S {
                var name: String!
                let id: Int
            }
            """,
            expandedSource: """

            struct S {
                var name: String!
                let id: Int

                struct JSONModelSlots: ModelMapper.GeneratedJSONModelSlots {
                    var id: Swift.Optional<Int> = nil
                    init() {
                    }
                }

                static var jsonModelFields: [ModelMapper.JSONModelField<JSONModelSlots>] {
                    [
                        .init("id", \\JSONModelSlots.id, hasInitialValue: false, isLet: true),
                    ]
                }

                static func makeJSONModel(decodingSlots decode: (Swift.UnsafeMutableRawPointer) throws(ModelMapper.MappingError) -> Swift.Void) throws -> Self {
                    var slots = JSONModelSlots()
                    try Swift.withUnsafeMutablePointer(to: &slots) { (slots) throws(ModelMapper.MappingError) in
                        try decode(Swift.UnsafeMutableRawPointer(slots))
                    }
                    return try Self(jsonModelSlots: &slots)
                }

                func jsonModelSlots() -> JSONModelSlots {
                    var slots = JSONModelSlots()
                    slots.id = self.id
                    return slots
                }

                mutating func updateJSONModel(from slots: inout JSONModelSlots) throws {
                    self = try Self(jsonModelSlots: &slots)
                }
            }

            extension S: ModelMapper.GeneratedJSONModel {
                init(jsonModelSlots slots: inout JSONModelSlots) throws {
                    let _id = try slots.id.take() ?? ModelMapper.GeneratedJSONModelSupport.missingValue("id", of: Self.self)
                    self.id = _id
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "'name' is declared 'String!': @JSONModel takes 'String?' (nil when absent or null) or 'String' (required), not an implicitly unwrapped Optional", line: 3, column: 15, fixIts: [FixItSpec(message: "use '?'")]),
            ],
            macroSpecs: macros)
    }
}
