import SeededRandom
import Testing

@testable import JSON

@Suite("Numbers are saved as the shortest text that reads back exactly")
struct ShortestDecimalTests {
    private func written(_ value: Double) -> String {
        var bytes: [UInt8] = []
        ShortestDecimal.append(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("random coordinates are written as Swift's own shortest description writes them")
    func agreesWithDescription() {
        var random = SplitMix64(seed: 0x5EED)
        for _ in 0..<200_000 {
            let magnitude = Double(random.next() % 1_000_000_000) / 1000 + Double(random.next() % 1000) / 3
            let value = (random.next() & 1 == 0 ? 1.0 : -1.0) * magnitude
            if value == value.rounded() { continue }
            #expect(written(value) == value.description, "\(value)")
        }
    }

    @Test("numbers at the edges of the fast range read back exactly")
    func edgesReadBack() {
        let values: [Double] = [
            0x1p-10, 0x1p-10.nextUp, 0x1p20.nextDown, 1.0.nextUp, 1.0.nextDown, 2.0.nextDown, 0.1, 0.2, 0.3,
            999_999.999_999_999_9, 1 / 3, 2.0 / 3.0, 123.456, 0.000_976_5, Double.leastNonzeroMagnitude, 1e-5, -0.5,
            1.5, 65535.99998474121,
        ]
        for value in values where value != value.rounded() {
            #expect(Double(written(value)) == value, "\(value) written as \(written(value))")
        }
    }

    @Test("every bit pattern near a power of two reads back exactly")
    func powerOfTwoNeighbours() {
        for exponent in -10...19 {
            var value = Double(sign: .plus, exponent: exponent, significand: 1)
            for _ in 0..<50 { value = value.nextDown }
            for _ in 0..<100 {
                if value != value.rounded() {
                    #expect(Double(written(value)) == value, "\(value) written as \(written(value))")
                    #expect(written(value).count <= value.description.count, "\(value)")
                }
                value = value.nextUp
            }
        }
    }

    @Test("touch coordinates in 1/65536 steps are written as Swift writes them")
    func fixedPointCoordinates() {
        for raw in stride(from: 1, to: 1 << 24, by: 997) {
            let value = Double(raw) / 65536 + 0.5 / 65536
            #expect(written(value) == value.description, "\(value)")
        }
    }
}
