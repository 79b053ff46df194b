/// A non-Swift file the index reads: an entitlements plist or a Core Data model's `contents` XML.
public struct ResourceFile: Sendable {
    public enum Kind: String, Sendable {
        case entitlements
        case coreDataModel
        /// An Xcode project's `project.pbxproj`: its targets and their files.
        case xcodeProject
    }

    public let path: String
    public let kind: Kind
    public let text: String

    public init(path: String, kind: Kind, text: String) {
        self.path = path
        self.kind = kind
        self.text = text
    }
}
