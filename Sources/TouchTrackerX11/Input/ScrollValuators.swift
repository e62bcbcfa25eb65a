import CX11
import TouchKit
import TouchTracker

/// Turns XI 2.1 smooth scrolling into wheel notches and touchpad travel.
///
/// A device that scrolls has scroll valuators (`XIScrollClassInfo`): axes whose value grows as it scrolls down
/// or right, and an increment, the travel of one wheel click. Each motion event carries the valuator's absolute
/// value, so a scroll is the change since the device's last value over the increment (a negative increment, a
/// driver's natural scrolling, turns the direction round). The last values are kept per source device (the
/// master's events carry the slave's values) and read again from the server when the pointer enters the window:
/// scrolls over other windows move them too, and this window never sees those. (A scroll the server handles between
/// the pointer coming in and that reading is taken for where the valuator stood, and lost; a hand on a wheel comes
/// long after.)
///
/// A wheel's change over its increment is notches (fractions from a high-resolution wheel). A touchpad (a device
/// its driver types `XI_TOUCHPAD`, or with an XI 2.4 gesture class or a dependent touch class) scrolls by finger
/// travel instead: one increment is `touchpadPixelsPerIncrement` pixels, libinput's default "scroll pixel
/// distance", so with xf86-input-libinput (increment 15, distance 15) one valuator unit is one pixel the fingers
/// would have moved the pointer, and a person who set a larger distance scrolls more slowly, as they asked.
///
/// The server also makes buttons 4 to 7 from these scrolls for older clients, marked `XIPointerEmulated`; those
/// are not scrolls here. A device without scroll valuators scrolls by those buttons alone: one notch per press.
struct ScrollValuators {
    /// One scroll valuator of a device.
    struct Axis: Equatable {
        /// The valuator's number, as events' valuator masks count them.
        var number: Int32
        /// `XIScrollTypeVertical` (true) or `XIScrollTypeHorizontal` (false).
        var isVertical: Bool
        /// The valuator's travel for one wheel click (one emulated button press).
        var increment: Double
    }

    /// What XI2 says of one scrolling device.
    struct Device: Equatable {
        var axes: [Axis]
        /// Whether its travel is a touchpad's fingers (`distance`) rather than a wheel's clicks (`notches`).
        var isTouchpad: Bool
    }

    /// Pixels of touchpad travel per increment (libinput's default scroll pixel distance, 15).
    static let touchpadPixelsPerIncrement = 15.0

    /// The scrolling devices, by source device id.
    private(set) var devices: [Int32: Device]
    /// Each device's valuators' last values, by device id and valuator number.
    private var positions: [Int32: [Int32: Double]]

    /// `devices` whose valuators stand at `positions` now (`XIQueryDevice`'s values).
    init(devices: [Int32: Device] = [:], positions: [Int32: [Int32: Double]] = [:]) {
        self.devices = devices
        self.positions = positions
    }

    /// The valuators stand at `positions` now: the pointer came into the window, and scrolls elsewhere may have
    /// moved them.
    mutating func rebase(_ positions: [Int32: [Int32: Double]]) {
        self.positions = positions
    }

    /// The scroll a motion event of `source` carries in `valuators`: notches for a wheel, pixels for a touchpad;
    /// nil when it moved no scroll valuator. A valuator never seen before only sets where it stands.
    mutating func travel(in valuators: XIValuatorState, of source: Int32) -> (notches: Point, distance: Point)? {
        guard let device = devices[source] else { return nil }
        var clicks = Point.zero
        for axis in device.axes {
            guard let value = valuators.value(ofValuator: axis.number), value.isFinite else { continue }
            let last = positions[source, default: [:]].updateValue(value, forKey: axis.number)
            guard let last, axis.increment != 0 else { continue }
            let change = (value - last) / axis.increment
            if axis.isVertical { clicks.y += change } else { clicks.x += change }
        }
        guard clicks != .zero else { return nil }
        return device.isTouchpad ? (.zero, clicks * Self.touchpadPixelsPerIncrement) : (clicks, .zero)
    }

    /// The notch a press of button 4 to 7 of `source` stands for, unless the device has scroll valuators (its
    /// scrolls come through them; presses the server made from them are marked emulated, and a driver's own
    /// presses are made into valuator motion by the server).
    func buttonNotches(_ button: Int32, of source: Int32) -> Point? {
        guard devices[source]?.axes.isEmpty ?? true else { return nil }
        return Self.notches(forButton: button)
    }

    /// The notch of X's scroll buttons: 4 up, 5 down, 6 left, 7 right.
    static func notches(forButton button: Int32) -> Point? {
        switch button {
        case 4: Point(x: 0, y: -1)
        case 5: Point(x: 0, y: 1)
        case 6: Point(x: -1, y: 0)
        case 7: Point(x: 1, y: 0)
        default: nil
        }
    }

    /// A scroll at `location` (window pixels) with the modifiers of an X modifier `state` (`ControlMask`,
    /// `ShiftMask`).
    static func input(at location: Point, notches: Point = .zero, distance: Point = .zero, state: UInt32)
        -> ScrollInput
    {
        ScrollInput(
            location: location, notches: notches, distance: distance, control: state & UInt32(ControlMask) != 0,
            shift: state & UInt32(ShiftMask) != 0)
    }
}

extension ScrollInput {
    /// The scroll with its pixels (the pointer's place, a touchpad's travel) as drawing units, at `scale` pixels
    /// per unit. Notches are clicks, whatever the scale.
    func inUnits(scale: Double) -> ScrollInput {
        guard scale != 1 else { return self }
        var input = self
        input.location = location / scale
        input.distance = distance / scale
        return input
    }

    /// The scroll as `--verbose` logs it: "scroll at (200.0, 100.0): notches (0.0, 1.0), distance (0.0, 0.0), Ctrl".
    var logLine: String {
        "scroll at \(location): notches \(notches), distance \(distance)" + (control ? ", Ctrl" : "")
            + (shift ? ", Shift" : "")
    }
}
