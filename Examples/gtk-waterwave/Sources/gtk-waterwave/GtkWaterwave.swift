import CGtk4
import Foundation
import SwellMotion
import SwellPlayback
import SwellRender
import SwellScenes

/// The command line: `[--frames N] [--screenshot PATH] [--size WxH] [--script TEXT] [--fps F]`.
struct Options {
  /// Quit after this many drawn frames (`nil`: when the window closes).
  var frames: Int?
  /// Write the last drawn frame here as PNG.
  var screenshot: String?
  /// The window's initial size, pixels.
  var width = 360
  var height = 640
  /// Scripted motion (`docs/script.md`) instead of the arrow keys.
  var script: String?
  /// Advance the scene 1/F s per frame-clock tick (a fixed timeline, as `swell render --fps F`
  /// has) instead of following the frame clock's time.
  var fixedFPS: Double?

  init(_ arguments: [String]) throws {
    var rest = arguments[...]
    while let word = rest.popFirst() {
      func value() throws -> String {
        guard let v = rest.popFirst() else { throw UsageError(text: "\(word) needs a value") }
        return v
      }
      switch word {
      case "--frames":
        let text = try value()
        guard let n = Int(text), n >= 1 else {
          throw UsageError(text: "--frames must be a positive whole number, got '\(text)'")
        }
        frames = n
      case "--screenshot": screenshot = try value()
      case "--script": script = try value()
      case "--fps":
        let text = try value()
        guard let f = Double(text), f > 0, f <= 1000 else {
          throw UsageError(text: "--fps must be a number in (0, 1000], got '\(text)'")
        }
        fixedFPS = f
      case "--size":
        let text = try value()
        let parts = text.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (16...4096).contains(parts[0]), (16...4096).contains(parts[1])
        else { throw UsageError(text: "--size must be WxH in pixels (16...4096), got '\(text)'") }
        (width, height) = (parts[0], parts[1])
      case "-h", "--help":
        throw UsageError(
          text: "usage: gtk-waterwave [--frames N] [--screenshot PATH] [--size WxH] "
            + "[--script TEXT] [--fps F]\n"
            + "The water wave in a GTK 4 window; arrow keys tilt it, q or Escape quits.",
          isHelp: true)
      default: throw UsageError(text: "unknown option '\(word)'")
      }
    }
  }
}

/// A screenshot that could not be written.
struct ScreenshotError: Error, CustomStringConvertible {
  var text: String
  var description: String { text }
}

/// A bad command line (or `--help`).
struct UsageError: Error {
  var text: String
  var isHelp = false
}

/// The program's state, reached from GTK's C callbacks through their user-data pointer.
final class WaveApp {
  let options: Options
  let player: ScenePlayer
  /// The frame clock's time of the first tick, microseconds.
  var origin: Int64?
  /// The ticks so far.
  var ticks = 0
  /// The scene time of the frame to draw, seconds.
  var sceneTime = 0.0
  /// The frames drawn (distinct scene times).
  var drawn = 0
  var lastDrawnTime: Double?
  var done = false
  var failure: String?

  init(options: Options) throws {
    self.options = options
    // The scene's canvas is the drawing area's size, one pixel a point: drawn exactly as
    // `swell render waterwave --size WxH@1` draws it.
    var sceneOptions = SceneOptions()
    sceneOptions.width = Double(options.width)
    sceneOptions.height = Double(options.height)
    sceneOptions.scale = 1
    let scene = try BuiltInScenes.load("waterwave", options: sceneOptions)
    let motion: any SceneMotionFeed =
      try options.script.map { try SceneMotionInput.script($0, rate: 100).feed }
      ?? TiltMotionFeed(kind: .keyboard)
    player = ScenePlayer(scene: scene, motion: motion)
  }

  /// A GTK frame-clock tick: the scene advances to the frame's time.
  func tick(frameTime: Int64) {
    let t0 = origin ?? frameTime
    origin = t0
    let start = player.driver.motion.startTime
    if let fps = options.fixedFPS {
      sceneTime = start + Double(ticks) / fps
    } else {
      sceneTime = start + Double(frameTime - t0) / 1e6
    }
    ticks += 1
    do {
      try player.advance(toTimestamp: sceneTime)
    } catch {
      fail("\(error)")
    }
  }

  /// GTK's draw function: the current frame into GTK's own Cairo context.
  func draw(_ cr: OpaquePointer, width: Int, height: Int) {
    guard !done, width > 0, height > 0 else { return }
    do {
      let context = try CairoContext(referencing: cr)
      try player.draw(at: sceneTime, in: context, pixelWidth: width, pixelHeight: height)
      // A frame is a new time drawn (GTK may draw one time twice: a map, an expose).
      if lastDrawnTime != sceneTime { drawn += 1 }
      lastDrawnTime = sceneTime
      if let limit = options.frames, drawn >= limit {
        if let path = options.screenshot { try writeScreenshot(path, width: width, height: height) }
        done = true
      }
    } catch {
      fail("\(error)")
    }
  }

  /// Writes the frame just drawn (the same time, size and motion, drawn into an image) as PNG:
  /// to a temporary file, renamed into place.
  func writeScreenshot(_ path: String, width: Int, height: Int) throws {
    let image = try ImageSurface(pixelWidth: width, pixelHeight: height)
    try player.draw(at: sceneTime, into: image)
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
    do {
      try image.writePNG(toFile: temporary.path)
    } catch {
      unlink(temporary.path)
      throw error
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary.path)
      throw ScreenshotError(text: "\(path): cannot write the PNG (\(reason))")
    }
  }

  /// An arrow tilts the simulated phone; q or Escape quits.
  func key(_ keyval: UInt32) -> Bool {
    switch Int32(keyval) {
    case GDK_KEY_Up: player.tilt(.up, at: sceneTime)
    case GDK_KEY_Down: player.tilt(.down, at: sceneTime)
    case GDK_KEY_Left: player.tilt(.left, at: sceneTime)
    case GDK_KEY_Right: player.tilt(.right, at: sceneTime)
    case GDK_KEY_q, GDK_KEY_Escape: done = true
    default: return false
    }
    return true
  }

  func fail(_ message: String) {
    failure = failure ?? message
    done = true
  }
}

/// The app behind a callback's user data.
private func waveApp(_ data: gpointer?) -> WaveApp? {
  data.map { Unmanaged<WaveApp>.fromOpaque($0).takeUnretainedValue() }
}

@main
enum GtkWaterwave {
  static func main() {
    let options: Options
    do {
      options = try Options(Array(CommandLine.arguments.dropFirst()))
    } catch let e as UsageError {
      FileHandle.standardError.write(Data("gtk-waterwave: \(e.text)\n".utf8))
      exit(e.isHelp ? 0 : 64)
    } catch {
      exit(64)
    }
    let app: WaveApp
    do {
      app = try WaveApp(options: options)
    } catch {
      FileHandle.standardError.write(Data("gtk-waterwave: \(error)\n".utf8))
      exit(1)
    }
    // No accessibility bus under xvfb-run (it would only warn).
    setenv("GTK_A11Y", "none", 0)
    guard gtk_init_check() != 0 else {
      FileHandle.standardError.write(
        Data("gtk-waterwave: cannot open a display (run under xvfb-run)\n".utf8))
      exit(1)
    }
    let data = Unmanaged.passUnretained(app).toOpaque()

    let window = gtk_window_new()
    let windowPointer = UnsafeMutableRawPointer(window).map {
      $0.assumingMemoryBound(to: GtkWindow.self)
    }
    gtk_window_set_title(windowPointer, "Swell water wave (GTK)")

    let area = gtk_drawing_area_new()
    let areaPointer = UnsafeMutableRawPointer(area).map {
      $0.assumingMemoryBound(to: GtkDrawingArea.self)
    }
    gtk_drawing_area_set_content_width(areaPointer, Int32(options.width))
    gtk_drawing_area_set_content_height(areaPointer, Int32(options.height))
    gtk_drawing_area_set_draw_func(
      areaPointer,
      { _, cr, width, height, data in
        guard let cr else { return }
        waveApp(data)?.draw(cr, width: Int(width), height: Int(height))
      }, data, nil)
    gtk_widget_add_tick_callback(
      area,
      { widget, clock, data in
        waveApp(data)?.tick(frameTime: Int64(gdk_frame_clock_get_frame_time(clock)))
        gtk_widget_queue_draw(widget)
        return 1  // G_SOURCE_CONTINUE
      }, data, nil)

    let keys = gtk_event_controller_key_new()
    let onKey:
      @convention(c) (OpaquePointer?, guint, guint, GdkModifierType, gpointer?) -> gboolean = {
        _, keyval, _, _, data in
        (waveApp(data)?.key(keyval) ?? false) ? 1 : 0
      }
    g_signal_connect_data(
      UnsafeMutableRawPointer(keys), "key-pressed", unsafeBitCast(onKey, to: GCallback.self),
      data, nil, GConnectFlags(rawValue: 0))
    gtk_widget_add_controller(window, keys)

    let onClose: @convention(c) (UnsafeMutableRawPointer?, gpointer?) -> gboolean = { _, data in
      waveApp(data)?.done = true
      return 0
    }
    g_signal_connect_data(
      UnsafeMutableRawPointer(window), "close-request",
      unsafeBitCast(onClose, to: GCallback.self), data, nil, GConnectFlags(rawValue: 0))

    gtk_window_set_child(windowPointer, area)
    gtk_window_present(windowPointer)
    while !app.done { g_main_context_iteration(nil, 1) }
    gtk_window_destroy(windowPointer)
    while g_main_context_iteration(nil, 0) != 0 {}

    if let failure = app.failure {
      FileHandle.standardError.write(Data("gtk-waterwave: \(failure)\n".utf8))
      exit(1)
    }
    if let path = options.screenshot, app.drawn >= (options.frames ?? .max) {
      let time = app.sceneTime - app.player.driver.motion.startTime
      print(
        "gtk-waterwave: \(app.drawn) frames drawn; wrote \(path) (the frame at \(time) s, "
          + "tick \(app.ticks - 1))")
    }
  }
}
