import SyncLintFacts

/// Who can cancel the code of a function: the places it is called from, each with the cancellability of the code
/// around the call (`CallFact.cancellation`: a `.task` closure, a stored handle, a `Task { }` whose handle is dropped,
/// an async caller). `callSites(of:)` knows the calls on a receiver whose type the index resolves to the function's own
/// type; the calls that reach it through what Swift and SwiftUI dispatch are added here, so that a function reached
/// only from tasks nobody keeps is proven uncancellable instead of "called from outside the run" (a guess).
extension ProjectIndex {
    /// Every call in app code that may run the function: `callSites(of:)`, and the calls of its name whose receiver
    /// resolves only through
    /// - a view's `@Environment(\.key)` property: SwiftUI reads the value of `EnvironmentValues.key`, of the type that
    ///   property declares (https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf),
    /// - a property with no type written whose value is a static member (`@ObservedObject var store = Store.shared`),
    /// - an existential or opaque type (`any SyncService`, `some SyncService`),
    /// to the function's type, or to a protocol the type conforms to (a call through the protocol may run it).
    /// A call through a protocol may run another conformer's method: with `throughProtocols` false (for what must be
    /// proven), only calls resolved to the function's own type count.
    func cancellerSites(of key: FunctionKey, throughProtocols: Bool = true) -> [CallFact] {
        let direct = callSites(of: key)
        guard let owner = key.typeName.flatMap({ resolveType($0) }) else { return direct }
        let named = callPositions(named: key.name)
        var dispatched: [CallFact] = []
        for position in named {
            guard let call = functionSummaries[position.caller]?.calls[position.position], let receiver = call.receiver,
                  callee(of: call) == nil, let reached = dispatchOwner(of: receiver, depth: 0) else { continue }
            if reached == owner || throughProtocols && subtypes(of: reached).contains(owner) { dispatched.append(call) }
        }
        return direct + dispatched
    }

    /// The project type (or protocol) a receiver's methods dispatch to, following what `resolve(_:)` does not: an
    /// `@Environment(\.key)` property, a property initialised with a static member, an `any`/`some` type.
    func dispatchOwner(of receiver: ValueType, depth: Int) -> String? {
        guard depth < ValueType.depthLimit else { return nil }
        if let owner = receiverOwner(receiver) { return owner }
        switch receiver {
        case .named(let written, let scope):
            return resolveExistential(written, scope: scope)
        case .member(let base, let name):
            let baseOwner: String?
            if case .named(let written, let scope) = base {
                baseOwner = resolveType(written, from: scope) ?? resolveExistential(written, scope: scope)
            } else {
                baseOwner = dispatchOwner(of: base, depth: depth + 1)
            }
            guard let baseOwner, let property = self.property(name, of: baseOwner) else { return nil }
            if let written = property.typeName { return resolveExistential(written, scope: baseOwner) }
            if let environmentKey = Self.environmentKey(of: property),
               let value = self.property(environmentKey, of: "EnvironmentValues"), let written = value.typeName {
                return resolveExistential(written, scope: nil)
            }
            if let value = property.defaultValue, let member = Self.staticMemberReference(value) {
                return dispatchOwner(of: member, depth: depth + 1)
            }
            return nil
        default:
            return nil
        }
    }

    /// `any SyncService`, `some SyncService`, `SyncService?`: the type named, resolved in `scope`.
    private func resolveExistential(_ written: String, scope: String?) -> String? {
        var name = written.trimmingCharacters(in: .whitespaces)
        while name.hasSuffix("?") || name.hasSuffix("!") { name.removeLast() }
        if name.hasPrefix("(") && name.hasSuffix(")") { name = String(name.dropFirst().dropLast()) }
        for prefix in ["any ", "some "] where name.hasPrefix(prefix) { name = String(name.dropFirst(prefix.count)) }
        let resolved = resolveType(name, from: scope)
        guard let resolved, !TypeNames.isCollection(name) else { return nil }
        return resolved
    }

    /// The key of `@Environment(\.key)` (or `\EnvironmentValues.key`); nil for any other property.
    static func environmentKey(of property: PropertyFact) -> String? {
        guard let argument = property.attributes.first(where: { $0.name == "Environment" })?.arguments
            .trimmingCharacters(in: .whitespaces), argument.hasPrefix("\\") else { return nil }
        var path = argument.dropFirst()
        if path.hasPrefix("EnvironmentValues") { path = path.dropFirst("EnvironmentValues".count) }
        guard path.hasPrefix("."), !path.dropFirst().contains("."), !path.dropFirst().isEmpty else { return nil }
        return String(path.dropFirst())
    }

    /// `Store.shared`, `Services.Sync.shared`: a static member of a type written by name, as a value type for
    /// the index to follow. Nil for anything else (a call, a literal, an instance's member).
    static func staticMemberReference(_ text: String) -> ValueType? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }),
              let first = parts.first?.first, first.isUppercase else { return nil }
        // The leading names that start in upper case are the type (`Services.Sync`); the rest are members.
        let typeParts = parts.prefix { $0.first?.isUppercase == true }
        guard typeParts.count < parts.count else { return nil }
        var value: ValueType = .named(typeParts.joined(separator: "."), scope: nil)
        for member in parts.dropFirst(typeParts.count) { value = .member(value, member) }
        return value
    }

    // MARK: Can an await suspend at all

    /// Whether awaiting every one of the calls, from code running in `context`, runs straight through without
    /// suspending: the code runs on the main actor, and each call is a project function on the main actor too (a
    /// `@MainActor` method, a view's, a main-actor type's; or a synchronous one that runs where it is called) whose
    /// own `await`s are such calls in turn, followed `cancellationDepth` calls deep. Calling an async function of the
    /// actor the caller is on needs no hop (SE-0306: an actor-isolated call from the same actor is synchronous in
    /// effect), so such an `await` is no suspension point: no other work of the actor runs in between, and nothing
    /// can cancel the task, or start a second one, between the `await` and what follows. A protocol's method, a call
    /// of another module, an `await` of anything but a call: it may suspend.
    public func neverSuspends(_ calls: [CallReference], on context: ExecutionContext) -> Bool {
        guard resolved(context) == .mainActor else { return false }
        var seen: Set<FunctionKey> = []
        return calls.allSatisfy { neverSuspends($0, remaining: Self.cancellationDepth, seen: &seen) }
    }

    private func neverSuspends(_ call: CallReference, remaining: Int, seen: inout Set<FunctionKey>) -> Bool {
        guard remaining > 0, let key = callee(of: call), let summary = functionSummaries[key] else { return false }
        if let owner = key.typeName, declarations(of: owner).contains(where: { $0.kind == .protocol }) { return false }
        let own = resolved(summary.declaredContext)
        guard summary.isAsync else { return own == .mainActor || own == .callers }
        guard own == .mainActor, !summary.awaitsOtherThanCalls else { return false }
        // A function met again on the way (recursion): what it awaits is decided at its first visit.
        guard seen.insert(key).inserted else { return true }
        return summary.awaitedCalls.allSatisfy { neverSuspends($0, remaining: remaining - 1, seen: &seen) }
    }

    // MARK: Code nobody calls

    /// Whether, in a program (`isProgram`: an Xcode project with an entry point, all of whose code was linted), the
    /// function has no caller at all. Every call of its name is its own recursion or reaches another function: a call
    /// on a receiver whose project type is neither this type nor one of its supertypes (`posts.refresh()` on a
    /// `PostsModel` is not `GalleryModel.refresh`), or an unqualified call in a type unrelated to this one that has a
    /// function of that name itself. A call on a receiver of unknown type, or one the index cannot resolve (a
    /// property declared under `#if`, whose type it does not record), may be this function's. It is not named without
    /// a call where that name may be it (`Button(action: save)` in its own type, `action: model.save` on any value).
    /// And its type (if any) declares no supertype outside the project that may call it: a framework protocol whose
    /// requirements are known and do not include the name (`FrameworkRequirements`: `ObservableObject`,
    /// `Identifiable`, ...) calls nothing else; any other protocol or superclass (`NSObject`, a delegate protocol) may.
    /// A library's function may be called from code the run does not show.
    func isUncalledInProgram(_ key: FunctionKey) -> Bool {
        guard isProgram else { return false }
        let owner = key.typeName.flatMap { resolveType($0) }
        if key.typeName != nil, owner == nil { return false }
        guard callPositions(named: key.name).allSatisfy({ position in
            guard position.caller != key, let call = functionSummaries[position.caller]?.calls[position.position] else { return true }
            return !mayReach(call, key, owner: owner)
        }) else { return false }
        guard !mayBeNamedWithoutCall(key, owner: owner) else { return false }
        guard let owner else { return true }
        let scope = resolveType(owner)
        return declarations(of: owner).allSatisfy { declaration in
            declaration.inheritedTypes.allSatisfy { resolveType($0, from: scope) != nil || !FrameworkRequirements.mayCall(key.name, through: $0) }
        }
    }

    /// Whether a call of `key`'s name may run `key`, the method of `owner` (nil for a free function): see
    /// `isUncalledInProgram`.
    func mayReach(_ call: CallFact, _ key: FunctionKey, owner: String?) -> Bool {
        if let receiver = call.receiver {
            // A free function is not called on a receiver; a receiver of unknown type may be the method's.
            guard let owner else { return false }
            guard let receiverType = receiverOwner(receiver) else { return true }
            return areRelated(receiverType, owner)
        }
        // Unqualified: a method of the caller's own type or one it inherits, else a free function.
        if let owner, let callerType = call.caller.typeName.flatMap({ resolveType($0) }), areRelated(callerType, owner) { return true }
        guard let resolved = callee(of: call) else { return true }
        return resolved == key
    }

    /// Whether some function names `key` without calling it where the name may be `key`'s: a bare name or `self.name`
    /// in its own type or a related one, or in a type with no function of that name; a member of any other value.
    func mayBeNamedWithoutCall(_ key: FunctionKey, owner: String?) -> Bool {
        guard isReferencedWithoutCall(key) else { return false }
        return functionSummaries.values.contains { summary in
            guard summary.passedReferences.contains(key.name) else { return false }
            if summary.passedMemberReferences.contains(key.name) { return owner != nil }
            guard let namingType = summary.key.typeName.flatMap({ resolveType($0) }) else { return true }
            if let owner, areRelated(namingType, owner) { return true }
            return functionSummaries[FunctionKey(typeName: namingType, name: key.name)] == nil
        }
    }

    /// Whether one of the two types is the other or one of its project supertypes, to three levels (`subtypes(of:)`):
    /// a call on either may run the other's method (inherited, overridden, or a protocol's requirement).
    private func areRelated(_ first: String, _ second: String) -> Bool {
        first == second || subtypes(of: first).contains(second) || subtypes(of: second).contains(first)
    }
}
