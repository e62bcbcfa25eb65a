/// A rectangle on screen that draws nothing by itself and receives the touches that begin in it.
///
/// Geometry follows UIKit: `center` is in the superview's coordinates, `bounds` in the view's own, and `transform`
/// is applied about the centre. `frame` is derived from the three.
open class View: Responder {
    /// The parent view. Not a weak reference, for speed (weak references make every retain of a view slow): the
    /// parent owns its subviews, and clears this pointer when a subview leaves it or when it goes away itself.
    public var superview: View? { superviewRef?.takeUnretainedValue() }
    private var superviewRef: Unmanaged<View>?
    public private(set) var subviews: [View] = []
    public var bounds: Rect
    public var center: Point
    public var transform: AffineTransform = .identity
    /// Views with interaction disabled (and their subviews) are skipped by hit testing.
    public var isUserInteractionEnabled = true
    /// Whether the view accepts more than one touch at a time. When false, extra fingers are not delivered to the
    /// view itself, though its gesture recognizers still receive them.
    public var isMultipleTouchEnabled = false
    public var isHidden = false
    public private(set) var gestureRecognizers: [GestureRecognizer] = []

    public init(frame: Rect = .zero) {
        self.bounds = Rect(origin: .zero, size: frame.size)
        self.center = frame.center
        super.init()
    }

    /// The view's rectangle in its superview's coordinates (the bounding box, when transformed).
    public var frame: Rect {
        get {
            let corners = [
                Point(x: bounds.minX, y: bounds.minY), Point(x: bounds.maxX, y: bounds.minY),
                Point(x: bounds.minX, y: bounds.maxY), Point(x: bounds.maxX, y: bounds.maxY),
            ].map(convertToSuperview)
            var rect = Rect.null
            for corner in corners { rect = rect.union(Rect(origin: corner, size: .zero)) }
            return rect
        }
        set {
            bounds.size = newValue.size
            center = newValue.center
        }
    }

    open override var next: Responder? { superview }

    override var owningWindow: Window? { window }

    /// The window at the root of this view's tree.
    public var window: Window? {
        var view: View? = self
        while let current = view {
            if let window = current as? Window { return window }
            view = current.superview
        }
        return nil
    }

    // MARK: Tree

    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Puts `view` among the subviews at `index`, taking it from its superview first. A view that stays in the same
    /// window (brought to the front, or moved to another container) keeps its touches and its recognizers' gestures,
    /// as in UIKit, which tells a view it leaves only when its window changes; one that leaves its window has them
    /// cancelled.
    public func insertSubview(_ view: View, at index: Int) {
        // A view cannot hold itself or one of its ancestors (UIKit raises): the tree would become a loop.
        guard !isDescendant(of: view) else { return }
        if let parent = view.superview {
            if let window = view.window, window === self.window {
                parent.subviews.removeAll { $0 === view }
            } else {
                view.removeFromSuperview()
            }
        }
        subviews.insert(view, at: Swift.min(Swift.max(0, index), subviews.count))
        view.superviewRef = Unmanaged.passUnretained(self)
    }

    /// Moves `view`, one of the subviews, above all the others (drawn last, hit first); its gestures go on.
    public func bringSubviewToFront(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count)
    }

    /// Moves `view`, one of the subviews, below all the others; its gestures go on.
    public func sendSubviewToBack(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    deinit {
        for subview in subviews { subview.superviewRef = nil }
    }

    public func removeFromSuperview() {
        guard let parent = superview else { return }
        window?.viewWillLeave(self)
        parent.subviews.removeAll { $0 === self }
        superviewRef = nil
    }

    /// Whether `view` is this view or one of its descendants.
    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    // MARK: Gesture recognizers

    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        gestureRecognizers.append(recognizer)
        recognizer.view = self
    }

    /// Asked (before the recognizer's delegate) when a recognizer on this view is about to begin. Default true.
    open func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool { true }

    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard recognizer.view === self else { return }
        window?.recognizerWillLeave(recognizer)
        gestureRecognizers.removeAll { $0 === recognizer }
        recognizer.view = nil
    }

    // MARK: Hit testing

    /// Whether `point`, in this view's coordinates, is inside the view.
    open func point(inside point: Point) -> Bool {
        bounds.contains(point)
    }

    /// The deepest visible, interactive descendant (or self) containing `point`, in this view's coordinates.
    /// Later subviews are in front, so they are asked first.
    open func hitTest(_ point: Point) -> View? {
        guard !isHidden, isUserInteractionEnabled, point.isFinite, self.point(inside: point) else { return nil }
        for subview in subviews.reversed() {
            if let hit = subview.hitTest(subview.convertFromSuperview(point)) { return hit }
        }
        return self
    }

    // MARK: Coordinate conversion

    // Untransformed, a point moves by the offset between the two centres, worked out first: a view placed where
    // its superview's coordinates and its own agree (the usual full-window view) then adds exactly zero, so a
    // finger's 0.1 stays 0.1 rather than coming back as 0.1 - 400 + 400 = 0.10000000000002274.
    // Scaled without rotation (a zoom), the view's origin in the superview is likewise worked out first: a view
    // whose centre is its bounds' centre times the scale (as a scroll view lays out the view it zooms) has its
    // origin at exactly zero, so a point is only multiplied or divided by the scale, each rounded once.
    func convertToSuperview(_ point: Point) -> Point {
        if transform.isIdentity { return point + (center - bounds.center) }
        if let origin = scaledOrigin {
            return Point(x: point.x * transform.a + origin.x, y: point.y * transform.d + origin.y)
        }
        return transform.apply(to: point - bounds.center) + center
    }

    func convertFromSuperview(_ point: Point) -> Point {
        if transform.isIdentity { return point + (bounds.center - center) }
        if let origin = scaledOrigin {
            return Point(x: (point.x - origin.x) / transform.a, y: (point.y - origin.y) / transform.d)
        }
        return transform.inverted().apply(to: point - center) + bounds.center
    }

    /// Where the point (0, 0) of a view scaled without rotation lands in its superview; nil for other transforms.
    private var scaledOrigin: Point? {
        let t = transform
        guard t.b == 0, t.c == 0, t.a != 0, t.d != 0, t.a.isFinite, t.d.isFinite else { return nil }
        return Point(x: center.x + t.tx - bounds.midX * t.a, y: center.y + t.ty - bounds.midY * t.d)
    }

    /// From the coordinates of the root of this view's tree (the window's) to this view's. Walks up without
    /// retaining or allocating: conversions run for every touch move.
    func convertFromRoot(_ point: Point) -> Point {
        guard let parent = superviewRef else { return point }
        return convertFromSuperview(parent.takeUnretainedValue().convertFromRoot(point))
    }

    /// From this view's coordinates to its root's.
    func convertToRoot(_ point: Point) -> Point {
        guard let parent = superviewRef else { return point }
        let inParent = convertToSuperview(point)
        return parent.takeUnretainedValue().convertToRoot(inParent)
    }

    /// A vector (a difference of points) from root coordinates to this view's: only the transforms' linear parts.
    func vectorFromRoot(_ vector: Point) -> Point {
        guard let parent = superviewRef else { return vector }
        let inParent = parent.takeUnretainedValue().vectorFromRoot(vector)
        return transform.isIdentity ? inParent : transform.inverted().applyLinear(to: inParent)
    }

    /// A vector from this view's coordinates to its root's.
    func vectorToRoot(_ vector: Point) -> Point {
        guard let parent = superviewRef else { return vector }
        let inParent = transform.isIdentity ? vector : transform.applyLinear(to: vector)
        return parent.takeUnretainedValue().vectorToRoot(inParent)
    }

    /// Converts `point` from this view's coordinates to `view`'s (the window's when nil).
    public func convert(_ point: Point, to view: View?) -> Point {
        let inRoot = convertToRoot(point)
        guard let view else { return inRoot }
        return view.convertFromRoot(inRoot)
    }

    /// Converts `point` from `view`'s coordinates (the window's when nil) to this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        convertFromRoot(view?.convertToRoot(point) ?? point)
    }
}

extension AffineTransform {
    /// Applies only the linear part (no translation), as for a vector.
    func applyLinear(to v: Point) -> Point {
        Point(x: a * v.x + c * v.y, y: b * v.x + d * v.y)
    }
}
