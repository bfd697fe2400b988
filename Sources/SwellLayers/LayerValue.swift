import SwellGeometry

/// A value a layer property can hold and Core Animation can interpolate and add: a number, a
/// point, a size, a rectangle, an affine or 3D transform, or a colour.
///
/// Units are those of the key path it belongs to (points for geometry, radians for rotations,
/// 0...1 for opacity and colour components).
public enum LayerValue: Hashable, Sendable, Codable {
  /// A scalar (`position.x`, `opacity`, `transform.rotation.z`, ...).
  case number(Double)
  /// A point (`position`, `anchorPoint`), points.
  case point(Point)
  /// A size (`bounds.size`, `shadowOffset`), points.
  case size(Size)
  /// A rectangle (`bounds`), points.
  case rect(Rect)
  /// A 2D affine transform.
  case affineTransform(AffineTransform)
  /// A 4×4 transform (`transform`).
  case transform3D(Transform3D)
  /// A colour (`backgroundColor`, `fillColor`).
  case color(Color)

  /// The kind of the value, for error messages (`number`, `point`, ...).
  public var kindName: String {
    switch self {
    case .number: "number"
    case .point: "point"
    case .size: "size"
    case .rect: "rect"
    case .affineTransform: "affineTransform"
    case .transform3D: "transform3D"
    case .color: "color"
    }
  }

  /// The scalar, when the value is a number.
  public var number: Double? {
    if case .number(let v) = self { return v }
    return nil
  }

  /// The additive identity of the same kind (0, `.zero`, the identity transform, clear).
  public var zero: LayerValue {
    switch self {
    case .number: .number(0)
    case .point: .point(.zero)
    case .size: .size(.zero)
    case .rect: .rect(.zero)
    case .affineTransform: .affineTransform(.identity)
    case .transform3D: .transform3D(.identity)
    case .color: .color(Color(red: 0, green: 0, blue: 0, alpha: 0))
    }
  }

  /// Core Animation's interpolation: component-wise for numbers, points, sizes, rectangles and
  /// colours; term-wise for transforms (as `CABasicAnimation` does for matrix values).
  ///
  /// - Parameters:
  ///   - other: The end value; it must be of the same kind (an affine transform and a 3D
  ///     transform mix, the affine one embedded).
  ///   - t: The fraction; 0 gives `self`, 1 gives `other`. Values outside 0...1 extrapolate.
  /// - Returns: The interpolated value, or `nil` when the kinds differ.
  public func interpolated(to other: LayerValue, fraction t: Double) -> LayerValue? {
    func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
    switch LayerValue.promoted(self, other) {
    case (.number(let a), .number(let b)):
      return .number(lerp(a, b))
    case (.point(let a), .point(let b)):
      return .point(Point(x: lerp(a.x, b.x), y: lerp(a.y, b.y)))
    case (.size(let a), .size(let b)):
      return .size(Size(width: lerp(a.width, b.width), height: lerp(a.height, b.height)))
    case (.rect(let a), .rect(let b)):
      return .rect(
        Rect(
          x: lerp(a.origin.x, b.origin.x), y: lerp(a.origin.y, b.origin.y),
          width: lerp(a.size.width, b.size.width), height: lerp(a.size.height, b.size.height)))
    case (.affineTransform(let a), .affineTransform(let b)):
      return .affineTransform(
        AffineTransform(
          a: lerp(a.a, b.a), b: lerp(a.b, b.b), c: lerp(a.c, b.c), d: lerp(a.d, b.d),
          tx: lerp(a.tx, b.tx), ty: lerp(a.ty, b.ty)))
    case (.transform3D(let a), .transform3D(let b)):
      let ra = a.rowMajor
      let rb = b.rowMajor
      return .transform3D(Transform3D(rowMajor: zip(ra, rb).map { lerp($0, $1) }))
    case (.color(let a), .color(let b)):
      return .color(a.interpolated(to: b, fraction: t))
    default:
      return nil
    }
  }

  /// Core Animation's addition (`CA_addValue:multipliedBy:1`): component-wise sums, and
  /// concatenation for transforms (apply `self`, then `other`).
  ///
  /// - Parameter other: The value to add; it must be of the same kind (an affine transform and a
  ///   3D transform mix, the affine one embedded).
  /// - Returns: The sum, or `nil` when the kinds differ.
  public func adding(_ other: LayerValue) -> LayerValue? {
    switch LayerValue.promoted(self, other) {
    case (.number(let a), .number(let b)): return .number(a + b)
    case (.point(let a), .point(let b)): return .point(a + b)
    case (.size(let a), .size(let b)): return .size(a + b)
    case (.rect(let a), .rect(let b)):
      return .rect(Rect(origin: a.origin + b.origin, size: a.size + b.size))
    case (.affineTransform(let a), .affineTransform(let b)):
      return .affineTransform(a.concatenating(b))
    case (.transform3D(let a), .transform3D(let b)): return .transform3D(a.concatenating(b))
    case (.color(let a), .color(let b)):
      return .color(
        Color(
          red: a.red + b.red, green: a.green + b.green, blue: a.blue + b.blue,
          alpha: a.alpha + b.alpha))
    default: return nil
    }
  }

  /// The difference `self − other`, the inverse of ``adding(_:)``: for transforms, the transform
  /// `d` with `other` then `d` equal to `self` (or `self` when `other` is singular).
  ///
  /// - Parameter other: The value to subtract; it must be of the same kind (an affine transform
  ///   and a 3D transform mix, the affine one embedded).
  /// - Returns: The difference, or `nil` when the kinds differ.
  public func subtracting(_ other: LayerValue) -> LayerValue? {
    switch LayerValue.promoted(self, other) {
    case (.number(let a), .number(let b)): return .number(a - b)
    case (.point(let a), .point(let b)): return .point(a - b)
    case (.size(let a), .size(let b)): return .size(a - b)
    case (.rect(let a), .rect(let b)):
      return .rect(Rect(origin: a.origin - b.origin, size: a.size - b.size))
    case (.affineTransform(let a), .affineTransform(let b)):
      guard let inv = b.inverted else { return .affineTransform(a) }
      return .affineTransform(inv.concatenating(a))
    case (.transform3D(let a), .transform3D(let b)):
      guard let inv = b.inverted else { return .transform3D(a) }
      return .transform3D(inv.concatenating(a))
    case (.color(let a), .color(let b)):
      return .color(
        Color(
          red: a.red - b.red, green: a.green - b.green, blue: a.blue - b.blue,
          alpha: a.alpha - b.alpha))
    default: return nil
    }
  }

  /// The pair with an affine transform embedded as a 3D transform when the other one is 3D, so
  /// that UIKit's `CGAffineTransform` values combine with `CATransform3D` ones.
  private static func promoted(_ a: LayerValue, _ b: LayerValue) -> (LayerValue, LayerValue) {
    switch (a, b) {
    case (.affineTransform(let x), .transform3D): (.transform3D(Transform3D(x)), b)
    case (.transform3D, .affineTransform(let y)): (a, .transform3D(Transform3D(y)))
    default: (a, b)
    }
  }

  /// The value scaled by a factor (numbers, points, sizes, rectangles and colours; transforms
  /// are returned unchanged).
  ///
  /// - Parameter s: The factor.
  /// - Returns: The scaled value.
  public func scaled(by s: Double) -> LayerValue {
    switch self {
    case .number(let a): .number(a * s)
    case .point(let a): .point(a * s)
    case .size(let a): .size(a * s)
    case .rect(let a): .rect(Rect(origin: a.origin * s, size: a.size * s))
    case .color(let a):
      .color(Color(red: a.red * s, green: a.green * s, blue: a.blue * s, alpha: a.alpha * s))
    case .affineTransform, .transform3D: self
    }
  }

  /// True when every number in the value is finite.
  public var isFinite: Bool {
    switch self {
    case .number(let a): a.isFinite
    case .point(let p): p.x.isFinite && p.y.isFinite
    case .size(let s): s.width.isFinite && s.height.isFinite
    case .rect(let r):
      r.origin.x.isFinite && r.origin.y.isFinite && r.size.width.isFinite && r.size.height.isFinite
    case .affineTransform(let t):
      [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy(\.isFinite)
    case .transform3D(let t): t.rowMajor.allSatisfy(\.isFinite)
    case .color(let c): [c.red, c.green, c.blue, c.alpha].allSatisfy(\.isFinite)
    }
  }
}

/// A Swift type that a layer property can hold, convertible to and from ``LayerValue``.
///
/// Lets typed APIs (`InterpolatingMotionEffect<Point>`, `layer[keyPath: \.position]`) share the
/// interpolation and addition rules of ``LayerValue``.
public protocol LayerValueConvertible: Sendable {
  /// The value as a ``LayerValue``.
  var layerValue: LayerValue { get }
  /// Creates the value from a ``LayerValue`` of the matching kind.
  ///
  /// - Parameter layerValue: The value; `nil` is returned for another kind.
  init?(layerValue: LayerValue)
}

extension Double: LayerValueConvertible {
  /// The value as `.number`.
  public var layerValue: LayerValue { .number(self) }
  /// Creates the number from `.number`.
  ///
  /// - Parameter layerValue: The value.
  public init?(layerValue: LayerValue) {
    guard case .number(let v) = layerValue else { return nil }
    self = v
  }
}

extension Point: LayerValueConvertible {
  /// The value as `.point`.
  public var layerValue: LayerValue { .point(self) }
  /// Creates the point from `.point`.
  ///
  /// - Parameter layerValue: The value.
  public init?(layerValue: LayerValue) {
    guard case .point(let v) = layerValue else { return nil }
    self = v
  }
}

extension Size: LayerValueConvertible {
  /// The value as `.size`.
  public var layerValue: LayerValue { .size(self) }
  /// Creates the size from `.size`.
  ///
  /// - Parameter layerValue: The value.
  public init?(layerValue: LayerValue) {
    guard case .size(let v) = layerValue else { return nil }
    self = v
  }
}

extension Rect: LayerValueConvertible {
  /// The value as `.rect`.
  public var layerValue: LayerValue { .rect(self) }
  /// Creates the rectangle from `.rect`.
  ///
  /// - Parameter layerValue: The value.
  public init?(layerValue: LayerValue) {
    guard case .rect(let v) = layerValue else { return nil }
    self = v
  }
}

extension AffineTransform: LayerValueConvertible {
  /// The value as `.affineTransform`.
  public var layerValue: LayerValue { .affineTransform(self) }
  /// Creates the transform from `.affineTransform`.
  ///
  /// - Parameter layerValue: The value.
  public init?(layerValue: LayerValue) {
    guard case .affineTransform(let v) = layerValue else { return nil }
    self = v
  }
}

extension Transform3D: LayerValueConvertible {
  /// The value as `.transform3D`.
  public var layerValue: LayerValue { .transform3D(self) }
  /// Creates the transform from `.transform3D` (or an affine transform, embedded).
  ///
  /// - Parameter layerValue: The value.
  public init?(layerValue: LayerValue) {
    switch layerValue {
    case .transform3D(let v): self = v
    case .affineTransform(let a): self = Transform3D(a)
    default: return nil
    }
  }
}

extension Color: LayerValueConvertible {
  /// The value as `.color`.
  public var layerValue: LayerValue { .color(self) }
  /// Creates the colour from `.color`.
  ///
  /// - Parameter layerValue: The value.
  public init?(layerValue: LayerValue) {
    guard case .color(let v) = layerValue else { return nil }
    self = v
  }
}

/// A Core Animation key path with the Swift type of its value, so that code writing model
/// values (``Layer/subscript(_:)``) is checked by the compiler: `layer[.rotationZ] = 0.3`.
public struct TypedLayerKeyPath<Value: LayerValueConvertible>: Hashable, Sendable {
  /// The key path as Core Animation spells it (`transform.rotation.z`).
  public let name: String

  /// Names a key path.
  ///
  /// - Parameter name: The key path (Core Animation or UIKit spelling).
  public init(_ name: String) { self.name = LayerKeyPath.canonical(name) }
}

extension TypedLayerKeyPath where Value == Double {
  /// `transform.rotation.z`: the rotation in the layer's plane, radians, positive clockwise
  /// on screen (UIKit's sign).
  public static var rotationZ: Self { Self("transform.rotation.z") }
  /// `position.x`, points in the superlayer.
  public static var positionX: Self { Self("position.x") }
  /// `position.y`, points in the superlayer (y down).
  public static var positionY: Self { Self("position.y") }
  /// `opacity`, 0...1.
  public static var opacity: Self { Self("opacity") }
}

extension TypedLayerKeyPath where Value == Point {
  /// `position`, points in the superlayer.
  public static var position: Self { Self("position") }
}

extension Layer {
  /// The model value of a typed key path (`nil` when the layer has no such value), or sets it
  /// (a `nil` assignment is ignored).
  ///
  /// - Parameter keyPath: The key path.
  public subscript<Value>(_ keyPath: TypedLayerKeyPath<Value>) -> Value? {
    get { value(forKeyPath: keyPath.name).flatMap(Value.init(layerValue:)) }
    set {
      guard let newValue else { return }
      setValue(newValue.layerValue, forKeyPath: keyPath.name)
    }
  }
}
