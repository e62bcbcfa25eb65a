/// A window size and position as X11 spells it: `WxH+X+Y` (the position may be left out). As `XParseGeometry`
/// reads it, `+X` counts from the screen's left edge and `-X` from its right edge to the window's (`-0` is flush
/// right), `+Y` and `-Y` likewise from the top and the bottom; an offset may itself be negative (`+-5`).
public struct WindowGeometry: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public var x: Int
    public var y: Int
    /// Whether the user asked for this geometry (window managers honour a user position).
    public var isExplicit: Bool
    /// Whether `x` counts from the screen's right edge, `y` from its bottom edge (`-X`, `-Y`).
    public var xFromRight = false
    public var yFromBottom = false
    /// Whether the numbers are drawing units (the default size and the window memory: the same size on screens of
    /// any scale), which an X11 window multiplies by its scale, rather than the screen's pixels (`--geometry`).
    public var isInDrawingUnits = false

    public static let `default`: WindowGeometry = {
        var geometry = WindowGeometry(width: 800, height: 600, x: 0, y: 0, isExplicit: false)
        geometry.isInDrawingUnits = true
        return geometry
    }()

    public init(width: Int, height: Int, x: Int, y: Int, isExplicit: Bool) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.isExplicit = isExplicit
    }

    /// Parses `WxH`, `WxH+X+Y` or `WxH-X-Y` (offsets may be negative, `+-5`). Nil when the text is not a geometry.
    public init?(parsing text: String) {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func number() -> Int? {
            let start = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            guard index > start, index - start <= 6 else { return nil }
            return Int(String(String.UnicodeScalarView(scalars[start..<index])))
        }
        func offset() -> (value: Int, fromEnd: Bool)? {
            guard index < scalars.count, scalars[index] == "+" || scalars[index] == "-" else { return nil }
            let fromEnd = scalars[index] == "-"
            index += 1
            var negative = false
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" {
                negative = scalars[index] == "-"
                index += 1
            }
            guard let value = number() else { return nil }
            return (negative ? -value : value, fromEnd)
        }
        guard let width = number(), index < scalars.count, scalars[index] == "x" || scalars[index] == "X" else {
            return nil
        }
        index += 1
        guard let height = number(), width > 0, height > 0 else { return nil }
        var x = (value: 0, fromEnd: false)
        var y = (value: 0, fromEnd: false)
        if index < scalars.count {
            guard let parsedX = offset(), let parsedY = offset(), index == scalars.count else { return nil }
            x = parsedX
            y = parsedY
        }
        self.init(width: width, height: height, x: x.value, y: y.value, isExplicit: true)
        xFromRight = x.fromEnd
        yFromBottom = y.fromEnd
    }

    /// The window's top-left on a screen of `screenWidth` x `screenHeight`, offsets from the right or bottom edge
    /// turned into ones from the left and top.
    public func placed(onScreenOf screenWidth: Int, _ screenHeight: Int) -> WindowGeometry {
        var placed = self
        if xFromRight { placed.x = screenWidth - width - x }
        if yFromBottom { placed.y = screenHeight - height - y }
        placed.xFromRight = false
        placed.yFromBottom = false
        return placed
    }
}
