import Foundation
import SwellRecordings
import SwellScenes
import SwellTestSupport
import Testing

@Suite("homescreen as a scene file: swell scene print, render and trace")
private struct HomeScreenFileCommandTests {
  @Test("scene print homescreen → file → render gives the same PNG bytes and trace as the built-in")
  func printedFileRendersTheSame() throws {
    let folder = try scratchFolder("adversarial-homescreen-file")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("homescreen.json").path
    let p = try runSwell(["scene", "print", "homescreen", "-o", file])
    #expect(p.status == 0 && p.out.isEmpty && p.err.isEmpty, "\(p)")
    let motion = [
      "--script", "hold 0.3s; rotate 35deg about x over 0.3s; rotate 20deg about y over 0.4s",
    ]
    let a = folder.appendingPathComponent("builtin.png").path
    let b = folder.appendingPathComponent("file.png").path
    #expect(try runSwell(["render", "homescreen", "-o", a, "--time", "0.9"] + motion).status == 0)
    #expect(try runSwell(["render", file, "-o", b, "--time", "0.9"] + motion).status == 0)
    let x = try Data(contentsOf: URL(fileURLWithPath: a))
    let y = try Data(contentsOf: URL(fileURLWithPath: b))
    #expect(x.count > 10_000 && x == y)
    let ta = try runSwell(["trace", "homescreen", "--fps", "30"] + motion)
    let tb = try runSwell(["trace", file, "--fps", "30"] + motion)
    #expect(ta.status == 0 && ta.out == tb.out)
    #expect(
      ta.out.hasPrefix(
        "time,offset.horizontal,offset.vertical,wallpaper.position.x,wallpaper.position.y\n"))
    // The wallpaper moved (the comparison is not of two still pictures).
    let last = try #require(ta.out.split(separator: "\n").last?.split(separator: ","))
    #expect(last.count == 5 && last[3] != "195.0" && last[4] != "422.0", "\(last)")
  }

  @Test("the printed file is compact: the stars are SVG arcs, and stdout is the same text")
  func compact() throws {
    let folder = try scratchFolder("adversarial-homescreen-file")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("h.json").path
    #expect(try runSwell(["scene", "print", "homescreen", "-o", file]).status == 0)
    let text = try String(contentsOfFile: file, encoding: .utf8)
    #expect(text.utf8.count < 100_000, "\(text.utf8.count) bytes")
    #expect(text.contains(#""name" : "stars""#) && text.contains(" 0 1 1 "))
    #expect(text.contains(#""trace" : ["#))
    #expect(try runSwell(["scene", "print", "homescreen"]).out == text)
    let check = try runSwell(["scene", "check", file])
    #expect(
      check.out
        == "\(file): scene 'homescreen', 390x844 points @3.0x, 63 layers, 0 water, 1 with motion effects\n"
    )
  }

  @Test("scene print --size lays the scene out for that canvas, as render --size does")
  func printSized() throws {
    let folder = try scratchFolder("adversarial-homescreen-file")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("se.json").path
    let size = ["--size", "320x568@2"]
    #expect(try runSwell(["scene", "print", "homescreen", "-o", file] + size).status == 0)
    let f = try SceneFile.load(from: URL(fileURLWithPath: file))
    #expect(f.canvas.width == 320 && f.canvas.height == 568 && f.canvas.scale == 2)
    #expect(f.layers.first?.frame == [-40, -40, 400, 648])
    let args = ["--script", "rotate 25deg about y over 0.4s", "--time", "0.5"] + size
    let a = folder.appendingPathComponent("builtin.png").path
    let b = folder.appendingPathComponent("file.png").path
    #expect(try runSwell(["render", "homescreen", "-o", a] + args).status == 0)
    #expect(try runSwell(["render", file, "-o", b] + args).status == 0)
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: a)) == Data(contentsOf: URL(fileURLWithPath: b)))
  }

  @Test("bad --size for print, and --size for check, are usage errors in one line")
  func badSize() throws {
    let r = try runSwell(["scene", "print", "homescreen", "--size", "0x5"])
    #expect(r.status == 64 && r.out.isEmpty)
    #expect(r.err.hasPrefix("swell scene: --size: 0x5 must have a width and height"), "\(r.err)")
    let c = try runSwell(["scene", "check", "x.json", "--size", "10x10"])
    #expect(c.status == 64 && c.err == "swell scene: check takes no --size\n", "\(c.err)")
  }
}
