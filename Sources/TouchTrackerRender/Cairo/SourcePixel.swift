/// A colour as Cairo's RGB24 stores it (a native 32-bit word) and its alpha, blended over a pixel as Cairo's OVER
/// does with a coverage mask.
struct SourcePixel {
    let word: UInt32
    let alpha: Double
    /// `word`'s bytes, each in 16 bits, twice: two pixels' channels for blending two at a time.
    let channels: SIMD8<UInt16>
    /// The top byte of two pixels, all ones, in the lanes of `channels`: RGB24 leaves it unused, and `over` sets it.
    let topBytes: SIMD8<UInt16>
    /// 255 times the alpha: a coverage of 1 blends by this much.
    let scale: Double

    init(_ color: Color) {
        // As Cairo does: a channel goes to 16 bits, of which the image keeps the top 8.
        func channel(_ value: Double) -> UInt32 {
            UInt32(min(1, max(0, value.isFinite ? value : 0)) * 65535 + 0.5) >> 8
        }
        let (red, green, blue) = (channel(color.red), channel(color.green), channel(color.blue))
        alpha = color.alpha.isFinite ? min(1, max(0, color.alpha)) : 1
        scale = 255 * alpha
        word = 0xFF00_0000 | red << 16 | green << 8 | blue
        channels = Self.lanes(word)
        topBytes = Self.lanes(0xFF00_0000)
    }

    /// A pixel word's bytes in memory order (as pixels are loaded to blend them two at a time), each in 16 bits,
    /// twice.
    private static func lanes(_ word: UInt32) -> SIMD8<UInt16> {
        let bytes = withUnsafeBytes(of: word) {
            SIMD4<UInt16>(UInt16($0[0]), UInt16($0[1]), UInt16($0[2]), UInt16($0[3]))
        }
        return SIMD8(lowHalf: bytes, highHalf: bytes)
    }

    var isOpaque: Bool { alpha >= 1 }

    /// The weight of a pixel the colour covers entirely, plus the ½ that rounds (at most 255.5).
    var fullWeight: Double { scale + 0.5 }

    /// `pixel` with this colour laid over it at `coverage` (0...1), times the colour's alpha.
    func over(_ pixel: UInt32, coverage: Double) -> UInt32 {
        over(pixel, weight: UInt32(min(1, max(0, coverage)) * scale + 0.5))
    }

    /// `pixel` with this colour laid over it at `weight` (0...255: coverage times 255 times the colour's alpha).
    func over(_ pixel: UInt32, weight m: UInt32) -> UInt32 {
        // 0...255 by construction, so the arithmetic below cannot overflow (and is not checked).
        guard m < 255 else { return word }
        let n = 255 &- m
        // Each channel is `(c + (c >> 8)) >> 8` of `c = colour · m + pixel · n + 128` (at most 65,153, so 16 bits
        // hold it): red and blue side by side in one word, green alone in its place.
        var redBlue = (word & 0x00FF_00FF) &* m &+ (pixel & 0x00FF_00FF) &* n &+ 0x0080_0080
        redBlue = ((redBlue &+ ((redBlue >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var green = (word & 0x0000_FF00) &* m &+ (pixel & 0x0000_FF00) &* n &+ 0x0000_8000
        green = ((green &+ ((green >> 8) & 0x0000_FF00)) >> 8) & 0x0000_FF00
        return 0xFF00_0000 | redBlue | green
    }
}
