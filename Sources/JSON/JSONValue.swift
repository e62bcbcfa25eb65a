/// A JSON value, as `JSONParser` reads it and `JSONWriter` writes it. TouchTracker parses its own JSON so that every error can name the exact place and
/// problem, and so that numbers, booleans and strings are never confused (Foundation bridges them on Linux).
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in file order; later duplicates win on lookup.
    case object([(key: String, value: JSONValue)])

    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// A short name of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s)
        case .array(let a): hasher.combine(a)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }
}
