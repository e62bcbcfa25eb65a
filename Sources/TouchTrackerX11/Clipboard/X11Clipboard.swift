import CX11
import TouchKit
import TouchTracker
import TouchTrackerSession

/// The window's clipboard (DESIGN.md §2.10a): Ctrl+C makes it the CLIPBOARD selection's owner (`ClipboardOwner`),
/// Ctrl+V fetches another client's shapes (`ClipboardPaster`) — or takes its own offer directly — and at exit the
/// offer is handed to a clipboard manager, where one runs, so a copy outlives the window.
final class X11Clipboard {
    private let display: X11Display
    private let window: CX11.Window
    private let atoms: ClipboardAtoms
    private let owner: ClipboardOwner
    private let paster: ClipboardPaster
    private let log: (String) -> Void
    /// At exit: the clipboard manager's answer to SAVE_TARGETS (true: it took the clipboard), nil before it.
    private var handOverAnswer: Bool?

    init(
        display: X11Display, window: CX11.Window, wakeUp: @escaping @Sendable () -> Void,
        log: @escaping (String) -> Void
    ) {
        self.display = display
        self.window = window
        self.log = log
        atoms = ClipboardAtoms(display: display)
        let connection = ClipboardConnection(display: display, window: window, atoms: atoms, wakeUp: wakeUp, log: log)
        owner = ClipboardOwner(connection)
        paster = ClipboardPaster(connection)
    }

    /// Offers `offer` on the clipboard from server time `time`. Returns false when the server did not make the
    /// window the owner.
    func copy(_ offer: ClipboardOffer, time: UInt) -> Bool {
        owner.take(offer, time: Time(time))
    }

    /// Starts a paste at server time `time`. When the window owns the clipboard its own shapes are the outcome at
    /// once; otherwise the outcome comes later from `handle` or `service`.
    func paste(time: UInt, now: Double) -> ClipboardPaster.Outcome? {
        if let offer = owner.offer, XGetSelectionOwner(display.pointer, atoms.clipboard) == window {
            return .ownCopy(offer.shapes.snapshot)
        }
        paster.start(time: Time(time), now: now)
        return nil
    }

    /// Handles one selection event; returns a paste's outcome when this event completed one.
    func handle(_ event: ClipboardEvent, now: Double) -> ClipboardPaster.Outcome? {
        switch event {
        case .request(let request):
            owner.handle(request, now: now)
        case .cleared(let selection):
            if selection == atoms.clipboard { owner.lost() }
        case .converted(let selection, let target, let property):
            if selection == atoms.clipboardManager, target == atoms.saveTargets {
                handOverAnswer = property != 0
                if property == 0 { log("clipboard: the clipboard manager refused to take the clipboard over") }
                return nil
            }
            guard selection == atoms.clipboard else { return nil }
            return paster.converted(target: target, property: property, now: now)
        case .propertyChanged(let changedWindow, let property, let deleted):
            if deleted { owner.propertyDeleted(window: changedWindow, property: property, now: now) }
            paster.propertyChanged(window: changedWindow, property: property, deleted: deleted, now: now)
        }
        return nil
    }

    /// Answers requests whose data is ready; returns a paste's outcome once decoded.
    func service(now: Double) -> ClipboardPaster.Outcome? {
        owner.service(now: now)
        return paster.service(now: now)
    }

    /// When the clipboard next has to give up on someone (an owner that stopped answering a paste, a requestor
    /// that stopped taking an INCR transfer): the event loop wakes by then even without input.
    var nextDeadline: Double? {
        [owner.nextDeadline, paster.nextDeadline].compactMap { $0 }.min()
    }

    /// At exit, while the window owns the clipboard and a clipboard manager runs: asks the manager, at server time
    /// `time`, to take the clipboard's contents over (SAVE_TARGETS, every target it lists), serving its requests
    /// with `serve` — the caller's loop over X events — until it answers, or nothing has happened for `patience`
    /// seconds (an encoding under way counts). Returns whether the manager took them.
    func handOverToManager(
        time: UInt, patience: Double = 5, serve: (_ isDone: () -> Bool, _ deadline: () -> Double) -> Void
    ) -> Bool {
        guard owner.offer != nil, XGetSelectionOwner(display.pointer, atoms.clipboard) == window,
            XGetSelectionOwner(display.pointer, atoms.clipboardManager) != 0
        else { return false }
        handOverAnswer = nil
        // No list in the property: the manager saves every target TARGETS lists (the PNG too).
        XDeleteProperty(display.pointer, window, atoms.transfer)
        XConvertSelection(
            display.pointer, atoms.clipboardManager, atoms.saveTargets, atoms.transfer, window, Time(time))
        display.flush()
        let start = MonotonicClock.now()
        serve(
            { handOverAnswer != nil },
            {
                let lastProgress = max(start, owner.lastActivity)
                return (owner.offer?.isEncoding == true ? MonotonicClock.now() : lastProgress) + patience
            })
        return handOverAnswer == true
    }
}
