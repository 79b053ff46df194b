// The layers below this one, re-exported so that every file of this module (and every module above it)
// sees them without an import line of its own. The package's target dependencies are the walls:
// SyncLintFacts < SyncLintIndex < SyncLintSyntax < SyncLintRules < SyncLintKit, none importing one above it.
@_exported import SyncLintIndex

// SwiftSyntax declares a `SourceLocation` too. Here, and in every module that imports this one (rules, kit,
// tests), the name means the facts' one, as it did when everything was one module: a declaration shadows
// one of the same name in a module its own module imports.
public typealias SourceLocation = SyncLintFacts.SourceLocation
