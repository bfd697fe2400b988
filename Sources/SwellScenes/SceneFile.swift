import Foundation
import SwellGeometry
import SwellLayers

/// The JSON scene format (`docs/scenes.md`): a canvas and a tree of layers, with water waves and
/// motion effects. Loaded and saved by ``SceneFile/load(from:)`` and ``SceneFile/write(to:)``;
/// errors name the JSON path of the bad field (`layers[2].fill`).
public struct SceneFile: Codable, Sendable, Hashable {
  /// The format version; this reader understands 1.
  public var swellScene: Int
  /// The scene's name.
  public var name: String
  /// The canvas.
  public var canvas: Canvas
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

/// A colour in a scene file: a hex string `#RRGGBB`, `#RRGGBBAA` or `#RGB`.
public struct ColorSpec: Codable, Sendable, Hashable {
  /// The colour.
  public var color: Color

  /// Wraps a colour.
  ///
  /// - Parameter color: The colour.
  public init(_ color: Color) { self.color = color }

  /// Decodes a hex string.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError.dataCorrupted` for a string that is not a hex colour.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.singleValueContainer()
    let s = try c.decode(String.self)
    guard let color = Color(hex: s) else {
      throw DecodingError.dataCorruptedError(
        in: c, debugDescription: "'\(s)' is not a colour (#RRGGBB or #RRGGBBAA)")
    }
    self.color = color
  }

  /// Encodes as `#RRGGBBAA`.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: Encoding errors.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.singleValueContainer()
    try c.encode(color.hexString)
  }
}

/// A fill in a scene file: a colour or a linear gradient.
public enum FillSpec: Codable, Sendable, Hashable {
  /// A solid colour (`"fill": "#3366FF"`).
  case color(ColorSpec)
  /// A linear gradient (`"fill": {"gradient": {...}}`).
  case gradient(LinearGradient)

  private enum CodingKeys: String, CodingKey { case gradient }

  /// Decodes a colour string or a `{"gradient": ...}` object.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field.
  public init(from decoder: any Decoder) throws {
    if let c = try? decoder.singleValueContainer(), let s = try? c.decode(String.self) {
      guard let color = Color(hex: s) else {
        throw DecodingError.dataCorruptedError(
          in: c, debugDescription: "'\(s)' is not a colour (#RRGGBB or #RRGGBBAA)")
      }
      self = .color(ColorSpec(color))
      return
    }
    let k = try decoder.container(keyedBy: CodingKeys.self)
    self = .gradient(try k.decode(LinearGradient.self, forKey: .gradient))
  }

  /// Encodes as a colour string or a gradient object.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: Encoding errors.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .color(let c):
      var s = encoder.singleValueContainer()
      try s.encode(c)
    case .gradient(let g):
      var k = encoder.container(keyedBy: CodingKeys.self)
      try k.encode(g, forKey: .gradient)
    }
  }
}

/// A shape in a scene file.
public enum ShapeSpec: Codable, Sendable, Hashable {
  /// A rectangle filling the layer's bounds, with an optional corner radius.
  case rect(cornerRadius: Double)
  /// An ellipse filling the layer's bounds.
  case ellipse
  /// A polygon through points in the layer's bounds space, closed or open.
  case polygon(points: [Point], closed: Bool)
}

/// One layer of a scene file.
public struct LayerSpec: Codable, Sendable, Hashable {
  /// What the layer draws.
  public enum Kind: String, Codable, Sendable, Hashable {
    /// A plain layer: background colour, border, sublayers.
    case layer
    /// A shape layer (`shape`, `fill`, `stroke`).
    case shape
    /// An image layer (`image`).
    case image
  }

  /// The layer kind (default `layer`).
  public var type: Kind
  /// The layer's name (for traces and effects).
  public var name: String?
  /// The frame in the parent's space, points: `[x, y, width, height]`.
  public var frame: [Double]
  /// The background colour.
  public var backgroundColor: ColorSpec?
  /// The corner radius, points.
  public var cornerRadius: Double?
  /// The opacity, 0...1.
  public var opacity: Double?
  /// A rotation about the layer's centre, radians (positive clockwise on screen).
  public var rotation: Double?
  /// Clip sublayers to the bounds.
  public var masksToBounds: Bool?
  /// The shape (for `shape` layers).
  public var shape: ShapeSpec?
  /// The fill (for `shape` layers).
  public var fill: FillSpec?
  /// The stroke colour (for `shape` layers).
  public var stroke: ColorSpec?
  /// The stroke width, points.
  public var lineWidth: Double?
  /// The PNG file (for `image` layers), relative to the scene file's folder.
  public var image: String?
  /// The sublayers, back to front.
  public var sublayers: [LayerSpec]?

  /// Creates a layer description.
  ///
  /// - Parameters:
  ///   - type: The kind.
  ///   - name: The name.
  ///   - frame: `[x, y, width, height]`, points.
  public init(type: Kind = .layer, name: String? = nil, frame: [Double]) {
    self.type = type
    self.name = name
    self.frame = frame
  }
}

/// A scene-file problem: the file, and the JSON path of the bad field.
public struct SceneFileError: Error, CustomStringConvertible, Sendable {
  /// The one-line reason.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: The reason.
  public init(_ message: String) { self.message = message }

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
    let file: SceneFile
    do {
      file = try JSONDecoder().decode(SceneFile.self, from: data)
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

  func validate(source: String) throws {
    guard swellScene == 1 else {
      throw SceneFileError("\(source): swellScene: version \(swellScene) is not supported (1 is)")
    }
    func check(_ ok: Bool, _ path: String, _ why: String) throws {
      if !ok { throw SceneFileError("\(source): \(path): \(why)") }
    }
    try check(
      canvas.width > 0 && canvas.width.isFinite && canvas.width <= 16384, "canvas.width",
      "must be between 0 and 16384 points")
    try check(
      canvas.height > 0 && canvas.height.isFinite && canvas.height <= 16384, "canvas.height",
      "must be between 0 and 16384 points")
    try check(
      canvas.scale > 0 && canvas.scale <= 8 && canvas.scale.isFinite, "canvas.scale",
      "must be between 0 and 8")
    func walk(_ specs: [LayerSpec], _ prefix: String) throws {
      for (i, s) in specs.enumerated() {
        let p = "\(prefix)[\(i)]"
        try check(
          s.frame.count == 4 && s.frame.allSatisfy(\.isFinite), "\(p).frame",
          "must be [x, y, width, height] with finite numbers")
        if let o = s.opacity { try check((0...1).contains(o), "\(p).opacity", "must be 0...1") }
        if let w = s.lineWidth { try check(w >= 0 && w.isFinite, "\(p).lineWidth", "must be ≥ 0") }
        if s.type == .image {
          try check(s.image != nil, "\(p).image", "an image layer needs an image file")
        }
        if let subs = s.sublayers { try walk(subs, "\(p).sublayers") }
      }
    }
    try walk(layers, "layers")
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
      if ctx.codingPath.isEmpty { return "not valid JSON" }
      return "\(path(ctx.codingPath)): \(ctx.debugDescription)"
    @unknown default:
      return "invalid scene"
    }
  }

  private static func typeName(_ t: Any.Type) -> String {
    switch t {
    case is Double.Type, is Int.Type: "a number"
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    default: "\(t)".contains("Array") ? "an array" : "an object"
    }
  }
}
