/// Notification centres and observer registrations: which centre posts which notifications, and which
/// registrations hand back a token that is the only way to stop observing. Part of the reviewed framework
/// table (see `FrameworkCalls`), each entry citing Apple's documentation. Plain data: no syntax.

/// A notification a framework posts to a centre of its own rather than `NotificationCenter.default`.
public struct OwnCenterNotification: Codable, Sendable, Hashable {
    /// The type that declares the name (`NSWorkspace`).
    public let type: String
    /// The static member, as written after the type (`didWakeNotification`).
    public let name: String
    /// The centre it is posted to, as code (`NSWorkspace.shared.notificationCenter`).
    public let center: String
    public let documentation: String
}

public enum FrameworkObservers {
    private static let appKit = "https://developer.apple.com/documentation/appkit/"
    private static let foundation = "https://developer.apple.com/documentation/foundation/"

    /// NSWorkspace's notifications. Apple: "the workspace posts its notifications to its own notification
    /// center, `notificationCenter`", not to the app's default centre, where an observer never hears them
    /// (https://developer.apple.com/documentation/appkit/nsworkspace/notificationcenter). Each name's own page
    /// repeats where it is posted.
    public static let workspaceNotifications: [OwnCenterNotification] = [
        "didActivateApplicationNotification", "didDeactivateApplicationNotification",
        "didHideApplicationNotification", "didUnhideApplicationNotification",
        "willLaunchApplicationNotification", "didLaunchApplicationNotification", "didTerminateApplicationNotification",
        "sessionDidBecomeActiveNotification", "sessionDidResignActiveNotification",
        "didMountNotification", "willUnmountNotification", "didUnmountNotification", "didRenameVolumeNotification",
        "willPowerOffNotification", "willSleepNotification", "didWakeNotification",
        "screensDidSleepNotification", "screensDidWakeNotification",
        "didChangeFileLabelsNotification", "activeSpaceDidChangeNotification",
    ].map { name in
        OwnCenterNotification(type: "NSWorkspace", name: name, center: "NSWorkspace.shared.notificationCenter",
                              documentation: appKit + "nsworkspace/" + name.lowercased())
    }

    /// The notification posted to its own centre that `type.member` names, if any.
    public static func ownCenterNotification(type: String, member: String) -> OwnCenterNotification? {
        workspaceNotifications.first { $0.type == type && $0.name == member }
    }

    /// The app's default centre as written: `NotificationCenter.default` (and Objective-C's old spelling).
    public static let defaultCenterReceivers: Set<String> = ["NotificationCenter.default", "NSNotificationCenter.default"]

    /// What registers an observer or subscribes to a centre's notifications, with the label of the name argument:
    /// `addObserver(_:selector:name:object:)`, `addObserver(forName:object:queue:using:)`, `publisher(for:object:)`,
    /// `notifications(named:object:)`.
    public static let registrations: [(method: String, nameLabel: String)] = [
        ("addObserver", "name"), ("addObserver", "forName"), ("publisher", "for"), ("notifications", "named"),
    ]

    /// `addObserver(forName:object:queue:using:)` returns "an opaque object to act as the observer"; "to unregister
    /// observations, you pass the object returned by this method to `removeObserver(_:)`". Thrown away, the block
    /// can never be removed: the centre keeps it, and what it captures, for the life of the process.
    public static let blockObserverDocumentation = foundation + "notificationcenter/addobserver(forname:object:queue:using:)"
    public static let blockObserverMethod = "addObserver"
    public static let blockObserverLabels = ["forName", "object", "queue"]

    /// The application delegate's launch methods, which the system calls once per process: "Tells the delegate that the
    /// launch process is almost done" / "has begun" (UIKit), "Tells the delegate when the app has finished launching"
    /// (AppKit). An observer registered there is registered once.
    public static let launchMethods: [(selector: String, documentation: String)] = [
        ("application(_:didFinishLaunchingWithOptions:)",
         "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:didfinishlaunchingwithoptions:)"),
        ("application(_:willFinishLaunchingWithOptions:)",
         "https://developer.apple.com/documentation/uikit/uiapplicationdelegate/application(_:willfinishlaunchingwithoptions:)"),
        ("applicationDidFinishLaunching(_:)", "https://developer.apple.com/documentation/appkit/nsapplicationdelegate/applicationdidfinishlaunching(_:)"),
        ("applicationWillFinishLaunching(_:)", "https://developer.apple.com/documentation/appkit/nsapplicationdelegate/applicationwillfinishlaunching(_:)"),
    ]

    /// Supertypes whose instance the system makes once at launch and keeps for the life of the process: the app
    /// (`App`, whose `@main` structure SwiftUI instantiates to run the app) and the application delegate
    /// (`UIApplicationDelegate`, `NSApplicationDelegate`, `WKApplicationDelegate`, set up by `@main`/`UIApplicationMain`
    /// and held while the app runs). An observer such an object registers for the process's life needs no removal.
    public static let appLifetimeSupertypes: [(name: String, documentation: String)] = [
        ("App", "https://developer.apple.com/documentation/swiftui/app"),
        ("UIApplicationDelegate", "https://developer.apple.com/documentation/uikit/uiapplicationdelegate"),
        ("NSApplicationDelegate", "https://developer.apple.com/documentation/appkit/nsapplicationdelegate"),
        ("WKApplicationDelegate", "https://developer.apple.com/documentation/watchkit/wkapplicationdelegate"),
    ]
}

/// Timers a run loop keeps: what schedules one, and what stops it.
public enum FrameworkTimers {
    /// `Timer.scheduledTimer(...)` "creates a timer and schedules it on the current run loop"; "run loops maintain
    /// strong references to their timers", and "for a repeating timer, you must invalidate the timer object yourself
    /// by calling its `invalidate()` method" (https://developer.apple.com/documentation/foundation/timer). Dropping
    /// the app's reference stops nothing.
    public static let scheduledTimerCallees: Set<String> = ["Timer.scheduledTimer"]
    public static let documentation = "https://developer.apple.com/documentation/foundation/timer"
    /// What stops a scheduled timer.
    public static let stopMethod = "invalidate"
}
