// swift-tools-version:6.2
import PackageDescription

// The framework glue's tests (issue 46.1): a package of its own that depends on ModelMapper one level up by
// path, with its `Hummingbird` and `Vapor` traits on, as a user's app does; each test target runs a real app
// of its framework in-process (HummingbirdTesting, XCTVapor). Kept out of the root package so that neither
// its `swift build --build-tests` nor a user's graph ever meets the frameworks. scripts/test-integrations
// runs it (CI: one step). MODELMAPPER_WITHOUT_MACROS=1 (scripts/test-integrations sets it) keeps swift-syntax
// out: the `@JSONModel` models here are written out as the macro expands them; without that variable, one
// more test uses the real macro.
let withMacros = Context.environment["MODELMAPPER_WITHOUT_MACROS"] == nil
let macros: [Target.Dependency] = withMacros ? [.product(name: "ModelMapperMacros", package: "ModelMapper")] : []
let settings: [SwiftSetting] = withMacros ? [.define("MODELMAPPER_MACROS")] : []

let package = Package(
    name: "ModelMapperIntegrationTests",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ModelMapper", path: "..", traits: ["Hummingbird", "Vapor"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
    ],
    targets: [
        // The models both frameworks' tests send and answer with, and the expected bodies.
        .target(
            name: "IntegrationTestModels",
            dependencies: [.product(name: "ModelMapper", package: "ModelMapper")] + macros,
            swiftSettings: settings
        ),
        .testTarget(
            name: "ModelMapperHummingbirdTests",
            dependencies: [
                "IntegrationTestModels",
                .product(name: "ModelMapperHummingbird", package: "ModelMapper"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ] + macros,
            swiftSettings: settings
        ),
        .testTarget(
            name: "ModelMapperVaporTests",
            dependencies: [
                "IntegrationTestModels",
                .product(name: "ModelMapperVapor", package: "ModelMapper"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "XCTVapor", package: "vapor"),
            ] + macros,
            swiftSettings: settings
        ),
    ]
)
