/// Writes JSON text straight into UTF-8 bytes: the one string escaper and the one number format of the app, and a
/// whole `JSONValue` in one of three layouts.
public struct JSONWriter: Sendable {
    /// The text written so far.
    public var bytes: [UInt8]

    public init(bytes: [UInt8] = []) {
        self.bytes = bytes
    }

    /// How a whole value is laid out.
    public enum Layout: Sendable {
        /// No spaces at all: `{"a":1,"b":[1,2]}`.
        case compact
        /// A space after every comma and colon: `{"a": 1, "b": [1, 2]}`.
        case spaced
        /// Spaced, with each member of the top-level object (or element of a top-level array) on a line of its
        /// own, and an array of objects directly under the top level one object per line: made for text people
        /// diff (scene snapshots).
        case linePerMember
    }

    /// Appends `text` as it is (it must already be JSON: punctuation, member names known to need no escaping).
    public mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `text` as a JSON string: in quotes, with `"` and `\` escaped, a line feed as `\n` and every other
    /// control character as `\u00XX`. Everything else is written as it is (UTF-8).
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `value`: a whole number below 10^15 without a fraction, any other finite number as the shortest
    /// text that reads back as exactly `value`, and a number that is not finite (JSON has none) as `null`.
    public mutating func number(_ value: Double) {
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        if value == value.rounded(), abs(value) < 1e15 {
            appendInteger(Int64(value))
        } else {
            ShortestDecimal.append(value, to: &bytes)
        }
    }

    /// Appends a whole number.
    public mutating func integer(_ value: Int) {
        appendInteger(Int64(value))
    }

    /// The digits of `value`, made from the right on the stack and appended in one go (no String).
    private mutating func appendInteger(_ value: Int64) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var position = buffer.count
            var rest = value.magnitude
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if value < 0 {
                position -= 1
                buffer[position] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position...]))
        }
    }

    /// Appends a whole value laid out as `layout` says.
    public mutating func value(_ value: JSONValue, layout: Layout = .spaced) {
        write(value, layout: layout, depth: 0)
    }

    private mutating func write(_ value: JSONValue, layout: Layout, depth: Int) {
        let comma = layout == .compact ? "," : ", "
        // Between the top level's members (or elements) in the line-per-member layout.
        let topComma = layout == .linePerMember && depth == 0 ? ",\n " : comma
        switch value {
        case .null: raw("null")
        case .bool(let flag): raw(flag ? "true" : "false")
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let items):
            raw("[")
            for (index, item) in items.enumerated() {
                if index > 0 { raw(topComma) }
                write(item, layout: layout, depth: depth + 1)
            }
            raw("]")
        case .object(let members):
            raw("{")
            for (index, member) in members.enumerated() {
                if index > 0 { raw(topComma) }
                string(member.key)
                raw(layout == .compact ? ":" : ": ")
                if layout == .linePerMember, depth == 0, case .array(let items) = member.value,
                    items.contains(where: \.isObject)
                {
                    raw("[")
                    for (itemIndex, item) in items.enumerated() {
                        raw(itemIndex > 0 ? ",\n  " : "\n  ")
                        write(item, layout: layout, depth: depth + 2)
                    }
                    raw("]")
                } else {
                    write(member.value, layout: layout, depth: depth + 1)
                }
            }
            raw("}")
        }
    }
}

extension JSONValue {
    /// This value as JSON text in UTF-8.
    public func encoded(layout: JSONWriter.Layout = .spaced) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(self, layout: layout)
        return writer.bytes
    }

    var isObject: Bool {
        if case .object = self { true } else { false }
    }

    /// This value with every number rounded to `places` decimals (snapshots that should not show floating-point
    /// dust).
    public func roundingNumbers(toPlaces places: Int) -> JSONValue {
        switch self {
        case .number(let number):
            guard number.isFinite else { return self }
            var scale = 1.0
            for _ in 0..<places { scale *= 10 }
            return .number((number * scale).rounded() / scale)
        case .array(let items): return .array(items.map { $0.roundingNumbers(toPlaces: places) })
        case .object(let members):
            return .object(members.map { (key: $0.key, value: $0.value.roundingNumbers(toPlaces: places)) })
        default: return self
        }
    }
}
