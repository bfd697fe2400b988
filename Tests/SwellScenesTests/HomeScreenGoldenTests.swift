import SwellGeometry
import SwellLayers
import SwellMotion
import SwellScenes
import SwellTestSupport
import Testing

/// Trace rows of the code-built home screen scene that `homescreen` was before it became a
/// scene file, recorded from it (time, offset.horizontal, offset.vertical, wallpaper.position.x,
/// wallpaper.position.y) and checked against the file scene when both existed: the file scene
/// must keep giving exactly these offsets. The positions were mirrored when the wallpaper became
/// recessed (its effects run from +40 at offset −1 to −40 at +1): each is now
/// `model − 40·offset`, snapped to whole pixels, where it was `model + 40·offset`.
private let goldenRows: [(script: String, fps: Double, rows: [[Double]])] = [
  (
    "hold 0.5s; rotate 25deg about y over 0.5s; hold 2s; tilt 30deg forward over 1s", 60,
    [
      [0.5, 0, 0, 195, 422],
      [1.0, 0.2618869695134578, 0, 184.66666666666666, 422],
      [2.0, 0.2461962851034527, 0, 185, 422],
      [3.0, 0.21517863115451297, 0, 186.33333333333334, 422],
      [3.5, 0.19081435883455966, -0.1549252568553301, 187.33333333333334, 428.3333333333333],
      [4.0, 0.1825265424712601, -0.29861770231773765, 187.66666666666666, 434],
    ]
  ),
  (
    "hold 0.3s; rotate 35deg about x over 0.3s; rotate 20deg about y over 0.4s; hold 1s", 30,
    [
      [0.4666666666666667, 0, 0.2110699496198657, 195, 413.6666666666667],
      [0.7, 0.026876781983311115, 0.37661722688501986, 194, 407],
      [
        0.9333333333333333, 0.1554699898602916, 0.36949388352520685, 188.66666666666666,
        407.3333333333333,
      ],
      [1.6333333333333333, 0.17452063469938972, 0.3521881144553579, 188, 408],
      [
        1.8666666666666667, 0.1682104549777903, 0.33840324384875, 188.33333333333334,
        408.3333333333333,
      ],
    ]
  ),
  (
    "shake x 3Hz 4rad/s for 2s; hold 1s", 120,
    [
      [0.375, 0, 0.06467128929611243, 195, 419.3333333333333],
      [1.5, 0, -0.00323795241698277, 195, 422],
      [1.875, 0, -0.06785404794789551, 195, 424.6666666666667],
      [3.0, 0, 0.00015276253266494066, 195, 422],
    ]
  ),
]

@Suite("homescreen scene file: golden values")
private struct HomeScreenGoldenTests {
  @Test("the trace keeps the recorded rows of the code-built scene", arguments: goldenRows.indices)
  func recordedRows(index: Int) throws {
    let (script, fps, golden) = goldenRows[index]
    let motion = try MotionScript(parsing: script).samples(rate: 100)
    let scene = try #require(BuiltInScenes.make("homescreen"))
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: fps)
    let span = (motion.last?.timestamp ?? 0) - (motion.first?.timestamp ?? 0)
    // Through the instant `span` itself (one frame past the export's last), where the last
    // golden rows were recorded.
    let rows = try driver.trace(frames: driver.frameCount(duration: span) + 1)
    for want in golden {
      let row = try #require(rows.first { abs($0[0] - want[0]) < 1e-9 }, "\(script): t \(want[0])")
      #expect(row == want, "\(script) @\(fps)")
    }
    for row in rows {
      // The recessed wallpaper sits at its model centre minus 40 points times the offset,
      // snapped to whole pixels (1/3 point at @3x).
      #expect(abs(row[3] - ((195 - 40 * row[1]) * 3).rounded() / 3) < 1e-9, "t \(row[0])")
      #expect(abs(row[4] - ((422 - 40 * row[2]) * 3).rounded() / 3) < 1e-9, "t \(row[0])")
    }
  }

  @Test(
    "the layout follows the formulas: a 4 × 6 grid of 60-point icons, page dots, the dock",
    arguments: [(390.0, 844.0), (320, 568), (430, 932)])
  func layout(width: Double, height: Double) throws {
    let file = SceneFile.homescreen(width: width, height: height, scale: 2)
    let root = FileScene(file: file).root
    let k = width / 390
    let icon = 60 * k
    let gap = (width - 4 * icon) / 5
    func frame(_ name: String) throws -> Rect { try #require(root.layer(named: name)).frame }
    #expect(try frame("wallpaper") == Rect(x: -40, y: -40, width: width + 80, height: height + 80))
    for r in 0..<6 {
      for c in 0..<4 {
        let f = try frame("icon-\(r)-\(c)")
        let want = Rect(
          x: gap + Double(c) * (icon + gap), y: 72 * k + Double(r) * 92 * k, width: icon,
          height: icon)
        #expect(abs(f.minX - want.minX) < 1e-9 && abs(f.minY - want.minY) < 1e-9, "\(r) \(c)")
        #expect(abs(f.width - icon) < 1e-9 && abs(f.height - icon) < 1e-9)
        let glyph = try frame("icon-\(r)-\(c)-glyph")
        #expect(abs(glyph.width - 0.42 * icon) < 1e-9)
        #expect(abs(glyph.midX - icon / 2) < 1e-9 && abs(glyph.midY - icon / 2) < 1e-9)
      }
    }
    let dock = try frame("dock")
    #expect(abs(dock.minX - 12 * k) < 1e-9 && abs(dock.maxX - (width - 12 * k)) < 1e-9)
    #expect(abs(dock.maxY - (height - 14 * k)) < 1e-9 && abs(dock.height - 96 * k) < 1e-9)
    for i in 0..<4 {
      let f = try frame("dock-\(i)")
      let inner = (dock.width - 4 * icon) / 5
      #expect(abs(f.minX - (inner + Double(i) * (icon + inner))) < 1e-9)
      #expect(abs(f.midY - dock.height / 2) < 1e-9)
    }
    for i in 0..<3 {
      let f = try frame("page-dot-\(i)")
      #expect(abs(f.width - 7 * k) < 1e-9 && abs(f.minY - (dock.minY - 26 * k)) < 1e-9)
      #expect(abs(f.midX - (width / 2 + (Double(i) - 1) * 14 * k)) < 1e-9)
    }
    #expect(root.allLayers.count == 1 + 3 + 24 * 2 + 3 + 1 + 4 * 2)
    // Only the wallpaper has motion effects.
    #expect(FileScene(file: file).effectLayers.map(\.name) == ["wallpaper"])
  }

  @Test("the stars are the seeded field: one per 600 square points, SplitMix64, denser on top")
  func starField() throws {
    let root = FileScene(file: .homescreen).root
    var starts: [Point] = []
    for name in ["faint-stars", "stars"] {
      let layer = try #require(root.layer(named: name) as? ShapeLayer)
      let path = try #require(layer.path)
      var moves = 0
      for e in path.elements {
        if case .move(let p) = e {
          starts.append(p)
          moves += 1
        }
      }
      // Each star is a closed circle of four cubics (two half-circle arcs of two each).
      #expect(path.elements.count == 6 * moves, "\(name)")
    }
    // Regenerate the field with the test suite's own SplitMix64 (seed 0x5354_4152_5321).
    var rng = SplitMix64(seed: 0x5354_4152_5321)
    func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
    let size = Size(width: 470, height: 924)
    let n = Int((size.width * size.height / 600).rounded())
    #expect(n == 724)
    var faint: [Point] = []
    var bright: [Point] = []
    for _ in 0..<n {
      let x = unit() * size.width
      let u = unit()
      let y = u * u * size.height
      let big = unit() < 0.18
      let r = big ? 0.8 + unit() * 0.9 : 0.35 + unit() * 0.45
      // Each circle starts at its rightmost point; centres and radii are kept to 0.01 point.
      if big { bright.append(Point(x: x + r, y: y)) } else { faint.append(Point(x: x + r, y: y)) }
    }
    let want = faint + bright
    #expect(starts.count == want.count)
    for (got, w) in zip(starts, want) {
      #expect(abs(got.x - w.x) <= 0.0101 && abs(got.y - w.y) <= 0.0051, "\(got) vs \(w)")
    }
    #expect(bright.count > 80 && faint.count > 3 * bright.count)
    // Denser toward the top: more than half of the stars are in the top third.
    #expect(want.filter { $0.y < 924.0 / 3 }.count > n / 2)
  }
}
