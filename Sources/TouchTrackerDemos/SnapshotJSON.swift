/// A JSON value for scene snapshots, written with keys in the order given (so snapshots diff well) and numbers
/// rounded to 4 decimals (so they read well and do not show floating-point dust).
public indirect enum SnapshotJSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([SnapshotJSON])
    case object([(String, SnapshotJSON)])

    public static func == (lhs: SnapshotJSON, rhs: SnapshotJSON) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// The value as compact JSON text; top-level objects put each member on its own line.
    public var text: String {
        var out = ""
        write(to: &out, topLevel: true)
        return out
    }

    /// UTF-8 bytes of `text` plus a final newline.
    public var bytes: [UInt8] { Array((text + "\n").utf8) }

    private func write(to out: inout String, topLevel: Bool = false) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value): out += Self.format(value)
        case .string(let value): Self.writeString(value, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += topLevel ? ",\n " : ", " }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += topLevel ? ",\n " : ", " }
                Self.writeString(key, to: &out)
                out += ": "
                // Arrays of objects directly under the top level get one element per line too.
                if topLevel, case .array(let items) = value, items.contains(where: \.isObject) {
                    out += "["
                    for (itemIndex, item) in items.enumerated() {
                        out += itemIndex > 0 ? ",\n  " : "\n  "
                        item.write(to: &out)
                    }
                    out += "]"
                } else {
                    value.write(to: &out)
                }
            }
            out += "}"
        }
    }

    private var isObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// Rounded to 4 decimals; whole numbers without a fraction; non-finite numbers (never expected) as null.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 10_000).rounded() / 10_000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return "\(rounded)"
    }

    private static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
