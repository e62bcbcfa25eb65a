/// What a tablet's XI2 device is, by the conventions real drivers follow (libinput and wacom name their devices
/// "… Pen", "… stylus", "… eraser"), as GTK tells them apart: by name, and for a pen by an "Abs Pressure" axis too.
/// Listed by `--verbose`; the pen's pressure already reaches width by pressure (`EventTranslator`).
enum TabletTool: String, Equatable {
    case pen
    case eraser

    /// The tool `name` (with an "Abs Pressure" axis or not) stands for, or nil for anything else.
    init?(deviceName name: String, hasPressure: Bool) {
        let lowered = name.lowercased()
        // A tablet's pad is its buttons and rings, not a tool that draws.
        if lowered.hasSuffix(" pad") { return nil }
        if lowered.contains("eraser") {
            self = .eraser
        } else if lowered.contains("stylus") || lowered.contains("pen") || hasPressure {
            // A finger's touch device has "Abs MT Pressure" and a touch class, not a pointer's "Abs Pressure".
            self = .pen
        } else {
            return nil
        }
    }
}
