import SwellGeometry

/// A colour stop of a gradient.
public struct GradientStop: Hashable, Sendable, Codable {
  /// Where the stop sits along the gradient axis, 0...1.
  public var location: Double
  /// The colour at the stop.
  public var color: Color

  /// Creates a stop.
  ///
  /// - Parameters:
  ///   - location: 0...1 along the axis.
  ///   - color: The colour.
  public init(location: Double, color: Color) {
    self.location = location
    self.color = color
  }
}

/// A linear gradient, like `CAGradientLayer`'s: stops along an axis from `startPoint` to
/// `endPoint`, both in **unit coordinates** of the layer's bounds ((0, 0) top left).
public struct LinearGradient: Hashable, Sendable, Codable {
  /// Where the axis of a gradient lives.
  public enum Space: String, Hashable, Sendable, Codable {
    /// The axis is in the layer's own space and turns with the layer's transform.
    case layer
    /// The axis stays **vertical on screen** from the top to the bottom of the layer's on-screen
    /// bounding box, whatever the layer's rotation (start/end x are ignored; y picks the span).
    /// This keeps Cairo on its fast path (about 4× faster than a rotated gradient) and is how
    /// water looks: darker with depth, not with the tilt.
    case screenVertical
  }

  /// The colour stops, in increasing location.
  public var stops: [GradientStop]
  /// The axis start, unit coordinates of the bounds.
  public var startPoint: Point
  /// The axis end, unit coordinates of the bounds.
  public var endPoint: Point
  /// The space the axis lives in.
  public var space: Space

  /// Creates a gradient.
  ///
  /// - Parameters:
  ///   - stops: The colour stops.
  ///   - startPoint: Axis start, unit coordinates (default top centre).
  ///   - endPoint: Axis end, unit coordinates (default bottom centre).
  ///   - space: The axis space (default `.layer`).
  public init(
    stops: [GradientStop], startPoint: Point = Point(x: 0.5, y: 0),
    endPoint: Point = Point(x: 0.5, y: 1), space: Space = .layer
  ) {
    self.stops = stops
    self.startPoint = startPoint
    self.endPoint = endPoint
    self.space = space
  }

  /// A two-colour vertical gradient.
  ///
  /// - Parameters:
  ///   - top: The colour at the top.
  ///   - bottom: The colour at the bottom.
  ///   - space: The axis space.
  /// - Returns: The gradient.
  public static func vertical(from top: Color, to bottom: Color, space: Space = .layer)
    -> LinearGradient
  {
    LinearGradient(
      stops: [GradientStop(location: 0, color: top), GradientStop(location: 1, color: bottom)],
      space: space)
  }

  /// The colour at a position along the axis (stops interpolated linearly, clamped at the ends).
  ///
  /// - Parameter location: 0...1 along the axis.
  /// - Returns: The colour there.
  public func color(at location: Double) -> Color {
    guard let first = stops.first, let last = stops.last else { return .clear }
    if location <= first.location { return first.color }
    if location >= last.location { return last.color }
    for (a, b) in zip(stops, stops.dropFirst()) where location <= b.location {
      let span = b.location - a.location
      let t = span > 0 ? (location - a.location) / span : 1
      return a.color.interpolated(to: b.color, fraction: t)
    }
    return last.color
  }
}

/// How a path's inside is decided.
public enum FillRule: String, Hashable, Sendable, Codable {
  /// The non-zero winding rule (Core Animation's default).
  case nonZero
  /// The even-odd rule.
  case evenOdd
}

/// A layer that draws a path, like `CAShapeLayer`: filled with a colour or a linear gradient,
/// optionally stroked. The path is in the layer's bounds space, points.
open class ShapeLayer: Layer {
  /// The shape, in the layer's bounds space, points.
  public var path: Path?

  /// ``LayerContent/shape(_:)``: this layer's path, fill and stroke.
  override open var drawnContent: LayerContent { .shape(self) }
  /// The fill colour, or `nil` for no solid fill (default opaque black, as Core Animation).
  public var fillColor: Color? = .black
  /// A gradient fill; when set it replaces ``fillColor``.
  public var fillGradient: LinearGradient?
  /// The fill rule.
  public var fillRule: FillRule = .nonZero
  /// The stroke colour, or `nil` for no stroke.
  public var strokeColor: Color?
  /// The stroke width, points.
  public var lineWidth: Double = 1

  /// Creates an empty shape layer.
  public override init() { super.init() }

  /// A copy of the shape's properties.
  ///
  /// - Returns: A detached shape layer.
  open override func copyLayer() -> Layer {
    let l = ShapeLayer()
    copyShapeProperties(to: l)
    return l
  }

  /// Copies the base and shape properties onto another shape layer (for subclasses' copies).
  ///
  /// - Parameter l: The destination.
  public final func copyShapeProperties(to l: ShapeLayer) {
    copyProperties(to: l)
    l.path = path
    l.fillColor = fillColor
    l.fillGradient = fillGradient
    l.fillRule = fillRule
    l.strokeColor = strokeColor
    l.lineWidth = lineWidth
  }

  /// The base key paths with `fillColor`, `strokeColor` (colours) and `lineWidth` (points).
  open override var supportedKeyPaths: [String: LayerValueKind] {
    super.supportedKeyPaths.merging(
      ["fillColor": .color, "strokeColor": .color, "lineWidth": .number]
    ) { a, _ in a }
  }

  /// Adds `fillColor`, `strokeColor` and `lineWidth` to the base key paths.
  ///
  /// - Parameter keyPath: The key path.
  /// - Returns: The value, or `nil`.
  open override func value(forKeyPath keyPath: String) -> LayerValue? {
    switch LayerKeyPath.canonical(keyPath) {
    case "fillColor": .color(fillColor ?? .clear)
    case "strokeColor": .color(strokeColor ?? .clear)
    case "lineWidth": .number(lineWidth)
    default: super.value(forKeyPath: keyPath)
    }
  }

  /// Sets `fillColor`, `strokeColor`, `lineWidth` or a base key path.
  ///
  /// - Parameters:
  ///   - value: The value.
  ///   - keyPath: The key path.
  /// - Returns: Whether it was set.
  @discardableResult
  open override func setValue(_ value: LayerValue, forKeyPath keyPath: String) -> Bool {
    switch (LayerKeyPath.canonical(keyPath), value) {
    case ("fillColor", .color(let c)): fillColor = c
    case ("strokeColor", .color(let c)): strokeColor = c
    case ("lineWidth", .number(let v)): lineWidth = v
    default: return super.setValue(value, forKeyPath: keyPath)
    }
    return true
  }
}

/// A layer that shows a PNG image scaled into its bounds (`CALayer.contents`).
open class ImageLayer: Layer {
  /// ``LayerContent/image(_:)``: this layer's image.
  override open var drawnContent: LayerContent { .image(self) }

  /// How the image fits the bounds (`contentsGravity`).
  public enum Gravity: String, Hashable, Sendable, Codable {
    /// Stretch to fill the bounds.
    case resize
    /// Keep the aspect ratio and fit inside the bounds.
    case resizeAspect
    /// Keep the aspect ratio and fill the bounds (cropping).
    case resizeAspectFill
  }

  /// The PNG file to show (absolute, or relative to the current directory).
  public var imagePath: String?
  /// How the image fits the bounds.
  public var gravity: Gravity = .resize

  /// Creates an empty image layer.
  public override init() { super.init() }

  /// A copy of the image layer's properties.
  ///
  /// - Returns: A detached image layer.
  open override func copyLayer() -> Layer {
    let l = ImageLayer()
    copyProperties(to: l)
    l.imagePath = imagePath
    l.gravity = gravity
    return l
  }
}

/// What a layer draws of its own, between its background and its sublayers: the one question a
/// renderer asks about a layer's kind (``Layer/drawnContent``), so a renderer in another module
/// needs no cast to a layer class, and a subclass written outside the package draws as the
/// kind it says it is.
public enum LayerContent {
  /// Nothing of its own: a plain layer (background, border and sublayers only).
  case none
  /// A shape layer's path, fill and stroke.
  case shape(ShapeLayer)
  /// An image layer's image.
  case image(ImageLayer)
}
