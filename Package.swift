// swift-tools-version:6.0
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
