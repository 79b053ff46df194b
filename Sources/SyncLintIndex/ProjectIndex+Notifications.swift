import Foundation
import SyncLintFacts

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
    package func repostedRemoteChangeNotifications(names: Set<String>) -> Set<String> {
        let handlingTypes = Set(coreData.registrations.filter { Self.arrivesOffMain($0, names: names) }.map(\.typeName))
        return Set(coreData.posts.filter { handlingTypes.contains($0.typeName) }.map(\.notification)).subtracting(names)
    }
}

extension ProjectIndex {
    /// The off-main notification a handler is registered for, if any (`names` from the rule's options).
    public func offMainNotification(of registration: HandlerRegistration, names: Set<String>) -> String? {
        switch registration {
        case .method(let typeName, let name):
            return offMainNotification(handledBy: name, in: typeName, names: names)
        case .closure(let notification, let deliversOnMain, let fromAnyObject):
            guard !deliversOnMain, names.contains(notification),
                  !NotificationNames.contextNotifications.contains(notification) || fromAnyObject else { return nil }
            return notification
        }
    }

    /// The remote-change notification a handler is registered for, if any: an off-main one on whatever queue
    /// it is delivered, or the app's own notification posted from a handler of one.
    public func remoteChangeNotification(of registration: HandlerRegistration, names: Set<String>) -> String? {
        switch registration {
        case .method(let typeName, let name):
            return remoteChangeNotification(handledBy: name, in: typeName, names: names)
        case .closure(let notification, _, let fromAnyObject):
            // On whatever queue it is delivered, it is the remote change.
            if names.contains(notification), !NotificationNames.contextNotifications.contains(notification) || fromAnyObject {
                return notification
            }
            return repostedRemoteChangeNotifications(names: names).contains(notification) ? notification : nil
        }
    }
}

extension ProjectIndex {
    /// Whether every assignment of the property is made before the handler can run, so the handler's reads of it on
    /// the notification's thread race with no write: the setter is `private` (the type's own summaries then hold every
    /// write), and each write is in the type's `init`, or in the function that registers the handler above the
    /// registration, each in the function's own body (not a closure that may run later). A handler registered by
    /// selector only (`addObserver(_:selector:name:object:)`, whose registrations the index lists); a context set up
    /// once and then observed (`validationContext = newBackgroundContext(); addObserver(self, selector: …)`).
    func isSetOnlyBeforeRegistration(_ property: String, of typeName: String, handler: HandlerRegistration) -> Bool {
        guard case .method(let handlerType, let handlerName) = handler, handlerType == typeName,
              self.property(property, of: typeName)?.isSetterPrivate == true else { return false }
        let registrations = coreData.registrations.filter { $0.typeName == typeName && $0.handler == .method(handlerName) }
        guard !registrations.isEmpty else { return false }
        let summaries = functionSummaries.values
        /// The function whose body holds the registration: the last one of the file that starts above it.
        func registeringFunction(_ registration: NotificationRegistration) -> FunctionKey? {
            summaries.filter { $0.location.file == registration.location.file && $0.location.line <= registration.location.line }
                .max { $0.location.line < $1.location.line }?.key
        }
        let registering = registrations.map { ($0, registeringFunction($0)) }
        for summary in summaries where summary.key.typeName == typeName {
            for write in summary.writes where write.property == property {
                guard write.context == summary.declaredContext else { return false }
                if summary.key.name == "init" { continue }
                let beforeRegistration = registering.contains { registration, function in
                    function == summary.key && registration.location.file == write.location.file
                        && write.location.line < registration.location.line
                }
                guard beforeRegistration else { return false }
            }
        }
        return true
    }
}
