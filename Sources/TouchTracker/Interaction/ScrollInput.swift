import TouchKit

/// A wheel or touchpad scroll as the window system reported it, in the session's terms: what the view of the
/// drawing does with it (scroll, or zoom with Ctrl) is `DrawingController.scroll(_:)`'s.
///
/// Directions follow the window systems' own (X11's buttons 4 to 7 and smooth-scroll valuators, Wayland's
/// `wl_pointer.axis`): +y is a scroll down (the view moves down the drawing, the drawing up the window), +x a
/// scroll right.
public struct ScrollInput: Hashable, Sendable {
    /// Where the pointer is, in window units (DESIGN.md §2a).
    public var location: Point
    /// Wheel clicks (notches): one per click of a mouse wheel, fractions from a high-resolution wheel (Wayland's
    /// `axis_value120` over 120, X11's valuator over its increment). Zero when the travel is `distance`.
    public var notches: Point
    /// Smooth travel in window units: a touchpad's fingers, and the kinetic tail the desktop sends after them. Zero
    /// when the travel is `notches`.
    public var distance: Point
    /// Ctrl held: the scroll zooms about `location`.
    public var control: Bool
    /// Shift held: a wheel's vertical clicks scroll sideways (a touchpad's travel keeps its own direction).
    public var shift: Bool

    public init(
        location: Point, notches: Point = .zero, distance: Point = .zero, control: Bool = false, shift: Bool = false
    ) {
        self.location = location
        self.notches = notches
        self.distance = distance
        self.control = control
        self.shift = shift
    }
}
