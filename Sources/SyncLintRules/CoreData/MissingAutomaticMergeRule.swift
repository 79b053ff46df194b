/// A CloudKit container whose view context never merges remote changes (opt-in).
public enum MissingAutomaticMergeRule: ProjectRule {
    public static let description = RuleDescription(
        id: "missing_automatic_merge",
        name: "Missing Automatic Merge",
        whatItDoes: """
            Finds an `NSPersistentCloudKitContainer` (in targets whose entitlements list CloudKit), or a plain \
            `NSPersistentContainer` in a project that makes background contexts (`newBackgroundContext()`, \
            `performBackgroundTask`), in a project that never sets \
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
            RuleExample("""
                final class Persistence {
                    let container = ↓NSPersistentContainer(name: "Events")
                    func record(_ name: String) async throws {
                        let context = container.newBackgroundContext()
                        try await context.perform {
                            let event = Event(context: context)
                            event.name = name
                            try context.save()
                        }
                    }
                }
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
            RuleExample("""
                final class Persistence {
                    let container = NSPersistentContainer(name: "Events")
                    init() { container.viewContext.automaticallyMergesChangesFromParent = true }
                    func record(_ name: String) {
                        container.performBackgroundTask { context in
                            let event = Event(context: context)
                            event.name = name
                            try? context.save()
                        }
                    }
                }
                """),
        ],
        knownLimitations: """
            Any merge anywhere in the project counts for every container, and any background context for every plain \
            container (the index does not tie a context to its container). A file in no known Xcode target counts as \
            allowed to use CloudKit. Merging through a persistent-history \
            helper that calls neither API by name is not recognized.
            """,
        messages: [neverMerged, backgroundSavesNeverMerged])
    static let backgroundSavesNeverMerged = RuleMessage("background_saves_never_merged", "saves of background contexts (such as the one made at {place}) never reach this container's `viewContext`; set `container.viewContext.automaticallyMergesChangesFromParent = true`")
    static let neverMerged = RuleMessage("never_merged", "remote CloudKit changes never reach this container's `viewContext`; set `container.viewContext.automaticallyMergesChangesFromParent = true`")

    public static func check(index: ProjectIndex, options: RuleOptions) -> [Finding] {
        guard index.coreData.mergesRemoteChanges.isEmpty else { return [] }
        let backgroundContexts = index.coreData.backgroundContextsMade.filter { index.codeKind(of: $0) == .app }
        return index.storeConfigurations.compactMap { store in
            guard index.codeKind(of: store.location) == .app else { return nil }
            switch store.kind {
            case .coreDataCloudKit:
                // Without CloudKit in its targets' entitlements the container imports nothing.
                guard index.cloudKit.entitlementsAllowCloudKit(for: store.location.file) else { return nil }
                return description.finding(at: store.location, neverMerged)
            case .coreDataLocal:
                // A plain container's view context misses only what another context on its coordinator saves.
                guard let made = backgroundContexts.first else { return nil }
                // Reported where the file loads the stores, where the view context is set up (and the fix goes).
                let loads = index.coreData.storeLoads.first { $0.file == store.location.file && $0.line >= store.location.line }
                var notes = [FindingNote("a background context is made here", at: made)]
                if loads != nil { notes.insert(FindingNote("the container is created here", at: store.location), at: 0) }
                return description.finding(at: loads ?? store.location, backgroundSavesNeverMerged, ["place": index.layout.shown(made)],
                                           notes: notes)
            default:
                return nil
            }
        }
    }
}
