import Foundation
import SwellLayers
import Synchronization

/// A motion effect that cannot work on the layer it is attached to, or by itself: an unknown key
/// path, a value of the wrong kind, minimum and maximum of different kinds. UIKit raises for an
/// unknown key path; Swell reports the problem once, the first time the effect is applied to the
/// layer (``MotionEffectDiagnostics``), and leaves the key path unchanged.
public struct MotionEffectProblem: Hashable, Sendable, CustomStringConvertible {
  /// What is wrong.
  public enum Reason: Hashable, Sendable, CustomStringConvertible {
    /// The layer cannot take the effect's value at a key path (unknown, wrong kind, read-only).
    case keyPath(LayerKeyPathProblem)
    /// An interpolating effect's minimum and maximum are of different kinds, so it returns
    /// nothing.
    case mixedKinds(keyPath: String, minimum: LayerValueKind, maximum: LayerValueKind)
    /// An interpolating effect lacks its minimum or maximum value (or both), so it returns
    /// nothing; `missing` names them (`minimumRelativeValue`).
    case incomplete(keyPath: String, missing: [String])

    /// The reason in words.
    public var description: String {
      switch self {
      case .keyPath(let p): p.description
      case .mixedKinds(let path, let lo, let hi):
        "minimum and maximum of '\(path)' are of different kinds (\(lo.rawValue) and "
          + "\(hi.rawValue))"
      case .incomplete(let path, let missing):
        "'\(path)' has no \(missing.joined(separator: " and ")), so the effect does nothing"
      }
    }

    /// True for a mistake that makes the effect do nothing at a key path it names; false for
    /// an effect left unfinished (``incomplete(keyPath:missing:)``), which UIKit also allows.
    public var isError: Bool {
      if case .incomplete = self { return false }
      return true
    }
  }

  /// The effect, described: `interpolating effect on 'center.x'`.
  public var effect: String
  /// The layer, described: its name, or its class when it has none.
  public var layer: String
  /// What is wrong.
  public var reason: Reason

  /// Creates a problem.
  ///
  /// - Parameters:
  ///   - effect: The effect's description.
  ///   - layer: The layer's description.
  ///   - reason: What is wrong.
  public init(effect: String, layer: String, reason: Reason) {
    self.effect = effect
    self.layer = layer
    self.reason = reason
  }

  /// One line: `motion effect interpolating effect on 'postion.x' of layer 'card': unknown
  /// key path 'postion.x' (did you mean 'position.x'?)`.
  public var description: String { "\(effect) of layer \(layer): \(reason)" }
}

/// Where problems with motion effects are reported (``MotionEffectProblem``).
///
/// The reporter is the process's (``setReporter(_:)``; by default a `warning:` line on standard
/// error), unless the calling thread runs inside ``withReporter(_:_:)``, which overrides it for
/// that thread while its body runs (to collect or silence the problems of synchronous work, such
/// as reading a scene file). A thread-local override rather than a task-local value, so that it
/// also works outside Swift concurrency and in statically linked binaries.
public enum MotionEffectDiagnostics {
  private static let processReporter = Mutex<@Sendable (MotionEffectProblem) -> Void>(
    standardErrorReporter)
  private static let threadKey = "SwellMotionEffectDiagnostics.reporter"

  /// Holds a reporter in a thread's dictionary.
  private final class Box: @unchecked Sendable {
    let report: @Sendable (MotionEffectProblem) -> Void
    init(_ report: @escaping @Sendable (MotionEffectProblem) -> Void) { self.report = report }
  }

  /// The reporter in effect on the calling thread.
  public static var reporter: @Sendable (MotionEffectProblem) -> Void {
    if let box = Thread.current.threadDictionary[threadKey] as? Box { return box.report }
    return processReporter.withLock { $0 }
  }

  /// Sets the process's reporter (a command-line tool says the problems in its own words).
  ///
  /// - Parameter report: Called once per problem, on the thread that applied the effect.
  public static func setReporter(_ report: @escaping @Sendable (MotionEffectProblem) -> Void) {
    processReporter.withLock { $0 = report }
  }

  /// Runs `body` with problems reported on this thread to `report` instead.
  ///
  /// - Parameters:
  ///   - report: The reporter while `body` runs (on this thread only).
  ///   - body: Synchronous work.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public static func withReporter<T>(
    _ report: @escaping @Sendable (MotionEffectProblem) -> Void, _ body: () throws -> T
  ) rethrows -> T {
    let dictionary = Thread.current.threadDictionary
    let earlier = dictionary[threadKey]
    dictionary[threadKey] = Box(report)
    defer { dictionary[threadKey] = earlier }
    return try body()
  }

  /// Writes `warning: PROBLEM` and a line break to standard error.
  public static let standardErrorReporter: @Sendable (MotionEffectProblem) -> Void = { problem in
    FileHandle.standardError.write(Data("warning: \(problem)\n".utf8))
  }

  /// A description of an effect for messages: `interpolating effect on 'center.x'`, `group
  /// effect`, `parallax effect`.
  ///
  /// - Parameter effect: The effect.
  /// - Returns: The description.
  public static func describe(_ effect: any MotionEffect) -> String {
    let base = (effect as? AnyMotionEffect)?.base ?? effect
    if let i = base as? InterpolatingMotionEffect {
      return "interpolating effect on '\(i.keyPath)'"
    }
    return "\(type(of: base).effectTypeName) effect"
  }

  /// A description of a layer for messages: `'card'`, or `(unnamed ShapeLayer)`.
  ///
  /// - Parameter layer: The layer.
  /// - Returns: The description.
  public static func describe(_ layer: Layer) -> String {
    layer.name.map { "'\($0)'" } ?? "(unnamed \(type(of: layer)))"
  }

  /// The offsets an effect is evaluated at to find the key paths and values it returns: the
  /// neutral pose and the four corners of the −1...1 square.
  static let probeOffsets = [
    ViewerOffset.zero, ViewerOffset(horizontal: 1, vertical: 1),
    ViewerOffset(horizontal: -1, vertical: -1), ViewerOffset(horizontal: 1, vertical: -1),
    ViewerOffset(horizontal: -1, vertical: 1),
  ]
}

extension MotionEffect {
  /// Problems the effect has by itself, whatever layer it is on: an interpolating effect's
  /// minimum and maximum of different kinds, or missing. Groups report their children's.
  ///
  /// - Returns: The reasons (empty for a well-formed effect).
  public func configurationProblems() -> [MotionEffectProblem.Reason] {
    let base = (self as? AnyMotionEffect)?.base ?? self
    if let i = base as? InterpolatingMotionEffect {
      switch (i.minimumRelativeValue, i.maximumRelativeValue) {
      case (let lo?, let hi?):
        let kinds = (lo.kind, hi.kind)
        let mixable =
          kinds.0 == kinds.1
          || Set([kinds.0, kinds.1]) == Set([LayerValueKind.affineTransform, .transform3D])
        return mixable ? [] : [.mixedKinds(keyPath: i.keyPath, minimum: kinds.0, maximum: kinds.1)]
      case (let lo, let hi):
        let missing = [
          lo == nil ? "minimumRelativeValue" : nil, hi == nil ? "maximumRelativeValue" : nil,
        ]
        return [.incomplete(keyPath: i.keyPath, missing: missing.compactMap { $0 })]
      }
    }
    if let g = base as? MotionEffectGroup {
      return g.motionEffects.flatMap { $0.configurationProblems() }
    }
    return []
  }
}

extension Layer {
  /// Everything that keeps a motion effect from working on this layer: the effect's own
  /// problems (``MotionEffect/configurationProblems()``) and, for every key path it returns at
  /// the neutral pose and the corners of the offset square, whether this layer has the key path
  /// and can add the value's kind to it (`Layer.keyPathProblem(_:value:)`).
  ///
  /// - Parameter effect: The effect (it need not be attached).
  /// - Returns: The problems, each once, naming the effect and this layer.
  public func motionEffectProblems(_ effect: some MotionEffect) -> [MotionEffectProblem] {
    let values = MotionEffectDiagnostics.probeOffsets.compactMap {
      effect.keyPathsAndRelativeValues(forViewerOffset: $0)
    }
    return motionEffectProblems(effect, values: values)
  }

  /// The problems of an effect with the values it returned (at one pose or several).
  ///
  /// - Parameters:
  ///   - effect: The effect.
  ///   - valueSets: What it returned.
  /// - Returns: The problems, each once, naming the effect and this layer.
  func motionEffectProblems(_ effect: some MotionEffect, values valueSets: [[String: LayerValue]])
    -> [MotionEffectProblem]
  {
    var reasons = effect.configurationProblems()
    var seen: Set<String> = []
    for values in valueSets {
      for (path, value) in values.sorted(by: { $0.key < $1.key }) where !seen.contains(path) {
        seen.insert(path)
        if let p = keyPathProblem(path, value: value) { reasons.append(.keyPath(p)) }
      }
    }
    let effectText = MotionEffectDiagnostics.describe(effect)
    let layerText = MotionEffectDiagnostics.describe(self)
    var out: [MotionEffectProblem] = []
    for r in reasons {
      let p = MotionEffectProblem(effect: effectText, layer: layerText, reason: r)
      if !out.contains(p) { out.append(p) }
    }
    return out
  }
}
