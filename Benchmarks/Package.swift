// swift-tools-version:6.2
import PackageDescription

// ModelMapper's benchmarks: a package of their own, depending on the library one level up by path, so
// that a package depending on ModelMapper sees none of these targets (issue 46.4), as swift-nio's and
// swift-collections' benchmarks are kept. From this folder: `swift run -c release Benchmarks`; from the
// repository: scripts/bench, scripts/counts (README, "Benchmarks").
let package = Package(
    name: "ModelMapperBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "Benchmarks", targets: ["Benchmarks"]),
    ],
    dependencies: [
        .package(name: "ModelMapper", path: ".."),
    ],
    targets: [
        // Benchmark model types (Codable + handwritten + ModelMapper). The library's tests compile the same
        // sources as their own module, ModelMapperBenchmarkModels (../Package.swift).
        .target(
            name: "BenchmarkModels",
            dependencies: [.product(name: "ModelMapper", package: "ModelMapper")],
            path: "Models"
        ),
        // The parse floor: yajl with no-op C callbacks; and the allocation counter (alloc_counter.c).
        .target(
            name: "CYajlFloor",
            path: "CYajlFloor",
            linkerSettings: [.linkedLibrary("yajl")]
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: [.product(name: "ModelMapper", package: "ModelMapper"), "BenchmarkModels", "CYajlFloor"],
            path: "Runner"
        ),
    ]
)
