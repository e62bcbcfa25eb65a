/// One of the drawing's switches (DESIGN.md §2.12–16, §2.21), as the settings menu and the keyboard turn them on
/// and off.
public enum DrawingOption: CaseIterable, Hashable, Sendable {
    case circles
    case colorByAngle
    case widthBySpeed
    case widthByPressure
    case palmRejection
    /// Fingers on the screen scroll (one) and zoom (two) and only a pen draws, as PencilKit's `pencilOnly` policy.
    case fingersNavigate

    /// Where the switch lives in the document's options.
    public var keyPath: WritableKeyPath<DrawingOptions, Bool> {
        switch self {
        case .circles: \.circles
        case .colorByAngle: \.colorByAngle
        case .widthBySpeed: \.widthBySpeed
        case .widthByPressure: \.widthByPressure
        case .palmRejection: \.palmRejection
        case .fingersNavigate: \.fingersNavigate
        }
    }

    /// The member of the document's `options` object that keeps the switch (DESIGN.md §3).
    public var documentKey: String {
        switch self {
        case .circles: "circles"
        case .colorByAngle: "colorByAngle"
        case .widthBySpeed: "widthBySpeed"
        case .widthByPressure: "widthByPressure"
        case .palmRejection: "palmRejection"
        case .fingersNavigate: "fingersNavigate"
        }
    }

    public var title: String {
        switch self {
        case .circles: "Two-Finger Circles"
        case .colorByAngle: "Colour by Angle"
        case .widthBySpeed: "Width by Speed"
        case .widthByPressure: "Width by Pressure"
        case .palmRejection: "Palm Rejection"
        case .fingersNavigate: "Fingers Scroll and Zoom"
        }
    }

    /// The switch's place in a new drawing: palm rejection is on, the challenges' switches off.
    public var defaultValue: Bool { self == .palmRejection }
}

/// An item of the popup menus. The app works with items; their titles are for the screen, and for replay scripts
/// and the state snapshot, which name items by their English titles.
public enum MenuItem: Hashable, Sendable, CustomStringConvertible {
    /// Delete the selected shape (the selection's menu).
    case delete
    /// Turn a switch on or off (the settings menu).
    case toggle(DrawingOption)
    /// Open the colour menu (the settings menu).
    case colors
    /// Draw new shapes in a colour of the palette (the colour menu).
    case color(LineColor)
    /// Show every gesture and key (the settings menu of a window, whose session shows the key help; H does too).
    case keys
    /// New, Open… or Save As… (the settings menu of a window whose platform carries them out).
    case document(DocumentCommand)

    /// The selection's menu.
    public static let selectionMenu: [MenuItem] = [.delete]
    /// Every item the settings menu can hold (right click on the empty canvas, or F2).
    /// The switches first, then New, Open… and Save As…, then the way to the colours and the keys.
    public static let settingsMenu: [MenuItem] =
        DrawingOption.allCases.map(MenuItem.toggle) + DocumentCommand.allCases.map(MenuItem.document) + [
            .colors, .keys,
        ]

    /// The settings menu as a window shows it: the palm rejection and fingers-navigate switches only once a stylus
    /// has been seen (or they were switched from their defaults), since without a stylus they change nothing (or,
    /// for fingers that navigate, leave nothing to draw with).
    /// `offeringKeys`: where something shows the key help (a window; replay has none). `offeringDocuments`: where
    /// something carries out New, Open… and Save As… (a window; replay has none).
    public static func settingsMenu(
        offeringPalmRejection: Bool, offeringKeys: Bool = false, offeringDocuments: Bool = false
    ) -> [MenuItem] {
        settingsMenu.filter { item in
            if case .document = item { return offeringDocuments }
            return (offeringPalmRejection || (item != .toggle(.palmRejection) && item != .toggle(.fingersNavigate)))
                && (offeringKeys || item != .keys)
        }
    }
    /// The colour menu (three-finger swipe up, C, or "Colours" in the settings menu).
    public static let colorMenu: [MenuItem] = LineColor.palette.map { .color($0.color) }

    public var title: String {
        switch self {
        case .delete: "Delete"
        case .toggle(let option): option.title
        case .colors: "Colours"
        case .keys: "Keys"
        case .document(.new): "New"
        case .document(.open): "Open…"
        case .document(.saveAs): "Save As…"
        case .color(let color): LineColor.palette.first { $0.color == color }?.name ?? color.hex
        }
    }

    public var description: String { title }

    /// The item titled `title` (as a replay script names it), if any menu has one.
    public init?(title: String) {
        guard let item = (Self.selectionMenu + Self.settingsMenu + Self.colorMenu).first(where: { $0.title == title })
        else { return nil }
        self = item
    }
}
