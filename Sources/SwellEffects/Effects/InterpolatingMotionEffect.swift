import SwellGeometry
import SwellLayers

/// Maps the horizontal or vertical viewer offset onto a range of values for one key path, like
/// UIKit's `UIInterpolatingMotionEffect`
/// (https://developer.apple.com/documentation/uikit/uiinterpolatingmotioneffect; the fraction and
/// the interpolation as its `_keyPathsAndRelativeValuesForPose:` computes them in iOS 26.1).
///
/// The value is Core Animation's interpolation from ``minimumRelativeValue`` (offset −1) to
/// ``maximumRelativeValue`` (offset +1) at `fraction = offset·0.5 + 0.5`, for any value kind a
/// layer property holds: numbers, points, sizes, rectangles, affine and 3D transforms, colours
/// (`LayerValue.interpolated(to:fraction:)`). Nothing is returned until the key path and both
/// values are set, or when the two values are of different kinds; attached to a layer, an
/// effect with values of different kinds, or a key path the layer lacks, is reported once
/// (``MotionEffectProblem``, ``MotionEffectDiagnostics``).
///
/// The seed's star-field parallax, ±40 points left and right:
///
/// ```swift
/// var x = InterpolatingMotionEffect(keyPath: "center.x", type: .tiltAlongHorizontalAxis)
/// x.minimumRelativeValue = .number(-40)
/// x.maximumRelativeValue = .number(40)
/// wallpaper.addMotionEffect(x)
/// ```
public struct InterpolatingMotionEffect: MotionEffect {
  /// Which component of the viewer offset drives the effect
  /// (`UIInterpolatingMotionEffect.EffectType`).
  public enum EffectType: String, Hashable, Sendable, Codable, CaseIterable {
    /// The device facing left or right of the viewer: ``ViewerOffset/horizontal``.
    case tiltAlongHorizontalAxis
    /// The device facing above or below the viewer: ``ViewerOffset/vertical``.
    case tiltAlongVerticalAxis
  }

  /// The key path the values apply to (`center.x`, `layer.transform`), relative to the layer the
  /// effect is attached to; UIKit spellings are mapped to Core Animation's when applied.
  public var keyPath: String
  /// The offset component that drives the effect.
  public var type: EffectType
  /// The relative value at offset −1, in the key path's units (points, radians, ...).
  public var minimumRelativeValue: LayerValue?
  /// The relative value at offset +1, in the key path's units.
  public var maximumRelativeValue: LayerValue?
  /// The accelerated-output boost b for the horizontal axis, offset units: the offset is clamped to
  /// [−(1+b), 1+b] before interpolating (UIKit's `_UIMotionEffectAcceleratedOutputRange`; the
  /// `_horizontalAccelerationBoostFactor` ivar defaults to 0, as measured from iOS 26.1).
  ///
  /// The engine's offsets are within ±1 by construction, so a boost only lets offsets supplied
  /// directly beyond ±1 extrapolate past the range.
  public var horizontalAccelerationBoostFactor: Double = 0
  /// The accelerated-output boost b for the vertical axis, offset units (see
  /// ``horizontalAccelerationBoostFactor``; default 0).
  public var verticalAccelerationBoostFactor: Double = 0

  /// Creates an effect with no values yet (`init(keyPath:type:)`).
  ///
  /// - Parameters:
  ///   - keyPath: The key path to change, e.g. `center.x`.
  ///   - type: The offset component that drives it.
  public init(keyPath: String, type: EffectType) {
    self.keyPath = keyPath
    self.type = type
  }

  /// Creates an effect with typed minimum and maximum values.
  ///
  /// - Parameters:
  ///   - keyPath: The key path to change, e.g. `center`.
  ///   - type: The offset component that drives it.
  ///   - minimumRelativeValue: The value at offset −1 (a `Double`, `Point`, `Size`, `Rect`,
  ///     `AffineTransform`, `Transform3D` or `Color`).
  ///   - maximumRelativeValue: The value at offset +1, of the same type.
  public init<V: LayerValueConvertible>(
    keyPath: String, type: EffectType, minimumRelativeValue: V, maximumRelativeValue: V
  ) {
    self.init(keyPath: keyPath, type: type)
    self.minimumRelativeValue = minimumRelativeValue.layerValue
    self.maximumRelativeValue = maximumRelativeValue.layerValue
  }

  /// `interpolating`.
  public static var effectTypeName: String { "interpolating" }

  /// The boosted, clamped offset component that drives the effect (UIKit's
  /// `_UIMotionEffectAcceleratedOutputRange`).
  ///
  /// - Parameter viewerOffset: The viewer offset.
  /// - Returns: The component for ``type``, clamped to ±(1 + boost).
  public func drivingOffset(for viewerOffset: ViewerOffset) -> Double {
    let (value, boost) =
      switch type {
      case .tiltAlongHorizontalAxis:
        (viewerOffset.horizontal, horizontalAccelerationBoostFactor)
      case .tiltAlongVerticalAxis: (viewerOffset.vertical, verticalAccelerationBoostFactor)
      }
    let limit = 1 + max(0, boost.isFinite ? boost : 0)
    guard value.isFinite else { return 0 }
    return min(limit, max(-limit, value))
  }

  /// The interpolated value for the key path at `fraction = offset·0.5 + 0.5`.
  ///
  /// - Parameter viewerOffset: The viewer offset.
  /// - Returns: `[keyPath: value]`, or `nil` until the key path and both values are set (or
  ///   when they are of different kinds).
  public func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset)
    -> [String: LayerValue]?
  {
    guard !keyPath.isEmpty, let lo = minimumRelativeValue, let hi = maximumRelativeValue else {
      return nil
    }
    let fraction = drivingOffset(for: viewerOffset) * 0.5 + 0.5
    guard let value = lo.interpolated(to: hi, fraction: fraction) else { return nil }
    return [keyPath: value]
  }

  private enum CodingKeys: String, CodingKey {
    case keyPath, type, minimumRelativeValue, maximumRelativeValue
    case horizontalAccelerationBoostFactor, verticalAccelerationBoostFactor
  }

  /// Decodes an effect; relative values are plain numbers or `{"point": {"x": 1, "y": 2}}`-style
  /// objects (see ``RelativeValue``).
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` for missing or malformed fields.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    keyPath = try c.decode(String.self, forKey: .keyPath)
    type = try c.decode(EffectType.self, forKey: .type)
    minimumRelativeValue = try c.decodeIfPresent(RelativeValue.self, forKey: .minimumRelativeValue)?
      .value
    maximumRelativeValue = try c.decodeIfPresent(RelativeValue.self, forKey: .maximumRelativeValue)?
      .value
    horizontalAccelerationBoostFactor =
      try c.decodeIfPresent(Double.self, forKey: .horizontalAccelerationBoostFactor) ?? 0
    verticalAccelerationBoostFactor =
      try c.decodeIfPresent(Double.self, forKey: .verticalAccelerationBoostFactor) ?? 0
  }

  /// Encodes the effect (boost factors only when not zero).
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: Encoding errors.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(keyPath, forKey: .keyPath)
    try c.encode(type, forKey: .type)
    try c.encodeIfPresent(
      minimumRelativeValue.map(RelativeValue.init), forKey: .minimumRelativeValue)
    try c.encodeIfPresent(
      maximumRelativeValue.map(RelativeValue.init), forKey: .maximumRelativeValue)
    if horizontalAccelerationBoostFactor != 0 {
      try c.encode(horizontalAccelerationBoostFactor, forKey: .horizontalAccelerationBoostFactor)
    }
    if verticalAccelerationBoostFactor != 0 {
      try c.encode(verticalAccelerationBoostFactor, forKey: .verticalAccelerationBoostFactor)
    }
  }
}

/// A `LayerValue` in its scene-file form: a number as a plain JSON number, any other kind as a
/// one-key object naming the kind, e.g. `{"point": {"x": 10, "y": 0}}`,
/// `{"color": {"red": 1, "green": 0, "blue": 0, "alpha": 1}}`.
public struct RelativeValue: Hashable, Sendable, Codable {
  /// The value.
  public var value: LayerValue

  /// Wraps a value.
  ///
  /// - Parameter value: The value.
  public init(_ value: LayerValue) { self.value = value }

  private enum Kind: String, CodingKey {
    case number, point, size, rect, affineTransform, transform3D, color
  }

  /// Decodes a plain number or a one-key kind object.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` when the value is neither.
  public init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), let v = try? single.decode(Double.self) {
      value = .number(v)
      return
    }
    let c = try decoder.container(keyedBy: Kind.self)
    guard let kind = c.allKeys.first, c.allKeys.count == 1 else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription:
            "expected a number or one of number/point/size/rect/affineTransform/transform3D/color"))
    }
    switch kind {
    case .number: value = .number(try c.decode(Double.self, forKey: kind))
    case .point: value = .point(try c.decode(Point.self, forKey: kind))
    case .size: value = .size(try c.decode(Size.self, forKey: kind))
    case .rect: value = .rect(try c.decode(Rect.self, forKey: kind))
    case .affineTransform:
      value = .affineTransform(try c.decode(AffineTransform.self, forKey: kind))
    case .transform3D: value = .transform3D(try c.decode(Transform3D.self, forKey: kind))
    case .color: value = .color(try c.decode(Color.self, forKey: kind))
    }
  }

  /// Encodes a number plainly, other kinds as a one-key object.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: Encoding errors.
  public func encode(to encoder: any Encoder) throws {
    if case .number(let v) = value {
      var s = encoder.singleValueContainer()
      try s.encode(v)
      return
    }
    var c = encoder.container(keyedBy: Kind.self)
    switch value {
    case .number(let v): try c.encode(v, forKey: .number)
    case .point(let v): try c.encode(v, forKey: .point)
    case .size(let v): try c.encode(v, forKey: .size)
    case .rect(let v): try c.encode(v, forKey: .rect)
    case .affineTransform(let v): try c.encode(v, forKey: .affineTransform)
    case .transform3D(let v): try c.encode(v, forKey: .transform3D)
    case .color(let v): try c.encode(v, forKey: .color)
    }
  }
}
