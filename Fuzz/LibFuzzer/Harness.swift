import Foundation
import SyncLintKit

// The libFuzzer harness: `Benchmarks/fuzz-libfuzzer.sh` builds it with `-sanitize=fuzzer,address` and
// runs it. One binary with three modes, chosen by SYNCLINT_FUZZ_MODE, rather than three targets: one
// sanitizer link instead of three, and each mode still keeps a corpus of its own kind of file (a Swift
// project, a YAML file, a model XML), so a saved input opens as what it is.
//
//   project        (default) the input is a small project (`FuzzProject`): written to a temporary
//                  repository, linted there with every rule on as `synclint lint` does, reported in every
//                  format, and fixed with the unsafe fixes too when a fixable rule fired.
//   configuration  the input is a `.synclint.yml`: parsed, merged, then used for discovery and a lint.
//   model          the input is a Core Data model's `contents`: parsed, then indexed with the Core Data app
//                  of Examples/ListSync that loads it into a CloudKit container.
//
// What each mode runs is `FuzzPipeline` (FuzzPipeline.swift, a link to the tests' copy), which the tests
// use to replay saved inputs.

enum FuzzMode: String {
    case project, configuration, model
}

/// Everything set up once per process, before the first input.
struct FuzzSetup {
    let mode: FuzzMode
    /// A folder of this process's own under the temporary folder.
    let scratch: String
    /// The Core Data app the model mode lints each model with: Examples/ListSync/Bad.
    let coreDataApp: [SourceInput]
    let discoveryProject: String

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    init() {
        let name = ProcessInfo.processInfo.environment["SYNCLINT_FUZZ_MODE"] ?? FuzzMode.project.rawValue
        guard let mode = FuzzMode(rawValue: name) else {
            FileHandle.standardError.write(Data("synclint-libfuzzer: unknown SYNCLINT_FUZZ_MODE '\(name)'; use project, configuration or model\n".utf8))
            exit(2)
        }
        self.mode = mode
        scratch = FuzzPipeline.makeFolder(FileManager.default.temporaryDirectory.appendingPathComponent("synclint-libfuzzer-\(getpid())").path)
        let appFolder = Self.repository + "/Examples/ListSync/Bad"
        coreDataApp = FileDiscovery.discover(paths: [appFolder], excluded: []).swiftFiles.compactMap { path in
            (try? String(contentsOfFile: path, encoding: .utf8)).map { SourceInput(path: path, text: $0) }
        }
        if mode == .model && coreDataApp.isEmpty {
            FileHandle.standardError.write(Data("synclint-libfuzzer: no Swift files in \(appFolder)\n".utf8))
            exit(2)
        }
        discoveryProject = scratch + "/discovery"
        if mode == .configuration { FuzzPipeline.makeDiscoveryProject(at: discoveryProject) }
    }
}

nonisolated(unsafe) var setup: FuzzSetup?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let made = FuzzSetup()
    if let folder = ProcessInfo.processInfo.environment["SYNCLINT_FUZZ_WRITE_RULE_SEEDS"] {
        let count = RuleSeeds.write(for: made.mode, into: folder)
        try? Data(RuleSeeds.dictionary(for: made.mode).utf8).write(to: URL(fileURLWithPath: folder + ".dict"))
        try? FileManager.default.removeItem(atPath: made.scratch)
        print("synclint-libfuzzer: wrote \(count) \(made.mode.rawValue) seeds from the rules' examples and options to \(folder)")
        exit(0)
    }
    setup = made
    // libFuzzer ends with `exit`: the scratch folder goes with it (a crash leaves it, for a look).
    atexit { if let scratch = setup?.scratch { try? FileManager.default.removeItem(atPath: scratch) } }
    return 0
}

/// libFuzzer's driver, which its own `main` calls. SwiftPM links an executable target with `main` defined
/// as `<module>_main`, so `synclint_libfuzzer_main` below stands in for libFuzzer's `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                     _ testOneInput: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("synclint_libfuzzer_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return runFuzzerDriver(&argc, &argv, fuzzOneInput)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let setup else { return 0 }
    // Bytes that are not UTF-8 become U+FFFD: the readers under test take text (reading a file that is
    // not UTF-8 is SourceReader's, and its tests'), and byte mutations still reach every scalar.
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    switch setup.mode {
    case .project: FuzzPipeline.project(text, scratch: setup.scratch)
    case .configuration: FuzzPipeline.configuration(text, discoveryProject: setup.discoveryProject)
    // `NSPersistentCloudKitContainer(name: "ListSync")` in the app loads this model.
    case .model: FuzzPipeline.model(text, app: setup.coreDataApp, modelName: "ListSync", scratch: setup.scratch)
    }
    return 0
}

/// Seeds the script cannot copy from a folder: the rules' own examples (in Swift source, as strings) and
/// a configuration that sets every rule's options. Written once, before a campaign, into its seed folder.
enum RuleSeeds {
    static func write(for mode: FuzzMode, into folder: String) -> Int {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var seeds: [String] = []
        for rule in RuleRegistry.allDescriptions {
            for example in rule.triggeringExamples + rule.nonTriggeringExamples {
                // `↓` marks where a finding lands in the tests; it is no part of the code.
                let code = example.code.replacingOccurrences(of: "↓", with: "")
                switch (mode, example.kind) {
                case (.project, .swift):
                    seeds.append(code)
                    if let fixed = example.fixed { seeds.append(fixed) }
                case (.project, .coreDataModel):
                    // As the rule tests load a model example: next to a Swift file that syncs it.
                    seeds.append("""
                        let container = NSPersistentCloudKitContainer(name: "Model")
                        //>> Model.xcdatamodeld/Model.xcdatamodel/contents
                        \(code)
                        """)
                case (.model, .coreDataModel): seeds.append(code)
                case (.configuration, _) where !example.options.isEmpty:
                    seeds.append("opt_in_rules: [all]\n\(rule.id):\n" + example.options.sorted { $0.key < $1.key }
                        .map { "  \($0.key): \(yaml($0.value))" }.joined(separator: "\n"))
                default: break
                }
            }
        }
        if mode == .configuration {
            seeds.append("opt_in_rules: [all]\n" + RuleRegistry.allDescriptions.map { rule in
                "\(rule.id):\n  severity: \(rule.severity)\n" + rule.options.map { "  \($0.name): \($0.defaultValue)\n" }.joined()
            }.joined())
        }
        for (index, seed) in seeds.enumerated() {
            try? Data(seed.utf8).write(to: URL(fileURLWithPath: folder).appendingPathComponent("rule-seed-\(index)"))
        }
        return seeds.count
    }

    /// A libFuzzer dictionary (`-dict`): words a mutation may insert anywhere, so a byte-level mutator
    /// can write `@MainActor` or a rule id without finding it one byte at a time.
    static func dictionary(for mode: FuzzMode) -> String {
        let ids = RuleRegistry.allDescriptions.map(\.id)
        let words: [String]
        switch mode {
        case .project:
            words = ["//>> ", "//>> Model.xcdatamodeld/Model.xcdatamodel/contents\n", "//>> App.entitlements\n",
                     "//>> .synclint.yml\n", "//>> Sub/.synclint.yml\n", "//>> App.xcodeproj/project.pbxproj\n",
                     "//>> Package.swift\n", "//>> Tests/AppTests.swift\n",
                     "@Model", "@Observable", "@MainActor", "@State", "@StateObject", "@ObservedObject", "@Published",
                     "@Environment(\\.modelContext)", "@Query", "@Attribute(.unique)", "@Relationship(deleteRule: .cascade)",
                     "nonisolated", "actor", "async", "await", "async let", "Task {", "Task.detached {", "Task { @MainActor in",
                     "try await", "catch", "throws", "defer {", "guard", "[weak self]", "self.", "Task.isCancelled",
                     "try Task.checkCancellation()", "CancellationError", "withTaskGroup(of: Void.self) { group in",
                     ".task {", ".task(id: ", ".onAppear {", ".onDisappear {", ".refreshable {", ".cancel()",
                     "DispatchQueue.main.async {", "NotificationCenter.default.addObserver(", ".publisher(for: ",
                     "NSPersistentCloudKitContainer(name: \"Model\")", "NSPersistentContainer", "ModelContainer(for: ",
                     "ModelConfiguration(cloudKitDatabase: .automatic)", "modelContext.insert(", "try modelContext.save()",
                     "context.perform {", "viewContext", "CKContainer.default()", "CKRecord", "struct ", "final class ",
                     ": View {", "var body: some View {", "ObservableObject", "#Preview {", "#if DEBUG", "#endif",
                     "// synclint:disable ", "// synclint:disable:next ", "// synclint:enable "] + ids
        case .configuration:
            words = ["disabled_rules", "opt_in_rules", "only_rules", "included", "excluded", "cloudkit", "baseline",
                     "write_baseline", "allow_zero_lintable_files", "all", "severity", "error", "warning", "strict", "on", "off", "auto",
                                                            "\"**/*.swift\"", "*", "?", "[", "]", "{", "}", "&a", "*a", "- ",
                                                            ": ", "\n  "]
                + ids + RuleRegistry.allDescriptions.flatMap { $0.options.map(\.name) }
        case .model:
            words = ["<entity name=\"E\" representedClassName=\"E\" syncable=\"YES\">", "</entity>",
                     "<attribute name=\"a\" optional=\"YES\" attributeType=\"String\"/>",
                     "<relationship name=\"r\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"E\" inverseName=\"r\" inverseEntity=\"E\"/>",
                     "<uniquenessConstraints><uniquenessConstraint><constraint value=\"a\"/></uniquenessConstraint></uniquenessConstraints>",
                     "<model type=\"com.apple.IDECoreDataModeler.DataModel\">", "</model>", "<configuration name=\"Cloud\" usedWithCloudKit=\"YES\">",
                     "optional=\"NO\"", "transient=\"YES\"", "defaultValueString=\"0\"", "usesScalarValueType=\"YES\"",
                     "attributeType=\"Integer 64\"", "attributeType=\"Binary\"", "toMany=\"YES\"", "ordered=\"YES\"",
                     "deletionRule=\"Deny\"", "deletionRule=\"Cascade\"", "<![CDATA[", "]]>", "<!--", "-->", "&amp;", "&#x0;"]
        }
        // One entry a line, quoted, with `"` and `\` escaped as libFuzzer's dictionary format wants.
        return words.map { word in
            "\"" + word.unicodeScalars.map { scalar -> String in
                switch scalar {
                case "\"": return "\\\""
                case "\\": return "\\\\"
                case "\n": return "\\x0A"
                default: return scalar.isASCII ? String(scalar) : String(scalar).utf8.map { String(format: "\\x%02X", $0) }.joined()
                }
            }.joined() + "\""
        }.joined(separator: "\n") + "\n"
    }

    static func yaml(_ value: OptionValue) -> String {
        switch value {
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .list(let values): return "[" + values.map(yaml).joined(separator: ", ") + "]"
        case .map(let values): return "{ " + values.sorted { $0.key < $1.key }.map { "\($0.key): \(yaml($0.value))" }.joined(separator: ", ") + " }"
        }
    }
}
