import Foundation

/// What made a touch, as UIKit's `UITouch.TouchType` says: a finger on the screen, a pointer (a mouse's button) or
/// a stylus. Recognizers choose which they take (`GestureRecognizer.allowedTouchTypes`) and views tell them apart
/// (`Touch.type`).
public enum TouchType: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A finger on a touch screen (UIKit's `.direct`).
    case direct
    /// A pointer's button: the mouse or a touchpad's click (UIKit's `.indirectPointer`).
    case indirectPointer
    /// A stylus's tip (UIKit's `.pencil`).
    case pencil
    /// A stylus's eraser end, which UIKit has no word for: a tablet pen turned over.
    case eraser

    /// Whether a stylus made the touch, by either end.
    public var isStylus: Bool { self == .pencil || self == .eraser }

    public var description: String {
        switch self {
        case .direct: "finger"
        case .indirectPointer: "pointer"
        case .pencil: "pen"
        case .eraser: "eraser"
        }
    }
}

/// How a stylus leans, as tablets report it: the angle in degrees from upright towards the screen's +x and +y axes
/// (XI2's "Abs Tilt X/Y", Wayland's `zwp_tablet_tool_v2.tilt`), each within -90...90.
public struct StylusTilt: Sendable, Hashable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// UIKit's `altitudeAngle`: π/2 with the stylus upright, towards 0 as it lies flat.
    public var altitudeAngle: Double {
        let lean = (tangent(x) * tangent(x) + tangent(y) * tangent(y)).squareRoot()
        return Double.pi / 2 - atan(lean)
    }

    /// UIKit's `azimuthAngle` in the window's coordinates: the direction the stylus leans towards, in radians from
    /// +x (0 when upright).
    public var azimuthAngle: Double {
        let (tx, ty) = (tangent(x), tangent(y))
        return tx == 0 && ty == 0 ? 0 : atan2(ty, tx)
    }

    /// The tangent of an angle in degrees, held short of ±90° (a stylus flat on the screen) and 0 for a tilt that
    /// is not a number.
    private func tangent(_ degrees: Double) -> Double {
        let clamped = Swift.max(-89.9, Swift.min(89.9, degrees.isFinite ? degrees : 0))
        return tan(clamped * .pi / 180)
    }
}
