// swift-tools-version:6.0
import PackageDescription

// The ingestion service example (issue #15): its own package so that the library stays free of server
// dependencies. ModelMapper comes from the checkout two levels up.
let package = Package(
    name: "IngestService",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "IngestService", targets: ["IngestService"]),
        .library(name: "IngestServiceApp", targets: ["IngestServiceApp"]),
    ],
    dependencies: [
        .package(name: "ModelMapper", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Content-Encoding: gzip bodies, inflated as they stream in (zlib; Debian's zlib1g-dev).
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        // Already in the graph through postgres-nio: SHA-256 of the API keys.
        .package(url: "https://github.com/apple/swift-crypto.git", "3.9.0"..<"6.0.0"),
        // Already in the graph through postgres-nio: TLS to PostgreSQL (sslmode, sslrootcert).
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // Already in the graph through Hummingbird: the HTTP parts a connection's handler sees (ConnectionLimits).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
    ],
    targets: [
        // The application: routes, streaming decode, dead letters, metrics. Tests build it in-process.
        .target(
            name: "IngestServiceApp",
            dependencies: [
                .product(name: "ModelMapper", package: "ModelMapper"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "IngestService",
            dependencies: [
                "IngestServiceApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "IngestServiceTests",
            dependencies: [
                "IngestServiceApp",
                .product(name: "ModelMapper", package: "ModelMapper"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
    ]
)
