import SwellWaves

/// The built-in scenes by name. Each module that defines a scene adds a line here.
public enum BuiltInScenes {
  /// The names of the built-in scenes.
  public static var names: [String] { factories.map(\.name) }

  /// Creates a built-in scene.
  ///
  /// - Parameters:
  ///   - name: The scene's name (`waterwave`, `homescreen`).
  ///   - options: Options that apply to it (e.g. the seed-exact motion response).
  /// - Returns: A fresh scene, or `nil` for an unknown name.
  public static func make(_ name: String, options: SceneOptions = SceneOptions()) -> (any Scene)? {
    factories.first { $0.name == name }?.make(options)
  }

  private static let factories: [(name: String, make: @Sendable (SceneOptions) -> any Scene)] = [
    ("waterwave", { WaterWaveScene(options: $0) }),
    ("homescreen", { HomeScreenScene(options: $0) }),
  ]
}

/// Options for building a scene.
public struct SceneOptions: Sendable, Hashable {
  /// Use the seed's literal WaterWave motion rule instead of the corrected one.
  public var seedExact = false
  /// The canvas size override, points (`nil` keeps the scene's own).
  public var width: Double?
  /// The canvas height override, points.
  public var height: Double?
  /// The pixels-per-point override.
  public var scale: Double?
  /// Pins the viewer offset to zero (Reduce Motion); stops the water's phase, tilt and
  /// amplitude response.
  public var reduceMotion = false
  /// The water's motion response model (classic seed-style tilt, or sloshing).
  public var waterResponse: WaterWaveResponse = .classic

  /// Creates default options.
  public init() {}
}
