/// An opaque RGB colour for a line or circle, written in documents as `"#rrggbb"` (DESIGN.md §3).
public struct LineColor: Hashable, Sendable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb` (hex digits in either case). Anything else is nil.
    public init?(hex text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return nil }
        var components: [UInt8] = []
        for offset in stride(from: 1, to: 7, by: 2) {
            guard let high = Self.hexDigit(bytes[offset]), let low = Self.hexDigit(bytes[offset + 1]) else {
                return nil
            }
            components.append(high << 4 | low)
        }
        self.init(red: components[0], green: components[1], blue: components[2])
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `#rrggbb`, lower case, as documents store it.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for component in [red, green, blue] {
            text.append(digits[Int(component >> 4)])
            text.append(digits[Int(component & 0xF)])
        }
        return text
    }

    public var description: String { hex }

    /// The colour of hue `degrees` (any finite value; taken modulo 360) at full saturation and brightness, as
    /// `UIColor(hue:saturation:1 brightness:1 alpha:1)` gives it. A non-finite hue is red (hue 0).
    public static func hue(_ degrees: Double) -> LineColor {
        var h = degrees.isFinite ? degrees.truncatingRemainder(dividingBy: 360) : 0
        if h < 0 { h += 360 }
        let sector = h / 60
        let fraction = sector - sector.rounded(.down)
        func byte(_ value: Double) -> UInt8 { UInt8((Swift.min(1, Swift.max(0, value)) * 255).rounded()) }
        let (r, g, b): (Double, Double, Double)
        switch Int(sector) {
        case 0: (r, g, b) = (1, fraction, 0)
        case 1: (r, g, b) = (1 - fraction, 1, 0)
        case 2: (r, g, b) = (0, 1, fraction)
        case 3: (r, g, b) = (0, 1 - fraction, 1)
        case 4: (r, g, b) = (fraction, 0, 1)
        default: (r, g, b) = (1, 0, 1 - fraction)
        }
        return LineColor(red: byte(r), green: byte(g), blue: byte(b))
    }

    public static let black = LineColor(red: 0, green: 0, blue: 0)
    public static let red = LineColor(red: 0xff, green: 0, blue: 0)
    /// A darker green than the selection highlight (#00ff00), so a green line and a selected line look different.
    public static let green = LineColor(red: 0, green: 0x80, blue: 0)
    public static let blue = LineColor(red: 0, green: 0, blue: 0xff)
    /// A deep yellow that still reads on the white canvas.
    public static let yellow = LineColor(red: 0xff, green: 0xcc, blue: 0)

    /// The colours the colour menu offers, by their menu titles, in menu order.
    public static let palette: [(name: String, color: LineColor)] = [
        ("Black", .black), ("Red", .red), ("Green", .green), ("Blue", .blue), ("Yellow", .yellow),
    ]
}
