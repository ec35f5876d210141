// swift-tools-version:6.0
import CompilerPluginSupport
import Foundation
import PackageDescription

let package = Package(
    name: "ModelMapper",
    // Apple platforms: the library uses `InlineArray` (Swift 6.2 runtime: the OS 26 releases), and
    // `Int128`/`UInt128` and the Synchronization module (`Atomic`, the OS 15/18 releases), so the minimum
    // is the OS 26 releases. Untested there (no Apple machine in CI): Linux is the tested platform.
    platforms: [.macOS("26.0"), .iOS("26.0"), .tvOS("26.0"), .watchOS("26.0"), .visionOS("26.0")],
    products: [
        .library(name: "ModelMapper", targets: ["ModelMapper"]),
        .executable(name: "Benchmarks", targets: ["Benchmarks"]),
        .executable(name: "Ingest", targets: ["Ingest"]),
    ],
    targets: [
        .systemLibrary(
            name: "CYajl",
            path: "CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"]), .brew(["yajl"])]
        ),
        .target(
            name: "ModelMapper",
            dependencies: ["CYajl"],
            path: "Sources/ModelMapper"
        ),
        // Benchmark model types (Codable + handwritten + ModelMapper), shared by the benchmarks and the tests.
        .target(
            name: "BenchmarkModels",
            dependencies: ["ModelMapper"],
            path: "Benchmarks/Models"
        ),
        // The parse floor: yajl with no-op C callbacks.
        .target(
            name: "CYajlFloor",
            path: "Benchmarks/CYajlFloor",
            linkerSettings: [.linkedLibrary("yajl")]
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["ModelMapper", "BenchmarkModels", "CYajlFloor"],
            path: "Benchmarks/Runner"
        ),
        // Example: streaming JSON Lines ingestion with a dead-letter file (swift run -c release Ingest FILE).
        .executableTarget(
            name: "Ingest",
            dependencies: ["ModelMapper"],
            path: "Examples/Ingest"
        ),
        // Counts every mutex acquisition of the test process (interposes the pthread lock functions), for
        // HotPathLockTests. Its debug information is DWARF 4, like the Swift code's: clang's default, DWARF 5,
        // is more than Debian's valgrind 3.19 can read, and scripts/leakcheck runs the test binary under it.
        // (A flag SwiftPM calls unsafe; allowed here because this target is in no product.)
        .target(
            name: "CLockCounter",
            path: "Tests/CLockCounter",
            cSettings: [.unsafeFlags(["-gdwarf-4"])]
        ),
        .testTarget(
            name: "ModelMapperTests",
            dependencies: ["ModelMapper", "BenchmarkModels", "CLockCounter"],
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

// `@JSONModel` (the ModelMapperMacros product): the only part that needs swift-syntax. SwiftPM fetches the
// dependency for every user of the package but compiles it only for a product that reaches the macro, so
// `swift build --product ModelMapper` builds no swift-syntax. MODELMAPPER_WITHOUT_MACROS=1 leaves the macro
// targets out altogether, so that builds which need none of them (the sanitizer passes, valgrind, the
// release build of the benchmarks) do not compile swift-syntax again in their own build folders; the
// engine path of macro models is still covered there by ModelMapperTests' models written as the macro
// expands them (GeneratedModelTests).
if ProcessInfo.processInfo.environment["MODELMAPPER_WITHOUT_MACROS"] == nil {
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
