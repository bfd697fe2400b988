import Foundation
import SwellGeometry
import SwellRender
import SwellTestSupport
import Testing

// Shared helpers of the adversarial render suites (AdversarialRender*Tests.swift): a video's
// size and frame count from ffprobe (SwellTestSupport runs the Debian tools), a water-surface angle fit
// from pixels, and scene-file builders. The generators and one-line-failure checks they use live
// in AdversarialSupport.swift.

/// What ffprobe decodes from a video's first stream.
struct VideoProbe: Equatable {
  /// Pixels.
  var width: Int
  /// Pixels.
  var height: Int
  /// Decoded frames (`-count_frames`).
  var frames: Int
}

/// Decodes a video with ffprobe and counts its frames.
///
/// - Parameter path: The video.
/// - Returns: Its size and frame count, or `nil` when ffprobe cannot read it.
/// - Throws: An error starting ffprobe.
func probeVideo(_ path: String) throws -> VideoProbe? {
  try probeVideoStream(path).map {
    VideoProbe(width: $0.width, height: $0.height, frames: $0.frames)
  }
}

/// The number of distinct colours among a grid of sampled pixels.
///
/// - Parameter image: The picture.
/// - Returns: How many different pixels a 16 × 16 sample grid holds.
func distinctColours(_ image: ImageSurface) -> Int {
  var seen = Set<Pixel>()
  for j in 0..<16 {
    for i in 0..<16 {
      let x = i * (image.pixelWidth - 1) / 15
      let y = j * (image.pixelHeight - 1) / 15
      if let p = image.pixel(x: x, y: y) { seen.insert(p) }
    }
  }
  return seen.count
}

/// Writes a PNG of one solid colour.
///
/// - Parameters:
///   - color: The colour.
///   - width: Pixels.
///   - height: Pixels.
///   - path: Where.
/// - Throws: A Cairo or file error.
func writeSolidPNG(_ color: Color, width: Int, height: Int, to path: String) throws {
  let image = try ImageSurface(pixelWidth: width, pixelHeight: height)
  let cr = try CairoContext(surface: image)
  cr.setSource(color)
  cr.paint()
  image.flush()
  try image.writePNG(to: path)
}

/// A scene file of one flat (amplitude 0) water in pure blue under a white sky, half full.
///
/// - Parameters:
///   - width: Canvas width, points.
///   - height: Canvas height, points.
/// - Returns: The JSON text.
func flatBlueWaterScene(width: Int, height: Int) -> String {
  """
  {"swellScene": 1, "name": "flatblue",
   "canvas": {"width": \(width), "height": \(height), "scale": 1, "background": "#FFFFFF"},
   "layers": [{"type": "waterWave", "name": "water",
               "water": {"fillLevel": 0.5,
                         "waves": [{"amplitude": 0, "wavelength": 100, "phaseSpeed": 1,
                                    "fill": "#0000FF"}]}}]}
  """
}

/// Fits the water surface of a blue-on-white picture: for each pixel column, the sub-pixel row
/// where blue coverage first crosses one half (scanning down from the sky), then a least-squares
/// line through those points.
///
/// - Parameters:
///   - image: The picture (white sky, blue water below).
///   - columns: The pixel columns to use.
/// - Returns: The surface's on-screen angle in degrees (positive turns clockwise on screen, y
///   down) and the largest distance of a point from the line (pixels), or `nil` when fewer than
///   ten columns cross.
func waterSurfaceFit(_ image: ImageSurface, columns: ClosedRange<Int>) -> (
  degrees: Double, residual: Double
)? {
  var xs: [Double] = []
  var ys: [Double] = []
  for x in columns {
    var previous = 0.0
    // Start one row down: row 0 may already be water at steep angles; then there is no crossing.
    for y in 0..<image.pixelHeight {
      guard let p = image.pixel(x: x, y: y) else { return nil }
      let water = 1 - Double(p.red) / 255
      if water >= 0.5 {
        guard y > 0 else { break }
        let f = water - previous > 0 ? (0.5 - previous) / (water - previous) : 0
        xs.append(Double(x) + 0.5)
        ys.append(Double(y) - 1 + f + 0.5)
        break
      }
      previous = water
    }
  }
  guard xs.count >= 10 else { return nil }
  let n = Double(xs.count)
  let mx = xs.reduce(0, +) / n
  let my = ys.reduce(0, +) / n
  var sxy = 0.0
  var sxx = 0.0
  for (x, y) in zip(xs, ys) {
    sxy += (x - mx) * (y - my)
    sxx += (x - mx) * (x - mx)
  }
  let slope = sxy / sxx
  var residual = 0.0
  for (x, y) in zip(xs, ys) {
    residual = max(residual, abs(y - (my + slope * (x - mx))) / (1 + slope * slope).squareRoot())
  }
  return (atan(slope) * 180 / .pi, residual)
}

/// Sets (or, with `nil`, removes) a value at a path of keys and indices in decoded JSON.
///
/// - Parameters:
///   - root: The decoded JSON (objects and arrays).
///   - path: Keys (`String`) and indices (`Int`).
///   - value: The new value; `nil` removes the key.
/// - Returns: The changed JSON.
func settingJSON(_ root: Any, at path: [Any], to value: Any?) -> Any {
  guard let head = path.first else { return value ?? NSNull() }
  let rest = Array(path.dropFirst())
  if let key = head as? String, var object = root as? [String: Any] {
    if rest.isEmpty && value == nil {
      object.removeValue(forKey: key)
    } else {
      object[key] = settingJSON(object[key] ?? [String: Any](), at: rest, to: value)
    }
    return object
  }
  if let index = head as? Int, var array = root as? [Any], array.indices.contains(index) {
    array[index] = settingJSON(array[index], at: rest, to: value)
    return array
  }
  return root
}

/// A scene file that uses every documented field (docs/scenes.md), small enough to render fast:
/// a gradient wallpaper with a motion effect, a two-wave water with every response setting, and
/// a card with an ellipse, a rounded rectangle, a polygon, an SVG path and an image
/// (`img/logo.png` relative to the file).
let everyFieldScene = """
  {"swellScene": 1, "name": "everything",
   "canvas": {"width": 100, "height": 200, "scale": 1, "background": "#EDF5FF"},
   "viewerOffset": {"idiom": "phone", "deadBand": 0.01},
   "trace": ["water.transform.rotation.z", "water.amplitude", "offset.horizontal",
             "wallpaper.position.x"],
   "layers": [
    {"type": "shape", "name": "wallpaper", "frame": [-10, -10, 120, 220], "opacity": 0.9,
     "zPosition": -1,
     "fill": {"gradient": {"stops": [{"location": 0, "color": "#0B1A3A"},
                                     {"location": 1, "color": "#3A6FC4"}],
                           "startPoint": [0, 0], "endPoint": [1, 1], "space": "layer"}},
     "motionEffects": [
       {"effect": "interpolating", "keyPath": "center.x", "type": "tiltAlongHorizontalAxis",
        "minimumRelativeValue": -10, "maximumRelativeValue": 10}]},
    {"type": "waterWave", "name": "water", "frame": [0, 0, 100, 200],
     "water": {"fillLevel": 0.45, "sampleSpacing": 2,
       "waves": [
         {"amplitude": 6, "wavelength": 80, "phaseSpeed": 1.6, "initialPhase": 1.2,
          "fill": "#599EFA59"},
         {"amplitude": 4, "wavelength": 90, "phaseSpeed": 3,
          "fill": {"gradient": {"stops": [{"location": 0, "color": "#1F73EBEB"},
                                          {"location": 1, "color": "#052473FF"}],
                                "space": "screenVertical"}}}],
       "response": {"model": "classic", "tiltRule": "corrected", "tiltDuration": 1,
                    "tiltUpdateRate": 60, "amplitudeRiseTime": 0.06,
                    "amplitudeReleaseTime": 0.6, "amplitudePeakHold": 0.25,
                    "reduceMotion": false}}},
    {"type": "layer", "name": "card", "frame": [10, 20, 80, 60], "backgroundColor": "#FFFFFFCC",
     "cornerRadius": 8, "borderWidth": 1, "borderColor": "#FFF", "masksToBounds": true,
     "rotation": 0.1, "isHidden": false,
     "sublayers": [
       {"type": "shape", "name": "sun", "frame": [5, 5, 20, 20], "shape": {"kind": "ellipse"},
        "fill": "#FFC400"},
       {"type": "shape", "name": "box", "frame": [30, 5, 20, 20],
        "shape": {"kind": "rect", "cornerRadius": 3}, "fill": "#FF0000"},
       {"type": "shape", "name": "tri", "frame": [5, 30, 20, 20],
        "shape": {"kind": "polygon", "points": [[0, 0], [20, 0], [10, 15]], "closed": true},
        "fill": "#00FF00", "fillRule": "evenOdd"},
       {"type": "shape", "name": "arrow", "frame": [30, 30, 40, 25],
        "shape": {"kind": "path",
                  "d": "M 0 10 l 20 0 h 5 v -5 L 40 12 Q 30 20 25 25 C 20 25 10 20 0 15 z"},
        "fill": "#2E7D32", "stroke": "#1B5E20", "lineWidth": 2},
       {"type": "image", "name": "logo", "frame": [55, 5, 20, 20], "image": "img/logo.png",
        "gravity": "resizeAspect"}]}
   ]}
  """

/// Writes ``everyFieldScene`` (optionally changed) and its red `img/logo.png` into a folder.
///
/// - Parameters:
///   - folder: The folder.
///   - name: The scene file's name.
///   - path: Where to change the scene (keys and indices), if anywhere.
///   - value: The new value; `nil` removes the key.
/// - Returns: The scene file's path.
/// - Throws: A JSON or file error.
@discardableResult
func writeEveryFieldScene(
  in folder: URL, named name: String = "scene.json", changing path: [Any]? = nil,
  to value: Any? = nil
) throws -> String {
  let images = folder.appendingPathComponent("img")
  try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
  let logo = images.appendingPathComponent("logo.png").path
  if !FileManager.default.fileExists(atPath: logo) {
    try writeSolidPNG(Color(red: 1, green: 0, blue: 0), width: 4, height: 4, to: logo)
  }
  var json = try JSONSerialization.jsonObject(with: Data(everyFieldScene.utf8))
  if let path { json = settingJSON(json, at: path, to: value) }
  let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
  let url = folder.appendingPathComponent(name)
  try data.write(to: url)
  return url.path
}

/// Checks what every trace of any scene keeps: the row count, finite values, and frame times
/// `t₀ + i/fps` (the waterwave-specific bounds of ``checkTraceInvariants`` do not apply to
/// scene files with other waves).
///
/// - Parameters:
///   - table: The trace.
///   - fps: Frames per second.
///   - rows: The expected row count, when known.
///   - comment: Context for failures.
/// - Throws: When there is no time column.
func checkAnyTrace(_ table: TraceTable, fps: Double, rows: Int? = nil, _ comment: String) throws {
  if let rows { #expect(table.rows.count == rows, "\(comment): row count") }
  for (i, row) in table.rows.enumerated() where !row.allSatisfy({ $0.isFinite }) {
    Issue.record("\(comment): row \(i) not finite: \(row)")
    break
  }
  let times = try table.column("time")
  let t0 = times.first ?? 0
  let tolerance = 1e-9 + abs(t0) * 4e-16 + Double(times.count) * 1e-12
  for (i, t) in times.enumerated() where abs(t - (t0 + Double(i) / fps)) > tolerance {
    Issue.record("\(comment): frame \(i) at \(t), expected \(t0 + Double(i) / fps)")
    break
  }
}
