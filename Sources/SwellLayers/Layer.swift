import Foundation
import SwellGeometry
import Synchronization

/// A node of the layer tree, like Core Animation's `CALayer`.
///
/// Geometry is UIKit's: points, origin at the top left, y down. A layer's `position` (in its
/// superlayer's space) is where its `anchorPoint` (unit coordinates of its bounds) lands; its
/// `transform` applies about the anchor point. A positive `transform.rotation.z` turns clockwise
/// on screen.
///
/// A layer holds **model values**. Animations and additive overlays (motion effects) never change
/// them; ``presentation(at:)`` computes the **presentation** tree at a time, which is what
/// renderers draw and traces record.
///
/// Layers are reference types (identity: a layer is in one tree once) and are not thread-safe;
/// use a tree from one thread or actor at a time.
open class Layer {
  /// A name used by key-path lookups from scenes and traces (`water`, `wallpaper`).
  public var name: String?
  /// The anchor point's position in the superlayer's coordinate space, points.
  public var position: Point = .zero
  /// The layer's own coordinate space: origin and size, points.
  public var bounds: Rect = .zero
  /// The point of the bounds that `position` refers to and transforms pivot about, unit
  /// coordinates (0.5, 0.5 is the centre).
  public var anchorPoint = Point(x: 0.5, y: 0.5)
  /// The transform applied about the anchor point.
  public var transform: Transform3D = .identity
  /// The opacity, 0...1, applied to the layer and its sublayers as a group.
  public var opacity: Double = 1
  /// The background fill of the bounds, or `nil` for none.
  public var backgroundColor: Color?
  /// The radius of the bounds' corners for the background, border and clipping, points.
  public var cornerRadius: Double = 0
  /// The border width, points (drawn inside the bounds).
  public var borderWidth: Double = 0
  /// The border colour.
  public var borderColor: Color = .black
  /// Whether sublayers are clipped to the (rounded) bounds.
  public var masksToBounds = false
  /// Whether the layer and its sublayers are skipped when drawing.
  public var isHidden = false
  /// The drawing order among siblings: higher draws later (on top); ties keep array order.
  public var zPosition: Double = 0
  /// Pixels per point for this layer; positions changed by motion effects snap to whole pixels
  /// at this scale (`contentsScale`).
  public var contentsScale: Double = 1

  /// What the layer draws of its own between its background and its sublayers: ``LayerContent/none``
  /// for a plain layer; ``ShapeLayer`` and ``ImageLayer`` return themselves.
  open var drawnContent: LayerContent { .none }

  /// The sublayers, back to front.
  public internal(set) var sublayers: [Layer] = []
  /// The layer this one is a sublayer of.
  public internal(set) weak var superlayer: Layer?

  /// Running animations by key.
  public private(set) var animations: [(key: String, animation: BasicAnimation)] = []
  /// Additive overlays by key: values added to the presentation values after animations
  /// (motion effects use these, like UIKit's never-removed additive animations).
  public private(set) var overlays: [(key: String, values: [String: LayerValue])] = []

  /// The `transform.*` components last written through a key path, with the transform they
  /// built. While `transform` still equals it, the sub-key paths read these components back
  /// instead of decomposing the matrix, so angles outside (−π, π] (and `rotation.y` beyond ±π/2)
  /// round-trip exactly and retargeting a rotation does not spin through a full turn.
  private var transformComponentsCache: (transform: Transform3D, components: TransformComponents)?

  /// The `transform.*` components of the current transform (see `transformComponentsCache`).
  private var transformComponents: TransformComponents {
    if let c = transformComponentsCache, c.transform == transform { return c.components }
    return TransformComponents(transform)
  }

  /// Creates a layer with default values.
  public init() {}

  /// Creates a named layer.
  ///
  /// - Parameters:
  ///   - name: The layer's name.
  ///   - frame: The frame in the superlayer's space, points (sets bounds and position).
  public convenience init(name: String?, frame: Rect) {
    self.init()
    self.name = name
    self.frame = frame
  }

  // MARK: - Tree

  /// Appends a sublayer, removing it from its previous superlayer first.
  ///
  /// - Parameter layer: The new sublayer (must not be `self` or an ancestor).
  public func addSublayer(_ layer: Layer) {
    insertSublayer(layer, at: sublayers.count)
  }

  /// Inserts a sublayer at an index, removing it from its previous superlayer first.
  ///
  /// - Parameters:
  ///   - layer: The new sublayer (must not be `self` or an ancestor).
  ///   - index: The position among the sublayers, clamped to the valid range.
  public func insertSublayer(_ layer: Layer, at index: Int) {
    var a: Layer? = self
    while let x = a {
      precondition(x !== layer, "a layer cannot be added to itself or its descendants")
      a = x.superlayer
    }
    layer.removeFromSuperlayer()
    sublayers.insert(layer, at: min(max(index, 0), sublayers.count))
    layer.superlayer = self
  }

  /// Removes the layer from its superlayer.
  public func removeFromSuperlayer() {
    guard let s = superlayer else { return }
    s.sublayers.removeAll { $0 === self }
    superlayer = nil
  }

  /// The first layer in this subtree (this one included, depth first) with a name.
  ///
  /// - Parameter name: The name to find.
  /// - Returns: The layer, or `nil`.
  public func layer(named name: String) -> Layer? {
    if self.name == name { return self }
    for s in sublayers {
      if let l = s.layer(named: name) { return l }
    }
    return nil
  }

  /// Every layer of the subtree, depth first, this one first.
  public var allLayers: [Layer] {
    [self] + sublayers.flatMap(\.allLayers)
  }

  // MARK: - Geometry

  /// The layer's rectangle in its superlayer's space, derived from position, bounds size and
  /// anchor point (for an identity transform); setting it moves `position` and sizes `bounds`.
  public var frame: Rect {
    get {
      Rect(
        x: position.x - anchorPoint.x * bounds.width, y: position.y - anchorPoint.y * bounds.height,
        width: bounds.width, height: bounds.height)
    }
    set {
      bounds.size = Size(width: newValue.width, height: newValue.height)
      position = Point(
        x: newValue.minX + anchorPoint.x * newValue.width,
        y: newValue.minY + anchorPoint.y * newValue.height)
    }
  }

  /// The transform from this layer's bounds space to its superlayer's space, including the
  /// anchor-point pivot and perspective (a 4×4 in the row-vector convention of `Transform3D`).
  public var transformToSuperlayer: Transform3D {
    let ax = bounds.origin.x + anchorPoint.x * bounds.width
    let ay = bounds.origin.y + anchorPoint.y * bounds.height
    return Transform3D(translationX: -ax, y: -ay, z: 0)
      .concatenating(transform)
      .concatenating(Transform3D(translationX: position.x, y: position.y, z: zPosition))
  }

  // MARK: - Animations

  /// Adds (or replaces, for the same key) an animation.
  ///
  /// Finished, removable animations are dropped at the same time, so layers animated on every
  /// motion update do not accumulate them.
  ///
  /// - Parameters:
  ///   - animation: The animation.
  ///   - key: The key; `nil` makes a unique one.
  public func add(_ animation: BasicAnimation, forKey key: String? = nil) {
    let k = key ?? "animation-\(Layer.nextAnimationID())"
    animations.removeAll { $0.key == k || $0.animation.isFinished(at: animation.beginTime) }
    animations.append((k, animation))
  }

  /// Removes the animation with a key.
  ///
  /// - Parameter key: The key.
  public func removeAnimation(forKey key: String) {
    animations.removeAll { $0.key == key }
  }

  /// Removes every animation.
  public func removeAllAnimations() { animations.removeAll() }

  /// The animation with a key.
  ///
  /// - Parameter key: The key.
  /// - Returns: The animation, or `nil`.
  public func animation(forKey key: String) -> BasicAnimation? {
    animations.first { $0.key == key }?.animation
  }

  /// Drops every animation that is over and removable at a time (in the whole subtree).
  ///
  /// - Parameter time: Seconds on the tree's clock.
  public func removeFinishedAnimations(at time: Double) {
    animations.removeAll { $0.animation.isFinished(at: time) }
    for s in sublayers { s.removeFinishedAnimations(at: time) }
  }

  /// Animates a property to a new value the way `UIView.animate(withDuration:)` does since
  /// iOS 8: the model value changes at once, and an **additive** animation from
  /// `old − new` to zero is added, so overlapping calls blend smoothly instead of jumping.
  ///
  /// The presentation value then follows
  /// `target − Σ Δᵢ · (1 − E((t − tᵢ) / duration))`, a time-based low-pass filter that does not
  /// depend on the update rate. E is the ease-in-out curve, the cubic Bézier (0.42, 0), (0.58, 1)
  /// (Apple's `CAMediaTimingFunctionName.easeInEaseOut` page); overlapping `animate` calls on
  /// one property are additive since iOS 8 (WWDC 2014 session 236, "Building Interruptible and
  /// Responsive Interactions"). The sum is derived from those two facts.
  ///
  /// - Parameters:
  ///   - keyPath: The key path (Core Animation or UIKit spelling).
  ///   - value: The new model value.
  ///   - duration: Seconds; zero or less sets the value without animating.
  ///   - timingFunction: The curve (default UIKit's ease-in-out).
  ///   - time: The current time, seconds on the tree's clock.
  /// - Returns: `false` when the key path is unknown or the value's kind does not fit it.
  @discardableResult
  public func animate(
    keyPath: String, to value: LayerValue, duration: Double,
    timingFunction: TimingFunction = .easeInEaseOut, at time: Double
  ) -> Bool {
    let path = LayerKeyPath.canonical(keyPath)
    var value = value
    // UIKit's `transform` is a CGAffineTransform: embed it, as `setValue` does.
    if path == "transform", case .affineTransform(let a) = value {
      value = .transform3D(Transform3D(a))
    }
    guard let old = self.value(forKeyPath: path), let delta = old.subtracting(value),
      setValue(value, forKeyPath: path)
    else { return false }
    guard duration > 0, duration.isFinite else { return true }
    if delta == delta.zero { return true }
    add(
      BasicAnimation(
        keyPath: path, fromValue: delta, toValue: delta.zero, beginTime: time, duration: duration,
        timingFunction: timingFunction, isAdditive: true))
    return true
  }

  // MARK: - Overlays

  /// Sets an additive overlay: values added to the presentation values of their key paths
  /// after animations. Model values are untouched.
  ///
  /// - Parameters:
  ///   - values: Key path → value to add (Core Animation or UIKit spellings).
  ///   - key: Identifies the overlay (one per motion effect, say); setting it again replaces it.
  public func setOverlay(_ values: [String: LayerValue], forKey key: String) {
    var canonical: [String: LayerValue] = [:]
    for (k, v) in values {
      let c = LayerKeyPath.canonical(k)
      if let existing = canonical[c], let sum = existing.adding(v) {
        canonical[c] = sum
      } else {
        canonical[c] = v
      }
    }
    if let i = overlays.firstIndex(where: { $0.key == key }) {
      overlays[i].values = canonical
    } else {
      overlays.append((key, canonical))
    }
  }

  /// Adds values to an overlay (creating it when there is none): each value is added to the
  /// overlay's value for its key path. The cost is that of the values added, not of the
  /// overlay's size, so building an overlay piece by piece is linear.
  ///
  /// - Parameters:
  ///   - values: Key path → value to add (Core Animation or UIKit spellings).
  ///   - key: The overlay's key.
  public func addToOverlay(_ values: [String: LayerValue], forKey key: String) {
    let i: Int
    if let found = overlays.firstIndex(where: { $0.key == key }) {
      i = found
    } else {
      overlays.append((key, [:]))
      i = overlays.count - 1
    }
    for (k, v) in values {
      let c = LayerKeyPath.canonical(k)
      if let existing = overlays[i].values[c], let sum = existing.adding(v) {
        overlays[i].values[c] = sum
      } else {
        overlays[i].values[c] = v
      }
    }
  }

  /// Removes an overlay.
  ///
  /// - Parameter key: The overlay's key.
  public func removeOverlay(forKey key: String) {
    overlays.removeAll { $0.key == key }
  }

  // MARK: - Attachments

  /// Values that other modules keep on the layer, one per key type (the motion effects of
  /// SwellEffects live here). A layer's attachments are not copied to presentation copies.
  private var attachments: [ObjectIdentifier: Any] = [:]

  /// The value attached to the layer under a key type, or the key's default.
  ///
  /// - Parameter key: The key type.
  public subscript<K: LayerAttachmentKey>(attachment key: K.Type) -> K.Value {
    get { attachments[ObjectIdentifier(key)] as? K.Value ?? K.defaultValue }
    set { attachments[ObjectIdentifier(key)] = newValue }
  }

  private static let counter = AnimationCounter()

  private static func nextAnimationID() -> Int { counter.next() }

  // MARK: - Copying

  /// Creates a copy of this layer's own properties (not its sublayers, animations or overlays).
  ///
  /// Subclasses override it to copy their own properties, calling `super` through
  /// ``copyProperties(to:)``.
  ///
  /// - Returns: A new, detached layer of the same class.
  open func copyLayer() -> Layer {
    let l = Layer()
    copyProperties(to: l)
    return l
  }

  /// Copies this layer's base properties onto another layer.
  ///
  /// - Parameter l: The destination.
  public final func copyProperties(to l: Layer) {
    l.name = name
    l.position = position
    l.bounds = bounds
    l.anchorPoint = anchorPoint
    l.transform = transform
    l.opacity = opacity
    l.backgroundColor = backgroundColor
    l.cornerRadius = cornerRadius
    l.borderWidth = borderWidth
    l.borderColor = borderColor
    l.masksToBounds = masksToBounds
    l.isHidden = isHidden
    l.zPosition = zPosition
    l.contentsScale = contentsScale
    l.transformComponentsCache = transformComponentsCache
  }

  /// Called on each presentation copy after its animated values are applied; subclasses whose
  /// content depends on time (a wave's path) compute it here.
  ///
  /// - Parameter time: Seconds on the tree's clock.
  open func prepareForPresentation(at time: Double) {}

  // MARK: - Key paths

  /// The key paths this layer's class can set, Core Animation spelling, with the kind each
  /// holds: ``baseKeyPaths`` plus a subclass's own (a shape layer's `fillColor`, a water layer's
  /// `fillLevel`). UIKit spellings (``keyPathAliases``) and a `layer.` prefix map onto these.
  open var supportedKeyPaths: [String: LayerValueKind] { Layer.baseKeyPaths }

  /// The value of a key path, Core Animation spelling (UIKit spellings like `center` are mapped).
  ///
  /// Supported: `position(.x/.y)`, `bounds`, `bounds.origin(.x/.y)`, `bounds.size(.width/
  /// .height)`, `anchorPoint(.x/.y)`, `transform`, `transform.rotation(.x/.y/.z)` (radians),
  /// `transform.scale(.x/.y/.z)`, `transform.translation(.x/.y/.z)` (points), `opacity`,
  /// `backgroundColor`, `cornerRadius`, `borderWidth`, `borderColor`, `zPosition`; subclasses add
  /// their own.
  ///
  /// - Parameter keyPath: The key path.
  /// - Returns: The value, or `nil` for an unknown key path.
  open func value(forKeyPath keyPath: String) -> LayerValue? {
    let path = LayerKeyPath.canonical(keyPath)
    switch path {
    case "position": return .point(position)
    case "position.x": return .number(position.x)
    case "position.y": return .number(position.y)
    case "bounds": return .rect(bounds)
    case "bounds.origin": return .point(bounds.origin)
    case "bounds.origin.x": return .number(bounds.origin.x)
    case "bounds.origin.y": return .number(bounds.origin.y)
    case "bounds.size": return .size(bounds.size)
    case "bounds.size.width": return .number(bounds.size.width)
    case "bounds.size.height": return .number(bounds.size.height)
    case "anchorPoint": return .point(anchorPoint)
    case "anchorPoint.x": return .number(anchorPoint.x)
    case "anchorPoint.y": return .number(anchorPoint.y)
    case "transform": return .transform3D(transform)
    case "opacity": return .number(opacity)
    case "backgroundColor": return .color(backgroundColor ?? .clear)
    case "cornerRadius": return .number(cornerRadius)
    case "borderWidth": return .number(borderWidth)
    case "borderColor": return .color(borderColor)
    case "zPosition": return .number(zPosition)
    default:
      if path.hasPrefix("transform.") {
        let d = transformComponents
        return d.value(for: String(path.dropFirst("transform.".count))).map { .number($0) }
      }
      return nil
    }
  }

  /// Sets the model value of a key path.
  ///
  /// - Parameters:
  ///   - value: The new value; its kind must fit the key path.
  ///   - keyPath: The key path (see ``value(forKeyPath:)``).
  /// - Returns: `false` when the key path is unknown or the kind does not fit (nothing changes).
  @discardableResult
  open func setValue(_ value: LayerValue, forKeyPath keyPath: String) -> Bool {
    let path = LayerKeyPath.canonical(keyPath)
    switch (path, value) {
    case ("position", .point(let p)): position = p
    case ("position.x", .number(let v)): position.x = v
    case ("position.y", .number(let v)): position.y = v
    case ("bounds", .rect(let r)): bounds = r
    case ("bounds.origin", .point(let p)): bounds.origin = p
    case ("bounds.origin.x", .number(let v)): bounds.origin.x = v
    case ("bounds.origin.y", .number(let v)): bounds.origin.y = v
    case ("bounds.size", .size(let s)): bounds.size = s
    case ("bounds.size.width", .number(let v)): bounds.size.width = v
    case ("bounds.size.height", .number(let v)): bounds.size.height = v
    case ("anchorPoint", .point(let p)): anchorPoint = p
    case ("anchorPoint.x", .number(let v)): anchorPoint.x = v
    case ("anchorPoint.y", .number(let v)): anchorPoint.y = v
    case ("transform", .transform3D(let t)): transform = t
    case ("transform", .affineTransform(let t)): transform = Transform3D(t)
    case ("opacity", .number(let v)): opacity = v
    case ("backgroundColor", .color(let c)): backgroundColor = c
    case ("cornerRadius", .number(let v)): cornerRadius = v
    case ("borderWidth", .number(let v)): borderWidth = v
    case ("borderColor", .color(let c)): borderColor = c
    case ("zPosition", .number(let v)): zPosition = v
    default:
      if path.hasPrefix("transform."), case .number(let v) = value {
        var d = transformComponents
        guard d.set(String(path.dropFirst("transform.".count)), to: v) else { return false }
        transform = d.transform
        transformComponentsCache = (transform, d)
        return true
      }
      return false
    }
    return true
  }

  /// The key path spelled for a Swift key path of `Layer`, for typed animation APIs.
  ///
  /// - Parameter keyPath: A Swift key path such as `\Layer.position`.
  /// - Returns: `position`, `bounds`, `anchorPoint`, `transform`, `opacity`, `backgroundColor`,
  ///   `cornerRadius`, `borderWidth`, `borderColor` or `zPosition`; `nil` for others.
  public static func keyPathString(for keyPath: PartialKeyPath<Layer>) -> String? {
    switch keyPath {
    case \Layer.position: "position"
    case \Layer.bounds: "bounds"
    case \Layer.anchorPoint: "anchorPoint"
    case \Layer.transform: "transform"
    case \Layer.opacity: "opacity"
    case \Layer.backgroundColor: "backgroundColor"
    case \Layer.cornerRadius: "cornerRadius"
    case \Layer.borderWidth: "borderWidth"
    case \Layer.borderColor: "borderColor"
    case \Layer.zPosition: "zPosition"
    case \Layer.position.x: "position.x"
    case \Layer.position.y: "position.y"
    default: nil
    }
  }

  /// Animates a property named by a Swift key path, like ``animate(keyPath:to:duration:timingFunction:at:)``.
  ///
  /// - Parameters:
  ///   - keyPath: A Swift key path such as `\Layer.position`.
  ///   - value: The new value.
  ///   - duration: Seconds.
  ///   - timingFunction: The curve (default ease-in-out).
  ///   - time: The current time, seconds on the tree's clock.
  /// - Returns: `false` when the key path has no Core Animation name.
  @discardableResult
  public func animate<V: LayerValueConvertible>(
    _ keyPath: ReferenceWritableKeyPath<Layer, V>, to value: V, duration: Double,
    timingFunction: TimingFunction = .easeInEaseOut, at time: Double
  ) -> Bool {
    guard let name = Layer.keyPathString(for: keyPath) else { return false }
    return animate(
      keyPath: name, to: value.layerValue, duration: duration, timingFunction: timingFunction,
      at: time)
  }
}

/// The key of a value another module stores on a ``Layer`` (``Layer/subscript(attachment:)``),
/// as SwiftUI's environment keys work: the key is a type, its value has a default.
public protocol LayerAttachmentKey {
  /// The type of the stored value.
  associatedtype Value
  /// The value a layer has before anything is stored.
  static var defaultValue: Value { get }
}

/// Maps UIKit (`UIView`) key paths onto Core Animation layer key paths.
public enum LayerKeyPath {
  /// The Core Animation spelling of a key path: strips a `layer.` prefix, maps `center` (and
  /// `center.x`/`.y`) to `position`, `alpha` to `opacity`, `transform.rotation` to
  /// `transform.rotation.z`, `transform.scale` to `transform.scale.xy` (x and y, the 2D scale),
  /// and `frame.size` (and `.width`/`.height`) to `bounds.size`; unknown paths pass through.
  ///
  /// - Parameter keyPath: The key path as written.
  /// - Returns: The canonical key path.
  public static func canonical(_ keyPath: String) -> String {
    var p = keyPath
    if p.hasPrefix("layer.") { p.removeFirst("layer.".count) }
    if p == "center" || p.hasPrefix("center.") { p = "position" + p.dropFirst("center".count) }
    if p == "alpha" { p = "opacity" }
    if p == "transform.rotation" { p = "transform.rotation.z" }
    if p == "transform.scale" { p = "transform.scale.xy" }
    if p == "frame.size" || p.hasPrefix("frame.size.") { p = "bounds" + p.dropFirst("frame".count) }
    return p
  }
}

/// A decomposition of a transform into translation, scale and rotations, used for the
/// `transform.*` sub-key paths (Core Animation's value functions).
///
/// Composition order (row vectors): scale, then rotation about x, then y, then z, then
/// translation; perspective (`m34`) is kept as is.
struct TransformComponents {
  var translation = Vector3.zero
  var scale = Vector3(1, 1, 1)
  var rotation = Vector3.zero
  var m34 = 0.0

  init(_ t: Transform3D) {
    translation = Vector3(t.m41, t.m42, t.m43)
    m34 = t.m34
    let r0 = Vector3(t.m11, t.m12, t.m13)
    let r1 = Vector3(t.m21, t.m22, t.m23)
    let r2 = Vector3(t.m31, t.m32, t.m33)
    scale = Vector3(r0.length, r1.length, r2.length)
    var n0 = scale.x > 0 ? r0 / scale.x : .unitX
    let n1 = scale.y > 0 ? r1 / scale.y : .unitY
    let n2 = scale.z > 0 ? r2 / scale.z : .unitZ
    // A mirror image (negative determinant) is a flip in x: a negative x scale, so the rest is
    // a proper rotation and rebuilding keeps the flip.
    if r0.dot(r1.cross(r2)) < 0 {
      scale.x = -scale.x
      n0 = -n0
    }
    // Row-vector rotation R = Rx·Ry·Rz; recover the angles.
    let ry = asin(min(1, max(-1, -n0.z)))
    let rz = atan2(n0.y, n0.x)
    let rx = atan2(n1.z, n2.z)
    rotation = Vector3(rx, ry, rz)
  }

  var transform: Transform3D {
    var t = Transform3D(scaleX: scale.x, y: scale.y, z: scale.z)
    t = t.concatenating(Transform3D(rotationAngle: rotation.x, x: 1, y: 0, z: 0))
    t = t.concatenating(Transform3D(rotationAngle: rotation.y, x: 0, y: 1, z: 0))
    t = t.concatenating(Transform3D(rotationAngle: rotation.z, x: 0, y: 0, z: 1))
    t.m41 = translation.x
    t.m42 = translation.y
    t.m43 = translation.z
    t.m34 = m34
    return t
  }

  func value(for sub: String) -> Double? {
    switch sub {
    case "rotation.x": rotation.x
    case "rotation.y": rotation.y
    case "rotation.z": rotation.z
    case "scale.x": scale.x
    case "scale.y": scale.y
    case "scale.z": scale.z
    case "scale.xy": (scale.x + scale.y) / 2
    case "translation.x": translation.x
    case "translation.y": translation.y
    case "translation.z": translation.z
    default: nil
    }
  }

  mutating func set(_ sub: String, to v: Double) -> Bool {
    switch sub {
    case "rotation.x": rotation.x = v
    case "rotation.y": rotation.y = v
    case "rotation.z": rotation.z = v
    case "scale.x": scale.x = v
    case "scale.y": scale.y = v
    case "scale.z": scale.z = v
    case "scale.xy":
      scale.x = v
      scale.y = v
    case "translation.x": translation.x = v
    case "translation.y": translation.y = v
    case "translation.z": translation.z = v
    default: return false
    }
    return true
  }
}

/// A thread-safe counter for unique animation keys.
private final class AnimationCounter: Sendable {
  private let value = Mutex(0)

  func next() -> Int {
    value.withLock {
      $0 += 1
      return $0
    }
  }
}
