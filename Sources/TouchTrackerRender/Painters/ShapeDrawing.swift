import CCairo
import TouchKit
import TouchTracker

extension Color {
    /// A document colour, opaque.
    public init(_ color: LineColor) {
        self.init(red: Double(color.red) / 255, green: Double(color.green) / 255, blue: Double(color.blue) / 255)
    }
}

extension CairoContext {
    /// Strokes the outline of the ellipse inscribed in `circle.frame` (a circle when the frame is square), with
    /// the same width and round joins as lines. A frame of no width or height strokes the segment it collapses to.
    public func stroke(_ circle: Circle, width: Double) {
        let frame = circle.frame
        guard frame.minX.isFinite, frame.minY.isFinite, frame.width.isFinite, frame.height.isFinite else { return }
        if frame.width == 0 || frame.height == 0 {
            stroke(
                Line(begin: Point(x: frame.minX, y: frame.minY), end: Point(x: frame.maxX, y: frame.maxY)),
                width: width)
            return
        }
        cairo_set_line_width(pointer, width)
        cairo_save(pointer)
        cairo_translate(pointer, frame.midX, frame.midY)
        cairo_scale(pointer, frame.width / 2, frame.height / 2)
        cairo_new_path(pointer)
        cairo_arc(pointer, 0, 0, 1, 0, 2 * Double.pi)
        cairo_close_path(pointer)
        // The path was built in the scaled space; the pen is applied in the unscaled one, so the width is even.
        cairo_restore(pointer)
        cairo_stroke(pointer)
    }

    /// Strokes a shape in its own colour (or `defaultColor`) and width (or `defaultWidth`).
    func strokeStyled(_ shape: Shape, defaultColor: Color, defaultWidth: Double) {
        setColor(shape.color.map(Color.init) ?? defaultColor)
        stroke(shape, width: shape.width ?? defaultWidth)
    }

    /// Strokes a shape's outline: a line's segment, a circle's ellipse.
    public func stroke(_ shape: Shape, width: Double) {
        switch shape {
        case .line(let line): stroke(line, width: width)
        case .circle(let circle): stroke(circle, width: width)
        }
    }

    /// Strokes a line in its own colour (or `defaultColor`) and width (or `defaultWidth`).
    func strokeStyled(_ line: Line, defaultColor: Color, defaultWidth: Double) {
        strokeStyled(.line(line), defaultColor: defaultColor, defaultWidth: defaultWidth)
    }
}
