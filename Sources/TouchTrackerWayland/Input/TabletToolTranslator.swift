import TouchKit
import TouchTrackerSession

/// Turns a tablet tool's events (tablet-unstable-v2) into the session's: each group the compositor ends with `frame`
/// is read as a whole, so a tip that touches at a new place with a new pressure begins there with that pressure.
/// The tip touching is a pen touch (an eraser touch for an eraser), with its pressure and tilt; the tool moving
/// within reach without touching hovers; leaving the tablet's reach ends a touch still down and says the stylus
/// left. A tablet's mouse or lens is a pointer (its hover is a pointer's, and it never counts as a stylus near the
/// screen), a tablet's finger tool a finger.
struct TabletToolTranslator {
    /// One tool's state, and what changed in the group since its last `frame`.
    private struct Tool {
        var type: TouchType = .pencil
        var location: Point?
        var force: Double?
        var tilt: StylusTilt?
        var isTouching = false
        var isNear = false
        var wentDown = false
        var wentUp = false
        var moved = false
        var left = false
    }

    private var tools: [UInt32: Tool] = [:]

    /// Touch ids of tablet tools live above every `wl_touch` id and below the touchpad's virtual fingers
    /// (`TouchpadGestureBridge.identifierBase`) and the pointer's.
    static let touchIDBase: UInt64 = 1 << 60

    /// `time`: the event's time on the session's time line (a frame's, or now). Surface coordinates are drawing
    /// units, passed on as they are.
    mutating func translate(_ event: TabletToolEvent, of number: UInt32, time: Double)
        -> [SessionEvent]
    {
        var tool = tools[number] ?? Tool()
        defer { tools[number] = tool }
        switch event {
        case .type(let raw):
            tool.type = Self.touchType(raw)
        case .proximityIn:
            tool.isNear = true
            tool.left = false
        case .proximityOut:
            tool.left = true
        case .down:
            tool.wentDown = true
            tool.wentUp = false
        case .up:
            tool.wentUp = true
        case .motion(let x, let y):
            tool.location = Point(x: x, y: y)
            tool.moved = true
        case .pressure(let raw):
            // The protocol's 0...65535, as TouchKit's force (the same range as XI2's pressure axes, read alike).
            tool.force = Double(raw) / 65535
        case .tilt(let x, let y):
            tool.tilt = StylusTilt(x: x, y: y)
        case .frame:
            return frame(&tool, id: Self.touchIDBase | UInt64(number), time: time)
        case .removed:
            // The tablet went away: a touch still down ends as one taken by the system, its work kept.
            defer { tool = Tool() }
            let left: [SessionEvent] = tool.isNear && tool.type.isStylus ? [.stylusLeft] : []
            guard tool.isTouching, let location = tool.location else { return left }
            return [
                .touch(
                    TouchInput(
                        id: Self.touchIDBase | UInt64(number), phase: .cancelled, location: location,
                        timestamp: time, type: tool.type))
            ] + left
        }
        return []
    }

    /// What a group of events ended by `frame` means for the session.
    private func frame(_ tool: inout Tool, id: UInt64, time: Double) -> [SessionEvent] {
        defer { (tool.wentDown, tool.wentUp, tool.moved, tool.left) = (false, false, false, false) }
        guard let location = tool.location else { return tool.left ? leave(&tool) : [] }
        var events: [SessionEvent] = []
        func touch(_ phase: TouchInput.Phase) -> SessionEvent {
            .touch(
                TouchInput(
                    id: id, phase: phase, location: location, timestamp: time, force: tool.force, type: tool.type,
                    tilt: tool.tilt))
        }
        if tool.wentDown, !tool.isTouching {
            tool.isTouching = true
            events.append(touch(.began))
        } else if tool.isTouching, tool.moved {
            events.append(touch(.moved))
        }
        if tool.wentUp || tool.left, tool.isTouching {
            tool.isTouching = false
            events.append(touch(.ended))
        }
        if tool.left { return events + leave(&tool) }
        if !tool.isTouching, tool.isNear, tool.moved || tool.wentUp {
            events.append(tool.type.isStylus ? .stylusHover(location, tool: tool.type) : .hover(location))
        }
        return events
    }

    private func leave(_ tool: inout Tool) -> [SessionEvent] {
        tool.isNear = false
        tool.location = nil
        return tool.type.isStylus ? [.stylusLeft] : []
    }

    /// The touch type of a `zwp_tablet_tool_v2.type`: the pen-like tools draw, the eraser erases, a tablet's mouse
    /// (and lens) is a pointer and a finger a finger.
    static func touchType(_ raw: UInt32) -> TouchType {
        switch raw {
        case 0x141: .eraser
        case 0x145: .direct
        case 0x146, 0x147: .indirectPointer
        default: .pencil
        }
    }
}
