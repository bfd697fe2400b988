import Foundation
import SwellCairo
import SwellGeometry
import SwellLayers
import SwellMotion
import SwellRender
import SwellScenes
import SwellTime

/// Exporting the built-in `waterwave` scene (the water tilted, then shaken) as `swell render`
/// does, beside ffmpeg doing the same job on the same frames in the same run: Swell steps the
/// scene, draws each frame and writes it (a `FrameExporter`), while the baseline is ffmpeg reading
/// the frames Swell drew, stored beforehand as raw BGRA in a file, and writing them itself.
///
/// Figures, milliseconds per frame end to end (for ffmpeg, its start-up included; full run
/// 1170×2532 pixels (390×844 points @3x), 30 frames, three repetitions; `--quick` 390×844 @1x,
/// 6 frames, two), each repetition of Swell beside one of its baseline, Swell first in odd
/// repetitions and ffmpeg first in even ones; the PNG repetitions first, then one MP4 pair
/// untimed (a warm-up), then the MP4 repetitions:
/// - `export.png_sequence.WxH.frame_ms`: a numbered PNG sequence (`frames/%04d.png`);
///   `export.png_sequence.WxH.ffmpeg_ms`: ffmpeg's PNG encoder writing the same frames as RGB
///   PNGs (`-pix_fmt rgb24`, its default zlib level and filter, its frame threads);
///   `export.png_sequence.WxH.ratio_to_ffmpeg`: the first over the second, per repetition;
///   `export.png_sequence.WxH.kib_per_frame` and `.ffmpeg_kib_per_frame`: the files' mean size;
/// - `export.mp4.WxH.frame_ms`: an MP4 with libx264 `veryfast` (`swell render`'s default preset);
///   `export.mp4.WxH.ffmpeg_ms`: ffmpeg encoding the raw BGRA frames, converting them itself
///   (`FFmpegOptions`' BGRA arguments: the BT.709 conversion filter and tags, same preset and
///   CRF; Swell converts before its pipe); `export.mp4.WxH.ratio_to_ffmpeg`;
/// - for both, `.cpu_ms`, `.ffmpeg_cpu_ms` and `.cpu_ratio_to_ffmpeg`: the processor time (user
///   and system, Swell's process with its ffmpeg child, against ffmpeg's), which a machine
///   shared with other work changes less than the wall-clock time.
///
/// The raw frames (4 bytes a pixel: 355 MB at full size) and the outputs are written to a folder
/// in the system's temporary folder, removed at the end. Without ffmpeg the group reports
/// nothing.
package enum ExportBenchmark: Benchmark {
  package static let name = "export"

  /// The motion: a tilt, then a shake (the water moves in every frame).
  static let script = "tilt 20deg right over 0.3s; shake z 1.3Hz 2.5rad/s for 3s"

  /// The libx264 preset timed: `swell render`'s default.
  static let preset = "veryfast"

  package static func run(quick: Bool, progress: (String) -> Void) -> [BenchmarkFigure] {
    let frames = quick ? 6 : 30
    let repetitions = quick ? 2 : 3
    var options = SceneOptions()
    if quick { options.scale = 1 }
    guard let ffmpeg = try? FFmpegOptions().resolveExecutable(output: "bench"),
      let folder = try? temporaryFolder()
    else { return [] }
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let motion = (try? MotionScript(parsing: script))?.samples(rate: 100) ?? []
    guard let probe = BuiltInScenes.make("waterwave", options: options) else { return [] }
    let configuration = FrameConfiguration(
      size: probe.size, scale: probe.scale, framesPerSecond: 30)
    let width = configuration.pixelWidth
    let height = configuration.pixelHeight
    let stem = "\(width)x\(height)"

    progress("export: drawing \(frames) raw frames for ffmpeg")
    let raw = folder + "/frames.bgra"
    guard
      (try? writeRawFrames(
        options: options, motion: motion, frames: frames, configuration: configuration,
        to: raw)) != nil
    else { return [] }
    let input = [
      "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "bgra",
      "-s", "\(width)x\(height)", "-r", "30", "-i", raw,
    ]

    var png = (swell: [Timing](), ffmpeg: [Timing](), size: [Double](), ffmpegSize: [Double]())
    var mp4 = (swell: [Timing](), ffmpeg: [Timing]())
    // Swell's encoder arguments for BGRA input (ffmpeg converts), reading the file.
    let video = FFmpegOptions(x264Preset: preset)
    var videoArguments = video.arguments(
      for: .mp4, pixelWidth: width, pixelHeight: height, framesPerSecond: 30,
      output: folder + "/ffmpeg.mp4")
    if let dash = videoArguments.firstIndex(of: "-"), dash > 0, videoArguments[dash - 1] == "-i" {
      videoArguments[dash] = raw
    }
    for run in 1...repetitions {
      // Swell first in odd runs, ffmpeg first in even ones: neither always follows the other.
      let swellFirst = run % 2 == 1
      progress("export: PNG sequence, run \(run) of \(repetitions)")
      let swellFolder = folder + "/swell-\(run)"
      let ffmpegFolder = folder + "/ffmpeg-\(run)"
      try? FileManager.default.createDirectory(
        atPath: ffmpegFolder, withIntermediateDirectories: true)
      let pngRuns = inOrder(swellFirst) {
        perFrame(frames) {
          try export(
            options: options, motion: motion, frames: frames, configuration: configuration,
            to: swellFolder + "/%04d.png")
        }
      } _: {
        perFrame(frames) {
          try runFFmpeg(ffmpeg, input + ["-pix_fmt", "rgb24", ffmpegFolder + "/%04d.png"])
        }
      }
      png.swell.append(pngRuns.swell)
      png.ffmpeg.append(pngRuns.ffmpeg)
      png.size.append(kibPerFrame(in: swellFolder, frames: frames))
      png.ffmpegSize.append(kibPerFrame(in: ffmpegFolder, frames: frames))
      try? FileManager.default.removeItem(atPath: swellFolder)
      try? FileManager.default.removeItem(atPath: ffmpegFolder)
    }
    // One MP4 pair untimed first: the first MP4 export in a process ran 1.4-1.6× as long as
    // the next ones (0.3-0.6 s more system time, memory first touched), and the job that first
    // followed the PNG runs was slow too, whichever it was.
    progress("export: MP4 (\(preset)), warming up")
    _ = perFrame(frames) {
      try export(
        options: options, motion: motion, frames: frames, configuration: configuration,
        to: folder + "/swell.mp4", ffmpeg: video)
    }
    _ = perFrame(frames) { try runFFmpeg(ffmpeg, videoArguments) }
    for run in 1...repetitions {
      let swellFirst = run % 2 == 1
      progress("export: MP4 (\(preset)), run \(run) of \(repetitions)")
      let mp4Runs = inOrder(swellFirst) {
        perFrame(frames) {
          try export(
            options: options, motion: motion, frames: frames, configuration: configuration,
            to: folder + "/swell.mp4", ffmpeg: video)
        }
      } _: {
        perFrame(frames) { try runFFmpeg(ffmpeg, videoArguments) }
      }
      mp4.swell.append(mp4Runs.swell)
      mp4.ffmpeg.append(mp4Runs.ffmpeg)
    }

    let p = "export.png_sequence.\(stem)"
    let v = "export.mp4.\(stem)"
    return figures(p, swell: png.swell, ffmpeg: png.ffmpeg) + [
      BenchmarkFigure(name: "\(p).kib_per_frame", unit: "KiB", values: png.size),
      BenchmarkFigure(name: "\(p).ffmpeg_kib_per_frame", unit: "KiB", values: png.ffmpegSize),
    ] + figures(v, swell: mp4.swell, ffmpeg: mp4.ffmpeg)
  }

  /// Runs Swell's job and ffmpeg's in the order asked.
  static func inOrder(
    _ swellFirst: Bool, _ swell: () -> Timing, _ ffmpeg: () -> Timing
  ) -> (swell: Timing, ffmpeg: Timing) {
    if swellFirst {
      let a = swell()
      return (a, ffmpeg())
    }
    let b = ffmpeg()
    return (swell(), b)
  }

  /// One run's wall-clock and processor time, milliseconds per frame.
  struct Timing {
    /// Wall-clock time.
    var wall: Double
    /// Processor time (user and system) of this process and the children it waited for.
    var cpu: Double
  }

  /// The time figures of one output beside ffmpeg's, and their ratios run by run.
  static func figures(_ stem: String, swell: [Timing], ffmpeg: [Timing]) -> [BenchmarkFigure] {
    func ratios(_ a: [Double], _ b: [Double]) -> [Double] { zip(a, b).map { $0 / $1 } }
    return [
      BenchmarkFigure(name: "\(stem).frame_ms", unit: "ms", values: swell.map(\.wall)),
      BenchmarkFigure(name: "\(stem).ffmpeg_ms", unit: "ms", values: ffmpeg.map(\.wall)),
      BenchmarkFigure(
        name: "\(stem).ratio_to_ffmpeg", unit: "x",
        values: ratios(swell.map(\.wall), ffmpeg.map(\.wall))),
      BenchmarkFigure(name: "\(stem).cpu_ms", unit: "ms", values: swell.map(\.cpu)),
      BenchmarkFigure(name: "\(stem).ffmpeg_cpu_ms", unit: "ms", values: ffmpeg.map(\.cpu)),
      BenchmarkFigure(
        name: "\(stem).cpu_ratio_to_ffmpeg", unit: "x",
        values: ratios(swell.map(\.cpu), ffmpeg.map(\.cpu))),
    ]
  }

  /// A fresh folder under the system's temporary folder.
  static func temporaryFolder() throws -> String {
    let path =
      FileManager.default.temporaryDirectory.path
      + "/swell-bench-export-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Milliseconds per frame of one run of `body`, wall-clock and processor (NaN when it fails).
  static func perFrame(_ frames: Int, _ body: () throws -> Void) -> Timing {
    let clock = MonotonicClock.continuous
    let cpu0 = processorSeconds()
    let start = clock.now()
    guard (try? body()) != nil else { return Timing(wall: .nan, cpu: .nan) }
    let seconds = clock.now() - start
    return Timing(
      wall: seconds * 1000 / Double(frames),
      cpu: (processorSeconds() - cpu0) * 1000 / Double(frames))
  }

  /// User and system seconds of this process and of its children that have ended
  /// (`getrusage`).
  static func processorSeconds() -> Double {
    func seconds(_ who: Int32) -> Double {
      var usage = rusage()
      getrusage(__rusage_who_t(who), &usage)
      return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) * 1e-6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) * 1e-6
    }
    return seconds(RUSAGE_SELF.rawValue) + seconds(RUSAGE_CHILDREN.rawValue)
  }

  /// The mean size of the files in a folder, KiB per frame.
  static func kibPerFrame(in folder: String, frames: Int) -> Double {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    let bytes = names.reduce(0) { total, name in
      let size = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size]
      return total + ((size as? NSNumber)?.intValue ?? 0)
    }
    return names.count == frames ? Double(bytes) / 1024 / Double(frames) : .nan
  }

  /// The scene, stepped frame by frame as `swell render` steps it.
  private static func frames(
    options: SceneOptions, motion: [DeviceMotion], count: Int,
    _ body: (any Scene, Layer) throws -> Void
  ) throws {
    guard let scene = BuiltInScenes.make("waterwave", options: options) else { return }
    var driver = SceneDriver(scene: scene, motion: motion, framesPerSecond: 30)
    for _ in 0..<count {
      guard let frame = try driver.step() else { break }
      try body(scene, scene.root.presentation(at: frame.targetTimestamp))
    }
  }

  /// Swell's export: the frames drawn and written by a `FrameExporter`, as `swell render` does.
  static func export(
    options: SceneOptions, motion: [DeviceMotion], frames count: Int,
    configuration: FrameConfiguration, to path: String, ffmpeg: FFmpegOptions = FFmpegOptions()
  ) throws {
    var exporter: FrameExporter?
    try frames(options: options, motion: motion, count: count) { scene, tree in
      if exporter == nil {
        exporter = try FrameExporter(
          path: path, configuration: configuration, background: scene.background,
          ffmpeg: ffmpeg)
      }
      try exporter?.add(tree)
    }
    try exporter?.finish()
  }

  /// The same frames as raw BGRA bytes in a file, for ffmpeg to read.
  static func writeRawFrames(
    options: SceneOptions, motion: [DeviceMotion], frames count: Int,
    configuration: FrameConfiguration, to path: String
  ) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let handle = FileHandle(forWritingAtPath: path)
    else { throw CocoaError(.fileWriteUnknown) }
    defer { try? handle.close() }
    let image = try ImageSurface(
      pixelWidth: configuration.pixelWidth, pixelHeight: configuration.pixelHeight)
    let renderer = LayerRenderer()
    let placement = FramePlacement(scale: configuration.scale)
    try frames(options: options, motion: motion, count: count) { scene, tree in
      try renderer.drawFrame(
        tree, background: scene.background, placement: placement, into: image)
      let data = image.withFramePixels { frame -> Data in
        var data = Data(capacity: 4 * frame.pixelWidth * frame.pixelHeight)
        for row in 0..<frame.pixelHeight {
          let start = row * frame.bytesPerRow
          data.append(
            contentsOf: UnsafeRawBufferPointer(
              rebasing: frame.bytes[start..<start + 4 * frame.pixelWidth]))
        }
        return data
      }
      try handle.write(contentsOf: data)
    }
  }

  /// Runs ffmpeg to its end; throws when it fails.
  static func runFFmpeg(_ executable: String, _ arguments: [String]) throws {
    // Starts: ffmpeg (the one the video sink resolves: FFmpegOptions.resolveExecutable)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw CocoaError(.executableLoad)
    }
  }
}
