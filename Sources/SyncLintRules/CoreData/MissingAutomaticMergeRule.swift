/// A CloudKit container whose view context never merges remote changes (opt-in).
public enum MissingAutomaticMergeRule: ProjectRule {
    public static let description = RuleDescription(
        id: "missing_automatic_merge",
        name: "Missing Automatic Merge",
        whatItDoes: """
            Finds an `NSPersistentCloudKitContainer` in a project that never sets \
            `viewContext.automaticallyMergesChangesFromParent = true` and never merges changes by hand \
            (`mergeChanges(fromContextDidSave:)`).
            """,
        whyIsThisBad: """
            CloudKit imports land in the persistent store, not in the view context: without merging, objects the UI \
            holds stay stale until something refetches them: changes appear \
            only after switching away and back. Opt-in until its precision is measured on more apps: projects that \
            merge through persistent history in a helper the index does not recognize are reported.
            """,
        seed: "004",
        isOptIn: true,
        triggeringExamples: [
            RuleExample("""
                final class PersistenceController {
                    let container = ↓NSPersistentCloudKitContainer(name: "Lists")
                    init() {
                        container.loadPersistentStores { _, _ in }
                    }
                }
                """),
            RuleExample("""
                let container = ↓NSPersistentCloudKitContainer(name: "Model")
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                final class PersistenceController {
                    let container = NSPersistentCloudKitContainer(name: "Lists")
                    init() {
                        container.loadPersistentStores { _, _ in }
                        container.viewContext.automaticallyMergesChangesFromParent = true
                    }
                }
                """),
            RuleExample("""
                final class PersistenceController {
                    let container = NSPersistentContainer(name: "Local")
                }
                """),
        ],
        knownLimitations: """
            Any merge anywhere in the project counts for every container. Merging through a persistent-history \
            helper that calls neither API by name is not recognized.
            """,
        messages: [neverMerged])
    static let neverMerged = RuleMessage("never_merged", "remote CloudKit changes never reach this container's `viewContext`; set `container.viewContext.automaticallyMergesChangesFromParent = true`")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        guard index.coreData.mergesRemoteChanges.isEmpty else { return [] }
        return index.storeConfigurations.filter { $0.kind == .coreDataCloudKit }.map { store in
            description.finding(at: store.location, neverMerged)
        }
    }
}
