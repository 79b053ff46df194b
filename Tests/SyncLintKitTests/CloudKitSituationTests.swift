import Foundation
import Testing
@testable import SyncLintKit

/// The same models, in one fixture project per way of setting up a store: CloudKit findings appear
/// exactly where sync is on, and name the evidence that turned it on.
struct CloudKitSituationTests {
    static let fixtures = Repository.path("Tests/SyncLintKitTests/Fixtures/CloudKit")
    static let schemaRules: Set<String> = ["cloudkit_unique_constraint", "cloudkit_nonoptional_attribute",
                                           "cloudkit_nonoptional_relationship", "cloudkit_deny_delete_rule",
                                           "cloudkit_ordered_relationship", "cloudkit_missing_inverse", "cloudkit_undefined_attribute"]

    private func lint(_ project: String, cloudKit: Configuration.CloudKitMode = .auto) -> LintResult {
        var configuration = Configuration()
        configuration.cloudKit = cloudKit
        // Opt-in since round 8 (its figure on unseen apps); these fixtures judge its store questions too.
        configuration.optInRules = ["fatal_error_on_container_init"]
        return Linter.lint(paths: ["\(Self.fixtures)/\(project)"], configuration: configuration)
    }

    private func schemaFindings(_ result: LintResult) -> [String] {
        result.findings.filter { Self.schemaRules.contains($0.ruleID) }
            .map { "\(URL(fileURLWithPath: $0.file).lastPathComponent):\($0.line) \($0.ruleID)" }
    }

    static let swiftDataFindings = [
        "Models.swift:6 cloudkit_nonoptional_attribute",
        "Models.swift:6 cloudkit_unique_constraint",
        "Models.swift:8 cloudkit_nonoptional_relationship",
        "Models.swift:9 cloudkit_deny_delete_rule",
    ]

    @Test func explicitPrivateDatabaseTurnsCloudKitOn() throws {
        let result = lint("ExplicitPrivate")
        #expect(schemaFindings(result) == Self.swiftDataFindings)
        let message = try #require(result.findings.first { $0.ruleID == "cloudkit_unique_constraint" }?.message)
        // Relative to the linted folder, as reporters show paths: the message names no one's machine.
        #expect(message.contains("`cloudKitDatabase` at App.swift:8)"), "\(message)")
        #expect(result.findings.contains { $0.ruleID == "fatal_error_on_container_init" && $0.line == 9 })
    }

    @Test func defaultConfigurationSyncsWhenEntitlementsListCloudKit() throws {
        let result = lint("DefaultWithEntitlements")
        #expect(schemaFindings(result) == Self.swiftDataFindings)
        let message = try #require(result.findings.first?.message)
        #expect(message.contains("ReadingList.entitlements"), "\(message)")
    }

    @Test func defaultConfigurationWithoutCloudKitEntitlementIsLocal() {
        #expect(schemaFindings(lint("DefaultWithoutEntitlements")).isEmpty)
    }

    @Test func noneDatabaseIsLocalEvenWithEntitlements() {
        let result = lint("LocalOnly")
        #expect(schemaFindings(result).isEmpty)
        // A local store that fails to load still crashes every launch: a warning, not the CloudKit error.
        let crashes = result.findings.filter { $0.ruleID == "fatal_error_on_container_init" }
        #expect(crashes.allSatisfy { $0.messageID == "crash_on_failed_local_store" && $0.severity == .warning }, "\(crashes)")
    }

    @Test func aModelTypeNamedLikeAConfigurationIsStillAModel() {
        // `ModelContainer(for: …, APIConfiguration.self)` builds the default configuration, which syncs here.
        let result = lint("ModelNamedConfiguration")
        #expect(schemaFindings(result) == Self.swiftDataFindings)
        #expect(result.findings.contains { $0.ruleID == "fatal_error_on_container_init" && $0.line == 11 })
    }

    @Test func modelsOnlyInALocalContainerNextToASyncedOneAreNotChecked() {
        let result = lint("SecondLocalContainer")
        #expect(schemaFindings(result) == ["Models.swift:30 cloudkit_nonoptional_attribute"], "only Note is in the synced store")
        let crashes = result.findings.filter { $0.ruleID == "fatal_error_on_container_init" }
        #expect(crashes.filter { $0.severity == .error }.map(\.line) == [6], "the `.none` container cannot hit a CloudKit failure")
        #expect(crashes.filter { $0.messageID == "crash_on_failed_local_store" }.map(\.line) == [7], "but it crashes on a failed local load")
    }

    @Test func configurationForcesCloudKitEitherWay() {
        #expect(schemaFindings(lint("LocalOnly", cloudKit: .on)) == Self.swiftDataFindings)
        #expect(schemaFindings(lint("ExplicitPrivate", cloudKit: .off)).isEmpty)
    }

    @Test func coreDataModelLoadedByACloudKitContainerIsChecked() throws {
        let result = lint("CoreDataCloudKit")
        #expect(result.warnings.isEmpty, "\(result.warnings)")
        #expect(Set(schemaFindings(result)) == [
            "contents:4 cloudkit_nonoptional_attribute",
            "contents:6 cloudkit_nonoptional_relationship",
            "contents:6 cloudkit_deny_delete_rule",
            "contents:6 cloudkit_ordered_relationship",
            "contents:8 cloudkit_unique_constraint",
            "contents:15 cloudkit_undefined_attribute",
            "contents:17 cloudkit_missing_inverse",
        ])
        #expect(result.findings.allSatisfy { !$0.file.contains("Archive.xcdatamodeld") }, "a model no CloudKit container loads is not checked")
        let message = try #require(result.findings.first { $0.ruleID == "cloudkit_ordered_relationship" }?.message)
        #expect(message.contains("`NSPersistentCloudKitContainer` at Persistence.swift:7)"), "\(message)")
    }

    /// A model whose configurations say which are "Used with CloudKit": only their entities are checked; a store of the
    /// "Local" configuration beside the synced one stays on the device. A model that marks none is checked whole.
    @Test func onlyEntitiesOfConfigurationsUsedWithCloudKitAreChecked() {
        let app = SourceInput(path: "/p/Persistence.swift", text: "let c = NSPersistentCloudKitContainer(name: \"M\")")
        func model(marked: Bool) -> ResourceFile {
            ResourceFile(path: "/p/M.xcdatamodeld/M.xcdatamodel/contents", kind: .coreDataModel, text: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel">
                    <entity name="Bookmark" representedClassName="Bookmark" syncable="YES">
                        <attribute name="url" attributeType="String"/>
                    </entity>
                    <entity name="Event" representedClassName="Event" syncable="YES">
                        <attribute name="id" attributeType="String"/>
                    </entity>
                    <configuration name="Cloud"\(marked ? " usedWithCloudKit=\"YES\"" : "")>
                        <memberEntity name="Bookmark"/>
                    </configuration>
                    <configuration name="Local">
                        <memberEntity name="Event"/>
                    </configuration>
                </model>
                """)
        }
        var configuration = Configuration()
        configuration.onlyRules = Array(Self.schemaRules)
        let marked = Linter.lint(sources: [app], resources: [model(marked: true)], configuration: configuration)
        #expect(marked.findings.map { "\($0.line) \($0.ruleID)" } == ["4 cloudkit_nonoptional_attribute"], "only Bookmark syncs")
        let unmarked = Linter.lint(sources: [app], resources: [model(marked: false)], configuration: configuration)
        #expect(unmarked.findings.map { "\($0.line) \($0.ruleID)" } == ["4 cloudkit_nonoptional_attribute", "7 cloudkit_nonoptional_attribute"])
    }

    /// `unstable_task_id`'s claim that sync can change a key mid-load needs an entity that may sync: one kept only in a
    /// configuration the model does not mark "Used with CloudKit" stays on the device.
    @Test func aTaskKeyedOnALocalConfigurationsEntityIsNotSaidToChangeBySync() {
        let view = SourceInput(path: "/p/BadgeView.swift", text: """
            final class Event: NSManagedObject { @NSManaged var pubkey: String }
            struct BadgeView: View {
                let badge: Event
                var body: some View { Text("").task(id: badge.pubkey) { await load(badge.pubkey) } }
            }
            """)
        func model(localOnly: Bool) -> ResourceFile {
            ResourceFile(path: "/p/M.xcdatamodeld/M.xcdatamodel/contents", kind: .coreDataModel, text: """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel">
                    <entity name="Bookmark" representedClassName="Bookmark" syncable="YES">
                        <attribute name="url" optional="YES" attributeType="String"/>
                    </entity>
                    <entity name="Event" representedClassName="Event" syncable="YES">
                        <attribute name="pubkey" optional="YES" attributeType="String"/>
                    </entity>
                    <configuration name="Cloud" usedWithCloudKit="YES">
                        <memberEntity name="Bookmark"/>\(localOnly ? "" : "\n            <memberEntity name=\"Event\"/>")
                    </configuration>
                    <configuration name="Local">
                        <memberEntity name="Event"/>
                    </configuration>
                </model>
                """)
        }
        var configuration = Configuration()
        configuration.onlyRules = ["unstable_task_id"]
        let local = Linter.lint(sources: [view], resources: [model(localOnly: true)], configuration: configuration)
        #expect(local.findings.isEmpty, "\(local.findings.map(\.message))")
        let synced = Linter.lint(sources: [view], resources: [model(localOnly: false)], configuration: configuration)
        #expect(synced.findings.map(\.messageID) == ["synced_key"], "\(synced.findings.map(\.message))")
    }

    /// A computed key's finding is medium: whether the value changes depends on what its getter reads, which the rule does
    /// not follow (a badge address computed from an event's fixed fields is as stable as its `id`). A synced stored
    /// property stays high.
    @Test func aComputedKeyIsMediumAndASyncedStoredKeyIsHigh() {
        let view = SourceInput(path: "/p/BadgeView.swift", text: """
            @Model final class Badge {
                var kind: Int = 0
                var author: String = ""
                var title: String = ""
                var address: String { "\\(kind):\\(author)" }
            }
            struct BadgeView: View {
                let badge: Badge
                var body: some View {
                    Text("").task(id: badge.address) { await load(badge.address) }
                        .task(id: badge.title) { await load(badge.title) }
                }
            }
            """)
        var configuration = Configuration()
        configuration.onlyRules = ["unstable_task_id"]
        #expect(Linter.lint(sources: [view], configuration: configuration).findings.map(\.messageID) == ["synced_key"])
        configuration.confidence = .medium
        let all = Linter.lint(sources: [view], configuration: configuration).findings
        #expect(all.map { "\($0.line) \($0.messageID) \($0.confidence)" } == ["10 computed_key medium", "11 synced_key high"])
    }

    /// The synced store names its schema through another type's members, in another file (`Store.schema`, made from
    /// `Store.entries`); a local cache container binds a schema of the same name to other models. Only the synced
    /// store's models are checked.
    @Test func aSchemaNamedThroughAnotherFilesMembersDecidesWhatSyncs() {
        let store = SourceInput(path: "/p/Store.swift", text: """
            enum Store {
                static let entries: [any PersistentModel.Type] = [Note.self]
                static let schema = Schema(Store.entries)
            }
            """)
        let containers = SourceInput(path: "/p/Containers.swift", text: """
            let synced: ModelContainer = {
                let config = ModelConfiguration(schema: Store.schema, cloudKitDatabase: .private("iCloud.com.example.App"))
                return try! ModelContainer(for: Store.schema, configurations: [config])
            }()
            let cache: ModelContainer = {
                let schema = Schema([CachedImage.self])
                let config = ModelConfiguration(schema: schema, cloudKitDatabase: .none)
                return try! ModelContainer(for: schema, configurations: [config])
            }()
            """)
        let models = SourceInput(path: "/p/Models.swift", text: """
            @Model final class Note { @Attribute(.unique) var id: String = "" }
            @Model final class CachedImage { @Attribute(.unique) var url: String = "" }
            """)
        var configuration = Configuration()
        configuration.onlyRules = Array(Self.schemaRules)
        let result = Linter.lint(sources: [store, containers, models], resources: [], configuration: configuration)
        #expect(result.findings.map { "\(URL(fileURLWithPath: $0.file).lastPathComponent):\($0.line) \($0.ruleID)" }
                == ["Models.swift:1 cloudkit_unique_constraint"], "\(result.findings.map(\.message))")
    }

    @Test func malformedModelFileGivesOneWarningAndIsSkipped() {
        let app = SourceInput(path: "/p/Persistence.swift", text: "let c = NSPersistentCloudKitContainer(name: \"M\")")
        let broken = ResourceFile(path: "/p/M.xcdatamodeld/M.xcdatamodel/contents", kind: .coreDataModel, text: "<model><entity name=\"A\"></model>")
        var configuration = Configuration()
        configuration.onlyRules = Array(Self.schemaRules)
        let result = Linter.lint(sources: [app], resources: [broken], configuration: configuration)
        #expect(result.findings.isEmpty)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.contains("malformed Core Data model") == true)
    }

    @Test func olderModelVersionsAreNotChecked() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("M.xcdatamodeld")
        for version in ["M", "M 2"] {
            let directory = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try "<model/>".write(to: directory.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        }
        let current = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>M 2.xcdatamodel</string></dict></plist>"
        try current.write(to: bundle.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
        let found = FileDiscovery.discover(paths: [folder.path], excluded: []).resourcePaths.map(\.path)
        #expect(found.count == 1)
        #expect(found.first?.hasSuffix("M 2.xcdatamodel/contents") == true)
    }
}
