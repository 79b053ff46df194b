import SwiftSyntax

/// One piece of loading state that a body turns on and must turn off before it leaves
/// (`loading_state_not_reset`). Found by name: nothing else says a flag or a call drives a spinner.
struct LoadingState: Hashable {
    enum Kind: Hashable {
        /// A Bool flag that is on while `true`: `isLoading`, `self.isFetchingMore`, `searchInfo.isLoading`.
        case flag
        /// A Bool flag that says the load has ended: the load is on until it is set `true` (`didFinishLoading`).
        case finishedFlag
        /// A pair of calls on one receiver: `coordinator.showLoading()` turns it on, `coordinator.hideLoading()`
        /// (`off`) turns it off; `spinner.startAnimating()` / `stopAnimating()`, `beginRefreshing()` / `endRefreshing()`.
        case shownBy(off: String)
    }
    let kind: Kind
    /// How the state is named in messages: `isLoading`, `searchInfo.isLoading`, `coordinator.showLoading()`.
    let name: String
}

/// Where a body turns a piece of loading state on or off.
struct LoadingMark {
    let state: LoadingState
    let turnsOn: Bool
    let node: Syntax
}

/// The names that make a flag or a call loading state (the rule's `flags` and `finished_flags` options).
struct LoadingStateNames {
    let flags: Set<String>
    let finishedFlags: Set<String>

    /// The verbs that turn a spinner on and off, and the words that say what they show.
    static let verbPairs = [("show", "hide"), ("start", "stop"), ("begin", "end")]
    static let shownWords = ["Loading", "Loader", "Progress", "Spinner", "HUD", "Hud", "Activity", "Animating", "Refreshing", "Indicator"]
    static let settingSuffixes = ["Enabled", "Disabled", "Allowed", "Supported", "Available", "Paused", "Preference", "Setting", "Settings"]

    /// A configured name (`isLoading`), or one with a suffix (`isLoadingAbout`, `isFetchingMore`), but not a
    /// setting named after the activity (`isSyncingEnabled`, `isSavingAllowed`).
    static func matches(_ name: String, in names: Set<String>) -> Bool {
        if names.contains(name) { return true }
        guard let flag = names.first(where: { name.hasPrefix($0) }), name.dropFirst(flag.count).startsUppercase else { return false }
        return !settingSuffixes.contains { name.hasSuffix($0) }
    }

    /// `isLoading = true`, `searchInfo.isLoading = false`, `didFinishLoading = true`, `spinner.startAnimating()`.
    /// `excluded`: names the body declares or takes as parameters; a flag of one of those (`state.isLoading` on an
    /// `inout` parameter, a local view's `cell.isLoading`) is not this body's loading state (a reducer sets it in one
    /// case and resets it in another).
    func mark(of node: Syntax, excluded: Set<String>) -> LoadingMark? {
        if let sequence = node.as(SequenceExprSyntax.self), let assignment = SyntaxFacts.assignment(sequence),
           let value = SyntaxFacts.boolLiteral(assignment.value), let path = flagPath(assignment.target, excluded: excluded) {
            if Self.matches(path.last, in: flags) { return LoadingMark(state: LoadingState(kind: .flag, name: path.name), turnsOn: value, node: node) }
            if Self.matches(path.last, in: finishedFlags) {
                return LoadingMark(state: LoadingState(kind: .finishedFlag, name: path.name), turnsOn: !value, node: node)
            }
            return nil
        }
        guard let call = node.as(FunctionCallExprSyntax.self) else { return nil }
        let member = call.calledExpression.as(MemberAccessExprSyntax.self)
        guard let method = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? member?.declName.baseName.text,
              Self.verbPairs.contains(where: { method.hasPrefix($0.0) || method.hasPrefix($0.1) }) else { return nil }
        var receiver = ""
        if let member {
            guard let base = member.base, let path = SyntaxFacts.memberPath(base) else { return nil }
            // A spinner reached through a parameter or a local is still shown: only the receiver's text must match.
            receiver = ((path.root == "self" ? [] : [path.root]) + path.members).joined(separator: ".")
        }
        for (on, off) in Self.verbPairs {
            for (verb, turnsOn) in [(on, true), (off, false)] where method.hasPrefix(verb) {
                let shown = method.dropFirst(verb.count)
                guard shown.first?.isUppercase == true, Self.shownWords.contains(where: { shown.contains($0) }) else { continue }
                let prefix = receiver.isEmpty ? "" : receiver + "."
                return LoadingMark(state: LoadingState(kind: .shownBy(off: "\(prefix)\(off)\(shown)()"), name: "\(prefix)\(on)\(shown)()"),
                                   turnsOn: turnsOn, node: node)
            }
        }
        return nil
    }

    /// `isLoading`, `self.isLoading`, `self?.isLoading` → `isLoading`; `searchInfo.isLoading`, `self.state.isLoading`
    /// → `searchInfo.isLoading`, `state.isLoading`: the path without `self`, and its last name.
    private func flagPath(_ target: ExprSyntax, excluded: Set<String>) -> (name: String, last: String)? {
        guard let path = SyntaxFacts.memberPath(target), !SyntaxFacts.isTypeName(path.root) else { return nil }
        let parts = (path.root == "self" ? [] : [path.root]) + path.members
        guard let last = parts.last, let first = parts.first, !excluded.contains(first) else { return nil }
        return (parts.joined(separator: "."), last)
    }
}

extension LoadingState {
    /// How the state is turned off, for messages and the fix: `isLoading = false`, `coordinator.hideLoading()`.
    var turnOff: String {
        switch kind {
        case .flag: return "\(name) = false"
        case .finishedFlag: return "\(name) = true"
        case .shownBy(let off): return off
        }
    }
}
