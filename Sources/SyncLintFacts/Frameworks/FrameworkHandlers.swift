/// Handlers that run again each time their event happens, and closures that run in place before the call that
/// takes them returns. Part of the reviewed framework table (see `FrameworkCalls`), each entry citing Apple's
/// documentation (or the Swift book, for the language's property observers). Plain data: no syntax.

/// An API whose closure runs once per event (a tap, a change of a value, a published value, a notification), so
/// work it starts without keeping a handle can overlap with the work an earlier event started.
public struct RepeatingHandler: Codable, Sendable, Hashable {
    /// How the API is written in Apple's documentation: `View.onChange(of:initial:_:)`.
    public let symbol: String
    /// The method or type name a call site ends with: `onChange`, `Button`.
    public let method: String
    /// The label of the argument that is the handler (`action`, `set`); nil when every closure the API takes is
    /// the handler (`onChange(of:perform:)`, trailing or not). A closure under another label (`Button`'s `label:`)
    /// is not the handler.
    public let closureLabel: String?
    /// Whether the handler is the API's first closure parameter, so a first trailing closure is it.
    public var isFirstClosure = true
    /// Whether each run brings a new value to work on (the changed value, the emitted one, the text written or
    /// submitted): an earlier run's result is then for an older value. A tap or a notification without one repeats
    /// the same work, whose results agree whichever lands last.
    public var carriesValue = true
    /// Whether the new value reaches the handler only as its closure's parameter (a publisher's output), not as
    /// state the handler could read instead: a handler that ignores its parameter then repeats the same work.
    public var valueOnlyInParameter = false
    /// What makes it run again, in the words a message uses ("each tap", "each change").
    public let runsOn: String
    public let documentation: String
}

public enum FrameworkHandlers {
    private static let swiftUI = "https://developer.apple.com/documentation/swiftui/"
    private static let foundation = "https://developer.apple.com/documentation/foundation/"

    /// The table. A handler is matched by method name and by where the closure is passed.
    public static let repeatingHandlers: [RepeatingHandler] = [
        // "Adds a modifier for this view that fires an action when a specific value changes."
        RepeatingHandler(symbol: "View.onChange(of:initial:_:)", method: "onChange", closureLabel: nil,
                         runsOn: "each change of the value", documentation: swiftUI + "view/onchange(of:initial:_:)"),
        // "Adds an action to perform when this view detects data emitted by the given publisher."
        // "action: The action to perform when an event is emitted by publisher. The event emitted by publisher is
        // passed as a parameter to action": the value is the closure's parameter.
        RepeatingHandler(symbol: "View.onReceive(_:perform:)", method: "onReceive", closureLabel: nil, valueOnlyInParameter: true,
                         runsOn: "each value the publisher emits", documentation: swiftUI + "view/onreceive(_:perform:)"),
        // "Adds an action to perform when this view recognizes a tap gesture."
        RepeatingHandler(symbol: "View.onTapGesture(count:perform:)", method: "onTapGesture", closureLabel: nil,
                         carriesValue: false, runsOn: "each tap", documentation: swiftUI + "view/ontapgesture(count:perform:)"),
        // "Adds an action to perform when the user submits a value to this view."
        RepeatingHandler(symbol: "View.onSubmit(of:_:)", method: "onSubmit", closureLabel: nil,
                         runsOn: "each submission", documentation: swiftUI + "view/onsubmit(of:_:)"),
        // A button's action: "The action to perform when the user triggers the button." The first trailing
        // closure is the action; `label:` is the view.
        RepeatingHandler(symbol: "Button.init(action:label:)", method: "Button", closureLabel: "action",
                         carriesValue: false, runsOn: "each tap", documentation: swiftUI + "button/init(action:label:)"),
        // A binding's setter runs on every write through the binding (a text field's each keystroke).
        RepeatingHandler(symbol: "Binding.init(get:set:)", method: "Binding", closureLabel: "set", isFirstClosure: false,
                         runsOn: "each write through the binding", documentation: swiftUI + "binding/init(get:set:)"),
        // "Adds an entry to the notification center to receive notifications that passed to the provided block."
        RepeatingHandler(symbol: "NotificationCenter.addObserver(forName:object:queue:using:)", method: "addObserver",
                         closureLabel: "using", carriesValue: false, runsOn: "each notification",
                         documentation: foundation + "notificationcenter/addobserver(forname:object:queue:using:)"),
    ]

    /// Property observers: "`didSet` is called immediately after the new value is stored", on every set
    /// (https://docs.swift.org/swift-book/documentation/the-swift-programming-language/properties/#Property-Observers).
    public static let propertyObservers: Set<String> = ["didSet", "willSet"]
    public static let propertyObserversRunOn = "each set of the property"

    /// The handler whose closure a call of `method` runs, when the closure is passed under `label` (nil for a
    /// trailing closure) in a call whose other arguments are labelled `argumentLabels`. The first trailing closure is
    /// the handler when the handler is the API's first closure parameter and is not also passed by its label
    /// (`Button("Save") { ... }` is the action; in `Button(action: save) { ... }` it is the label).
    public static func repeatingHandler(method: String, label: String?, isFirstTrailing: Bool,
                                        argumentLabels: [String]) -> RepeatingHandler? {
        guard let entry = byMethod[method] else { return nil }
        // Every closure of a modifier such as `onChange(of:perform:)` is its handler.
        guard let handlerLabel = entry.closureLabel else { return entry }
        if isFirstTrailing { return entry.isFirstClosure && !argumentLabels.contains(handlerLabel) ? entry : nil }
        return handlerLabel == label ? entry : nil
    }

    static let byMethod: [String: RepeatingHandler] = Dictionary(repeatingHandlers.map { ($0.method, $0) },
                                                                 uniquingKeysWith: { first, _ in first })

    /// Closures that run in place, before the call that takes them returns, on the caller's actor: a write in one
    /// is a write of the code around it, at that point of its control flow. `withAnimation(_:_:)`: "Returns the
    /// result of recomputing the view's body with the provided animation" (it runs the body at once,
    /// https://developer.apple.com/documentation/swiftui/withanimation(_:_:)).
    public static let inPlaceClosureCallees: Set<String> = ["withAnimation", "withTransaction"]

    /// The standard library's sequence algorithms call their closure before they return (`forEach`, `map`, ...).
    public static let sequenceAlgorithms: Set<String> = ["forEach", "map", "compactMap", "flatMap", "filter", "reduce", "sorted",
                                                         "first", "contains", "allSatisfy", "min", "max"]

    /// Whether a closure passed to `callee` runs in place, where the code around the call runs.
    public static func runsInPlace(_ callee: String) -> Bool {
        sequenceAlgorithms.contains(callee) || inPlaceClosureCallees.contains(callee)
    }
}
