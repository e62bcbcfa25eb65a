/// Writes a `Double` as the shortest decimal that reads back as exactly that `Double`, straight into bytes.
///
/// A TouchTracker document holds four numbers per line, so saving 100,000 lines writes 400,000 of them. Swift's own shortest
/// printing (`description`) builds a `String` per number, which doubles the time to encode a document; the
/// standard library's digit writer behind `TextOutputStream` is an underscored entry point. This writer covers the
/// numbers a drawing holds (magnitudes from 2⁻¹⁰ to 2²⁰, well past the ±1,000,000 coordinate limit) with exact
/// 128-bit integer arithmetic, and leaves anything else to `description`.
///
/// How: a double v in that range is N / 2ᵏ exactly (N the 53-bit significand), and every real number strictly
/// closer to v than half the distance to its neighbours reads back as v. For j = 0, 1, 2, … decimal places, the
/// two candidates ⌊v·10ʲ⌋ and ⌈v·10ʲ⌉ (over 10ʲ) are tested against that interval, all in integers scaled by
/// 2ᵏ⁺²·10ʲ; the first j with a candidate inside gives the shortest text, and of two
/// candidates the nearer wins (the even one on a tie).
/// The interval is taken open at both ends, so a reader that breaks ties either way still gets v back.
enum ShortestDecimal {
    /// Appends the shortest round-tripping text of `value`, a finite number (`JSONWriter.number` writes the rest
    /// as null, and whole numbers by a faster path of its own). Magnitudes outside [2^-10, 2^20) fall back to
    /// `description` (which may use an exponent, which JSON allows).
    static func append(_ value: Double, to out: inout [UInt8]) {
        let magnitude = value.magnitude
        guard magnitude >= 0x1p-10, magnitude < 0x1p20 else {
            out.append(contentsOf: value.description.utf8)
            return
        }
        if value < 0 { out.append(UInt8(ascii: "-")) }
        let number = Fraction(magnitude)
        // 17 significant digits always read back, so `most` places always fit. A decimal with j places is also one
        // with j + 1, so "some candidate fits" only turns on as j grows. Most coordinates need 16 or 17 digits:
        // try one and two places fewer first, then search the rest by halves.
        let most = mostPlaces(magnitude)
        var found: (digits: UInt128, places: Int)
        if let digits = number.nearestFitting(places: most - 1) {
            found = (digits, most - 1)
            if most >= 2, let shorter = number.nearestFitting(places: most - 2) {
                found = (shorter, most - 2)
                var low = 0
                while low < found.places {
                    let middle = (low + found.places) / 2
                    if let digits = number.nearestFitting(places: middle) {
                        found = (digits, middle)
                    } else {
                        low = middle + 1
                    }
                }
            }
        } else {
            found = (number.nearestFitting(places: most) ?? 0, most)
        }
        write(digits: UInt64(found.digits), places: found.places, to: &out)
    }

    /// The places that give 17 significant digits: 17 less the integer digits, or 17 plus the zeros after the point.
    private static func mostPlaces(_ magnitude: Double) -> Int {
        if magnitude >= 1 {
            var integerDigits = 1
            var bound = 10.0
            while magnitude >= bound {
                integerDigits += 1
                bound *= 10
            }
            return 17 - integerDigits
        }
        var zeros = 0
        var bound = 0.1
        while magnitude < bound {
            zeros += 1
            bound /= 10
        }
        return 17 + zeros
    }

    /// 10^places for places in 0...20 (10^20 as 10 · 10^19, which does not fit 64 bits), as a multiplier of the
    /// significand: a 53-bit significand times 10^20 stays below 2^120.
    private static func scaled(_ significand: UInt64, byPowerOfTen places: Int) -> UInt128 {
        let power: UInt64 =
            switch places {
            case 0: 1
            case 1: 10
            case 2: 100
            case 3: 1_000
            case 4: 10_000
            case 5: 100_000
            case 6: 1_000_000
            case 7: 10_000_000
            case 8: 100_000_000
            case 9: 1_000_000_000
            case 10: 10_000_000_000
            case 11: 100_000_000_000
            case 12: 1_000_000_000_000
            case 13: 10_000_000_000_000
            case 14: 100_000_000_000_000
            case 15: 1_000_000_000_000_000
            case 16: 10_000_000_000_000_000
            case 17: 100_000_000_000_000_000
            case 18: 1_000_000_000_000_000_000
            default: 10_000_000_000_000_000_000
            }
        let factor = places == 20 ? significand * 10 : significand
        let (high, low) = factor.multipliedFullWidth(by: power)
        return UInt128(high) << 64 | UInt128(low)
    }

    /// A magnitude in [2^-10, 2^20) as significand / 2^shift, with half the gap to each neighbour.
    private struct Fraction {
        let significand: UInt64
        let shift: Int  // 33...62
        /// Half the gap to the neighbour below, in units of 2^-(shift + 2): 2, or 1 when the significand is a power
        /// of two (the neighbour below is then twice as close). Above it is always 2.
        let halfGapBelow: UInt128

        init(_ magnitude: Double) {
            significand = magnitude.significandBitPattern | (1 << 52)
            shift = 52 - Int(magnitude.exponent)
            halfGapBelow = magnitude.significandBitPattern == 0 ? 1 : 2
        }

        /// The decimal with `places` places nearest to this number, as an integer over 10^places, when it lies
        /// strictly inside the interval that reads back as this number; nil when none does.
        func nearestFitting(places: Int) -> UInt128? {
            // v·10^j = significand·10^j / 2^shift.
            let scaled = ShortestDecimal.scaled(significand, byPowerOfTen: places)
            // 10^j itself, in the units below: a half gap h reaches h·10^j.
            let power = ShortestDecimal.scaled(1, byPowerOfTen: places)
            let floor = scaled &>> shift
            // Distances from v to floor/10^j (below) and to (floor + 1)/10^j (above), in units of
            // 2^-(shift + 2) / 10^j.
            let below = (scaled - (floor &<< shift)) &<< 2
            if below == 0 { return floor }
            let floorFits = below < halfGapBelow * power
            let above = (UInt128(1) &<< (shift + 2)) - below
            let ceilFits = above < 2 * power
            switch (floorFits, ceilFits) {
            // The nearer one; on an exact tie the even one, as Swift's own printing does.
            case (true, true): return below < above || (below == above && floor & 1 == 0) ? floor : floor + 1
            case (true, false): return floor
            case (false, true): return floor + 1
            case (false, false): return nil
            }
        }
    }

    /// Writes digits/10^places as `INTEGER.FRACTION`, without trailing zeros in the fraction: the characters are
    /// made from the right in a small buffer on the stack, then appended in one go.
    private static func write(digits: UInt64, places: Int, to out: inout [UInt8]) {
        // At most 20 places, a point and 7 integer digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var position = buffer.count
            var rest = digits
            var fraction = places
            while fraction > 0, rest % 10 == 0 {
                rest /= 10
                fraction -= 1
            }
            if fraction > 0 {
                while fraction > 0 {
                    position -= 1
                    buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    fraction -= 1
                }
                position -= 1
                buffer[position] = UInt8(ascii: ".")
            }
            repeat {
                position -= 1
                buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[position...]))
        }
    }
}
