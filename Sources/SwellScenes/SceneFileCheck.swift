import Foundation
import SwellEffects

/// A scene file read and checked (`swell scene check`): the scene, the keys it has that the
/// format does not know, and a one-line description.
public struct SceneFileCheck {
  /// The scene the file describes.
  public let scene: FileScene
  /// The file's keys the format does not know (JSON paths, in the file's order).
  public let unknownKeys: [String]
  /// Motion effects that do nothing because they are unfinished (an interpolating effect
  /// without its minimum or maximum), each as `JSON path: reason`, in the file's order.
  public let effectWarnings: [String]

  /// Reads and checks a scene file: the scene must load, and every motion effect must work on
  /// its layer (``effectProblems(in:)``).
  ///
  /// - Parameter url: The scene file.
  /// - Throws: ``SceneFileError`` for a file that is not a valid scene, or whose first motion
  ///   effect with an unknown key path or a value of the wrong kind is named by its JSON path
  ///   (`layers[1].motionEffects[0].keyPath`).
  public init(contentsOf url: URL) throws {
    // The check reports the effects' problems itself, as errors with their JSON paths.
    let silent: @Sendable (MotionEffectProblem) -> Void = { _ in }
    let scene = try MotionEffectDiagnostics.withReporter(silent) {
      try FileScene(contentsOf: url)
    }
    self.init(scene: scene, contentsOf: url)
    if let first = Self.effectProblems(in: scene).first(where: \.problem.reason.isError) {
      throw SceneFileError("\(url.path): \(first.text)")
    }
  }

  /// Checks a scene already read from a file for keys the format does not know.
  ///
  /// - Parameters:
  ///   - scene: The scene read from `url`.
  ///   - url: Its file (read again for its keys; an unreadable file has none).
  public init(scene: FileScene, contentsOf url: URL) {
    self.init(file: scene, contentsOf: url)
  }

  /// Checks a loaded scene when it was read from a file (`BuiltInScenes.load` of a path), for
  /// keys the format does not know; `nil` for a built-in scene or any scene not made from a
  /// scene file.
  ///
  /// - Parameters:
  ///   - scene: The scene, as loaded.
  ///   - url: The file it was read from.
  public init?(loaded scene: any Scene, contentsOf url: URL) {
    guard let file = scene as? FileScene else { return nil }
    self.init(file: file, contentsOf: url)
  }

  private init(file scene: FileScene, contentsOf url: URL) {
    self.scene = scene
    let data = (try? Data(contentsOf: url)) ?? Data()
    unknownKeys = SceneFile.unknownKeys(in: data, decoded: scene.file)
    effectWarnings = Self.effectProblems(in: scene).filter { !$0.problem.reason.isError }.map(
      \.text)
  }

  /// A motion effect's problem in a scene file, with the JSON path of the field at fault.
  public struct EffectProblem: Hashable, Sendable {
    /// The JSON path: `layers[1].motionEffects[0].keyPath`.
    public var path: String
    /// The problem.
    public var problem: MotionEffectProblem

    /// `PATH: REASON (on layer NAME)`, without the file's name.
    public var text: String { "\(path): \(problem.reason) (on layer \(problem.layer))" }
  }

  /// The problems of every motion effect in a scene against the layer it is attached to
  /// (`Layer.motionEffectProblems(_:)`), in the file's order.
  ///
  /// - Parameter scene: The scene.
  /// - Returns: The problems, each with its JSON path.
  public static func effectProblems(in scene: FileScene) -> [EffectProblem] {
    // Layers with effects are collected children first (`SceneFile.makeLayerTree`).
    var specs: [(LayerSpec, String)] = []
    func walk(_ list: [LayerSpec], _ prefix: String) {
      for (i, s) in list.enumerated() {
        let p = "\(prefix)[\(i)]"
        walk(s.sublayers ?? [], "\(p).sublayers")
        if let e = s.motionEffects, !e.isEmpty { specs.append((s, p)) }
      }
    }
    walk(scene.file.layers, "layers")
    var out: [EffectProblem] = []
    for ((spec, path), layer) in zip(specs, scene.effectLayers) {
      for (j, effect) in (spec.motionEffects ?? []).enumerated() {
        let effectPath = "\(path).motionEffects[\(j)]"
        for p in layer.motionEffectProblems(effect) {
          out.append(EffectProblem(path: effectPath + field(p.reason, effect), problem: p))
        }
      }
    }
    return out
  }

  /// The field of an effect a problem is about (`.keyPath`, `.maximumRelativeValue`), or none.
  private static func field(_ reason: MotionEffectProblem.Reason, _ effect: AnyMotionEffect)
    -> String
  {
    guard effect.base is InterpolatingMotionEffect else { return "" }
    switch reason {
    case .keyPath(.unknownKeyPath), .keyPath(.readOnly): return ".keyPath"
    case .keyPath(.kindMismatch): return ".minimumRelativeValue"
    case .mixedKinds: return ".maximumRelativeValue"
    case .incomplete: return ""
    }
  }

  /// The unknown keys as one line (up to five named), `nil` when there are none.
  ///
  /// - Parameter name: How the line names the file (the path as given).
  /// - Returns: `NAME: 2 unknown keys: a, b.c`, without a line break.
  public func unknownKeysText(name: String) -> String? {
    guard !unknownKeys.isEmpty else { return nil }
    let list =
      unknownKeys.prefix(5).joined(separator: ", ") + (unknownKeys.count > 5 ? ", ..." : "")
    return "\(name): \(unknownKeys.count) unknown key\(unknownKeys.count == 1 ? "" : "s"): \(list)"
  }

  /// The scene in one line: its name, size in points, scale, and how many layers, water layers
  /// and layers with motion effects it has.
  ///
  /// - Parameter name: How the line names the file (the path as given).
  /// - Returns: The line, without a line break.
  public func summary(name: String) -> String {
    let layers = scene.root.allLayers.count - 1
    return "\(name): scene '\(scene.name)', \(Int(scene.size.width))x\(Int(scene.size.height)) "
      + "points @\(scene.scale)x, \(layers) layer\(layers == 1 ? "" : "s"), "
      + "\(scene.waterLayers.count + scene.waterBodyLayers.count) water, "
      + "\(scene.effectLayers.count) with motion effects"
  }
}
