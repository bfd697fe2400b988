import Foundation
import SwellGeometry
import SwellTestSupport
import Testing

/// A clean device-motion CSV: 2 s at 100 Hz, tilting 30° right with a pitch-rate burst.
private func cleanRows() throws -> [MotionRow] {
  try scriptRows(
    "tilt 30deg right over 0.5s; shake x 3Hz 2rad/s for 1s; hold 0.5s",
    at: (0...200).map { Double($0) / 100 })
}

/// The fields of each row as text, to rebuild the file with a twist.
private func fieldLines(_ rows: [MotionRow]) -> [[String]] {
  rows.map { $0.fields.map { "\($0)" } }
}

/// Bad input of every kind, valid input in every accepted spelling, and CLI words that must be
/// refused: one line on stderr, a non-zero exit, and never a partial output file.
@Suite("adversarial: input files and command-line words")
private struct AdversarialInputTests {
  /// Variants of the same recording that readers must accept (docs/formats.md): CRLF line endings, a
  /// BOM, comment lines anywhere, trailing blank lines, extra columns, spaces around fields,
  /// exponent numbers, a reference-frame comment. Each traces exactly like the clean file.
  @Test(
    "accepted spellings",
    arguments: [
      "crlf", "bom", "comments", "trailing blank lines", "extra columns", "spaces", "exponents",
      "reference frame comment", "everything",
    ])
  func acceptedSpellings(variant: String) throws {
    let folder = try scratchFolder("adversarial-spelling")
    defer { try? FileManager.default.removeItem(at: folder) }
    let rows = try cleanRows()
    let clean = try writeFile(deviceMotionCSV(rows), named: "clean.csv", in: folder)
    var header = deviceMotionHeader
    var lines = fieldLines(rows)
    var eol = "\n"
    var prefix = ""
    var suffix = ""
    var comments = false
    let all = variant == "everything"
    if variant == "crlf" || all { eol = "\r\n" }
    if variant == "bom" || all { prefix = "\u{FEFF}" }
    if variant == "trailing blank lines" || all { suffix = eol + eol + eol }
    if variant == "reference frame comment" || all {
      prefix += "# referenceFrame: xArbitraryZVertical" + eol
    }
    if variant == "comments" || all { comments = true }
    if variant == "extra columns" || all {
      header += ",note,magnitude"
      lines = lines.map { $0 + ["x", "1e3"] }
    }
    if variant == "exponents" || all {
      // The same decimal numbers in exponent form: "-0.5235" becomes "-5235E-4", "12.5"
      // becomes "125e-1" (the same value, exactly).
      lines = lines.map { row in
        row.enumerated().map { j, f in
          guard !f.contains("e"), let dot = f.firstIndex(of: ".") else { return f }
          let fraction = f[f.index(after: dot)...]
          return f[..<dot] + fraction + (j % 2 == 0 ? "e-" : "E-") + "\(fraction.count)"
        }
      }
    }
    if variant == "spaces" || all {
      header = header.split(separator: ",").map { " \($0) " }.joined(separator: ",")
      lines = lines.map { $0.map { " \($0)\t" } }
    }
    var text = prefix + (comments ? "# recorded by nobody" + eol : "") + header + eol
    for (i, l) in lines.enumerated() {
      text += l.joined(separator: ",") + eol
      if comments && i % 50 == 7 { text += "# a comment line, 1,2,3" + eol }
    }
    text += suffix
    let twisted = try writeFile(text, named: "twisted.csv", in: folder)
    let expected = try runSwell(["trace", "waterwave", "--motion", clean])
    try #require(expected.status == 0, "\(expected.err)")
    let got = try runSwell(["trace", "waterwave", "--motion", twisted])
    #expect(got.status == 0, "\(variant): \(got.err)")
    #expect(got.err.isEmpty, "\(variant): \(got.err)")
    #expect(got.out == expected.out, "\(variant): trace differs from the clean file's")
  }

  /// Files that must be refused with one line naming the file (and the line and column where
  /// there is one), leaving no output file.
  @Test(
    "refused files",
    arguments: [
      ("empty", "", ["bad.csv"]),
      ("header only", "HEADER\n", ["bad.csv"]),
      ("wrong header", "time,gravity.x\n0,1\n", ["bad.csv"]),
      (
        "nan", "HEADER\nROW\n1,1,0,0,0,0,-1,0,0,0,0,nan,0,0\n", ["bad.csv", ":3", "rotationRate.x"]
      ),
      (
        "inf", "HEADER\nROW\n1,1,0,0,0,0,-1,0,0,0,0,0,-inf,0\n",
        ["bad.csv", ":3", "rotationRate.y"]
      ),
      (
        "overflow", "HEADER\nROW\n1,1,0,0,0,1e400,-1,0,0,0,0,0,0,0\n",
        ["bad.csv", ":3", "gravity.x"]
      ),
      ("empty field", "HEADER\nROW\n1,1,0,0,0,0,,0,0,0,0,0,0,0\n", ["bad.csv", ":3", "gravity.y"]),
      (
        "word", "HEADER\nROW\n1,1,0,0,0,0,-1,0,0,0,0,0,0,abc\n",
        ["bad.csv", ":3", "rotationRate.z"]
      ),
      ("equal time", "HEADER\nROW\nROW\n", ["bad.csv", ":3", "time"]),
      ("earlier time", "HEADER\nROW\n-1,1,0,0,0,0,-1,0,0,0,0,0,0,0\n", ["bad.csv", ":3", "time"]),
      ("short row", "HEADER\nROW\n1,1,0,0,0,0,-1\n", ["bad.csv", ":3"]),
      ("zero quaternion", "HEADER\n0,0,0,0,0,0,-1,0,0,0,0,0,0,0\n", ["bad.csv", ":2"]),
      (
        "overflowing quaternion", "HEADER\nROW\n1,1e300,1e300,0,0,0,-1,0,0,0,0,0,0,0\n",
        ["bad.csv", ":3", "attitude"]
      ),
      ("unknown frame", "# referenceFrame: sideways\nHEADER\nROW\n", ["bad.csv", "sideways"]),
    ])
  func refusedFiles(name: String, template: String, mentioning: [String]) throws {
    let folder = try scratchFolder("adversarial-refused")
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = template.replacingOccurrences(of: "HEADER", with: deviceMotionHeader)
      .replacingOccurrences(of: "ROW", with: "0,1,0,0,0,0,-1,0,0,0,0,0,0,0")
    let bad = try writeFile(text, named: "bad.csv", in: folder)
    let out = folder.appendingPathComponent("trace.csv").path
    for scene in ["waterwave", "homescreen"] {
      let r = try runSwell(["trace", scene, "--motion", bad, "-o", out])
      expectOneLineFailure(r, command: "trace", mentioning: mentioning, "\(name) \(scene)")
      #expect(r.out.isEmpty, "\(name): stdout \(r.out)")
      let left = try folderNames(folder)
      #expect(left == ["bad.csv"], "\(name): left \(left)")
    }
  }

  /// Non-UTF-8 bytes inside a number, a directory instead of a file, a missing file.
  @Test("unreadable kinds") func unreadableKinds() throws {
    let folder = try scratchFolder("adversarial-kinds")
    defer { try? FileManager.default.removeItem(at: folder) }
    var bytes = Data((deviceMotionHeader + "\n0,1,0,0,0,0,-1,0,0,0,0,0,0,0\n1,1,0,0,0,0,-1,0").utf8)
    bytes += Data([0xFF, 0xFE])
    bytes += Data(",0,0,0,0,0,0\n".utf8)
    try bytes.write(to: folder.appendingPathComponent("latin.csv"))
    let empty = folder.appendingPathComponent("nothing-here")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let cases: [(String, [String])] = [
      ("latin.csv", ["latin.csv", ":3"]),
      ("nothing-here", ["nothing-here"]),
      ("missing.csv", ["missing.csv"]),
    ]
    for (name, words) in cases {
      let path = folder.appendingPathComponent(name).path
      let r = try runSwell(["trace", "waterwave", "--motion", path])
      expectOneLineFailure(r, command: "trace", mentioning: words, name)
      let f = try runSwell(["fuse", path, "-o", folder.appendingPathComponent("o.csv").path])
      expectOneLineFailure(f, command: "fuse", mentioning: words, "fuse \(name)")
    }
    #expect(try folderNames(folder) == ["latin.csv", "nothing-here"])
  }

  /// A file without read permission: refused in one line naming it, unless the tests run as
  /// root (which reads it anyway, and then it must trace normally).
  @Test("unreadable file") func unreadableFile() throws {
    let folder = try scratchFolder("adversarial-perm")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try writeFile(deviceMotionCSV(try cleanRows()), named: "locked.csv", in: folder)
    try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
    let r = try runSwell(["trace", "waterwave", "--motion", path])
    if geteuid() == 0 {
      #expect(r.status == 0 && r.err.isEmpty, "root reads it: \(r.err)")
      try checkTraceInvariants(try TraceTable(csv: r.out), fps: 60, rows: 120, "root")
    } else {
      expectOneLineFailure(r, command: "trace", mentioning: ["locked.csv"], "no permission")
    }
  }

  /// Huge but finite values (rates of 1e300 rad/s, gravity of 1e300 g): accepted, and nothing
  /// non-finite comes out; the amplitude and tilt stay within their bounds.
  @Test("huge finite values") func hugeFiniteValues() throws {
    let folder = try scratchFolder("adversarial-huge")
    defer { try? FileManager.default.removeItem(at: folder) }
    let rows = (0...100).map { i -> MotionRow in
      let big = i % 2 == 0 ? 1e300 : -1e300
      return MotionRow(
        time: Double(i) / 50, attitude: .identity, rotationRate: Vector3(big, big, big),
        gravity: Vector3(big, i % 3 == 0 ? 1e300 : -1e300, 1e-300))
    }
    let path = try writeFile(deviceMotionCSV(rows), named: "huge.csv", in: folder)
    for scene in ["waterwave", "homescreen"] {
      for extra in [[], ["--seed-exact"], ["--response", "sloshing"]] {
        let table = try traceTable([scene, "--motion", path] + extra, "\(scene) \(extra)")
        try checkTraceInvariants(
          table, fps: 60, rows: 120, seedExact: extra == ["--seed-exact"],
          sloshing: extra.contains("sloshing"), "huge \(scene) \(extra)")
      }
    }
  }

  /// The physical water under the same huge values, tiny ones and zero gravity (the reader
  /// refuses non-finite values; the model's own tests feed it NaN): finite rows, the volume kept,
  /// the surface angle in (−π, π] (a NaN would trace as 0, so the volume column is the witness).
  @Test(
    "physical water under hostile values",
    arguments: [["glass"], ["waterwave", "--response", "physical"]])
  func physicalWaterUnderHostileValues(scene: [String]) throws {
    let folder = try scratchFolder("adversarial-physical")
    defer { try? FileManager.default.removeItem(at: folder) }
    let rows = (0...100).map { i -> MotionRow in
      let big = i % 2 == 0 ? 1e300 : -1e300
      let odd = [0, 1e-300, -1e-300, 1e300][i % 4]
      return MotionRow(
        time: Double(i) / 50, attitude: .identity,
        rotationRate: i % 5 == 0 ? Vector3(odd, 20, odd) : Vector3(big, big, big),
        gravity: i % 7 == 0 ? Vector3(odd, odd, odd) : Vector3(big, i % 3 == 0 ? 1e300 : -1e300, 0))
    }
    let path = try writeFile(deviceMotionCSV(rows), named: "hostile.csv", in: folder)
    let table = try traceTable(scene + ["--motion", path], "\(scene)")
    // (Not checkTraceInvariants: the glass's ripples are smaller than the waterwave's base.)
    #expect(table.rows.count == 120)
    #expect(table.rows.allSatisfy { $0.allSatisfy(\.isFinite) })
    // The built-in glass is open (it pours out when turned over and refills upright): its
    // volume stays within [0, 0.5]; the closed waterwave container keeps it exactly.
    let isOpenGlass = scene == ["glass"]
    for (i, v) in try table.column("water.volume").enumerated() {
      if isOpenGlass {
        #expect(v >= -1e-9 && v <= 0.5 + 1e-6, "\(scene) frame \(i): volume \(v)")
      } else {
        #expect(abs(v - 0.5) < 1e-6, "\(scene) frame \(i): volume \(v)")
      }
    }
    for a in try table.column("water.surface.angle") {
      #expect(a > -Double.pi && a <= Double.pi, "\(scene): angle \(a)")
    }
  }

  /// Command-line words that must be refused with one line (usage errors exit 64).
  @Test(
    "refused words",
    arguments: [
      (["--fps", "0"], "--fps"), (["--fps", "-1"], "--fps"), (["--fps", "nan"], "--fps"),
      (["--fps", "inf"], "--fps"), (["--fps", "abc"], "--fps"), (["--fps"], "--fps"),
      (["--fps", "1e9"], "frames"), (["--duration", "0"], "--duration"),
      (["--duration", "-2"], "--duration"), (["--duration", "1e300"], "frames"),
      (["--duration", "1e300", "--fps", "1e300"], "frames"), (["--duration", "NaN"], "--duration"),
      (["--duration"], "--duration"), (["--bogus"], "--bogus"), (["--format", "xml"], "--format"),
      (["--motion"], "--motion"), (["--script"], "--script"),
      (["--script", "wobble 3s"], "wobble"),
      (["--script", "hold 1s", "--motion", "x.csv"], "--motion"),
      (["--response", "x"], "--response"),
      (["--motion-rate", "0", "--script", "hold 1s"], "--motion-rate"),
      (["--motion-rate", "1e12", "--script", "hold 10s"], "--motion-rate"),
      (["extra-word"], "extra-word"),
    ])
  func refusedWords(words: [String], mentioning: String) throws {
    let r = try runSwell(["trace", "waterwave"] + words)
    expectOneLineFailure(r, command: "trace", mentioning: [mentioning], "\(words)")
    #expect(r.out.isEmpty, "\(words): stdout \(r.out.prefix(200))")
  }

  /// Odd but valid sizes: a tiny duration gives one row, a tiny fps one row, a high fps over a
  /// short time the documented count.
  @Test(
    "odd sizes",
    arguments: [
      (["--duration", "1e-9"], 60.0, 1), (["--fps", "0.001"], 0.001, 1),
      (["--fps", "1e-300"], 1e-300, 1),
      (["--fps", "100000", "--duration", "0.5"], 100_000, 50_000),
      (["--fps", "7", "--duration", "1"], 7, 7),
      (["--fps", "59.94", "--duration", "3"], 59.94, 180),
    ])
  func oddSizes(words: [String], fps: Double, rows: Int) throws {
    for scene in ["waterwave", "homescreen"] {
      let table = try traceTable([scene] + words, "\(words)")
      try checkTraceInvariants(table, fps: fps, rows: rows, "\(scene) \(words)")
    }
  }

  /// `-o` into a missing folder, under a regular file, onto a folder: one line, nothing left.
  /// `-o` onto an existing file replaces it by rename (a hard link keeps the old contents), and a
  /// failed run leaves the existing file as it was.
  @Test("outputs") func outputs() throws {
    let folder = try scratchFolder("adversarial-outputs")
    defer { try? FileManager.default.removeItem(at: folder) }
    let plain = try writeFile("I am a file\n", named: "plain.txt", in: folder)
    let motion = try writeFile(deviceMotionCSV(try cleanRows()), named: "m.csv", in: folder)
    let sub = folder.appendingPathComponent("a-folder")
    try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
    for target in [
      folder.appendingPathComponent("missing/out.csv").path, plain + "/out.csv", sub.path,
    ] {
      for command in [["trace", "waterwave", "--motion", motion], ["fuse", motion]] {
        let r = try runSwell(command + ["-o", target])
        expectOneLineFailure(
          r, command: command[0], mentioning: [target], "\(command[0]) -o \(target)")
      }
    }
    #expect(try folderNames(folder) == ["a-folder", "m.csv", "plain.txt"])
    #expect(try folderNames(sub).isEmpty)

    // Replace an existing file atomically.
    let out = try writeFile("old contents\n", named: "trace.json", in: folder)
    try FileManager.default.linkItem(
      atPath: out, toPath: folder.appendingPathComponent("link.json").path)
    let ok = try runSwell(["trace", "waterwave", "--motion", motion, "-o", out, "--format", "json"])
    #expect(ok.status == 0 && ok.err.isEmpty && ok.out.isEmpty, "\(ok.err)")
    let written = try String(contentsOfFile: out, encoding: .utf8)
    let parsed = try TraceTable(
      json: written, header: ["time", Key.tilt, Key.amplitude, Key.phase])
    try checkTraceInvariants(parsed, fps: 60, rows: 120, "json -o")
    #expect(
      try String(contentsOfFile: folder.appendingPathComponent("link.json").path, encoding: .utf8)
        == "old contents\n", "the old file was written in place, not replaced")
    // A failing run leaves it alone.
    let bad = try writeFile("nonsense\n", named: "bad.csv", in: folder)
    let failed = try runSwell(["trace", "waterwave", "--motion", bad, "-o", out])
    expectOneLineFailure(failed, command: "trace", mentioning: ["bad.csv"], "bad -o existing")
    #expect(try String(contentsOfFile: out, encoding: .utf8) == written)
    #expect(
      try folderNames(folder) == [
        "a-folder", "bad.csv", "link.json", "m.csv", "plain.txt", "trace.json",
      ])
  }
}
