import Foundation
import Testing
@testable import SyncLintKit

/// Core Data models and entitlements come with the repository being linted: XML entities are never
/// expanded or fetched, and a file SyncLint cannot use gives one warning line, never a crash.
struct ResourceFileTests {
    static let modelPath = "/p/Lists.xcdatamodeld/Lists.xcdatamodel/contents"
    static let modelBody = """
        <model type="com.apple.IDECoreDataModeler.DataModel" usedWithCloudKit="YES">
            <entity name="Item" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
        </model>
        """

    /// "Billion laughs": ten entities that each expand to ten of the one before.
    static let entityBomb: String = {
        var declarations = ["<!ENTITY lol0 \"lol\">"]
        for level in 1...9 {
            declarations.append("<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">")
        }
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE model [\n" + declarations.joined(separator: "\n") + "\n]>\n"
            + modelBody.replacingOccurrences(of: "name=\"Item\"", with: "name=\"&lol9;\"")
    }()

    @Test func modelDeclaringEntitiesIsRefusedUnexpanded() throws {
        let start = Date()
        let result = CoreDataModel.parse(ResourceFile(path: Self.modelPath, kind: .coreDataModel, text: Self.entityBomb))
        #expect(Date().timeIntervalSince(start) < 2)
        guard case .failure(let failure) = result else {
            Issue.record("a model declaring entities was parsed")
            return
        }
        #expect(failure.description == "warning: \(Self.modelPath): Core Data model declares XML entities (<!ENTITY), which SyncLint does not expand; skipped")
    }

    @Test func modelNamingAnExternalDocumentTypeIsParsedWithoutFetchingIt() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE model SYSTEM \"file:///no/such/model.dtd\">\n" + Self.modelBody
        let result = CoreDataModel.parse(ResourceFile(path: Self.modelPath, kind: .coreDataModel, text: text))
        guard case .success(let model) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(model.entities.map(\.name) == ["Item"])
    }

    @Test func malformedEntitlementsGiveOneWarningAndOtherFindingsStay() {
        let entitlements = [
            ResourceFile(path: "/p/App.entitlements", kind: .entitlements, text: "<plist><dict><key>unclosed"),
            ResourceFile(path: "/p/List.entitlements", kind: .entitlements, text: "<plist><array></array></plist>"),
        ]
        let good = ResourceFile(path: "/p/Good.entitlements", kind: .entitlements,
                                text: "<plist version=\"1.0\"><dict><key>aps-environment</key><string>development</string></dict></plist>")
        let source = SourceInput(path: "/p/ItemView.swift", text: EngineTests.bad)
        let result = Linter.lint(sources: [source], resources: entitlements + [good], configuration: .withStockRules)
        #expect(result.warnings == [
            "warning: /p/App.entitlements: not a property list dictionary; its entitlements are ignored",
            "warning: /p/List.entitlements: not a property list dictionary; its entitlements are ignored",
        ])
        #expect(result.findings.map(\.ruleID) == ["task_without_id"], "the Swift file's findings are kept")
    }

    @Test func binaryEntitlementsOnDiskGiveOneWarning() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist: [String: Any] = ["com.apple.developer.icloud-services": ["CloudKit"]]
        let binary = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        try binary.write(to: folder.appendingPathComponent("App.entitlements"))
        try EngineTests.bad.write(to: folder.appendingPathComponent("ItemView.swift"), atomically: true, encoding: .utf8)
        let result = Linter.lint(paths: [folder.path], configuration: .withStockRules)
        #expect(result.warnings.count == 1, "\(result.warnings)")
        #expect(result.warnings.first?.hasSuffix("App.entitlements: binary property list (SyncLint reads the XML form only); skipped") == true, "\(result.warnings)")
        #expect(result.findings.map(\.ruleID) == ["task_without_id"])
    }
}
