import Foundation
import Testing
@testable import SyncLintKit

/// `CompactLayouts`, the fields-by-position form of the facts a cache entry holds most of, and the decoder's
/// shortcuts (keys looked up from the last one found, empty collections, strings read without a container).
struct CompactCodingTests {
    /// A fact type that gained, lost or reordered a stored property would silently go back to its slower
    /// `Codable` form: this says which layout to bring up to date (`CompactLayouts`' field lists and both
    /// of its switches).
    @Test func everyLayoutListsItsTypesStoredProperties() {
        #expect(CompactLayouts.outOfDate.isEmpty, "out of date: \(CompactLayouts.outOfDate)")
    }

    static let location = SourceLocation(file: "App/Model.swift", line: 12, column: 5)
    static let key = FunctionKey(typeName: "Store", name: "load")

    /// Every stored property set to something other than its default, every case of each enum with a layout.
    static var summary: FunctionSummary {
        let contexts: [ExecutionContext] = [.mainActor, .actor, .concurrent, .serialQueue, .privateQueue, .detachedTask,
                                            .notificationHandler("didChange"), .completionHandler,
                                            .typeIsolation("Store", isAsync: true), .typeIsolation("Other", isAsync: false), .callers,
                                            .moduleDefault(file: "App/Model.swift", isAsync: true), .moduleDefault(file: "", isAsync: false)]
        let cancellabilities: [Cancellability] = [.always, .never, .ifHandleCancelled(typeName: "Store", property: "task"), .ifCallersCancellable(key)]
        let receivers: [ValueType?] = [nil, .unknown, .named("Deck", scope: nil), .named("Inner", scope: "Outer"),
                                       .member(.element(.named("Card", scope: "Deck")), "title"), .element(.unknown)]
        var summary = FunctionSummary(key: key, isAsync: true, declaredContext: .typeIsolation("Store", isAsync: true), location: location)
        summary.lastParameterEscapes = true
        summary.reads = ["items", "isLoading"]
        summary.passedReferences = ["save"]
        summary.writes = [StateWrite(property: "isLoading", boolValue: false, context: .mainActor, location: location),
                          StateWrite(property: "items", boolValue: nil, context: .concurrent, location: location)]
        summary.awaits = true
        summary.hopsToMainActor = true
        summary.posts = ["didLoad", "didLoad"]
        summary.timers = [location]
        summary.saves = ["context"]
        summary.rollsBack = true
        summary.cancelledHandles = ["task"]
        summary.startedHandles = ["task", "other"]
        summary.discardedTasks = [location, SourceLocation(file: "", line: 0, column: 0)]
        summary.discardedTaskUses = [DiscardedTaskUse(location: location, names: ["model", "load"], namesSelf: true)]
        summary.onceGuards = ["hasLoaded"]
        summary.convertsURLErrorCancelled = true
        summary.throwsOnlyOwnErrors = true
        summary.awaitsURLSessionTransfer = true
        summary.awaitsTransferNamedLikeURLSession = true
        summary.blockingWaits = [location]
        summary.resetsOnEveryPath = ["isLoading"]
        summary.writesAfterAwait = ["items"]
        summary.reentryGuards = ["isLoading"]
        summary.setsTrueOnEveryPath = ["didFinish"]
        summary.calls = contexts.indices.map { index in
            CallFact(caller: index % 2 == 0 ? key : FunctionKey(typeName: nil, name: "free"), callee: "fetch\(index)",
                     receiver: receivers[index % receivers.count], context: contexts[index],
                     cancellation: cancellabilities[index % cancellabilities.count], location: location,
                     ifConfigClauses: index % 3 == 0 ? [] : [IfConfigClause(file: "App/Model.swift", offset: index * 10, clause: index % 2)],
                     assignedTo: index % 2 == 0 ? nil : "result")
        }
        summary.calls[0].contextArguments = [ContextArgument(position: 0, label: "in", kind: .viewContext),
                                             ContextArgument(position: 1, label: nil, kind: .contextProperty("background"))]
        summary.unresolvedCalls = ["load": [.always, .never], "refresh": []]
        summary.cancellationSources.throwsItself = true
        summary.cancellationSources.calls = [ThrowingCall(callee: "fetch", receiver: .unknown, awaited: true),
                                             ThrowingCall(callee: "decode", receiver: nil, awaited: false)]
        summary.disappearOnlyTaskCalls = [location]
        summary.awaitedCalls = [CallReference(caller: key, callee: "load", receiver: nil),
                                CallReference(caller: key, callee: "fetch", receiver: .named("API", scope: "Deck"))]
        summary.awaitsOtherThanCalls = true
        return summary
    }

    static var type: TypeFact {
        let attribute = AttributeFact(name: "Model", arguments: "")
        var type = TypeFact(
            name: "Card", qualifiedName: "Deck.Card", kind: .class, attributes: [attribute, AttributeFact(name: "MainActor", arguments: "x: 1")],
            inheritedTypes: ["Identifiable", "Codable"],
            properties: [PropertyFact(name: "title", isLet: false, isStatic: false, typeName: "String", isOptional: true, defaultValue: "\"\"",
                                      attributes: [attribute], isComputed: false, location: location),
                         PropertyFact(name: "count", isLet: true, isStatic: true, typeName: nil, isOptional: false, defaultValue: nil,
                                      attributes: [], isComputed: true, location: location)],
            methods: [MethodFact(name: "load", isAsync: true, isStatic: false, location: location)],
            docComment: "/// A card.", location: location, memberMacros: [MemberMacro(name: "Observable", location: location)])
        type.isNonisolated = true
        return type
    }

    /// JSON of a value with sorted keys and sets in a stable order: what the synthesized `Codable` sees.
    static func spelled<Value: Encodable>(_ value: Value) throws -> String {
        let json = JSONEncoder()
        json.outputFormatting = [.sortedKeys]
        return try WholeRunCacheTests.canonical(json.encode(value))
    }

    /// Each laid-out type comes back with every field and every enum case it went in with, alone and inside
    /// a file's facts (where arrays of them are read by the layouts' own array reader).
    @Test func laidOutFactsRoundTrip() throws {
        let summary = Self.summary, type = Self.type
        #expect(try Self.spelled(CompactCoding.decode(FunctionSummary.self, from: CompactCoding.encode(summary))) == Self.spelled(summary))
        #expect(try Self.spelled(CompactCoding.decode(TypeFact.self, from: CompactCoding.encode(type))) == Self.spelled(type))
        for call in summary.calls {
            #expect(try Self.spelled(CompactCoding.decode(CallFact.self, from: CompactCoding.encode(call))) == Self.spelled(call))
            #expect(try Self.spelled(CompactCoding.decode(ExecutionContext.self, from: CompactCoding.encode(call.context))) == Self.spelled(call.context))
        }
        var facts = FileFacts()
        facts.functionSummaries = [summary, FunctionSummary(key: Self.key, isAsync: false, declaredContext: .callers, location: Self.location)]
        facts.types = [type, type]
        let stored = ResultCache.StoredResult(facts: facts, pending: [], suppression: nil, warning: "w")
        let decoded = try CompactCoding.decode(ResultCache.StoredResult.self, from: CompactCoding.encode(stored))
        #expect(try Self.spelled(decoded) == Self.spelled(stored))
    }

    /// A truncated or damaged laid-out payload is refused with an error, never decoded into something else
    /// silently at its full length, and never crashes.
    @Test func truncatedOrDamagedLayoutsAreRefused() throws {
        var summary = FunctionSummary(key: Self.key, isAsync: true, declaredContext: .notificationHandler("n"), location: Self.location)
        summary.calls = Array(Self.summary.calls.prefix(3))
        summary.reads = ["a"]
        let encoded = try CompactCoding.encode(summary)
        for cut in 0..<encoded.count {
            #expect(throws: (any Error).self, "cut at \(cut) of \(encoded.count)") {
                try CompactCoding.decode(FunctionSummary.self, from: encoded.prefix(cut))
            }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3000 {
            var damaged = encoded
            damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            _ = try? CompactCoding.decode(FunctionSummary.self, from: damaged)
        }
        // An enum's case number past its last case.
        var unknownCase: [UInt8] = []
        CompactCoding.writeVarint(0, to: &unknownCase)  // no keys
        CompactCoding.writeVarint(0, to: &unknownCase)  // no strings
        unknownCase += [1, 1, UInt8(CompactCoding.zigzag(17))]  // one field, one byte long: case 17
        #expect(throws: (any Error).self) { try CompactCoding.decode(ExecutionContext.self, from: Data(unknownCase)) }
    }

    /// Keys read in another order than written, and keys absent: the lookup that starts after the last key
    /// found wraps around and still finds every key, and says "absent" for a key not there.
    struct Reordered: Codable, Equatable {
        var first = 1, second = "two", third: Bool? = true, fourth: [Int] = []
        enum CodingKeys: String, CodingKey { case first, second, third, fourth, fifth }

        init() {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(first, forKey: .first)
            try container.encode(second, forKey: .second)
            try container.encodeIfPresent(third, forKey: .third)
            try container.encode(fourth, forKey: .fourth)
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            fourth = try container.decode([Int].self, forKey: .fourth)
            third = try container.decodeIfPresent(Bool.self, forKey: .third)
            #expect(try container.decodeIfPresent(String.self, forKey: .fifth) == nil)
            #expect(!container.contains(.fifth))
            first = try container.decode(Int.self, forKey: .first)
            second = try container.decode(String.self, forKey: .second)
            let written: Set<String> = third == nil ? ["first", "second", "fourth"] : ["first", "second", "third", "fourth"]
            #expect(Set(container.allKeys.map(\.stringValue)) == written)
        }
    }

    @Test func keysAreFoundInAnyOrder() throws {
        var value = Reordered()
        value.fourth = [3, 4]
        #expect(try CompactCoding.decode(Reordered.self, from: CompactCoding.encode(value)) == value)
        value.third = nil
        #expect(try CompactCoding.decode(Reordered.self, from: CompactCoding.encode(value)) == value)
    }

    /// Empty collections (made without a container) and collections of strings (read without one) are what
    /// their own `init(from:)` makes; a zero byte that is not a collection (an empty struct, a zero) is left to it.
    @Test func collectionShortcutsGiveWhatTheirDecodersGive() throws {
        #expect(try CompactCoding.decode([Int].self, from: CompactCoding.encode([Int]())) == [])
        #expect(try CompactCoding.decode(Set<String>.self, from: CompactCoding.encode(Set<String>())) == [])
        #expect(try CompactCoding.decode([String: [Int]].self, from: CompactCoding.encode([String: [Int]]())) == [:])
        #expect(try CompactCoding.decode(Set<String>.self, from: CompactCoding.encode(Set(["a", "b", "a"]))) == ["a", "b"])
        #expect(try CompactCoding.decode([String].self, from: CompactCoding.encode(["b", "a", "b"])) == ["b", "a", "b"])
        #expect(try CompactCoding.decode(UInt8.self, from: CompactCoding.encode(UInt8(0))) == 0)
        #expect(try CompactCoding.decode(WholeRunCacheTests.Sample.Empty.self, from: CompactCoding.encode(WholeRunCacheTests.Sample.Empty())) == .init())
        #expect(try CompactCoding.decode([[String]].self, from: CompactCoding.encode([[], ["x"]])) == [[], ["x"]])
    }
}

/// Xcode projects in the cache: an unchanged `project.pbxproj` is taken from its entry (no parse), an edited
/// one is parsed again, and the report is the one a run without the cache gives either way.
@Suite(.serialized) struct XcodeProjectCacheTests {
    @Test func anUnchangedProjectIsReadFromItsEntryAndAnEditedOneIsParsedAgain() throws {
        let scratch = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let folder = scratch.appendingPathComponent("AppAndWidget")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Repository.path("Tests/SyncLintKitTests/Fixtures/Projects/AppAndWidget")), to: folder)
        let root = scratch.appendingPathComponent("cache").path
        let paths = [folder.path]
        func cached() -> ResultCacheTests.Run {
            ResultCacheTests.lint(paths, cacheRoot: root, limits: WholeRunCacheTests.settled)
        }
        let uncached = ResultCacheTests.lint(paths, cacheRoot: nil)
        let cold = cached()
        #expect(cold.rendered == uncached.rendered)
        #expect(cold.statistics.projectHits == 0 && cold.warning == nil)
        try ResultCacheTests.removeWholeRunEntries(root: root)
        let warm = cached()
        #expect(warm.rendered == uncached.rendered)
        #expect(warm.statistics.projectHits == 1, "\(warm.statistics)")

        // An edit the property list allows (a comment) changes the bytes: the entry no longer answers.
        let project = folder.appendingPathComponent("Notes.xcodeproj/project.pbxproj")
        try (String(contentsOf: project, encoding: .utf8) + "\n// edited\n").write(to: project, atomically: true, encoding: .utf8)
        try ResultCacheTests.removeWholeRunEntries(root: root)
        let edited = cached()
        #expect(edited.statistics.projectHits == 0, "\(edited.statistics)")
        #expect(edited.rendered == ResultCacheTests.lint(paths, cacheRoot: nil).rendered)
        try ResultCacheTests.removeWholeRunEntries(root: root)
        #expect(cached().statistics.projectHits == 1)
    }
}
