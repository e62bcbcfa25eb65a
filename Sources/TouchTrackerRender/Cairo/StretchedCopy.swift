import CCairo

extension CairoSurface {
    /// A `width` x `height` screen surface holding `source` drawn `factor` times as large from the top-left corner,
    /// on `background` where it does not reach: the picture a window showed, held up at a new scale until it is
    /// painted again. Pixels only (the nearest source pixel, as a quick stand-in, not a stroke of any shape).
    static func stretched(
        _ source: CairoSurface, by factor: Double, width: Int, height: Int, over background: Color
    ) throws(CairoError) -> CairoSurface {
        let surface = try CairoSurface(width: width, height: height, format: .screen)
        let context = try CairoContext(surface: surface)
        context.paint(solid: background)
        source.flush()
        cairo_save(context.pointer)
        cairo_scale(context.pointer, factor, factor)
        cairo_set_source_surface(context.pointer, source.pointer, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context.pointer), CAIRO_FILTER_FAST)
        cairo_paint(context.pointer)
        cairo_restore(context.pointer)
        try context.checkStatus("stretching the window's picture to a new scale")
        surface.flush()
        return surface
    }
}
