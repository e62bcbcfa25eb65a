import TouchKit

/// One event of a demo replay: the touch and key events of a replay script (DESIGN.md §3).
public enum DemoReplayEvent: Hashable, Sendable {
    case touch(id: UInt64, phase: TouchInput.Phase, location: Point, force: Double?)
    case key(name: String, control: Bool, shift: Bool)
}

/// Runs demo replay events on a host's virtual clock: each event at its time (seconds from the start), then the
/// clock runs on until no timer is pending, which also lets every animation finish.
public enum DemoReplay {
    public static func run(_ events: [(time: Double, event: DemoReplayEvent)], on host: DemoHost) {
        for (time, event) in events {
            host.clock.advance(to: time)
            switch event {
            case .touch(let id, let phase, let location, let force):
                host.send(TouchInput(id: id, phase: phase, location: location, timestamp: time, force: force))
            case .key(let name, let control, let shift):
                host.handleKey(name: name, control: control, shift: shift)
            }
        }
        host.clock.runUntilIdle()
    }
}
