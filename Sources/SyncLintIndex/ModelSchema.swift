/// The persisted schema of SwiftData `@Model` classes, read from the index: which stored properties
/// are attributes and which are relationships, as CloudKit sees them.
public struct ModelSchema {
    public struct Property {
        public let model: String
        public let fact: PropertyFact
        public let isRelationship: Bool
        /// The qualified name of the model declaring it: `Schema1.Item` for an older schema version's `Item`.
        public var modelQualifiedName: String = ""
    }

    public let models: [TypeFact]
    public let properties: [Property]
    /// For a simple model name several models share (the current `Item` and older schema versions' `Schema1.Item`), the
    /// qualified name it resolves to from the top level, as Swift looks it up: only that model's relationships are
    /// followed from a registration of the name.
    private var declarationsFollowed: [String: String] = [:]

    /// Only models in a store's schema: those registered, or reachable through relationships from one that
    /// is. A model no container lists is not synced (`unregistered_model` reports it); when the project
    /// registers nothing (a library), every model counts.
    public static func synced(index: ProjectIndex) -> ModelSchema {
        let all = ModelSchema(index: index)
        let registrations = index.appModelRegistrations
        guard !registrations.isEmpty else { return all }
        // A store whose models the index resolved (a schema made from a model list named in another file) registers them
        // as a `.modelContainer(for:)` does.
        let resolved = index.storeConfigurations.filter { index.codeKind(of: $0.location) == .app }.compactMap(\.models).joined()
        let inSchema = all.reachable(from: Set(registrations.flatMap(index.modelNames(of:))).union(resolved))
        return ModelSchema(models: all.models.filter { inSchema.contains($0.name) },
                           properties: all.properties.filter { inSchema.contains($0.model) }, declarationsFollowed: all.declarationsFollowed)
    }

    /// The models reachable from `roots` through relationships, roots included.
    public func reachable(from roots: Set<String>) -> Set<String> {
        var reached = roots
        var queue = Array(roots)
        while let next = queue.popLast() {
            let followed = declarationsFollowed[next]
            for property in properties where property.model == next && property.isRelationship
                && (followed == nil || followed == property.modelQualifiedName) {
                if let target = property.fact.elementTypeName, reached.insert(target).inserted { queue.append(target) }
            }
        }
        return reached
    }

    private init(models: [TypeFact], properties: [Property], declarationsFollowed: [String: String]) {
        self.models = models
        self.properties = properties
        self.declarationsFollowed = declarationsFollowed
    }

    public init(index: ProjectIndex) {
        // Each declaration looked at where it is: every rule asking for the schema copied every type of the project
        // first (a tenth of a cached run's CPU on 447k lines), to keep the few models.
        var models: [TypeFact] = []
        for declarations in index.typesByName.values {
            for position in declarations.indices where declarations[position].kind == .class && declarations[position].hasAttribute("Model") {
                models.append(declarations[position])
            }
        }
        self.models = models.sorted { ($0.location.file, $0.location.line) < ($1.location.file, $1.location.line) }
        properties = self.models.flatMap { model in
            model.properties.filter { !$0.isComputed && !$0.isStatic && !$0.hasAttribute("Transient") }.map { property in
                let isRelationship = property.hasAttribute("Relationship")
                    || (property.elementTypeName.map(index.isSwiftDataModel) ?? false)
                return Property(model: model.name, fact: property, isRelationship: isRelationship, modelQualifiedName: model.qualifiedName)
            }
        }
        let counts = Dictionary(grouping: self.models, by: \.name)
        for (name, declarations) in counts where declarations.count > 1 {
            if let resolved = index.resolveType(name) { declarationsFollowed[name] = resolved }
        }
    }
}

/// Findings made by project rules, with the rule's own id, name and severity.
extension RuleDescription {
    package func finding(at location: SourceLocation, _ message: String) -> Finding {
        Finding(ruleID: id, ruleName: name, severity: severity, message: message, file: location.file, line: location.line, column: location.column)
    }

    package func finding(inModel model: CoreDataModel, line: Int, _ message: String) -> Finding {
        Finding(ruleID: id, ruleName: name, severity: severity, message: message, file: model.path, line: line, column: 1)
    }

    /// A finding of one of the rule's declared messages, its blanks filled from `arguments`.
    package func finding(at location: SourceLocation, _ message: RuleMessage, _ arguments: [String: String] = [:],
                         notes: [FindingNote] = [], confidence: Confidence = .high) -> Finding {
        Finding(ruleID: id, ruleName: name, severity: message.severity ?? severity, message: message.text(arguments), file: location.file,
                line: location.line, column: location.column, arguments: arguments, messageID: message.id, notes: notes,
                confidence: confidence)
    }

    package func finding(inModel model: CoreDataModel, line: Int, _ message: RuleMessage, _ arguments: [String: String] = [:],
                         notes: [FindingNote] = [], confidence: Confidence = .high) -> Finding {
        finding(at: SourceLocation(file: model.path, line: line, column: 1), message, arguments, notes: notes, confidence: confidence)
    }
}
