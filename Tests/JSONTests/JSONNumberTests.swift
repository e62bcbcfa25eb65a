import Foundation
import SeededRandom
import Testing

@testable import JSON

/// JSONNumber must give bit for bit what strtod gives, whichever of its shortcuts answers.
@Suite struct JSONNumberTests {
    /// Whether the shortcuts answered (strtod was not needed).
    @discardableResult
    func expectSameAsStrtod(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let expected = text.withCString { strtod($0, nil) }
        let actual = Array(text.utf8).withUnsafeBufferPointer { JSONNumber.value($0, from: 0, to: $0.count) }
        let shortcut = JSONNumber.shortcutValue(text)
        #expect(
            actual?.bitPattern == expected.bitPattern, "\(text): \(String(describing: actual)) ≠ strtod's \(expected)",
            sourceLocation: sourceLocation)
        if let shortcut {
            #expect(
                shortcut.bitPattern == expected.bitPattern, "\(text): shortcut \(shortcut) ≠ strtod's \(expected)",
                sourceLocation: sourceLocation)
        }
        return shortcut != nil
    }

    @Test("200,000 random finite doubles of every magnitude, as Swift prints them")
    func printedDoubles() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<200_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            expectSameAsStrtod("\(value)")
        }
    }

    @Test("200,000 random coordinates as a document holds them: screen-sized, up to the limit, and tiny")
    func printedCoordinates() {
        var random = SplitMix64(seed: 12)
        var shortcuts = 0
        for round in 0..<200_000 {
            let value: Double
            switch round % 4 {
            case 0: value = Double.random(in: 0..<1920, using: &random)
            case 1: value = Double.random(in: -1e6...1e6, using: &random)
            case 2:
                value = Double.random(in: -1...1, using: &random) * pow(10, Double.random(in: -30...0, using: &random))
            default: value = (Double.random(in: -5000...5000, using: &random) * 4).rounded() / 4
            }
            if expectSameAsStrtod("\(value)") { shortcuts += 1 }
        }
        // The point of the shortcuts: strtod is almost never needed for what documents hold.
        #expect(shortcuts >= 199_000, "only \(shortcuts) of 200,000 took a shortcut")
    }

    @Test("random integers up to 20 digits, including the halfway cases between large doubles")
    func integers() {
        var random = SplitMix64(seed: 13)
        for round in 0..<200_000 {
            let magnitude = random.next() >> (random.next() % 64)
            let text = round % 2 == 0 ? "\(magnitude)" : "-\(magnitude)"
            expectSameAsStrtod(text)
            // Just past 2^53, where odd integers are exactly halfway between two doubles.
            expectSameAsStrtod("\((1 << 53) + random.next() % 100_000)")
        }
    }

    @Test("random decimals: 1 to 25 digits, leading and trailing zeros, exponents from -80 to 80")
    func decimals() {
        var random = SplitMix64(seed: 14)
        for _ in 0..<200_000 {
            var text = random.next() % 2 == 0 ? "-" : ""
            let integerDigits = Int(random.next() % 12)
            if integerDigits == 0 {
                text += "0"
            } else {
                text += String(1 + random.next() % 9)
                for _ in 1..<integerDigits { text += String(random.next() % 10) }
            }
            let fractionDigits = Int(random.next() % 20)
            if fractionDigits > 0 {
                text += "."
                let zeros = Int(random.next() % 4)
                for position in 0..<fractionDigits { text += position < zeros ? "0" : String(random.next() % 10) }
            }
            if random.next() % 2 == 0 {
                text += ["e", "E"][Int(random.next() % 2)] + ["", "+", "-"][Int(random.next() % 3)]
                text += String(random.next() % 81)
            }
            expectSameAsStrtod(text)
        }
    }

    @Test(
        "known hard cases: halfway points, the smallest and largest doubles, subnormals, overflow, long numbers",
        arguments: [
            "0", "-0", "0.0", "-0.0", "0e999999999", "-0e-5", "1", "-1", "0.1", "0.3", "1e23", "1e22", "1e-22",
            "9007199254740992", "9007199254740993", "9007199254740995", "18014398509481985", "9223372036854775807",
            "9223372036854775808", "18446744073709551615", "18446744073709551616", "99999999999999999999",
            "7.2057594037927933e16", "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
            "5e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1.7976931348623157e308",
            "1.7976931348623158e308", "1.7976931348623159e308", "1e309", "-1e400", "1e-400", "8.98846567431158e307",
            "1e-64", "1e-65", "1e64", "1e65", "123456789012345678e-64", "1234567890123456789e64",
            "0.000000000000000000000000000000000000000000000000000000000000000000000000000001",
            "1.00000000000000000000000000000000000000000000000000000000000000000000000000000001",
            "3.141592653589793238462643383279502884197169399375105820974944592307816406286208998",
            "1448.7653292084366", "-3e5", "1e-3", "1000000", "1e6", "0.000001",
        ])
    func hardCases(text: String) {
        expectSameAsStrtod(text)
    }

    @Test("every tabled power of ten, times mantissas that stress the rounding")
    func everyTabledPower() {
        var random = SplitMix64(seed: 15)
        let lowest = JSONNumber.smallestTabledExponent
        for exponent in lowest..<(lowest + JSONNumber.powersOfTen.count) {
            for mantissa in [1, 9_007_199_254_740_993, 9_999_999_999_999_999_999] as [UInt64] {
                expectSameAsStrtod("\(mantissa)e\(exponent)")
            }
            for _ in 0..<500 { expectSameAsStrtod("\(random.next() % 10_000_000_000_000_000_000)e\(exponent)") }
        }
    }
}
