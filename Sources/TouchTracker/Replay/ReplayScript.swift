import JSON
import TouchKit

/// One event of a replay script (DESIGN.md §3).
public enum ReplayEvent: Hashable, Sendable {
    /// `type` is what made the touch: a finger unless the script says `"tool"`.
    case touch(id: UInt64, phase: TouchInput.Phase, location: Point, force: Double?, type: TouchType)
    /// A stylus hovers within reach without touching (`tool`: `.pencil` or `.eraser`).
    case stylusHover(Point, tool: TouchType)
    /// The stylus left the tablet's reach.
    case stylusLeft
    case key(KeyCommand)
    /// Activates the open menu's item with this title, exactly as a click on it would.
    case menu(String)
    /// A wheel (`"wheel": [dx, dy]`, in clicks) or a touchpad's smooth scroll (`"scroll": [dx, dy]`, in window
    /// units) at the pointer, with Ctrl (`"ctrl": true`: zoom) or Shift (`"shift": true`: sideways).
    case scroll(ScrollInput)
}

/// A replay script event at its time, in seconds from the start.
public struct TimedReplayEvent: Hashable, Sendable {
    public var time: Double
    public var event: ReplayEvent
}

/// A malformed script line, with its 1-based number.
public struct ReplayScriptError: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var problem: String

    public var description: String { "line \(line): \(problem)" }
}

/// Parses JSON Lines replay scripts. Blank lines are skipped; every other line must be one event.
public enum ReplayScript {
    /// `isKeyName` tells a key's name from a typo (the command line asks Xlib's table of keysyms); a key it does
    /// not know is refused, so `Space` for `space` is an error rather than a key that silently does nothing.
    public static func parse(_ text: String, isKeyName: (String) -> Bool = { _ in true }) throws(ReplayScriptError)
        -> [TimedReplayEvent]
    {
        var events: [TimedReplayEvent] = []
        var lastTime = 0.0
        // Lines end at LF or CRLF only, as JSON Lines says: a form feed or U+2028 is no line break (and the latter
        // may stand in a string).
        for (offset, rawLine) in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
        )
        .enumerated() {
            let lineNumber = offset + 1
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty { continue }
            let value: JSONValue
            do {
                value = try JSONParser.parse(String(line))
            } catch {
                throw ReplayScriptError(
                    line: lineNumber, problem: "not valid JSON (\(error.message), column \(error.column))")
            }
            let event = try parseEvent(value, line: lineNumber)
            if case .key(let command) = event.event, !isKeyName(command.key) {
                throw ReplayScriptError(line: lineNumber, problem: unknownKey(command.key, isKeyName: isKeyName))
            }
            if event.time < lastTime {
                throw ReplayScriptError(
                    line: lineNumber, problem: "\"t\" is \(event.time), earlier than the previous event's \(lastTime)")
            }
            lastTime = event.time
            events.append(event)
        }
        return events
    }

    /// Names `key` as no keysym, with the keysym it was likely meant for when only its case is wrong.
    private static func unknownKey(_ key: String, isKeyName: (String) -> Bool) -> String {
        let meant = [key.lowercased(), key.prefix(1).uppercased() + key.dropFirst().lowercased()].first(
            where: isKeyName)
        return "\"\(key)\" is not an X keysym name"
            + (meant.map { " (names are case-sensitive: \"\($0)\")" } ?? " (for example \"space\", \"Delete\", \"z\")")
    }

    private static func parseEvent(_ value: JSONValue, line: Int) throws(ReplayScriptError) -> TimedReplayEvent {
        func fail(_ problem: String) -> ReplayScriptError { ReplayScriptError(line: line, problem: problem) }
        guard case .object = value else { throw fail("expected a JSON object, found \(value.kindName)") }
        guard let timeValue = value["t"] else { throw fail("missing \"t\" (seconds from the start)") }
        guard case .number(let time) = timeValue, time.isFinite, time >= 0, time <= 1e7 else {
            throw fail("\"t\" must be a number of seconds between 0 and 10000000")
        }
        // One event a line: a line naming two would silently be taken as one of them.
        let kinds = ["key", "menu", "hover", "id", "wheel", "scroll"].filter { value[$0] != nil }
        if kinds.count > 1 {
            throw fail(
                "a line is one event, and this one has " + kinds.map { "\"\($0)\"" }.joined(separator: " and ")
                    + "; put each on a line of its own")
        }
        if let keyValue = value["key"] {
            guard case .string(let text) = keyValue, let command = KeyCommand(parsing: text) else {
                throw fail("\"key\" must be a keysym name with optional modifiers, like \"Delete\" or \"ctrl+z\"")
            }
            return TimedReplayEvent(time: time, event: .key(command))
        }
        if let menuValue = value["menu"] {
            guard case .string(let title) = menuValue, !title.isEmpty else {
                throw fail("\"menu\" must be the title of a menu item, like \"Delete\"")
            }
            return TimedReplayEvent(time: time, event: .menu(title))
        }
        for kind in ["wheel", "scroll"] {
            guard let amount = value[kind] else { continue }
            guard case .array(let parts) = amount, parts.count == 2, case .number(let dx) = parts[0],
                case .number(let dy) = parts[1], dx.isFinite, dy.isFinite, abs(dx) <= 1e6, abs(dy) <= 1e6
            else {
                throw fail("\"\(kind)\" must be [dx, dy], two numbers (\(kind == "wheel" ? "clicks" : "window units"))")
            }
            let x = try coordinate(value["x"], name: "x", line: line)
            let y = try coordinate(value["y"], name: "y", line: line)
            var flags: [String: Bool] = [:]
            for flag in ["ctrl", "shift"] {
                guard let flagValue = value[flag] else { continue }
                guard case .bool(let on) = flagValue else { throw fail("\"\(flag)\" must be true or false") }
                flags[flag] = on
            }
            let travel = Point(x: dx, y: dy)
            return TimedReplayEvent(
                time: time,
                event: .scroll(
                    ScrollInput(
                        location: Point(x: x, y: y), notches: kind == "wheel" ? travel : .zero,
                        distance: kind == "scroll" ? travel : .zero, control: flags["ctrl"] ?? false,
                        shift: flags["shift"] ?? false)))
        }
        if let hoverValue = value["hover"] {
            guard case .string(let name) = hoverValue, name == "pen" || name == "eraser" || name == "out" else {
                throw fail("\"hover\" must be \"pen\" or \"eraser\" (with \"x\" and \"y\"), or \"out\"")
            }
            if name == "out" { return TimedReplayEvent(time: time, event: .stylusLeft) }
            let x = try coordinate(value["x"], name: "x", line: line)
            let y = try coordinate(value["y"], name: "y", line: line)
            return TimedReplayEvent(
                time: time, event: .stylusHover(Point(x: x, y: y), tool: name == "pen" ? .pencil : .eraser))
        }
        guard let idValue = value["id"] else {
            throw fail(
                "expected a touch (\"id\", \"phase\", \"x\", \"y\"), \"key\", \"menu\", \"hover\", \"wheel\" or \"scroll\""
            )
        }
        guard case .number(let idNumber) = idValue, idNumber >= 0, idNumber <= 4_294_967_295,
            idNumber == idNumber.rounded()
        else { throw fail("\"id\" must be a whole number from 0 to 4294967295") }
        guard case .string(let phaseName)? = value["phase"] else {
            throw fail("missing \"phase\" (began, moved, ended, cancelled or claimed)")
        }
        let phase: TouchInput.Phase
        switch phaseName {
        case "began": phase = .began
        case "moved": phase = .moved
        case "ended": phase = .ended
        case "cancelled": phase = .cancelled
        case "claimed": phase = .claimed
        default: throw fail("\"phase\" is \"\(phaseName)\"; expected began, moved, ended, cancelled or claimed")
        }
        let x = try coordinate(value["x"], name: "x", line: line)
        let y = try coordinate(value["y"], name: "y", line: line)
        var force: Double?
        if let forceValue = value["force"] {
            guard case .number(let number) = forceValue, number.isFinite, number >= 0 else {
                throw fail("\"force\" must be a number ≥ 0")
            }
            force = number
        }
        var type = TouchType.direct
        if let toolValue = value["tool"] {
            let tools: [String: TouchType] = [
                "finger": .direct, "mouse": .indirectPointer, "pen": .pencil, "eraser": .eraser,
            ]
            guard case .string(let name) = toolValue, let tool = tools[name] else {
                throw fail("\"tool\" must be \"finger\", \"mouse\", \"pen\" or \"eraser\"")
            }
            type = tool
        }
        return TimedReplayEvent(
            time: time,
            event: .touch(id: UInt64(idNumber), phase: phase, location: Point(x: x, y: y), force: force, type: type))
    }

    private static func coordinate(_ value: JSONValue?, name: String, line: Int) throws(ReplayScriptError) -> Double {
        guard let value else { throw ReplayScriptError(line: line, problem: "missing \"\(name)\"") }
        guard case .number(let number) = value, number.isFinite else {
            throw ReplayScriptError(line: line, problem: "\"\(name)\" must be a finite number")
        }
        guard abs(number) <= DocumentCodec.coordinateLimit else {
            throw ReplayScriptError(
                line: line,
                problem: "\"\(name)\" is out of range: at most ±\(Int(DocumentCodec.coordinateLimit)) pixels")
        }
        return number
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return result
    }
}
