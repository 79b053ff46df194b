/// Every rule SyncLint has, in one hand-written list. A test reads the rule sources and fails
/// when a rule file is missing here.
public enum RuleRegistry {
    // Metatypes are immutable; the lists are never written.
    nonisolated(unsafe) public static let syntaxRules: [any SyntaxRule.Type] = [
        // SwiftUI
        TaskWithoutIDRule.self,
        UnstableTaskIDRule.self,
        OnAppearTaskRule.self,
        MissingDisappearCleanupRule.self,
        StateObjectBuiltOutsideAutoclosureRule.self,
        RepresentableUpdateIgnoresInputsRule.self,
        // Observation
        ObservedTaskHandleRule.self,
        PublishedWriteOffMainRule.self,
        AliasComputedPropertyRule.self,
        // Concurrency
        TaskHandleOverwrittenRule.self,
        CancellationReportedAsErrorRule.self,
        LoadingStateNotResetRule.self,
        CheckThenActAcrossAwaitRule.self,
        MissingCancellationCheckRule.self,
        TaskSelfCaptureRule.self,
        GCDInAsyncContextRule.self,
        UncancellableTaskLoopRule.self,
        UnsynchronizedCaptureMutationRule.self,
        BlockingWaitInAsyncRule.self,
        CancellationSwallowedByTryOptionalRule.self,
        ContinuationResumedTwiceRule.self,
        ContinuationNeverResumedRule.self,
        UnfinishedAsyncStreamRule.self,
        SupersededTaskCleanupRule.self,
        TimerReplacedWithoutInvalidateRule.self,
        StaleSnapshotWriteAcrossAwaitRule.self,
        // SwiftData
        StaleModelAfterAwaitRule.self,
        InsertWithoutDuplicateCheckRule.self,
        SaveFailureWithoutRollbackRule.self,
        ModelMutatedOffMainRule.self,
        PredicateOnGenericModelRule.self,
        // CloudKit
        FatalErrorOnContainerInitRule.self,
        // Core Data sync notifications
        UnsynchronizedNotificationStateRule.self,
        LocalChangeFlagRule.self,
        PostBeforePerformCompletesRule.self,
        DroppedRemoteChangeRule.self,
        TimerWithoutRunLoopRule.self,
        BackgroundContextOutsidePerformRule.self,
        ViewContextOffMainRule.self,
        // Notification observers
        WorkspaceNotificationOnDefaultCenterRule.self,
        DiscardedObserverTokenRule.self,
    ]

    nonisolated(unsafe) public static let projectRules: [any ProjectRule.Type] = [
        // CloudKit schema: SwiftData models and Core Data model files
        CloudKitUniqueConstraintRule.self,
        CloudKitNonoptionalAttributeRule.self,
        CloudKitNonoptionalRelationshipRule.self,
        CloudKitDenyDeleteRule.self,
        CloudKitOrderedRelationshipRule.self,
        CloudKitMissingInverseRule.self,
        CloudKitUndefinedAttributeRule.self,
        // SwiftData
        TransientUIStateRule.self,
        UnregisteredModelRule.self,
        ModelNotMainActorRule.self,
        VersionedSchemaSharesModelRule.self,
        ReusedSchemaVersionIdentifierRule.self,
        PredicateOnNonPersistentPropertyRule.self,
        // Core Data
        MissingAutomaticMergeRule.self,
        // Suppression hygiene (its findings are made when suppression is applied)
        SuperfluousDisableCommandRule.self,
    ]

    /// The rules' automatic fixes (`FixEngine` looks each finding's up by rule id).
    // Metatypes of stateless enums; the list is never written.
    nonisolated(unsafe) package static let fixes: [any RuleFix.Type] = [
        OnAppearTaskFix.self, ObservedTaskHandleFix.self, LoadingStateNotResetFix.self, CancellationReportedAsErrorFix.self,
        TaskWithoutIDFix.self,
    ]

    /// The rule whose findings are suppression directives that suppressed nothing: the engine makes them
    /// when it applies suppression, after every other rule ran.
    public static let unusedSuppressionRuleID = SuperfluousDisableCommandRule.description.id

    public static var allDescriptions: [RuleDescription] {
        (syntaxRules.map { $0.description } + projectRules.map { $0.description }).sorted { $0.id < $1.id }
    }

    public static func description(of id: String) -> RuleDescription? {
        allDescriptions.first { $0.id == id }
    }
}
