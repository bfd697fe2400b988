import CSDL2
import Foundation

/// Why a live window could not be opened or used.
public struct LiveWindowError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A one-line reason.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: A one-line reason.
  public init(_ message: String) { self.message = message }

  /// The reason.
  public var description: String { message }
}

/// A resizable SDL2 window that shows caller-filled ARGB32 frames, paced by the display's
/// vertical sync (`SDL_RENDERER_PRESENTVSYNC`), so its present timestamps can drive a
/// `DisplayLink` through `tick(presentedAt:)`.
///
/// Pixels are 32-bit native-endian `0xAARRGGBB` words (Cairo's `CAIRO_FORMAT_ARGB32`, SDL's
/// `SDL_PIXELFORMAT_ARGB8888`), premultiplied alpha; they are copied without blending, so the
/// window shows exactly the buffer when it is not scaled. Times are seconds on SDL's
/// performance counter (a monotonic clock). Use from one thread (the main thread).
public final class LiveWindow {
  private let window: OpaquePointer
  private let renderer: OpaquePointer
  private var texture: OpaquePointer?
  private var textureSize = (width: 0, height: 0)
  private let counterFrequency: Double
  private let counterOrigin: UInt64
  /// True when presents wait for the display's vertical sync.
  public let isVsynced: Bool
  /// The name of SDL's render driver in use (`opengl`, `software`, ...).
  public let rendererName: String
  /// The name of SDL's video driver in use (`x11`, `wayland`, `offscreen`, ...).
  public let videoDriverName: String
  /// The display's refresh rate, Hz (60 when SDL reports none, as under Xvfb).
  public let refreshRate: Double
  /// The window's title.
  public let title: String

  /// Whether a display is present and usable for a live window: `nil` when it is, else a
  /// one-line reason that suggests `--terminal`.
  ///
  /// It checks `DISPLAY` / `WAYLAND_DISPLAY` (or an explicit `SDL_VIDEODRIVER`) and that SDL's
  /// video subsystem starts.
  ///
  /// - Parameter environment: The environment to check (default: this process's).
  /// - Returns: `nil` when usable, else the reason.
  public static func displayProblem(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    let hasServer = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains {
      !($0 ?? "").isEmpty
    }
    if !hasServer && (environment["SDL_VIDEODRIVER"] ?? "").isEmpty {
      return "no display: DISPLAY and WAYLAND_DISPLAY are not set; use --terminal to show it "
        + "in this terminal, or run under xvfb-run"
    }
    if SDL_WasInit(UInt32(SDL_INIT_VIDEO)) != 0 { return nil }
    SDL_SetMainReady()
    preferWindowSystem()
    guard LiveWindow.initVideo(UInt32(SDL_INIT_VIDEO)) else {
      return "no usable display (SDL: \(LiveWindow.sdlError())); use --terminal to show it in "
        + "this terminal, or run under xvfb-run"
    }
    SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
    return nil
  }

  /// Initialises SDL subsystems, trying up to four times 50, 100 and 200 ms apart: a busy X
  /// server (several clients starting at once under Xvfb) can refuse a connection for a
  /// moment, which SDL reports as "x11 not available".
  ///
  /// - Parameter flags: `SDL_INIT_*` flags.
  /// - Returns: Whether SDL initialised them.
  private static func initVideo(_ flags: UInt32) -> Bool {
    for attempt in 0..<4 {
      if SDL_InitSubSystem(flags) == 0 { return true }
      if attempt < 3 { usleep(useconds_t(50_000 << attempt)) }
    }
    return false
  }

  /// True when a display is present and usable (see ``displayProblem(environment:)``).
  public static var isDisplayAvailable: Bool { displayProblem() == nil }

  /// Opens a window.
  ///
  /// - Parameters:
  ///   - title: The window title.
  ///   - width: The drawable width, pixels, positive.
  ///   - height: The drawable height, pixels, positive.
  ///   - vsync: Whether presents wait for vertical sync (default true).
  ///   - fitToDisplay: Shrink the window (keeping its aspect) when it is larger than the
  ///     display's usable area (default true).
  /// - Throws: ``LiveWindowError`` when there is no usable display or SDL fails; the message
  ///   suggests `--terminal` when no display is present.
  public init(
    title: String, width: Int, height: Int, vsync: Bool = true, fitToDisplay: Bool = true
  ) throws(LiveWindowError) {
    if let problem = LiveWindow.displayProblem() { throw LiveWindowError(problem) }
    SDL_SetMainReady()
    LiveWindow.preferWindowSystem()
    SDL_SetHint(SDL_HINT_RENDER_DRIVER, "opengl")
    SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
    guard LiveWindow.initVideo(UInt32(SDL_INIT_VIDEO) | UInt32(SDL_INIT_EVENTS)) else {
      throw LiveWindowError(
        "no usable display (SDL: \(LiveWindow.sdlError())); use --terminal to show it in this "
          + "terminal")
    }
    var fit = 1.0
    var bounds = SDL_Rect()
    if fitToDisplay && SDL_GetDisplayUsableBounds(0, &bounds) == 0 && bounds.w > 0 && bounds.h > 0 {
      fit = min(
        1, Double(bounds.w) / Double(max(1, width)), Double(bounds.h) / Double(max(1, height)))
    }
    let w = Int32(clamping: max(1, Int((Double(width) * fit).rounded(.down))))
    let h = Int32(clamping: max(1, Int((Double(height) * fit).rounded(.down))))
    let undefinedPosition: Int32 = 0x1FFF_0000  // SDL_WINDOWPOS_UNDEFINED
    guard
      let win = SDL_CreateWindow(
        title, undefinedPosition, undefinedPosition, w, h,
        SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_SHOWN.rawValue)
    else {
      let reason = LiveWindow.sdlError()
      SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO) | UInt32(SDL_INIT_EVENTS))
      throw LiveWindowError("cannot open a window: \(reason); try --terminal")
    }
    let vsyncFlag = vsync ? SDL_RENDERER_PRESENTVSYNC.rawValue : 0
    var ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED.rawValue | vsyncFlag)
    if ren == nil {
      ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE.rawValue | vsyncFlag)
    }
    guard let ren else {
      let reason = LiveWindow.sdlError()
      SDL_DestroyWindow(win)
      SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO) | UInt32(SDL_INIT_EVENTS))
      throw LiveWindowError("cannot create an SDL renderer: \(reason)")
    }
    window = win
    renderer = ren
    self.title = title
    var info = SDL_RendererInfo()
    SDL_GetRendererInfo(ren, &info)
    rendererName = info.name.map { String(cString: $0) } ?? "unknown"
    isVsynced = vsync && (info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue) != 0
    videoDriverName = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "unknown"
    var mode = SDL_DisplayMode()
    if SDL_GetWindowDisplayMode(win, &mode) == 0 && mode.refresh_rate > 0 {
      refreshRate = Double(mode.refresh_rate)
    } else {
      refreshRate = 60
    }
    counterFrequency = Double(SDL_GetPerformanceFrequency())
    counterOrigin = SDL_GetPerformanceCounter()
  }

  deinit {
    if let texture { SDL_DestroyTexture(texture) }
    SDL_DestroyRenderer(renderer)
    SDL_DestroyWindow(window)
    SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO) | UInt32(SDL_INIT_EVENTS))
  }

  /// Seconds since the window opened, on SDL's performance counter (monotonic).
  public func now() -> Double {
    Double(SDL_GetPerformanceCounter() &- counterOrigin) / counterFrequency
  }

  /// The drawable size, pixels (the renderer's output size; differs from the window size in
  /// points on high-density displays).
  public var drawableSize: (width: Int, height: Int) {
    var w: Int32 = 0
    var h: Int32 = 0
    SDL_GetRendererOutputSize(renderer, &w, &h)
    return (Int(w), Int(h))
  }

  /// The X11 window id (for `xdotool`), or `nil` on other video drivers.
  public var windowID: UInt32 { SDL_GetWindowID(window) }

  /// Returns the events that arrived since the last call, without waiting.
  ///
  /// - Returns: Key presses, resizes, pointer moves and quit requests, in order.
  public func pollEvents() -> [LiveEvent] {
    var out: [LiveEvent] = []
    var event = SDL_Event()
    while SDL_PollEvent(&event) != 0 {
      switch SDL_EventType(event.type) {
      case SDL_QUIT:
        out.append(.quit)
      case SDL_KEYDOWN:
        if let key = LiveWindow.key(event.key.keysym.sym) { out.append(.key(key)) }
      case SDL_WINDOWEVENT:
        let kind = SDL_WindowEventID(UInt32(event.window.event))
        if kind == SDL_WINDOWEVENT_SIZE_CHANGED || kind == SDL_WINDOWEVENT_RESIZED {
          let size = drawableSize
          if out.last != .resized(width: size.width, height: size.height) {
            out.append(.resized(width: size.width, height: size.height))
          }
        } else if kind == SDL_WINDOWEVENT_CLOSE {
          out.append(.quit)
        } else if kind == SDL_WINDOWEVENT_HIDDEN || kind == SDL_WINDOWEVENT_MINIMIZED {
          out.append(.visibility(false))
        } else if kind == SDL_WINDOWEVENT_SHOWN || kind == SDL_WINDOWEVENT_RESTORED
          || kind == SDL_WINDOWEVENT_EXPOSED
        {
          out.append(.visibility(true))
        }
      case SDL_MOUSEMOTION:
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_GetWindowSize(window, &w, &h)
        guard w > 0, h > 0 else { continue }
        let x = min(1, max(0, (Double(event.motion.x) + 0.5) / Double(w)))
        let y = min(1, max(0, (Double(event.motion.y) + 0.5) / Double(h)))
        out.append(.pointer(x: x, y: y))
      default:
        continue
      }
    }
    return out
  }

  /// Shows a frame: uploads the pixels to the streaming texture, copies it to the whole
  /// drawable area (scaling when the sizes differ), optionally reads the result back, and
  /// presents (waiting for vertical sync when ``isVsynced``).
  ///
  /// - Parameters:
  ///   - pixels: `height` rows of `bytesPerRow` bytes, each pixel a native-endian `0xAARRGGBB`
  ///     word.
  ///   - width: The frame width, pixels.
  ///   - height: The frame height, pixels.
  ///   - bytesPerRow: The row stride, bytes (at least `4 · width`).
  ///   - readBack: When given, called with the drawable's pixels after the copy and before the
  ///     present (`SDL_RenderReadPixels`): width, height, bytes per row, bytes.
  /// - Returns: The present time, seconds (see ``now()``), taken when the present returned.
  /// - Throws: ``LiveWindowError`` when SDL fails to upload or read back.
  @discardableResult
  public func present(
    pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
    readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)? = nil
  ) throws -> Double {
    guard width > 0, height > 0, bytesPerRow >= 4 * width, pixels.count >= bytesPerRow * height,
      let base = pixels.baseAddress
    else {
      throw LiveWindowError("frame buffer of \(width)×\(height) pixels is malformed")
    }
    if texture == nil || textureSize != (width, height) {
      if let texture { SDL_DestroyTexture(texture) }
      texture = SDL_CreateTexture(
        renderer, SDL_PIXELFORMAT_ARGB8888.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
        Int32(width), Int32(height))
      guard let texture else {
        throw LiveWindowError(
          "cannot create a \(width)×\(height) texture: \(LiveWindow.sdlError())")
      }
      SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
      textureSize = (width, height)
    }
    guard SDL_UpdateTexture(texture, nil, base, Int32(bytesPerRow)) == 0 else {
      throw LiveWindowError("cannot upload the frame: \(LiveWindow.sdlError())")
    }
    SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
    SDL_RenderClear(renderer)
    SDL_RenderCopy(renderer, texture, nil, nil)
    if let readBack {
      let size = drawableSize
      let stride = 4 * size.width
      var data = [UInt8](repeating: 0, count: stride * size.height)
      let ok = data.withUnsafeMutableBytes { buf in
        SDL_RenderReadPixels(
          renderer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, buf.baseAddress, Int32(stride))
      }
      guard ok == 0 else {
        throw LiveWindowError("cannot read the window's pixels: \(LiveWindow.sdlError())")
      }
      try data.withUnsafeBytes { try readBack(size.width, size.height, stride, $0) }
    }
    SDL_RenderPresent(renderer)
    return now()
  }

  /// Waits without busy-looping, for frame-rate caps.
  ///
  /// - Parameter seconds: How long, seconds (nothing happens for zero or less).
  public func wait(seconds: Double) {
    guard seconds > 0 else { return }
    SDL_Delay(UInt32(min(seconds, 1) * 1000))
  }

  private static func key(_ sym: SDL_Keycode) -> LiveKey? {
    switch Int(sym) {
    case Int(SDLK_UP.rawValue): .up
    case Int(SDLK_DOWN.rawValue): .down
    case Int(SDLK_LEFT.rawValue): .left
    case Int(SDLK_RIGHT.rawValue): .right
    case Int(SDLK_SPACE.rawValue): .space
    case Int(SDLK_ESCAPE.rawValue): .escape
    case 33...126:
      Unicode.Scalar(UInt32(sym)).map { .character(Character($0).lowercased().first ?? "?") }
    default: nil
    }
  }

  /// Asks SDL for a real window system (x11 or wayland, whichever the environment names) so that
  /// a failing X connection is reported rather than silently replaced by the invisible
  /// `offscreen` driver; an explicit `SDL_VIDEODRIVER` still wins.
  private static func preferWindowSystem() {
    let env = ProcessInfo.processInfo.environment
    guard (env["SDL_VIDEODRIVER"] ?? "").isEmpty else { return }
    if !(env["DISPLAY"] ?? "").isEmpty {
      SDL_SetHint(SDL_HINT_VIDEODRIVER, "x11,wayland")
    } else if !(env["WAYLAND_DISPLAY"] ?? "").isEmpty {
      SDL_SetHint(SDL_HINT_VIDEODRIVER, "wayland,x11")
    }
  }

  static func sdlError() -> String {
    guard let e = SDL_GetError() else { return "unknown error" }
    let s = String(cString: e)
    return s.isEmpty ? "unknown error" : s
  }
}
