/// The config file's `cloudkit` setting (`Configuration.cloudKit`): `on`/`off` force the CloudKit rules
/// either way; `auto` decides from the project's store setup and entitlements. The index reads it.
public enum CloudKitMode: String, Sendable {
    case on, off, auto
}
