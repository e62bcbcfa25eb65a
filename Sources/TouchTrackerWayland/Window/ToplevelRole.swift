/// What makes the window's surface a desktop window: xdg-shell directly (`XdgToplevel`) or through libdecor
/// (`DecoratedToplevel`). Either reports the compositor's configures and close as `WaylandWindow.Change`s.
protocol ToplevelRole: AnyObject {
    /// How the window is decorated, for `--verbose`.
    var decorationDescription: String { get }
    func setMaximized()
    /// A new title (the drawing was saved under another name).
    func setTitle(_ title: String)
    /// The first commit, with no buffer.
    func map()
}
