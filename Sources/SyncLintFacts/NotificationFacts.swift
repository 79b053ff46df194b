import Foundation

/// A registration for a notification, and on which thread its handler runs.
public struct NotificationRegistration: Sendable, Codable {
    public enum Handler: Sendable, Equatable, Codable {
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

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(typeName: String, handler: Handler, notification: String, fromAnyObject: Bool, deliversOnMain: Bool, location: SourceLocation) {
        self.typeName = typeName
        self.handler = handler
        self.notification = notification
        self.fromAnyObject = fromAnyObject
        self.deliversOnMain = deliversOnMain
        self.location = location
    }
}

/// `NotificationCenter.default.post(name:)` and where it is posted from.
public struct NotificationPost: Sendable, Codable {
    public let typeName: String
    public let functionName: String
    public let notification: String

    /// Memberwise, for the layers above (a synthesized one is internal to this module).
    package init(typeName: String, functionName: String, notification: String) {
        self.typeName = typeName
        self.functionName = functionName
        self.notification = notification
    }
}

/// Core Data facts for the sync-notification rules, collected per file.
public struct CoreDataFacts: Sendable, Codable {
    public var registrations: [NotificationRegistration] = []
    public var posts: [NotificationPost] = []
    /// Bool properties set to `true` in a function that also saves a context: (type, property).
    public var localSaveFlags: [TypeProperty] = []
    /// Properties holding a private-queue context: (type, property).
    public var backgroundContextProperties: [TypeProperty] = []
    /// Properties declared as a main-queue context (`let context = container.viewContext`, or a getter that
    /// returns `container.viewContext`): (type, property).
    public var mainQueueContextProperties: [TypeProperty] = []
    /// Where `automaticallyMergesChangesFromParent = true` or `mergeChanges(fromContextDidSave:)` appears.
    public var mergesRemoteChanges: [SourceLocation] = []
    /// Where a context on the container's coordinator is made for background work (`newBackgroundContext()`,
    /// `performBackgroundTask { }`): its saves reach the store, not the view context, unless it merges.
    public var backgroundContextsMade: [SourceLocation] = []
    /// Where a container loads its stores (`loadPersistentStores`): where its view context is set up.
    public var storeLoads: [SourceLocation] = []

    public init() {}
}

/// How a notification handler found during the walk is registered: an `@objc` method of a type (whose
/// registration may be anywhere, so the index decides), or a closure registered in place.
public enum HandlerRegistration: Sendable, Hashable, Codable {
    case method(typeName: String, name: String)
    case closure(notification: String, deliversOnMain: Bool, fromAnyObject: Bool)
}

/// A property of a type, by name: (type, property).
public struct TypeProperty: Sendable, Hashable, Codable {
    public let typeName: String
    public let property: String

    package init(typeName: String, property: String) {
        self.typeName = typeName
        self.property = property
    }
}

/// Notification names as the rules compare them, and which arrive off the main thread.
public enum NotificationNames {
    /// Posted on a private thread by Core Data and CloudKit (the context ones when observed from any context).
    public static let offMainByDefault = [
        "NSPersistentStoreRemoteChange", "eventChangedNotification",
        "NSManagedObjectContextDidSave", "didSaveObjectsNotification",
        "NSManagedObjectContextObjectsDidChange", "didChangeObjectsNotification",
    ]
    package static let contextNotifications: Set<String> = [
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
