import Testing

@testable import TouchTrackerPortal

@Suite struct FileChooserRequestTests {
    @Test(
        "OpenFile asks for several drawings, modal, with the drawing filters, in a folder given as NUL-terminated bytes"
    )
    func openFile() {
        var request = FileChooserRequest(kind: .open(multiple: true), title: "Open Drawings")
        request.parentWindow = "x11:1a00003"
        request.filters = FileChooserRequest.drawingFilters(drawingsName: "Drawings", jsonName: "JSON drawings")
        request.currentFilter = request.filters.first
        request.currentFolder = Array("/home/ann/.local/share/touchtracker".utf8)
        #expect(request.method == "OpenFile")
        #expect(
            request.parameters(handleToken: "touchtracker_7_1").gvariantText
                == "('x11:1a00003', 'Open Drawings', {'handle_token': <'touchtracker_7_1'>, 'modal': <true>, "
                + "'multiple': <true>, 'filters': <[('Drawings', [(uint32 1, 'application/x-touchtracker+json'), "
                + "(0, '*.touchtracker')]), ('JSON drawings', [(0, '*.json')])]>, 'current_filter': <('Drawings', "
                + "[(uint32 1, 'application/x-touchtracker+json'), (0, '*.touchtracker')])>, 'current_folder': "
                + "<b'/home/ann/.local/share/touchtracker'>})")
    }

    @Test("SaveFile suggests the current name and folder; a folder's bytes that are not UTF-8 go as they are")
    func saveFile() {
        var request = FileChooserRequest(kind: .save, title: "Save Drawing As")
        request.currentName = "Untitled.touchtracker"
        request.currentFolder = [0x2F, 0x74, 0x6D, 0x70, 0x2F, 0x63, 0x61, 0x66, 0xE9]
        #expect(request.method == "SaveFile")
        let options = request.options(handleToken: "t")
        #expect(options.map(\.key) == ["handle_token", "modal", "current_name", "current_folder"])
        #expect(options.last?.value == .bytes([0x2F, 0x74, 0x6D, 0x70, 0x2F, 0x63, 0x61, 0x66, 0xE9]))
        #expect(
            request.parameters(handleToken: "t").gvariantText
                == "('', 'Save Drawing As', {'handle_token': <'t'>, 'modal': <true>, 'current_name': "
                + "<'Untitled.touchtracker'>, 'current_folder': <b'/tmp/caf\\351'>})")
    }

    @Test("a Response's code says chosen, cancelled or ended", arguments: [(0, true), (1, false), (2, false)])
    func response(code: UInt32, chosen: Bool) {
        let outcome = FileChooserOutcome(response: code, uris: ["file:///tmp/a.touchtracker"])
        #expect(outcome == (chosen ? .chosen(uris: ["file:///tmp/a.touchtracker"]) : .cancelled))
    }

    @Test("no session bus: the chooser says so at once, without a dialog")
    func noBus() async {
        let chooser = PortalFileChooser(environment: [:])
        let outcome = await withCheckedContinuation { continuation in
            chooser.choose(FileChooserRequest(kind: .save, title: "Save")) { continuation.resume(returning: $0) }
        }
        guard case .failed(let reason) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(reason.contains("no session bus"))
    }

    @Test("a session bus without a portal: one line naming the missing service")
    func noPortal() async throws {
        // A private bus of dbus-daemon's own with no services: the call fails, as on a desktop without a portal.
        let bus = try PrivateBus()
        defer { bus.stop() }
        let chooser = PortalFileChooser(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        let outcome = await withCheckedContinuation { continuation in
            chooser.choose(FileChooserRequest(kind: .open(multiple: true), title: "Open")) {
                continuation.resume(returning: $0)
            }
        }
        guard case .failed(let reason) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(reason.hasPrefix("the desktop's file dialog is not available"))
        #expect(reason.contains("org.freedesktop.portal.Desktop"))
        #expect(!reason.contains("\n"))
    }
}
