import SwiftSyntax

/// A crash where creating the persistent container fails, in a project that syncs with CloudKit.
public final class FatalErrorOnContainerInitRule: SyntaxRule {
    public static let description = RuleDescription(
        id: "fatal_error_on_container_init",
        name: "Fatal Error On Container Init",
        whatItDoes: """
            Finds `fatalError`, `preconditionFailure` or `try!` where `ModelContainer(...)` creation or \
            `loadPersistentStores` fails, in a project where CloudKit is on.
            """,
        whyIsThisBad: """
            With CloudKit, container creation fails for reasons outside the app's control at run time: a schema \
            CloudKit rejects, an account or container problem, a migration. A `fatalError` there turns each of them \
            into a crash on every launch, and the user can do nothing about it. Fall back to a local \
            or in-memory store and tell the user.
            """,
        seed: "003",
        severity: .error,
        triggeringExamples: [
            RuleExample("""
                let modelConfiguration = ModelConfiguration(schema: schema, cloudKitDatabase: .private("iCloud.com.example.App"))
                func makeContainer() -> ModelContainer {
                    do {
                        return try ModelContainer(for: schema, configurations: [modelConfiguration])
                    } catch {
                        ↓fatalError("Could not create ModelContainer: \\(error)")
                    }
                }
                """),
            RuleExample("""
                let container = NSPersistentCloudKitContainer(name: "Lists")
                func load() {
                    container.loadPersistentStores { _, error in
                        if let error { ↓fatalError("Unresolved error \\(error)") }
                    }
                }
                """),
            RuleExample("""
                let shared = ↓try! ModelContainer(for: Item.self, configurations: ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App")))
                """),
            RuleExample("""
                let preview = ModelConfiguration(isStoredInMemoryOnly: true)
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                let previewContainer = try! ModelContainer(for: Item.self, configurations: preview)
                let shared = ↓try! ModelContainer(for: Item.self, configurations: cloud)
                """),
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                let fallback = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.Other"))
                func makeContainer() -> ModelContainer {
                    do { return try ModelContainer(for: Item.self, configurations: cloud) }
                    catch {
                        do { return try ModelContainer(for: Item.self, configurations: fallback) }
                        catch { ↓fatalError("No store at all: \\(error)") }
                    }
                }
                """),
            RuleExample("""
                let cloudContainer = NSPersistentCloudKitContainer(name: "Lists")
                func load() {
                    cloudContainer.loadPersistentStores { _, error in
                        guard error != nil else { return }
                        let retry = NSPersistentCloudKitContainer(name: "Lists")
                        retry.loadPersistentStores { _, error in
                            if let error { ↓fatalError("Unresolved error \\(error)") }
                        }
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                let modelConfiguration = ModelConfiguration(schema: schema, cloudKitDatabase: .private("iCloud.com.example.App"))
                func makeContainer() -> ModelContainer {
                    do {
                        return try ModelContainer(for: schema, configurations: [modelConfiguration])
                    } catch {
                        logger.error("CloudKit store failed: \\(error)")
                        return try! ModelContainer(for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)])
                    }
                }
                """),
            RuleExample("""
                let modelConfiguration = ModelConfiguration(schema: schema, cloudKitDatabase: .none)
                func makeContainer() -> ModelContainer {
                    do { return try ModelContainer(for: schema, configurations: [modelConfiguration]) }
                    catch { fatalError("Could not create ModelContainer: \\(error)") }
                }
                """),
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                let preview = ModelConfiguration(isStoredInMemoryOnly: true)
                let previewContainer = try! ModelContainer(for: Item.self, configurations: preview)
                """),
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                func makeScratchContainer() -> ModelContainer {
                    do {
                        return try ModelContainer(for: Item.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: "/dev/null")))
                    } catch {
                        fatalError("Could not create the scratch container: \\(error)")
                    }
                }
                """),
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                let local = ModelConfiguration(cloudKitDatabase: .none)
                func makeContainer() -> ModelContainer {
                    do { return try ModelContainer(for: Item.self, configurations: cloud) }
                    catch {
                        do { return try ModelContainer(for: Item.self, configurations: local) }
                        catch { fatalError("Not even a local store: \\(error)") }
                    }
                }
                """),
            RuleExample("""
                let cloud = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                var sharedModelContainer: ModelContainer = {
                    if let container = try? ModelContainer(for: Item.self, configurations: cloud) { return container }
                    do {
                        return try ModelContainer(for: Item.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
                    } catch {
                        fatalError("Could not create ModelContainer: \\(error)")
                    }
                }()
                """),
            RuleExample("""
                let cloudContainer = NSPersistentCloudKitContainer(name: "Lists")
                func load() {
                    cloudContainer.loadPersistentStores { _, error in
                        guard error != nil else { return }
                        let local = NSPersistentContainer(name: "Lists")
                        local.loadPersistentStores { _, error in
                            if let error { fatalError("Unresolved error \\(error)") }
                        }
                    }
                }
                """),
            RuleExample("""
                let configuration = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.example.App"))
                func parse(_ data: Data) -> Config {
                    do { return try JSONDecoder().decode(Config.self, from: data) } catch { fatalError("bad bundled config") }
                }
                """),
        ],
        knownLimitations: """
            Asks whether the container created there syncs: a container whose configurations are all written in \
            the same file (inline or bound to a name it uses) is judged by them, so an in-memory, `/dev/null` or \
            `cloudKitDatabase: .none` fallback is not reported; a container whose configurations come from \
            elsewhere is judged by the targets that compile its file. A `try!` inside a `catch` is not \
            reported. A Core Data crash is judged by the container the handler's receiver names in the same file.
            """,
        messages: [crashOnFailedStore])
    static let crashOnFailedStore = RuleMessage("crash_on_failed_store", "{crash} turns a failed CloudKit store into a crash on every launch (CloudKit is on: {0}); fall back to a local or in-memory store and report the error")

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr, .tryExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        if let tryExpression = node.as(TryExprSyntax.self) {
            guard tryExpression.questionOrExclamationMark?.tokenKind == .exclamationMark,
                  Self.createsContainer(tryExpression.expression), !Self.isInsideCatch(node) else { return }
            report(tryExpression.tryKeyword, what: "`try!`", store: .swiftDataContainers(Self.containerLocations(in: tryExpression.expression, context: context)),
                   context: context)
            return
        }
        guard let call = node.as(FunctionCallExprSyntax.self),
              ["fatalError", "preconditionFailure"].contains(context.calleeMethodName(call)),
              call.calledExpression.is(DeclReferenceExprSyntax.self) else { return }
        // The innermost `loadPersistentStores` handler: a fallback container loaded inside another's handler decides.
        if let handler = context.scope.closures.first(where: { $0.kind == .other(callee: FrameworkCallbacks.loadPersistentStoresMethod) }) {
            let receiver = handler.call?.calledExpression.as(MemberAccessExprSyntax.self)?.base.flatMap(SyntaxFacts.memberPath)
            report(call.calledExpression, what: "`\(SyntaxFacts.calleeName(call))`",
                   store: .coreDataContainer(named: receiver.map { $0.members.last ?? $0.root }), context: context)
            return
        }
        guard let clause = node.ancestorOrSelf(mapping: { $0.as(CatchClauseSyntax.self) }),
              let doStatement = clause.parent?.parent?.as(DoStmtSyntax.self),
              Self.createsContainer(doStatement.body) else { return }
        report(call.calledExpression, what: "`\(SyntaxFacts.calleeName(call))`",
               store: .swiftDataContainers(Self.containerLocations(in: doStatement.body, context: context)), context: context)
    }

    /// The container whose failure crashes: SwiftData containers created where the crash handles their
    /// failure, or the Core Data container whose stores are loading.
    private enum CrashingStore {
        case swiftDataContainers([SyncLintFacts.SourceLocation])
        case coreDataContainer(named: String?)
    }

    private func report(_ node: some SyntaxProtocol, what: String, store: CrashingStore, context: FileContext) {
        // A fallback to a local or in-memory container, or a preview's in-memory one, cannot hit the CloudKit failure.
        let query: IndexQuery
        var notes: [FindingNote] = []
        switch store {
        case .swiftDataContainers(let locations):
            query = .containerCloudKitEvidence(file: context.path, containers: locations)
            notes = locations.prefix(1).map { FindingNote("the container is created here", at: $0) }
        case .coreDataContainer(let name): query = .coreDataContainerCloudKitEvidence(file: context.path, containerName: name)
        }
        context.report(node, Self.crashOnFailedStore, ["crash": what], answering: query, notes: notes)
    }

    static func createsContainer(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { $0.text == "ModelContainer" && $0.nextToken(viewMode: .sourceAccurate)?.text == "(" }
    }

    /// Where each `ModelContainer(...)` in `node` is created, as the store collector recorded it.
    static func containerLocations(in node: some SyntaxProtocol, context: FileContext) -> [SyncLintFacts.SourceLocation] {
        node.tokens(viewMode: .sourceAccurate).compactMap { token -> SyncLintFacts.SourceLocation? in
            guard token.text == "ModelContainer", let call = token.parent?.parent?.as(FunctionCallExprSyntax.self),
                  SyntaxFacts.calleeName(call) == "ModelContainer" else { return nil }
            return context.location(of: call)
        }
    }

    static func isInsideCatch(_ node: Syntax) -> Bool {
        node.ancestorOrSelf(mapping: { $0.as(CatchClauseSyntax.self) }) != nil
    }
}
