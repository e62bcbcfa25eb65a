import TouchKit

/// The popup menu as a view above the canvas: touches on it never reach the canvas or its recognizers (as UIKit's
/// menu lives in its own window), the item under the finger is highlighted, and lifting on an item activates it.
public final class MenuView: View {
    public private(set) var menu: PopupMenu
    /// Called with the item activated by a touch.
    var onActivate: ((MenuItem) -> Void)?
    /// Called when the highlight changes, so the canvas can repaint the menu.
    var onChange: (() -> Void)?
    private var trackingTouch: Touch?

    init(menu: PopupMenu) {
        self.menu = menu
        super.init(frame: menu.frame)
        isMultipleTouchEnabled = false
    }

    /// Highlights the item at `point` (window coordinates), or none.
    func highlight(at point: Point) {
        setHighlight(menu.item(at: point))
    }

    /// The pointer hovers at `point`: the item under it is highlighted. Off the menu the highlight stays where it
    /// is, so a pointer resting elsewhere (or a motion the window system reports as the menu appears) does not
    /// take away the item the keyboard highlighted.
    func hover(at point: Point) {
        if let index = menu.item(at: point) { setHighlight(index) }
    }

    func setHighlight(_ index: Int?) {
        guard index != menu.highlightedIndex else { return }
        menu.highlightedIndex = index
        onChange?()
    }

    /// Ticks `items` (the options changed while the menu is open).
    func setChecked(_ items: [MenuItem]) {
        guard items != menu.checkedItems else { return }
        menu.checkedItems = items
        onChange?()
    }

    func moveHighlight(by step: Int) {
        menu.moveHighlight(by: step)
        onChange?()
    }

    public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        guard trackingTouch == nil, let touch = touches.first else { return }
        trackingTouch = touch
        highlight(at: touch.location(in: nil))
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        guard let touch = trackingTouch, touches.contains(touch) else { return }
        highlight(at: touch.location(in: nil))
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        guard let touch = trackingTouch, touches.contains(touch) else { return }
        trackingTouch = nil
        if let index = menu.item(at: touch.location(in: nil)) { onActivate?(menu.items[index]) }
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        guard let touch = trackingTouch, touches.contains(touch) else { return }
        trackingTouch = nil
        setHighlight(nil)
    }
}
