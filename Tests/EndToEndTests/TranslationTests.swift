import Foundation
import Testing
import TouchKit
import TouchTracker
import XorgTestSupport

@testable import TouchTrackerRender

/// The window in the user's language: the settings menu under a private Xorg with `LANGUAGE` set shows
/// the catalog's text, drawn by Pango with real glyphs — its ink as wide as a render of the expected string, and
/// not as wide as the English one.
@Suite("Translations")
struct TranslationTests {
    /// The leftmost and rightmost dark pixel columns of a row's text, in `columns`, over `rows`.
    private static func inkSpan(
        rows: Range<Int>, columns: Range<Int>, isDark: (Int, Int) -> Bool
    ) -> ClosedRange<Int>? {
        var low: Int?
        var high: Int?
        for x in columns {
            guard rows.contains(where: { isDark(x, $0) }) else { continue }
            low = low ?? x
            high = x
        }
        guard let low, let high else { return nil }
        return low...high
    }

    /// How wide the ink of `text` is, laid out as the menu lays out its rows (16 px sans, dark on white), with the
    /// fonts Pango picks for `language`.
    private static func renderedInkWidth(_ text: String, language: String) throws -> Int {
        let surface = try CairoSurface(width: 600, height: 60)
        let context = try CairoContext(surface: surface)
        context.paint(solid: .white)
        context.setColor(Color(red: 0.1, green: 0.1, blue: 0.12))
        TextLayout(text, size: MenuPainter.fontSize, language: language, for: context).draw(
            at: Point(x: 20, y: 10), in: context)
        surface.flush()
        let span = inkSpan(rows: 0..<60, columns: 0..<600) { x, y in (surface.pixel(x: x, y: y)?.red ?? 255) < 128 }
        return span.map { $0.count } ?? 0
    }

    @Test(
        "the settings menu speaks the language LANGUAGE names",
        arguments: [("de", "Kreise mit zwei Fingern"), ("ja", "2本指で円")])
    func settingsMenuTranslated(language: String, expected: String) async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let folder = try makeTemporaryFolder("language-\(language)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await DesktopRun.launch(
            on: server,
            arguments: ["--document", folder.appendingPathComponent("d.json").path, "--geometry", "640x480+100+80"],
            environment: ["LANGUAGE": language, "LC_ALL": nil, "LC_MESSAGES": nil, "LANG": "C.UTF-8"])
        defer { run.stop() }
        // F2 opens the settings menu at the window's centre, from x 320, below it or, where it does not fit, above:
        // its first row is where `PopupMenu` puts it. It opens with that row highlighted; Down moves the highlight
        // on, so the row is text on the menu's own background.
        let items = MenuItem.settingsMenu(offeringPalmRejection: false, offeringKeys: true, offeringDocuments: true)
        let menu = PopupMenu(
            anchor: Point(x: 320, y: 240), items: items, within: Rect(x: 0, y: 0, width: 640, height: 480))
        let row = menu.itemFrame(0)
        let rows = (Int(row.minY) + 2)..<(Int(row.maxY) - 2)
        try run.pressKeys([KeyCode.f2])
        try run.pressKeys(run.server.keycodes(["Down"]))
        // The same width twice in a row: the menu is drawn and stays.
        var measured: Int?
        try await waitUntil("the settings menu", timeout: .seconds(10), poll: .milliseconds(50)) {
            let shot = try run.screenshot(width: 640, height: 480)
            let width = Self.inkSpan(rows: rows, columns: 322..<636) { x, y in shot.at(x, y).r < 128 }?.count
            defer { measured = width }
            return width != nil && width == measured
        }
        let width = try #require(measured)
        let expectedWidth = try Self.renderedInkWidth(expected, language: language)
        let englishWidth = try Self.renderedInkWidth("Two-Finger Circles", language: language)
        #expect(abs(width - expectedWidth) <= 2, "menu text \(width) px wide, \"\(expected)\" renders \(expectedWidth)")
        #expect(abs(width - englishWidth) > 4, "the menu still shows English (\(englishWidth) px)")
    }
}
