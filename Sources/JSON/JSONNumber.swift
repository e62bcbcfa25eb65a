import Foundation

/// Converts a JSON number's text to the `Double` nearest to it, rounding exactly as `strtod` does (ties to even).
///
/// Documents hold four numbers per line, so a 100,000-line document has 400,000 of them; `strtod` costs about a
/// thousand instructions on the 17 significant digits Swift prints for most coordinates. Three exact shortcuts
/// cover nearly every number a document holds, and anything they cannot settle goes to `strtod`:
/// - an integer of at most 53 bits is its own `Double`;
/// - Clinger's fast path: a decimal with at most 53 bits of digits and a power of ten of at most 22 is one
///   correctly rounded multiplication or division of two exactly represented doubles;
/// - Eisel–Lemire (as in Go's `strconv` and `fast_float`): up to 19 digits times a 128-bit approximation of the
///   power of ten, which decides the rounding unless the product lies too close to a halfway point.
public enum JSONNumber {
    /// Reads the JSON number at `index` (an optional `-`, digits without a leading zero, an optional fraction and
    /// exponent) and moves `index` past it; nil when the bytes there are not a number (or, for 64 characters and
    /// more, when `Double(String)`, the last resort, gives nil).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Double? {
        let start = index
        guard let decimal = scan(bytes, at: &index) else { return nil }
        if decimal.fitsShortcuts,
            let value = exactValue(mantissa: decimal.mantissa, exponent: decimal.exponent, negative: decimal.negative)
        {
            return value
        }
        return correctlyRounded(bytes, from: start, to: index)
    }

    /// The value of the number that is exactly `bytes[start..<end]`, whose grammar the caller has checked.
    public static func value(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Double? {
        var index = start
        return parse(UnsafeBufferPointer(rebasing: bytes[..<end]), at: &index)
    }

    /// The value when one of the exact shortcuts settles it; nil when strtod must (or the text is not a number).
    static func shortcutValue(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            var index = 0
            guard let decimal = scan(bytes, at: &index), index == bytes.count, decimal.fitsShortcuts else {
                return nil
            }
            return exactValue(mantissa: decimal.mantissa, exponent: decimal.exponent, negative: decimal.negative)
        }
    }

    /// A number's text as ±mantissa × 10^exponent.
    private struct Decimal {
        var negative: Bool
        var mantissa: UInt64
        var exponent: Int
        /// At most 19 significant digits (so `mantissa` is exact) and a modest exponent.
        var fitsShortcuts: Bool
    }

    /// One pass over the number: the grammar and the digits together. Every digit goes into the mantissa, with
    /// wrapping; only when there are more than 19 digits are leading zeros (which add nothing) counted out to see
    /// whether the wrapped mantissa can be trusted.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Decimal? {
        let end = bytes.count
        let negative = index < end && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let integerStart = index
        var mantissa: UInt64 = 0
        while index < end {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
        var digitCount = index - integerStart
        guard digitCount > 0, digitCount == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        var exponent = 0
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < end {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                index += 1
            }
            guard index > fractionStart else { return nil }
            exponent = fractionStart - index
            digitCount += index - fractionStart
        }
        var fitsShortcuts = true
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            let exponentStart = index
            // Beyond ±100,000 the value is 0 or infinite whatever the digits; strtod settles those.
            var written = 0
            while index < end {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if written < 100_000 { written = written * 10 + Int(digit) }
                index += 1
            }
            guard index > exponentStart else { return nil }
            if written >= 100_000 { fitsShortcuts = false }
            exponent += exponentNegative ? -written : written
        }
        if digitCount > 19 {
            var position = integerStart
            while position < index, bytes[position] == UInt8(ascii: "0") || bytes[position] == UInt8(ascii: ".") {
                if bytes[position] == UInt8(ascii: "0") { digitCount -= 1 }
                position += 1
            }
            if digitCount > 19 { fitsShortcuts = false }
        }
        return Decimal(negative: negative, mantissa: mantissa, exponent: exponent, fitsShortcuts: fitsShortcuts)
    }

    private static let maximumExactInteger: UInt64 = 1 << 53
    /// 10^0 through 10^22: every one is exactly a `Double`.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ]

    /// mantissa × 10^exponent with the sign, when one of the exact shortcuts settles it.
    static func exactValue(mantissa: UInt64, exponent: Int, negative: Bool) -> Double? {
        if mantissa <= maximumExactInteger {
            let magnitude: Double?
            if exponent == 0 {
                magnitude = Double(mantissa)
            } else if exponent > 0, exponent <= 22 {
                magnitude = Double(mantissa) * exactPowersOfTen[exponent]
            } else if exponent < 0, exponent >= -22 {
                magnitude = Double(mantissa) / exactPowersOfTen[-exponent]
            } else {
                magnitude = nil
            }
            if let magnitude { return negative ? -magnitude : magnitude }
        }
        return eiselLemire(mantissa: mantissa, exponent: exponent, negative: negative)
    }

    /// Eisel–Lemire: nil when the 128-bit product cannot decide the rounding, the power of ten is outside the
    /// table, or the result would be subnormal or infinite.
    static func eiselLemire(mantissa: UInt64, exponent: Int, negative: Bool) -> Double? {
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        guard let power = powerOfTen(exponent) else { return nil }
        let leadingZeros = mantissa.leadingZeroBitCount
        let normalized = mantissa << leadingZeros
        // 217706 / 2^16 ≈ log2(10): the binary exponent of 10^exponent, plus the double's bias.
        var binaryExponent = UInt64(bitPattern: Int64((217_706 * exponent) >> 16 + 64 + 1023)) &- UInt64(leadingZeros)
        var (high, low) = normalized.multipliedFullWidth(by: power.high)
        // The low half of the power matters only when the top product's low bits are all ones: then its carry can
        // change the result's bits.
        if high & 0x1FF == 0x1FF, low &+ normalized < normalized {
            let (carry, lowest) = normalized.multipliedFullWidth(by: power.low)
            var mergedHigh = high
            let mergedLow = low &+ carry
            if mergedLow < low { mergedHigh &+= 1 }
            if mergedHigh & 0x1FF == 0x1FF, mergedLow &+ 1 == 0, lowest &+ normalized < normalized { return nil }
            high = mergedHigh
            low = mergedLow
        }
        let topBit = high >> 63
        var significand = high >> (topBit + 9)
        binaryExponent &-= 1 ^ topBit
        // Exactly halfway between two doubles as far as these bits can tell: strtod decides.
        if low == 0, high & 0x1FF == 0, significand & 3 == 1 { return nil }
        significand += significand & 1
        significand >>= 1
        if significand >> 53 > 0 {
            significand >>= 1
            binaryExponent &+= 1
        }
        // 0 (or wrapped below it) is subnormal, 0x7FF infinite: both are left to strtod.
        if binaryExponent &- 1 >= 0x7FF - 1 { return nil }
        let bits = binaryExponent << 52 | significand & 0x000F_FFFF_FFFF_FFFF | (negative ? 1 << 63 : 0)
        return Double(bitPattern: bits)
    }

    /// strtod on a NUL-terminated stack copy (no String per number); `Double(String)` for very long numbers.
    private static func correctlyRounded(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int)
        -> Double?
    {
        let length = end - start
        if length < 64 {
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> Double in
                for offset in 0..<length { buffer[offset] = CChar(bitPattern: bytes[start + offset]) }
                buffer[length] = 0
                return strtod(buffer.baseAddress!, nil)
            }
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
    }
}
