import Testing
@testable import SyncLintKit

/// Seed 004: the macOS app whose CloudKit changes appeared only after switching away and back.
struct Seed004SyncTests {
    static let rules = ["unsynchronized_notification_state", "local_change_flag", "post_before_perform_completes",
                        "dropped_remote_change", "timer_without_run_loop", "background_context_outside_perform",
                        "view_context_off_main", "missing_automatic_merge"]

    /// CoreDataManager as the seed quotes it: registrations, the flag, the handler, the debounce, processRemoteChange.
    static let coreDataManager = """
        final class CoreDataManager {
            private let remoteChangeDebounceInterval: TimeInterval = 0.5 // 500ms debounce
            private var remoteChangeDebounceTimer: Timer?
            private var isLocalSave = false  // NOT @MainActor, not synchronized
            let persistentContainer = NSPersistentCloudKitContainer(name: "ListAll")
            var viewContext: NSManagedObjectContext { persistentContainer.viewContext }

            private func setupRemoteChangeNotifications() {
                // Handler 1: NSPersistentStoreRemoteChange (from other processes/devices)
                NotificationCenter.default.addObserver(
                    self,
                    selector: #selector(handlePersistentStoreRemoteChange(_:)),
                    name: .NSPersistentStoreRemoteChange,
                    object: persistentContainer.persistentStoreCoordinator
                )

                // Handler 2: CloudKit event notifications (iOS 14+, macOS 11+)
                if #available(iOS 14.0, macOS 11.0, *) {
                    NotificationCenter.default.addObserver(
                        self,
                        selector: #selector(handleCloudKitEvent(_:)),
                        name: NSPersistentCloudKitContainer.eventChangedNotification,
                        object: persistentContainer
                    )
                }
            }

            @objc private func handleCloudKitEvent(_ notification: Notification) {
                if cloudEvent.succeeded {
                    if eventType == .import {
                        // Only posts notification for .import events
                        DispatchQueue.main.async {
                            NotificationCenter.default.post(name: .coreDataRemoteChange, object: nil)
                        }
                    }
                }
            }

            func save() {
                let context = persistentContainer.viewContext
                if context.hasChanges {
                    do {
                        isLocalSave = true  // Set on main thread
                        try context.save()  // Might trigger notification on background thread
                    } catch {
                        context.rollback()
                    }
                }
            }

            @objc private func handlePersistentStoreRemoteChange(_ notification: Notification) {
                // ISSUE 1: isLocalSave flag might have race condition
                if isLocalSave {
                    print("CoreDataManager: Ignoring local save notification (not a remote change)")
                    isLocalSave = false
                    return
                }

                // ISSUE 2: Debouncing might delay updates too long
                remoteChangeDebounceTimer?.invalidate()
                remoteChangeDebounceTimer = Timer.scheduledTimer(
                    withTimeInterval: remoteChangeDebounceInterval, // 0.5s
                    repeats: false
                ) { [weak self] _ in
                    self?.processRemoteChange()
                }
            }

            private func processRemoteChange() {
                viewContext.perform {  // Background context
                    self.viewContext.refreshAllObjects()
                }

                // ISSUE: Posting notification immediately, before refresh completes
                NotificationCenter.default.post(
                    name: .coreDataRemoteChange,
                    object: nil
                )
            }
        }
        """

    static let mainViewModel = """
        final class MainViewModel: ObservableObject {
            @Published var lists: [ItemList] = []
            @Published var isDragging = false
            @Published var isEditModeActive = false

            init() {
                NotificationCenter.default.addObserver(self, selector: #selector(handleCoreDataRemoteChange(_:)),
                                                       name: .coreDataRemoteChange, object: nil)
            }

            @objc private func handleCoreDataRemoteChange(_ notification: Notification) {
                // ISSUE 3: Edit mode/drag guards might block legitimate updates
                if isDragging || isEditModeActive {
                    print("Core Data remote change received during edit mode/drag - IGNORING stale data")
                    return
                }

                print("Core Data remote change detected - reloading lists from CloudKit")
                loadLists()
            }
        }
        """

    private func found(_ sources: [String: String], rules: [String] = rules) -> [String] {
        Harness.findings(sources: sources.map { SourceInput(path: "/seed/\($0.key).swift", text: $0.value) }, rules: rules)
            .map { "\($0.file.dropFirst(6).dropLast(6)):\($0.line) \($0.ruleID)" }
    }

    @Test func theSeedsCodeGivesEveryFindingItsAnalysisNamesAndTheTimerItMissed() {
        let findings = found(["CoreDataManager": Self.coreDataManager, "MainViewModel": Self.mainViewModel])
        #expect(findings == [
            "CoreDataManager:5 missing_automatic_merge",
            "CoreDataManager:53 local_change_flag",
            "CoreDataManager:53 unsynchronized_notification_state",
            "CoreDataManager:61 timer_without_run_loop",
            "CoreDataManager:75 post_before_perform_completes",
            "MainViewModel:15 dropped_remote_change",
        ])
    }

    /// Fix 1: the re-dispatch guard makes the handler's state access main-thread only.
    @Test func fix1ReDispatchGuardIsQuietForThreadRules() {
        let fixed = Self.coreDataManager.replacingOccurrences(of: """
                    // ISSUE 1: isLocalSave flag might have race condition
                    if isLocalSave {
            """, with: """
                    // Ensure main thread access
                    guard Thread.isMainThread else {
                        DispatchQueue.main.async { [weak self] in
                            self?.handlePersistentStoreRemoteChange(notification)
                        }
                        return
                    }

                    // NOW safe to access isLocalSave
                    if isLocalSave {
            """)
        let findings = found(["CoreDataManager": fixed], rules: ["unsynchronized_notification_state", "timer_without_run_loop"])
        #expect(findings.isEmpty, "\(findings)")
        #expect(found(["CoreDataManager": fixed], rules: ["local_change_flag"]) == ["CoreDataManager:61 local_change_flag"],
                "the flag itself stays racy after Fix 1: the seed's local/remote test is still by timing")
    }

    /// Fix 2: posting after the refresh, inside the block.
    @Test func fix2PostInsideThePerformBlockIsQuiet() {
        let fixed = """
            final class CoreDataManager {
                private func processRemoteChange() {
                    viewContext.perform {
                        self.viewContext.refreshAllObjects()

                        // Post notification AFTER refresh completes, on main thread
                        DispatchQueue.main.async {
                            NotificationCenter.default.post(
                                name: .coreDataRemoteChange,
                                object: nil
                            )
                        }
                    }
                }
            }
            """
        #expect(found(["CoreDataManager": fixed]).isEmpty)
    }

    @Test func aDragGuardThatRecordsThePendingReloadIsQuiet() {
        let fixed = Self.mainViewModel.replacingOccurrences(of: """
                        print("Core Data remote change received during edit mode/drag - IGNORING stale data")
                        return
            """, with: """
                        needsReloadAfterDrag = true
                        return
            """).replacingOccurrences(of: "@Published var isDragging = false", with: "@Published var isDragging = false\n    private var needsReloadAfterDrag = false")
        let findings = found(["CoreDataManager": Self.coreDataManager, "MainViewModel": fixed], rules: ["dropped_remote_change"])
        #expect(findings.isEmpty, "\(findings)")
    }

    /// Fix 3 (reassigning the whole `@Published` array) gets no rule: assigning through a subscript does
    /// publish. See docs/departures-from-seeds.md.
    @Test func elementAssignmentToAPublishedArrayIsNotReported() {
        let code = """
            final class MainViewModel: ObservableObject {
                @Published var lists: [ItemList] = []
                func loadLists() {
                    for (index, newList) in newLists.enumerated() where index < lists.count {
                        lists[index] = newList
                    }
                }
            }
            """
        let everyRule = RuleRegistry.allDescriptions.map(\.id)
        #expect(Harness.findings(code, rules: everyRule).isEmpty)
    }
}
