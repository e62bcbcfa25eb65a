import CX11
import Foundation
import Testing
import TouchKit
import TouchTracker
import XorgTestSupport

/// The window as a screen reader finds it: the real app under Xorg on a private session bus with at-spi2-core's
/// accessibility bus, read and driven by an assistive client (pyatspi).
@Suite("Screen readers", .serialized)
struct ScreenReaderTests {
    static let drawing = Drawing(
        lines: [
            Line(begin: Point(x: 10, y: 20), end: Point(x: 300, y: 40)),
            Line(begin: Point(x: 50, y: 60), end: Point(x: 60, y: 200), color: .red),
        ],
        circles: [Circle(frame: Rect(x: 300, y: 200, width: 100, height: 100))])

    private func launch(
        _ bus: AccessibilityBus, environment: [String: String?] = [:], x: Int = 0, y: Int = 0
    ) async throws -> AppSession {
        let session = try await AppSession.launch(
            frame: AppSession.Frame(x: x, y: y, width: 640, height: 480), drawing: Self.drawing,
            environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 })
        try await session.app.waitForStderrLine(containing: "document read: 2 lines")
        return session
    }

    /// Moves the pointer away from the shapes, where the window opened (so no hover or paste lands on them), and
    /// lets the window see it.
    private func parkPointer(in session: AppSession) async throws {
        let pointer = try session.server.pointer
        try pointer.moveTo(x: 600, y: 450)
        try pointer.sync()
        try await Task.sleep(for: .milliseconds(300))
    }

    @Test(
        """
        an assistive client finds the application, its window and the drawing, and reads every shape's name, role \
        and extents in drawing order
        """)
    func clientReadsEveryShape() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus)
        defer { session.stop() }
        let result = try bus.runClient(
            AccessibilityBus.findDrawing + """
                print("app", app.getRoleName(), app.childCount)
                print("window", window.name, window.getRoleName())
                print("drawing", drawing.name, drawing.getRoleName(), drawing.childCount)
                print("described", drawing.description)
                for shape in drawing:
                    e = shape.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                    print("shape", shape.name, "|", shape.getRoleName(), e.x, e.y, e.width, e.height)
                """)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        // The window, and the notification through which the app speaks to Orca 43.
        #expect(lines.contains("app application 2"), "\(result.output)")
        #expect(lines.contains("window drawing.json — TouchTracker frame"), "\(result.output)")
        #expect(lines.contains("drawing Drawing, 2 lines, 1 circle canvas 3"), "\(result.output)")
        // One short sentence pointing to the key help, not the help itself.
        #expect(lines.contains("described Draw with the arrows and Space; press H for the keys."), "\(result.output)")
        #expect(lines.contains("shape Line from 10, 20 to 300, 40 | image 4 14 302 32"), "\(result.output)")
        #expect(lines.contains("shape Line from 50, 60 to 60, 200, Red | image 44 54 22 152"), "\(result.output)")
        #expect(lines.contains("shape Circle at 350, 250, radius 50 | image 294 194 112 112"), "\(result.output)")
    }

    @Test("a point in window coordinates finds the shape there, as one on the screen does; the circle's index is 2")
    func accessibleAtAWindowPoint() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        // Away from the screen's corner, so the window's and the screen's coordinates differ.
        let session = try await launch(bus, x: 200, y: 150)
        defer { session.stop() }
        let result = try bus.runClient(
            AccessibilityBus.findDrawing + """
                c = drawing.queryComponent()
                at = c.getAccessibleAtPoint(55, 130, pyatspi.WINDOW_COORDS)
                print("window", at.name if at else None)
                e = c.getExtents(pyatspi.DESKTOP_COORDS)
                at = c.getAccessibleAtPoint(e.x + 55, e.y + 130, pyatspi.DESKTOP_COORDS)
                print("screen", at.name if at else None)
                print("index", drawing[2].getIndexInParent())
                """)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("window Line from 50, 60 to 60, 200, Red"), "\(result.output)")
        #expect(lines.contains("screen Line from 50, 60 to 60, 200, Red"), "\(result.output)")
        #expect(lines.contains("index 2"), "\(result.output)")
    }

    @Test("the client's select and delete actions select and delete the shape: the tree and the saved document lose it")
    func deleteActionDeletes() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus)
        defer { session.stop() }
        let result = try bus.runClient(
            AccessibilityBus.findDrawing + """
                shape = drawing[0]
                action = shape.queryAction()
                names = [action.getName(i) for i in range(action.nActions)]
                print("actions", names)
                action.doAction(names.index("select"))
                for attempt in range(100):
                    if drawing[0].getState().contains(pyatspi.STATE_SELECTED): break
                    time.sleep(0.05)
                print("selected", drawing[0].getState().contains(pyatspi.STATE_SELECTED))
                drawing[0].queryAction().doAction(names.index("delete"))
                for attempt in range(100):
                    if drawing.childCount == 2: break
                    time.sleep(0.05)
                print("children", drawing.childCount, "|", drawing.name)
                """)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("actions ['select', 'delete']"), "\(result.output)")
        #expect(result.output.contains("selected True"), "\(result.output)")
        #expect(result.output.contains("children 2 | Drawing, 1 line, 1 circle"), "\(result.output)")
        try await waitUntil("the delete saved", timeout: .seconds(10), poll: .milliseconds(50)) {
            SavedDocument.read(session.document)?.lines.count == 1
        }
        #expect(SavedDocument.read(session.document)?.lines.first?.begin.x == 50)
    }

    @Test("with the German catalog the tree speaks German")
    func treeSpeaksTheUsersLanguage() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus, environment: ["LANGUAGE": "de", "LANG": "de_DE.UTF-8"])
        defer { session.stop() }
        let result = try bus.runClient(
            AccessibilityBus.findDrawing + """
                print("drawing", drawing.name)
                print("shape", drawing[1].name)
                """)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("drawing Zeichnung, 2 Linien, 1 Kreis"), "\(result.output)")
        #expect(result.output.contains("shape Linie von 50, 60 nach 60, 200, Rot"), "\(result.output)")
    }

    @Test("the settings menu's switches are checkable, and the one that is on is checked")
    func settingsSwitchesSayWhetherTheyAreOn() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus)
        defer { session.stop() }
        // O turns two-finger circles on; F2 opens the settings menu.
        try session.pressEach(try session.keycodes(["o", "F2"]))
        let result = try bus.runClient(
            AccessibilityBus.findDrawing + """
                for attempt in range(100):
                    if window.childCount == 2: break
                    time.sleep(0.05)
                for item in window[1]:
                    state = item.getState()
                    print("item", item.name, state.contains(pyatspi.STATE_CHECKABLE), state.contains(pyatspi.STATE_CHECKED))
                """)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("item Two-Finger Circles True True"), "\(result.output)")
        #expect(result.output.contains("item Colour by Angle True False"), "\(result.output)")
    }

    @Test("an open menu is a menu of the window with its items, and the client's click on Delete deletes the shape")
    func openMenuIsExposed() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus)
        defer { session.stop() }
        // The keyboard selects the second line and opens its menu (Tab, Tab, Menu).
        let keys = try session.keycodes(["Tab", "Tab", "Menu"])
        let pointer = try session.server.pointer
        try pointer.moveTo(x: 600, y: 450)
        try pointer.sync()
        try session.pressEach(keys)
        let result = try bus.runClient(
            AccessibilityBus.findDrawing + """
                for attempt in range(100):
                    if window.childCount == 2: break
                    time.sleep(0.05)
                menu = window[1]
                print("menu", menu.getRoleName(), [item.name for item in menu], [item.getRoleName() for item in menu])
                item = menu[0]
                item.queryAction().doAction(0)
                for attempt in range(100):
                    if drawing.childCount == 2 and window.childCount == 1: break
                    time.sleep(0.05)
                print("after", drawing.childCount, window.childCount)
                """)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("menu menu ['Delete'] ['menu item']"), "\(result.output)")
        #expect(result.output.contains("after 2 1"), "\(result.output)")
        try await waitUntil("the delete saved", timeout: .seconds(10), poll: .milliseconds(50)) {
            SavedDocument.read(session.document)?.lines.count == 1
        }
        #expect(SavedDocument.read(session.document)?.lines.first?.begin.x == 10)
    }

    @Test(
        """
        a listening client hears the selection change, the selected shape move, a notice spoken and the shape \
        deleted, as they happen
        """)
    func changesAreAnnounced() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus)
        defer { session.stop() }
        let client = try bus.startClient(
            AccessibilityBus.findDrawing + """
                from gi.repository import GLib
                heard = []
                def listen(event):
                    heard.append(event.type)
                    if str(event.type).startswith("object:property-change:accessible-name"):
                        heard.append("renamed " + event.source.getRoleName())
                pyatspi.Registry.registerEventListener(
                    listen, "object:children-changed", "object:state-changed:selected", "object:bounds-changed",
                    "object:announcement", "object:selection-changed", "object:property-change:accessible-name")
                def select():
                    drawing[0].queryAction().doAction(0)
                    print("selected", flush=True)
                    return False
                def delete():
                    drawing[0].queryAction().doAction(1)
                    return False
                def finish():
                    pyatspi.Registry.stop()
                    return False
                GLib.timeout_add(500, select)
                GLib.timeout_add(4000, delete)
                GLib.timeout_add(5500, finish)
                pyatspi.Registry.start()
                print("heard", sorted(set(str(kind) for kind in heard)))
                """)
        defer { _ = client.stop(timeout: .seconds(2)) }
        try await waitUntil("the client to select", timeout: .seconds(10), poll: .milliseconds(50)) {
            String(decoding: client.stdout, as: UTF8.self).contains("selected")
        }
        // The keyboard moves the selected line and copies it (a notice: "Copied the selected shape").
        let codes = try session.keycodes(["Right", "Control_L", "c"])
        try await parkPointer(in: session)
        try session.pressEach([codes[0]])
        try session.pressChord([codes[1], codes[2]])
        let ended = try await waitForValue("the client to finish", timeout: .seconds(20), poll: .milliseconds(100)) {
            client.exit
        }
        // Its output is read on other threads and may trail its exit.
        try await waitUntil("the client's output read to the end", timeout: .seconds(5)) { client.outputClosed }
        let output = String(decoding: client.stdout, as: UTF8.self) + String(decoding: client.stderr, as: UTF8.self)
        #expect(ended.status == 0, "\(output)")
        for kind in [
            "object:state-changed:selected", "object:bounds-changed", "object:announcement",
            "object:children-changed:remove", "object:selection-changed", "renamed image",
        ] {
            #expect(output.contains("'\(kind)'"), "\(kind) not heard: \(output)")
        }
    }

    /// The names objects of `role` take, as a listening client hears them (accessible-name changes), while `act`
    /// drives the window (its pointer parked away from the shapes first); the client listens for `seconds`.
    private func namesHeard(
        of role: String, seconds: Int, while act: (AppSession) async throws -> Void
    ) async throws -> [String] {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus)
        defer { session.stop() }
        let client = try await ListeningClient.start(
            on: bus, events: ["object:property-change:accessible-name"],
            listen: """
                if event.source.getRoleName() == "\(role)":
                    print("named", event.source.name, flush=True)
                """, seconds: seconds)
        defer { client.stop() }
        try await parkPointer(in: session)
        try await act(session)
        let (status, output) = try await client.finish()
        #expect(status == 0, "\(output)")
        return output.split(separator: "\n").filter { $0.hasPrefix("named ") }.map { String($0.dropFirst(6)) }
    }

    @Test(
        """
        a listening client hears a shape's new name once a run of arrow presses rests, not at each press, and \
        again when Ctrl+Z puts it back
        """)
    func movedShapeIsRenamedOnceItRestsAndAfterUndo() async throws {
        let names = try await namesHeard(of: "image", seconds: 6) { session in
            let codes = try session.keycodes(["Tab", "Right", "Escape", "Control_L", "z"])
            // Tab selects the first line; five presses of Right move it 50 px in one run; Escape deselects; Ctrl+Z
            // takes the run back.
            try session.pressEach([codes[0]])
            try await Task.sleep(for: .milliseconds(300))
            try session.pressEach(Array(repeating: codes[1], count: 5))
            try await Task.sleep(for: .milliseconds(1000))
            try session.pressEach([codes[2]])
            try session.pressChord([codes[3], codes[4]])
        }
        #expect(names == ["Line from 60, 20 to 350, 40", "Line from 10, 20 to 300, 40"])
    }

    @Test("a listening client hears the menu renamed as the colour menu takes the settings' place")
    func menuGivingWayToAnotherIsRenamed() async throws {
        let names = try await namesHeard(of: "menu", seconds: 5) { session in
            // F2 opens the settings on their first item; Up wraps to Keys, the last, and Up again goes to Colours;
            // Return opens the colours.
            for key in try session.keycodes(["F2", "Up", "Up", "Return"]) {
                try session.pressEach([key])
                try await Task.sleep(for: .milliseconds(300))
            }
        }
        #expect(names == ["Settings", "Colours"])
    }

    @Test(
        """
        the menus are named, their actions have translated names and descriptions, and a client's SelectChild \
        highlights an item
        """)
    func menusAndActionsSpeakTheUsersLanguage() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus, environment: ["LANGUAGE": "de", "LANG": "de_DE.UTF-8"])
        defer { session.stop() }
        try await parkPointer(in: session)
        // F2 opens the settings, with their first item highlighted.
        try session.pressEach(try session.keycodes(["F2"]))
        try await Task.sleep(for: .milliseconds(500))
        let result = try bus.runClient(
            AccessibilityBus.findDrawing + """
                import time
                menu = window[1]
                print("menu", menu.name, "|", menu.getRoleName())
                action = drawing[0].queryAction()
                print("shape actions", [(action.getName(i), action.getLocalizedName(i), action.getDescription(i))
                    for i in range(action.nActions)])
                item = menu[0].queryAction()
                print("item action", item.getName(0), "|", item.getLocalizedName(0), "|", item.getDescription(0))
                print("selected child", menu.querySelection().selectChild(2))
                time.sleep(0.5)
                print("highlighted", menu.querySelection().getSelectedChild(0).name)
                """)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("menu Einstellungen | menu"), "\(result.output)")
        #expect(
            lines.contains(
                "shape actions [('select', 'Auswählen', 'Die Form auswählen'), ('delete', 'Löschen', 'Die Form löschen')]"
            ), "\(result.output)")
        #expect(lines.contains("item action click | Klicken | Den Eintrag wählen"), "\(result.output)")
        #expect(lines.contains("selected child True"), "\(result.output)")
        #expect(lines.contains("highlighted Breite nach Tempo"), "\(result.output)")
    }

    @Test(
        """
        a listening client hears the focus go to the selected shape, to each menu item as the keyboard highlights \
        it, and back to the shape as the menu closes
        """)
    func focusFollowsTheMenuHighlight() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus)
        defer { session.stop() }
        let client = try await ListeningClient.start(
            on: bus,
            events: ["object:state-changed:focused", "object:state-changed:checked", "object:selection-changed"],
            listen: """
                if event.detail1 == 1 or str(event.type).startswith("object:selection-changed"):
                    print("heard", event.type, event.source.getRoleName(), event.source.name, flush=True)
                """, seconds: 8)
        defer { client.stop() }
        try await parkPointer(in: session)
        // Tab selects the first line, Menu opens its menu on Delete, Down stays there, Escape closes the menu; F2
        // opens the settings on their first item, A turns Colour by Angle on (its tick), Escape closes them.
        for key in try session.keycodes(["Tab", "Menu", "Down", "Escape", "F2", "a", "Escape"]) {
            try session.pressEach([key])
            try await Task.sleep(for: .milliseconds(300))
        }
        let (status, output) = try await client.finish()
        #expect(status == 0, "\(output)")
        let focus = output.split(separator: "\n").filter { $0.hasPrefix("heard object:state-changed:focused") }
        #expect(
            focus.map { $0.split(separator: " ", maxSplits: 2).last ?? "" } == [
                "image Line from 10, 20 to 300, 40", "menu item Delete", "image Line from 10, 20 to 300, 40",
                "menu item Two-Finger Circles", "image Line from 10, 20 to 300, 40",
            ], "\(output)")
        #expect(output.contains("heard object:state-changed:checked menu item Colour by Angle"), "\(output)")
        #expect(output.contains("heard object:selection-changed menu"), "\(output)")
    }

    @Test(
        """
        a listening client hears where the keyboard cursor rests, the line Space draws from there, and the circle \
        Shift+Space draws as it grows and once finished
        """)
    func keyboardDrawingIsSpoken() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus)
        defer { session.stop() }
        let client = try await ListeningClient.start(
            on: bus, events: ["object:announcement"], listen: #"print("said", event.any_data, flush=True)"#, seconds: 6)
        defer { client.stop() }
        try await parkPointer(in: session)
        // The cursor starts at the window's middle (320, 240): Right, a rest, then a line 20 px to the right.
        for (key, rest) in [("Right", 800), ("space", 100), ("Right", 100), ("Right", 100), ("space", 300)] {
            try session.pressEach(try session.keycodes([key]))
            try await Task.sleep(for: .milliseconds(rest))
        }
        // From the line's end (350, 240), a circle whose opposite corner goes 20 px right and 20 px down.
        try session.pressChord(try session.keycodes(["Shift_L", "space"]))
        for (key, rest) in [("Right", 100), ("Right", 100), ("Down", 100), ("Down", 800), ("space", 300)] {
            try session.pressEach(try session.keycodes([key]))
            try await Task.sleep(for: .milliseconds(rest))
        }
        let (status, output) = try await client.finish()
        #expect(status == 0, "\(output)")
        #expect(output.contains("said Cursor at 330, 240"), "\(output)")
        #expect(output.contains("said Line from 330, 240 to 350, 240"), "\(output)")
        #expect(output.contains("said Drawing a circle at 360, 250, radius 10"), "\(output)")
        #expect(output.contains("said Circle at 360, 250, radius 10"), "\(output)")
    }

    @Test(
        """
        a listening client hears the window deactivate when the focus goes elsewhere, and activate with the focus on \
        the drawing when it comes back
        """)
    func windowActivationIsSpoken() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus)
        defer { session.stop() }
        let window = try #require(session.app.windowID, "\(session.app.transcript)")
        try session.server.focusWindow(window)
        let client = try await ListeningClient.start(
            on: bus, events: ["window:activate", "window:deactivate", "object:state-changed:focused"],
            listen: #"print("heard", event.type, event.detail1, event.source.getRoleName(), flush=True)"#, seconds: 4)
        defer { client.stop() }
        try await Task.sleep(for: .milliseconds(300))
        try session.server.focusWindow(nil)
        try await Task.sleep(for: .milliseconds(500))
        try session.server.focusWindow(window)
        let (status, output) = try await client.finish()
        #expect(status == 0, "\(output)")
        let heard = output.split(separator: "\n").filter { $0.hasPrefix("heard ") }.map(String.init)
        #expect(
            heard == [
                "heard window:deactivate 0 frame", "heard object:state-changed:focused 0 canvas",
                "heard window:activate 0 frame", "heard object:state-changed:focused 1 canvas",
            ], "\(output)")
    }

    @Test(
        """
        a client listening to announcements hears each thing said once, as an announcement: the notification that \
        Orca 43 hears is not shown to it as well
        """)
    func announcementListenerHearsEachThingOnce() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await launch(bus)
        defer { session.stop() }
        let client = try await ListeningClient.start(
            on: bus, events: ["object:announcement", "object:state-changed:showing"],
            listen: """
                if str(event.type).startswith("object:announcement"):
                    print("said", event.any_data, flush=True)
                elif event.source.getRoleName() == "notification":
                    print("shown", event.detail1, event.source.name, flush=True)
                """, seconds: 4)
        defer { client.stop() }
        try await parkPointer(in: session)
        try session.pressEach(try session.keycodes(["Right"]))
        let (status, output) = try await client.finish()
        #expect(status == 0, "\(output)")
        let said = output.split(separator: "\n").filter { $0.hasPrefix("said ") || $0.hasPrefix("shown ") }
        #expect(said == ["said Cursor at 330, 240"], "\(output)")
    }
}
