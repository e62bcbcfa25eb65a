/// The document: every complete line, oldest first (the last one is on top), the circles (drawn above the lines,
/// oldest first), and the drawing options saved with it.
public struct Drawing: Hashable, Sendable {
    /// The document format version this build writes.
    public static let formatVersion = 1

    public var lines: [Line]
    /// Two-finger circles (DESIGN.md §2.15). Written only when there are some.
    public var circles: [Circle]
    /// Written only when some option differs from its default.
    public var options: DrawingOptions

    public init(lines: [Line] = [], circles: [Circle] = [], options: DrawingOptions = DrawingOptions()) {
        self.lines = lines
        self.circles = circles
        self.options = options
    }

    /// Every shape bottom to top: the lines, then the circles drawn above them.
    public var shapes: [Shape] { lines.map(Shape.line) + circles.map(Shape.circle) }
}

/// The book's challenges, each off by default and saved with the document (DESIGN.md §2.12–16, §3).
public struct DrawingOptions: Hashable, Sendable {
    /// Two fingers that go down within 0.1 s of each other draw a circle.
    public var circles: Bool
    /// A line's colour follows its angle (hue = angle).
    public var colorByAngle: Bool
    /// A line's width follows the finger's speed (faster is thinner).
    public var widthBySpeed: Bool
    /// A line's width follows the finger's pressure, when the device reports it (harder is wider).
    public var widthByPressure: Bool
    /// While a stylus is near, a finger that goes down is taken for the palm and ignored (`PalmRejection`). On
    /// unless turned off.
    public var palmRejection: Bool
    /// Fingers on the screen scroll and zoom the view and only a pen draws (`CanvasNavigation.fingersNavigate`). Off
    /// unless turned on, once a pen has been seen.
    public var fingersNavigate: Bool
    /// The colour of new lines and circles (when colour by angle is off).
    public var color: LineColor

    public init(
        circles: Bool = false, colorByAngle: Bool = false, widthBySpeed: Bool = false, widthByPressure: Bool = false,
        palmRejection: Bool = true, fingersNavigate: Bool = false, color: LineColor = .black
    ) {
        self.fingersNavigate = fingersNavigate
        self.circles = circles
        self.colorByAngle = colorByAngle
        self.widthBySpeed = widthBySpeed
        self.widthByPressure = widthByPressure
        self.palmRejection = palmRejection
        self.color = color
    }

    public var isDefault: Bool { self == DrawingOptions() }
}
