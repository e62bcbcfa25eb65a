import CCairo
internal import CPango
import Synchronization
import TouchKit

/// The language the window's text is in, for Pango's choice of fonts (the same Han character looks different in
/// Japanese and Chinese faces). Set once by the platform from the user's language; nil leaves it to Pango.
public enum TextLanguage {
    static let current = Mutex<String?>(nil)

    public static func set(_ tag: String?) {
        current.withLock { $0 = tag }
    }
}

/// A piece of text laid out by Pango for one Cairo context, in the desktop's sans-serif font (fontconfig's
/// "sans", with its fallback for scripts the font lacks, HarfBuzz shaping and bidirectional text): measure it,
/// then draw it. Owns its `PangoLayout` and releases it when it goes.
public final class TextLayout {
    /// The `PangoLayout`: made in `init`, released in `deinit`, never handed out.
    private let layout: OpaquePointer

    /// Lays out `text` at `size` pixels (absolute, so a HiDPI scale is already in it). With `maxWidth`, text too
    /// wide is cut with an ellipsis at its end (its start for right-to-left text). `language` (an RFC 3066 tag such as "ja") picks fonts as for that language; by
    /// default the window's (`TextLanguage`), which decides, say, which face shows Han text.
    public init(
        _ text: String, size: Double, bold: Bool = false, maxWidth: Double? = nil,
        language: String? = nil, for context: CairoContext
    ) {
        layout = pango_cairo_create_layout(context.pointer)
        if let language = language ?? TextLanguage.current.withLock({ $0 }) {
            pango_context_set_language(pango_layout_get_context(layout), pango_language_from_string(language))
            pango_layout_context_changed(layout)
        }
        let font = pango_font_description_from_string("sans")
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if let maxWidth, maxWidth > 0 {
            pango_layout_set_width(layout, Int32(min(maxWidth * Double(PANGO_SCALE), Double(Int32.max))))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        pango_layout_set_text(layout, text, -1)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    /// The laid-out text's logical size in pixels (the advance of its glyphs, one line height per line).
    public var size: Size {
        var width: Int32 = 0
        var height: Int32 = 0
        pango_layout_get_pixel_size(layout, &width, &height)
        return Size(width: Double(width), height: Double(height))
    }

    /// From the top of the layout to the first line's baseline, in pixels.
    public var baseline: Double { Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE) }

    /// Whether the text reads right to left (its first strong character is Arabic or Hebrew, say).
    public var isRightToLeft: Bool {
        pango_layout_get_direction(layout, 0) == PANGO_DIRECTION_RTL
    }

    /// Draws the text with its top-left corner at `origin`, in the context's current colour.
    public func draw(at origin: Point, in context: CairoContext) {
        cairo_move_to(context.pointer, origin.x.rounded(), origin.y.rounded())
        pango_cairo_show_layout(context.pointer, layout)
    }

    /// Draws the text with its first baseline starting at `origin`.
    public func draw(baselineAt origin: Point, in context: CairoContext) {
        draw(at: Point(x: origin.x, y: origin.y - baseline), in: context)
    }
}

extension TextLayout {
    /// Lays out and draws `sample` once, off screen, so the first text the window shows does not pay for loading
    /// the fonts: fontconfig's configuration and caches, and the sans face's file, are loaded once per process
    /// (about 7 ms here). Pango's font map is per thread, so the thread that draws still makes its own, from what
    /// is loaded by then.
    public static func loadFonts(sample: String) {
        guard let surface = try? CairoSurface(width: 64, height: 32, format: .screen),
            let context = try? CairoContext(surface: surface)
        else { return }
        for bold in [false, true] {
            TextLayout(sample, size: 14, bold: bold, for: context).draw(at: .zero, in: context)
        }
    }
}
