import SwellGeometry
import SwellWaves

/// The vessel of a `physical` water in a scene file (`SwellWaves/WaterContainer`):
///
/// ```json
/// "container": {"shape": {"kind": "path", "d": "M 0 0 L 0 240 A 90 90 0 0 0 180 240 L 180 0 Z"},
///               "widthCentimetres": 7, "open": true}
/// ```
///
/// The shape is in the water layer's bounds space (points, origin top left, y down), as a
/// `shape` layer's; `widthCentimetres` is the real width of its bounding box, which sets the
/// physics' scale (how fast the water sloshes). Both may be left out: the layer's bounds, at
/// 1/160 inch per point (an iPhone's). `open` (default `false`: a closed vessel, whose water
/// falls to whichever side is down) makes the outline's straight top edge an opening, like a
/// glass's: turned past its tipping angle the glass pours over its rim (weir flow; nothing
/// within 5° of lying flat), and it refills when it stands upright again (`SwellWaves/WaterContainer/isOpen`).
public struct WaterContainerSpec: Codable, Sendable, Hashable {
  /// The outline (default: a rectangle filling the layer's bounds).
  public var shape: ShapeSpec?
  /// The real width of the outline's bounding box, centimetres (default: the width in points at
  /// 1/160 inch per point).
  public var widthCentimetres: Double?
  /// Whether the container is open at its top edge, like a glass (default `false`: closed).
  public var open: Bool?

  /// Creates a container description.
  ///
  /// - Parameters:
  ///   - shape: The outline, or `nil` for the layer's bounds.
  ///   - widthCentimetres: The real width, or `nil` for 1/160 inch per point.
  ///   - open: Whether the top edge is an opening, or `nil` for a closed container.
  public init(shape: ShapeSpec? = nil, widthCentimetres: Double? = nil, open: Bool? = nil) {
    self.shape = shape
    self.widthCentimetres = widthCentimetres
    self.open = open
  }

  /// The container for a layer of a size, or `nil` when the outline encloses no area.
  ///
  /// - Parameter size: The water layer's size, points.
  /// - Returns: The container.
  public func container(in size: Size) -> WaterContainer? {
    let path = (shape ?? .rect(cornerRadius: 0)).path(in: size)
    var container =
      widthCentimetres.map { WaterContainer(outline: path, widthCentimetres: $0) }
      ?? WaterContainer(outline: path)
    container?.isOpen = open ?? false
    return container
  }
}

extension WaterResponseSpec {
  /// The options of the `physical` response with every default filled in.
  public var physicalOptions: PhysicalWaterOptions {
    var o = PhysicalWaterOptions()
    if let dampingRatio { o.dampingRatio = dampingRatio }
    if let rotationCoupling { o.rotationCoupling = rotationCoupling }
    if let reduceMotion { o.reduceMotion = reduceMotion }
    return o
  }
}

extension WaterSpec {
  /// The physical water layer of this description for a layer of a size (call only on a
  /// validated description; a container without area falls back to the layer's bounds).
  ///
  /// - Parameters:
  ///   - name: The layer's name.
  ///   - size: The layer's size, points.
  /// - Returns: The layer at rest.
  func makeWaterBodyLayer(name: String, size: Size) -> WaterBodyLayer {
    let bounds = Rect(x: 0, y: 0, width: max(size.width, 1), height: max(size.height, 1))
    guard
      let vessel = (container ?? WaterContainerSpec()).container(in: size)
        ?? WaterContainer(rect: bounds)
    else { preconditionFailure("a rectangle of at least 1 × 1 point encloses an area") }
    var p = WaterBody.Parameters(fillFraction: fillLevel)
    p.sampleSpacing = sampleSpacing ?? 2.5
    let options = (response ?? WaterResponseSpec()).physicalOptions
    p.dampingRatio = options.dampingRatio
    p.rotationCoupling = options.rotationCoupling
    return WaterBodyLayer(
      name: name, container: vessel, parameters: p, waves: waves.map(\.sineWave), size: size)
  }

  /// Checks the fields of the `physical` response and the container.
  ///
  /// - Parameters:
  ///   - p: The JSON path of the water.
  ///   - size: The water layer's size, points (its frame, or the canvas).
  ///   - check: Throws the message for a failed condition at a JSON path.
  /// - Throws: What `check` throws for the first failed condition.
  func validatePhysical(
    path p: String, size: Size?, check: (Bool, String, String) throws -> Void
  ) throws {
    if let r = response {
      if let v = r.dampingRatio {
        try check(
          v.isFinite && v >= 0 && v <= 0.95, "\(p).response.dampingRatio", "must be 0...0.95")
      }
      if let v = r.rotationCoupling {
        try check(v.isFinite && v >= 0 && v <= 1, "\(p).response.rotationCoupling", "must be 0...1")
      }
    }
    guard let c = container else { return }
    if let w = c.widthCentimetres {
      try check(
        w.isFinite && w > 0 && w <= 10_000, "\(p).container.widthCentimetres",
        "must be more than 0 and at most 10000 centimetres")
    }
    if let size, c.shape != nil, response?.model == .physical {
      try check(
        c.container(in: size) != nil, "\(p).container.shape",
        "the outline must enclose an area (a closed path in the layer's bounds)")
    }
    if let size, c.open == true, let vessel = c.container(in: size) {
      let rim = vessel.rim
      try check(
        rim.count == 2 && rim[0].distance(to: rim[1]) >= 1, "\(p).container.open",
        "an open container needs a straight top edge at least 1 point wide (its opening); "
          + "this outline's top is a single point")
    }
  }
}
