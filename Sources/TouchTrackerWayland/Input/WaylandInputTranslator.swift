import TouchKit
import TouchTracker
import TouchTrackerSession

/// Turns the seat's events into the session's: touches grouped by `frame` become TouchKit input; a touch `cancel`
/// (the compositor took the fingers for a gesture of its own) is a claim, so no half-drawn line is kept; the
/// pointer's left button is one more touch, its right button opens the menu, and moving it with no button held is
/// a hover; its axis events, grouped by the pointer's `frame`, are a scroll (`ScrollFrame`) with the Ctrl and Shift
/// the keyboard holds; a tablet's pen and eraser are pen and eraser touches (`TabletToolTranslator`). Surface
/// coordinates are drawing units already (a surface pixel is a pixel of a 100 % screen, whatever the buffer's
/// scale), so they are passed on exactly as the compositor sent them, and so is a touchpad's scroll travel.
struct WaylandInputTranslator {
    private var timeline = ServerTimeline()
    /// Touch events waiting for their group's `frame`.
    private var frameTouches: [TouchInput] = []
    /// Where each touch down now was last seen (an `up` carries no position).
    private var touchLocations: [Int32: Point] = [:]
    private var pointer = Point.zero
    /// The pointer's touch id while the left button is down.
    private var mouseTouchID: UInt64?
    /// Touchpad pinches and swipes become virtual touches, as on X11.
    private var gestures = TouchpadGestureBridge()
    /// The fingers of the swipe in progress (its `update`s do not say).
    private var swipeFingers = 0
    /// The tablets' tools, as pen and eraser touches.
    private var tabletTools = TabletToolTranslator()
    /// The scroll of the pointer frame under way (`ScrollFrame`).
    private var scrollFrame = ScrollFrame()
    /// Ctrl and Shift, as the keyboard last said.
    private var modifiers = (control: false, shift: false)

    /// The pointer's touch id lives above every `wl_touch` id (a 32-bit value).
    static let mouseTouchID: UInt64 = 1 << 62
    static let leftButton: UInt32 = 0x110
    static let rightButton: UInt32 = 0x111

    /// The pointer's place in canvas pixels, nil while it is outside the window.
    private(set) var pointerLocation: Point?

    mutating func translate(_ event: SeatEvent, now: Double) -> [SessionEvent] {
        switch event {
        case .touchDown(let time, let id, let x, let y):
            let location = canvasPoint(x, y)
            touchLocations[id] = location
            frameTouches.append(
                TouchInput(id: touchID(id), phase: .began, location: location, timestamp: seconds(time, now)))
            return []
        case .touchMotion(let time, let id, let x, let y):
            guard touchLocations[id] != nil else { return [] }
            let location = canvasPoint(x, y)
            touchLocations[id] = location
            frameTouches.append(
                TouchInput(id: touchID(id), phase: .moved, location: location, timestamp: seconds(time, now)))
            return []
        case .touchUp(let time, let id):
            guard let location = touchLocations.removeValue(forKey: id) else { return [] }
            frameTouches.append(
                TouchInput(id: touchID(id), phase: .ended, location: location, timestamp: seconds(time, now)))
            return []
        case .touchFrame:
            defer { frameTouches.removeAll() }
            return frameTouches.map { .touch($0) }
        case .touchCancel:
            // The group in progress is delivered first, so every touch the app saw begin is the one claimed.
            var events = frameTouches.map { SessionEvent.touch($0) }
            frameTouches.removeAll()
            for id in touchLocations.keys.sorted() {
                events.append(
                    .touch(TouchInput(id: touchID(id), phase: .claimed, location: touchLocations[id]!, timestamp: now)))
            }
            touchLocations.removeAll()
            return events
        case .pointerEnter(let x, let y):
            pointer = canvasPoint(x, y)
            pointerLocation = pointer
            return mouseTouchID == nil ? [.hover(pointer)] : []
        case .pointerLeave:
            pointerLocation = nil
            // The compositor gave the pointer to someone else while the button was down (a grab of its own): the
            // drag ends as a device taken away would, keeping its work.
            guard let id = mouseTouchID else { return [] }
            mouseTouchID = nil
            return [pointerTouch(id, .cancelled, timestamp: now)]
        case .pointerMotion(let time, let x, let y):
            pointer = canvasPoint(x, y)
            pointerLocation = pointer
            guard let id = mouseTouchID else { return [.hover(pointer)] }
            return [pointerTouch(id, .moved, timestamp: seconds(time, now))]
        case .pointerButton(let time, let button, let pressed):
            return pointerButton(button, pressed: pressed, timestamp: seconds(time, now))
        case .axisSource(let source):
            scrollFrame.setSource(source)
            return []
        case .axis(_, let axis, let value):
            scrollFrame.add(value, along: axis)
            return []
        case .axisDiscrete(let axis, let steps):
            scrollFrame.add(clicks: Double(steps), along: axis)
            return []
        case .axisValue120(let axis, let value120):
            scrollFrame.add(clicks: Double(value120) / 120, along: axis)
            return []
        case .axisStop:
            return []
        case .pointerFrame:
            guard let scroll = scrollFrame.finish() else { return [] }
            return [
                .scroll(
                    ScrollInput(
                        location: pointer, notches: scroll.notches, distance: scroll.distance,
                        control: modifiers.control, shift: modifiers.shift))
            ]
        case .modifiers(let control, let shift):
            modifiers = (control, shift)
            return []
        case .pinch(let phase, let time, let dx, let dy, let scale, let rotation):
            return gestures.pinch(
                phase, focus: pointer, delta: Point(x: dx, y: dy), scale: scale,
                deltaAngle: rotation, timestamp: seconds(time, now)
            ).map { .touch($0) }
        case .swipe(let phase, let time, let fingers, let dx, let dy):
            if phase == .began { swipeFingers = fingers }
            return gestures.swipe(
                phase, focus: pointer, delta: Point(x: dx, y: dy), fingerCount: swipeFingers,
                timestamp: seconds(time, now)
            ).map { .touch($0) }
        case .keyPressed(_, let command, _, let report):
            return [.keyEvent(report, command: command)]
        case .keyReleased(_, let report):
            return report.map { [.keyEvent($0, command: nil)] } ?? []
        case .keyboardEntered:
            return [.focusChanged(true)]
        case .keyboardLeft:
            return [.focusChanged(false)]
        case .tablet(let tool, let toolEvent):
            // Only a frame carries the compositor's time; anything else is handled now.
            let time: Double
            if case .frame(let milliseconds) = toolEvent { time = seconds(milliseconds, now) } else { time = now }
            return tabletTools.translate(toolEvent, of: tool, time: time)
        }
    }

    /// The touch events still waiting for a `frame` when the loop has dispatched everything the compositor sent:
    /// delivered now rather than held. Weston sends no `frame` after the last finger's `up` (the touch has lost its
    /// focus by then), so holding them would leave that finger down until the next touch.
    mutating func endOfBatch() -> [SessionEvent] {
        defer { frameTouches.removeAll() }
        return frameTouches.map { .touch($0) }
    }

    private mutating func pointerButton(_ button: UInt32, pressed: Bool, timestamp: Double) -> [SessionEvent] {
        switch (button, pressed) {
        case (Self.leftButton, true):
            var events: [SessionEvent] = []
            if let stale = mouseTouchID {
                // A press without a release (the release went elsewhere): close the old drag first.
                events.append(pointerTouch(stale, .cancelled, timestamp: timestamp))
            }
            mouseTouchID = Self.mouseTouchID
            events.append(pointerTouch(Self.mouseTouchID, .began, timestamp: timestamp))
            return events
        case (Self.leftButton, false):
            guard let id = mouseTouchID else { return [] }
            mouseTouchID = nil
            return [pointerTouch(id, .ended, timestamp: timestamp)]
        case (Self.rightButton, true):
            return [.contextClick(pointer)]
        default:
            return []
        }
    }

    /// The pointer's touch `id` (its left button held) in `phase`, where the pointer is.
    private func pointerTouch(_ id: UInt64, _ phase: TouchInput.Phase, timestamp: Double) -> SessionEvent {
        .touch(TouchInput(id: id, phase: phase, location: pointer, timestamp: timestamp, type: .indirectPointer))
    }

    private func touchID(_ id: Int32) -> UInt64 { UInt64(UInt32(bitPattern: id)) }

    private func canvasPoint(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    private mutating func seconds(_ time: UInt32, _ now: Double) -> Double {
        timeline.seconds(forServerTime: time, now: now)
    }
}
