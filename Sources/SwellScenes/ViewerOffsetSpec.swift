import Foundation
import SwellEffects

/// The viewer-offset engine's constants in a scene file: any subset of the fields of
/// `SwellEffects/ViewerOffsetEngine/Configuration` (`idiom`, `referenceShiftSpeed`,
/// `deadBand`, `reduceMotion`, ...); fields left out keep the system's values. An unknown field
/// is an error naming it.
///
/// ```json
/// "viewerOffset": {"idiom": "pad", "inputSmoothingFactor": 0.5}
/// ```
public struct ViewerOffsetSpec: Codable, Sendable, Hashable {
  /// The full configuration.
  public var configuration: ViewerOffsetEngine.Configuration

  /// Wraps a configuration.
  ///
  /// - Parameter configuration: The engine's constants.
  public init(_ configuration: ViewerOffsetEngine.Configuration = .init()) {
    self.configuration = configuration
  }

  private enum Scalar: Codable, Equatable {
    case bool(Bool)
    case number(Double)
    case string(String)

    init(from decoder: any Decoder) throws {
      let c = try decoder.singleValueContainer()
      if let b = try? c.decode(Bool.self) {
        self = .bool(b)
      } else if let d = try? c.decode(Double.self) {
        self = .number(d)
      } else if let s = try? c.decode(String.self) {
        self = .string(s)
      } else {
        throw DecodingError.dataCorruptedError(
          in: c, debugDescription: "must be a number, true or false, or a string")
      }
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.singleValueContainer()
      switch self {
      case .bool(let b): try c.encode(b)
      case .number(let d): try c.encode(d)
      case .string(let s): try c.encode(s)
      }
    }
  }

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  private static func defaults() throws -> [String: Scalar] {
    let data = try JSONEncoder().encode(ViewerOffsetEngine.Configuration())
    return try JSONDecoder().decode([String: Scalar].self, from: data)
  }

  /// Decodes the fields given over the system's defaults.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming an unknown or mistyped field.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Key.self)
    var merged = try Self.defaults()
    for key in c.allKeys {
      let value = try c.decode(Scalar.self, forKey: key)
      guard let old = merged[key.stringValue] else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: c,
          debugDescription:
            "unknown viewer-offset setting (known: \(merged.keys.sorted().joined(separator: ", ")))"
        )
      }
      switch (old, value) {
      case (.bool, .bool), (.number, .number), (.string, .string): merged[key.stringValue] = value
      default:
        let expected =
          switch old {
          case .bool: "true or false"
          case .number: "a number"
          case .string: "a string"
          }
        throw DecodingError.dataCorruptedError(
          forKey: key, in: c, debugDescription: "must be \(expected)")
      }
      if case .number(let d) = value, !d.isFinite {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: c, debugDescription: "must be finite")
      }
      // Every numeric setting is a threshold, a rate, a time or a factor: none is negative.
      if case .number(let d) = value, d < 0 {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: c, debugDescription: "must be 0 or more")
      }
    }
    do {
      configuration = try JSONDecoder().decode(
        ViewerOffsetEngine.Configuration.self, from: try JSONEncoder().encode(merged))
    } catch DecodingError.dataCorrupted(let ctx) {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: c.codingPath + ctx.codingPath,
          debugDescription: SceneFile.plainReason(ctx.debugDescription)))
    } catch {
      throw DecodingError.dataCorrupted(
        .init(codingPath: c.codingPath, debugDescription: "not a valid configuration (\(error))"))
    }
  }

  /// Encodes only the fields that differ from the system's defaults.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: Encoding errors.
  public func encode(to encoder: any Encoder) throws {
    let base = try Self.defaults()
    let mine = try JSONDecoder().decode(
      [String: Scalar].self, from: try JSONEncoder().encode(configuration))
    var c = encoder.container(keyedBy: Key.self)
    for (k, v) in mine.sorted(by: { $0.key < $1.key }) where base[k] != v {
      try c.encode(v, forKey: Key(stringValue: k))
    }
  }
}
