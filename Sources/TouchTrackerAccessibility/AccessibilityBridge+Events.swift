internal import CGio
import TouchKit
import TouchTracker

/// The bridge's events: what clients are told as the window changes (children added and removed, names, the
/// selection, the focus, the menus, the window's activation, shapes that moved) and what it says to a screen reader.
extension AccessibilityBridge {
    /// Tells clients what the window shows now: children added or removed, a new selection, a new name.
    public func publish(_ newScene: AccessibleScene) {
        let old = scene.withLock { scene in
            let old = scene
            // What was last said stays the notice's name.
            scene = newScene
            scene.notice = old.notice
            return old
        }
        let (connection, busName) = state.withLock { ($0.connection, $0.busName) }
        guard let connection else { return }
        // The children changed only when the list of shapes did (a move keeps it, and its storage, as it was).
        if old.shapes.revision != newScene.shapes.revision, old.shapes.order != newScene.shapes.order {
            // One shape added anywhere (a line goes in below the circles): "add" at its place, with it; one removed:
            // "remove" at its place, with it. Anything else: "the children changed" at index 0, which tells a client
            // to read them all again.
            if let added = Self.singleInsertion(from: old.shapes.order, to: newScene.shapes.order) {
                emit(
                    connection, node: .drawing, member: "ChildrenChanged", kind: "add", detail: Int32(added.index),
                    data: GVariantValues.reference(busName: busName, path: AccessibleNode.shape(added.id).path))
            } else if let removed = Self.singleInsertion(from: newScene.shapes.order, to: old.shapes.order) {
                emit(
                    connection, node: .drawing, member: "ChildrenChanged", kind: "remove", detail: Int32(removed.index),
                    data: GVariantValues.reference(busName: busName, path: AccessibleNode.shape(removed.id).path))
            } else {
                emit(
                    connection, node: .drawing, member: "ChildrenChanged", kind: "remove", detail: 0,
                    data: GVariantValues.reference(busName: busName, path: AtspiProtocol.nullPath))
            }
        }
        if old.drawingName != newScene.drawingName {
            emit(
                connection, node: .drawing, member: "PropertyChange", kind: "accessible-name", detail: 0,
                data: GVariantValues.string(newScene.drawingName))
        }
        // The same menu open before and after: the same opening, the same items (only its highlight or ticks moved).
        let sameMenu =
            old.menu != nil && old.menu?.opening == newScene.menu?.opening && old.menu?.items == newScene.menu?.items
        if !sameMenu {
            // The menu opened, closed or gave way to another (Colours in the settings): the window's children
            // changed, the old menu gone first.
            if old.menu != nil {
                emit(
                    connection, node: .window, member: "ChildrenChanged", kind: "remove", detail: 1,
                    data: GVariantValues.reference(busName: busName, path: AtspiProtocol.nullPath))
            }
            if newScene.menu != nil {
                emit(
                    connection, node: .window, member: "ChildrenChanged", kind: "add", detail: 1,
                    data: GVariantValues.reference(busName: busName, path: AccessibleNode.menu.path))
                // Every menu is the same object (`…/menu`): a client that read the last one's name keeps it unless
                // told.
                emit(
                    connection, node: .menu, member: "PropertyChange", kind: "accessible-name", detail: 0,
                    data: GVariantValues.string(newScene.menuName))
            }
        }
        if old.selection != newScene.selection {
            // A shape deleted is gone: no event names it.
            if let previous = old.selection, newScene.shapes[previous] != nil {
                emitState(connection, "selected", false, on: .shape(previous))
            }
            if let current = newScene.selection { emitState(connection, "selected", true, on: .shape(current)) }
            emitSelectionChanged(connection, on: .drawing)
        }
        if (old.keyHelp == nil) != (newScene.keyHelp == nil) {
            // The key help panel shown (H) or hidden: the window's last child.
            let index = Int32(AccessibleNode.keyHelp.indexInParent(in: newScene.keyHelp == nil ? old : newScene))
            emit(
                connection, node: .window, member: "ChildrenChanged", kind: newScene.keyHelp == nil ? "remove" : "add",
                detail: index, data: GVariantValues.reference(busName: busName, path: AccessibleNode.keyHelp.path))
        }
        let highlighted = newScene.menu?.highlightedIndex
        if !sameMenu || old.menu?.highlightedIndex != highlighted {
            // The highlight moved (Up, Down, the pointer): the item left, if its menu is still open, and the one
            // highlighted now, which the menu says is its selection.
            if sameMenu, let previous = old.menu?.highlightedIndex.flatMap(newScene.menuItemNode) {
                emitState(connection, "selected", false, on: previous)
            }
            if let item = highlighted.flatMap(newScene.menuItemNode) {
                emitState(connection, "selected", true, on: item)
                emitSelectionChanged(connection, on: .menu)
            }
        }
        if sameMenu, let before = old.menu?.checkedItems, let menu = newScene.menu, before != menu.checkedItems {
            // A switch or a colour changed while its menu is open (a key pressed): its tick, for a reader.
            for (index, item) in menu.items.enumerated() where before.contains(item) != menu.checkedItems.contains(item)
            {
                guard let node = newScene.menuItemNode(index) else { continue }
                emitState(connection, "checked", menu.checkedItems.contains(item), on: node)
            }
        }
        let activated = newScene.isActive && (!old.isActive || old.activation != newScene.activation)
        if activated || (old.isActive && !newScene.isActive) {
            // Alt+Tab to the window or away: a reader announces the window, then where the focus is in it.
            emit(
                connection, node: .window, member: newScene.isActive ? "Activate" : "Deactivate", kind: "", detail: 0,
                data: GVariantValues.int32(0), interface: AtspiProtocol.eventWindow)
            emitState(connection, "active", newScene.isActive, on: .window)
            emitState(
                connection, "focused", newScene.isActive, on: newScene.isActive ? newScene.focusedNode : old.focusedNode
            )
        } else if newScene.isActive, old.focusedNode != newScene.focusedNode {
            // A reader speaks what gains the focus: the highlighted item, the selected shape, or the drawing again
            // as a menu closes or the selection goes. What had it is told it lost it first (unless it is gone).
            if old.focusedNode.exists(in: newScene) { emitState(connection, "focused", false, on: old.focusedNode) }
            emitState(connection, "focused", true, on: newScene.focusedNode)
        }
    }

    /// Tells clients that shapes moved (a drag, the arrows, a move undone or redone): each one's new extents on the
    /// screen and its name, which says where it is (a client keeps names until told). Called once they rest, not at
    /// every step: a reader hearing each step of a held arrow would hear nothing else. `everything`: the children
    /// changed, for a client to read them all again.
    public func tellReshaped(_ reshaped: ReshapedShapes) {
        let current = scene.withLock { $0 }
        let (connection, busName) = state.withLock { ($0.connection, $0.busName) }
        guard let connection, !reshaped.isEmpty else { return }
        if reshaped.everything {
            emit(
                connection, node: .drawing, member: "ChildrenChanged", kind: "remove", detail: 0,
                data: GVariantValues.reference(busName: busName, path: AtspiProtocol.nullPath))
            return
        }
        for id in reshaped.shapes.sorted() {
            guard let shape = current.shapes[id] else { continue }
            let box = current.screenExtents(of: shape, lineWidth: lineWidth)
            emit(
                connection, node: .shape(id), member: "BoundsChanged", kind: "", detail: 0,
                data: GVariantValues.tuple(
                    [box.minX, box.minY, box.width, box.height].map { GVariantValues.int32(Int32($0.rounded())) }))
            emit(
                connection, node: .shape(id), member: "PropertyChange", kind: "accessible-name", detail: 0,
                data: GVariantValues.string(current.name(of: shape)))
            // Moved beyond the window's edge, or back into it.
            emitState(
                connection, "showing",
                AccessibleNode.shape(id).states(in: current, lineWidth: lineWidth).contains(.showing),
                on: .shape(id))
        }
    }

    /// Tells clients the child `node` has selected (the drawing's shape, the menu's highlighted item) changed.
    private func emitSelectionChanged(_ connection: OpaquePointer, on node: AccessibleNode) {
        emit(connection, node: node, member: "SelectionChanged", kind: "", detail: 0, data: GVariantValues.int32(0))
    }

    /// Tells clients `node` gained or lost `state` ("selected", "focused").
    private func emitState(_ connection: OpaquePointer, _ state: String, _ isOn: Bool, on node: AccessibleNode) {
        emit(
            connection, node: node, member: "StateChanged", kind: state, detail: isOn ? 1 : 0,
            data: GVariantValues.int32(0))
    }

    /// Says `text` to a screen reader (a notice the window shows, where the keyboard cursor rests): AT-SPI's
    /// announcement, politely, for a current screen reader; and for Orca 43, which does not listen to announcements,
    /// the notice node renamed and shown anew (a notification whose showing state turns on is what it speaks).
    ///
    /// Each screen reader hears it once: the announcement only where one listens to announcements, the notice only
    /// where none does (`ListenedEvents`); both until the registry has said.
    public func announce(_ text: String) {
        scene.withLock { $0.notice = text }
        let (connection, heard) = state.withLock { ($0.connection, $0.announcementsHeard) }
        guard let connection else { return }
        if heard != false {
            emit(
                connection, node: .window, member: "Announcement", kind: "", detail: 1,
                data: GVariantValues.string(text))
        }
        // The notice's name follows what was said in either case (a reader reading the tree finds it there).
        if heard == true {
            emit(
                connection, node: .notice, member: "PropertyChange", kind: "accessible-name", detail: 0,
                data: GVariantValues.string(text))
            return
        }
        emitState(connection, "showing", false, on: .notice)
        emit(
            connection, node: .notice, member: "PropertyChange", kind: "accessible-name", detail: 0,
            data: GVariantValues.string(text))
        emitState(connection, "showing", true, on: .notice)
    }

    private func emit(
        _ connection: OpaquePointer, node: AccessibleNode, member: String, kind: String, detail: Int32,
        data: OpaquePointer, interface: String = AtspiProtocol.eventObject
    ) {
        let body = GVariantValues.tuple([
            GVariantValues.string(kind), GVariantValues.int32(detail), GVariantValues.int32(0),
            GVariantValues.variant(data), GVariantValues.array(of: "{sv}", []),
        ])
        _ = g_dbus_connection_emit_signal(connection, nil, node.path, interface, member, body, nil)
    }

}
