/// The questions rules ask of function summaries, call sites, isolation and cancellation. Each walks the
/// call graph to a bounded depth and never loops on recursion.
extension ProjectIndex {
    /// How many calls deep the index follows a function's callees or callers.
    public static let callDepth = 3

    /// Swift and framework types whose members run on the main actor (SwiftUI's `View`, `App`, `Scene`;
    /// UIKit's and AppKit's views and controllers). A type that conforms to or inherits one is main-actor isolated.
    static let mainActorSupertypes: Set<String> = [
        "View", "App", "Scene", "UIViewController", "UIView", "NSViewController", "NSView", "UIApplicationDelegate",
        "UIWindowSceneDelegate", "UISceneDelegate", "NSApplicationDelegate", "UIViewRepresentable",
        "UIViewControllerRepresentable", "NSViewRepresentable", "NSViewControllerRepresentable",
        "UITableViewController", "UICollectionViewController", "UINavigationController", "UITabBarController",
        "NSWindowController", "NSDocument", "UIDocument", "UIResponder",
        // WatchKit: `@MainActor protocol WKApplicationDelegate`, `WKExtensionDelegate`; `@MainActor class WKInterfaceController`.
        "WKApplicationDelegate", "WKExtensionDelegate", "WKInterfaceController",
        // AppKit: `@MainActor class NSResponder` (developer.apple.com/documentation/appkit/nsresponder), and so every
        // window, panel, view and controller that inherits it. The index sees only the superclass a project type
        // names, so the subclasses apps commonly inherit are listed by name.
        "NSResponder", "NSWindow", "NSPanel", "NSApplication", "NSControl", "NSButton", "NSTextField", "NSTextView",
        "NSScrollView", "NSStackView", "NSImageView", "NSTableView", "NSOutlineView", "NSTableCellView",
        "NSTableRowView", "NSCollectionView", "NSCollectionViewItem", "NSSplitViewController", "NSTabViewController",
        "NSHostingView", "NSHostingController",
        // UIKit: `@MainActor class UIResponder` (developer.apple.com/documentation/uikit/uiresponder), and its views,
        // cells and controllers.
        "UIWindow", "UIControl", "UIButton", "UILabel", "UITextField", "UITextView", "UIImageView", "UIStackView",
        "UIScrollView", "UITableView", "UITableViewCell", "UITableViewHeaderFooterView", "UICollectionView",
        "UICollectionViewCell", "UICollectionReusableView", "UIPageViewController", "UISplitViewController",
        "UISearchController", "UIAlertController", "UIHostingController",
    ]

    public enum TypeIsolation: Sendable, Equatable {
        case mainActor
        case actor
        case none
    }

    // MARK: Isolation

    /// A type's isolation, inherited as Swift infers it: its own `@MainActor`, an actor, a main-actor
    /// supertype or protocol (SwiftUI views), or a project protocol or superclass that is `@MainActor`.
    public func isolation(ofType typeName: String) -> TypeIsolation {
        isolation(ofType: typeName, seen: [])
    }

    private func isolation(ofType typeName: String, seen: Set<String>) -> TypeIsolation {
        guard let qualified = resolveType(typeName), !seen.contains(qualified) else { return .none }
        let declarations = typesByName[qualified] ?? []
        if declarations.contains(where: { $0.kind == .actor }) { return .actor }
        if declarations.contains(where: { $0.kind != .extension && $0.hasAttribute("MainActor") }) { return .mainActor }
        for declaration in declarations {
            for supertype in declaration.inheritedTypes {
                if Self.mainActorSupertypes.contains(supertype) { return .mainActor }
                let scope = Self.enclosingScope(of: qualified)
                if let resolved = resolveType(supertype, from: scope),
                   isolation(ofType: resolved, seen: seen.union([qualified])) == .mainActor { return .mainActor }
            }
        }
        // A type with no isolation of its own in a module that defaults to the main actor is `@MainActor` (SE-0466).
        // The primary declaration decides; a type the project only extends is decided by its extensions' modules.
        let primary = declarations.filter { $0.kind != .extension }
        if let decisive = primary.isEmpty ? nonEmpty(declarations) : primary,
           decisive.allSatisfy({ !$0.isNonisolated && !hasOtherGlobalActor($0) && defaultsToMainActor($0.location.file) }) {
            return .mainActor
        }
        return .none
    }

    private func nonEmpty(_ declarations: [TypeFact]) -> [TypeFact]? {
        declarations.isEmpty ? nil : declarations
    }

    /// Whether a declaration names a global actor of the project's other than the main actor (`@DatabaseActor`).
    private func hasOtherGlobalActor(_ declaration: TypeFact) -> Bool {
        declaration.attributes.contains { attribute in
            attribute.name != "MainActor" && (typesByName[attribute.name] ?? []).contains { $0.hasAttribute("globalActor") }
        }
    }

    /// Whether the file is compiled in a module whose declarations default to the main actor (Swift 6.2's
    /// `SWIFT_DEFAULT_ACTOR_ISOLATION = MainActor`, `.defaultIsolation(MainActor.self)`): the package target whose
    /// folder holds it decides, else the Xcode targets that compile it, when every one of them defaults to it.
    public func defaultsToMainActor(_ file: String) -> Bool {
        mainActorDefaultFiles.value(for: file) {
            moduleSetting(of: file, package: \.defaultsToMainActor, xcode: \.defaultsToMainActor)
        }
    }

    /// Whether the file's module runs async functions with no isolation on their caller's actor (SE-0461's
    /// `NonisolatedNonsendingByDefault`, or Xcode's Approachable Concurrency), decided like `defaultsToMainActor`.
    public func nonisolatedAsyncRunsOnCaller(_ file: String) -> Bool {
        moduleSetting(of: file, package: \.nonisolatedAsyncRunsOnCaller, xcode: \.nonisolatedAsyncRunsOnCaller)
    }

    /// Whether the file compiles in the Swift 6 language mode, where a data race on a non-`Sendable` value is a compile
    /// error: every Xcode target that compiles it sets `SWIFT_VERSION = 6`. A file of a package target is not decided
    /// (its manifest's tools version and language modes are not read): false.
    public func compilesInSwift6Mode(_ file: String) -> Bool {
        if packageTargets.contains(where: { file.hasPrefix($0.folder.hasSuffix("/") ? $0.folder : $0.folder + "/") }) { return false }
        let targets = layout.targets(containing: file)
        return !targets.isEmpty && targets.allSatisfy(\.swift6LanguageMode)
    }

    /// A module-wide setting for a file: the package target whose folder holds it (the innermost) decides, else the
    /// Xcode targets that compile it, when every one of them has it.
    private func moduleSetting(of file: String, package: KeyPath<PackageTargetFact, Bool>, xcode: KeyPath<XcodeTarget, Bool>) -> Bool {
        let owner = packageTargets.filter { file.hasPrefix($0.folder.hasSuffix("/") ? $0.folder : $0.folder + "/") }
            .max { $0.folder.count < $1.folder.count }
        if let owner { return owner[keyPath: package] }
        let targets = layout.targets(containing: file)
        return !targets.isEmpty && targets.allSatisfy { $0[keyPath: xcode] }
    }

    /// A context with the type isolation or module default it names resolved.
    public func resolved(_ context: ExecutionContext) -> ExecutionContext {
        switch context {
        case .typeIsolation(let typeName, let isAsync):
            switch isolation(ofType: typeName) {
            case .mainActor: return .mainActor
            case .actor: return .actor
            case .none: return isAsync ? .concurrent : .callers
            }
        case .moduleDefault(let file, let isAsync):
            if defaultsToMainActor(file) { return .mainActor }
            return isAsync ? .concurrent : .callers
        default:
            return context
        }
    }

    /// Where a call runs: the queue of a context a project wrapper runs the closure around it on
    /// (`store.perform { _ in self.process(event) }`, `FunctionSummary.closuresRunInPerform`), else its own context resolved.
    public func siteContext(_ call: CallFact) -> ExecutionContext {
        for argument in call.closureArguments {
            if let context = queue(ofClosure: argument) { return context }
        }
        if let parameter = call.performParameter, let context = queue(ofParameter: parameter) { return context }
        return resolved(call.context)
    }

    /// The queue of the context a function's parameter holds: the one every app call of the function passes there (the
    /// view context's main queue, a background context's private one), following a parameter passed on to `depth`
    /// calls up; nil when the callers pass different kinds, or one the index cannot tell, or there are none.
    public func queue(ofParameter parameter: ContextParameter, depth: Int = ProjectIndex.callDepth) -> ExecutionContext? {
        var seen: Set<ContextParameter> = []
        func visit(_ parameter: ContextParameter, remaining: Int) -> ExecutionContext? {
            guard seen.insert(parameter).inserted else { return nil }
            let sites = callSites(of: parameter.function).filter { codeKind(of: $0.location) == .app }
            var found: ExecutionContext?
            for site in sites {
                let passed = site.contextArguments.passed(position: parameter.position, label: parameter.label)
                let queue = queue(ofContext: passed?.kind, passedBy: site.caller) { outer in
                    remaining > 0 ? visit(outer, remaining: remaining - 1) : nil
                }
                guard let queue, found == nil || found == queue else { return nil }
                found = queue
            }
            return found
        }
        return visit(parameter, remaining: depth)
    }

    /// The queue a closure argument runs on when the function it is passed to is a project wrapper that calls it only
    /// inside a context's `perform`: `.privateQueue` for a background context, `.mainActor` for the view context; nil
    /// when the callee is no such wrapper or the context is not known.
    public func queue(ofClosure argument: ClosureArgument) -> ExecutionContext? {
        let call = argument.call
        guard let (key, entry) = wrapper(runningClosure: argument) else { return nil }
        switch entry.holder {
        case .receiver:
            return queue(ofContext: argument.receiverContext, passedBy: call.caller) { self.queue(ofParameter: $0) }
        case .property(let name):
            return self.queue(ofProperty: name, of: key.typeName)
        case .parameter(let position, let label):
            let passed = argument.contextArguments.passed(position: position, label: label)
            return queue(ofContext: passed?.kind, passedBy: call.caller) { self.queue(ofParameter: $0) }
        }
    }

    /// The queue of a context a caller passes or calls on: a background context's private queue, the view context's
    /// main queue, a context property's kind, or for the caller's own parameter what `parameterQueue` says of it.
    private func queue(ofContext kind: ContextArgument.Kind?, passedBy caller: FunctionKey,
                       parameterQueue: (ContextParameter) -> ExecutionContext?) -> ExecutionContext? {
        switch kind {
        case .backgroundContext: return .privateQueue
        case .viewContext: return .mainActor
        case .contextProperty(let name): return queue(ofProperty: name, of: caller.typeName)
        case .parameter(let position, let label): return parameterQueue(ContextParameter(function: caller, position: position, label: label))
        case nil: return nil
        }
    }

    /// The project function a closure argument is passed to, with its parameter there, when that function calls the
    /// closure only inside a context's `perform` (`FunctionSummary.closuresRunInPerform`).
    func wrapper(runningClosure argument: ClosureArgument) -> (FunctionKey, ClosureRunInPerform)? {
        let call = argument.call
        var key = callee(named: call.callee, receiver: call.receiver, callerType: call.caller.typeName)
        // A method the project adds to `NSManagedObjectContext`, called on a context whose type the syntax cannot tell.
        if key == nil, call.receiver != nil, functionSummaries[FunctionKey(typeName: FrameworkCallbacks.contextTypeName, name: call.callee)] != nil,
           argument.receiverContext != nil {
            key = FunctionKey(typeName: FrameworkCallbacks.contextTypeName, name: call.callee)
        }
        guard let key, let summary = functionSummaries[key],
              let entry = summary.closuresRunInPerform.first(where: { entry in
                  if argument.isTrailing { return entry.isLast }
                  if let label = argument.label { return entry.label == label }
                  return entry.label == nil && entry.position == argument.position
              }) else { return nil }
        return (key, entry)
    }

    private func queue(ofProperty name: String, of typeName: String?) -> ExecutionContext? {
        let property = TypeProperty(typeName: typeName ?? "", property: name)
        if coreData.backgroundContextProperties.contains(property) { return .privateQueue }
        if coreData.mainQueueContextProperties.contains(property) { return .mainActor }
        return nil
    }

    // MARK: Summaries and calls

    public func summary(of key: FunctionKey) -> FunctionSummary? {
        functionSummaries[key]
    }

    /// The project function a call reaches, when its receiver's type is known: a method of the caller's own
    /// type (or of the type it is declared in, for extensions) for an unqualified call, else a free function;
    /// a method of the receiver's type otherwise.
    public func callee(of call: CallFact) -> FunctionKey? {
        callee(named: call.callee, receiver: call.receiver, callerType: call.caller.typeName)
    }

    /// Where a name is called, as positions in the callers' call lists (copying every call fact would cost more than the
    /// questions); the table is built on first use.
    func callPositions(named name: String) -> [CallPosition] {
        callsByName.value { [self] in
            var result: [String: [CallPosition]] = [:]
            for summary in functionSummaries.values {
                for (position, call) in summary.calls.enumerated() {
                    result[call.callee, default: []].append(CallPosition(caller: summary.key, position: position))
                }
            }
            return result
        }[name] ?? []
    }

    public func callee(of call: CallReference) -> FunctionKey? {
        callee(named: call.callee, receiver: call.receiver, callerType: call.caller.typeName)
    }

    /// The project function a call named `name` reaches, made in a method of `callerType` (nil in a free
    /// function) on `receiver` (nil for an unqualified call or one on `self`); see `callee(of:)`.
    public func callee(named name: String, receiver: ValueType?, callerType: String?) -> FunctionKey? {
        guard let receiver else {
            if let owner = callerType {
                let method = FunctionKey(typeName: owner, name: name)
                if functionSummaries[method] != nil { return method }
            }
            let free = FunctionKey(typeName: nil, name: name)
            return functionSummaries[free] != nil ? free : nil
        }
        guard let owner = receiverOwner(receiver) else { return nil }
        let method = FunctionKey(typeName: owner, name: name)
        return functionSummaries[method] != nil ? method : nil
    }

    /// The project type whose methods a call on a receiver of this type reaches; nil for a collection or an
    /// unknown type.
    func receiverOwner(_ receiver: ValueType) -> String? {
        guard let type = resolve(receiver), !type.isCollection else { return nil }
        return resolveType(type.name)
    }

    /// Writes to stored `var`s of `self` that run on the thread that called `key`: in its body, outside closures
    /// that run elsewhere (a hop to the main queue, another queue, a completion handler), and in the methods of the
    /// same type it calls there, to `depth` calls. Functions that run somewhere of their own (`@MainActor`, an
    /// actor's, `async`) are not followed, nor are those that hop to the main actor anywhere: their writes may
    /// sit behind a `guard Thread.isMainThread else { ... }` re-dispatch, which the summary does not see.
    public func writesOnCallersThread(of key: FunctionKey, depth: Int = ProjectIndex.callDepth)
        -> [(function: FunctionKey, write: StateWrite)] {
        var result: [(function: FunctionKey, write: StateWrite)] = []
        var seen: Set<FunctionKey> = []
        func runsWhereCalled(_ context: ExecutionContext) -> Bool {
            switch context {
            case .callers, .typeIsolation(_, isAsync: false): return true
            default: return false
            }
        }
        func visit(_ key: FunctionKey, remaining: Int) {
            guard let summary = functionSummaries[key], let typeName = key.typeName, seen.insert(key).inserted,
                  !summary.isAsync, !summary.hopsToMainActor, runsWhereCalled(summary.declaredContext),
                  // A method whose module makes it `@MainActor` (Swift 6.2's default isolation) is `@MainActor` too.
                  !(defaultsToMainActor(summary.location.file) && resolved(summary.declaredContext) == .mainActor) else { return }
            for write in summary.writes where runsWhereCalled(write.context) && property(write.property, of: typeName)?.isStoredVar == true {
                result.append((key, write))
            }
            guard remaining > 0 else { return }
            for call in summary.calls where call.receiver == nil && runsWhereCalled(call.context) {
                if let callee = callee(of: call), callee.typeName == typeName { visit(callee, remaining: remaining - 1) }
            }
        }
        visit(key, remaining: depth - 1)
        return result
    }

    /// Where a function is called from in the project. Only the calls with the function's name are
    /// resolved, once per function asked about: resolving the receiver type of every call of a large app
    /// (50,000 calls) cost a tenth of a second, and rules ask about a few functions only.
    public func callSites(of key: FunctionKey) -> [CallFact] {
        callSiteCache.value(for: key) {
            // Where each name is called, as positions in the callers' call lists: copying every call fact
            // would cost more than the questions.
            let named = callPositions(named: key.name)
            let calls = named.compactMap { functionSummaries[$0.caller]?.calls[$0.position] }
            // In a fixed order whatever the dictionary's: by caller, then by place.
            return calls.filter { callee(of: $0) == key }.sorted { first, second in
                if first.caller != second.caller { return first.caller < second.caller }
                return (first.location.file, first.location.line, first.location.column)
                    < (second.location.file, second.location.line, second.location.column)
            }
        }
    }

    /// The function and those it calls, to `depth` calls deep, each once, with the context each runs in
    /// when reached from `key` (a callee with no isolation of its own runs where its call stands).
    public func reachableSummaries(from key: FunctionKey, depth: Int = ProjectIndex.callDepth)
        -> [(summary: FunctionSummary, context: ExecutionContext?)] {
        var result: [(summary: FunctionSummary, context: ExecutionContext?)] = []
        var seen: Set<FunctionKey> = []
        func visit(_ key: FunctionKey, context: ExecutionContext?, remaining: Int) {
            guard let summary = functionSummaries[key], seen.insert(key).inserted else { return }
            result.append((summary, context))
            guard remaining > 0 else { return }
            for call in summary.calls {
                guard let callee = callee(of: call) else { continue }
                let callContext = resolved(call.context)
                let inherited = callContext == .callers ? context : callContext
                let own = functionSummaries[callee].map { resolved($0.declaredContext) }
                visit(callee, context: own == .callers || own == nil ? inherited : own, remaining: remaining - 1)
            }
        }
        visit(key, context: functionSummaries[key].map { resolved($0.declaredContext) }, remaining: depth)
        return result
    }

    /// Where a function's body runs: its own isolation when it has one, else the contexts of its call sites
    /// (followed up through callers with no isolation of their own, to `depth` calls), plus the notification
    /// it handles when it is an `@objc` handler registered by selector.
    public func executionContexts(of key: FunctionKey, depth: Int = ProjectIndex.callDepth) -> Set<ExecutionContext> {
        var result: Set<ExecutionContext> = []
        var seen: Set<FunctionKey> = []
        func visit(_ key: FunctionKey, remaining: Int) {
            guard seen.insert(key).inserted else { return }
            if let summary = functionSummaries[key] {
                let own = resolved(summary.declaredContext)
                if own != .callers { result.insert(own); return }
            }
            for registration in coreData.registrations where registration.typeName == key.typeName
                && registration.handler == .method(key.name) && !registration.deliversOnMain {
                result.insert(.notificationHandler(registration.notification))
            }
            for call in callSites(of: key) {
                let context = siteContext(call)
                if context == .callers {
                    if remaining > 0 { visit(call.caller, remaining: remaining - 1) }
                } else {
                    result.insert(context)
                }
            }
        }
        visit(key, remaining: depth)
        return result
    }

    /// Whether a context runs off the main thread: a queue, a detached task, or a handler of a notification
    /// that Core Data or CloudKit posts on a private thread.
    public func isOffMain(_ context: ExecutionContext) -> Bool {
        if case .notificationHandler(let name) = context { return NotificationNames.offMainByDefault.contains(name) }
        return resolved(context).isOffMain
    }

    // MARK: Cancellation

    /// Whether code can be cancelled at all: `.task` closures always can (and a task-group child whenever the code
    /// that runs its group can); calls from tests and previews never decide; a stored
    /// `Task` when its type cancels that handle; an async function when some caller (to `depth` calls) can be.
    /// A function the project never calls counts as cancellable (its callers are outside what was linted),
    /// unless the project names it without calling it: on real apps such a function is passed by reference to
    /// a button that starts it in a task nobody keeps (tried on eight public apps; see docs/precision.md).
    /// Whether some function of the project mentions the function's name without calling it (`action: save`).
    func isReferencedWithoutCall(_ key: FunctionKey) -> Bool {
        passedReferenceNames.value { [self] in functionSummaries.values.reduce(into: Set<String>()) { $0.formUnion($1.passedReferences) } }
            .contains(key.name)
    }

    /// With `proven`, only facts count: a function with no call site resolved to it in app code (never called, or
    /// called only on receivers whose type is unknown) is not proven cancellable.
    public func isCancellable(_ cancellation: Cancellability, depth: Int = ProjectIndex.callDepth, proven: Bool = false) -> Bool {
        var seen: Set<FunctionKey> = []
        func check(_ cancellation: Cancellability, remaining: Int) -> Bool {
            switch cancellation {
            case .always: return true
            case .never: return false
            case .ifHandleCancelled(let typeName, let property):
                return cancelledHandleSet.value { [self] in
                    var handles: Set<TaskHandle> = []
                    for summary in functionSummaries.values {
                        for handle in summary.cancelledHandles { handles.insert(TaskHandle(typeName: summary.key.typeName, property: handle)) }
                        // A task stored in an `inout` parameter the function cancels first is cancelled by its next call.
                        for handle in summary.cancelledInoutHandles { handles.insert(TaskHandle(typeName: summary.key.typeName, property: handle)) }
                    }
                    return handles
                }.contains(TaskHandle(typeName: typeName, property: property))
            case .ifCallersCancellable(let key):
                guard remaining >= 0, seen.insert(key).inserted else { return false }
                // A test or a preview calling the function says nothing about how the app runs it.
                // Calls through an `@Environment(\.key)` value, a shared instance or a protocol count (`cancellerSites`).
                let sites = cancellerSites(of: key, throughProtocols: !proven).filter { codeKind(of: $0.location) == .app }
                // A function the project never calls may be called from outside the run (cancellable, as far as
                // anything says), unless the project names it without calling it: passed by reference
                // (`Button(action: save)`, `TaskButton(action: load)`), which starts it in a task nobody keeps.
                if sites.isEmpty {
                    if proven { return false }
                    // Called on receivers whose type is unknown (`viewModel.load()`): those calls decide, as far as
                    // they go; a function never named at all may be called from outside the run.
                    let byName = unresolvedCalls(named: key.name)
                    if !byName.isEmpty { return byName.contains { check($0, remaining: remaining - 1) } }
                    // In a program, a function nothing calls, on a type the system knows no protocol or superclass of,
                    // has no caller anywhere: nothing can cancel it.
                    if isUncalledInProgram(key) { return false }
                    return !isReferencedWithoutCall(key)
                }
                return sites.contains { check($0.cancellation, remaining: remaining - 1) }
            }
        }
        return check(cancellation, remaining: depth)
    }

    /// Where methods of this name are called on receivers whose type is unknown, with their cancellability.
    func unresolvedCalls(named name: String) -> [Cancellability] {
        unresolvedCallMap.value { [self] in
            var result: [String: [Cancellability]] = [:]
            for summary in functionSummaries.values where codeKind(of: summary.location) == .app {
                for (method, cancellations) in summary.unresolvedCalls { result[method, default: []] += cancellations }
            }
            return result
        }[name] ?? []
    }

    // MARK: Task handles

    /// The handles of a type that some function restarts carefully (cancels, then assigns a new `Task { }`),
    /// with the methods of `self` each such task calls (`RestartedHandle`).
    public func restartedHandles(ofType typeName: String) -> [RestartedHandle] {
        restartedHandleMap.value { [self] in
            var result: [String: [RestartedHandle]] = [:]
            for key in functionSummaries.keys.sorted() {
                guard let summary = functionSummaries[key], let type = key.typeName else { continue }
                for property in summary.startedHandles.intersection(summary.cancelledHandles).sorted() {
                    let loads = summary.calls.filter { call in
                        call.receiver == nil && call.cancellation == .ifHandleCancelled(typeName: type, property: property)
                    }.map(\.callee)
                    result[type, default: []].append(RestartedHandle(property: property, starter: key, loads: Set(loads)))
                }
            }
            return result
        }[typeName] ?? []
    }

    // MARK: Views

    /// Where a view type is constructed in the project's views.
    public func constructions(ofView typeName: String) -> [ViewConstruction] {
        allConstructions(ofView: typeName).filter { !$0.isRoot }
    }

    /// Every construction of the view, windows' and hosting controllers' roots included (`ViewConstruction.isRoot`).
    func allConstructions(ofView typeName: String) -> [ViewConstruction] {
        guard let qualified = resolveType(typeName) else { return [] }
        let simple = qualified.split(separator: ".").last.map(String.init) ?? qualified
        return (viewConstructionsBySimpleName[simple] ?? []).filter { resolveType($0.typeName, from: $0.scope) == qualified }
    }

    /// Where the view is built as the root of a window or a hosting controller, when every place app code builds it is
    /// such a root, or a plain container (`ViewConstruction.inContainersOnly`) in a view that is itself one, a few views
    /// up: the view appears once per window (or controller) and goes away with it, not as a screen of the app comes and
    /// goes. Nil when some place presents, pushes or repeats it, or when nothing in the project builds it.
    public func rootPlacement(ofView typeName: String) -> ViewConstruction? {
        var seen: Set<String> = []
        func root(_ view: String, depth: Int) -> ViewConstruction? {
            guard depth > 0, seen.insert(view).inserted else { return nil }
            defer { seen.remove(view) }
            let built = allConstructions(ofView: view).filter { codeKind(of: $0.location) == .app }
            guard !built.isEmpty else { return nil }
            var found: ViewConstruction?
            for construction in built {
                if construction.isRoot {
                    found = found ?? construction
                    continue
                }
                guard construction.identity == .stable, construction.inContainersOnly, let scope = construction.scope,
                      let outer = root(scope, depth: depth - 1) else { return nil }
                found = found ?? outer
            }
            return found
        }
        return root(typeName, depth: Self.callDepth + 2)
    }
}

/// A call of the project: the caller's summary and the call's position in its `calls`.
struct CallPosition: Sendable {
    let caller: FunctionKey
    let position: Int
}

/// A stored task handle: a property of a type.
struct TaskHandle: Hashable, Sendable {
    let typeName: String?
    let property: String
}

/// Values computed on first use for each key, from an immutable index; safe to use from any thread.
final class LazyCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private var stored: [Key: Value] = [:]
    private let lock = NSLock()

    init() {}

    func value(for key: Key, _ make: () -> Value) -> Value {
        if let known = lock.withLock({ stored[key] }) { return known }
        // Made outside the lock: `make` may ask the cache about other keys. Two threads asking at once
        // both make the same value, and either is kept.
        let made = make()
        lock.withLock { stored[key] = made }
        return made
    }
}

/// A value computed once, on first use, from an immutable index; safe to read from any thread.
/// A value made on a thread of its own while the caller does other work; `value` waits for it. A `Thread`, not a
/// dispatch queue: the index is built on the workers of a parallel stage, and a worker waiting for work queued
/// behind it on the same pool could wait long.
final class Apart<Value: Sendable>: @unchecked Sendable {
    private var stored: Value?
    private let done = DispatchSemaphore(value: 0)

    /// `inline`: made at once on the caller's thread (small inputs).
    init(inline: Bool, _ make: @escaping @Sendable () -> Value) {
        if inline {
            stored = make()
            done.signal()
            return
        }
        let thread = Thread { [self] in
            stored = make()
            done.signal()
        }
        thread.start()
    }

    /// The value, once made; call once.
    var value: Value {
        done.wait()
        // cannot fail: `stored` is set before `done` is signalled.
        return stored!
    }
}

final class LazyBox<Value: Sendable>: @unchecked Sendable {
    private var stored: Value?
    private let lock = NSLock()

    init() {}

    func value(_ make: () -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        if let stored { return stored }
        let made = make()
        stored = made
        return made
    }
}

import Foundation
