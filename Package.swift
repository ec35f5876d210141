// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ModelMapper",
    products: [
        .library(name: "ModelMapper", targets: ["ModelMapper"]),
        .executable(name: "Benchmarks", targets: ["Benchmarks"]),
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
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["ModelMapper", "CYajl"],
            path: "Benchmarks"
        ),
        .testTarget(
            name: "ModelMapperTests",
            dependencies: ["ModelMapper"],
            path: "Tests/ModelMapperTests"
        ),
    ]
)
