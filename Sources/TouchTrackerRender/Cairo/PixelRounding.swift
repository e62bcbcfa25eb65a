/// Rounding to whole pixels without libm. On x86-64's baseline `floor` and `ceil` (and `rounded(.down)` and
/// `.up`) are calls into libm, and a frame of a long line rounds thousands of edges. A value is held to
/// `lower...upper` (whole numbers) first, which also keeps the conversion from trapping (a NaN goes to `lower`),
/// then truncated and corrected by one where the truncation went the wrong way.
enum PixelRounding {
    /// `floor(value)`, held to `lower...upper`.
    @inline(__always)
    static func floor(_ value: Double, lower: Double, upper: Double) -> Int {
        let held = min(upper, max(lower, value))
        let truncated = Int(held)
        return Double(truncated) > held ? truncated - 1 : truncated
    }

    /// `ceil(value)`, held to `lower...upper`.
    @inline(__always)
    static func ceil(_ value: Double, lower: Double, upper: Double) -> Int {
        let held = min(upper, max(lower, value))
        let truncated = Int(held)
        return Double(truncated) < held ? truncated + 1 : truncated
    }
}
