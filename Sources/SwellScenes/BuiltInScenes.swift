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

  /// The scene file of a built-in scene, for the scenes defined as one (`waterwave`,
  /// `homescreen`), laid out for a canvas: `FileScene(file:options:)` of it with the same
  /// options is what ``make(_:options:)`` returns.
  ///
  /// - Parameters:
  ///   - name: The scene's name.
  ///   - options: Only the canvas fields (`width`, `height`, `scale`) apply: `homescreen` lays
  ///     out its grid, dock and star field for that canvas, `waterwave` covers it.
  /// - Returns: The description, or `nil` for an unknown name or a scene built in code.
  public static func file(_ name: String, options: SceneOptions = SceneOptions()) -> SceneFile? {
    files.first { $0.name == name }?.file(options)
  }

  /// The names of the built-in scenes that are defined as scene files.
  public static var fileNames: [String] { files.map(\.name) }

  private static let files: [(name: String, file: @Sendable (SceneOptions) -> SceneFile)] = [
    (
      "waterwave",
      { o in
        var canvas = SceneOptions()
        (canvas.width, canvas.height, canvas.scale) = (o.width, o.height, o.scale)
        return SceneFile.waterwave.applying(canvas)
      }
    ),
    (
      "homescreen",
      { o in
        SceneFile.homescreen(width: o.width ?? 390, height: o.height ?? 844, scale: o.scale ?? 3)
      }
    ),
  ]

  private static let factories: [(name: String, make: @Sendable (SceneOptions) -> any Scene)] = [
    ("waterwave", { FileScene(file: .waterwave, options: $0) }),
    (
      "homescreen",
      {
        FileScene(
          file: .homescreen(width: $0.width ?? 390, height: $0.height ?? 844, scale: $0.scale ?? 3),
          options: $0)
      }
    ),
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
  /// The water's motion response model (classic seed-style tilt, or sloshing); `nil` keeps the
  /// scene's own (classic for `waterwave`).
  public var waterResponse: WaterWaveResponse?

  /// Creates default options.
  public init() {}
}
