import SwellLayers
import Synchronization

extension Layer {
  /// The overlay key under which motion-effect values are written (`Layer.setOverlay(_:forKey:)`).
  public static let motionEffectsOverlayKey = "motionEffects"

  /// The motion effects attached to this layer, in the order they were added
  /// (`UIView.motionEffects`).
  ///
  /// Setting the list re-applies the last pose the layer was given (the neutral pose (0, 0)
  /// when it never had one).
  public var motionEffects: [any MotionEffect] {
    get { MotionEffectRegistry.entry(for: self)?.effects.map(\.base) ?? [] }
    set {
      let effects = newValue.map(AnyMotionEffect.init)
      let pose = MotionEffectRegistry.update(self) { $0.effects = effects }
      writeMotionEffectOverlay(effects: effects, pose: pose)
    }
  }

  /// Attaches a motion effect (`UIView.addMotionEffect(_:)`).
  ///
  /// Its values are applied at once for the layer's current pose (the neutral pose (0, 0) until
  /// an applicator has given it another; apple-semantics §3.9), **additively** on the
  /// presentation values: the model values never change (§3.11).
  ///
  /// - Parameter effect: The effect; attaching an equal effect twice applies it twice.
  public func addMotionEffect(_ effect: some MotionEffect) {
    let wrapped = AnyMotionEffect(effect)
    var effects: [AnyMotionEffect] = []
    let pose = MotionEffectRegistry.update(self) {
      $0.effects.append(wrapped)
      effects = $0.effects
    }
    writeMotionEffectOverlay(effects: effects, pose: pose)
  }

  /// Detaches the first attached effect equal to `effect` (`UIView.removeMotionEffect(_:)`);
  /// the remaining effects are re-applied, and the overlay is removed with the last one.
  ///
  /// - Parameter effect: The effect to remove.
  public func removeMotionEffect(_ effect: some MotionEffect) {
    var effects: [AnyMotionEffect] = []
    let pose = MotionEffectRegistry.update(self) {
      if let i = $0.effects.firstIndex(where: { $0.isEqual(to: effect) }) {
        $0.effects.remove(at: i)
      }
      effects = $0.effects
    }
    writeMotionEffectOverlay(effects: effects, pose: pose)
  }

  /// Applies this layer's motion effects for a viewer offset: the values of all its effects,
  /// summed per key path, become the layer's additive overlay (``motionEffectsOverlayKey``).
  ///
  /// The offset is taken as given; ``MotionEffectApplicator`` rotates it for the interface
  /// orientation first.
  ///
  /// - Parameter viewerOffset: The offset, in the interface's axes, −1...1.
  public func applyMotionEffects(for viewerOffset: ViewerOffset) {
    guard let entry = MotionEffectRegistry.entry(for: self) else { return }
    if entry.pose != viewerOffset {
      MotionEffectRegistry.update(self) { $0.pose = viewerOffset }
    }
    writeMotionEffectOverlay(effects: entry.effects, pose: viewerOffset)
  }

  /// The values this layer's motion effects add for a viewer offset, summed per key path as
  /// written by the effects (UIKit spellings are mapped when the overlay is set).
  ///
  /// - Parameter viewerOffset: The offset, −1...1.
  /// - Returns: Key path → relative value (empty without effects).
  public func motionEffectValues(for viewerOffset: ViewerOffset) -> [String: LayerValue] {
    var values: [String: LayerValue] = [:]
    for effect in MotionEffectRegistry.entry(for: self)?.effects ?? [] {
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

/// The process-wide table of layers' motion effects. Layers cannot gain stored properties from
/// an extension, so the effects live here, keyed by the layer's identity and held weakly (an
/// entry whose layer is gone is dropped on the next change).
private enum MotionEffectRegistry {
  struct Entry: Sendable {
    let box: WeakLayerBox
    var effects: [AnyMotionEffect] = []
    /// The last viewer offset applied to the layer (interface axes).
    var pose = ViewerOffset.zero
  }

  static let table = Mutex<[ObjectIdentifier: Entry]>([:])

  static func entry(for layer: Layer) -> Entry? {
    let id = ObjectIdentifier(layer)
    let box = table.withLock { $0[id]?.box }
    guard let box, box.refersTo(layer) else { return nil }
    return table.withLock { $0[id] }
  }

  /// Changes (or creates) a layer's entry.
  ///
  /// - Returns: The entry's pose.
  @discardableResult
  static func update(_ layer: Layer, _ change: (inout Entry) -> Void) -> ViewerOffset {
    let id = ObjectIdentifier(layer)
    let fresh = WeakLayerBox(layer)
    return table.withLock { t in
      var e = t[id].flatMap { $0.box.isAlive ? $0 : nil } ?? Entry(box: fresh)
      change(&e)
      t[id] = e
      if t.count > 64 && t.count.isMultiple(of: 64) {
        t = t.filter { $0.value.box.isAlive }
      }
      return e.pose
    }
  }
}

/// A weak reference to a layer that is only ever compared by identity, never dereferenced for
/// its contents, so sharing it across threads cannot race on the layer's state.
private final class WeakLayerBox: @unchecked Sendable {
  private weak var layer: Layer?

  init(_ layer: Layer) { self.layer = layer }

  var isAlive: Bool { layer != nil }

  func refersTo(_ other: Layer) -> Bool { layer === other }
}
