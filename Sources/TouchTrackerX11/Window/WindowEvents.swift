import TouchKit

/// What both windows do alike with the window's own events: gather the exposed area for the next frame, say `ready`
/// (with `--verbose`) once the first batch of exposures is complete, and follow a new size (the app's canvas, the
/// presenter, then the app's content). The end-to-end tests and the benchmark wait for the `ready` line.
struct WindowEvents {
    private let host: X11WindowHost
    private let verbose: Bool
    private let log: (String) -> Void
    private var exposed = Rect.null
    private var isReady = false

    init(host: X11WindowHost, verbose: Bool, log: @escaping (String) -> Void) {
        self.host = host
        self.verbose = verbose
        self.log = log
    }

    /// `.expose`: adds `rect` to the exposed area; when the first batch of exposures ends, runs `becameReady` and
    /// says `ready`.
    mutating func expose(_ rect: Rect, isLast: Bool, becameReady: () -> Void = {}) {
        exposed = exposed.union(rect)
        if isLast, !isReady {
            isReady = true
            becameReady()
            if verbose { log("ready window=0x\(String(host.window.id, radix: 16))") }
        }
    }

    /// `.resized`: when the size really changed, `resizeCanvas` makes the app's canvas that size (a failure is
    /// logged), the presenter follows, and `resizeContent` tells the app's content.
    func resize(
        width: Int, height: Int, resizeCanvas: (_ width: Int, _ height: Int) throws -> Void,
        resizeContent: (Size) -> Void
    ) {
        guard host.window.noteSize(width: width, height: height) else { return }
        do {
            try resizeCanvas(width, height)
        } catch {
            log("cannot resize the canvas to \(width)x\(height): \(error)")
        }
        host.presenter.resize(width: width, height: height)
        resizeContent(Size(width: Double(width), height: Double(height)))
    }

    /// The area exposed since the last call, for the frame about to be drawn.
    mutating func takeExposed() -> Rect {
        defer { exposed = .null }
        return exposed
    }
}
