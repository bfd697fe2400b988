import CCairo

// Cairo's "toy" text API: enough for labels and heads-up displays, with fonts chosen by family
// name through fontconfig. Text layout (shaping, line breaking) is not Cairo's job.
extension CairoContext {
  /// Chooses the font for ``showText(_:)`` and ``textExtents(_:)`` by family name, such as
  /// `sans-serif`, `serif` or `monospace`.
  ///
  /// The corresponding Cairo function is `cairo_select_font_face`.
  ///
  /// - Parameters:
  ///   - family: The font family; fontconfig picks the closest installed font.
  ///   - slant: The slant (default upright).
  ///   - weight: The weight (default regular).
  public func selectFont(
    family: String, slant: CairoFontSlant = .normal, weight: CairoFontWeight = .normal
  ) {
    cairo_select_font_face(pointer, family, slant.cValue, weight.cValue)
  }

  /// Sets the font size: the em square, user units (Cairo's default is 10).
  ///
  /// The corresponding Cairo function is `cairo_set_font_size`.
  ///
  /// - Parameter size: The size, user units.
  public func setFontSize(_ size: Double) { cairo_set_font_size(pointer, size) }

  /// Measures a line of text in the current font, as ``showText(_:)`` would draw it.
  ///
  /// The corresponding Cairo function is `cairo_text_extents`.
  ///
  /// - Parameter text: The text (UTF-8).
  /// - Returns: Its extents, user units.
  public func textExtents(_ text: String) -> CairoTextExtents {
    var e = cairo_text_extents_t()
    cairo_text_extents(pointer, text, &e)
    return CairoTextExtents(
      xBearing: e.x_bearing, yBearing: e.y_bearing, width: e.width, height: e.height,
      xAdvance: e.x_advance, yAdvance: e.y_advance)
  }

  /// Draws a line of text with the source, its baseline starting at the current point (set it
  /// with ``moveTo(x:y:)``), and moves the current point past it.
  ///
  /// The corresponding Cairo function is `cairo_show_text`.
  ///
  /// - Parameter text: The text (UTF-8).
  public func showText(_ text: String) { cairo_show_text(pointer, text) }
}
