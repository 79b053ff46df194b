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
            into a crash on every launch, and the user can do nothing about it (a CloudKit unique-constraint guide: "App crashes at startup \
            with `fatalError` during `ModelContainer` creation ... No graceful degradation"). Fall back to a local \
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
                let shared = ↓try! ModelContainer(for: Item.self, configurations: ModelConfiguration(cloudKitDatabase: .automatic))
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
                let configuration = ModelConfiguration(cloudKitDatabase: .automatic)
                func parse(_ data: Data) -> Config {
                    do { return try JSONDecoder().decode(Config.self, from: data) } catch { fatalError("bad bundled config") }
                }
                """),
        ],
        knownLimitations: """
            A `try!` for an in-memory fallback container inside the `catch` is not reported (it cannot hit the \
            CloudKit failure). CloudKit is judged on for the whole project when any store syncs.
            """)

    public static let nodeKinds: Set<SyntaxKind> = [.functionCallExpr, .tryExpr]

    public init(options: RuleOptions) {}

    public func enter(_ node: Syntax, context: FileContext) {
        if let tryExpression = node.as(TryExprSyntax.self) {
            guard tryExpression.questionOrExclamationMark?.tokenKind == .exclamationMark,
                  Self.createsContainer(tryExpression.expression), !Self.isInsideCatch(node),
                  !tryExpression.expression.trimmedText.contains("isStoredInMemoryOnly: true") else { return }
            report(tryExpression.tryKeyword, what: "`try!`", coreData: false, context: context)
            return
        }
        guard let call = node.as(FunctionCallExprSyntax.self),
              ["fatalError", "preconditionFailure"].contains(context.calleeMethodName(call)),
              call.calledExpression.is(DeclReferenceExprSyntax.self) else { return }
        if context.scope.closures.contains(where: { $0.kind == .other(callee: "loadPersistentStores") }) {
            report(call.calledExpression, what: "`\(SyntaxFacts.calleeName(call))`", coreData: true, context: context)
            return
        }
        guard let clause = node.ancestorOrSelf(mapping: { $0.as(CatchClauseSyntax.self) }),
              let doStatement = clause.parent?.parent?.as(DoStmtSyntax.self),
              Self.createsContainer(doStatement.body) else { return }
        report(call.calledExpression, what: "`\(SyntaxFacts.calleeName(call))`", coreData: false, context: context)
    }

    private func report(_ node: some SyntaxProtocol, what: String, coreData: Bool, context: FileContext) {
        context.report(node, "\(what) turns a failed CloudKit store into a crash on every launch (CloudKit is on: {0}); " +
                       "fall back to a local or in-memory store and report the error",
                       answering: .cloudKitEvidence(file: context.path, coreData: coreData))
    }

    static func createsContainer(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { $0.text == "ModelContainer" && $0.nextToken(viewMode: .sourceAccurate)?.text == "(" }
    }

    static func isInsideCatch(_ node: Syntax) -> Bool {
        node.ancestorOrSelf(mapping: { $0.as(CatchClauseSyntax.self) }) != nil
    }
}
