import SwellGeometry

extension Layer {
  /// The presentation tree at a time: a detached copy of this subtree whose values include the
  /// running animations and the additive overlays (motion effects), with time-dependent content
  /// (wave paths) computed. The model tree is not changed.
  ///
  /// Presentation value = model value, replaced by non-additive animations, plus additive
  /// animations, plus overlays (motion effects are additive overlays on the presentation layer
  /// and never change the model: UIKit's `_UIMotionEffectApplicator`, as measured from iOS 26.1). When an overlay moves `position`, the
  /// result snaps to whole pixels at ``contentsScale``.
  ///
  /// - Parameter time: Seconds on the tree's clock (a display link's target timestamp).
  /// - Returns: The root of the presentation copy.
  public func presentation(at time: Double) -> Layer {
    let copy = presentationCopy(at: time)
    for s in sublayers {
      let p = s.presentation(at: time)
      copy.sublayers.append(p)
      p.superlayer = copy
    }
    return copy
  }

  /// The presentation value of one key path at a time, without copying the subtree.
  ///
  /// - Parameters:
  ///   - keyPath: The key path (Core Animation or UIKit spelling).
  ///   - time: Seconds on the tree's clock.
  /// - Returns: The value, or `nil` for an unknown key path.
  public func presentationValue(forKeyPath keyPath: String, at time: Double) -> LayerValue? {
    presentationCopy(at: time).value(forKeyPath: keyPath)
  }

  /// This layer's presentation copy without sublayers.
  ///
  /// - Parameter time: Seconds on the tree's clock.
  /// - Returns: The copy with animated values, overlays and time-dependent content applied.
  public func presentationCopy(at time: Double) -> Layer {
    let copy = copyLayer()
    // Full-transform animations before the transform.* sub-key paths that build on them.
    var order: [String] = []
    for (_, a) in animations where !order.contains(a.keyPath) {
      order.append(a.keyPath)
    }
    order.sort { lhs, rhs in
      let l = lhs == "transform" ? 0 : 1
      let r = rhs == "transform" ? 0 : 1
      return l < r
    }
    for path in order {
      guard let base = copy.value(forKeyPath: path) else { continue }
      var value = base
      for (_, a) in animations where a.keyPath == path {
        guard let v = a.value(at: time, model: base) else { continue }
        if a.isAdditive {
          if let sum = value.adding(v) { value = sum }
        } else {
          value = v
        }
      }
      if value.isFinite { copy.setValue(value, forKeyPath: path) }
    }
    var movedPosition = false
    for (_, values) in overlays {
      for (path, v) in values.sorted(by: { $0.key < $1.key }) {
        guard let cur = copy.value(forKeyPath: path), let sum = cur.adding(v), sum.isFinite else {
          continue
        }
        copy.setValue(sum, forKeyPath: path)
        if path.hasPrefix("position") { movedPosition = true }
      }
    }
    if movedPosition && contentsScale > 0 {
      let s = contentsScale
      copy.position = Point(
        x: (copy.position.x * s).rounded() / s, y: (copy.position.y * s).rounded() / s)
    }
    copy.prepareForPresentation(at: time)
    return copy
  }
}

extension Layer {
  /// A digest of everything that decides how this subtree looks: geometry, transform, opacity,
  /// colours, shape paths, fills, images, in drawing order. Two presentation trees with the same
  /// digest draw the same pixels (up to a hash collision, about one in 2⁶⁴), so a live view can
  /// skip drawing a frame whose presentation did not change.
  ///
  /// - Returns: The digest.
  public func appearanceDigest() -> Int {
    var hasher = Hasher()
    hashAppearance(into: &hasher)
    return hasher.finalize()
  }

  private func hashAppearance(into h: inout Hasher) {
    h.combine(ObjectIdentifier(type(of: self)))
    h.combine(position)
    h.combine(bounds)
    h.combine(anchorPoint)
    h.combine(transform)
    h.combine(opacity)
    h.combine(isHidden)
    h.combine(backgroundColor)
    h.combine(cornerRadius)
    h.combine(borderWidth)
    h.combine(borderColor)
    h.combine(masksToBounds)
    h.combine(zPosition)
    h.combine(contentsScale)
    if let shape = self as? ShapeLayer {
      h.combine(shape.path)
      h.combine(shape.fillColor)
      h.combine(shape.fillGradient)
      h.combine(shape.fillRule)
      h.combine(shape.strokeColor)
      h.combine(shape.lineWidth)
    }
    if let image = self as? ImageLayer {
      h.combine(image.imagePath)
      h.combine(image.gravity)
    }
    h.combine(sublayers.count)
    for s in sublayers { s.hashAppearance(into: &h) }
  }
}
