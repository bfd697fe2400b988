import Foundation
import SwellTestSupport
import Testing

/// A free UDP port on 127.0.0.1 (bound, read back and released).
private func freeUDPPort() -> UInt16 {
  let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
  defer { close(fd) }
  var addr = sockaddr_in()
  addr.sin_family = sa_family_t(AF_INET)
  addr.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &addr) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
      bind(fd, p, length)
      return getsockname(fd, p, &length)
    }
  }
  return UInt16(bigEndian: addr.sin_port)
}

/// Sends one UDP datagram to 127.0.0.1.
private func send(_ text: String, port: UInt16) {
  let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
  defer { close(fd) }
  var addr = sockaddr_in()
  addr.sin_family = sa_family_t(AF_INET)
  addr.sin_port = port.bigEndian
  addr.sin_addr.s_addr = inet_addr("127.0.0.1")
  let bytes = Array(text.utf8)
  _ = withUnsafePointer(to: &addr) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
}

/// One JSON sample line of Swell's phone stream.
private func sampleLine(_ t: Double) -> String {
  "{\"t\": \(t), \"gyro\": [0, 0, 0], \"accel\": [0, 0, 9.81]}"
}

/// Runs `swell` under `timeout --preserve-status -s SIGNAL AFTER` on a background thread.
private func runInterrupted(_ arguments: [String], signal: String, after seconds: Double) throws
  -> @Sendable () -> (status: Int32, out: String, err: String)
{
  let swell = try swellExecutable().path
  let box = ResultBox()
  let done = DispatchSemaphore(value: 0)
  DispatchQueue.global().async {
    box.value = try? runProgram(
      "timeout", ["--preserve-status", "-s", signal, String(seconds), swell] + arguments)
    done.signal()
  }
  return {
    done.wait()
    return box.value ?? (-1, "", "could not start")
  }
}

private final class ResultBox: @unchecked Sendable {
  // @unchecked: written once by the runner thread before the semaphore is signalled.
  var value: (status: Int32, out: String, err: String)?
}

/// The hidden temporary files left in a folder.
private func leftovers(in folder: URL) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
}

@Suite("Hostile input: outputs and signals", .serialized)
private struct HostileOutputTests {
  @Test("-o - writes to standard output; a FIFO is written to, never replaced")
  func streams() throws {
    let dash = try runSwell(["trace", "waterwave", "--duration", "0.1", "-o", "-"])
    #expect(dash.status == 0, "\(dash.err)")
    #expect(dash.out.hasPrefix("time,water.transform.rotation.z"))
    let folder = try scratchFolder("hostile-out")
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("pipe.csv").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let box = ResultBox()
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let text = FileHandle(forReadingAtPath: fifo).map { h in
        String(decoding: h.readDataToEndOfFile(), as: UTF8.self)
      }
      box.value = (0, text ?? "", "")
      done.signal()
    }
    let r = try runSwell(["trace", "waterwave", "--duration", "0.1", "-o", fifo])
    #expect(r.status == 0, "\(r.err)")
    #expect(done.wait(timeout: .now() + 30) == .success)
    #expect(box.value?.out.hasPrefix("time,") == true)
    var info = stat()
    #expect(lstat(fifo, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
  }

  @Test(
    "render -o - --format writes the file to standard output and the summary to standard error",
    arguments: [("png", [0x89, 0x50, 0x4E, 0x47]), ("gif", [0x47, 0x49, 0x46, 0x38])]
      as [(String, [UInt8])])
  func renderToStandardOutput(format: String, magic: [UInt8]) throws {
    let r = try runSwellBytes([
      "render", "waterwave", "--size", "100x200@1", "--duration", "0.2", "--format", format,
      "-o", "-",
    ])
    #expect(r.status == 0, "\(r.err)")
    #expect(Array(r.out.prefix(4)) == magic, "\(format): \(r.out.prefix(8).map { $0 })")
    #expect(r.err.contains("wrote -"))
    let missing = try runSwell(["render", "waterwave", "-o", "-"])
    #expect(missing.status == 64 && missing.err.contains("needs --format"), "\(missing.err)")
  }

  @Test("fuse -o - writes rows to standard output and its summary to standard error")
  func fuseToStandardOutput() throws {
    let folder = try scratchFolder("fuse-dash")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in.csv")
    var csv = "t_s,gx,gy,gz,ax,ay,az,mx,my,mz\n"
    for i in 0..<200 { csv += "\(Double(i) / 100),0,0,0,0,9.81,0,,,\n" }
    try csv.write(to: input, atomically: true, encoding: .utf8)
    let r = try runSwell(["fuse", input.path, "-o", "-"])
    #expect(r.status == 0, "\(r.err)")
    let lines = r.out.split(separator: "\n")
    #expect(lines.first == "# referenceFrame: xArbitraryZVertical")
    #expect(lines.count == 202, "header lines and 200 rows only: \(lines.suffix(2))")
    #expect(!r.out.contains("fused "))
    #expect(r.err.contains("fused 200 samples"))
  }

  @Test("links keep being links: to a device it is written, to a file its target is replaced")
  func links() throws {
    let folder = try scratchFolder("hostile-links")
    defer { try? FileManager.default.removeItem(at: folder) }
    let toNull = folder.appendingPathComponent("null.csv").path
    #expect(symlink("/dev/null", toNull) == 0)
    let r = try runSwell(["trace", "waterwave", "--duration", "0.1", "-o", toNull])
    #expect(r.status == 0, "\(r.err)")
    var info = stat()
    #expect(lstat(toNull, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)

    let target = folder.appendingPathComponent("real.csv").path
    try Data("old\n".utf8).write(to: URL(fileURLWithPath: target))
    let link = folder.appendingPathComponent("link.csv").path
    #expect(symlink("real.csv", link) == 0)
    let s = try runSwell(["trace", "waterwave", "--duration", "0.1", "-o", link])
    #expect(s.status == 0, "\(s.err)")
    #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("time,"))
    #expect(try leftovers(in: folder).isEmpty)
  }

  @Test("an MP4 the encoder could not finish (no moov box, status 0) is an error, not 'wrote'")
  func incompleteVideo() throws {
    let folder = try scratchFolder("hostile-mp4")
    defer { try? FileManager.default.removeItem(at: folder) }
    // What ffmpeg leaves on a full disk: an ftyp box and no moov, with exit status 0.
    let fake = folder.appendingPathComponent("ffmpeg")
    try Data(
      """
      #!/bin/sh
      for last; do :; done
      cat > /dev/null
      printf '\\000\\000\\000\\030ftypisom\\000\\000\\002\\000isomiso2' > "$last"
      echo "Error writing trailer of $last: No space left on device" >&2
      exit 0

      """.utf8
    ).write(to: fake)
    #expect(chmod(fake.path, 0o755) == 0)
    let out = folder.appendingPathComponent("x.mp4").path
    let r = try runSwell(
      ["render", "waterwave", "--duration", "0.1", "--fps", "10", "-o", out],
      environment: ["SWELL_FFMPEG": fake.path])
    #expect(r.status == 1, "\(r.out) \(r.err)")
    #expect(r.err.contains("moov"), "\(r.err)")
    #expect(!r.out.contains("wrote"))
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(try leftovers(in: folder).isEmpty)
  }

  @Test("Ctrl-C during a PNG sequence removes the frames already written as well, and exits 130")
  func interruptedSequence() throws {
    let folder = try scratchFolder("hostile-seq-int")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("%05d.png").path
    let wait = try runInterrupted(
      ["render", "waterwave", "--duration", "60", "--fps", "30", "-o", out], signal: "INT",
      after: 4)
    // Frames are in place before the signal (slow on a loaded machine: wait for the first).
    let started = waitFor(seconds: 3.5) {
      ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains {
        $0.hasSuffix(".png")
      }
    }
    let r = wait()
    #expect(r.status == 130, "\(r.err)")
    usleep(300_000)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    if !started { print("note: no frame was finished before the signal") }
  }

  @Test("SIGTERM during a render removes the temporary file and exits 143")
  func terminatedRender() throws {
    _ = try requireProgram("ffmpeg")
    let folder = try scratchFolder("hostile-term")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("x.mp4").path
    let wait = try runInterrupted(
      ["render", "waterwave", "--duration", "60", "-o", out], signal: "TERM", after: 3)
    let r = wait()
    #expect(r.status == 143, "\(r.err)")
    usleep(300_000)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test("Ctrl-C ends swell record cleanly and keeps every sample recorded")
  func interruptedRecord() throws {
    let folder = try scratchFolder("hostile-int")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("rec.csv").path
    let port = freeUDPPort()
    let wait = try runInterrupted(
      ["record", "udp:\(port)", "-o", out, "--duration", "60"], signal: "INT", after: 5)
    // Send once the recording has begun (its temporary file exists; slow on a loaded machine).
    #expect(waitFor(seconds: 4) { (try? leftovers(in: folder).isEmpty) == false })
    usleep(300_000)
    var sent = 0
    for k in 0..<100 {
      send(sampleLine(Double(k) * 0.01), port: port)
      sent += 1
      usleep(5_000)
    }
    let r = wait()
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out.contains("stopped by Ctrl-C"), "\(r.out)")
    let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count - 1
    #expect(rows == sent, "\(r.out) \(r.err)")
    #expect(try leftovers(in: folder).isEmpty)
  }

  @Test("one UDP sample stamped 1e300 is dropped and counted; later samples are kept")
  func wildTimestamp() throws {
    let folder = try scratchFolder("hostile-udp")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("rec.csv").path
    let port = freeUDPPort()
    let wait = try runInterrupted(
      ["record", "udp:\(port)", "-o", out, "--duration", "4"], signal: "KILL", after: 30)
    #expect(waitFor(seconds: 3) { (try? leftovers(in: folder).isEmpty) == false })
    usleep(300_000)
    for k in 0..<50 {
      send(sampleLine(Double(k) * 0.01), port: port)
      usleep(5_000)
    }
    send(sampleLine(1e300), port: port)
    send(sampleLine(1e9), port: port)
    for k in 50..<100 {
      send(sampleLine(Double(k) * 0.01), port: port)
      usleep(5_000)
    }
    let r = wait()
    #expect(r.status == 0, "\(r.err)")
    let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count - 1
    #expect(rows == 100, "\(r.out) \(r.err)")
    #expect(r.err.contains("2 far-off-clock"), "\(r.err)")
  }
}
