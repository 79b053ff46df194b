/// The persisted schema of SwiftData `@Model` classes, read from the index: which stored properties
/// are attributes and which are relationships, as CloudKit sees them.
public struct ModelSchema {
    public struct Property {
        public let model: String
        public let fact: PropertyFact
        public let isRelationship: Bool
    }

    public let models: [TypeFact]
    public let properties: [Property]

    /// Only models in a store's schema: those registered, or reachable through relationships from one that
    /// is. A model no container lists is not synced (`unregistered_model` reports it); when the project
    /// registers nothing (a library), every model counts.
    public static func synced(index: ProjectIndex) -> ModelSchema {
        let all = ModelSchema(index: index)
        let registrations = index.appModelRegistrations
        guard !registrations.isEmpty else { return all }
        let inSchema = all.reachable(from: Set(registrations.flatMap(\.typeNames)))
        return ModelSchema(models: all.models.filter { inSchema.contains($0.name) },
                           properties: all.properties.filter { inSchema.contains($0.model) })
    }

    /// The models reachable from `roots` through relationships, roots included.
    public func reachable(from roots: Set<String>) -> Set<String> {
        var reached = roots
        var queue = Array(roots)
        while let next = queue.popLast() {
            for property in properties where property.model == next && property.isRelationship {
                if let target = property.fact.elementTypeName, reached.insert(target).inserted { queue.append(target) }
            }
        }
        return reached
    }

    private init(models: [TypeFact], properties: [Property]) {
        self.models = models
        self.properties = properties
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
                return Property(model: model.name, fact: property, isRelationship: isRelationship)
            }
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
