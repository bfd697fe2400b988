import Foundation
import SwellWaves

/// The built-in scenes by name. Each module that defines a scene adds a line here.
public enum BuiltInScenes {
  /// The names of the built-in scenes.
  public static var names: [String] { factories.map(\.name) }

  /// Creates a built-in scene.
  ///
  /// - Parameters:
  ///   - name: The scene's name (`waterwave`, `homescreen`, `glass`).
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
    (
      "glass",
      { o in SceneFile.glass(width: o.width ?? 390, height: o.height ?? 844, scale: o.scale ?? 3) }
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
    (
      "glass",
      {
        FileScene(
          file: .glass(width: $0.width ?? 390, height: $0.height ?? 844, scale: $0.scale ?? 3),
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

/// A scene could not be loaded: an unknown name (a usage mistake) or a bad scene file.
public struct SceneLoadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// True for a name that is neither a built-in scene nor a file (a usage mistake).
  public var isUnknownName: Bool
  /// The one-line reason, naming the file and JSON path for a bad file.
  public var message: String

  /// The message.
  public var description: String { message }
}

extension BuiltInScenes {
  /// A built-in scene by name, or a scene file when the name ends in `.json` or names an existing
  /// file (`swell render`, `trace`, `live` take either).
  ///
  /// - Parameters:
  ///   - nameOrPath: `waterwave`, `homescreen`, or a path.
  ///   - options: Canvas overrides and motion options.
  /// - Returns: The scene.
  /// - Throws: ``SceneLoadError``: an unknown name (listing the built-in ones) or a bad file.
  public static func load(_ nameOrPath: String, options: SceneOptions = SceneOptions())
    throws(SceneLoadError) -> any Scene
  {
    if let scene = make(nameOrPath, options: options) { return scene }
    let isFile =
      nameOrPath.lowercased().hasSuffix(".json")
      || FileManager.default.fileExists(atPath: nameOrPath)
    guard isFile else {
      throw SceneLoadError(
        isUnknownName: true,
        message:
          "unknown scene '\(nameOrPath)' (built-in: \(names.joined(separator: ", ")); "
          + "or a scene file ending in .json)")
    }
    do {
      return try FileScene(contentsOf: URL(fileURLWithPath: nameOrPath), options: options)
    } catch let e as SceneFileError {
      throw SceneLoadError(isUnknownName: false, message: e.message)
    } catch {
      throw SceneLoadError(isUnknownName: false, message: "\(nameOrPath): \(error)")
    }
  }
}

extension SceneOptions {
  /// Sets the canvas from `WxH[@S]`: points and pixels per point, as `--size 390x844@3`.
  ///
  /// - Parameters:
  ///   - spec: The text.
  ///   - maximumPixels: The longest side allowed, pixels.
  /// - Throws: ``SceneLoadError`` (a usage mistake) naming the bad part.
  public mutating func setSize(_ spec: String, maximumPixels: Int) throws(SceneLoadError) {
    func fail(_ message: String) -> SceneLoadError {
      SceneLoadError(isUnknownName: true, message: message)
    }
    var text = Substring(spec)
    var pixelScale: Double?
    if let at = text.firstIndex(of: "@") {
      let s = text[text.index(after: at)...].trimmingCharacters(in: .whitespaces)
      let digits = s.hasSuffix("x") ? String(s.dropLast()) : s
      guard let v = Double(digits), v.isFinite, v > 0, v <= 8 else {
        throw fail("--size: scale '\(s)' must be a number in (0, 8], as in 390x844@3")
      }
      pixelScale = v
      text = text[..<at]
    }
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
      throw fail("--size must be WIDTHxHEIGHT[@SCALE] in points, as in 390x844@3, got '\(spec)'")
    }
    guard w.isFinite, h.isFinite, w > 0, h > 0, w <= 16384, h <= 16384 else {
      throw fail("--size: \(spec) must have a width and height in (0, 16384] points")
    }
    let pixels = max(w, h) * (pixelScale ?? 1)
    guard pixels <= Double(maximumPixels) else {
      throw fail("--size: \(spec) is \(Int(pixels)) pixels a side, more than \(maximumPixels)")
    }
    width = w
    height = h
    scale = pixelScale ?? scale
  }
}
