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

    public static func representable(conformingTo inherited: [String]) -> ViewRepresentable? {
        representables.first { inherited.contains($0.protocolName) }
    }
}
