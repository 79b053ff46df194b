// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SyncLint",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SyncLintKit", targets: ["SyncLintKit"]),
        .executable(name: "synclint", targets: ["synclint"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"604.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.0"),
    ],
    targets: [
        .target(
            name: "SyncLintKit",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftLexicalLookup", package: "swift-syntax"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "synclint",
            dependencies: [
                "SyncLintKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "synclint-floor",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            path: "Benchmarks/Floor"
        ),
        .testTarget(
            name: "SyncLintKitTests",
            dependencies: [
                "SyncLintKit",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            // Sample projects the tests lint from disk; they are not part of the test target.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
