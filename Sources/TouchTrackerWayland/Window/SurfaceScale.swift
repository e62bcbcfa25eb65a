/// How many device pixels the window's canvas has per surface pixel, and how the compositor is told: a whole
/// number through `wl_surface.set_buffer_scale` (the highest scale of the outputs the window is on), or, where the
/// compositor offers `wp_fractional_scale_v1` and `wp_viewporter`, its preferred scale (125 %, 150 %) with a buffer of
/// the surface's size times it, which the viewport shows at the surface's size. Either way the canvas is painted at
/// device pixels, so it is crisp.
struct SurfaceScale: Equatable {
    /// Device pixels per surface pixel.
    let factor: Double
    /// Whether the viewport sizes the buffer (a fractional scale) rather than the buffer scale.
    let usesViewport: Bool

    static let one = SurfaceScale(factor: 1, usesViewport: false)

    /// The scale for a window the compositor prefers at `preferred` (its `preferred_scale` / 120; nil: not said)
    /// on outputs of `outputScales`; `canUseViewport` when both protocols are there.
    static func choose(preferred: Double?, outputScales: [Int32], canUseViewport: Bool) -> SurfaceScale {
        if canUseViewport, let preferred, preferred.isFinite, preferred > 0 {
            return SurfaceScale(factor: min(8, preferred), usesViewport: true)
        }
        return SurfaceScale(factor: Double(min(8, max(1, outputScales.max() ?? 1))), usesViewport: false)
    }

    /// The value for `wl_surface.set_buffer_scale`: 1 when the viewport does the scaling.
    var bufferScale: Int32 { usesViewport ? 1 : Int32(factor) }

    /// The canvas's size for a surface of `width` x `height`: rounded to whole pixels, as the fractional-scale
    /// protocol asks ("round half away from zero").
    func canvasSize(width: Int, height: Int) -> (width: Int, height: Int) {
        (max(1, Int((Double(width) * factor).rounded())), max(1, Int((Double(height) * factor).rounded())))
    }

    /// The surface size for a compositor's proposal of `width` x `height`, cut so the canvas stays within
    /// `largestSide` device pixels a side: a compositor may propose any size, and a buffer's size must fit the
    /// protocol's 32-bit fields.
    func surfaceSize(fitting width: Int, height: Int, largestSide: Int) -> (width: Int, height: Int) {
        let largest = max(1, Int(Double(largestSide) / factor))
        return (min(width, largest), min(height, largest))
    }
}
