import Foundation
import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellWaves

/// The JSON scene format (`docs/scenes.md`): a canvas, a tree of layers (shapes, gradients,
/// images, water waves) with motion effects, and how the viewer offset is computed. Loaded and
/// saved by ``SceneFile/load(from:)`` and ``SceneFile/encoded()``; errors name the file and the
/// JSON path of the bad field (`scene.json: layers[2].fill: ...`). Run by ``FileScene``.
public struct SceneFile: Codable, Sendable, Hashable {
  /// The format version; this reader understands 1.
  public var swellScene: Int
  /// The scene's name.
  public var name: String
  /// The canvas: the device's portrait canvas (see ``orientation``).
  public var canvas: Canvas
  /// The interface orientation the scene is shown in (default portrait, `"orientation"` in the
  /// file: `portrait`, `portraitUpsideDown`, `landscapeLeft`, `landscapeRight`). In landscape the
  /// interface's canvas is the ``canvas`` with width and height swapped (``interfaceSize``), and
  /// layers are laid out in it; the viewer offset is rotated as UIKit's applicator does
  /// (`SwellEffects/MotionEffectApplicator`), and the water's tilt is taken from gravity in the
  /// interface's axes, so it stays level with the world.
  public var orientation: InterfaceOrientation?
  /// The viewer-offset engine's constants for the motion effects (default the system's).
  public var viewerOffset: ViewerOffsetSpec?
  /// The traced values, `LAYER.KEYPATH` or `offset.horizontal` / `offset.vertical` (default:
  /// each water's tilt, amplitude and phase, then the viewer offset and the position of each
  /// named layer with motion effects).
  public var trace: [String]?
  /// The top-level layers, back to front.
  public var layers: [LayerSpec]

  /// Creates a scene description.
  ///
  /// - Parameters:
  ///   - name: The scene's name.
  ///   - canvas: The canvas.
  ///   - layers: The layers, back to front.
  public init(name: String, canvas: Canvas, layers: [LayerSpec]) {
    swellScene = 1
    self.name = name
    self.canvas = canvas
    self.layers = layers
  }

  /// The canvas of a scene.
  public struct Canvas: Codable, Sendable, Hashable {
    /// Width, points.
    public var width: Double
    /// Height, points.
    public var height: Double
    /// Pixels per point (1, 2, 3).
    public var scale: Double
    /// Background colour, `#RRGGBB` or `#RRGGBBAA`.
    public var background: ColorSpec

    /// Creates a canvas.
    ///
    /// - Parameters:
    ///   - width: Points.
    ///   - height: Points.
    ///   - scale: Pixels per point.
    ///   - background: The background colour.
    public init(width: Double, height: Double, scale: Double, background: ColorSpec) {
      self.width = width
      self.height = height
      self.scale = scale
      self.background = background
    }
  }
}

extension SceneFile {
  /// The interface's canvas size, points: ``canvas`` width × height, swapped in landscape.
  public var interfaceSize: Size {
    (orientation ?? .portrait).isLandscape
      ? Size(width: canvas.height, height: canvas.width)
      : Size(width: canvas.width, height: canvas.height)
  }
}

/// A scene-file problem: the file, and the JSON path of the bad field.
public struct SceneFileError: Error, CustomStringConvertible, Sendable {
  /// The one-line reason.
  public var message: String

  /// Creates an error; untrusted text quoted in `'single quotes'` is cut and control characters
  /// are escaped (`UntrustedText.sanitizedMessage(_:)`).
  ///
  /// - Parameter message: The reason.
  public init(_ message: String) { self.message = UntrustedText.sanitizedMessage(message) }

  /// The reason.
  public var description: String { message }
}

extension SceneFile {
  /// Reads and validates a scene file.
  ///
  /// - Parameter url: The JSON file.
  /// - Returns: The scene description.
  /// - Throws: ``SceneFileError`` naming the file and the JSON path of the bad field.
  public static func load(from url: URL) throws -> SceneFile {
    var info = stat()
    guard stat(url.path, &info) == 0 else {
      throw SceneFileError(
        "\(url.path): cannot read the file (\(String(cString: strerror(errno))))")
    }
    // A FIFO or a device would block or never end: only regular files are read.
    guard (info.st_mode & S_IFMT) == S_IFREG else {
      throw SceneFileError("\(url.path): not a regular file")
    }
    guard Int(info.st_size) <= SceneLimits.maximumFileSize else {
      throw SceneFileError(
        "\(url.path): \(info.st_size) bytes is larger than the limit of "
          + "\(SceneLimits.maximumFileSize) for a scene file")
    }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw SceneFileError("\(url.path): cannot read the file")
    }
    return try decode(data, source: url.path)
  }

  /// Decodes and validates a scene from JSON data.
  ///
  /// - Parameters:
  ///   - data: The JSON.
  ///   - source: The name used in error messages.
  /// - Returns: The scene description.
  /// - Throws: ``SceneFileError`` naming the JSON path of the bad field.
  public static func decode(_ data: Data, source: String) throws -> SceneFile {
    guard data.count <= SceneLimits.maximumFileSize else {
      throw SceneFileError(
        "\(source): \(data.count) bytes is larger than the limit of "
          + "\(SceneLimits.maximumFileSize) for a scene file")
    }
    let file: SceneFile
    do {
      file = try JSONDecoder().decode(SceneFile.self, from: data)
    } catch DecodingError.dataCorrupted(let ctx) where ctx.codingPath.isEmpty {
      throw SceneFileError("\(source): \(jsonSyntaxProblem(data))")
    } catch let e as DecodingError {
      throw SceneFileError("\(source): \(describe(e))")
    } catch {
      throw SceneFileError("\(source): not valid JSON")
    }
    try file.validate(source: source)
    return file
  }

  /// Encodes the scene as pretty-printed JSON with sorted keys.
  ///
  /// - Returns: The JSON bytes.
  /// - Throws: Encoding errors.
  public func encoded() throws -> Data {
    let enc = JSONEncoder()
    enc.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try enc.encode(self)
  }

  /// Checks the values JSON types cannot: ranges, required fields per layer kind.
  ///
  /// - Parameter source: The name used in error messages.
  /// - Throws: ``SceneFileError`` naming the JSON path of the first bad field.
  public func validate(source: String) throws {
    guard swellScene == 1 else {
      throw SceneFileError("\(source): swellScene: version \(swellScene) is not supported (1 is)")
    }
    func check(_ ok: Bool, _ path: String, _ why: String) throws {
      if !ok { throw SceneFileError("\(source): \(path): \(why)") }
    }
    func finite(_ v: Double?, _ path: String, _ range: ClosedRange<Double>, _ why: String) throws {
      if let v { try check(v.isFinite && range.contains(v), path, why) }
    }
    try check(
      canvas.width > 0 && canvas.width.isFinite && canvas.width <= 16384, "canvas.width",
      "must be more than 0 and at most 16384 points")
    try check(
      canvas.height > 0 && canvas.height.isFinite && canvas.height <= 16384, "canvas.height",
      "must be more than 0 and at most 16384 points")
    try check(
      canvas.scale > 0 && canvas.scale <= 8 && canvas.scale.isFinite, "canvas.scale",
      "must be more than 0 and at most 8")
    let big = -1e6...1e6
    func walk(_ specs: [LayerSpec], _ prefix: String) throws {
      for (i, s) in specs.enumerated() {
        let p = "\(prefix)[\(i)]"
        if let frame = s.frame {
          try check(
            frame.count == 4 && frame.allSatisfy({ $0.isFinite && big.contains($0) }),
            "\(p).frame", "must be [x, y, width, height] with finite numbers")
          try check(
            frame[2] >= 0 && frame[3] >= 0, "\(p).frame", "width and height must be ≥ 0")
        }
        try finite(s.opacity, "\(p).opacity", 0...1, "must be 0...1")
        try finite(s.lineWidth, "\(p).lineWidth", 0...1e4, "must be ≥ 0")
        try finite(s.cornerRadius, "\(p).cornerRadius", 0...1e6, "must be ≥ 0")
        try finite(s.borderWidth, "\(p).borderWidth", 0...1e4, "must be ≥ 0")
        try finite(s.rotation, "\(p).rotation", big, "must be a finite angle in radians")
        try finite(s.zPosition, "\(p).zPosition", big, "must be finite")
        switch s.type {
        case .image:
          try check(s.image != nil, "\(p).image", "an image layer needs a PNG file")
        case .waterWave:
          try check(s.rotation == nil, "\(p).rotation", "a waterWave's rotation is its tilt")
          guard let w = s.water else {
            throw SceneFileError("\(source): \(p).water: missing (a waterWave needs its water)")
          }
          try validate(water: w, path: "\(p).water", check: check)
          let size = s.frame.map { Size(width: $0[2], height: $0[3]) }
          try w.validatePhysical(
            path: "\(p).water", size: size ?? Size(width: canvas.width, height: canvas.height),
            check: check)
        case .layer, .shape:
          break
        }
        if s.type != .waterWave {
          try check(s.water == nil, "\(p).water", "only a waterWave layer has water")
        }
        if let subs = s.sublayers { try walk(subs, "\(p).sublayers") }
      }
    }
    try walk(layers, "layers")
    try checkResources(source: source)
    if let trace {
      for (i, key) in trace.enumerated() {
        try check(
          key.contains(".") && !key.hasPrefix(".") && !key.hasSuffix("."), "trace[\(i)]",
          "'\(key)' is not LAYER.KEYPATH")
      }
    }
  }

  private func validate(
    water w: WaterSpec, path p: String, check: (Bool, String, String) throws -> Void
  ) throws {
    try check(
      w.fillLevel.isFinite && (0...1).contains(w.fillLevel), "\(p).fillLevel", "must be 0...1")
    if let d = w.sampleSpacing {
      try check(
        d.isFinite && d >= 0.25 && d <= 1000, "\(p).sampleSpacing", "must be 0.25...1000 points")
    }
    try check(!w.waves.isEmpty, "\(p).waves", "needs at least one wave")
    for (j, wave) in w.waves.enumerated() {
      let q = "\(p).waves[\(j)]"
      try check(
        wave.amplitude.isFinite && abs(wave.amplitude) <= 1e5, "\(q).amplitude", "must be finite")
      try check(
        wave.wavelength.isFinite && wave.wavelength > 0 && wave.wavelength <= 1e7,
        "\(q).wavelength", "must be more than 0 points")
      try check(
        wave.phaseSpeed.isFinite && abs(wave.phaseSpeed) <= 1e5, "\(q).phaseSpeed", "must be finite"
      )
      if let f = wave.initialPhase {
        try check(f.isFinite && abs(f) <= 1e5, "\(q).initialPhase", "must be finite")
      }
    }
    if let r = w.response {
      let rp = "\(p).response"
      if let v = r.tiltDuration {
        try check(v.isFinite && v >= 0 && v <= 60, "\(rp).tiltDuration", "must be 0...60 seconds")
      }
      if let v = r.tiltUpdateRate {
        try check(
          v.isFinite && v > 0 && v <= 1000, "\(rp).tiltUpdateRate",
          "must be in (0, 1000] per second")
      }
      if let v = r.amplitudeRiseTime {
        try check(
          v.isFinite && v >= 0 && v <= 60, "\(rp).amplitudeRiseTime", "must be 0...60 seconds")
      }
      if let v = r.amplitudePeakHold {
        try check(
          v.isFinite && v >= 0 && v <= 60, "\(rp).amplitudePeakHold", "must be 0...60 seconds")
      }
      if let v = r.amplitudeReleaseTime {
        try check(
          v.isFinite && v >= 0 && v <= 60, "\(rp).amplitudeReleaseTime", "must be 0...60 seconds")
      }
    }
  }

  /// Where JSON text stops parsing: `not valid JSON at line L, column C (reason)`.
  static func jsonSyntaxProblem(_ data: Data) -> String {
    if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      return "not valid JSON (the file is empty)"
    }
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return "not valid JSON"
    } catch {
      let reason = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
      guard let r = reason.range(of: "character "),
        let offset = Int(reason[r.upperBound...].prefix(while: \.isNumber))
      else { return reason.isEmpty ? "not valid JSON" : "not valid JSON (\(reason))" }
      // The offset counts bytes of the UTF-8 text from 0.
      var line = 1
      var column = 1
      for byte in data.prefix(offset) {
        if byte == 0x0A {
          line += 1
          column = 1
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
      }
      return "not valid JSON at line \(line), column \(column) (\(reason))"
    }
  }

  static func describe(_ e: DecodingError) -> String {
    func path(_ keys: [any CodingKey]) -> String {
      var s = ""
      for k in keys {
        if let i = k.intValue {
          s += "[\(i)]"
        } else {
          s += s.isEmpty ? k.stringValue : "." + k.stringValue
        }
      }
      return s.isEmpty ? "(top level)" : s
    }
    switch e {
    case .keyNotFound(let key, let ctx):
      return "\(path(ctx.codingPath + [key])): missing"
    case .typeMismatch(let type, let ctx):
      return "\(path(ctx.codingPath)): expected \(typeName(type))"
    case .valueNotFound(let type, let ctx):
      return "\(path(ctx.codingPath)): expected \(typeName(type)), found null"
    case .dataCorrupted(let ctx):
      if ctx.codingPath.isEmpty {
        let detail = (ctx.underlyingError.map { "\($0)" } ?? ctx.debugDescription)
        return detail.isEmpty ? "not valid JSON" : "not valid JSON (\(detail))"
      }
      return "\(path(ctx.codingPath)): \(plainReason(ctx.debugDescription))"
    @unknown default:
      return "invalid scene"
    }
  }

  /// Foundation's "Cannot initialize T from invalid String value v" as "unknown value 'v'",
  /// followed by the values the key allows when `T` is one of the scene file's enumerations
  /// (``allowedValues``): `unknown value 'slosh'; allowed: classic, sloshing, physical`.
  static func plainReason(_ text: String) -> String {
    let prefix = "Cannot initialize "
    let marker = " from invalid String value "
    guard text.hasPrefix(prefix), let r = text.range(of: marker) else { return text }
    let type = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<r.lowerBound])
    let value = "unknown value '\(text[r.upperBound...])'"
    // A nested type may be printed with its outer types: look its last component up.
    let name = type.split(separator: ".").last.map(String.init) ?? type
    guard let allowed = allowedValues[name] else { return value }
    return value + "; allowed: " + allowed.joined(separator: ", ")
  }

  /// The values of each string enumeration a scene file holds, by the type's name as Foundation
  /// prints it in a decoding error.
  static let allowedValues: [String: [String]] = [
    "WaterWaveResponse": WaterWaveResponse.allCases.map(\.rawValue),
    "TiltRule": TiltRule.allCases.map(\.rawValue),
    "Kind": LayerSpec.Kind.allCases.map(\.rawValue),
    "InterfaceOrientation": InterfaceOrientation.allCases.map(\.rawValue),
    "Idiom": ViewerOffsetEngine.Idiom.allCases.map(\.rawValue),
    "EffectType": InterpolatingMotionEffect.EffectType.allCases.map(\.rawValue),
    "FillRule": [FillRule.nonZero, .evenOdd].map(\.rawValue),
    "Gravity": [ImageLayer.Gravity.resize, .resizeAspect, .resizeAspectFill].map(\.rawValue),
    "Space": [LinearGradient.Space.layer, .screenVertical].map(\.rawValue),
  ]

  private static func typeName(_ t: Any.Type) -> String {
    switch t {
    case is Double.Type, is Int.Type: "a number"
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    default: "\(t)".contains("Array") ? "an array" : "an object"
    }
  }
}
