import JSON
import TouchKit

// MARK: - The challenges' optional fields (DESIGN.md §3): written only when used, so plain documents are unchanged.

extension DocumentCodec {
    /// Stroke widths beyond this are refused.
    public static let maximumStrokeWidth = 1000.0

    /// `, "color": "#rrggbb"` and `, "width": n`, each only when set.
    static func appendStyle(color: LineColor?, width: Double?, to out: inout JSONWriter) {
        if let color {
            out.raw(", \"color\": ")
            out.string(color.hex)
        }
        if let width {
            out.raw(", \"width\": ")
            appendNumber(width, to: &out)
        }
    }

    /// `, "options": {...}` with only the options that differ from their defaults; nothing when none does.
    static func appendOptions(_ options: DrawingOptions, to out: inout JSONWriter) {
        guard !options.isDefault else { return }
        var members: [(key: String, value: JSONValue)] = []
        for option in DrawingOption.allCases where options[keyPath: option.keyPath] != option.defaultValue {
            members.append((option.documentKey, .bool(options[keyPath: option.keyPath])))
        }
        if options.color != .black { members.append(("color", .string(options.color.hex))) }
        out.raw(", \"options\": ")
        out.value(.object(members))
    }

    static func color(_ value: JSONValue?, field: @autoclosure () -> String) throws(DocumentError) -> LineColor? {
        guard let value else { return nil }
        guard case .string(let text) = value, let color = LineColor(hex: text) else {
            throw .wrongType(field: field(), expected: "a colour written \"#rrggbb\"")
        }
        return color
    }

    static func strokeWidth(_ value: JSONValue?, field: @autoclosure () -> String) throws(DocumentError) -> Double? {
        guard let value else { return nil }
        guard case .number(let number) = value, number.isFinite, number > 0, number <= maximumStrokeWidth else {
            throw .wrongType(
                field: field(), expected: "a width in pixels above 0 and at most \(Int(maximumStrokeWidth))")
        }
        return number
    }

    static func circles(_ value: JSONValue?) throws(DocumentError) -> [Circle] {
        guard let value else { return [] }
        guard case .array(let rawCircles) = value else { throw .wrongType(field: "circles", expected: "an array") }
        if rawCircles.count > maximumCircleCount {
            throw .tooManyCircles(rawCircles.count, limit: maximumCircleCount)
        }
        var circles: [Circle] = []
        circles.reserveCapacity(rawCircles.count)
        for (index, rawCircle) in rawCircles.enumerated() {
            let field = { "circles[\(index)]" }
            guard case .object = rawCircle else { throw .wrongType(field: field(), expected: "an object") }
            let origin = try point(rawCircle["origin"], field: "\(field()).origin")
            guard let size = rawCircle["size"] else { throw .missingField("\(field()).size") }
            guard case .object = size else { throw .wrongType(field: "\(field()).size", expected: "an object") }
            var extents: [Double] = []
            for name in ["width", "height"] {
                let extent = try coordinate(size[name], field: "\(field()).size.\(name)")
                guard extent >= 0 else {
                    throw .wrongType(field: "\(field()).size.\(name)", expected: "a number ≥ 0")
                }
                extents.append(extent)
            }
            circles.append(
                Circle(
                    frame: Rect(origin: origin, size: Size(width: extents[0], height: extents[1])),
                    color: try color(rawCircle["color"], field: "\(field()).color"),
                    width: try strokeWidth(rawCircle["width"], field: "\(field()).width")))
        }
        return circles
    }

    static func options(_ value: JSONValue?) throws(DocumentError) -> DrawingOptions {
        guard let value else { return DrawingOptions() }
        guard case .object = value else { throw .wrongType(field: "options", expected: "an object") }
        var options = DrawingOptions(color: try color(value["color"], field: "options.color") ?? .black)
        for option in DrawingOption.allCases {
            guard let flag = value[option.documentKey] else { continue }
            guard case .bool(let on) = flag else {
                throw .wrongType(field: "options.\(option.documentKey)", expected: "true or false")
            }
            options[keyPath: option.keyPath] = on
        }
        return options
    }
}
