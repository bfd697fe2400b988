import Foundation
import SwellLayers
import Synchronization

/// A type-erased motion effect that encodes and decodes with a type tag, for scene files and
/// any `Codable` model that holds effects of several types.
///
/// The JSON form is the effect's own fields plus `"effect": TYPE` (the type's
/// ``MotionEffect/effectTypeName``):
///
/// ```json
/// {"effect": "interpolating", "keyPath": "center.x", "type": "tiltAlongHorizontalAxis",
///  "minimumRelativeValue": -40, "maximumRelativeValue": 40}
/// ```
///
/// Decoding looks the tag up among the built-in effects and those added with
/// ``register(_:)``; an unknown tag is a decoding error naming it.
public struct AnyMotionEffect: MotionEffect {
  /// The wrapped effect (never itself an `AnyMotionEffect`).
  public let base: any MotionEffect

  /// Wraps an effect (unwrapping one that is already wrapped).
  ///
  /// - Parameter effect: The effect.
  public init(_ effect: any MotionEffect) {
    if let e = effect as? AnyMotionEffect {
      base = e.base
    } else {
      base = effect
    }
  }

  /// The wrapped effect's values.
  ///
  /// - Parameter viewerOffset: The viewer offset, −1...1.
  /// - Returns: The wrapped effect's key paths and relative values.
  public func keyPathsAndRelativeValues(forViewerOffset viewerOffset: ViewerOffset)
    -> [String: LayerValue]?
  {
    base.keyPathsAndRelativeValues(forViewerOffset: viewerOffset)
  }

  /// Equal when the wrapped effects have the same type and are equal.
  ///
  /// - Parameters:
  ///   - lhs: An effect.
  ///   - rhs: Another effect.
  /// - Returns: Whether they are equal.
  public static func == (lhs: AnyMotionEffect, rhs: AnyMotionEffect) -> Bool {
    lhs.base.isEqual(to: rhs.base)
  }

  /// Hashes the wrapped effect.
  ///
  /// - Parameter hasher: The hasher.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(type(of: base).effectTypeName)
    hasher.combine(AnyHashable(base))
  }

  private enum TagKey: String, CodingKey {
    case effect
  }

  /// Encodes the wrapped effect's fields plus its `"effect"` type tag.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: The wrapped effect's encoding errors.
  public func encode(to encoder: any Encoder) throws {
    try base.encode(to: encoder)
    var c = encoder.container(keyedBy: TagKey.self)
    try c.encode(type(of: base).effectTypeName, forKey: .effect)
  }

  /// Decodes an effect by its `"effect"` type tag.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` for a missing or unknown tag, and the effect's own
  ///   decoding errors.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: TagKey.self)
    let tag = try c.decode(String.self, forKey: .effect)
    guard let make = AnyMotionEffect.decoders.withLock({ $0[tag] }) else {
      let known = AnyMotionEffect.registeredTypeNames.joined(separator: ", ")
      throw DecodingError.dataCorruptedError(
        forKey: .effect, in: c,
        debugDescription: "unknown motion effect type '\(tag)' (known: \(known))")
    }
    base = try make(decoder)
  }

  /// Makes a custom effect type decodable from scene files under its
  /// ``MotionEffect/effectTypeName`` (registering a name again replaces it).
  ///
  /// - Parameter type: The effect type.
  public static func register<E: MotionEffect>(_ type: E.Type) {
    decoders.withLock { $0[E.effectTypeName] = { try E(from: $0) } }
  }

  /// The type tags that decode, sorted.
  public static var registeredTypeNames: [String] {
    decoders.withLock { $0.keys.sorted() }
  }

  private static let decoders = Mutex<[String: @Sendable (any Decoder) throws -> any MotionEffect]>(
    [
      InterpolatingMotionEffect.effectTypeName: { try InterpolatingMotionEffect(from: $0) },
      MotionEffectGroup.effectTypeName: { try MotionEffectGroup(from: $0) },
      ParallaxEffect.effectTypeName: { try ParallaxEffect(from: $0) },
      TiltCardEffect.effectTypeName: { try TiltCardEffect(from: $0) },
      TiltGlareEffect.effectTypeName: { try TiltGlareEffect(from: $0) },
    ])
}
