import CX11
import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerX11

/// Keys and focus through the translator: keysyms, modifiers, releases for the registry, focus in and out.
extension EventTranslatorTests {
    @Test("a key press is the keysym's name with the Control and Shift modifiers held")
    func keyPressNamesTheKeyAndModifiers() {
        var translator = Self.translator(keysym: 0x7A)  // XK_z
        var key = XEvent()
        key.xkey.type = KeyPress
        key.xkey.window = Self.windowID
        key.xkey.state = UInt32(ControlMask | ShiftMask)
        let events = translator.translate(&key, now: 1)
        guard events.count == 1, case .key(let stroke) = events[0] else {
            Issue.record("expected a key, got \(events)")
            return
        }
        #expect(
            stroke
                == KeyStroke(
                    name: "z", control: true, shift: true,
                    report: KeyEventReport(
                        pressed: true, keysym: 0x7A, keycode: 0, modifiers: 5, time: 0, text: "z", isText: false)))
    }

    @Test("a key release is told to the accessibility registry as one, with the key's keysym, code and modifiers")
    func keyReleaseIsReported() {
        var translator = Self.translator(keysym: 0xFF09)  // XK_Tab
        var key = XEvent()
        key.xkey.type = KeyRelease
        key.xkey.window = Self.windowID
        key.xkey.keycode = 23
        key.xkey.state = UInt32(ShiftMask)
        key.xkey.time = 1234
        let events = translator.translate(&key, now: 1)
        guard events.count == 1, case .keyReleased(let report) = events[0] else {
            Issue.record("expected a key release, got \(events)")
            return
        }
        #expect(
            report
                == KeyEventReport(
                    pressed: false, keysym: 0xFF09, keycode: 23, modifiers: 1, time: 1234, text: "Tab", isText: false))
    }

    @Test("a key press with Alt or Super held says so", arguments: [Mod1Mask, Mod4Mask])
    func keyPressWithAltOrSuper(mask: Int32) {
        var translator = Self.translator(keysym: 0x63)  // XK_c
        var key = XEvent()
        key.xkey.type = KeyPress
        key.xkey.window = Self.windowID
        key.xkey.state = UInt32(mask)
        let events = translator.translate(&key, now: 1)
        guard events.count == 1, case .key(let stroke) = events[0] else {
            Issue.record("expected a key, got \(events)")
            return
        }
        #expect(stroke.name == "c" && !stroke.control && !stroke.shift && stroke.alt)
        #expect(stroke.report?.modifiers == UInt32(mask))
    }

    @Test(
        "the window's focus in and out are the window gaining and losing the focus; a grab's and an inner one's are not"
    )
    func focusInAndOut() {
        var translator = Self.translator(keysym: 0)
        func focus(_ type: Int32, mode: Int32, detail: Int32) -> [Bool] {
            var event = XEvent()
            event.xfocus.type = type
            event.xfocus.window = Self.windowID
            event.xfocus.mode = mode
            event.xfocus.detail = detail
            return translator.translate(&event, now: 1).compactMap { event in
                if case .focusChanged(let active) = event { return active }
                return nil
            }
        }
        #expect(focus(FocusIn, mode: NotifyNormal, detail: NotifyNonlinear) == [true])
        #expect(focus(FocusOut, mode: NotifyNormal, detail: NotifyNonlinear) == [false])
        #expect(focus(FocusOut, mode: NotifyGrab, detail: NotifyNonlinear).isEmpty)
        #expect(focus(FocusIn, mode: NotifyNormal, detail: NotifyInferior).isEmpty)
        #expect(focus(FocusIn, mode: NotifyNormal, detail: NotifyPointer) == [true], "focus follows the pointer")
    }

    @Test("a key press without modifiers has neither")
    func keyPressWithoutModifiers() {
        var translator = Self.translator(keysym: 0xFF1B)  // XK_Escape
        var key = XEvent()
        key.xkey.type = KeyPress
        key.xkey.window = Self.windowID
        let events = translator.translate(&key, now: 1)
        guard events.count == 1, case .key(let stroke) = events[0] else {
            Issue.record("expected a key, got \(events)")
            return
        }
        #expect(stroke.name == "Escape" && !stroke.control && !stroke.shift && !stroke.alt)
        #expect(stroke.report?.modifiers == 0 && stroke.report?.keysym == 0xFF1B && stroke.report?.pressed == true)
    }
}
