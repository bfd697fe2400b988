import Foundation
import SwellGeometry
import SwellLayers
import Testing

@testable import SwellLive

@Suite("SDL live window", .serialized)
private struct LiveWindowTests {
  @Test(
    "presents are paced at about 60 Hz and the read-back equals the buffer, with either presenter",
    arguments: LiveWindow.Presenter.allCases)
  func pacingAndReadBack(presenter: LiveWindow.Presenter) throws {
    let window = try LiveWindow(title: "swell test", width: 64, height: 48, presenter: presenter)
    #expect(window.drawableSize == (64, 48))
    switch presenter {
    case .opengl: #expect(window.presenter == .opengl && window.rendererName == "opengl")
    case .software:
      #expect(window.presenter == .software && window.rendererName == "surface")
      #expect(window.glRendererName == nil, "OpenGL is not even tried")
    case .automatic:
      // Under Xvfb OpenGL is Mesa's CPU rasterizer: the window surface is chosen.
      let gl = try #require(window.glRendererName)
      #expect(
        window.presenter == (LiveWindow.isSoftwareRasterizer(gl) ? .software : .opengl), "\(gl)")
    }
    var canvas = try window.canvas(reusing: nil)
    // The surface presenter hands out the window's own pixels; OpenGL a buffer of the canvas.
    #expect((canvas.baseAddress != nil) == (window.presenter == .software))
    var stats = FrameStatistics(targetFramesPerSecond: window.refreshRate)
    var readBackMatched = false
    for i in 0..<90 {
      let next = try window.canvas(reusing: canvas)
      #expect(next === canvas, "an unchanged window keeps its canvas")
      canvas = next
      canvas.fill(Color(red: Double(i) / 90, green: 0.25, blue: 0.75))
      let t: Double
      if i == 45 {
        let expected = canvas.withUnsafeBytes { Array($0) }
        let stride = canvas.bytesPerRow
        t = try window.present(canvas) { w, h, readStride, bytes in
          readBackMatched =
            w == 64 && h == 48
            && (0..<h).allSatisfy { y in
              expected[(y * stride)..<(y * stride + 4 * w)].elementsEqual(
                bytes[(y * readStride)..<(y * readStride + 4 * w)])
            }
        }
      } else {
        t = try window.present(canvas, readBack: nil)
      }
      stats.recordPresent(at: t)
      _ = window.pollEvents()
    }
    #expect(readBackMatched)
    #expect(window.isVsynced)
    #expect(window.displayName.hasPrefix("sdl x11/"), "under xvfb-run: \(window.displayName)")
    #expect((14...20).contains(stats.intervalMedianMilliseconds), "\(stats.jsonLine)")
  }

  @Test("the surface presenter shows frames on its refresh ticks: a late frame waits for the next")
  func surfaceTicks() throws {
    let window = try LiveWindow(title: "swell test", width: 32, height: 32, presenter: .software)
    let period = 1 / window.refreshRate
    let canvas = try window.canvas(reusing: nil)
    canvas.fill(Color(red: 1, green: 0, blue: 0))
    _ = try window.present(canvas, readBack: nil)
    for _ in 0..<5 {
      // Ready half a period after the tick that follows the last one shown: that tick has
      // passed, so the frame goes out at the one after (as with vsync), never at once.
      let shown = window.lastTick
      window.wait(seconds: Double(shown) * period + 1.5 * period - window.now())
      let ready = window.now()
      _ = try window.present(canvas, readBack: nil)
      #expect(window.lastTick >= shown + 2, "tick \(window.lastTick) after \(shown)")
      #expect(Double(window.lastTick) * period >= ready, "shown at a tick before it was ready")
    }
    // Back to back, frames go out one tick apart at most once each: never two on one tick.
    var ticks: [Int64] = []
    for _ in 0..<5 {
      _ = try window.present(canvas, readBack: nil)
      ticks.append(window.lastTick)
    }
    #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $1 > $0 }, "\(ticks)")
  }

  @Test("a resized window hands out a new canvas of the new size; frames on it read back")
  func surfaceResize() throws {
    let window = try LiveWindow(title: "swell test", width: 64, height: 48, presenter: .software)
    let first = try window.canvas(reusing: nil)
    first.fill(Color(red: 0, green: 1, blue: 0))
    _ = try window.present(first, readBack: nil)
    window.setSize(width: 80, height: 40)
    var resized = false
    for _ in 0..<200 where !resized {
      resized = window.pollEvents().contains(.resized(width: 80, height: 40))
      if !resized { window.wait(seconds: 0.01) }
    }
    #expect(resized, "no resize event within 2 s")
    let second = try window.canvas(reusing: first)
    #expect(second !== first)
    #expect(second.width == 80 && second.height == 40)
    second.fill(Color(red: 0, green: 0, blue: 1))
    var blue = 0
    _ = try window.present(second) { w, h, stride, bytes in
      #expect(w == 80 && h == 40)
      for y in 0..<h {
        for x in 0..<w
        where bytes.load(fromByteOffset: y * stride + 4 * x, as: UInt32.self) == 0xFF00_00FF {
          blue += 1
        }
      }
    }
    #expect(blue == 80 * 40)
  }

  @Test(
    "CPU rasterizers are recognised by their OpenGL names, GPUs are not",
    arguments: [
      ("llvmpipe (LLVM 15.0.6, 256 bits)", true), ("softpipe", true),
      ("Software Rasterizer", true), ("GDI Generic", true),
      ("Mesa Intel(R) UHD Graphics 620 (KBL GT2)", false),
      ("AMD Radeon RX 6800 (navi21, LLVM 15.0.6, DRM 3.49, 6.1.0-13-amd64)", false),
      ("NVIDIA GeForce RTX 3080/PCIe/SSE2", false), ("V3D 4.2", false),
    ])
  func softwareRasterizer(name: String, software: Bool) {
    #expect(LiveWindow.isSoftwareRasterizer(name) == software)
  }

  @Test("no display: a clear error that suggests the terminal view, in the library's terms")
  func noDisplay() throws {
    let problem = LiveWindow.displayProblem(environment: ["PATH": "/usr/bin"])
    #expect(problem?.contains("terminal view") == true)
    #expect(problem?.contains("DISPLAY") == true)
    #expect(problem?.contains("--") == false)
    let error = try #require(LiveWindow.displayError(environment: ["PATH": "/usr/bin"]))
    guard case .noDisplay(let reason) = error.problem else {
      Issue.record("\(error.problem)")
      return
    }
    #expect(reason.contains("DISPLAY") && !reason.contains("terminal"))
  }
}
