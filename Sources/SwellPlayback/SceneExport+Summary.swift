import Foundation

extension SceneExport.Report {
  /// One line naming what was written: the path, the frame count, the pixel size, the time taken
  /// and the frame rate (`wrote OUT.mp4 (600 frames, 1170x2532 px, 12.3 s, 48.8 frames/s)`); an
  /// SVG or PDF gives its page size in points (`390x844 points`).
  ///
  /// - Parameter seconds: How long the whole export took, seconds (measured by the caller).
  /// - Returns: The line, without a line break.
  public func summary(seconds: Double) -> String {
    let fpsText = seconds > 0 ? String(format: ", %.1f frames/s", Double(frames) / seconds) : ""
    // A vector file's size is its page in points (what its width and height say), not pixels.
    let sizeText =
      vectorPoints.map { "\(displayed($0.width))x\(displayed($0.height)) points" }
      ?? "\(pixelWidth)x\(pixelHeight) px"
    return "wrote \(path) (\(frames) frame\(frames == 1 ? "" : "s"), "
      + "\(sizeText), \(String(format: "%.1f", seconds)) s\(fpsText))"
  }

  /// One line of timing: milliseconds per frame drawing on the render thread, milliseconds per
  /// frame overall and frames per second end to end.
  ///
  /// - Parameter seconds: How long the whole export took, seconds (measured by the caller).
  /// - Returns: The line, without a line break.
  public func timing(seconds: Double) -> String {
    String(
      format: "timing: %.2f ms/frame drawing on the render thread, %.2f ms/frame overall "
        + "(%.1f frames/s end to end)",
      frames > 0 ? 1000 * drawingSeconds / Double(frames) : 0,
      frames > 0 ? 1000 * seconds / Double(frames) : 0,
      seconds > 0 ? Double(frames) / seconds : 0)
  }
}

/// A size in points as written: whole numbers without a fraction, others with up to two places.
private func displayed(_ v: Double) -> String {
  v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : String(format: "%.2f", v)
}
