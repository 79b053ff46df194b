import Dispatch

// A target built with SyncLint's build-tool plugin applied, so that every `swift build` of this
// package runs the plugin; `.ci/plugin-check` checks what it reports. Clean under the default
// rules; the opt-in `gcd_in_async_context` finds the `DispatchQueue.main.async` below.
func probeRefresh(_ update: @escaping @Sendable () -> Void) async {
    DispatchQueue.main.async { update() }
}
