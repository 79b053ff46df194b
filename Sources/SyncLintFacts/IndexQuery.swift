import Foundation

/// A question for the finished project index whose answer completes a pending finding: nil keeps the finding
/// quiet; an answer picks one of the finding's messages (`variant`) and fills its blanks (`{0}`, `{1}`, ...).
/// Written as data next to the index (`ProjectIndex.answer`), so a pending finding is plain `Codable` data that a
/// cache can store. Each case names what a rule asks; the words of the message stay in the rule.
public indirect enum IndexQuery: Sendable, Hashable, Codable {
    /// Where the project says CloudKit is on for a store of the SwiftData containers created at `containers`
    /// (`ProjectIndex.cloudKitEvidence(forContainerAt:)`), or, when none is known, for the file's SwiftData
    /// stores: `{0}`.
    case containerCloudKitEvidence(file: String, containers: [SourceLocation])
    /// Where the project says CloudKit is on for the Core Data container named `containerName` in the file, or
    /// for any Core Data store of the file's targets when the name is unknown: `{0}`.
    case coreDataContainerCloudKitEvidence(file: String, containerName: String?)
    /// The stores that a crash on a failed load takes down (`FailingStore`): variant 0 when one syncs (`{0}`: where
    /// CloudKit is on, as `containerCloudKitEvidence`), variant 1 when they are on disk and local; nil when every
    /// one is in memory (nothing a user keeps is lost, and nothing migrates) or the call loads no store.
    case failingStore(FailingStore)
    /// The first of `names` that is a method of the type: `{0}`.
    case firstMethod(ofType: String, named: [String])
    /// The call reaches a project function that blocks its thread on a semaphore or group
    /// (`ProjectIndex.blockingCallee(of:)`): `{0}` is where that function is (file:line, relative to the project).
    case blockingCallee(CallReference)
    /// The receiver of a `wait()` with no deadline, in async code: answered when its type resolves to one whose
    /// `wait()` blocks its thread (`FrameworkBlockingWaits`); nil when it resolves to any other type (an app's own
    /// `wait()`); answered with medium confidence when its type is unknown, since then only the name says it waits.
    case blockingWaitReceiver(ValueType)
    /// The off-main notification the handler is registered for (`names`: the rule's notification names): `{0}`.
    case offMainNotification(HandlerRegistration, names: Set<String>)
    /// The remote-change notification the handler is registered for: `{0}`.
    case remoteChangeNotification(HandlerRegistration, names: Set<String>)
    /// A caller of the async function whose task stores its handle and is cancelled: the call is awaited in that
    /// task's own code (`Cancellability.ifHandleCancelled`) and the index finds the handle cancelled. `{0}`: the
    /// caller's name, `{1}` where it is (file:line, relative to the project).
    case cancelledTaskCaller(of: FunctionKey)
    /// A method of `self` called in a notification handler before its hop, which writes a stored property on
    /// the caller's thread (itself, or through the methods it calls), in a handler registered for an off-main
    /// notification. Variant 0, the method writes it: `{0}` the property, `{1}` the notification. Variant 1,
    /// through another: `{0}` the property, `{1}` the method that writes it, `{2}` the notification. The last blank is
    /// where the helper is (` (file:line)`, or empty).
    case helperWritesOffMain(FunctionKey, handler: HandlerRegistration, names: Set<String>)
    /// The first key the model must be unique by that the insert sets (`setKeys`): `{0}` is the property, and the
    /// variant says how SyncLint knows. 0: the configuration's `logical_unique_keys` (`configured`). For a model
    /// that syncs with CloudKit, which enforces no uniqueness: 1, `@Attribute(.unique)`; 2, the app looks the model
    /// up by it in a `#Predicate` at `{1}`, with CloudKit on per `{2}`. 3: its documentation says it is unique.
    case uniqueKey(model: String, configured: [String], setKeys: Set<String>)
    /// A new `Task { }` assigned to the type's stored `var` `handle` in `function`, which neither it nor the
    /// methods of `self` it calls first (`helpers`, to three calls deep) nor all its callers cancel. Variant 0;
    /// variant 1 when another function of the type restarts the handle the careful way: `{0}` is that function.
    case overwrittenHandle(String, typeName: String, function: FunctionKey, helpers: [String])
    /// A call in `function` of `method`, the load another function of the type (the careful starter) runs in a
    /// handle it cancels first, with the call's cancellability here: answered when this is a second entry point
    /// that neither cancels nor awaits the handle. `{0}`: the handle; `{1}`: the careful starter; `{2}`: where it is
    /// (` (file:line)`, or empty when unknown).
    case restartedLoad(method: String, typeName: String, function: FunctionKey, cancellation: Cancellability, helpers: [String])
    /// Where a synchronous function with no isolation of its own is called from off the main thread, through
    /// callers with no isolation of their own (`ProjectIndex.executionContexts`); completion handlers are not
    /// counted. The variant is the place: 0 `Task.detached`, 1 a dispatch queue, 2 a private-queue `perform`,
    /// 3 an actor method, 4 the handler of an off-main notification among `names`, `{0}` its name. Of several,
    /// the first in that order (handlers by name).
    case offMainCaller(FunctionKey, names: Set<String>)
    /// A `.task` without `id:` in a view works on `value`, of type `typeName`, passed into the view: answered when
    /// the value can change under the task (a persistent model or a holder of one; or any value when the view is
    /// built in a split view's column from the selection), with the identity to key the task on: `{0}`.
    /// Variant 0: `{0}` is an identity that compiles (neither optional nor `Bool`, `StableIdentity`); variant 1:
    /// none is known (or the view's property is optional), and the message names no code.
    case taskIdentity(value: String, typeName: String, view: String, isOptional: Bool)
    /// The view's own methods an `.onAppear` task calls (`methods`, on `viewType`): which of `conditionNames` (the
    /// state whose condition shows the view) they write, to three calls deep. Variant 0, none: `{0}`, when given,
    /// names a method the index does not know (it may write anything); variant 1: `{0}` the state, comma
    /// separated, `{1}` the same in backticks for the message.
    case viewStateWrittenBy(methods: [String], viewType: String?, conditionNames: Set<String>)
    /// The view's own methods an `.onAppear` closure calls (`methods`, on `viewType`): answered when one of them, or
    /// a function it calls directly, starts a `Task { }` whose handle nobody keeps
    /// (`FunctionSummary.discardedTasks`): `{0}` the method the closure calls, with a note where the task starts.
    case startsDiscardedTask(methods: [String], viewType: String?)
    /// A task started on the appearance of `view` that outlives it: always answered; medium confidence, with a note
    /// where it is built, when the view is the root of a window or a hosting controller
    /// (`ProjectIndex.rootPlacement(ofView:)`): it appears once per window and goes away with it, so the task outliving
    /// it is not proven to outlive anything that matters.
    case taskOutlivesView(view: String)
    /// A task started on the appearance of `view` whose every `await` is one of `calls`: answered as
    /// `taskOutlivesView`, unless every one of them is a project `async` function whose own body has no `await`
    /// (`FunctionSummary.awaits`: it cannot suspend, a hop to its actor aside, so the task runs to its end once
    /// started and nothing is left running to outlive the view).
    case appearanceTaskAwaits(view: String, calls: [CallReference])
    /// Types a method builds and stores (`typeNames`, written in `scope`): always answered; medium confidence when every
    /// one is proven a value (a structure or enumeration of the project, or `FrameworkValueTypes`): built twice and stored
    /// twice, a value (`Date()`) is only the later value, where an object may already be held by other code.
    case buildsReferenceType(typeNames: [String], scope: String?)
    /// A representable `view` whose `update…` ignores `inputs`: answered unless the app builds it only per value (a
    /// row, re-identified with `.id(…)`, directly or through the view that builds it) or passes every one of
    /// `inputs` a constant wherever it builds it; with a note where an input can change while the view stays, or
    /// medium confidence when the index sees the view built nowhere.
    case representableInputChanges(view: String, inputs: [String])
    /// A view's initializer hands its parameter, passed with `label`, to `StateObject(wrappedValue:)`: answered when
    /// the app builds the view passing an object built right there (`Row(model: RowModel(item))`), with a note at
    /// that place, or with medium confidence when the index sees the view built nowhere; not when every place that
    /// builds it passes an object it already has.
    case stateObjectArgumentBuilt(view: String, label: String)
    /// `.task(id: root.a.b)` keyed on a member chain from a view's property of type `rootType`: answered when the
    /// last member can change under the task. Variant 0: a computed property of a model or observable owner;
    /// variant 1: a stored `var` of a persistent model, `{0}` its name.
    case taskIDMember(rootType: String, members: [String])
    /// A `Task { }` whose handle nobody keeps, started by a handler that runs again (`FrameworkHandlers`), awaits
    /// `calls`: answered when one of them, or a function it calls (to three calls deep), writes a stored property
    /// of its type after an `await` (`FunctionSummary.writesAfterAwait`) that views read, and none of those
    /// functions returns early while a call is in flight (`reentryGuards`). `{0}` the function that writes, `{1}`
    /// the property, `{2}` where the function is (file:line, relative to the project).
    case overlappingTaskWrite(calls: [CallReference])
}

/// Stores whose failure to load a crash handles, as a rule sees them during the walk.
public enum FailingStore: Sendable, Hashable, Codable {
    /// The SwiftData containers created at these places (`ModelContainer(...)`).
    case swiftData(file: String, containers: [SourceLocation])
    /// A retry in the `catch` of a first attempt, after the project calls `resets` (which may delete the store's
    /// files): a crash there is no crash on every launch when one of them does.
    case swiftDataRetryAfter(file: String, containers: [SourceLocation], resets: [CallReference])
    /// A Core Data container loading its stores (`loadPersistentStores`), bound to `containerName` in the file.
    case coreData(file: String, containerName: String?)
    /// The same, for a crash in the `catch` of a recovery in the load's handler, after the project calls `resets`
    /// (`try reset()`): no crash on every launch when one of them deletes the store's files.
    case coreDataAfter(file: String, containerName: String?, resets: [CallReference])
    /// A call to a project function that loads a Core Data container's stores (it calls `loadPersistentStores`,
    /// to three calls deep): `try container.loadStore()`; `containerName` is the receiver's name.
    case loader(file: String, call: CallReference, containerName: String?)
}

/// What the index answers to an `IndexQuery`: which of the finding's messages, the words for its blanks, the places
/// it found (`notes`: the store that syncs, the caller that cancels), and whether it decided from a text (`confidence`).
public struct IndexAnswer: Sendable, Hashable, Codable {
    public let variant: Int
    public let arguments: [String]
    public var notes: [FindingNote] = []
    /// `medium` when the answer rests on a name or a text (a documentation comment that says "unique"), else nil.
    public var confidence: Confidence? = nil

    public init(variant: Int = 0, _ arguments: [String] = [], notes: [FindingNote] = [], confidence: Confidence? = nil) {
        self.variant = variant
        self.arguments = arguments
        self.notes = notes
        self.confidence = confidence
    }
}

/// A message with blanks: `{name}` stands for the argument of that name, `{0}`, `{1}`, ... for an index answer's
/// arguments, in order (kept in `Finding.arguments` as `0`, `1`, ...). A blank with no argument stays as written,
/// and braces around anything else (`perform { }`) are text.
public enum MessageTemplate {
    public static func fill(_ template: String, _ arguments: [String]) -> String {
        guard !arguments.isEmpty else { return template }
        return fill(template, positional(arguments))
    }

    public static func fill(_ template: String, _ arguments: [String: String]) -> String {
        guard !arguments.isEmpty, template.contains("{") else { return template }
        var text = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            text += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let value = arguments[String(rest[afterOpen..<close])],
               rest[afterOpen..<close].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                text += value
                rest = rest[rest.index(after: close)...]
            } else {
                text += "{"
                rest = rest[afterOpen...]
            }
        }
        return text + rest
    }

    /// An answer's arguments by position: `0`, `1`, ...
    public static func positional(_ arguments: [String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: arguments.enumerated().map { (String($0.offset), $0.element) })
    }

    /// The names of the blanks a template has, in order of first appearance.
    public static func blanks(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
            let name = rest[afterOpen..<close]
            if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !names.contains(String(name)) {
                names.append(String(name))
            }
            rest = rest[afterOpen...]
        }
        return names
    }
}
