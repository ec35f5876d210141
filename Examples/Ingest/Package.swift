// swift-tools-version:6.2
import PackageDescription

// The Ingest example: a package of its own, depending on ModelMapper two levels up by path, so that a package
// depending on ModelMapper sees no `Ingest` target (issue 46.4). From this folder:
// `swift run -c release Ingest FILE` (main.swift says the options).
let package = Package(
    name: "Ingest",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "Ingest", targets: ["Ingest"]),
    ],
    dependencies: [
        .package(name: "ModelMapper", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Ingest",
            dependencies: [.product(name: "ModelMapper", package: "ModelMapper")],
            path: ".",
            exclude: ["Package.swift"]
        ),
    ]
)
