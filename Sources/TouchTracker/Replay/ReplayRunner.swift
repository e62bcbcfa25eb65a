import TouchKit

/// Runs a replay script through a `DrawingController` on its virtual clock: each event at its time, then time runs
/// on until no gesture timer is pending (so a last single tap is recognized once the double tap fails).
public enum ReplayRunner {
    public static func run(_ events: [TimedReplayEvent], on controller: DrawingController) {
        for timed in events {
            controller.advanceTime(to: timed.time)
            switch timed.event {
            case .touch(let id, let phase, let location, let force, let type):
                controller.send(
                    TouchInput(
                        id: id, phase: phase, location: location, timestamp: timed.time, force: force, type: type))
            case .stylusHover(let location, let tool):
                controller.stylusHovered(at: location, tool: tool)
            case .stylusLeft:
                controller.stylusLeft(at: timed.time)
            case .key(let command):
                controller.handleKey(command)
            case .menu(let title):
                // Scripts name items by their English titles; a title no menu has activates nothing.
                if let item = MenuItem(title: title) { controller.activate(item) }
            case .scroll(let input):
                controller.scroll(input)
            }
        }
        controller.window.clock.runUntilIdle()
    }
}
