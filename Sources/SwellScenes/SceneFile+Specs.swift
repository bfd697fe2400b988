import SwellEffects
import SwellGeometry
import SwellLayers
import SwellWaves

/// A colour in a scene file: a hex string `#RRGGBB`, `#RRGGBBAA` or `#RGB` (sRGB, not
/// premultiplied). Written back as `#RRGGBBAA`, so colours read from a file survive a round trip
/// exactly.
public struct ColorSpec: Codable, Sendable, Hashable {
  /// The colour.
  public var color: Color

  /// Wraps a colour.
  ///
  /// - Parameter color: The colour.
  public init(_ color: Color) { self.color = color }

  /// Parses a hex colour string.
  ///
  /// - Parameter hex: `#RRGGBB`, `#RRGGBBAA` or `#RGB`.
  /// - Returns: The colour, or `nil` when the string is not a hex colour.
  public static func hex(_ hex: String) -> ColorSpec? { Color(hex: hex).map(ColorSpec.init) }

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

/// A point in a scene file, written as a two-number array `[x, y]`.
struct PointSpec: Codable, Hashable {
  var point: Point

  init(_ point: Point) { self.point = point }

  init(from decoder: any Decoder) throws {
    var c = try decoder.unkeyedContainer()
    let x = try c.decode(Double.self)
    let y = try c.decode(Double.self)
    guard c.isAtEnd else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "must be [x, y]"))
    }
    point = Point(x: x, y: y)
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.unkeyedContainer()
    try c.encode(point.x)
    try c.encode(point.y)
  }
}

/// A fill in a scene file: a colour string, or a linear gradient object.
///
/// ```json
/// "fill": "#3366FF"
/// "fill": {"gradient": {"stops": [{"location": 0, "color": "#1F73EBEB"},
///                                 {"location": 1, "color": "#052473FF"}],
///                       "startPoint": [0.5, 0], "endPoint": [0.5, 1],
///                       "space": "screenVertical"}}
/// ```
///
/// Gradient points are in unit coordinates of the layer's bounds ((0, 0) top left);
/// `space` is `layer` (the axis turns with the layer) or `screenVertical` (the axis stays
/// vertical on screen: Cairo's fast path). `startPoint`, `endPoint` and `space` may be left out
/// (top centre, bottom centre, `layer`).
public enum FillSpec: Codable, Sendable, Hashable {
  /// A solid colour.
  case color(ColorSpec)
  /// A linear gradient.
  case gradient(LinearGradient)

  private enum CodingKeys: String, CodingKey { case gradient }
  private enum GradientKeys: String, CodingKey { case stops, startPoint, endPoint, space }
  private enum StopKeys: String, CodingKey { case location, color }

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
    let g = try k.nestedContainer(keyedBy: GradientKeys.self, forKey: .gradient)
    var list = try g.nestedUnkeyedContainer(forKey: .stops)
    var stops: [GradientStop] = []
    while !list.isAtEnd {
      let s = try list.nestedContainer(keyedBy: StopKeys.self)
      let location = try s.decode(Double.self, forKey: .location)
      guard location.isFinite, (0...1).contains(location) else {
        throw DecodingError.dataCorruptedError(
          forKey: .location, in: s, debugDescription: "must be 0...1")
      }
      stops.append(
        GradientStop(location: location, color: try s.decode(ColorSpec.self, forKey: .color).color))
    }
    guard !stops.isEmpty else {
      throw DecodingError.dataCorruptedError(
        forKey: .stops, in: g, debugDescription: "a gradient needs at least one stop")
    }
    let start = try g.decodeIfPresent(PointSpec.self, forKey: .startPoint)?.point
    let end = try g.decodeIfPresent(PointSpec.self, forKey: .endPoint)?.point
    let space = try g.decodeIfPresent(LinearGradient.Space.self, forKey: .space) ?? .layer
    self = .gradient(
      LinearGradient(
        stops: stops, startPoint: start ?? Point(x: 0.5, y: 0),
        endPoint: end ?? Point(x: 0.5, y: 1), space: space))
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
    case .gradient(let gradient):
      var k = encoder.container(keyedBy: CodingKeys.self)
      var g = k.nestedContainer(keyedBy: GradientKeys.self, forKey: .gradient)
      var list = g.nestedUnkeyedContainer(forKey: .stops)
      for stop in gradient.stops {
        var s = list.nestedContainer(keyedBy: StopKeys.self)
        try s.encode(stop.location, forKey: .location)
        try s.encode(ColorSpec(stop.color), forKey: .color)
      }
      try g.encode(PointSpec(gradient.startPoint), forKey: .startPoint)
      try g.encode(PointSpec(gradient.endPoint), forKey: .endPoint)
      try g.encode(gradient.space, forKey: .space)
    }
  }

  /// The fill as a water-wave fill.
  var waveFill: WaveFill {
    switch self {
    case .color(let c): .color(c.color)
    case .gradient(let g): .gradient(g)
    }
  }
}

/// A shape in a scene file, in the layer's bounds space (points, origin top left, y down):
///
/// ```json
/// "shape": {"kind": "rect", "cornerRadius": 12}
/// "shape": {"kind": "ellipse"}
/// "shape": {"kind": "polygon", "points": [[0, 0], [40, 0], [20, 30]], "closed": true}
/// "shape": {"kind": "path", "d": "M 0 0 L 40 0 C 40 20 20 30 0 30 Z"}
/// ```
///
/// A `path` takes SVG path data with the commands M, L, H, V, C, Q, A and Z (upper case
/// absolute, lower case relative); a decoded path keeps its text (``pathData(_:)``), so it is
/// written back as it was read.
public enum ShapeSpec: Codable, Sendable, Hashable {
  /// A rectangle filling the layer's bounds, with a corner radius, points.
  case rect(cornerRadius: Double)
  /// An ellipse filling the layer's bounds.
  case ellipse
  /// A polygon through points in the layer's bounds space, closed or open.
  case polygon(points: [Point], closed: Bool)
  /// Any path, points in the layer's bounds space (built in code; written as absolute M, L, C
  /// and Z with exact numbers).
  case path(Path)
  /// SVG path data as written (what decoding a `path` gives), points in the layer's bounds
  /// space; written back unchanged.
  case pathData(SVGPath)

  private enum CodingKeys: String, CodingKey { case kind, cornerRadius, points, closed, d }

  /// Decodes a `{"kind": ...}` object.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field (an unknown kind, bad path data).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    let kind = try c.decode(String.self, forKey: .kind)
    switch kind {
    case "rect":
      let r = try c.decodeIfPresent(Double.self, forKey: .cornerRadius) ?? 0
      guard r.isFinite, r >= 0 else {
        throw DecodingError.dataCorruptedError(
          forKey: .cornerRadius, in: c, debugDescription: "must be ≥ 0")
      }
      self = .rect(cornerRadius: r)
    case "ellipse":
      self = .ellipse
    case "polygon":
      let points = try c.decode([PointSpec].self, forKey: .points).map(\.point)
      guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
        throw DecodingError.dataCorruptedError(
          forKey: .points, in: c, debugDescription: "points must be finite")
      }
      self = .polygon(
        points: points, closed: try c.decodeIfPresent(Bool.self, forKey: .closed) ?? true)
    case "path":
      let d = try c.decode(String.self, forKey: .d)
      do {
        self = .pathData(try SVGPath(d))
      } catch {
        throw DecodingError.dataCorruptedError(
          forKey: .d, in: c, debugDescription: error.description)
      }
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: c,
        debugDescription: "unknown shape '\(kind)' (rect, ellipse, polygon or path)")
    }
  }

  /// Encodes as a `{"kind": ...}` object.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: Encoding errors.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .rect(let r):
      try c.encode("rect", forKey: .kind)
      try c.encode(r, forKey: .cornerRadius)
    case .ellipse:
      try c.encode("ellipse", forKey: .kind)
    case .polygon(let points, let closed):
      try c.encode("polygon", forKey: .kind)
      try c.encode(points.map(PointSpec.init), forKey: .points)
      try c.encode(closed, forKey: .closed)
    case .path(let p):
      try c.encode("path", forKey: .kind)
      try c.encode(SVGPathData.format(p), forKey: .d)
    case .pathData(let p):
      try c.encode("path", forKey: .kind)
      try c.encode(p.data, forKey: .d)
    }
  }

  /// The path for a layer of a size.
  ///
  /// - Parameter size: The layer's bounds size, points.
  /// - Returns: The path in bounds space.
  func path(in size: Size) -> Path {
    let bounds = Rect(x: 0, y: 0, width: size.width, height: size.height)
    switch self {
    case .rect(let r): return Path(roundedRect: bounds, cornerRadius: r)
    case .ellipse: return Path(ellipseIn: bounds)
    case .polygon(let points, let closed):
      var p = Path()
      for (i, pt) in points.enumerated() {
        if i == 0 { p.move(to: pt) } else { p.line(to: pt) }
      }
      if closed && !points.isEmpty { p.close() }
      return p
    case .path(let p): return p
    case .pathData(let p): return p.path
    }
  }
}

/// One sine layer of a water wave in a scene file (`SwellWaves/SineWave`):
/// `y = amplitude·sin(2π·x / wavelength + initialPhase + phaseSpeed·t) + offset`, points in the
/// water's visible space.
public struct WaveSpec: Codable, Sendable, Hashable {
  /// The base amplitude, points.
  public var amplitude: Double
  /// The crest-to-crest distance, points (positive).
  public var wavelength: Double
  /// The phase speed, radians per second (positive moves the crests left).
  public var phaseSpeed: Double
  /// The phase at time 0, radians (default 0).
  public var initialPhase: Double?
  /// The fill below the surface: a colour or a gradient (use `"space": "screenVertical"` so
  /// the gradient stays vertical on screen when the water tilts).
  public var fill: FillSpec

  /// Creates a wave description.
  ///
  /// - Parameters:
  ///   - amplitude: Points.
  ///   - wavelength: Points, positive.
  ///   - phaseSpeed: Radians per second.
  ///   - initialPhase: Radians.
  ///   - fill: The fill.
  public init(
    amplitude: Double, wavelength: Double, phaseSpeed: Double, initialPhase: Double? = nil,
    fill: FillSpec
  ) {
    self.amplitude = amplitude
    self.wavelength = wavelength
    self.phaseSpeed = phaseSpeed
    self.initialPhase = initialPhase
    self.fill = fill
  }

  /// The sine layer (call only on a validated description: the wavelength must be positive).
  public var sineWave: SineWave {
    SineWave(
      amplitude: amplitude, wavelength: wavelength, phaseSpeed: phaseSpeed,
      initialPhase: initialPhase ?? 0, fill: fill.waveFill)
  }
}

/// How a water wave reacts to motion, in a scene file (`SwellWaves/WaterWaveOptions`). Every
/// field may be left out for its default.
public struct WaterResponseSpec: Codable, Sendable, Hashable {
  /// `classic` (the seed's eased tilt, default), `sloshing` (a damped sloshing mode) or
  /// `physical` (a free surface in a container: `SwellWaves/WaterBody`).
  public var model: WaterWaveResponse?
  /// `corrected` (default: continuous, clamped to ±45°) or `seedExact` (the seed's literal rule).
  public var tiltRule: TiltRule?
  /// The duration of each tilt animation, seconds (default 1).
  public var tiltDuration: Double?
  /// The rate of tilt updates, per second (default 60).
  public var tiltUpdateRate: Double?
  /// The extra amplitude's rise time constant, seconds (default 0.06).
  public var amplitudeRiseTime: Double?
  /// The extra amplitude's release time constant, seconds (default 0.6).
  public var amplitudeReleaseTime: Double?
  /// How long the amplitude target holds its peak, seconds (default 0.25; 0 follows each
  /// sample, as the seed).
  public var amplitudePeakHold: Double?
  /// Reduce Motion: a still water (default false).
  public var reduceMotion: Bool?
  /// `physical`: the damping ratio of every surface mode, 0...0.95 (default 0.06).
  public var dampingRatio: Double?
  /// `physical`: the fraction of a turn of the container the surface follows at once, 0...1
  /// (default 0.25).
  public var rotationCoupling: Double?

  /// Creates a response with every field at its default.
  public init() {}

  /// The response options with every default filled in.
  public var options: WaterWaveOptions {
    var o = WaterWaveOptions()
    if let model { o.response = model }
    if let tiltRule { o.tiltRule = tiltRule }
    if let tiltDuration { o.tiltDuration = tiltDuration }
    if let tiltUpdateRate { o.tiltUpdateRate = tiltUpdateRate }
    if let amplitudeRiseTime { o.amplitudeRiseTime = amplitudeRiseTime }
    if let amplitudeReleaseTime { o.amplitudeReleaseTime = amplitudeReleaseTime }
    if let amplitudePeakHold { o.amplitudePeakHold = amplitudePeakHold }
    if let reduceMotion { o.reduceMotion = reduceMotion }
    return o
  }
}

/// The water of a `waterWave` layer in a scene file (`SwellWaves/WaterWave`): sine layers back
/// to front over a fill level, and the motion response.
public struct WaterSpec: Codable, Sendable, Hashable {
  /// The fill level, 0 (empty) ... 1 (full): the mean surface sits at `(1 − fillLevel)·height`.
  public var fillLevel: Double
  /// The horizontal distance between path samples, points (default 2.5).
  public var sampleSpacing: Double?
  /// The sine layers, back to front; the last is the front wave (traced).
  public var waves: [WaveSpec]
  /// The motion response (default: classic, corrected).
  public var response: WaterResponseSpec?
  /// The vessel of the `physical` response (default: the layer's bounds at 1/160 inch per
  /// point).
  public var container: WaterContainerSpec?

  /// Creates a water description.
  ///
  /// - Parameters:
  ///   - fillLevel: 0...1.
  ///   - sampleSpacing: Points between path samples.
  ///   - waves: The sine layers, back to front.
  ///   - response: The motion response.
  public init(
    fillLevel: Double, sampleSpacing: Double? = nil, waves: [WaveSpec],
    response: WaterResponseSpec? = nil
  ) {
    self.fillLevel = fillLevel
    self.sampleSpacing = sampleSpacing
    self.waves = waves
    self.response = response
  }

  /// The water model (call only on a validated description).
  public var model: WaterWave {
    WaterWave(
      waves: waves.map(\.sineWave), fillLevel: fillLevel, sampleSpacing: sampleSpacing ?? 2.5)
  }
}

/// One layer of a scene file. Only `frame` matters to every kind; the other fields apply to the
/// kinds named in their documentation and may be left out.
public struct LayerSpec: Codable, Sendable, Hashable {
  /// What the layer draws.
  public enum Kind: String, Codable, Sendable, Hashable, CaseIterable {
    /// A plain layer: background colour, border, sublayers.
    case layer
    /// A shape layer (`shape`, `fill`, `fillRule`, `stroke`, `lineWidth`).
    case shape
    /// An image layer (`image`, a PNG file).
    case image
    /// The motion-reactive water (`water`): sine layers that tilt with gravity.
    case waterWave
  }

  /// The layer kind (default `layer`).
  public var type: Kind
  /// The layer's name (for traces, effects and `LAYER.KEYPATH`); a `waterWave` defaults to
  /// `water`.
  public var name: String?
  /// The frame in the parent's space, points: `[x, y, width, height]` (default: the parent's
  /// bounds, so a frameless top-level layer covers the canvas whatever its size).
  public var frame: [Double]?
  /// The background colour.
  public var backgroundColor: ColorSpec?
  /// The corner radius, points.
  public var cornerRadius: Double?
  /// The border width, points.
  public var borderWidth: Double?
  /// The border colour.
  public var borderColor: ColorSpec?
  /// The opacity, 0...1 (default 1).
  public var opacity: Double?
  /// A rotation about the layer's centre, radians (positive turns clockwise on screen); not
  /// allowed on a `waterWave`, whose rotation is its tilt.
  public var rotation: Double?
  /// The stacking order among siblings (higher draws in front).
  public var zPosition: Double?
  /// Hidden layers (and their sublayers) are not drawn.
  public var isHidden: Bool?
  /// Clip sublayers to the (rounded) bounds.
  public var masksToBounds: Bool?
  /// The shape (`shape` layers; default a rectangle filling the bounds).
  public var shape: ShapeSpec?
  /// The fill (`shape` layers; none when left out).
  public var fill: FillSpec?
  /// `nonZero` (default) or `evenOdd` (`shape` layers).
  public var fillRule: FillRule?
  /// The stroke colour (`shape` layers).
  public var stroke: ColorSpec?
  /// The stroke width, points (`shape` layers; default 1).
  public var lineWidth: Double?
  /// The PNG file (`image` layers), relative to the scene file's folder.
  public var image: String?
  /// How the image fills the bounds (`image` layers; default `resize`).
  public var gravity: ImageLayer.Gravity?
  /// The water (`waterWave` layers).
  public var water: WaterSpec?
  /// Motion effects on this layer, type-tagged (`{"effect": "interpolating", ...}`), applied
  /// for the scene's viewer offset.
  public var motionEffects: [AnyMotionEffect]?
  /// The sublayers, back to front.
  public var sublayers: [LayerSpec]?

  /// Creates a layer description.
  ///
  /// - Parameters:
  ///   - type: The kind.
  ///   - name: The name.
  ///   - frame: `[x, y, width, height]`, points (`nil`: the parent's bounds).
  public init(type: Kind = .layer, name: String? = nil, frame: [Double]?) {
    self.type = type
    self.name = name
    self.frame = frame
  }

  private enum CodingKeys: String, CodingKey {
    case type, name, frame, backgroundColor, cornerRadius, borderWidth, borderColor, opacity
    case rotation, zPosition, isHidden, masksToBounds, shape, fill, fillRule, stroke, lineWidth
    case image, gravity, water, motionEffects, sublayers
  }

  /// Decodes a layer; `type` defaults to `layer`.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` naming the field.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    if let t = try c.decodeIfPresent(String.self, forKey: .type) {
      guard let kind = Kind(rawValue: t) else {
        throw DecodingError.dataCorruptedError(
          forKey: .type, in: c,
          debugDescription:
            "unknown layer type '\(t)' (\(Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
      type = kind
    } else {
      type = .layer
    }
    name = try c.decodeIfPresent(String.self, forKey: .name)
    frame = try c.decodeIfPresent([Double].self, forKey: .frame)
    backgroundColor = try c.decodeIfPresent(ColorSpec.self, forKey: .backgroundColor)
    cornerRadius = try c.decodeIfPresent(Double.self, forKey: .cornerRadius)
    borderWidth = try c.decodeIfPresent(Double.self, forKey: .borderWidth)
    borderColor = try c.decodeIfPresent(ColorSpec.self, forKey: .borderColor)
    opacity = try c.decodeIfPresent(Double.self, forKey: .opacity)
    rotation = try c.decodeIfPresent(Double.self, forKey: .rotation)
    zPosition = try c.decodeIfPresent(Double.self, forKey: .zPosition)
    isHidden = try c.decodeIfPresent(Bool.self, forKey: .isHidden)
    masksToBounds = try c.decodeIfPresent(Bool.self, forKey: .masksToBounds)
    shape = try c.decodeIfPresent(ShapeSpec.self, forKey: .shape)
    fill = try c.decodeIfPresent(FillSpec.self, forKey: .fill)
    fillRule = try c.decodeIfPresent(FillRule.self, forKey: .fillRule)
    stroke = try c.decodeIfPresent(ColorSpec.self, forKey: .stroke)
    lineWidth = try c.decodeIfPresent(Double.self, forKey: .lineWidth)
    image = try c.decodeIfPresent(String.self, forKey: .image)
    gravity = try c.decodeIfPresent(ImageLayer.Gravity.self, forKey: .gravity)
    water = try c.decodeIfPresent(WaterSpec.self, forKey: .water)
    motionEffects = try c.decodeIfPresent([AnyMotionEffect].self, forKey: .motionEffects)
    sublayers = try c.decodeIfPresent([LayerSpec].self, forKey: .sublayers)
  }

  /// Encodes the fields that are set (`type` always).
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: Encoding errors.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(type, forKey: .type)
    try c.encodeIfPresent(name, forKey: .name)
    try c.encodeIfPresent(frame, forKey: .frame)
    try c.encodeIfPresent(backgroundColor, forKey: .backgroundColor)
    try c.encodeIfPresent(cornerRadius, forKey: .cornerRadius)
    try c.encodeIfPresent(borderWidth, forKey: .borderWidth)
    try c.encodeIfPresent(borderColor, forKey: .borderColor)
    try c.encodeIfPresent(opacity, forKey: .opacity)
    try c.encodeIfPresent(rotation, forKey: .rotation)
    try c.encodeIfPresent(zPosition, forKey: .zPosition)
    try c.encodeIfPresent(isHidden, forKey: .isHidden)
    try c.encodeIfPresent(masksToBounds, forKey: .masksToBounds)
    try c.encodeIfPresent(shape, forKey: .shape)
    try c.encodeIfPresent(fill, forKey: .fill)
    try c.encodeIfPresent(fillRule, forKey: .fillRule)
    try c.encodeIfPresent(stroke, forKey: .stroke)
    try c.encodeIfPresent(lineWidth, forKey: .lineWidth)
    try c.encodeIfPresent(image, forKey: .image)
    try c.encodeIfPresent(gravity, forKey: .gravity)
    try c.encodeIfPresent(water, forKey: .water)
    try c.encodeIfPresent(motionEffects, forKey: .motionEffects)
    try c.encodeIfPresent(sublayers, forKey: .sublayers)
  }
}
