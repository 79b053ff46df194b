import Foundation
import Testing
@testable import SyncLintKit
@testable import SyncLintIndex

/// The Swift 6 language mode as a fact of the project: `SWIFT_VERSION = 6` in every configuration of an Xcode target.
/// The compiler then rejects a non-`Sendable` value used across isolation domains, so `model_not_main_actor`'s advice
/// (annotate the model so off-main access is a compile error) adds checking only where the app keeps its models on one
/// actor by design, which the rule cannot tell.
struct Swift6LanguageModeTests {
    static let fixture = Repository.path("Tests/SyncLintKitTests/Fixtures/Projects/DefaultIsolation/Clock.xcodeproj/project.pbxproj")

    @Test func xcodeTargetsTakeTheModeWhenEveryConfigurationHasIt() throws {
        // The fixture's project says Swift 6.0 in Debug and Release; the test gives one target's Release Swift 5.
        let original = try String(contentsOfFile: Self.fixture, encoding: .utf8)
        let text = original.replacingOccurrences(of: "buildSettings = {SWIFT_DEFAULT_ACTOR_ISOLATION = nonisolated; }; name = Release; };\n\t\tC0000031",
                                                 with: "buildSettings = {SWIFT_VERSION = 5.0; }; name = Release; };\n\t\tC0000031")
        #expect(text != original, "the fixture still has the shape this test edits")
        let project = try XcodeProject.read(path: Self.fixture, text: text).get()
        let byName = Dictionary(uniqueKeysWithValues: project.targets.map { ($0.name, $0.swift6LanguageMode) })
        #expect(byName["Clock"] == true, "the project's Debug and Release both say 6.0; the target sets nothing")
        #expect(byName["ClockWatch"] == false, "its Release says 5.0")
        #expect(byName["ClockWidget"] == true, "the target sets no version: the project's applies")
    }

    /// `model_not_main_actor` on one model, as the file of an app target with the given `SWIFT_VERSION` mode, by confidence.
    private func modelFinding(swift6: Bool, extra: String = "") -> [Confidence] {
        var configuration = Configuration()
        configuration.onlyRules = ["model_not_main_actor"]
        configuration.confidence = .medium
        let file = "/app/Models/Trip.swift"
        let target = XcodeTarget(name: "Trips", productType: "com.apple.product-type.application", files: [file], entitlements: nil,
                                 swift6LanguageMode: swift6)
        let layout = ProjectLayout(xcodeProjects: [XcodeProject(path: "/app/Trips.xcodeproj/project.pbxproj", sourceRoot: "/app", targets: [target])])
        let code = "import SwiftData\n@Model final class Trip { var name: String = \"\" }\n" + extra
        return Linter.lint(sources: [SourceInput(path: file, text: code)], layout: layout, configuration: configuration).findings.map(\.confidence)
    }

    @Test func aModelOfASwift6TargetIsMediumAndOfASwift5TargetHigh() {
        #expect(modelFinding(swift6: false) == [.high], "Swift 5 mode: nothing checks a model used off the main actor")
        #expect(modelFinding(swift6: true) == [.medium], "Swift 6 mode: the compiler already rejects cross-isolation use")
    }

    @Test func aModelDeclaredNonisolatedIsNotReported() {
        var configuration = Configuration()
        configuration.onlyRules = ["model_not_main_actor"]
        configuration.confidence = .medium
        let code = "import SwiftData\n@Model nonisolated final class Trip { var name: String = \"\" }\n"
        let findings = Linter.lint(sources: [SourceInput(path: "/app/Trip.swift", text: code)], layout: ProjectLayout(), configuration: configuration).findings
        #expect(findings.isEmpty, "`nonisolated` opts out of isolation on purpose")
    }
}
