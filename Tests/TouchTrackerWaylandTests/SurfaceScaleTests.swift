import Testing

@testable import TouchTrackerWayland

/// How many device pixels the canvas gets per surface pixel, from what the compositor says (wl_output scales, the
/// fractional-scale protocol's preferred scale), as the host would be told by a compositor that offers them.
@Suite("Surface scale")
struct SurfaceScaleTests {
    @Test("a compositor's preferred 150 % with a viewport paints 1.5 device pixels per pixel, buffer scale 1")
    func fractionalScaleUsesTheViewport() {
        let scale = SurfaceScale.choose(preferred: 180.0 / 120, outputScales: [1], canUseViewport: true)
        #expect(scale == SurfaceScale(factor: 1.5, usesViewport: true))
        #expect(scale.bufferScale == 1)
        #expect(scale.canvasSize(width: 1024, height: 767) == (1536, 1151))
    }

    @Test("without the viewport the highest whole-number scale of the outputs is the buffer scale")
    func integerScaleWithoutViewport() {
        let scale = SurfaceScale.choose(preferred: 1.5, outputScales: [1, 2], canUseViewport: false)
        #expect(scale == SurfaceScale(factor: 2, usesViewport: false))
        #expect(scale.bufferScale == 2)
        #expect(scale.canvasSize(width: 400, height: 300) == (800, 600))
    }

    @Test(
        "a compositor's proposal of 30000x20000 is cut so the canvas has at most 16384 device pixels a side",
        arguments: [(1.0, 16384), (2.0, 8192), (1.5, 10922), (1.25, 13107)])
    func hugeProposalIsCut(factor: Double, side: Int) {
        let scale = SurfaceScale(factor: factor, usesViewport: factor.rounded() != factor)
        let size = scale.surfaceSize(fitting: 30000, height: 20000, largestSide: 16384)
        #expect(size == (side, side))
        let canvas = scale.canvasSize(width: size.width, height: size.height)
        #expect(canvas.width <= 16384 && canvas.height <= 16384)
        #expect(scale.surfaceSize(fitting: 800, height: 600, largestSide: 16384) == (800, 600))
    }

    @Test("no outputs known yet: scale 1")
    func noOutputsIsOne() {
        #expect(SurfaceScale.choose(preferred: nil, outputScales: [], canUseViewport: true) == .one)
    }

    @Test("a 125 % canvas size is rounded half away from zero, as the fractional-scale protocol asks")
    func roundingFollowsTheProtocol() {
        let scale = SurfaceScale.choose(preferred: 150.0 / 120, outputScales: [], canUseViewport: true)
        #expect(scale.canvasSize(width: 2, height: 3) == (3, 4))
    }
}
