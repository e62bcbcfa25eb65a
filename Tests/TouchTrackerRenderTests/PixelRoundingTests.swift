import Foundation
import Testing

@testable import TouchTrackerRender

/// Frames round edges to whole pixels without libm (`PixelRounding`): the result must be libm's `floor` and `ceil`
/// for every value, held to the given bounds.
@Suite struct PixelRoundingTests {
    static let values: [Double] = [
        0, -0.0, 0.5, -0.5, 1, -1, 2.999_999, -2.999_999, 3.000_001, -3.000_001, 1e-12, -1e-12, 1919.5, -1919.5,
        1_234_567.25, -1_234_567.25, Double.ulpOfOne, 1 - Double.ulpOfOne / 2, -(1 - Double.ulpOfOne / 2),
    ]

    @Test("floor and ceil are libm's for values inside the bounds", arguments: values)
    func agreesWithLibm(value: Double) {
        #expect(PixelRounding.floor(value, lower: -4e6, upper: 4e6) == Int(Foundation.floor(value)))
        #expect(PixelRounding.ceil(value, lower: -4e6, upper: 4e6) == Int(Foundation.ceil(value)))
    }

    @Test("values beyond the bounds, infinities and NaN are held to the bounds")
    func holdsToBounds() {
        #expect(PixelRounding.floor(5_000, lower: 0, upper: 1920) == 1920)
        #expect(PixelRounding.ceil(-3.5, lower: 0, upper: 1920) == 0)
        #expect(PixelRounding.floor(.infinity, lower: -8, upper: 8) == 8)
        #expect(PixelRounding.ceil(-.infinity, lower: -8, upper: 8) == -8)
        #expect(PixelRounding.floor(.nan, lower: -8, upper: 8) == -8)
        #expect(PixelRounding.ceil(.nan, lower: -8, upper: 8) == -8)
    }
}
