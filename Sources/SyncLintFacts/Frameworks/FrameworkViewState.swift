/// How SwiftUI builds the state a view owns and bridges UIKit/AppKit views: which initializer takes its value
/// lazily, and which methods of a representable run once and which on every update. Part of the reviewed
/// framework table (see `FrameworkCalls`), each entry citing Apple's documentation. Plain data: no syntax.

/// A property wrapper initializer whose value SwiftUI evaluates lazily, once per view identity.
public struct LazyStateInitializer: Codable, Sendable, Hashable {
    /// The wrapper type as called (`StateObject`).
    public let type: String
    /// The label of the autoclosure argument (`wrappedValue`).
    public let label: String
    public let documentation: String
}

/// A protocol that bridges a platform view or view controller into SwiftUI, with the method that builds the
/// platform object once and the one SwiftUI calls with new values on every update.
public struct ViewRepresentable: Codable, Sendable, Hashable {
    public let protocolName: String
    public let makeMethod: String
    public let updateMethod: String
    public let documentation: String
}

public enum FrameworkViewState {
    private static let swiftUI = "https://developer.apple.com/documentation/swiftui/"

    /// `StateObject.init(wrappedValue:)` takes an `@autoclosure`: "SwiftUI only initializes a state object the first
    /// time you call its initializer in a given view"; later calls' values are discarded. Apple's "Initialize state
    /// objects using external data" builds the object inside the argument.
    public static let lazyInitializers: [LazyStateInitializer] = [
        LazyStateInitializer(type: "StateObject", label: "wrappedValue", documentation: swiftUI + "stateobject/init(wrappedvalue:)"),
    ]

    /// `make…` "creates the view object and configures its initial state"; `update…` "updates the state of the
    /// specified view with new information from SwiftUI", called whenever the representable's inputs change.
    public static let representables: [ViewRepresentable] = [
        ViewRepresentable(protocolName: "UIViewRepresentable", makeMethod: "makeUIView", updateMethod: "updateUIView",
                          documentation: swiftUI + "uiviewrepresentable/updateuiview(_:context:)"),
        ViewRepresentable(protocolName: "NSViewRepresentable", makeMethod: "makeNSView", updateMethod: "updateNSView",
                          documentation: swiftUI + "nsviewrepresentable/updatensview(_:context:)"),
        ViewRepresentable(protocolName: "UIViewControllerRepresentable", makeMethod: "makeUIViewController",
                          updateMethod: "updateUIViewController",
                          documentation: swiftUI + "uiviewcontrollerrepresentable/updateuiviewcontroller(_:context:)"),
        ViewRepresentable(protocolName: "NSViewControllerRepresentable", makeMethod: "makeNSViewController",
                          updateMethod: "updateNSViewController",
                          documentation: swiftUI + "nsviewcontrollerrepresentable/updatensviewcontroller(_:context:)"),
    ]

    /// Views and modifiers whose content closure builds a menu, shown only while the menu is open: `Menu(content:label:)`
    /// ("a control for presenting a menu of actions") and `contextMenu(menuItems:)` / `contextMenu(menuItems:preview:)`.
    /// A view in that content appears when the menu opens and disappears when it closes, so work started on its
    /// appearance is meant for one opening, and a `.task` there would be cancelled as the menu closes. The value is
    /// the label of the content closure (nil: the first trailing closure); the documentation is cited for each.
    public static let menuContentBuilders: [(name: String, contentLabel: String?, documentation: String)] = [
        ("Menu", "content", swiftUI + "menu"),
        ("contextMenu", "menuItems", swiftUI + "view/contextmenu(menuitems:)"),
    ]

    /// Containers whose content lives as long as the container (while the `if`/`switch` branch around it holds):
    /// they neither present nor push nor repeat their content, nor build it lazily. A view built only in these,
    /// up to a scene's root, appears once per window (`ViewConstruction.inContainersOnly`). The scene builders are
    /// the ones whose content is a window's root view: `WindowGroup` ("a scene that presents a group of identically
    /// structured windows"), `Window`, `DocumentGroup`, `Settings`, `UtilityWindow`. Not here: `TabView` (a tab's
    /// content appears each time the tab is picked), lazy stacks and lists (rows come and go as they scroll), the
    /// presentation modifiers and `NavigationLink` (shown and dismissed again and again), `MenuBarExtra` (menu content).
    public static let lifetimeContainers: [(name: String, documentation: String)] = [
        ("Group", swiftUI + "group"), ("VStack", swiftUI + "vstack"), ("HStack", swiftUI + "hstack"), ("ZStack", swiftUI + "zstack"),
        ("ScrollView", swiftUI + "scrollview"), ("GeometryReader", swiftUI + "geometryreader"),
        ("NavigationStack", swiftUI + "navigationstack"), ("NavigationView", swiftUI + "navigationview"),
        ("WindowGroup", swiftUI + "windowgroup"), ("Window", swiftUI + "window"), ("DocumentGroup", swiftUI + "documentgroup"),
        ("Settings", swiftUI + "settings"), ("UtilityWindow", swiftUI + "utilitywindow"),
    ]

    /// The UIKit and AppKit types that host a SwiftUI view as the root of a controller or a platform view:
    /// `UIHostingController.init(rootView:)`, `NSHostingController.init(rootView:)`, `NSHostingView.init(rootView:)`
    /// (https://developer.apple.com/documentation/swiftui/uihostingcontroller). The view lives as long as what hosts it.
    public static let hostingTypes: Set<String> = ["UIHostingController", "NSHostingController", "NSHostingView", "_UIHostingView"]

    /// The protocols whose types build scenes (`App`: "a type that represents the structure and behavior of an app";
    /// `Scene`): the views their bodies build are windows' roots.
    public static let sceneProtocols: Set<String> = ["App", "Scene"]

    /// Platform view controllers whose content is given once, when they are built, and cannot be changed afterwards:
    /// `SFSafariViewController` takes its URL only in `init(url:configuration:)` (it has no URL property to set);
    /// `UIActivityViewController` takes its items only in `init(activityItems:applicationActivities:)`;
    /// `MFMailComposeViewController`: "you must not change the contents of the message after presenting the interface".
    /// A representable that builds one cannot apply a new input in `update…`; what could change is only its identity.
    public static let fixedAtCreationControllers: [(name: String, documentation: String)] = [
        ("SFSafariViewController", "https://developer.apple.com/documentation/safariservices/sfsafariviewcontroller/init(url:configuration:)"),
        ("UIActivityViewController", "https://developer.apple.com/documentation/uikit/uiactivityviewcontroller/init(activityitems:applicationactivities:)"),
        ("MFMailComposeViewController", "https://developer.apple.com/documentation/messageui/mfmailcomposeviewcontroller"),
    ]

    public static func representable(conformingTo inherited: [String]) -> ViewRepresentable? {
        representables.first { inherited.contains($0.protocolName) }
    }
}
