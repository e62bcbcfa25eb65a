import JSON
import TouchKit

/// Why a document could not be read. Every case describes itself in one line that says what to do.
public enum DocumentError: Error, Equatable, CustomStringConvertible {
    case empty
    case notJSON(detail: String)
    case notAnObject
    case missingField(String)
    case wrongType(field: String, expected: String)
    case unsupportedVersion(Int)
    case invalidCoordinate(field: String)
    case tooManyLines(Int, limit: Int)
    case tooManyCircles(Int, limit: Int)
    case tooLarge(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .empty: "the file is empty"
        case .notJSON(let detail): "not valid JSON (\(detail))"
        case .notAnObject: "the top level is not a JSON object with \"version\" and \"lines\""
        case .missingField(let field): "missing field \"\(field)\""
        case .wrongType(let field, let expected): "field \"\(field)\" should be \(expected)"
        case .unsupportedVersion(let version) where version < 1:
            "document version \(version) is not a TouchTracker version (they start at 1); "
                + "check that the file is a TouchTracker drawing"
        case .unsupportedVersion(let version):
            "document version \(version) is not supported (this build reads version \(Drawing.formatVersion)); "
                + "open it with a newer TouchTracker"
        case .invalidCoordinate(let field):
            "coordinate \"\(field)\" is not a finite number within ±\(Int(DocumentCodec.coordinateLimit))"
        case .tooManyLines(let count, let limit): "\(count) lines is more than the \(limit) a document may hold"
        case .tooManyCircles(let count, let limit): "\(count) circles is more than the \(limit) a document may hold"
        case .tooLarge(let bytes, let limit): "the file is \(bytes) bytes, more than the \(limit) allowed"
        }
    }
}

/// Reads and writes the document format of DESIGN.md §3. Reading is defensive: anything that is not exactly a
/// drawing is refused with a `DocumentError`, never half-loaded.
public enum DocumentCodec {
    /// Coordinates beyond this are refused: no screen is that large, and such values make renderers misbehave.
    public static let coordinateLimit = 1_000_000.0
    /// The most lines a document may hold: the reader refuses more, and the app refuses an edit that would make
    /// more (`DocumentLimits.document`), so whatever it saves it can open again.
    public static let maximumLineCount = 1_000_000
    /// The most circles a document may hold, kept to as `maximumLineCount` is.
    public static let maximumCircleCount = 1_000_000
    /// The most bytes `encode` writes for one line or circle, the comma and indent before it included: four numbers
    /// of at most 24 bytes each (a sign, 17 significant digits, a point and a three-digit exponent, as in
    /// `-2.2250738585072014e-308`), a colour, a width of at most 23 bytes and the member names. The longest line
    /// takes 202 bytes and the longest circle 211 (`DocumentLimitTests` measures them with this encoder).
    static let longestShapeText = 224
    /// The most bytes of a document outside its shapes (the version, the lists' brackets, every option), with room
    /// to spare.
    static let longestFixedText = 64 * 1024
    /// The largest file read (about 427 MiB). Derived from the shape limits, not chosen on its own: a document
    /// holding the most lines and the most circles, each written as long as a shape can be, fits, so a drawing
    /// within the shape limits is never refused for its size.
    public static let maximumFileSize = (maximumLineCount + maximumCircleCount) * longestShapeText + longestFixedText

    public static func decode(_ data: [UInt8]) throws(DocumentError) -> Drawing {
        if data.count > maximumFileSize { throw .tooLarge(bytes: data.count, limit: maximumFileSize) }
        // Documents in the shape this app writes are read straight into lines; the tree decoder below settles
        // everything else, and finds every error, so the rules live in one place.
        if let drawing = DocumentReader.read(data) { return drawing }
        return try decodeTree(data)
    }

    /// Decodes through a `JSONValue` tree: the reference for what a document means and what is wrong with it.
    static func decodeTree(_ data: [UInt8]) throws(DocumentError) -> Drawing {
        if data.count > maximumFileSize { throw .tooLarge(bytes: data.count, limit: maximumFileSize) }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw .empty }
        // JSON text is UTF-8 (RFC 8259); the parser would otherwise let bad bytes in strings through.
        if String(validating: data, as: UTF8.self) == nil {
            throw .notJSON(detail: "the file is not UTF-8 text")
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw .notJSON(detail: error.description)
        }
        guard case .object = root else { throw .notAnObject }
        guard let versionValue = root["version"] else { throw .missingField("version") }
        guard case .number(let versionNumber) = versionValue, versionNumber == versionNumber.rounded(),
            abs(versionNumber) < 1e9
        else { throw .wrongType(field: "version", expected: "an integer") }
        let version = Int(versionNumber)
        guard version == Drawing.formatVersion else { throw .unsupportedVersion(version) }
        guard let linesValue = root["lines"] else { throw .missingField("lines") }
        guard case .array(let rawLines) = linesValue else { throw .wrongType(field: "lines", expected: "an array") }
        if rawLines.count > maximumLineCount { throw .tooManyLines(rawLines.count, limit: maximumLineCount) }
        var lines: [Line] = []
        lines.reserveCapacity(rawLines.count)
        for (index, rawLine) in rawLines.enumerated() {
            let field = { "lines[\(index)]" }
            guard case .object = rawLine else { throw .wrongType(field: field(), expected: "an object") }
            lines.append(
                Line(
                    begin: try point(rawLine["begin"], field: "\(field()).begin"),
                    end: try point(rawLine["end"], field: "\(field()).end"),
                    color: try color(rawLine["color"], field: "\(field()).color"),
                    width: try strokeWidth(rawLine["width"], field: "\(field()).width")))
        }
        return Drawing(
            lines: lines, circles: try circles(root["circles"]), options: try options(root["options"]))
    }

    /// The document's text; `extraMembers` may add members after the document's own (see the streamed `encode`).
    public static func encode(_ drawing: Drawing, extraMembers: (inout JSONWriter) -> Void = { _ in }) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(1024 + (drawing.lines.count + drawing.circles.count) * 120)
        encode(drawing, extraMembers: extraMembers) { (piece: [UInt8]) in text += piece }
        return text
    }

    /// Shapes in a batch of the streamed `encode`: ~60 KB of text at 512 lines, so the batches in flight cost
    /// little memory next to the whole text (12 MB at 100,000 lines).
    public static let batchSize = 512

    /// Encodes `drawing` a piece at a time, so a large drawing can go to a file without its whole text ever being
    /// in memory. The shapes are encoded in batches of `batchSize` that `encodeBatches` may run at the same time: it
    /// gets up to `batchesAtOnce` independent jobs, each returning the text of its shapes, and returns their texts
    /// in the order given (by default one after the other, here). The model starts no threads; the store runs the
    /// jobs one per processor, and on two cores a large save's encoding takes about half as long. `emit` gets the
    /// text in order, a batch or less at a time; the text is the same however the batches ran. `extraMembers` may
    /// add members after the document's own, before its closing brace (the state snapshot adds the transient
    /// state so).
    public static func encode<Failure: Error>(
        _ drawing: Drawing, extraMembers: (inout JSONWriter) -> Void = { _ in }, batchesAtOnce: Int = 1,
        encodeBatches: ([@Sendable () -> [UInt8]]) -> [[UInt8]] = { jobs in jobs.map { $0() } },
        emit: ([UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        try encode(
            DocumentContent(drawing), extraMembers: extraMembers, batchesAtOnce: batchesAtOnce,
            encodeBatches: encodeBatches, emit: emit)
    }

    /// The streamed `encode` of `content`: the same text as of the `Drawing` it holds.
    public static func encode<Failure: Error>(
        _ content: DocumentContent, extraMembers: (inout JSONWriter) -> Void = { _ in }, batchesAtOnce: Int = 1,
        encodeBatches: ([@Sendable () -> [UInt8]]) -> [[UInt8]] = { jobs in jobs.map { $0() } },
        emit: ([UInt8]) throws(Failure) -> Void
    ) throws(Failure) {
        var out = JSONWriter()
        out.raw("{\"version\": ")
        out.integer(Drawing.formatVersion)
        out.raw(", \"lines\": [")
        try emit(out.bytes)
        let line = content.line
        try emitBatches(
            count: content.lineCount, atOnce: batchesAtOnce, encodeBatches: encodeBatches, emit: emit,
            shape: { .line(line($0)) })
        out = JSONWriter()
        // Circles only when there are some, so a plain document reads as it always has.
        if content.circleCount > 0 {
            let circle = content.circle
            out.raw(", \"circles\": [")
            try emit(out.bytes)
            try emitBatches(
                count: content.circleCount, atOnce: batchesAtOnce, encodeBatches: encodeBatches, emit: emit,
                shape: { .circle(circle($0)) })
            out = JSONWriter()
        }
        appendOptions(content.options, to: &out)
        extraMembers(&out)
        out.raw("}\n")
        try emit(out.bytes)
    }

    /// One list's items (item `i` is `shape(i)`) and its closing bracket, `batchSize` items a job, up to `atOnce`
    /// jobs at a time.
    private static func emitBatches<Failure: Error>(
        count: Int, atOnce: Int, encodeBatches: ([@Sendable () -> [UInt8]]) -> [[UInt8]],
        emit: ([UInt8]) throws(Failure) -> Void, shape: @escaping @Sendable (Int) -> Shape
    ) throws(Failure) {
        var next = 0
        while next < count {
            var jobs: [@Sendable () -> [UInt8]] = []
            while next < count, jobs.count < Swift.max(1, atOnce) {
                let range = next..<Swift.min(count, next + batchSize)
                jobs.append { encodeItems(range, shape: shape) }
                next = range.upperBound
            }
            for text in encodeBatches(jobs) { try emit(text) }
        }
        try emit(Array((count == 0 ? "]" : "\n]").utf8))
    }

    /// The list items in `range`, each on its own line after a comma (none before the list's first, item 0).
    private static func encodeItems(_ range: Range<Int>, shape: (Int) -> Shape) -> [UInt8] {
        var out = JSONWriter()
        out.bytes.reserveCapacity(range.count * 120)
        for index in range {
            out.raw(index == 0 ? "\n  " : ",\n  ")
            appendShape(shape(index), to: &out)
        }
        return out.bytes
    }

    /// One shape as the document holds it: `{"begin": …, "end": …}` for a line, `{"origin": …, "size": …}` for
    /// a circle (the one place the kinds' fields differ), then its colour and width when it sets them. The member
    /// names are written as they are: they need no escaping, and a save writes 100,000 of each.
    static func appendShape(_ shape: Shape, to out: inout JSONWriter) {
        switch shape {
        case .line(let line):
            out.raw("{\"begin\": {\"x\": ")
            appendNumber(line.begin.x, to: &out)
            out.raw(", \"y\": ")
            appendNumber(line.begin.y, to: &out)
            out.raw("}, \"end\": {\"x\": ")
            appendNumber(line.end.x, to: &out)
            out.raw(", \"y\": ")
            appendNumber(line.end.y, to: &out)
        case .circle(let circle):
            out.raw("{\"origin\": {\"x\": ")
            appendNumber(circle.frame.minX, to: &out)
            out.raw(", \"y\": ")
            appendNumber(circle.frame.minY, to: &out)
            out.raw("}, \"size\": {\"width\": ")
            appendNumber(circle.frame.width, to: &out)
            out.raw(", \"height\": ")
            appendNumber(circle.frame.height, to: &out)
        }
        out.raw("}")
        appendStyle(color: shape.color, width: shape.width, to: &out)
        out.raw("}")
    }

    /// A coordinate or width as the document writes it (`JSONWriter.number`). A number beyond the coordinate
    /// limit (or not finite) never reaches the file, so a saved document always reads back: it is written clamped
    /// to ±`coordinateLimit` (and 0 for NaN).
    public static func appendNumber(_ rawValue: Double, to out: inout JSONWriter) {
        out.number(rawValue.isNaN ? 0 : min(max(rawValue, -coordinateLimit), coordinateLimit))
    }

    static func point(_ value: JSONValue?, field: @autoclosure () -> String) throws(DocumentError) -> Point {
        guard let value else { throw .missingField(field()) }
        guard case .object = value else { throw .wrongType(field: field(), expected: "an object") }
        return Point(
            x: try coordinate(value["x"], field: "\(field()).x"), y: try coordinate(value["y"], field: "\(field()).y"))
    }

    static func coordinate(_ value: JSONValue?, field: @autoclosure () -> String) throws(DocumentError) -> Double {
        guard let value else { throw .missingField(field()) }
        guard case .number(let number) = value else { throw .wrongType(field: field(), expected: "a number") }
        guard number.isFinite, abs(number) <= coordinateLimit else { throw .invalidCoordinate(field: field()) }
        return number
    }

}
