import Foundation
import SwellGeometry
import SwellWaves

/// The resources one scene may ask for, checked by ``SceneFile/validate(source:)`` before any
/// layer, wave path or frame is allocated (`docs/limits.md`). A scene past a limit is refused with
/// the file, the JSON path and the limit.
public enum SceneLimits {
  /// The largest scene file, bytes (16 MiB).
  public static let maximumFileSize = 16 << 20
  /// The most pixels in one frame: canvas width × height in points times the scale squared
  /// (40,000,000, 160 MB of ARGB32; a 1170×2532-point canvas at scale 3 is 26.7 million).
  public static let maximumCanvasPixels = 40_000_000
  /// The most layers in a scene, sublayers included (10,000).
  public static let maximumLayers = 10_000
  /// The most sine waves in one `waterWave` layer (64).
  public static let maximumWavesPerWater = 64
  /// The most wave-surface samples in a scene, summed over every wave (2,000,000 points; one
  /// wave samples its water's width plus overscan every `sampleSpacing` points).
  public static let maximumWaveSamples = 2_000_000
  /// The most points (path elements) in one shape (50,000).
  public static let maximumPathPoints = 50_000
  /// The most path points in a scene, summed over every shape (250,000).
  public static let maximumScenePathPoints = 250_000
  /// The most motion effects attached to one layer (1,000).
  public static let maximumEffectsPerLayer = 1_000
  /// The most traced values (1,000).
  public static let maximumTraceKeys = 1_000
  /// The most pixels in an image layer's PNG (its IHDR width × height; 40,000,000).
  public static let maximumImagePixels = 40_000_000
}

extension SceneFile {
  /// Checks the scene's resources against ``SceneLimits``.
  ///
  /// - Parameter source: The name used in error messages.
  /// - Throws: ``SceneFileError`` naming the JSON path and the limit.
  func checkResources(source: String) throws {
    func fail(_ path: String, _ why: String) -> SceneFileError {
      SceneFileError("\(source): \(path): \(why)")
    }
    let pixels =
      (canvas.width * canvas.scale).rounded(.up)
      * (canvas.height * canvas.scale)
      .rounded(.up)
    guard pixels <= Double(SceneLimits.maximumCanvasPixels) else {
      throw fail(
        "canvas",
        "\(Int(canvas.width))×\(Int(canvas.height)) points at scale \(canvas.scale) is "
          + "\(Int(pixels)) pixels per frame, more than the limit of "
          + "\(SceneLimits.maximumCanvasPixels)")
    }
    if let trace, trace.count > SceneLimits.maximumTraceKeys {
      throw fail(
        "trace", "\(trace.count) values is more than the limit of \(SceneLimits.maximumTraceKeys)")
    }
    var layerCount = 0
    var waveSamples = 0
    var pathPoints = 0
    func walk(_ specs: [LayerSpec], _ prefix: String, parent: Size) throws {
      for (i, s) in specs.enumerated() {
        let p = "\(prefix)[\(i)]"
        layerCount += 1
        guard layerCount <= SceneLimits.maximumLayers else {
          throw fail(p, "more than \(SceneLimits.maximumLayers) layers in the scene (the limit)")
        }
        let size =
          s.frame.map { f in f.count == 4 ? Size(width: f[2], height: f[3]) : parent } ?? parent
        if let effects = s.motionEffects, effects.count > SceneLimits.maximumEffectsPerLayer {
          throw fail(
            "\(p).motionEffects",
            "\(effects.count) effects is more than the limit of "
              + "\(SceneLimits.maximumEffectsPerLayer) per layer")
        }
        if let water = s.water {
          guard water.waves.count <= SceneLimits.maximumWavesPerWater else {
            throw fail(
              "\(p).water.waves",
              "\(water.waves.count) waves is more than the limit of "
                + "\(SceneLimits.maximumWavesPerWater)")
          }
          let spacing = water.sampleSpacing ?? 2.5
          let overscan = WaterWave.overscan(for: size)
          let span = max(size.width + 2 * overscan, 0)
          let perWave = (span / spacing).rounded(.up) + 2
          let samples = perWave * Double(water.waves.count)
          guard perWave.isFinite,
            Double(waveSamples) + samples <= Double(SceneLimits.maximumWaveSamples)
          else {
            throw fail(
              "\(p).water",
              "its waves would sample \(Self.count(samples)) points (width "
                + "\(Self.count(size.width)) points every \(spacing) points, "
                + "\(water.waves.count) waves), more than the scene's limit of "
                + "\(SceneLimits.maximumWaveSamples); raise sampleSpacing or narrow the layer")
          }
          waveSamples += Int(samples)
        }
        if let shape = s.shape {
          let points: Int
          switch shape {
          case .polygon(let list, _): points = list.count
          case .path(let path): points = path.elements.count
          case .pathData(let data): points = data.path.elements.count
          case .rect, .ellipse: points = 0
          }
          guard points <= SceneLimits.maximumPathPoints else {
            throw fail(
              "\(p).shape",
              "\(points) points is more than the limit of \(SceneLimits.maximumPathPoints) per shape"
            )
          }
          pathPoints += points
          guard pathPoints <= SceneLimits.maximumScenePathPoints else {
            throw fail(
              "\(p).shape",
              "more than \(SceneLimits.maximumScenePathPoints) path points in the scene (the limit)"
            )
          }
        }
        if let subs = s.sublayers { try walk(subs, "\(p).sublayers", parent: size) }
      }
    }
    try walk(layers, "layers", parent: Size(width: canvas.width, height: canvas.height))
  }

  /// A count for a message: whole numbers without a fraction, huge ones in exponent form.
  private static func count(_ v: Double) -> String {
    v.isFinite && abs(v) < 1e15 ? String(Int(v.rounded())) : "\(v)"
  }
}
