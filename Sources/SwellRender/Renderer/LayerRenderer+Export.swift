import SwellCairo
import SwellGeometry
import SwellLayers

extension LayerRenderer {
  /// Renders a sequence of layer trees into a sink: ``FrameSink/begin(_:)``, one
  /// ``FrameSink/draw(_:)`` per frame, ``FrameSink/finish()``. On any error (from `tree`, the
  /// renderer or the sink) the sink is cancelled, so no partial output is left, and the error is
  /// rethrown.
  ///
  /// - Parameters:
  ///   - frameCount: The number of frames, at least 1.
  ///   - configuration: The frame size (points), scale and rate.
  ///   - background: A colour painted under each frame, or `nil` for transparent.
  ///   - sink: The destination.
  ///   - progress: Called after each frame with the number of frames done.
  ///   - tree: Returns the (presentation) layer tree of frame `i`, `0 ..< frameCount`.
  /// - Throws: ``RenderError`` from the renderer or the sink, or what `tree` throws.
  public func export(
    frameCount: Int, configuration: FrameConfiguration, background: Color? = nil,
    to sink: any FrameSink, progress: (Int) -> Void = { _ in },
    tree: (Int) throws -> Layer
  ) throws {
    guard frameCount >= 1 else {
      throw RenderError(
        .invalidFrame, path: sink.path, reason: "the frame count \(frameCount) must be at least 1")
    }
    try sink.begin(configuration)
    do {
      for index in 0..<frameCount {
        let root = try tree(index)
        try sink.draw { context in
          try drawFrame(root, background: background, placement: .points, in: context)
        }
        progress(index + 1)
      }
      try sink.finish()
    } catch {
      sink.cancel()
      throw error
    }
  }
}
