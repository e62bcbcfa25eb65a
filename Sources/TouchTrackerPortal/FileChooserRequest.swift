/// What the app asks the desktop's file dialog (`org.freedesktop.portal.FileChooser`) for: its `OpenFile` or
/// `SaveFile` call as plain values, so the call's arguments are built and tested without a bus.
public struct FileChooserRequest: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// `OpenFile`: one file or, with `multiple`, several.
        case open(multiple: Bool)
        /// `SaveFile`: one name, new or existing (the dialog asks before replacing one).
        case save
    }

    /// One entry of the dialog's file type menu: a name and its patterns.
    public struct Filter: Equatable, Sendable {
        public enum Pattern: Equatable, Sendable {
            /// A shell glob (`*.touchtracker`), type 0 in the portal's `a(us)`.
            case glob(String)
            /// A MIME type (`application/x-touchtracker+json`), type 1.
            case mimeType(String)
        }

        public var name: String
        public var patterns: [Pattern]

        public init(name: String, patterns: [Pattern]) {
            self.name = name
            self.patterns = patterns
        }
    }

    public var kind: Kind
    /// The dialog's title.
    public var title: String
    /// The window the dialog belongs to (`x11:HEX`, `wayland:HANDLE`), or "" when the app cannot say.
    public var parentWindow = ""
    /// The label of the button that accepts ("Open", "Save"); nil: the dialog's own.
    public var acceptLabel: String?
    /// The name the save dialog suggests.
    public var currentName: String?
    /// The folder the dialog opens in, as the path's bytes (the portal takes a NUL-terminated byte array).
    public var currentFolder: [UInt8]?
    public var filters: [Filter] = []
    /// Which of `filters` is chosen at first.
    public var currentFilter: Filter?

    public init(kind: Kind, title: String) {
        self.kind = kind
        self.title = title
    }

    /// The portal's method for this request.
    public var method: String {
        switch kind {
        case .open: "OpenFile"
        case .save: "SaveFile"
        }
    }

    /// The drawing filters the app's dialogs offer: its own type first (by MIME type and glob, so a dialog whose
    /// shared-mime-info does not know the type yet still shows the files), then `.json` drawings.
    public static func drawingFilters(drawingsName: String, jsonName: String) -> [Filter] {
        [
            Filter(
                name: drawingsName, patterns: [.mimeType("application/x-touchtracker+json"), .glob("*.touchtracker")]),
            Filter(name: jsonName, patterns: [.glob("*.json")]),
        ]
    }

    /// The call's `a{sv}` options, in a fixed order, with `handleToken` as `handle_token` (which names the Request
    /// object the answer comes on).
    public func options(handleToken: String) -> [(key: String, value: PortalValue)] {
        var options: [(key: String, value: PortalValue)] = [
            ("handle_token", .string(handleToken)), ("modal", .bool(true)),
        ]
        if case .open(let multiple) = kind { options.append(("multiple", .bool(multiple))) }
        if let acceptLabel { options.append(("accept_label", .string(acceptLabel))) }
        if !filters.isEmpty { options.append(("filters", .array(of: "(sa(us))", filters.map(Self.value)))) }
        if let currentFilter { options.append(("current_filter", Self.value(currentFilter))) }
        if case .save = kind, let currentName { options.append(("current_name", .string(currentName))) }
        if let currentFolder { options.append(("current_folder", .bytes(currentFolder))) }
        return options
    }

    /// The call's parameters, `(ssa{sv})`: the parent window, the title, the options.
    public func parameters(handleToken: String) -> PortalValue {
        .tuple([
            .string(parentWindow), .string(title),
            .array(
                of: "{sv}", options(handleToken: handleToken).map { .dictEntry(.string($0.key), .variant($0.value)) }),
        ])
    }

    private static func value(_ filter: Filter) -> PortalValue {
        .tuple([
            .string(filter.name),
            .array(
                of: "(us)",
                filter.patterns.map { pattern in
                    switch pattern {
                    case .glob(let glob): .tuple([.uint32(0), .string(glob)])
                    case .mimeType(let type): .tuple([.uint32(1), .string(type)])
                    }
                }),
        ])
    }
}

/// A D-Bus value as the portal's calls need them, turned into a GVariant only at the edge (`PortalBus`).
public indirect enum PortalValue: Equatable, Sendable {
    case string(String)
    case bool(Bool)
    case uint32(UInt32)
    /// A byte array with a terminating NUL (`ay`, as `g_variant_new_bytestring` makes it).
    case bytes([UInt8])
    case variant(PortalValue)
    case tuple([PortalValue])
    case dictEntry(PortalValue, PortalValue)
    /// An array of values of the GVariant element type named (needed for an empty one).
    case array(of: String, [PortalValue])
}

/// How the desktop's file dialog ended.
public enum FileChooserOutcome: Equatable, Sendable {
    /// The person chose these files (`file:` URIs, as the portal's `uris`).
    case chosen(uris: [String])
    /// The person cancelled (response 1), or the dialog ended another way (response 2).
    case cancelled
    /// No dialog could be shown: the reason, in words (no portal on the bus, an error from it).
    case failed(String)

    /// The outcome a Request's `Response` signal says: its response code and the `uris` of its results.
    public init(response: UInt32, uris: [String]) {
        self = response == 0 ? .chosen(uris: uris) : .cancelled
    }
}
