import CSDL2
import Foundation
import SwellRender

/// A resizable SDL2 window that shows caller-filled ARGB32 frames, paced at the display's
/// refresh rate, so its present timestamps can drive a `DisplayLink` through
/// `tick(presentedAt:)`.
///
/// Frames reach the screen one of two ways (``Presenter``): through SDL's OpenGL renderer
/// (a streaming texture and a vsync'd swap, `SDL_RENDERER_PRESENTVSYNC`) when OpenGL runs on a
/// GPU, or copied straight into the window's own surface (X11 shared memory) when OpenGL is a
/// software rasterizer (llvmpipe under Xvfb, in a VM, over a remote desktop), where the
/// texture upload and the textured quad would only cost CPU time: a 1170 × 2532 frame costs
/// llvmpipe about three times as much as drawing it. The window-surface presenter paces its
/// presents on a timer at the refresh rate, as vsync would (a frame that misses a tick waits
/// for the next one).
///
/// Pixels are 32-bit native-endian `0xAARRGGBB` words (Cairo's `CAIRO_FORMAT_ARGB32`, SDL's
/// `SDL_PIXELFORMAT_ARGB8888`), premultiplied alpha; they are copied without blending, so the
/// window shows exactly the buffer when it is not scaled. Times are seconds on SDL's
/// performance counter (a monotonic clock). Use from one thread (the main thread).
public final class LiveWindow {
  /// How a window puts frames on the screen.
  public enum Presenter: String, CaseIterable, Sendable {
    /// OpenGL when it runs on a GPU, else the window surface (see ``LiveWindow``).
    case automatic = "auto"
    /// SDL's OpenGL renderer: a streaming texture, a textured quad, a vsync'd swap.
    case opengl
    /// The window's own surface, copied in place and shown on a timer at the refresh rate.
    case software
  }

  private var window: OpaquePointer
  private let renderer: OpaquePointer?
  private var texture: OpaquePointer?
  private var textureSize = (width: 0, height: 0)
  /// True until a whole frame has been shown since the window opened, was exposed or changed
  /// size: until then a frame's changed region is not enough.
  private var needsWholeFrame = true
  private let counterFrequency: Double
  private let counterOrigin: UInt64
  /// The index of the last refresh tick a window-surface present was shown at (tick `k` is
  /// `k / refreshRate` seconds on ``now()``), -1 before the first.
  private(set) var lastTick: Int64 = -1
  /// True when presents are paced at the refresh rate: by the display's vertical sync (OpenGL)
  /// or by the window-surface presenter's timer.
  public let isVsynced: Bool
  /// The presenter in use: ``Presenter/opengl`` or ``Presenter/software`` (never automatic).
  public let presenter: Presenter
  /// OpenGL's `GL_RENDERER` string when OpenGL was tried (`llvmpipe (LLVM 15.0.6, 256 bits)`,
  /// a GPU's name), else `nil`.
  public let glRendererName: String?
  /// The name of the renderer in use: SDL's render driver (`opengl`, ...) or `surface` for the
  /// window-surface presenter.
  public let rendererName: String
  /// The name of SDL's video driver in use (`x11`, `wayland`, `offscreen`, ...).
  public let videoDriverName: String
  /// The display's refresh rate, Hz (60 when SDL reports none, as under Xvfb).
  public let refreshRate: Double
  /// The window's title.
  public let title: String

  /// Whether a display is present and usable for a live window: `nil` when it is, else a
  /// one-line reason that suggests the terminal view or `xvfb-run`
  /// (``displayError(environment:)``'s message).
  ///
  /// - Parameter environment: The environment to check (default: this process's).
  /// - Returns: `nil` when usable, else the reason.
  public static func displayProblem(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    displayError(environment: environment)?.message
  }

  /// Whether a display is present and usable for a live window: `nil` when it is, else a
  /// `SwellLiveLoop/LiveWindowError/Problem/noDisplay(_:)` error.
  ///
  /// It checks `DISPLAY` / `WAYLAND_DISPLAY` (or an explicit `SDL_VIDEODRIVER`) and that SDL's
  /// video subsystem starts.
  ///
  /// - Parameter environment: The environment to check (default: this process's).
  /// - Returns: `nil` when usable, else the error.
  public static func displayError(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> LiveWindowError? {
    let hasServer = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains {
      !($0 ?? "").isEmpty
    }
    if !hasServer && (environment["SDL_VIDEODRIVER"] ?? "").isEmpty {
      return LiveWindowError(.noDisplay("no display: DISPLAY and WAYLAND_DISPLAY are not set"))
    }
    if SDL_WasInit(UInt32(SDL_INIT_VIDEO)) != 0 { return nil }
    SDL_SetMainReady()
    preferWindowSystem()
    guard LiveWindow.initVideo(UInt32(SDL_INIT_VIDEO)) else {
      return LiveWindowError(.noDisplay("no usable display (SDL: \(LiveWindow.sdlError()))"))
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
  ///   - vsync: Whether presents are paced at the refresh rate (default true).
  ///   - fitToDisplay: Shrink the window (keeping its aspect) when it is larger than the
  ///     display's usable area (default true).
  ///   - presenter: How frames reach the screen (default ``Presenter/automatic``).
  /// - Throws: `SwellLiveLoop/LiveWindowError` when there is no usable display or SDL fails
  ///   (`SwellLiveLoop/LiveWindowError/Problem/noDisplay(_:)`: the message suggests the terminal view).
  public init(
    title: String, width: Int, height: Int, vsync: Bool = true, fitToDisplay: Bool = true,
    presenter: Presenter = .automatic
  ) throws(LiveWindowError) {
    if let error = LiveWindow.displayError() { throw error }
    SDL_SetMainReady()
    LiveWindow.preferWindowSystem()
    SDL_SetHint(SDL_HINT_RENDER_DRIVER, "opengl")
    SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
    // The window surface must be the window system's own (X11 shared memory), not a texture
    // of another renderer.
    SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
    guard LiveWindow.initVideo(UInt32(SDL_INIT_VIDEO) | UInt32(SDL_INIT_EVENTS)) else {
      throw LiveWindowError(.noDisplay("no usable display (SDL: \(LiveWindow.sdlError()))"))
    }
    var fit = 1.0
    var bounds = SDL_Rect()
    if fitToDisplay && SDL_GetDisplayUsableBounds(0, &bounds) == 0 && bounds.w > 0 && bounds.h > 0 {
      fit = min(
        1, Double(bounds.w) / Double(max(1, width)), Double(bounds.h) / Double(max(1, height)))
    }
    let w = Int32(clamping: max(1, Int((Double(width) * fit).rounded(.down))))
    let h = Int32(clamping: max(1, Int((Double(height) * fit).rounded(.down))))
    let win = try LiveWindow.createWindow(title: title, width: w, height: h)
    var ren: OpaquePointer?
    var glName: String?
    if presenter != .software {
      let vsyncFlag = vsync ? SDL_RENDERER_PRESENTVSYNC.rawValue : 0
      ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED.rawValue | vsyncFlag)
      if ren == nil {
        ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE.rawValue | vsyncFlag)
      }
      guard let created = ren else {
        let reason = LiveWindow.sdlError()
        SDL_DestroyWindow(win)
        SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO) | UInt32(SDL_INIT_EVENTS))
        throw LiveWindowError("cannot create an SDL renderer: \(reason)")
      }
      glName = LiveWindow.currentGLRenderer()
      if presenter == .automatic, let glName, LiveWindow.isSoftwareRasterizer(glName) {
        // OpenGL on the CPU: drawing the frame into the window's surface is cheaper.
        // The same window: programs that found it (a window manager, xdotool) keep it.
        SDL_DestroyRenderer(created)
        ren = nil
      }
    }
    window = win
    renderer = ren
    self.title = title
    glRendererName = glName
    if let ren {
      var info = SDL_RendererInfo()
      SDL_GetRendererInfo(ren, &info)
      rendererName = info.name.map { String(cString: $0) } ?? "unknown"
      isVsynced = vsync && (info.flags & SDL_RENDERER_PRESENTVSYNC.rawValue) != 0
      self.presenter = .opengl
    } else {
      guard SDL_GetWindowSurface(win) != nil else {
        let reason = LiveWindow.sdlError()
        SDL_DestroyWindow(win)
        SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO) | UInt32(SDL_INIT_EVENTS))
        throw LiveWindowError("cannot use the window's surface: \(reason)")
      }
      rendererName = "surface"
      isVsynced = vsync
      self.presenter = .software
    }
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

  private static func createWindow(
    title: String, width: Int32, height: Int32
  ) throws(LiveWindowError) -> OpaquePointer {
    let undefinedPosition: Int32 = 0x1FFF_0000  // SDL_WINDOWPOS_UNDEFINED
    guard
      let win = SDL_CreateWindow(
        title, undefinedPosition, undefinedPosition, width, height,
        SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_SHOWN.rawValue)
    else {
      let reason = LiveWindow.sdlError()
      SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO) | UInt32(SDL_INIT_EVENTS))
      throw LiveWindowError(.noDisplay("cannot open a window: \(reason)"))
    }
    return win
  }

  /// OpenGL's `GL_RENDERER` string of the current context (the renderer's), or `nil`.
  private static func currentGLRenderer() -> String? {
    guard SDL_GL_GetCurrentContext() != nil,
      let address = SDL_GL_GetProcAddress("glGetString")
    else { return nil }
    typealias GetString = @convention(c) (UInt32) -> UnsafePointer<UInt8>?
    let getString = unsafeBitCast(address, to: GetString.self)
    let glRenderer: UInt32 = 0x1F01
    guard let name = getString(glRenderer) else { return nil }
    return String(cString: name)
  }

  /// True when an OpenGL renderer string names a CPU rasterizer (Mesa's llvmpipe, softpipe or
  /// swrast, Microsoft's GDI generic, or any "software" renderer).
  ///
  /// - Parameter glRenderer: A `GL_RENDERER` string.
  /// - Returns: Whether drawing through it runs on the CPU.
  public static func isSoftwareRasterizer(_ glRenderer: String) -> Bool {
    let name = glRenderer.lowercased()
    return ["llvmpipe", "softpipe", "swrast", "software", "gdi generic"].contains {
      name.contains($0)
    }
  }

  deinit {
    if let texture { SDL_DestroyTexture(texture) }
    if let renderer { SDL_DestroyRenderer(renderer) }
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
    if let renderer {
      SDL_GetRendererOutputSize(renderer, &w, &h)
    } else {
      SDL_GetWindowSizeInPixels(window, &w, &h)
    }
    return (Int(w), Int(h))
  }

  /// Asks the window system to resize the window (in screen coordinates); a
  /// `SwellLiveLoop/LiveEvent/resized(width:height:)` event follows from ``pollEvents()`` once it is done.
  ///
  /// - Parameters:
  ///   - width: The new width, positive.
  ///   - height: The new height, positive.
  public func setSize(width: Int, height: Int) {
    SDL_SetWindowSize(window, Int32(clamping: max(1, width)), Int32(clamping: max(1, height)))
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
        if kind == SDL_WINDOWEVENT_SIZE_CHANGED || kind == SDL_WINDOWEVENT_RESIZED
          || kind == SDL_WINDOWEVENT_SHOWN || kind == SDL_WINDOWEVENT_RESTORED
          || kind == SDL_WINDOWEVENT_EXPOSED
        {
          needsWholeFrame = true
        }
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

  /// Shows a frame: uploads the pixels to the streaming texture and copies it to the whole
  /// drawable area (scaling when the sizes differ), or copies them into the window's surface
  /// (top left, black around when the sizes differ); optionally reads the result back; and
  /// presents (waiting for the next refresh when ``isVsynced``).
  ///
  /// - Parameters:
  ///   - pixels: `height` rows of `bytesPerRow` bytes, each pixel a native-endian `0xAARRGGBB`
  ///     word.
  ///   - width: The frame width, pixels.
  ///   - height: The frame height, pixels.
  ///   - bytesPerRow: The row stride, bytes (at least `4 · width`).
  ///   - readBack: When given, called with the drawable's pixels after the copy and before the
  ///     present: width, height, bytes per row, bytes (`0xAARRGGBB` words).
  /// - Returns: The present time, seconds (see ``now()``), taken when the present returned.
  /// - Throws: `SwellLiveLoop/LiveWindowError` when SDL fails to upload or read back.
  @discardableResult
  public func present(
    pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
    readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)? = nil
  ) throws -> Double {
    try present(
      pixels: pixels, width: width, height: height, bytesPerRow: bytesPerRow, region: nil,
      readBack: readBack)
  }

  /// Shows a frame of which only `region` changed since the frame shown before (see
  /// ``present(pixels:width:height:bytesPerRow:readBack:)``): only the region is uploaded or
  /// copied, unless the window needs a whole frame (just opened, exposed or resized).
  ///
  /// - Parameters:
  ///   - pixels: `height` rows of `bytesPerRow` bytes, `0xAARRGGBB` words.
  ///   - width: The frame width, pixels.
  ///   - height: The frame height, pixels.
  ///   - bytesPerRow: The row stride, bytes.
  ///   - region: The pixels that changed, or `nil` for all of them.
  ///   - readBack: Receives the drawable's pixels before the present.
  /// - Returns: The present time, seconds (see ``now()``).
  /// - Throws: `SwellLiveLoop/LiveWindowError` when SDL fails to upload or read back.
  @discardableResult
  public func present(
    pixels: UnsafeRawBufferPointer, width: Int, height: Int, bytesPerRow: Int,
    region: PixelRect?, readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)? = nil
  ) throws -> Double {
    guard width > 0, height > 0, bytesPerRow >= 4 * width, pixels.count >= bytesPerRow * height,
      let base = pixels.baseAddress
    else {
      throw LiveWindowError("frame buffer of \(width)×\(height) pixels is malformed")
    }
    guard let renderer else {
      return try presentOnSurface(
        base, width: width, height: height, bytesPerRow: bytesPerRow, inPlace: false,
        region: region, readBack: readBack)
    }
    var part = needsWholeFrame ? nil : region?.clipped(toWidth: width, height: height)
    if texture == nil || textureSize != (width, height) {
      part = nil
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
    var rect = SDL_Rect(
      x: Int32(part?.x ?? 0), y: Int32(part?.y ?? 0), w: Int32(part?.width ?? width),
      h: Int32(part?.height ?? height))
    let start = base + Int(rect.y) * bytesPerRow + 4 * Int(rect.x)
    guard SDL_UpdateTexture(texture, &rect, start, Int32(bytesPerRow)) == 0 else {
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
    needsWholeFrame = false
    return now()
  }

  /// The window-surface presenter: copies the frame into the surface, waits for the next
  /// refresh tick (a timer on the refresh grid from the window's opening), and shows it.
  ///
  /// `inPlace` frames were drawn on the surface itself (``canvas(reusing:)``); one whose
  /// memory is no longer the surface's (replaced by a resize SDL saw first) is not read: the
  /// window shows black until the next frame.
  ///
  /// With a `region` (the only pixels that changed since the frame shown before), only it is
  /// copied and sent to the display (`SDL_UpdateWindowSurfaceRects`), unless the window needs a
  /// whole frame.
  private func presentOnSurface(
    _ base: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int, inPlace: Bool,
    region: PixelRect?, readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    guard let surface = SDL_GetWindowSurface(window), let format = surface.pointee.format,
      let target = surface.pointee.pixels
    else {
      throw LiveWindowError("cannot use the window's surface: \(LiveWindow.sdlError())")
    }
    let sw = Int(surface.pointee.w)
    let sh = Int(surface.pointee.h)
    let pitch = Int(surface.pointee.pitch)
    let w = min(width, sw)
    let h = min(height, sh)
    let pixelFormat = format.pointee.format
    // Black where no frame pixel lands: a stale in-place frame (not read), or a frame smaller
    // than the window just after a resize.
    let stale = inPlace && base != UnsafeRawPointer(target)
    let whole = stale || (!inPlace && (w < sw || h < sh))
    if whole {
      SDL_FillRect(surface, nil, SDL_MapRGB(format, 0, 0, 0))
    }
    let part = needsWholeFrame || whole ? nil : region?.clipped(toWidth: w, height: h)
    let (x0, y0) = (part?.x ?? 0, part?.y ?? 0)
    let (pw, ph) = (part?.width ?? w, part?.height ?? h)
    if inPlace {
      // Drawn on the surface already (or stale): nothing to copy.
    } else if LiveWindow.isARGBLayout(pixelFormat) {
      for y in y0..<(y0 + ph) {
        (target + y * pitch + 4 * x0).copyMemory(
          from: base + y * bytesPerRow + 4 * x0, byteCount: 4 * pw)
      }
    } else {
      let bytes = format.pointee.BytesPerPixel
      guard
        SDL_ConvertPixels(
          Int32(pw), Int32(ph), SDL_PIXELFORMAT_ARGB8888.rawValue,
          base + y0 * bytesPerRow + 4 * x0, Int32(bytesPerRow), pixelFormat,
          target + y0 * pitch + Int(bytes) * x0, Int32(pitch)) == 0
      else {
        throw LiveWindowError("cannot convert the frame: \(LiveWindow.sdlError())")
      }
    }
    if let readBack {
      let stride = 4 * sw
      var data = [UInt8](repeating: 0, count: stride * sh)
      let ok = data.withUnsafeMutableBytes { buf in
        SDL_ConvertPixels(
          Int32(sw), Int32(sh), pixelFormat, target, Int32(pitch),
          SDL_PIXELFORMAT_ARGB8888.rawValue, buf.baseAddress, Int32(stride))
      }
      guard ok == 0 else {
        throw LiveWindowError("cannot read the window's pixels: \(LiveWindow.sdlError())")
      }
      try data.withUnsafeBytes { try readBack(sw, sh, stride, $0) }
    }
    if isVsynced {
      // As vsync would: show at the first tick after the previous one that is not past.
      let period = 1 / refreshRate
      let t = now()
      let tick = max(lastTick + 1, Int64((t / period).rounded(.up)))
      lastTick = tick
      wait(seconds: Double(tick) * period - t)
    }
    if let part {
      var rect = SDL_Rect(
        x: Int32(part.x), y: Int32(part.y), w: Int32(part.width), h: Int32(part.height))
      guard SDL_UpdateWindowSurfaceRects(window, &rect, 1) == 0 else {
        throw LiveWindowError("cannot show the frame: \(LiveWindow.sdlError())")
      }
    } else {
      guard SDL_UpdateWindowSurface(window) == 0 else {
        throw LiveWindowError("cannot show the frame: \(LiveWindow.sdlError())")
      }
      needsWholeFrame = stale
    }
    return now()
  }

  /// True for 32-bit surface formats laid out as Cairo's ARGB32 words (ARGB8888, xRGB8888).
  private static func isARGBLayout(_ format: UInt32) -> Bool {
    format == SDL_PIXELFORMAT_ARGB8888.rawValue || format == SDL_PIXELFORMAT_RGB888.rawValue
  }

  /// The canvas to draw the next frame on. With the window-surface presenter and a 32-bit
  /// xRGB or ARGB surface (the usual X11 visual) it is the window's surface itself: the frame
  /// is drawn in place and presenting copies nothing. Otherwise `current` while its size is
  /// ``drawableSize``, else a new canvas.
  ///
  /// - Parameter current: The canvas of the previous frame, or `nil`.
  /// - Returns: The canvas.
  /// - Throws: `SwellLiveLoop/LiveWindowError` when no canvas can be made.
  public func canvas(reusing current: LiveCanvas?) throws -> LiveCanvas {
    if renderer == nil, let surface = SDL_GetWindowSurface(window),
      let format = surface.pointee.format, let pixels = surface.pointee.pixels,
      LiveWindow.isARGBLayout(format.pointee.format)
    {
      let w = Int(surface.pointee.w)
      let h = Int(surface.pointee.h)
      let pitch = Int(surface.pointee.pitch)
      if let current, current.baseAddress == UnsafeRawPointer(pixels), current.width == w,
        current.height == h, current.bytesPerRow == pitch
      {
        return current
      }
      return try LiveCanvas(unownedBytes: pixels, width: w, height: h, bytesPerRow: pitch)
    }
    return try LiveCanvas.owned(reusing: current, size: drawableSize)
  }

  /// Shows a frame drawn on a canvas (see ``present(pixels:width:height:bytesPerRow:readBack:)``);
  /// a canvas from ``canvas(reusing:)`` that is the window's surface is shown without a copy.
  ///
  /// - Parameters:
  ///   - canvas: The frame.
  ///   - readBack: Receives the displayed pixels before the present.
  /// - Returns: The present time, seconds.
  /// - Throws: `SwellLiveLoop/LiveWindowError` when SDL fails.
  public func present(
    _ canvas: LiveCanvas, readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    try present(canvas, region: nil, readBack: readBack)
  }

  /// Shows a frame drawn on a canvas of which only `region` changed since the frame shown
  /// before: only the region is copied, uploaded and sent to the display (unless the window
  /// needs a whole frame: just opened, exposed or resized).
  ///
  /// - Parameters:
  ///   - canvas: The frame.
  ///   - region: The pixels that changed, or `nil` for all of them.
  ///   - readBack: Receives the displayed pixels before the present.
  /// - Returns: The present time, seconds.
  /// - Throws: `SwellLiveLoop/LiveWindowError` when SDL fails.
  public func present(
    _ canvas: LiveCanvas, region: PixelRect?,
    readBack: ((Int, Int, Int, UnsafeRawBufferPointer) throws -> Void)?
  ) throws -> Double {
    if renderer == nil, let base = canvas.baseAddress {
      canvas.image.flush()
      return try presentOnSurface(
        base, width: canvas.width, height: canvas.height, bytesPerRow: canvas.bytesPerRow,
        inPlace: true, region: region, readBack: readBack)
    }
    return try canvas.withUnsafeBytes { bytes in
      try present(
        pixels: bytes, width: canvas.width, height: canvas.height,
        bytesPerRow: canvas.bytesPerRow, region: region, readBack: readBack)
    }
  }

  /// Waits without busy-looping, for frame-rate caps.
  ///
  /// - Parameter seconds: How long, seconds (nothing happens for zero or less).
  public func wait(seconds: Double) {
    guard seconds > 0 else { return }
    let s = min(seconds, 1)
    var request = timespec(tv_sec: 0, tv_nsec: Int(s * 1e9))
    if s >= 1 { request = timespec(tv_sec: 1, tv_nsec: 0) }
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
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

extension LiveWindow: LiveDisplay {
  /// The drawable size, pixels.
  public var frameSize: (width: Int, height: Int) { drawableSize }

  /// `sdl` with the video and render drivers.
  public var displayName: String { "sdl \(videoDriverName)/\(rendererName)" }
}
