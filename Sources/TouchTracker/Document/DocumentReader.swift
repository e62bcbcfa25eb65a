import JSON
import TouchKit

/// Reads a document in the shape `DocumentCodec.encode` writes straight from its bytes into lines, without the
/// `JSONValue` tree (which for 100,000 lines is 1.5 million values, each allocated and freed).
///
/// It only ever answers for documents the tree decoder would accept, with the same drawing: anything it is not sure
/// of makes it give up (nil), and `DocumentCodec.decode` then reads the document the tree way, which also finds
/// the error to report. So errors, and the rules for odd documents, have one implementation. It gives up on:
/// - any byte that is not ASCII (the tree decoder first checks the whole file is UTF-8);
/// - a key with an escape or a control character, or a key twice in one object (the later one wins, even over a
///   bad earlier one);
/// - anything the document would be refused for: bad JSON, a missing, wrong or out-of-range field, the wrong
///   version, too many lines.
/// Keys may come in any order, with any whitespace; unknown keys are checked to be JSON and skipped, as the tree
/// decoder skips them. The rare parts (circles, options, unknown values) are parsed as `JSONValue`s and checked by
/// the tree decoder's own functions.
struct DocumentReader {
    /// The tree decoder decides: the document is not in a shape this reader vouches for.
    struct GiveUp: Error {}

    private let data: [UInt8]
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    /// The drawing, or nil when the tree decoder must decide.
    static func read(_ data: [UInt8]) -> Drawing? {
        data.withUnsafeBufferPointer { bytes in
            var reader = DocumentReader(data: data, bytes: bytes)
            return try? reader.document()
        }
    }

    private init(data: [UInt8], bytes: UnsafeBufferPointer<UInt8>) {
        self.data = data
        self.bytes = bytes
    }

    // MARK: - The document's objects

    private mutating func document() throws(GiveUp) -> Drawing {
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        var version: Double?
        var lines: [Line]?
        var circles: [Circle]?
        var options: DrawingOptions?
        var first = true
        while let key = try nextKey(first: &first) {
            switch key {
            case .version:
                guard version == nil else { throw GiveUp() }
                version = try number()
            case .lines:
                guard lines == nil else { throw GiveUp() }
                lines = try self.lines()
            case .circles:
                guard circles == nil else { throw GiveUp() }
                let value = try treeValue(depth: 1)
                circles = try Self.checked { () throws(DocumentError) in try DocumentCodec.circles(value) }
            case .options:
                guard options == nil else { throw GiveUp() }
                let value = try treeValue(depth: 1)
                options = try Self.checked { () throws(DocumentError) in try DocumentCodec.options(value) }
            default:
                try skipValue(depth: 1)
            }
        }
        skipWhitespace()
        guard index == bytes.count, let version, version == Double(Drawing.formatVersion), let lines else {
            throw GiveUp()
        }
        return Drawing(lines: lines, circles: circles ?? [], options: options ?? DrawingOptions())
    }

    private mutating func lines() throws(GiveUp) -> [Line] {
        skipWhitespace()
        try expect(UInt8(ascii: "["))
        var lines: [Line] = []
        // The encoder writes at least 56 bytes a line, usually more: this saves most regrowth without reserving
        // much more than the lines need.
        lines.reserveCapacity(Swift.min((bytes.count - index) / 64, DocumentCodec.maximumLineCount))
        skipWhitespace()
        if try take(UInt8(ascii: "]")) { return lines }
        while true {
            guard lines.count < DocumentCodec.maximumLineCount else { throw GiveUp() }
            lines.append(try line())
            skipWhitespace()
            if try take(UInt8(ascii: ",")) { continue }
            try expect(UInt8(ascii: "]"))
            return lines
        }
    }

    private mutating func line() throws(GiveUp) -> Line {
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        var begin: Point?
        var end: Point?
        var color: LineColor?
        var hasColor = false
        var width: Double?
        var first = true
        while let key = try nextKey(first: &first) {
            switch key {
            case .begin:
                guard begin == nil else { throw GiveUp() }
                begin = try point()
            case .end:
                guard end == nil else { throw GiveUp() }
                end = try point()
            case .color:
                guard !hasColor else { throw GiveUp() }
                hasColor = true
                color = try self.color()
            case .width:
                guard width == nil else { throw GiveUp() }
                let value = try number()
                guard value.isFinite, value > 0, value <= DocumentCodec.maximumStrokeWidth else { throw GiveUp() }
                width = value
            default:
                try skipValue(depth: 3)
            }
        }
        guard let begin, let end else { throw GiveUp() }
        return Line(begin: begin, end: end, color: color, width: width)
    }

    private mutating func point() throws(GiveUp) -> Point {
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        var x: Double?
        var y: Double?
        var first = true
        while let key = try nextKey(first: &first) {
            switch key {
            case .x:
                guard x == nil else { throw GiveUp() }
                x = try coordinate()
            case .y:
                guard y == nil else { throw GiveUp() }
                y = try coordinate()
            default:
                try skipValue(depth: 4)
            }
        }
        guard let x, let y else { throw GiveUp() }
        return Point(x: x, y: y)
    }

    private mutating func coordinate() throws(GiveUp) -> Double {
        let value = try number()
        guard value.isFinite, abs(value) <= DocumentCodec.coordinateLimit else { throw GiveUp() }
        return value
    }

    /// `"#rrggbb"` (either case), as `LineColor(hex:)` reads it.
    private mutating func color() throws(GiveUp) -> LineColor {
        skipWhitespace()
        guard index + 9 <= bytes.count, bytes[index] == UInt8(ascii: "\""), bytes[index + 1] == UInt8(ascii: "#"),
            bytes[index + 8] == UInt8(ascii: "\"")
        else { throw GiveUp() }
        func component(_ offset: Int) throws(GiveUp) -> UInt8 {
            guard let high = hexDigit(bytes[offset]), let low = hexDigit(bytes[offset + 1]) else { throw GiveUp() }
            return high << 4 | low
        }
        let color = LineColor(
            red: try component(index + 2), green: try component(index + 4), blue: try component(index + 6))
        index += 9
        return color
    }

    private func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    // MARK: - JSON

    /// The keys the document format uses; any other is `.unknown`.
    private enum Key {
        case version, lines, circles, options, begin, end, color, width, x, y, unknown

        /// The key whose bytes, little-endian, are `packed` (keys longer than 8 bytes are all unknown).
        init(packed: UInt64, length: Int) {
            switch (length, packed) {
            case (1, Self.packedX): self = .x
            case (1, Self.packedY): self = .y
            case (3, Self.packedEnd): self = .end
            case (5, Self.packedBegin): self = .begin
            case (5, Self.packedColor): self = .color
            case (5, Self.packedWidth): self = .width
            case (5, Self.packedLines): self = .lines
            case (7, Self.packedVersion): self = .version
            case (7, Self.packedCircles): self = .circles
            case (7, Self.packedOptions): self = .options
            default: self = .unknown
            }
        }

        static func packed(_ name: StaticString) -> UInt64 {
            name.withUTF8Buffer { $0.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        }
        static let packedX = packed("x")
        static let packedY = packed("y")
        static let packedEnd = packed("end")
        static let packedBegin = packed("begin")
        static let packedColor = packed("color")
        static let packedWidth = packed("width")
        static let packedLines = packed("lines")
        static let packedVersion = packed("version")
        static let packedCircles = packed("circles")
        static let packedOptions = packed("options")
    }

    /// Inside an object: the next member's key with `index` at its value, or nil past the closing brace.
    private mutating func nextKey(first: inout Bool) throws(GiveUp) -> Key? {
        skipWhitespace()
        if try take(UInt8(ascii: "}")) { return nil }
        if first {
            first = false
        } else {
            try expect(UInt8(ascii: ","))
            skipWhitespace()
        }
        let key = try key()
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// A key without escapes, of printable ASCII.
    private mutating func key() throws(GiveUp) -> Key {
        try expect(UInt8(ascii: "\""))
        let start = index
        var packed: UInt64 = 0
        while true {
            guard index < bytes.count else { throw GiveUp() }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { throw GiveUp() }
            if index - start < 8 { packed |= UInt64(byte) << (8 * UInt64(index - start)) }
            index += 1
        }
        let length = index - start
        index += 1
        return Key(packed: packed, length: length)
    }

    private mutating func number() throws(GiveUp) -> Double {
        skipWhitespace()
        guard let value = JSONNumber.parse(bytes, at: &index) else { throw GiveUp() }
        return value
    }

    /// The value at `index` parsed by the tree parser, nested inside `depth` containers (so its nesting limit
    /// counts as for the whole document), and all ASCII.
    private mutating func treeValue(depth: Int) throws(GiveUp) -> JSONValue {
        skipWhitespace()
        let start = index
        guard let value = try? JSONParser.parseValue(data, at: &index, depth: depth) else { throw GiveUp() }
        for offset in start..<index where bytes[offset] >= 0x80 { throw GiveUp() }
        return value
    }

    private mutating func skipValue(depth: Int) throws(GiveUp) {
        _ = try treeValue(depth: depth)
    }

    /// Runs one of the tree decoder's field checks; its error means the tree decoder must report it.
    private static func checked<Value>(_ body: () throws(DocumentError) -> Value) throws(GiveUp) -> Value {
        do {
            return try body()
        } catch {
            throw GiveUp()
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// Consumes `byte` if it is next.
    private mutating func take(_ byte: UInt8) throws(GiveUp) -> Bool {
        guard index < bytes.count else { throw GiveUp() }
        if bytes[index] == byte {
            index += 1
            return true
        }
        return false
    }

    private mutating func expect(_ byte: UInt8) throws(GiveUp) {
        guard try take(byte) else { throw GiveUp() }
    }
}
