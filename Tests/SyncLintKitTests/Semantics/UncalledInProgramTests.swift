import Foundation
import Testing
@testable import SyncLintKit

/// Who can cancel a function nothing calls: in a program (an Xcode project with an entry point, all of whose code was
/// linted) no one, unless the system may call it as a framework protocol's requirement or an override; without an
/// entry point (a library) its callers may be outside the run, so it may be cancelled (medium).
struct UncalledInProgramTests {
    static let app = """
        @main struct ClipApp: App {
            var body: some Scene { WindowGroup { Text("Clip") } }
        }
        """
    /// `copySelection` is never called: its swallowed `try?` sleep can be cancelled only if something calls it.
    static let helper = """
        final class PasteboardHelper {
            func copySelection() async -> String? {
                try? await Task.sleep(for: .milliseconds(100))
                return NSPasteboard.general.string(forType: .string)
            }
        }
        """

    private func findingLines(_ sources: [(String, String)], inXcodeProject: Bool = true) -> [Int] {
        var configuration = Configuration()
        configuration.onlyRules = ["cancellation_swallowed_by_try_optional"]
        configuration.confidence = .medium
        let target = XcodeTarget(name: "Clip", productType: "com.apple.product-type.application", files: Set(sources.map(\.0)), entitlements: nil)
        let layout = inXcodeProject ? ProjectLayout(xcodeProjects: [XcodeProject(path: "/app/Clip.xcodeproj/project.pbxproj", sourceRoot: "/app",
                                                                                 targets: [target])]) : ProjectLayout()
        return Linter.lint(sources: sources.map { SourceInput(path: $0.0, text: $0.1) }, layout: layout, configuration: configuration)
            .findings.map(\.line)
    }

    @Test func aFunctionNothingCallsInAProgramIsUncancellable() {
        #expect(findingLines([("/app/ClipApp.swift", Self.app), ("/app/PasteboardHelper.swift", Self.helper)]) == [])
    }

    @Test func withoutAnEntryPointItsCallersMayBeOutsideTheRun() {
        #expect(findingLines([("/app/PasteboardHelper.swift", Self.helper)]) == [3])
        #expect(findingLines([("/app/ClipApp.swift", Self.app), ("/app/PasteboardHelper.swift", Self.helper)], inXcodeProject: false) == [3])
    }

    @Test func aTypeThatAdoptsAFrameworkProtocolMayBeCalledByTheSystem() {
        let adopted = Self.helper.replacingOccurrences(of: "final class PasteboardHelper {", with: "final class PasteboardHelper: NSServicesMenuRequestor {")
        #expect(findingLines([("/app/ClipApp.swift", Self.app), ("/app/PasteboardHelper.swift", adopted)]) == [3])
    }

    @Test func aFunctionCalledFromAViewTaskIsCancellable() {
        let view = "struct ClipView: View {\n    let helper = PasteboardHelper()\n    var body: some View { Text(\"\").task { _ = await helper.copySelection() } }\n}"
        #expect(findingLines([("/app/ClipApp.swift", Self.app), ("/app/PasteboardHelper.swift", Self.helper), ("/app/ClipView.swift", view)]) == [3])
    }
}
