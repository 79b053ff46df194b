import Dispatch

// The SyncLintPluginProbe target, which `.ci/plugin-check` builds with SyncLint's build-tool plugin
// applied (Package.swift adds it only then). Clean under the default rules; the opt-in
// `gcd_in_async_context` finds the `DispatchQueue.main.async` below (line 7).
func probeRefresh(_ update: @escaping @Sendable () -> Void) async {
    DispatchQueue.main.async { update() }
}
