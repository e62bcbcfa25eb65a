/// A window size and position as X11 spells it: `WxH+X+Y` (the position may be left out).
public struct WindowGeometry: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public var x: Int
    public var y: Int
    /// Whether the user asked for this geometry (window managers honour a user position).
    public var isExplicit: Bool

    public static let `default` = WindowGeometry(width: 800, height: 600, x: 0, y: 0, isExplicit: false)

    public init(width: Int, height: Int, x: Int, y: Int, isExplicit: Bool) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.isExplicit = isExplicit
    }

    /// Parses `WxH`, `WxH+X+Y` or `WxH-X-Y` (offsets may be negative). Nil when the text is not a geometry.
    public init?(parsing text: String) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func number() -> Int? {
            let start = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            guard index > start, index - start <= 6 else { return nil }
            return Int(String(String.UnicodeScalarView(scalars[start..<index])))
        }
        func offset() -> Int? {
            guard index < scalars.count, scalars[index] == "+" || scalars[index] == "-" else { return nil }
            let negative = scalars[index] == "-"
            index += 1
            guard let value = number() else { return nil }
            return negative ? -value : value
        }
        guard let width = number(), index < scalars.count, scalars[index] == "x" || scalars[index] == "X" else {
            return nil
        }
        index += 1
        guard let height = number(), width > 0, height > 0 else { return nil }
        var x = 0
        var y = 0
        if index < scalars.count {
            guard let parsedX = offset(), let parsedY = offset(), index == scalars.count else { return nil }
            x = parsedX
            y = parsedY
        }
        self.init(width: width, height: height, x: x, y: y, isExplicit: true)
    }
}
