import Testing
@testable import SyncLintKit

/// A top-level `typealias` names its target where no nested type of that name is in scope: a model registered by its
/// alias is registered (`Schema([OfflineTrack.self])` with `typealias OfflineTrack = OfflineTrackV2`), and an older
/// schema version's nested model of the same name is still the one its own version lists.
struct TypeAliasTests {
    static let models = """
        @Model final class OfflineTrackV2 { var title: String = "" }
        @Model final class OfflineAlbumV2 { var name: String = "" }
        typealias OfflineTrack = OfflineTrackV2
        typealias OfflineAlbum = OfflineAlbumV2
        """
    static let legacy = """
        struct LegacyStore {
            let container: ModelContainer
            init() {
                container = try! ModelContainer(for: Schema([OfflineTrack.self]))
            }
        }
        extension LegacyStore {
            @Model final class OfflineTrack { var name: String = "" }
        }
        """
    static let uses = "func save(_ context: ModelContext) { context.insert(OfflineTrackV2()); context.insert(OfflineAlbumV2()) }"

    private func unregistered(_ store: String) -> [String] {
        var configuration = Configuration()
        configuration.onlyRules = ["unregistered_model"]
        let sources = [("/p/Models.swift", Self.models), ("/p/Legacy.swift", Self.legacy), ("/p/Store.swift", store), ("/p/Uses.swift", Self.uses)]
        return Linter.lint(sources: sources.map { SourceInput(path: $0.0, text: $0.1) }, configuration: configuration).findings.map { $0.arguments["model"] ?? "" }
    }

    @Test func aModelRegisteredByItsAliasIsRegistered() {
        // Read as the nested `LegacyStore.OfflineTrack`, the alias would leave `OfflineTrackV2` unregistered.
        let store = "struct Store { let container = try! ModelContainer(for: Schema([OfflineTrack.self, OfflineAlbumV2.self])) }"
        #expect(unregistered(store) == [])
    }

    @Test func aModelMissingFromTheAliasedListIsStillReported() {
        let store = "struct Store { let container = try! ModelContainer(for: Schema([OfflineTrack.self])) }"
        #expect(unregistered(store) == ["OfflineAlbumV2"])
    }

    @Test func anOlderNestedModelOfTheAliasName() {
        // Written inside `LegacyStore`, `OfflineTrack` is its nested model: registering the current ones leaves it listed.
        let store = "struct Store { let container = try! ModelContainer(for: Schema([OfflineTrack.self, OfflineAlbum.self])) }"
        #expect(!unregistered(store).contains("OfflineTrack"))
        // Without the legacy store's own list, the nested model is in no container.
        var configuration = Configuration()
        configuration.onlyRules = ["unregistered_model"]
        let legacyUnlisted = Self.legacy.replacingOccurrences(of: "container = try! ModelContainer(for: Schema([OfflineTrack.self]))", with: "container = Self.open()")
        let sources = [("/p/Models.swift", Self.models), ("/p/Legacy.swift", legacyUnlisted), ("/p/Store.swift", store), ("/p/Uses.swift", Self.uses + "\nfunc old(_ c: ModelContext) { c.insert(LegacyStore.OfflineTrack()) }")]
        let findings = Linter.lint(sources: sources.map { SourceInput(path: $0.0, text: $0.1) }, configuration: configuration).findings
        #expect(findings.map { $0.arguments["model"] ?? "" } == ["OfflineTrack"])
    }
}
