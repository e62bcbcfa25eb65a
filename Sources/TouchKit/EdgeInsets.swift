/// Distances in from each edge of a rectangle (UIKit's `UIEdgeInsets`). A scroll view's `contentInset` adds them
/// around its content as room to scroll into; an infinite inset means the content has no edge on that side.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double, left: Double, bottom: Double, right: Double) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }

    public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)

    /// Room without end on every side: a scroll view with this `contentInset` scrolls to any offset, negative ones
    /// included (a drawing that has no edge).
    public static let unbounded = EdgeInsets(top: .infinity, left: .infinity, bottom: .infinity, right: .infinity)
}
