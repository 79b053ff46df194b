import Foundation
import Testing
@testable import SyncLintKit
@testable import SyncLintSyntax

/// The rule list is hand-written; these tests keep it honest against the rule sources and the docs.
struct RuleCatalogTests {
    /// Every `*Rule.swift` under Rules/ declares a class of the same name, and that class is registered.
    @Test func everyRuleFileIsRegisteredAndNamedForItsType() throws {
        let rulesFolder = Repository.path("Sources/SyncLintRules")
        let enumerator = try #require(FileManager.default.enumerator(atPath: rulesFolder))
        let registered = Set(RuleRegistry.syntaxRules.map { String(describing: $0) } + RuleRegistry.projectRules.map { String(describing: $0) })
        var files: [String] = []
        while let file = enumerator.nextObject() as? String {
            guard file.hasSuffix("Rule.swift") else { continue }
            let typeName = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let source = try String(contentsOfFile: rulesFolder + "/" + file, encoding: .utf8)
            #expect(source.contains("class \(typeName)") || source.contains("struct \(typeName)") || source.contains("enum \(typeName)"),
                    "\(file) does not declare \(typeName)")
            #expect(registered.contains(typeName), "\(typeName) is not in RuleRegistry")
            files.append(typeName)
        }
        #expect(files.count == registered.count, "RuleRegistry lists a rule with no file of its name")
    }

    @Test func ruleIDsAreUniqueSnakeCaseAndDocumented() {
        let descriptions = RuleRegistry.allDescriptions
        #expect(Set(descriptions.map(\.id)).count == descriptions.count)
        for rule in descriptions {
            #expect(rule.id.allSatisfy { $0.isLowercase || $0 == "_" }, "\(rule.id) is not snake_case")
            #expect(!rule.name.isEmpty && rule.whatItDoes.count > 40 && rule.whyIsThisBad.count > 40, "\(rule.id) lacks documentation")
            #expect(!rule.seed.isEmpty, "\(rule.id) names no seed")
            #expect(!rule.knownLimitations.isEmpty, "\(rule.id) states no known limitations")
            #expect(!rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty)
        }
    }

    /// `docs/rules.md` is generated from the same metadata as `synclint explain`; regenerate it with
    /// `swift run synclint generate-docs` when this fails.
    @Test func generatedRuleReferenceIsCurrent() throws {
        let onDisk = try String(contentsOfFile: Repository.path("docs/rules.md"), encoding: .utf8)
        #expect(onDisk == RuleDocumentation.reference(RuleRegistry.allDescriptions),
                "docs/rules.md is stale: run `swift run synclint generate-docs`")
    }

    /// The README's rule table is the generated one, so users see every rule and what runs by default.
    @Test func readmeRuleTableIsCurrent() throws {
        let readme = try String(contentsOfFile: Repository.path("README.md"), encoding: .utf8)
        let regenerated = try #require(RuleDocumentation.replacingRuleTable(in: readme, with: RuleRegistry.allDescriptions),
                                       "README.md has no rule table markers")
        #expect(readme == regenerated, "README.md's rule table is stale: run `swift run synclint generate-docs`")
        for rule in RuleRegistry.allDescriptions {
            #expect(readme.contains("`\(rule.id)`"), "README.md does not mention \(rule.id)")
        }
    }
}

/// The walker dispatches only the node kinds it overrides; a rule asking for another would never run.
struct WalkerCoverageTests {
    @Test func everyRuleAndCollectorListensToKindsTheWalkerDispatches() {
        #expect(RulePlan.unsupportedRules(RuleRegistry.syntaxRules).isEmpty)
        for collector in IndexCollectors.make() {
            #expect(type(of: collector).nodeKinds.isSubset(of: FileWalker.supportedKinds), "\(type(of: collector))")
        }
        // The walker finds each kind's listeners by slot: every dispatched kind has its own.
        for (position, kind) in FileWalker.dispatchedKinds.enumerated() {
            #expect(FileWalker.slot(of: kind) == position, "\(kind)")
        }
        #expect(FileWalker.slot(of: .token) == nil)
    }
}
