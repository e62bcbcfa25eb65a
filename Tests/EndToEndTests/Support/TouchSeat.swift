import WestonTestSupport

/// A compositor's seat as the Wayland tests drive it, whichever compositor injects the input (weston's input module,
/// KWin's fake input): touches grouped in frames, keys, and a sync that returns once the compositor has handled what
/// was sent. What a person does with it (a stroke, a tap, a key press) is written once, here.
protocol TouchSeat {
    func touchDown(id: Int, x: Double, y: Double) throws
    func touchMotion(id: Int, x: Double, y: Double) throws
    func touchUp(id: Int) throws
    func touchFrame() throws
    func key(_ code: Int, pressed: Bool) throws
    func sync(timeout: Duration) throws
}

extension TouchSeat {
    /// A touch from `begin` to `end` in eight moves, each in a frame of its own, then up.
    func stroke(id: Int, from begin: (x: Double, y: Double), to end: (x: Double, y: Double)) throws {
        try touchDown(id: id, x: begin.x, y: begin.y)
        try touchFrame()
        for step in 1...8 {
            let t = Double(step) / 8
            try touchMotion(id: id, x: begin.x + (end.x - begin.x) * t, y: begin.y + (end.y - begin.y) * t)
            try touchFrame()
        }
        try touchUp(id: id)
        try touchFrame()
        try sync(timeout: .seconds(5))
    }

    /// A quick tap at `point`.
    func tap(id: Int, at point: (x: Double, y: Double)) throws {
        try touchDown(id: id, x: point.x, y: point.y)
        try touchFrame()
        try touchUp(id: id)
        try touchFrame()
        try sync(timeout: .seconds(5))
    }

    /// Presses and releases Linux key `code`, with key `modifier` held around it when given.
    func press(_ code: Int, holding modifier: Int? = nil) throws {
        if let modifier { try key(modifier, pressed: true) }
        try key(code, pressed: true)
        try key(code, pressed: false)
        if let modifier { try key(modifier, pressed: false) }
        try sync(timeout: .seconds(5))
    }
}

extension WestonInput: TouchSeat {}
