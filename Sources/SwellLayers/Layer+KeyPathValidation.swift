import SwellGeometry

/// The kind of a ``LayerValue``, without its payload: what a key path holds.
public enum LayerValueKind: String, Hashable, Sendable, CaseIterable {
  /// A scalar (`position.x`, `opacity`).
  case number
  /// A point, points (`position`, `anchorPoint`).
  case point
  /// A size, points (`bounds.size`).
  case size
  /// A rectangle, points (`bounds`).
  case rect
  /// A 2D affine transform.
  case affineTransform
  /// A 4×4 transform (`transform`).
  case transform3D
  /// A colour (`backgroundColor`).
  case color
}

extension LayerValue {
  /// The value's kind.
  public var kind: LayerValueKind {
    switch self {
    case .number: .number
    case .point: .point
    case .size: .size
    case .rect: .rect
    case .affineTransform: .affineTransform
    case .transform3D: .transform3D
    case .color: .color
    }
  }
}

/// Why a value cannot be added to a layer's key path (``Layer/keyPathProblem(_:value:)``).
public enum LayerKeyPathProblem: Hashable, Sendable, CustomStringConvertible {
  /// The layer has no such key path; `suggestion` is the nearest one it has, when one is close
  /// (at most two edits away, UIKit spellings included).
  case unknownKeyPath(String, suggestion: String?)
  /// The key path holds another kind of value than the one given.
  case kindMismatch(keyPath: String, expected: LayerValueKind, found: LayerValueKind)
  /// The key path can be read but not set (a value computed from others, like `phase`).
  case readOnly(String)

  /// The problem in words, without the layer's name: `unknown key path 'postion.x' (did you
  /// mean 'position.x'?)`.
  public var description: String {
    switch self {
    case .unknownKeyPath(let path, let suggestion):
      "unknown key path '\(path)'" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
    case .kindMismatch(let path, let expected, let found):
      "key path '\(path)' holds a \(expected.rawValue), not a \(found.rawValue)"
    case .readOnly(let path): "key path '\(path)' cannot be set"
    }
  }
}

extension Layer {
  /// The key paths of the base layer that can be set and animated, Core Animation spelling,
  /// with the kind each holds (`transform` also takes an affine transform).
  public static let baseKeyPaths: [String: LayerValueKind] = [
    "position": .point, "position.x": .number, "position.y": .number, "bounds": .rect,
    "bounds.origin": .point, "bounds.origin.x": .number, "bounds.origin.y": .number,
    "bounds.size": .size, "bounds.size.width": .number, "bounds.size.height": .number,
    "anchorPoint": .point, "anchorPoint.x": .number, "anchorPoint.y": .number,
    "transform": .transform3D, "transform.rotation.x": .number, "transform.rotation.y": .number,
    "transform.rotation.z": .number, "transform.scale.x": .number, "transform.scale.y": .number,
    "transform.scale.z": .number, "transform.scale.xy": .number,
    "transform.translation.x": .number, "transform.translation.y": .number,
    "transform.translation.z": .number, "opacity": .number, "backgroundColor": .color,
    "cornerRadius": .number, "borderWidth": .number, "borderColor": .color, "zPosition": .number,
  ]

  /// UIKit spellings accepted beside the Core Animation ones (``LayerKeyPath/canonical(_:)``).
  public static let keyPathAliases = [
    "center", "center.x", "center.y", "alpha", "transform.rotation", "transform.scale",
    "frame.size", "frame.size.width", "frame.size.height",
  ]

  /// The kind of value a key path of this layer holds.
  ///
  /// - Parameter keyPath: The key path (Core Animation or UIKit spelling).
  /// - Returns: The kind, or `nil` when the layer has no such key path.
  public func valueKind(forKeyPath keyPath: String) -> LayerValueKind? {
    value(forKeyPath: keyPath)?.kind
  }

  /// Whether a value can be added to a key path of this layer (as motion effects and additive
  /// animations do), and why not.
  ///
  /// The key path must exist, the value's kind must add to the key path's (an affine transform
  /// adds to `transform`), and the sum must be settable.
  ///
  /// - Parameters:
  ///   - keyPath: The key path (Core Animation or UIKit spelling).
  ///   - value: The relative value to add.
  /// - Returns: The problem, or `nil` when the value applies.
  public func keyPathProblem(_ keyPath: String, value: LayerValue) -> LayerKeyPathProblem? {
    guard let current = self.value(forKeyPath: keyPath) else {
      return .unknownKeyPath(keyPath, suggestion: suggestedKeyPath(for: keyPath))
    }
    guard let sum = current.adding(value) else {
      return .kindMismatch(keyPath: keyPath, expected: current.kind, found: value.kind)
    }
    guard copyLayer().setValue(sum, forKeyPath: keyPath) else { return .readOnly(keyPath) }
    return nil
  }

  /// The supported key path (or UIKit spelling) nearest to a misspelt one, when it is at most
  /// two edits away.
  ///
  /// - Parameter keyPath: The key path as written.
  /// - Returns: The suggestion, or `nil` when none is close.
  public func suggestedKeyPath(for keyPath: String) -> String? {
    let written = keyPath.hasPrefix("layer.") ? String(keyPath.dropFirst(6)) : keyPath
    var best: (String, Int)?
    for candidate in supportedKeyPaths.keys.sorted() + Layer.keyPathAliases {
      let d = editDistance(written, candidate)
      if d <= 2, d < written.count / 2, best.map({ d < $0.1 }) ?? true { best = (candidate, d) }
    }
    return best?.0
  }
}

/// The Levenshtein distance between two strings, in characters.
func editDistance(_ a: String, _ b: String) -> Int {
  let x = Array(a)
  let y = Array(b)
  guard !x.isEmpty else { return y.count }
  guard !y.isEmpty else { return x.count }
  var previous = Array(0...y.count)
  var current = previous
  for i in 1...x.count {
    current[0] = i
    for j in 1...y.count {
      let cost = x[i - 1] == y[j - 1] ? 0 : 1
      current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
    }
    swap(&previous, &current)
  }
  return previous[y.count]
}
