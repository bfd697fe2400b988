import Foundation
import SwellMotion
import SwellRecordings
import SwellTestSupport
import Testing

/// A scene file with one layer carrying `effects` (JSON objects) as its motion effects.
private func scene(_ effects: String, type: String = "layer") -> String {
  """
  {"swellScene": 1, "name": "t", "canvas": {"width": 100, "height": 100, "scale": 1, "background": "#000000"},
   "layers": [
     {"type": "layer", "name": "back", "frame": [0, 0, 100, 100]},
     {"type": "\(type)", "name": "stars", "frame": [0, 0, 50, 50], "motionEffects": [\(effects)]}]}
  """
}

private func interpolating(_ keyPath: String, _ lo: String = "-10", _ hi: String = "10") -> String {
  "{\"effect\": \"interpolating\", \"keyPath\": \"\(keyPath)\", \"type\": "
    + "\"tiltAlongHorizontalAxis\", \"minimumRelativeValue\": \(lo), \"maximumRelativeValue\": \(hi)}"
}

/// A raw IMU CSV of a device rocking about x (±0.8 rad, 0.5 Hz, 4 s at 100 Hz), columns
/// divided by the given units (seconds, rad/s, m/s² per unit).
private func rocking(time: Double = 1, gyro: Double = 1, accel: Double = 1) -> String {
  var s = "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n"
  for i in 0..<400 {
    let t = Double(i) / 100
    let w = Double.pi
    let angle = 0.8 * sin(w * t)
    let rate = 0.8 * w * cos(w * t)
    let (ay, az) = (9.80665 * sin(angle), 9.80665 * cos(angle))
    s += "\(t / time),\(rate / gyro),0,0,0,\(ay / accel),\(az / accel),,,\n"
  }
  return s
}

@Suite("Silent mistakes: key paths in scene files")
private struct SceneKeyPathCheckTests {
  @Test("scene check refuses an unknown key path and a kind mismatch with the JSON path")
  func refuses() throws {
    let folder = try scratchFolder("silent-scene")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("s.json")
    try Data(scene(interpolating("center.x")).utf8).write(to: file)
    let good = try runSwell(["scene", "check", file.path, "--strict"])
    #expect(good.status == 0, "\(good.err)")
    #expect(good.err.isEmpty)

    try Data(scene(interpolating("center.x") + ", " + interpolating("centre.x")).utf8).write(
      to: file)
    for strict in [false, true] {
      let r = try runSwell(["scene", "check", file.path] + (strict ? ["--strict"] : []))
      #expect(r.status == 1)
      #expect(
        r.err
          == "swell scene: \(file.path): layers[1].motionEffects[1].keyPath: unknown key path "
          + "'centre.x' (did you mean 'center.x'?) (on layer 'stars')\n")
    }

    let point = "{\"point\": {\"x\": -5, \"y\": 0}}"
    try Data(scene(interpolating("center.x", point, "5")).utf8).write(to: file)
    let mixed = try runSwell(["scene", "check", file.path])
    #expect(mixed.status == 1)
    #expect(
      mixed.err
        == "swell scene: \(file.path): layers[1].motionEffects[0].maximumRelativeValue: minimum "
        + "and maximum of 'center.x' are of different kinds (point and number) (on layer 'stars')\n"
    )

    let point5 = "{\"point\": {\"x\": 5, \"y\": 0}}"
    try Data(scene(interpolating("position.y", point, point5)).utf8).write(to: file)
    let kind = try runSwell(["scene", "check", file.path])
    #expect(kind.status == 1)
    #expect(
      kind.err.contains(
        "layers[1].motionEffects[0].minimumRelativeValue: key path 'position.y' holds a number, "
          + "not a point"))
  }

  @Test("rendering a scene with a misspelt key path warns once, naming the effect and layer")
  func renderWarnsOnce() throws {
    let folder = try scratchFolder("silent-scene")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("s.json")
    try Data(scene(interpolating("postion.x")).utf8).write(to: file)
    let out = folder.appendingPathComponent("out.png").path
    let r = try runSwell(["render", file.path, "--time", "0.5", "-o", out])
    #expect(r.status == 0, "\(r.err)")
    #expect(
      r.err
        == "swell: warning: interpolating effect on 'postion.x' of layer 'stars': unknown key "
        + "path 'postion.x' (did you mean 'position.x'?); ignored (see 'swell scene check')\n")
  }

  @Test("--strict refuses a motion effect without its maximum; plain check warns")
  func strictUnfinished() throws {
    let folder = try scratchFolder("silent-scene")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("s.json")
    let unfinished =
      "{\"effect\": \"interpolating\", \"keyPath\": \"center.x\", \"type\": "
      + "\"tiltAlongHorizontalAxis\", \"minimumRelativeValue\": -10}"
    try Data(scene(unfinished).utf8).write(to: file)
    let text =
      "\(file.path): layers[1].motionEffects[0]: 'center.x' has no maximumRelativeValue, so the "
      + "effect does nothing (on layer 'stars')"
    let plain = try runSwell(["scene", "check", file.path])
    #expect(plain.status == 0)
    #expect(plain.err == "swell scene: warning: \(text)\n")
    let strict = try runSwell(["scene", "check", file.path, "--strict"])
    #expect(strict.status == 1)
    #expect(strict.err == "swell scene: \(text) (--strict)\n")
  }

  @Test("the built-in scenes check clean under --strict")
  func builtInsClean() throws {
    let folder = try scratchFolder("silent-scene")
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["waterwave", "homescreen", "glass"] {
      let file = folder.appendingPathComponent("\(name).json").path
      let p = try runSwell(["scene", "print", name, "-o", file])
      #expect(p.status == 0, "\(name): \(p.err)")
      let r = try runSwell(["scene", "check", file, "--strict"])
      #expect(r.status == 0, "\(name): \(r.err)")
      #expect(r.err.isEmpty, "\(name): \(r.err)")
    }
  }
}

@Suite("Silent mistakes: recording units in swell fuse")
private struct FuseUnitsToolTests {
  @Test("an accelerometer in g is warned about with the fix, and --accel-unit g fuses it right")
  func accelerationInG() throws {
    let folder = try scratchFolder("silent-fuse")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("g.csv")
    try Data(rocking(accel: 9.80665).utf8).write(to: input)
    let output = folder.appendingPathComponent("out.csv")
    let r = try runSwell(["fuse", input.path, "-o", output.path])
    #expect(r.status == 0)
    #expect(
      r.err
        == "swell fuse: warning: \(input.path): the accelerometer's median magnitude is 1.00 m/s² "
        + "(gravity is 9.81): the values look like g, not m/s²; if so, give --accel-unit g\n")
    // Read as m/s², the user acceleration is nonsense: about −0.9 g all the time.
    let wrong = try DeviceMotionCSV.read(from: output).motions
    #expect(abs(wrong[200].userAcceleration.length - 0.9) < 0.05)

    let declared = try runSwell(["fuse", input.path, "--accel-unit", "g", "-o", output.path])
    #expect(declared.status == 0)
    #expect(declared.err.isEmpty, "\(declared.err)")
    let right = try DeviceMotionCSV.read(from: output).motions
    #expect(right.count == 400)
    #expect(right[100...].allSatisfy { $0.userAcceleration.length < 0.1 })
  }

  @Test("times in milliseconds and a gyroscope in °/s are warned about and declared")
  func timeAndGyro() throws {
    let folder = try scratchFolder("silent-fuse")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("msdeg.csv")
    try Data(rocking(time: 1e-3, gyro: Double.pi / 180).utf8).write(to: input)
    let output = folder.appendingPathComponent("out.csv")
    let r = try runSwell(["fuse", input.path, "-o", output.path])
    #expect(r.status == 0)
    let lines = r.err.split(separator: "\n")
    #expect(lines.count == 2, "\(r.err)")
    #expect(lines.first?.hasSuffix("not seconds; if so, give --time-unit ms") == true)
    #expect(lines.last?.hasSuffix("not rad/s; if so, give --gyro-unit deg/s") == true)

    let declared = try runSwell([
      "fuse", input.path, "--time-unit", "ms", "--gyro-unit", "deg/s", "-o", output.path,
    ])
    #expect(declared.status == 0)
    #expect(declared.err.isEmpty, "\(declared.err)")
    let m = try DeviceMotionCSV.read(from: output).motions
    #expect(abs(m[100].timestamp - 1) < 1e-9)
    #expect(abs(m[100].rotationRate.x - 0.8 * Double.pi * cos(Double.pi)) < 0.05)
  }

  @Test("a raw recording in g given as --motion is warned about, with the fuse to convert it")
  func motionOption() throws {
    let folder = try scratchFolder("silent-fuse")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("g.csv")
    try Data(rocking(accel: 9.80665).utf8).write(to: input)
    let r = try runSwell(["trace", "waterwave", "--motion", input.path, "--duration", "1"])
    #expect(r.status == 0, "\(r.err)")
    #expect(
      r.err
        == "swell: warning: \(input.path): the accelerometer's median magnitude is 1.00 m/s² "
        + "(gravity is 9.81): the values look like g, not m/s²; if so, convert it first: "
        + "swell fuse \(input.path) --accel-unit g -o motion.csv\n")
  }

  @Test("unit options are refused for a recording that is not a raw IMU CSV")
  func notRaw() throws {
    let input = packageRoot.appendingPathComponent(
      "Sources/SwellTool/Resources/sensorlogger-ios-rotation")
    let r = try runSwell(["fuse", input.path, "--accel-unit", "g", "-o", "/tmp/never-written.csv"])
    #expect(r.status == 64)
    #expect(r.err.contains("apply to a raw IMU CSV file"))
  }
}
