import TouchKit
import TouchTracker

/// Gathers the axis events of one `wl_pointer.frame` into one scroll: wheel clicks or smooth travel, both axes.
///
/// A frame says where its scroll came from (`axis_source`), how far it went in surface units (`axis`, which are
/// drawing units already) and, for a wheel, in clicks: `axis_value120` (seat version 8, 120 a click, fractions
/// from a high-resolution wheel) or `axis_discrete` (versions 5 to 7, whole clicks). So:
/// - an axis with clicks is that many notches, whatever its `axis` value (the compositor's own step, 10 on weston
///   and mutter, 15 on KWin, which the app does not rely on);
/// - a wheel's axis without clicks is left out: a compositor without `axis_value120` sends a high-resolution
///   wheel's travel between clicks so, and each click still comes with its discrete step, so counting both would
///   scroll twice;
/// - anything else (a touchpad's fingers, button scrolling, the kinetic tail after the fingers lift, or a source
///   not said) is `distance`, the surface units as they are.
///
/// `axis_stop` (the fingers lifted) ends a touchpad's scroll but moves nothing; the view has no kinetic scrolling
/// of its own to stop, and the compositor sends its own tail as more finger-source `axis` events.
struct ScrollFrame {
    /// `wl_pointer.axis`.
    enum Axis: UInt32 {
        case vertical = 0
        case horizontal = 1
    }

    /// `wl_pointer.axis_source`.
    enum Source: UInt32 {
        case wheel = 0
        case finger = 1
        case continuous = 2
        /// A wheel tilted sideways (seat version 6).
        case wheelTilt = 3

        var isWheel: Bool { self == .wheel || self == .wheelTilt }
    }

    private var source: Source?
    /// The `axis` values, summed.
    private var travel = Point.zero
    /// Clicks per axis, when the frame said any (`axis_value120` over 120, or `axis_discrete`).
    private var clicks: (x: Double?, y: Double?) = (nil, nil)

    /// Whether the frame holds no scroll yet.
    var isEmpty: Bool { source == nil && travel == .zero && clicks.x == nil && clicks.y == nil }

    mutating func setSource(_ source: Source) { self.source = source }

    mutating func add(_ value: Double, along axis: Axis) {
        switch axis {
        case .vertical: travel.y += value
        case .horizontal: travel.x += value
        }
    }

    mutating func add(clicks count: Double, along axis: Axis) {
        switch axis {
        case .vertical: clicks.y = (clicks.y ?? 0) + count
        case .horizontal: clicks.x = (clicks.x ?? 0) + count
        }
    }

    /// The frame's scroll, and a new frame begun; nil when it moved nothing.
    mutating func finish() -> (notches: Point, distance: Point)? {
        defer { self = ScrollFrame() }
        var notches = Point.zero
        var distance = Point.zero
        func resolve(clicks: Double?, travel: Double) -> (notches: Double, distance: Double) {
            if let clicks { return (clicks, 0) }
            if source?.isWheel == true { return (0, 0) }
            return (0, travel)
        }
        (notches.x, distance.x) = resolve(clicks: clicks.x, travel: travel.x)
        (notches.y, distance.y) = resolve(clicks: clicks.y, travel: travel.y)
        guard notches != .zero || distance != .zero else { return nil }
        return (notches, distance)
    }
}

extension ScrollInput {
    /// The scroll as `--verbose` logs it: "scroll at (200.0, 100.0): notches (0.0, 1.0), distance (0.0, 0.0), Ctrl".
    var logLine: String {
        "scroll at \(location): notches \(notches), distance \(distance)" + (control ? ", Ctrl" : "")
            + (shift ? ", Shift" : "")
    }
}
