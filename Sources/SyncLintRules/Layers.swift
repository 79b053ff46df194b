// The layers below this one, re-exported so that every file of this module (and every module above it)
// sees them without an import line of its own. The package's target dependencies are the walls:
// SyncLintFacts < SyncLintIndex < SyncLintSyntax < SyncLintRules < SyncLintKit, none importing one above it.
@_exported import SyncLintSyntax
