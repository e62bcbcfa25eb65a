import Foundation
import TouchKit
import TouchTracker
import TouchTrackerAccessibility
import TouchTrackerRender
import TouchTrackerStore

/// Ctrl+S's export and Ctrl+C/Ctrl+V: offered, read and pasted (large pastes prepared off the loop).
extension DrawingSession {
    // MARK: Export

    /// Ctrl+S: writes the drawing as it is shown (without menu or selection) to `exportPath`, and says so on screen.
    /// The drawing is exported on another thread (`BackgroundExport`); its notice shows when the file is written.
    func exportPNG() {
        guard let path = options.exportPath else { return }
        // What the window shows, as sharp as it shows it: the view's part of the drawing, at its zoom and the screen's
        // scale.
        let viewport = controller.viewport
        let size = Size(width: Double(renderer.width) / scale, height: Double(renderer.height) / scale)
        export.start(
            controller.drawingView.snapshot, to: path, sparing: options.documentPath,
            area: viewport.visibleRect(in: size), scale: viewport.zoom * scale,
            lineWidth: controller.drawingView.lineWidth)
    }

    /// Shows the notice of each export that finished.
    func reportExports() {
        for outcome in export.takeOutcomes() {
            switch outcome {
            case .exported(let path):
                controller.showNotice(.exported(PathText.shown(PathText.name(of: path))))
                if options.verbose { log("exported \(PathText.shown(path))") }
            case .failed(let path, let reason):
                controller.showNotice(.cannotExport(PathText.shown(PathText.name(of: path))))
                log("cannot export \(reason)")
            }
        }
    }

    // MARK: The clipboard

    /// Ctrl+C: the host offers `shapes` (their PNG and JSON are made when asked for).
    func copy(_ shapes: ClipboardShapes) {
        let offer = ClipboardOffer(shapes, lineWidth: controller.drawingView.lineWidth, wakeUp: host.wakeUp)
        if !host.offerClipboard(offer) {
            log("cannot copy: the window system gave the clipboard to another client")
        } else if options.verbose {
            log("copied \(shapes.isSelection ? "the selected shape" : "the drawing") to the clipboard")
        }
    }

    /// Ctrl+V: the clipboard's shapes go where the keyboard cursor is when the keyboard moved it last, else where
    /// the pointer is (the window's middle when it is elsewhere).
    func paste() {
        // One paste at a time: while one is read or prepared a second press is ignored whole. (A read that never
        // answers is given up after 10 s, longer than the hosts' own time-outs.)
        if let started = clipboardReadStarted, MonotonicClock.now() - started < 10 { return }
        guard !pasteInPreparation else { return }
        let window = controller.window.bounds
        let middle = Point(x: window.midX, y: window.midY)
        // In drawing units: the pointer's and the window's middle through the view (zoomed and scrolled).
        let viewport = controller.viewport
        if let cursor = controller.keyboardPastePoint {
            pastePoint = cursor
        } else if let pointer = host.pointerLocation(), (window.minX..<window.maxX).contains(pointer.x),
            (window.minY..<window.maxY).contains(pointer.y)
        {
            pastePoint = viewport.drawingPoint(at: pointer)
        } else {
            pastePoint = viewport.drawingPoint(at: middle)
        }
        if let outcome = host.readClipboard() {
            pasteArrived(outcome)
        } else {
            clipboardReadStarted = MonotonicClock.now()
        }
    }

    /// What the clipboard held, once the host has read it: its shapes go into the drawing, or a notice says why
    /// nothing was pasted.
    public func pasteArrived(_ outcome: PasteOutcome) {
        clipboardReadStarted = nil
        switch outcome {
        case .shapes(let shapes) where controller.drawingView.kindOverLimit(adding: shapes) != nil:
            // Refused whole, with its notice, before anything is prepared.
            controller.paste(shapes, at: pastePoint)
            if options.verbose { log("paste of \(shapes.count) shapes refused: the drawing would pass its limits") }
        case .shapes(let shapes) where shapes.count > DrawingController.largePaste:
            startBackgroundPaste { shapes }
        case .shapes(let shapes):
            controller.paste(shapes, at: pastePoint)
            if options.verbose { log("pasted \(shapes.count) shapes") }
        case .ownCopy(let snapshot) where snapshot.shapes.count > DrawingController.largePaste:
            startBackgroundPaste { snapshot.drawing.shapes }
        case .ownCopy(let snapshot):
            pasteArrived(.shapes(snapshot.drawing.shapes))
        case .nothing:
            controller.showNotice(.nothingToPaste)
        case .unreadable(let reason):
            controller.showNotice(.cannotPaste)
            log("cannot paste: the clipboard's drawing is not readable: \(reason)")
        }
    }

    /// Prepares a large paste off the loop: `shapes` are read, placed on the paste point and put on top of the
    /// drawing's shapes as they are now.
    func startBackgroundPaste(_ shapes: @escaping @Sendable () -> [Shape]) {
        // One at a time: a Ctrl+V while a large paste is being prepared is ignored, as a second press would be
        // while the clipboard is still being read.
        guard !pasteInPreparation else { return }
        pasteInPreparation = true
        pasteAttempts = 0
        let point = pastePoint
        let lineWidth = controller.drawingView.lineWidth
        backgroundPaste.start(onto: controller.drawingView.shapes) {
            ClipboardShapes.placed(shapes(), centredOn: point, defaultWidth: lineWidth)
        }
    }

    /// Swaps in a large paste prepared off the loop, or prepares it again when the drawing changed meanwhile. After
    /// three tries (someone keeps editing, a drag goes on) it is added on the loop.
    func adoptPreparedPaste() {
        guard let prepared = backgroundPaste.take() else { return }
        let start = MonotonicClock.now()
        if let kind = controller.drawingView.kindOverLimit(adding: prepared) {
            // The drawing grew while it was prepared: the controller refuses it whole, with its notice.
            pasteInPreparation = false
            _ = controller.paste(prepared)
            if options.verbose { log("paste refused: the drawing would hold more \(kind)s than a document may") }
        } else if controller.paste(prepared) {
            pasteInPreparation = false
            if options.verbose {
                log(
                    String(
                        format: "pasted %d shapes (prepared off the event loop; %.1f ms on it)", prepared.shapes.count,
                        (MonotonicClock.now() - start) * 1000))
            }
        } else if pasteAttempts < 3 {
            pasteAttempts += 1
            backgroundPaste.start(onto: controller.drawingView.shapes) { prepared.shapes }
        } else {
            pasteInPreparation = false
            // Already centred on the paste point: placing them there again moves them by nothing.
            controller.paste(prepared.shapes, at: pastePoint)
            if options.verbose { log("pasted \(prepared.shapes.count) shapes on the event loop") }
        }
    }
}
