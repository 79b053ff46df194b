// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SyncLint",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "SyncLintKit", targets: ["SyncLintKit"]),
        .executable(name: "synclint", targets: ["synclint"]),
        .plugin(name: "SyncLintCommandPlugin", targets: ["SyncLintCommandPlugin"]),
        .plugin(name: "SyncLintBuildToolPlugin", targets: ["SyncLintBuildToolPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax.git", "600.0.0"..<"604.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.0"),
    ],
    targets: [
        // The layers, bottom up; each imports only those below it (docs/architecture.md, "Layers").
        // Facts: plain `Sendable` values (locations, type and function facts, findings, rule descriptions).
        // No SwiftSyntax, so a cache or an editor server can keep them without a tree.
        .target(name: "SyncLintFacts"),
        // The project index and its queries: facts in, answers out. No SwiftSyntax either.
        .target(name: "SyncLintIndex", dependencies: ["SyncLintFacts"]),
        // What reads swift-syntax trees: the walker, the file context and scope, the fact collectors.
        .target(
            name: "SyncLintSyntax",
            dependencies: [
                "SyncLintIndex",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftLexicalLookup", package: "swift-syntax"),
            ]
        ),
        // The rules, their fixes and the registry.
        .target(
            name: "SyncLintRules",
            dependencies: [
                "SyncLintSyntax",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftLexicalLookup", package: "swift-syntax"),
            ]
        ),
        // Discover, parse, pipeline, configuration, report, fix engine: what the CLI and users call.
        .target(
            name: "SyncLintKit",
            dependencies: [
                "SyncLintRules",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // `synclint lsp`: the language server, JSON-RPC over stdio on top of the kit's `LiveProject`.
        .target(name: "SyncLintServer", dependencies: ["SyncLintKit"]),
        .executableTarget(
            name: "synclint",
            dependencies: [
                "SyncLintKit",
                "SyncLintServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `swift package synclint [args]`. No permission is declared: linting only reads, and a
        // declared write permission would be asked for on every run. `--fix` writes, so on macOS
        // (where plugins run sandboxed) it needs `--allow-writing-to-package-directory`.
        .plugin(
            name: "SyncLintCommandPlugin",
            capability: .command(intent: .custom(verb: "synclint", description: "Lint the package's Swift targets with SyncLint")),
            dependencies: ["synclint"]
        ),
        // Lints a target's Swift files as part of its build; the findings appear in the build log.
        .plugin(name: "SyncLintBuildToolPlugin", capability: .buildTool(), dependencies: ["synclint"]),
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
                "SyncLintFacts", "SyncLintIndex", "SyncLintSyntax", "SyncLintRules", "SyncLintKit", "SyncLintServer",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            // Sample projects the tests lint from disk; they are not part of the test target.
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `.ci/plugin-check` builds this one-file target with the build-tool plugin applied. Only then:
// a target that uses the plugin makes SwiftPM build the plugin's tool (synclint, swift-syntax and
// all, a second time) before any build of this package, `swift run synclint` included.
if Context.environment["SYNCLINT_PLUGIN_PROBE"] != nil {
    package.targets.append(.target(name: "SyncLintPluginProbe", path: ".ci/PluginProbe", plugins: ["SyncLintBuildToolPlugin"]))
}

// `Benchmarks/fuzz-libfuzzer.sh` builds this libFuzzer harness with `-sanitize=fuzzer,address` in its
// own scratch folder (.build-fuzz). Only then: the sanitizer build is a full rebuild of swift-syntax,
// and the normal `swift build` / `swift test` must not pay for it.
if Context.environment["SYNCLINT_LIBFUZZER"] != nil {
    package.targets.append(.executableTarget(
        name: "synclint-libfuzzer",
        dependencies: ["SyncLintKit"],
        path: "Fuzz/LibFuzzer",
        exclude: ["lsan.supp"],
        // libFuzzer brings its own `main`; the harness is only `LLVMFuzzerTestOneInput`.
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    ))
}
