import TouchKit

/// The popup menus: the selection's Delete, the settings and the colours, opened, highlighted and activated.
extension DrawingController {
    /// Highlights `item` of the open menu, as the keys would reach it. Returns whether the open menu has it.
    @discardableResult
    public func highlight(_ item: MenuItem) -> Bool {
        guard let menuView, let index = menuView.menu.items.firstIndex(of: item) else { return false }
        menuView.setHighlight(index)
        return true
    }

    /// Activates `item` of the open menu, as a click on it would. Returns whether the open menu has it. A menu it
    /// opens (the colours) has its first item highlighted when `highlightingNext` (the keyboard or a screen reader
    /// chose; by default, when the open menu has a highlighted item), so the focus goes on into it.
    @discardableResult
    public func activate(_ item: MenuItem, highlightingNext: Bool? = nil) -> Bool {
        guard let menu, menu.items.contains(item) else { return false }
        switch item {
        case .delete:
            deleteSelectedShape()
        case .toggle(let option):
            closeMenu()
            toggle(option)
        case .colors:
            openColorMenu(at: menu.anchor, highlightingFirst: highlightingNext ?? (menu.highlightedIndex != nil))
        case .color(let color):
            closeMenu()
            chooseColor(color)
        case .keys:
            closeMenu()
            onShowKeys?()
        case .document(let command):
            closeMenu()
            onDocumentCommand?(command)
        }
        return true
    }

    // MARK: Options

    /// Where menus opened from the keyboard appear: the middle of the window.
    var keyboardMenuAnchor: Point { Point(x: window.bounds.midX, y: window.bounds.midY) }

    /// Turns an option on or off, saves it with the document and says so on screen.
    func toggle(_ option: DrawingOption) {
        var options = drawingView.options
        options[keyPath: option.keyPath].toggle()
        drawingView.setOptions(options)
        refreshMenuChecks()
        showNotice(.optionSwitched(option, on: options[keyPath: option.keyPath]))
    }

    /// New lines and circles take `color`; colour by angle goes off, so the choice shows at once.
    func chooseColor(_ color: LineColor) {
        var options = drawingView.options
        options.color = color
        options.colorByAngle = false
        drawingView.setOptions(options)
        refreshMenuChecks()
        showNotice(.colourChosen(.color(color)))
    }

    // MARK: Menu

    /// Opens the Delete menu for the selection.
    func openSelectionMenu(at point: Point, highlightingFirst: Bool = false) {
        openMenu(at: point, items: MenuItem.selectionMenu, highlighted: highlightingFirst ? 0 : nil)
    }

    /// Opens the settings menu: the challenges' switches (checked when on), palm rejection once a stylus has been
    /// seen, and the way to the colours.
    /// (`highlightingFirst`: opened from the keyboard, its first item highlighted, as GTK's menus open.)
    public func openSettingsMenu(at point: Point, highlightingFirst: Bool = false) {
        let items = MenuItem.settingsMenu(
            offeringPalmRejection: palmRejection.hasSeenStylus || !drawingView.options.palmRejection
                || drawingView.options.fingersNavigate,
            offeringKeys: onShowKeys != nil, offeringDocuments: onDocumentCommand != nil)
        openMenu(at: point, items: items, checked: checks(of: items), highlighted: highlightingFirst ? 0 : nil)
    }

    /// Opens the colour menu, the colour in use checked.
    public func openColorMenu(at point: Point, highlightingFirst: Bool = false) {
        let items = MenuItem.colorMenu
        openMenu(at: point, items: items, checked: checks(of: items), highlighted: highlightingFirst ? 0 : nil)
    }

    /// Which of `items` are on now: the switches that are on, the colour in use.
    func checks(of items: [MenuItem]) -> [MenuItem] {
        let options = drawingView.options
        return items.filter { item in
            switch item {
            case .toggle(let option): options[keyPath: option.keyPath]
            case .color(let color): color == options.color
            case .delete, .colors, .keys, .document: false
            }
        }
    }

    /// Shows the open menu's ticks as the options are now (a key switched one while it is open).
    func refreshMenuChecks() {
        guard let view = menuView else { return }
        view.setChecked(checks(of: view.menu.items))
    }

    /// Opens the same menu again (after a resize), its items, checks and highlight kept: the
    /// same opening.
    func reopenMenu(_ menu: PopupMenu) {
        openMenu(
            at: menu.anchor, items: menu.items, checked: menu.checkedItems, highlighted: menu.highlightedIndex,
            opening: menu.opening)
    }

    func openMenu(
        at point: Point, items: [MenuItem], checked: [MenuItem] = [], highlighted: Int? = nil, opening: Int? = nil
    ) {
        closeMenu()
        var menu = PopupMenu(
            anchor: point, items: items, checkedItems: checked, within: window.bounds,
            translate: translate)
        if let highlighted, items.indices.contains(highlighted) { menu.highlightedIndex = highlighted }
        if let opening {
            menu.opening = opening
        } else {
            menuOpenings += 1
            menu.opening = menuOpenings
        }
        let view = MenuView(menu: menu)
        // A touch or click on an item: a menu it opens (the colours) opens with nothing highlighted, as a pointer's.
        view.onActivate = { [weak self] item in self?.activate(item, highlightingNext: false) }
        view.onChange = { [weak self, weak view] in
            if let self, let view { self.noteWindowChanged(view.menu.damageFrame) }
        }
        window.addSubview(view)
        menuView = view
        noteWindowChanged(view.menu.damageFrame)
    }

    func closeMenu() {
        guard let view = menuView else { return }
        menuView = nil
        noteWindowChanged(view.menu.damageFrame)
        view.removeFromSuperview()
    }
}
