import Foundation
import SwellEffects
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRecordings
import SwellWaves

/// A scene run from a ``SceneFile``: its layer tree, every water wave driven by its own
/// `SwellWaves/WaterMotionResponse` through a `SwellWaves/WaterWaveApplicator`, and the layers'
/// motion effects driven by one `SwellEffects/ViewerOffsetEngine` through a
/// `SwellEffects/MotionEffectApplicator` for the file's interface orientation: two engines of
/// one shape (motion and time in, presentation values out, written by an applicator).
///
/// Each motion sample goes to every water response and to the engine; each frame advances them
/// to the frame's target time and applies what they return.
/// Deterministic: given the same motion and frames, the same presentation values.
///
/// Physical waters (the `physical` response) are `SwellWaves/WaterBodyLayer`s driven by a
/// `SwellWaves/WaterBodyResponse` each, through a `SwellWaves/WaterBodyApplicator`.
///
/// Traced values: the file's `trace` list, or by default each water's
/// `NAME.transform.rotation.z`, `NAME.amplitude`, `NAME.phase` (a physical water adds
/// `NAME.surface.angle` and `NAME.volume`), then (with motion effects)
/// `offset.horizontal`, `offset.vertical` and `LAYER.position.x`, `LAYER.position.y` for each
/// named layer with effects.
public final class FileScene: Scene {
  /// The description the scene was built from (with the options applied; laid out again by
  /// ``layOut(size:scale:)``).
  public private(set) var file: SceneFile
  /// The scene's name (the file's `name`).
  public var name: String { file.name }
  /// The canvas size, points: the interface's (`SceneFile/interfaceSize`, the file's canvas
  /// with width and height swapped in landscape).
  public var size: Size { file.interfaceSize }
  /// Pixels per point.
  public var scale: Double { file.canvas.scale }
  /// The canvas background colour.
  public var background: Color { file.canvas.background.color }
  /// The interface orientation (the file's `orientation`, portrait by default).
  public var orientation: InterfaceOrientation { file.orientation ?? .portrait }
  /// The root layer; its bounds are the canvas (replaced by ``layOut(size:scale:)``).
  public private(set) var root: Layer
  /// The water layers, one per `waterWave` layer, in file order.
  public private(set) var waterLayers: [WaterWaveLayer]
  /// The water responses, one per water layer, in the same order.
  public private(set) var waterResponses: [WaterMotionResponse]
  /// The applicator of the water responses.
  public let waterApplicator = WaterWaveApplicator()
  /// The physical waters (`waterWave` layers with the `physical` response), in file order.
  public private(set) var waterBodyLayers: [WaterBodyLayer]
  /// Their responses, in the same order.
  public private(set) var waterBodyResponses: [WaterBodyResponse]
  /// The applicator of the physical waters' surfaces.
  public let waterBodyApplicator = WaterBodyApplicator()
  /// The layers with motion effects, in file order.
  public private(set) var effectLayers: [Layer]
  /// The viewer-offset engine (it runs only when some layer has motion effects).
  public private(set) var engine: ViewerOffsetEngine
  /// The applicator, for the scene's interface orientation (it rotates the device-frame offset
  /// as UIKit's `_UIMotionEffectApplicator` does).
  public let applicator: MotionEffectApplicator
  /// The traced values, in column order after `time`.
  public let traceKeys: [String]
  /// Whether ``layOut(size:scale:)`` can lay the scene out for another canvas: true for a scene
  /// with a layout function (the built-in `homescreen`) and for a file whose top-level layers
  /// all lack a `frame` (each covers the canvas, as the built-in `waterwave`); false when a
  /// top-level layer has a fixed frame, whose place on another canvas the file does not say.
  public var isResizable: Bool { layout != nil || sourceFile.layers.allSatisfy { $0.frame == nil } }
  private let sourceFile: SceneFile
  private let options: SceneOptions
  private let baseDirectory: URL?
  private let layout: (@Sendable (SceneOptions) -> SceneFile)?
  private var lastWaterPresentations: [WaterPresentation?]
  private var cache: (time: Double, copies: [ObjectIdentifier: Layer])?
  /// The file's and options' own Reduce Motion, per water, per physical water and for the
  /// engine: what ``setSystemReduceMotion(_:)`` returns to.
  private var ownReduceMotion: (waters: [Bool], bodies: [Bool], engine: Bool)
  /// Whether the system asks for reduced motion (``setSystemReduceMotion(_:)``; `false` until
  /// it is called).
  public private(set) var isSystemReduceMotionEnabled = false

  /// Builds a scene from a description.
  ///
  /// - Parameters:
  ///   - file: A validated description (``SceneFile/load(from:)`` or ``SceneFile/decode(_:source:)``
  ///     validate; for a hand-made value call ``SceneFile/validate(source:)`` first).
  ///   - options: Canvas overrides, the orientation, the seed-exact rule, the water response and
  ///     Reduce Motion.
  ///   - baseDirectory: The folder relative image paths are resolved against.
  ///   - layout: Lays the scene out for other options' canvas (their `width`, `height`, `scale`
  ///     and `orientation`), as the built-in `homescreen` does; `nil` (the default) keeps
  ///     `file`'s layers and only changes its canvas.
  public init(
    file: SceneFile, options: SceneOptions = SceneOptions(), baseDirectory: URL? = nil,
    layout: (@Sendable (SceneOptions) -> SceneFile)? = nil
  ) {
    sourceFile = file
    self.options = options
    self.baseDirectory = baseDirectory
    self.layout = layout
    let f = file.applying(options)
    self.file = f
    let tree = f.makeLayerTree(baseDirectory: baseDirectory)
    root = tree.root
    waterLayers = tree.waters.map(\.layer)
    waterResponses = tree.waters.map { WaterMotionResponse(for: $0.layer, options: $0.options) }
    lastWaterPresentations = Array(repeating: nil, count: tree.waters.count)
    for (layer, response) in zip(waterLayers, waterResponses) {
      layer.isPhaseFrozen = response.options.reduceMotion
    }
    waterBodyLayers = tree.waterBodies.map(\.layer)
    waterBodyResponses = tree.waterBodies.map {
      WaterBodyResponse(for: $0.layer, options: $0.options)
    }
    for (layer, response) in zip(waterBodyLayers, waterBodyResponses) {
      layer.isPhaseFrozen = response.options.reduceMotion
    }
    effectLayers = tree.effectLayers
    engine = ViewerOffsetEngine(configuration: f.viewerOffset?.configuration ?? .init())
    ownReduceMotion = (
      tree.waters.map(\.options.reduceMotion), tree.waterBodies.map(\.options.reduceMotion),
      engine.configuration.reduceMotion
    )
    applicator = MotionEffectApplicator(interfaceOrientation: f.orientation ?? .portrait)
    if let keys = f.trace {
      traceKeys = keys
    } else {
      var keys: [String] = []
      for layer in waterLayers {
        let n = layer.name ?? "water"
        keys += ["\(n).transform.rotation.z", "\(n).amplitude", "\(n).phase"]
      }
      for layer in waterBodyLayers {
        let n = layer.name ?? "water"
        keys += ["\(n).transform.rotation.z", "\(n).amplitude", "\(n).phase"]
        keys += ["\(n).surface.angle", "\(n).volume"]
      }
      if !effectLayers.isEmpty {
        keys += ["offset.horizontal", "offset.vertical"]
        for l in effectLayers {
          if let n = l.name, !n.contains(".") { keys += ["\(n).position.x", "\(n).position.y"] }
        }
      }
      traceKeys = keys
    }
  }

  /// Lays the scene out for another canvas, keeping everything motion has done: the layer tree
  /// is built again for the new size (the built-in `homescreen` lays out its grid and dock for
  /// it, frameless layers such as the `waterwave` water cover it), while the viewer-offset
  /// engine, the water responses (their tilt, animations and amplitude; a sloshing tank takes
  /// the new width and depth) and the trace keys carry on. The latest water presentations and
  /// viewer offset are applied to the new layers at once, so the next frame continues where the
  /// last one was. What a live view does when its window or terminal takes another shape.
  ///
  /// Does nothing unless ``isResizable``, or when the size and scale are those of the canvas.
  ///
  /// - Parameters:
  ///   - size: The interface's canvas, points (positive, finite).
  ///   - scale: Pixels per point (positive, finite).
  public func layOut(size: Size, scale: Double) {
    guard isResizable, size.width > 0, size.height > 0, size.width.isFinite,
      size.height.isFinite, scale > 0, scale.isFinite
    else { return }
    guard size != self.size || scale != self.scale else { return }
    var o = options
    // The options hold the device's portrait canvas.
    (o.width, o.height) =
      orientation.isLandscape ? (size.height, size.width) : (size.width, size.height)
    o.scale = scale
    o.orientation = orientation
    let f = (layout?(o) ?? sourceFile).applying(o)
    let tree = f.makeLayerTree(baseDirectory: baseDirectory)
    guard tree.waters.count == waterLayers.count,
      tree.waterBodies.count == waterBodyLayers.count
    else { return }
    file = f
    root = tree.root
    waterLayers = tree.waters.map(\.layer)
    effectLayers = tree.effectLayers
    for i in waterLayers.indices {
      let layer = waterLayers[i]
      layer.isPhaseFrozen = waterResponses[i].options.reduceMotion
      waterResponses[i].resize(to: layer.visibleSize, fillLevel: layer.fillLevel)
      if let shown = lastWaterPresentations[i] { waterApplicator.apply(shown, to: layer) }
    }
    // A physical water starts again at rest in its new container (a new size is a new tank).
    waterBodyLayers = tree.waterBodies.map(\.layer)
    waterBodyResponses = tree.waterBodies.map {
      WaterBodyResponse(for: $0.layer, options: $0.options)
    }
    ownReduceMotion.bodies = tree.waterBodies.map(\.options.reduceMotion)
    if isSystemReduceMotionEnabled {
      for i in waterBodyResponses.indices { waterBodyResponses[i].setReduceMotion(true) }
    }
    for (layer, response) in zip(waterBodyLayers, waterBodyResponses) {
      layer.isPhaseFrozen = response.options.reduceMotion
    }
    if !effectLayers.isEmpty { applicator.apply(engine.appliedOffset, to: root) }
    cache = nil
  }

  /// Follows the system's Reduce Motion setting: while it is on, every water rests (its initial
  /// tilt, no extra amplitude, its phase still; a physical water's surface at rest) and the
  /// viewer offset is (0, 0), as with ``SceneOptions/reduceMotion``; off returns each water and
  /// the engine to the file's own `reduceMotion`, and a water that starts moving again starts
  /// at rest (`SwellWaves/WaterMotionResponse/setReduceMotion(_:)`). Takes effect at the next
  /// frame.
  ///
  /// - Parameter enabled: Whether the system asks for reduced motion.
  public func setSystemReduceMotion(_ enabled: Bool) {
    guard enabled != isSystemReduceMotionEnabled else { return }
    isSystemReduceMotionEnabled = enabled
    for i in waterResponses.indices {
      waterResponses[i].setReduceMotion(enabled || ownReduceMotion.waters[i])
    }
    for i in waterBodyResponses.indices {
      waterBodyResponses[i].setReduceMotion(enabled || ownReduceMotion.bodies[i])
      waterBodyLayers[i].isPhaseFrozen = waterBodyResponses[i].options.reduceMotion
    }
    engine.configuration.reduceMotion = enabled || ownReduceMotion.engine
    if !effectLayers.isEmpty { applicator.apply(engine.appliedOffset, to: root) }
    cache = nil
  }

  /// Reads a scene file and builds its scene; relative image paths resolve against the file's
  /// folder.
  ///
  /// - Parameters:
  ///   - url: The JSON file.
  ///   - options: Canvas overrides and motion options.
  /// - Throws: ``SceneFileError`` naming the file and the JSON path of the bad field.
  public convenience init(contentsOf url: URL, options: SceneOptions = SceneOptions()) throws {
    let file = try SceneFile.load(from: url)
    try file.applying(options).validate(source: url.path)
    let base = url.deletingLastPathComponent()
    try Self.checkImages(file.layers, prefix: "layers", base: base, source: url.path)
    self.init(file: file, options: options, baseDirectory: base)
    for (i, key) in (file.trace ?? []).enumerated() where traceValue(key, at: 0) == nil {
      let layerName = key.split(separator: ".", maxSplits: 1).first.map(String.init) ?? key
      let why =
        key.contains(".") && root.layer(named: layerName) != nil
        ? "'\(key)' is not a numeric value of layer '\(layerName)'"
        : "'\(key)' names no layer (LAYER.KEYPATH, offset.horizontal or offset.vertical)"
      throw SceneFileError("\(url.path): trace[\(i)]: \(why)")
    }
  }

  /// Checks that every image layer's file exists and is a PNG, naming the JSON path otherwise.
  private static func checkImages(
    _ specs: [LayerSpec], prefix: String, base: URL, source: String
  ) throws {
    for (i, s) in specs.enumerated() {
      let p = "\(prefix)[\(i)]"
      if s.type == .image, let image = s.image {
        let path = image.hasPrefix("/") ? image : base.appendingPathComponent(image).path
        var info = stat()
        guard stat(path, &info) == 0 else {
          throw SceneFileError("\(source): \(p).image: no such file '\(path)'")
        }
        guard (info.st_mode & S_IFMT) != S_IFDIR else {
          throw SceneFileError("\(source): \(p).image: '\(path)' is a folder, not a PNG file")
        }
        // A FIFO or a device would block the open or the read: only regular files are read.
        guard (info.st_mode & S_IFMT) == S_IFREG else {
          throw SceneFileError("\(source): \(p).image: '\(path)' is not a regular file")
        }
        // The signature and the IHDR chunk: width and height are bytes 16-23, big-endian.
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let head = FileHandle(forReadingAtPath: path).flatMap { h in
          defer { try? h.close() }
          return try? h.read(upToCount: 24)
        }
        guard let head, head.count == 24, [UInt8](head.prefix(8)) == signature else {
          throw SceneFileError("\(source): \(p).image: '\(path)' is not a readable PNG file")
        }
        let bytes = [UInt8](head)
        func u32(_ i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let pixels = Double(u32(16)) * Double(u32(20))
        guard pixels <= Double(SceneLimits.maximumImagePixels) else {
          throw SceneFileError(
            "\(source): \(p).image: '\(path)' is \(u32(16))×\(u32(20)) pixels, more than the "
              + "limit of \(SceneLimits.maximumImagePixels)")
        }
      }
      try checkImages(s.sublayers ?? [], prefix: "\(p).sublayers", base: base, source: source)
    }
  }

  /// Feeds a sample to every water and to the viewer-offset engine. The waters get it in the
  /// interface's axes (gravity, user acceleration and rotation rate turned by
  /// `SwellEffects/InterfaceOrientation/interfaceVector(fromDevice:)`), so their tilt is level
  /// with the world in any orientation; the engine gets the device-frame sample, and the
  /// applicator rotates its offset.
  ///
  /// - Parameter motion: The sample, CoreMotion units, device frame.
  public func receive(_ motion: DeviceMotion) {
    if !waterResponses.isEmpty || !waterBodyResponses.isEmpty {
      var m = motion
      let o = orientation
      if o != .portrait {
        m.gravity = o.interfaceVector(fromDevice: m.gravity)
        m.userAcceleration = o.interfaceVector(fromDevice: m.userAcceleration)
        m.rotationRate = o.interfaceVector(fromDevice: m.rotationRate)
      }
      for i in waterResponses.indices { waterResponses[i].receive(m) }
      for i in waterBodyResponses.indices { waterBodyResponses[i].receive(m) }
    }
    if !effectLayers.isEmpty { engine.receive(motion) }
    cache = nil
  }

  /// Advances the waters to the frame's target time and applies a due viewer offset.
  ///
  /// - Parameter frame: The frame.
  public func advance(to frame: DisplayLinkFrame) {
    for i in waterResponses.indices {
      let shown = waterResponses[i].advance(to: frame.targetTimestamp)
      waterApplicator.apply(shown, to: waterLayers[i])
      lastWaterPresentations[i] = shown
    }
    for i in waterBodyResponses.indices {
      let surface = waterBodyResponses[i].advance(to: frame.targetTimestamp)
      waterBodyApplicator.apply(surface, to: waterBodyLayers[i])
    }
    if !effectLayers.isEmpty, let offset = engine.advance(to: frame.targetTimestamp) {
      applicator.apply(offset, to: root)
    }
    cache = nil
  }

  /// Makes the current attitude the viewer offset's neutral pose, as the live view's `r` key
  /// does: the engine forgets its reference and takes the latest attitude it received as the
  /// new neutral pose, so the offset is (0, 0) again (UIKit's `_UIMotionAttitudeAnalyzer`
  /// re-centres only slowly, at about 2°/s, as measured from iOS 26.1; this is the immediate
  /// version). The (0, 0) offset is applied to the
  /// layers at once; later samples move the offset from the new neutral pose.
  ///
  /// - Parameter time: The scene time of the request, seconds (the last frame's time or later;
  ///   the next frame's target time must not be earlier).
  public func recenterViewerOffset(at time: Double) {
    let latest = engine.analyzer.attitude
    let latestTime = engine.analyzer.timestamp
    engine.reset()
    if let latest, let latestTime {
      engine.receive(attitude: Attitude(quaternion: latest), timestamp: latestTime)
    }
    if !effectLayers.isEmpty, let offset = engine.advance(to: time) {
      applicator.apply(offset, to: root)
    }
    cache = nil
  }

  /// A traced value: `offset.horizontal` / `offset.vertical` (the applied viewer offset in the
  /// interface's axes, −1...1) or the presentation value of `LAYER.KEYPATH` (angles in (−π, π]).
  ///
  /// - Parameters:
  ///   - key: A trace key.
  ///   - time: Seconds (the frame's target time).
  /// - Returns: The value, or `nil` for an unknown key.
  public func traceValue(_ key: String, at time: Double) -> Double? {
    switch key {
    case "offset.horizontal": return applicator.pose(for: engine.appliedOffset).horizontal
    case "offset.vertical": return applicator.pose(for: engine.appliedOffset).vertical
    default: break
    }
    guard let dot = key.firstIndex(of: "."),
      let layer = root.layer(named: String(key[..<dot]))
    else { return nil }
    let path = String(key[key.index(after: dot)...])
    var copies = cache.flatMap { $0.time == time ? $0.copies : nil } ?? [:]
    let copy: Layer
    if let c = copies[ObjectIdentifier(layer)] {
      copy = c
    } else {
      copy = layer.presentationCopy(at: time)
      copies[ObjectIdentifier(layer)] = copy
      cache = (time, copies)
    }
    guard case .number(let v) = copy.value(forKeyPath: path) else { return nil }
    return path.contains("rotation") ? wrappedAngle(v) : v
  }
}
