import TouchKit
import TouchTracker

/// One input event the seat's devices reported, in the protocol's terms (surface coordinates, the compositor's
/// millisecond times) but free of C types, so `WaylandInputTranslator` can be tested with events built in memory.
enum SeatEvent: Equatable {
    case touchDown(time: UInt32, id: Int32, x: Double, y: Double)
    case touchMotion(time: UInt32, id: Int32, x: Double, y: Double)
    case touchUp(time: UInt32, id: Int32)
    /// Ends a group of touch events that belong together (several fingers moved at once).
    case touchFrame
    /// The compositor took every touch of the sequence for a gesture of its own.
    case touchCancel
    case pointerEnter(x: Double, y: Double)
    case pointerLeave
    case pointerMotion(time: UInt32, x: Double, y: Double)
    /// `button` is a Linux input code (`BTN_LEFT` 0x110, `BTN_RIGHT` 0x111).
    case pointerButton(time: UInt32, button: UInt32, pressed: Bool)
    /// Where a scroll in the pointer's frame comes from (`wl_pointer.axis_source`).
    case axisSource(ScrollFrame.Source)
    /// Scroll travel along `axis` in surface units (`wl_pointer.axis`).
    case axis(time: UInt32, ScrollFrame.Axis, value: Double)
    /// Wheel clicks along `axis` (`wl_pointer.axis_discrete`, seat versions 5 to 7).
    case axisDiscrete(ScrollFrame.Axis, steps: Int32)
    /// High-resolution wheel travel along `axis`, 120 a click (`wl_pointer.axis_value120`, seat version 8).
    case axisValue120(ScrollFrame.Axis, value120: Int32)
    /// The fingers left the touchpad: scrolling along `axis` stopped (`wl_pointer.axis_stop`).
    case axisStop(time: UInt32, ScrollFrame.Axis)
    /// Ends a group of pointer events that belong together (`wl_pointer.frame`); sent here after scroll events.
    case pointerFrame
    /// The keyboard's Ctrl and Shift changed (`wl_keyboard.modifiers`, read through the keymap).
    case modifiers(control: Bool, shift: Bool)
    /// A touchpad pinch (pointer-gestures): the focus's travel since the last event (`dx`, `dy`, surface pixels),
    /// the scale since it began, the turn since the last event (degrees, clockwise).
    case pinch(TouchpadGestureBridge.Phase, time: UInt32, dx: Double, dy: Double, scale: Double, rotation: Double)
    /// A touchpad swipe with `fingers` fingers: their travel since the last event.
    case swipe(TouchpadGestureBridge.Phase, time: UInt32, fingers: Int, dx: Double, dy: Double)
    /// A key press, already read through the keymap (`XkbKeyboard`); `repeats` when the keymap says it repeats.
    /// `report` is the press as the accessibility registry is told of it.
    case keyPressed(code: UInt32, command: KeyCommand, repeats: Bool, report: KeyEventReport)
    case keyReleased(code: UInt32, report: KeyEventReport?)
    /// The window lost the keyboard focus: a held key stops repeating.
    case keyboardLeft
    /// The window got the keyboard focus.
    case keyboardEntered
    /// An event of a tablet's tool (tablet-unstable-v2), the tool numbered by the seat.
    case tablet(tool: UInt32, TabletToolEvent)
}

/// One `zwp_tablet_tool_v2` event, as the protocol sends it: a tool's events come in groups ended by `frame`.
enum TabletToolEvent: Equatable {
    /// What the tool is (`zwp_tablet_tool_v2.type`: 0x140 pen, 0x141 eraser, …), sent when it is announced.
    case type(UInt32)
    /// The tool came within the tablet's reach over the window, or left it.
    case proximityIn
    case proximityOut
    /// The tip touched the tablet, or lifted.
    case down
    case up
    /// Surface coordinates.
    case motion(x: Double, y: Double)
    /// 0...65535.
    case pressure(UInt32)
    /// Degrees from upright towards +x and +y.
    case tilt(x: Double, y: Double)
    case frame(time: UInt32)
    /// The tool is gone (its tablet unplugged).
    case removed

    /// The raw `type`, when this is the tool's `type` event.
    var typeValue: UInt32? {
        if case .type(let raw) = self { return raw }
        return nil
    }
}
