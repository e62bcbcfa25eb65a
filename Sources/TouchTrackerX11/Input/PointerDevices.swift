/// What the event translator knows of the pointing devices: which have pressure and tilt axes, which are a
/// tablet's pen or eraser, which of those tell when they leave the tablet's reach, and which scroll. Read at start
/// and again whenever devices come and go (`DeviceWatch`), since a device's id is reused by the next one plugged in.
struct PointerDevices {
    var pressureAxes: [Int32: XInput2.PressureAxis] = [:]
    var tiltAxes: [Int32: XInput2.TiltAxes] = [:]
    var tools: [Int32: TabletTool] = [:]
    /// The XI 1 event types the tools' ProximityOut arrives as (`ProximityWatch`).
    var proximityLeftTypes: Set<Int32> = []
    /// The tools whose ProximityOut is selected. A tool without one (no proximity class) is a stylus only while it
    /// touches: its hover is a pointer's, and it counts as leaving when its tip lifts, so palm rejection never
    /// waits for a ProximityOut that will not come.
    var toolsTellingProximity: Set<Int32> = []
    /// The devices that scroll, and where their scroll valuators stood when the devices were read.
    var scrolling = ScrollValuators()

    init(
        pressureAxes: [Int32: XInput2.PressureAxis] = [:], tiltAxes: [Int32: XInput2.TiltAxes] = [:],
        tools: [Int32: TabletTool] = [:], proximityLeftTypes: Set<Int32> = [], toolsTellingProximity: Set<Int32> = [],
        scrolling: ScrollValuators = ScrollValuators()
    ) {
        self.pressureAxes = pressureAxes
        self.tiltAxes = tiltAxes
        self.tools = tools
        self.proximityLeftTypes = proximityLeftTypes
        self.toolsTellingProximity = toolsTellingProximity
        self.scrolling = scrolling
    }

    /// What `devices` say, with `proximity` watching their tools.
    init(_ devices: InputDevices, proximity: ProximityWatch?) {
        self.init(
            pressureAxes: devices.pressureAxes, tiltAxes: devices.tiltAxes, tools: devices.tabletTools,
            proximityLeftTypes: proximity?.leftEventTypes ?? [], toolsTellingProximity: proximity?.watchedDevices ?? [],
            scrolling: ScrollValuators(devices: devices.scrollDevices, positions: devices.valuatorValues))
    }
}
