// swift-tools-version:6.2
// 6.2: the oldest toolchain that compiles the library (`Span` and `UTF8Span` in Parsing/LexedUTF8.swift, used
// behind `#available`, need the Swift 6.2 compiler and standard library); the manifest itself needs 6.0
// (`.v15`/`.v18` platform cases, Swift 6 language mode by default).
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "ModelMapper",
    // Apple platforms: the OS 15 releases, for `Int128`/`UInt128` and the Synchronization module's `Atomic`
    // and `Mutex` (the newer API the library uses, `Span`/`UTF8Span`, is behind `#available`). Untested there
    // (no Apple machine in CI): Linux is the tested platform (README, "Platforms").
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    // The library is the only product. Everything a package depending on ModelMapper would otherwise see
    // lives in packages of its own, which depend on this one by path, as swift-nio's and swift-collections'
    // benchmarks do (issue 46.4: a user's target named `Benchmarks` failed to resolve): the Benchmarks
    // executable, its models and its C floor in Benchmarks/Package.swift, the examples in
    // Examples/Ingest/Package.swift and Examples/IngestService/Package.swift. SwiftPM requires target names
    // to be unique only among the targets the products a package uses reach, so the targets below that are
    // in no product (the test support) are not in a user's graph; they are prefixed all the same.
    products: [
        .library(name: "ModelMapper", targets: ["ModelMapper"]),
    ],
    targets: [
        .systemLibrary(
            name: "CModelMapperYajl",
            path: "CModelMapperYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"]), .brew(["yajl"])]
        ),
        .target(
            name: "ModelMapper",
            dependencies: ["CModelMapperYajl"],
            path: "Sources/ModelMapper"
        ),

        // MARK: Test support (in no product)

        // The benchmark model types (Codable + handwritten + ModelMapper), for the tests: the sources of the
        // Benchmarks package's `BenchmarkModels` target (Benchmarks/Models), compiled here as a module of
        // another name, so the tests need not depend on the Benchmarks package (which depends on this one).
        .target(
            name: "ModelMapperBenchmarkModels",
            dependencies: ["ModelMapper"],
            path: "Benchmarks/Models"
        ),
        // Counts every mutex acquisition of the test process (interposes the pthread lock functions), for
        // HotPathLockTests. Its debug information is DWARF 4, like the Swift code's: clang's default, DWARF 5,
        // is more than Debian's valgrind 3.19 can read, and scripts/leakcheck runs the test binary under it.
        // (A flag SwiftPM calls unsafe; allowed here because this target is in no product.)
        .target(
            name: "CModelMapperLockCounter",
            path: "Tests/CLockCounter",
            cSettings: [.unsafeFlags(["-gdwarf-4"])]
        ),
        .testTarget(
            name: "ModelMapperTests",
            dependencies: ["ModelMapper", "ModelMapperBenchmarkModels", "CModelMapperLockCounter"],
            path: "Tests/ModelMapperTests",
            // Read in place by FuzzRegressionTests (and seeded into the fuzzer), not bundled.
            exclude: ["FuzzRegressions"]
        ),
        // The Swift code of the documentation articles (Sources/ModelMapper/ModelMapper.docc), one test per
        // article; scripts/check-doc-snippets checks that every snippet appears here verbatim.
        .testTarget(
            name: "DocSnippetTests",
            dependencies: ["ModelMapper"],
            path: "Tests/DocSnippetTests"
        ),
    ]
)

// The framework glue (issue 46.1), opt-in by trait: a user names the trait on the `.package` line
// (`traits: ["Vapor"]`) and depends on the product. Without its trait a product's module is empty and its
// framework is neither fetched nor built (the dependencies are conditioned on the traits; README,
// "Vapor / Hummingbird", has what a plain user resolves, measured). SE-0450 package traits, none on by
// default; each becomes a compilation condition of this package's targets (`#if Vapor`).
// MODELMAPPER_WITHOUT_INTEGRATIONS=1 leaves all of it out: `swift package dump-symbol-graph` (scripts/docs)
// and `diagnose-api-breaking-changes` (scripts/check-api) build the package with every trait on, which would
// compile Vapor and Hummingbird in the root build folder (seen: BoringSSL compiled by dump-symbol-graph).
if Context.environment["MODELMAPPER_WITHOUT_INTEGRATIONS"] == nil {
    package.products += [
        .library(name: "ModelMapperNIO", targets: ["ModelMapperNIO"]),
        .library(name: "ModelMapperHummingbird", targets: ["ModelMapperHummingbird"]),
        .library(name: "ModelMapperVapor", targets: ["ModelMapperVapor"]),
    ]
    package.traits = [
        .trait(name: "NIO", description: "ModelMapperNIO: ByteBuffer as JSONInput, encoding into a ByteBuffer, the 400 body (swift-nio)."),
        .trait(name: "Hummingbird", description: "ModelMapperHummingbird: the coders and error answers for Hummingbird 2.",
               enabledTraits: ["NIO"]),
        .trait(name: "Vapor", description: "ModelMapperVapor: the coders and error answers for Vapor 4.",
               enabledTraits: ["NIO"]),
    ]
    package.dependencies += [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
    ]
    package.targets += [
        .target(
            name: "ModelMapperNIO",
            dependencies: [
                "ModelMapper",
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["NIO"])),
            ],
            path: "Sources/ModelMapperNIO"
        ),
        .target(
            name: "ModelMapperHummingbird",
            dependencies: [
                "ModelMapper", "ModelMapperNIO",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ],
            path: "Sources/ModelMapperHummingbird"
        ),
        .target(
            name: "ModelMapperVapor",
            dependencies: [
                "ModelMapper", "ModelMapperNIO",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
            ],
            path: "Sources/ModelMapperVapor"
        ),
    ]
}

// `swift package generate-documentation --target ModelMapper` (swift-docc-plugin) works with
// MODELMAPPER_DOCC_PLUGIN=1 set. The plugin is added only then: a dependency declared here is resolved (fetched,
// and written into Package.resolved) by every package that depends on ModelMapper, even though its plugins
// are never built for them. scripts/docs and CI use the toolchain's docc and need no plugin.
if Context.environment["MODELMAPPER_DOCC_PLUGIN"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}

// `@JSONModel` (the ModelMapperMacros product): the only part that needs swift-syntax. SwiftPM fetches the
// dependency for every user of the package but compiles it only for a product that reaches the macro, so
// `swift build --product ModelMapper` builds no swift-syntax. MODELMAPPER_WITHOUT_MACROS=1 leaves the macro
// targets out altogether, so that builds which need none of them (the sanitizer passes, valgrind, the
// release build of the benchmarks) do not compile swift-syntax again in their own build folders; the
// engine path of macro models is still covered there by ModelMapperTests' models written as the macro
// expands them (GeneratedModelTests).
if Context.environment["MODELMAPPER_WITHOUT_MACROS"] == nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-syntax", "600.0.0"..<"604.0.0"))
    package.products.append(.library(name: "ModelMapperMacros", targets: ["ModelMapperMacros"]))
    package.targets += [
        .macro(
            name: "ModelMapperMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ],
            path: "Sources/ModelMapperMacrosPlugin"
        ),
        .target(
            name: "ModelMapperMacros",
            dependencies: ["ModelMapper", "ModelMapperMacrosPlugin"],
            path: "Sources/ModelMapperMacros"
        ),
        // What the macro generates, for every shape and diagnostic (swift-syntax's macro test support).
        .testTarget(
            name: "ModelMapperMacrosPluginTests",
            dependencies: [
                "ModelMapperMacrosPlugin",
                .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
            ],
            path: "Tests/ModelMapperMacrosPluginTests"
        ),
        // Macro models through every entry point, beside JSONMappable twins.
        .testTarget(
            name: "ModelMapperMacrosTests",
            dependencies: ["ModelMapperMacros"],
            path: "Tests/ModelMapperMacrosTests"
        ),
    ]
}
