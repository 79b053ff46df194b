import Foundation

/// A registration for a notification, and on which thread its handler runs.
public struct NotificationRegistration: Sendable {
    public enum Handler: Sendable, Equatable {
        /// `addObserver(_:selector:name:object:)`: a method of the registering type.
        case method(String)
        /// `addObserver(forName:object:queue:using:)`, `publisher(for:)...sink`, `notifications(named:)`.
        case closure
    }

    /// The registering type's name.
    public let typeName: String
    public let handler: Handler
    /// The notification's last name component: `NSPersistentStoreRemoteChange`, `eventChangedNotification`.
    public let notification: String
    /// `object: nil` (any sender), which matters for the context notifications.
    public let fromAnyObject: Bool
    public let deliversOnMain: Bool
    public let location: SourceLocation
}

/// `NotificationCenter.default.post(name:)` and where it is posted from.
public struct NotificationPost: Sendable {
    public let typeName: String
    public let functionName: String
    public let notification: String
}

/// Core Data facts for the sync-notification rules, collected per file.
public struct CoreDataFacts: Sendable {
    public var registrations: [NotificationRegistration] = []
    public var posts: [NotificationPost] = []
    /// Bool properties set to `true` in a function that also saves a context: (type, property).
    public var localSaveFlags: [(typeName: String, property: String)] = []
    /// Properties holding a private-queue context: (type, property).
    public var backgroundContextProperties: [(typeName: String, property: String)] = []
    /// Where `automaticallyMergesChangesFromParent = true` or `mergeChanges(fromContextDidSave:)` appears.
    public var mergesRemoteChanges: [SourceLocation] = []

    public init() {}
}

/// Notification names as the rules compare them, and which arrive off the main thread.
public enum NotificationNames {
    /// Posted on a private thread by Core Data and CloudKit (the context ones when observed from any context).
    public static let offMainByDefault = [
        "NSPersistentStoreRemoteChange", "eventChangedNotification",
        "NSManagedObjectContextDidSave", "didSaveObjectsNotification",
        "NSManagedObjectContextObjectsDidChange", "didChangeObjectsNotification",
    ]
    static let contextNotifications: Set<String> = [
        "NSManagedObjectContextDidSave", "didSaveObjectsNotification",
        "NSManagedObjectContextObjectsDidChange", "didChangeObjectsNotification",
    ]

    /// `NSPersistentStoreRemoteChange` for `.NSPersistentStoreRemoteChange`, `NSNotification.Name.X`,
    /// `Notification.Name("X")`; `eventChangedNotification` for `NSPersistentCloudKitContainer.eventChangedNotification`.
    public static func normalized(_ text: String) -> String {
        var name = text.trimmingCharacters(in: .whitespaces)
        if let open = name.firstIndex(of: "\""), let close = name.lastIndex(of: "\""), open < close {
            name = String(name[name.index(after: open)..<close])
        }
        return name.split(separator: ".").last.map(String.init) ?? name
    }
}

extension ProjectIndex {
    /// The off-main notification a type's method is registered for, if any (`names` from the rule's options).
    public func offMainNotification(handledBy method: String, in typeName: String, names: Set<String>) -> String? {
        coreData.registrations.first { registration in
            registration.typeName == typeName && registration.handler == .method(method) && !registration.deliversOnMain
                && Self.arrivesOffMain(registration, names: names)
        }?.notification
    }

    static func arrivesOffMain(_ registration: NotificationRegistration, names: Set<String>) -> Bool {
        guard names.contains(registration.notification) else { return false }
        return !NotificationNames.contextNotifications.contains(registration.notification) || registration.fromAnyObject
    }

    /// A remote-change notification: an off-main one, or the app's own notification posted from a handler of one.
    public func remoteChangeNotification(handledBy method: String, in typeName: String, names: Set<String>) -> String? {
        let reposted = repostedRemoteChangeNotifications(names: names)
        return coreData.registrations.first { registration in
            registration.typeName == typeName && registration.handler == .method(method)
                && ((names.contains(registration.notification) && Self.arrivesOffMain(registration, names: names))
                    || reposted.contains(registration.notification))
        }?.notification
    }

    /// Notifications the app posts from a type that handles an off-main notification (the seed's
    /// `.coreDataRemoteChange`, reposted by its `CoreDataManager` from the handler and the helpers it calls).
    func repostedRemoteChangeNotifications(names: Set<String>) -> Set<String> {
        let handlingTypes = Set(coreData.registrations.filter { Self.arrivesOffMain($0, names: names) }.map(\.typeName))
        return Set(coreData.posts.filter { handlingTypes.contains($0.typeName) }.map(\.notification)).subtracting(names)
    }
}
