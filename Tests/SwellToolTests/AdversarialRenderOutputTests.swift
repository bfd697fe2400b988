import Foundation
import SwellRender
import SwellTestSupport
import Testing

/// How an output is read back.
enum OutputReader: String, Sendable, CustomTestStringConvertible {
  case png, svg, pdf, video, webp, sequence
  var testDescription: String { rawValue }
}

/// A 0.4 s motion that moves the water: 5 frames at 10 fps.
private let shortMotion = ["--script", "hold 0.1s; tilt 25deg right over 0.2s; hold 0.1s"]
private let smallSize = ["--size", "78x168@1"]

/// Reads an output back and checks its frame count and pixel size.
private func checkOutput(
  _ reader: OutputReader, at path: String, frames: Int, width: Int, height: Int, _ comment: String
) throws {
  switch reader {
  case .png:
    let image = try ImageSurface.load(contentsOfPNGFile: path)
    #expect(image.pixelWidth == width && image.pixelHeight == height, "\(comment)")
    #expect(distinctColours(image) > 2, "\(comment): the picture is (almost) one colour")
  case .svg:
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.contains("<svg"), "\(comment): not SVG")
    let png = path + ".check.png"
    defer { try? FileManager.default.removeItem(atPath: png) }
    #expect(try runProgram("rsvg-convert", ["-o", png, path]).status == 0, "\(comment)")
    let image = try ImageSurface.load(contentsOfPNGFile: png)
    #expect(image.pixelWidth == width && image.pixelHeight == height, "\(comment)")
    #expect(distinctColours(image) > 2, "\(comment): the SVG draws (almost) one colour")
  case .pdf:
    let info = try runProgram("pdfinfo", [path])
    #expect(info.status == 0, "\(comment)")
    let pages = info.out.split(separator: "\n").first { $0.hasPrefix("Pages:") }
    #expect(pages?.split(separator: " ").last == "\(frames)", "\(comment): \(info.out)")
    #expect(info.out.contains("Page size:       \(width) x \(height) pts"), "\(info.out)")
  case .video:
    let p = try #require(try probeVideo(path), "\(comment): ffprobe cannot read \(path)")
    // MP4 pads odd sizes to even (docs/rendering.md).
    let even = path.lowercased().hasSuffix(".mp4") || path.lowercased().hasSuffix(".m4v")
    let w = even ? width + width % 2 : width
    let h = even ? height + height % 2 : height
    #expect(p == VideoProbe(width: w, height: h, frames: frames), "\(comment)")
  case .webp:
    let info = try runProgram("webpinfo", [path])
    #expect(info.status == 0, "\(comment)")
    #expect(info.out.contains("Canvas size \(width) x \(height)"), "\(comment): \(info.out)")
    #expect(info.out.components(separatedBy: "Chunk ANMF").count - 1 == frames, "\(comment)")
  case .sequence:
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let names = try folderNames(folder)
    #expect(names == (0..<frames).map { String(format: "%05d.png", $0) }, "\(comment)")
    for n in names {
      let image = try ImageSurface.load(contentsOfPNGFile: folder.appendingPathComponent(n).path)
      #expect(image.pixelWidth == width && image.pixelHeight == height, "\(comment): \(n)")
    }
  }
}

@Suite("adversarial: swell render outputs, sizes, times and rates")
private struct AdversarialRenderOutputTests {
  @Test(
    "every output type in any letter case: round(duration·fps) frames (1 for PNG/SVG), the pixel size, one summary line, no other file",
    arguments: [
      ("a.png", OutputReader.png), ("B.PNG", .png), ("c.svg", .svg), ("d.SVG", .svg),
      ("e.pdf", .pdf), ("f.Pdf", .pdf), ("g.mp4", .video), ("H.MP4", .video), ("i.m4v", .video),
      ("j.gif", .video), ("K.GIF", .video), ("l.webp", .webp), ("m.WebP", .webp),
      ("n.apng", .video), ("frames/%05d.png", .sequence),
    ])
  func everyOutput(name: String, reader: OutputReader) throws {
    let folder = try scratchFolder("adversarial-render-out")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent(name).path
    let r = try runSwell(
      ["render", "waterwave", "-o", out, "--duration", "0.4", "--fps", "10"] + smallSize
        + shortMotion)
    #expect(r.status == 0, "\(name): \(r.err)")
    #expect(r.err.isEmpty, "\(name): stderr \(r.err)")
    let single = reader == .png || reader == .svg
    let frames = single ? 1 : documentedRowCount(duration: 0.4, fps: 10)
    // A vector file's size is in points (its summary says so); a raster's in pixels.
    let unit = reader == .svg || reader == .pdf ? "points" : "px"
    #expect(
      r.out.hasPrefix(
        "wrote \(out) (\(frames) frame\(frames == 1 ? "" : "s"), 78x168 \(unit), "),
      "\(name): \(r.out)")
    #expect(r.out.split(separator: "\n").count == 1, "\(name): \(r.out)")
    let top = name.split(separator: "/").first.map(String.init) ?? name
    #expect(try folderNames(folder) == [top], "\(name): leftovers in the output folder")
    try checkOutput(reader, at: out, frames: frames, width: 78, height: 168, name)
  }

  @Test(
    "frame counts follow round(duration·fps), at least 1, at extreme rates and durations",
    arguments: [
      (["--fps", "1", "--duration", "2.5"], 3), (["--fps", "240", "--duration", "0.25"], 60),
      (["--fps", "0.5", "--duration", "1"], 1), (["--fps", "30", "--duration", "0"], 1),
      (["--fps", "60", "--duration", "1e-9"], 1), (["--fps", "7", "--duration", "1"], 7),
    ] as [([String], Int)])
  func extremeRates(options: [String], frames: Int) throws {
    let folder = try scratchFolder("adversarial-render-rates")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("v.mp4").path
    let r = try runSwell(["render", "waterwave", "--size", "40x60@1", "-o", out] + options)
    #expect(r.status == 0, "\(options): \(r.err)")
    #expect(try probeVideo(out) == VideoProbe(width: 40, height: 60, frames: frames), "\(options)")
  }

  @Test(
    "tiny and odd canvases render; MP4 pads odd sizes to even",
    arguments: [
      ("1x1@1", 1, 1), ("77x167@1", 77, 167), ("3x5@3", 9, 15), ("16384x16384@0.001", 16, 16),
      ("10.5x20.5@2", 21, 41),
    ])
  func oddSizes(size: String, width: Int, height: Int) throws {
    let folder = try scratchFolder("adversarial-render-odd")
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["o.png", "o.mp4", "o.gif"] {
      let out = folder.appendingPathComponent(name).path
      let r = try runSwell(
        ["render", "waterwave", "--size", size, "--duration", "0.2", "--fps", "10", "-o", out])
      #expect(r.status == 0, "\(size) \(name): \(r.err)")
      // ffprobe reads the PNG too (one frame).
      try checkOutput(
        .video, at: out, frames: name.hasSuffix(".png") ? 1 : 2, width: width, height: height,
        "\(size) \(name)")
    }
  }

  @Test(
    "impossible sizes, times, durations and rates: one line naming the option, exit 64, no file",
    arguments: [
      (["--size", "0x0"], "--size"), (["--size", "100000x100000"], "--size"),
      (["--size", "390x844@0"], "--size"), (["--size", "390x844@-1"], "--size"),
      (["--size", "390x844@nan"], "--size"), (["--size", "390x844@inf"], "--size"),
      (["--size", "390x844@9"], "--size"), (["--size", "390x844@"], "--size"),
      (["--size", "garbage"], "--size"), (["--size", ""], "--size"),
      (["--size", "x844"], "--size"),
      (["--size", "390x"], "--size"), (["--size", "-5x10"], "--size"),
      (["--size", "nanxnan"], "--size"), (["--size", "1e400x10"], "--size"),
      (["--size", "390x844x3"], "--size"), (["--size", "8000x8000@8"], "--size"),
      (["--time", "-1"], "--time"), (["--time", "nan"], "--time"), (["--time", "inf"], "--time"),
      (["--time", "soon"], "--time"), (["--duration", "-1"], "--duration"),
      (["--duration", "nan"], "--duration"), (["--duration", "inf"], "--duration"),
      (["--fps", "0"], "--fps"), (["--fps", "-30"], "--fps"), (["--fps", "nan"], "--fps"),
      (["--fps", "1001"], "--fps"), (["--fps", "1e300"], "--fps"),
      (["--motion-rate", "0"], "--motion-rate"), (["--response", "wobbly"], "--response"),
      (["--bogus"], "--bogus"), (["--size"], "--size"),
    ] as [([String], String)])
  func impossibleOptions(options: [String], word: String) throws {
    let folder = try scratchFolder("adversarial-render-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("x.mp4").path
    let r = try runSwell(["render", "waterwave", "-o", out] + options)
    expectOneLineFailure(r, command: "render", mentioning: [word], "\(options)")
    #expect(r.status == 64, "\(options): status \(r.status)")
    #expect(try folderNames(folder).isEmpty, "\(options)")
  }

  @Test(
    "work too big to do is refused at once with one line (no hang, no file)",
    arguments: [
      ["--duration", "1e6"], ["--duration", "20000", "--fps", "1000"], ["--time", "1e6"],
      ["--time", "999999", "--fps", "1000"], ["--script", "hold 100000s", "--motion-rate", "1000"],
      ["--size", "0.1x0.1@1"],
    ])
  func tooBig(options: [String]) throws {
    let folder = try scratchFolder("adversarial-render-big")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("x.png").path
    let r = try runSwell(["render", "waterwave", "-o", out] + options)
    expectOneLineFailure(r, command: "render", "\(options)")
    #expect(try folderNames(folder).isEmpty, "\(options)")
  }

  @Test("--time before, at, between and after the motion picks frame round(T·fps)")
  func timeAnywhere() throws {
    let folder = try scratchFolder("adversarial-render-time")
    defer { try? FileManager.default.removeItem(at: folder) }
    let script = ["--script", "tilt 30deg right over 0.3s; hold 0.2s"]  // 0.5 s of motion
    let args = ["--size", "60x100@1", "--fps", "10"] + script
    // The same frame drawn as the last of a sequence (frame + 1 frames: 0 ..< frame + 1) and as
    // a single --time frame.
    for (time, frame) in [("0", 0), ("0.04", 0), ("0.26", 3), ("0.5", 5), ("3", 30)] {
      let single = folder.appendingPathComponent("t\(time).png").path
      let a = try runSwell(["render", "waterwave", "--time", time, "-o", single] + args)
      #expect(a.status == 0, "--time \(time): \(a.err)")
      #expect(a.out.hasPrefix("wrote \(single) (1 frame, 60x100 px"), "\(a.out)")
      let seq = folder.appendingPathComponent("s\(time)")
      let b = try runSwell(
        [
          "render", "waterwave", "--duration", "\(Double(frame + 1) / 10)", "-o",
          seq.appendingPathComponent("%03d.png").path,
        ] + args)
      #expect(b.status == 0, "\(b.err)")
      let last = seq.appendingPathComponent(String(format: "%03d.png", frame)).path
      // The same pixels (a sequence's frames are compressed with other zlib settings than a
      // single PNG's, so the bytes differ).
      let x = try ImageSurface.load(contentsOfPNGFile: single)
      let y = try ImageSurface.load(contentsOfPNGFile: last)
      #expect(
        x.withFramePixels { a in y.withFramePixels { b in a.bytes.elementsEqual(b.bytes) } },
        "--time \(time) is not frame \(frame)")
    }
  }
}

@Suite("adversarial: swell render output failures")
private struct AdversarialRenderFailureTests {
  /// Small executables that stand in for ffmpeg and misbehave.
  static let fakeEncoders: [(name: String, script: String?, word: String)] = [
    ("missing", nil, "ffmpeg"),
    ("exits1", "#!/bin/sh\necho 'Unknown encoder libx264' >&2\nexit 1\n", "status 1"),
    ("killed", "#!/bin/sh\necho dying >&2\nkill -9 $$\n", "signal 9"),
    ("silent", "#!/bin/sh\ncat >/dev/null\nexit 0\n", "no data"),
    ("early", "#!/bin/sh\nhead -c 100 >/dev/null\nexit 0\n", "ffmpeg"),
    ("notexec", "", "not an executable"),
    ("folder", nil, "folder"),
  ]

  @Test(
    "SWELL_FFMPEG missing, failing, killed, silent, quitting early, not executable or a folder: one line, exit 1, nothing left in the folder",
    arguments: fakeEncoders.indices, ["v.mp4", "v.gif", "v.webp", "v.apng"])
  func brokenEncoder(index: Int, name: String) throws {
    let fake = Self.fakeEncoders[index]
    let folder = try scratchFolder("adversarial-render-ffmpeg")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tools = try scratchFolder("adversarial-render-ffmpeg-bin")
    defer { try? FileManager.default.removeItem(at: tools) }
    let exe = tools.appendingPathComponent(fake.name).path
    if let script = fake.script {
      try Data(script.utf8).write(to: URL(fileURLWithPath: exe))
      if fake.name != "notexec" {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: exe)
      } else {
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: exe)
      }
    } else if fake.name == "folder" {
      try FileManager.default.createDirectory(atPath: exe, withIntermediateDirectories: true)
    }
    let out = folder.appendingPathComponent(name).path
    let r = try runSwell(
      ["render", "waterwave", "--size", "40x60@1", "--duration", "0.5", "-o", out],
      environment: ["SWELL_FFMPEG": exe])
    let comment = "\(fake.name) \(name)"
    expectOneLineFailure(r, command: "render", mentioning: [out, fake.word], comment)
    #expect(r.status == 1, "\(comment)")
    #expect(try folderNames(folder).isEmpty, "\(comment): leftovers")
  }

  @Test(
    "unwritable or impossible outputs: one line naming the output, exit 1 (64 for a folder), nothing written",
    arguments: ["x.png", "x.svg", "x.pdf", "x.mp4", "x.gif", "f/%03d.png"])
  func unwritable(name: String) throws {
    let folder = try scratchFolder("adversarial-render-unwritable")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("not a folder".utf8).write(to: folder.appendingPathComponent("file"))
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("taken"), withIntermediateDirectories: true)
    let before = try folderNames(folder)
    var outputs = [
      folder.appendingPathComponent("file/\(name)").path,
      folder.appendingPathComponent("no/such/folder/\(name)").path,
      // /proc refuses new files even for root.
      "/proc/swell-\(UInt32.random(in: 0...UInt32.max))/\(name)",
    ]
    if !name.contains("%") {
      // The output's name is an existing folder.
      let taken = folder.appendingPathComponent("taken/\(name)")
      try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
      outputs.append(taken.path)
    }
    for out in outputs where !(name.contains("%") && out.contains("no/such")) {
      let r = try runSwell(
        ["render", "waterwave", "--size", "40x60@1", "--duration", "0.2", "-o", out])
      expectOneLineFailure(r, command: "render", mentioning: [out], out)
      // An existing folder as the name is a usage error (64), found before any work; the
      // others fail when the output is made (1).
      let isFolder = out.hasSuffix("taken/\(name)")
      #expect(r.status == (isFolder ? 64 : 1), "\(out)")
      #expect(try folderNames(folder) == before, "\(out): the folder changed")
      let taken = folder.appendingPathComponent("taken")
      let inside = try folderNames(taken)
      #expect(inside.allSatisfy { $0 == name }, "\(out): leftovers \(inside)")
    }
  }
}
