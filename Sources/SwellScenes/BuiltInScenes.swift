import Foundation
import SwellEffects
import SwellMotion
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
  ///   - options: Only the canvas fields (`width`, `height`, `scale`, `orientation`) apply:
  ///     `homescreen` lays out its grid, dock and star field for that canvas, `waterwave` covers
  ///     it.
  /// - Returns: The description, or `nil` for an unknown name or a scene built in code.
  public static func file(_ name: String, options: SceneOptions = SceneOptions()) -> SceneFile? {
    files.first { $0.name == name }?.file(options)
  }

  /// A built-in scene written as a scene file (JSON ending in a line break), laid out for the
  /// options' canvas: a starting point for one's own scenes.
  ///
  /// - Parameters:
  ///   - name: A name of ``fileNames``.
  ///   - options: The canvas (size, scale, orientation).
  /// - Returns: The file's bytes.
  /// - Throws: ``SceneLoadError`` (`isUnknownName`) for a name with no scene file.
  public static func fileData(_ name: String, options: SceneOptions = SceneOptions()) throws
    -> Data
  {
    guard let file = file(name, options: options) else {
      throw SceneLoadError(
        isUnknownName: true,
        message: "unknown scene '\(UntrustedText.clipped(name))' (with a scene file: "
          + fileNames.joined(separator: ", ") + ")")
    }
    var data = try file.encoded()
    data.append(UInt8(ascii: "\n"))
    return data
  }

  /// The names of the built-in scenes that are defined as scene files.
  public static var fileNames: [String] { files.map(\.name) }

  private static let files: [(name: String, file: @Sendable (SceneOptions) -> SceneFile)] = [
    (
      "waterwave",
      { o in
        var canvas = SceneOptions()
        (canvas.width, canvas.height, canvas.scale) = (o.width, o.height, o.scale)
        canvas.orientation = o.orientation
        return SceneFile.waterwave.applying(canvas)
      }
    ),
    ("homescreen", { homescreenFile($0) }),
    ("glass", { glassFile($0) }),
  ]

  /// The `glass` file for the options' canvas (the device's portrait canvas) and orientation:
  /// in landscape the glass and table are drawn for `height × width`, the interface's canvas.
  static func glassFile(_ o: SceneOptions) -> SceneFile {
    let (width, height, scale) = (o.width ?? 390, o.height ?? 844, o.scale ?? 3)
    let orientation = o.orientation ?? .portrait
    var file =
      orientation.isLandscape
      ? SceneFile.glass(width: height, height: width, scale: scale)
      : SceneFile.glass(width: width, height: height, scale: scale)
    (file.canvas.width, file.canvas.height) = (width, height)
    if orientation != .portrait { file.orientation = orientation }
    return file
  }

  /// The `homescreen` file laid out for the options' canvas and orientation.
  static func homescreenFile(_ o: SceneOptions) -> SceneFile {
    SceneFile.homescreen(
      width: o.width ?? 390, height: o.height ?? 844, scale: o.scale ?? 3,
      orientation: o.orientation ?? .portrait)
  }

  private static let factories: [(name: String, make: @Sendable (SceneOptions) -> any Scene)] = [
    ("waterwave", { FileScene(file: .waterwave, options: $0) }),
    ("homescreen", { FileScene(file: homescreenFile($0), options: $0, layout: homescreenFile) }),
    ("glass", { FileScene(file: glassFile($0), options: $0) }),
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
  /// The interface orientation; `nil` keeps the scene's own (portrait for the
  /// built-in scenes). ``width`` and ``height`` stay the device's portrait canvas: in landscape
  /// the scene is shown on `height × width` points, the viewer offset is rotated as UIKit's
  /// applicator does, and the water's tilt follows gravity in the interface's axes.
  public var orientation: InterfaceOrientation?

  /// Creates default options.
  public init() {}
}

/// A scene could not be loaded: an unknown name (a usage mistake) or a bad scene file.
public struct SceneLoadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// True for a name that is neither a built-in scene nor a file (a usage mistake).
  public var isUnknownName: Bool
  /// The one-line reason, naming the file and JSON path for a bad file.
  public var message: String
  /// The path, when a motion recording (a folder, a `.csv`, `.tsv` or `.zip`) was given where a
  /// scene is expected: it is a scene's motion, not a scene.
  public var recording: String?

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - isUnknownName: True for a name that is neither a built-in scene nor a file.
  ///   - message: The one-line reason.
  ///   - recording: The path of a motion recording given as the scene, if it was one.
  public init(isUnknownName: Bool, message: String, recording: String? = nil) {
    self.isUnknownName = isUnknownName
    self.message = message
    self.recording = recording
  }

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
    if let hint = recordingGivenAsScene(nameOrPath) {
      throw SceneLoadError(isUnknownName: true, message: hint, recording: nameOrPath)
    }
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

/// A canvas size given as text (`WxH[@S]`) that cannot be used.
public struct SceneSizeError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What is wrong with it.
  public enum Problem: Hashable, Sendable {
    /// The scale after `@` is not a number in (0, 8] (the text after `@`).
    case badScale(String)
    /// The text is not `WIDTHxHEIGHT[@SCALE]`.
    case badForm
    /// The width or height is not in (0, 16384] points.
    case sideOutOfRange
    /// The longer side is more pixels than allowed.
    case tooManyPixels(pixels: Int, maximum: Int)
  }

  /// The text as given.
  public var spec: String
  /// What is wrong with it.
  public var problem: Problem

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - spec: The text as given.
  ///   - problem: What is wrong with it.
  public init(spec: String, problem: Problem) {
    self.spec = spec
    self.problem = problem
  }

  /// The problem, one line, in the library's terms (`canvas size '…': …`).
  public var description: String {
    "canvas size '\(spec)': " + reason
  }

  /// The reason without the text: `scale '0' must be a number in (0, 8], as in 390x844@3`.
  public var reason: String {
    switch problem {
    case .badScale(let s): return "scale '\(s)' must be a number in (0, 8], as in 390x844@3"
    case .badForm: return "must be WIDTHxHEIGHT[@SCALE] in points, as in 390x844@3"
    case .sideOutOfRange: return "must have a width and height in (0, 16384] points"
    case .tooManyPixels(let pixels, let maximum):
      return "is \(pixels) pixels a side, more than \(maximum)"
    }
  }
}

extension BuiltInScenes {
  /// The message for a motion recording given where a scene is expected: a folder (a Sensor
  /// Logger or phyphox export), a `.csv`, a `.zip` or an `.evemu`, which scenes never are; `nil`
  /// otherwise.
  ///
  /// - Parameter nameOrPath: The scene argument.
  /// - Returns: One line saying the recording is a scene's motion, or `nil`.
  static func recordingGivenAsScene(_ nameOrPath: String) -> String? {
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: nameOrPath, isDirectory: &isDirectory)
    let lower = nameOrPath.lowercased()
    let kind: String
    if exists && isDirectory.boolValue {
      kind = "is a folder"
    } else if [".csv", ".zip", ".tsv", ".evemu"].contains(where: lower.hasSuffix) {
      kind =
        exists ? "looks like a motion recording" : "(no such file) looks like a motion recording"
    } else {
      return nil
    }
    let shown = UntrustedText.escaped(nameOrPath)
    return "'\(shown)' \(kind), not a scene: to play a recording, name a scene and give the "
      + "recording as its motion; scenes: " + names.joined(separator: ", ")
      + ", or a scene file ending in .json"
  }
}

extension SceneOptions {
  /// Sets the canvas from `WxH[@S]`: points and pixels per point, as `390x844@3`.
  ///
  /// - Parameters:
  ///   - spec: The text.
  ///   - maximumPixels: The longest side allowed, pixels.
  /// - Throws: ``SceneSizeError`` naming the bad part.
  public mutating func setSize(_ spec: String, maximumPixels: Int) throws(SceneSizeError) {
    func fail(_ problem: SceneSizeError.Problem) -> SceneSizeError {
      SceneSizeError(spec: spec, problem: problem)
    }
    var text = Substring(spec)
    var pixelScale: Double?
    if let at = text.firstIndex(of: "@") {
      let s = text[text.index(after: at)...].trimmingCharacters(in: .whitespaces)
      let digits = s.hasSuffix("x") ? String(s.dropLast()) : s
      guard let v = Double(digits), v.isFinite, v > 0, v <= 8 else {
        throw fail(.badScale(s))
      }
      pixelScale = v
      text = text[..<at]
    }
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else {
      throw fail(.badForm)
    }
    guard w.isFinite, h.isFinite, w > 0, h > 0, w <= 16384, h <= 16384 else {
      throw fail(.sideOutOfRange)
    }
    let pixels = max(w, h) * (pixelScale ?? 1)
    guard pixels <= Double(maximumPixels) else {
      throw fail(.tooManyPixels(pixels: Int(pixels), maximum: maximumPixels))
    }
    width = w
    height = h
    scale = pixelScale ?? scale
  }
}
