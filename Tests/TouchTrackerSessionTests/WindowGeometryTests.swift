import Testing
import TouchTrackerSession

/// `--geometry` as X11 spells it (`XParseGeometry`): `+X` from the screen's left edge, `-X` from its right edge,
/// `+Y` and `-Y` from the top and the bottom, and an offset that is itself negative.
@Suite struct WindowGeometryTests {
    /// Where `text` puts a window on a 1000x800 screen: its top-left.
    private func place(_ text: String) -> (x: Int, y: Int)? {
        WindowGeometry(parsing: text).map { $0.placed(onScreenOf: 1000, 800) }.map { ($0.x, $0.y) }
    }

    @Test("+X+Y counts from the screen's top-left corner")
    func plusOffsetsCountFromTopLeft() {
        #expect(place("300x200+10+20")! == (10, 20))
    }

    @Test("-X-Y counts from the right and bottom edges: -0-0 is flush with the bottom-right corner")
    func minusOffsetsCountFromBottomRight() {
        #expect(place("300x200-0-0")! == (700, 600))
        #expect(place("300x200-10+20")! == (690, 20))
    }

    @Test("+-5+3 is an offset of -5 from the left edge, past it")
    func signedOffsetIsNegative() {
        #expect(place("300x200+-5+3")! == (-5, 3))
    }

    @Test("a size alone is at the top-left, with no position asked for", arguments: ["300x200", "300X200"])
    func sizeAlone(text: String) {
        let geometry = WindowGeometry(parsing: text)
        #expect(geometry?.width == 300 && geometry?.height == 200 && place(text)! == (0, 0))
    }

    @Test("text that is not a geometry is refused", arguments: ["300x", "x200", "300x200+5", "0x200", "300x200+5+5+5"])
    func notAGeometry(text: String) {
        #expect(WindowGeometry(parsing: text) == nil)
    }
}
