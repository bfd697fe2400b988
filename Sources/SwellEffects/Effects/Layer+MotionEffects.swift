import SwellLayers

extension Layer {
  /// The overlay key under which motion-effect values are written (`Layer.setOverlay(_:forKey:)`).
  public static let motionEffectsOverlayKey = "motionEffects"

  /// The motion effects attached to this layer, in the order they were added
  /// (`UIView.motionEffects`).
  ///
  /// Setting the list re-applies the last pose the layer was given (the neutral pose (0, 0)
  /// when it never had one).
  public var motionEffects: [any MotionEffect] {
    get { self[attachment: MotionEffectsKey.self].effects.map(\.base) }
    set {
      var entry = self[attachment: MotionEffectsKey.self]
      entry.effects = newValue.map(AnyMotionEffect.init)
      for e in entry.effects where !entry.checked.contains(e) {
        check(e, values: e.keyPathsAndRelativeValues(forViewerOffset: entry.pose), &entry)
      }
      self[attachment: MotionEffectsKey.self] = entry
      writeMotionEffectOverlay(effects: entry.effects, pose: entry.pose)
    }
  }

  /// Attaches a motion effect (`UIView.addMotionEffect(_:)`).
  ///
  /// The effect is checked against the layer the first time it is applied here, with the values
  /// it returns for that pose (``motionEffectProblems(_:)`` also tries other poses): an unknown
  /// key path, a value of a kind the key path does
  /// not hold, or minimum and maximum of different kinds is reported once, naming the effect and
  /// the layer, to ``MotionEffectDiagnostics/reporter`` and kept in
  /// ``reportedMotionEffectProblems``; the effect then changes nothing at that key path.
  ///
  /// Its values are applied at once for the layer's current pose (the neutral pose (0, 0) until
  /// an applicator has given it another: UIKit's `beginApplyingMotionEffect` applies the current
  /// pose, (0, 0) at start), **additively** on the presentation values: the model values never
  /// change (`_UIMotionEffectApplicator`'s additive animations; both measured from iOS 26.1). Attaching is constant time in
  /// the number of effects already attached (only the new effect's values are added).
  ///
  /// - Parameter effect: The effect; attaching an equal effect twice applies it twice.
  public func addMotionEffect(_ effect: some MotionEffect) {
    let wrapped = AnyMotionEffect(effect)
    var entry = self[attachment: MotionEffectsKey.self]
    entry.effects.append(wrapped)
    let values = wrapped.keyPathsAndRelativeValues(forViewerOffset: entry.pose)
    check(wrapped, values: values, &entry)
    self[attachment: MotionEffectsKey.self] = entry
    if let v = values {
      addToOverlay(v.filter(\.value.isFinite), forKey: Layer.motionEffectsOverlayKey)
    } else if entry.effects.count == 1 {
      setOverlay([:], forKey: Layer.motionEffectsOverlayKey)
    }
  }

  /// Detaches the first attached effect equal to `effect` (`UIView.removeMotionEffect(_:)`);
  /// the remaining effects are re-applied, and the overlay is removed with the last one.
  ///
  /// - Parameter effect: The effect to remove.
  public func removeMotionEffect(_ effect: some MotionEffect) {
    var entry = self[attachment: MotionEffectsKey.self]
    if let i = entry.effects.firstIndex(where: { $0.isEqual(to: effect) }) {
      entry.effects.remove(at: i)
    }
    self[attachment: MotionEffectsKey.self] = entry
    writeMotionEffectOverlay(effects: entry.effects, pose: entry.pose)
  }

  /// Applies this layer's motion effects for a viewer offset: the values of all its effects,
  /// summed per key path, become the layer's additive overlay (``motionEffectsOverlayKey``).
  ///
  /// The offset is taken as given; ``MotionEffectApplicator`` rotates it for the interface
  /// orientation first.
  ///
  /// - Parameter viewerOffset: The offset, in the interface's axes, −1...1.
  public func applyMotionEffects(for viewerOffset: ViewerOffset) {
    var entry = self[attachment: MotionEffectsKey.self]
    guard !entry.effects.isEmpty else { return }
    if entry.pose != viewerOffset {
      entry.pose = viewerOffset
      self[attachment: MotionEffectsKey.self] = entry
    }
    writeMotionEffectOverlay(effects: entry.effects, pose: viewerOffset)
  }

  /// The problems found with this layer's motion effects so far, in the order they were
  /// reported (each effect is checked once, when it is first applied to the layer).
  public var reportedMotionEffectProblems: [MotionEffectProblem] {
    self[attachment: MotionEffectsKey.self].problems
  }

  /// Checks an effect the first time it is applied to this layer, with the values it returned
  /// there, and reports its problems.
  private func check(
    _ effect: AnyMotionEffect, values: [String: LayerValue]?,
    _ entry: inout MotionEffectsKey.Entry
  ) {
    guard entry.checked.insert(effect).inserted else { return }
    let problems = motionEffectProblems(effect, values: [values].compactMap { $0 })
      .filter(\.reason.isError)
    entry.problems += problems
    for p in problems { MotionEffectDiagnostics.reporter(p) }
  }

  /// True when the layer has motion effects.
  public var hasMotionEffects: Bool { !self[attachment: MotionEffectsKey.self].effects.isEmpty }

  /// The values this layer's motion effects add for a viewer offset, summed per key path as
  /// written by the effects (UIKit spellings are mapped when the overlay is set).
  ///
  /// - Parameter viewerOffset: The offset, −1...1.
  /// - Returns: Key path → relative value (empty without effects).
  public func motionEffectValues(for viewerOffset: ViewerOffset) -> [String: LayerValue] {
    var values: [String: LayerValue] = [:]
    for effect in self[attachment: MotionEffectsKey.self].effects {
      if let v = effect.keyPathsAndRelativeValues(forViewerOffset: viewerOffset) {
        accumulate(&values, v)
      }
    }
    return values
  }

  private func writeMotionEffectOverlay(effects: [AnyMotionEffect], pose: ViewerOffset) {
    guard !effects.isEmpty else {
      removeOverlay(forKey: Layer.motionEffectsOverlayKey)
      return
    }
    var values: [String: LayerValue] = [:]
    for effect in effects {
      if let v = effect.keyPathsAndRelativeValues(forViewerOffset: pose) {
        accumulate(&values, v)
      }
    }
    setOverlay(values.filter(\.value.isFinite), forKey: Layer.motionEffectsOverlayKey)
  }
}

/// A layer's motion effects and the last pose applied to it, stored on the layer itself
/// (`Layer.subscript(attachment:)`).
private enum MotionEffectsKey: LayerAttachmentKey {
  struct Entry {
    var effects: [AnyMotionEffect] = []
    /// The last viewer offset applied to the layer (interface axes).
    var pose = ViewerOffset.zero
    /// The effects already checked against the layer.
    var checked: Set<AnyMotionEffect> = []
    /// The problems they had.
    var problems: [MotionEffectProblem] = []
  }

  static var defaultValue: Entry { Entry() }
}
