/// Framework types that are values (structures or enumerations), not objects: built twice and stored twice, only the
/// later value is kept; nothing else can hold the first one by reference. Part of the reviewed framework table (see
/// `FrameworkCalls`). Foundation declares these as structures ("Date: a specific point in time", `struct Date`;
/// https://developer.apple.com/documentation/foundation/date, /url, /uuid, /data, /datecomponents, /decimal,
/// /indexpath, /urlcomponents, /urlrequest, /measurement, /attributedstring), and the Swift standard library its
/// basic types (https://developer.apple.com/documentation/swift/string, /array, /dictionary, /set, /int, /double).
public enum FrameworkValueTypes {
    public static let names: Set<String> = [
        "Date", "URL", "UUID", "Data", "DateComponents", "Decimal", "IndexPath", "URLComponents", "URLRequest", "Measurement",
        "AttributedString", "TimeZone", "Locale", "Calendar", "CharacterSet",
        "String", "Substring", "Array", "Dictionary", "Set", "Int", "Double", "Float", "Bool", "Character", "Optional", "Result",
    ]
}
