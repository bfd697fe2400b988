import Foundation
import SwellCairo
import SwellFiles
import Synchronization

/// Collects the tail of a child process's standard error on a background thread.
private final class ErrorTail: Sendable {
  private let text = Mutex("")
  private let done = DispatchSemaphore(value: 0)
  private static let limit = 4096

  /// Starts reading `descriptor` until end of file.
  func start(reading descriptor: Int32) {
    Thread.detachNewThread { [self] in
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        guard n > 0 else { break }
        let chunk = String(decoding: buffer[0..<n], as: UTF8.self)
        text.withLock { value in
          value += chunk
          if value.utf8.count > Self.limit { value = String(value.suffix(Self.limit / 2)) }
        }
      }
      done.signal()
    }
  }

  /// Waits for end of file and returns the last few lines, one line joined by ` | `.
  func finish() -> String {
    done.wait()
    let lines = text.withLock { $0 }.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    let tail = lines.suffix(3).joined(separator: " | ")
    return tail.count > 400 ? String(tail.suffix(400)) : tail
  }
}

/// Encodes frames to MP4 (H.264), GIF, animated WebP or APNG by piping raw frames into an
/// `ffmpeg` child process (`-f rawvideo -pix_fmt bgra -s WxH -r FPS -i -`; for an MP4 the frames
/// are converted to BT.709 4:2:0 first, ``YUV420Converter``, on the writer thread, and sent as
/// `-pix_fmt yuv420p`: 37.5 % of the bytes, and no conversion in ffmpeg, whose reading and
/// converting of BGRA took about 15 ms of processor time a 1170 × 2532 frame against the
/// converter's 2.5 ms, `docs/rendering-cli.md`).
///
/// ffmpeg writes a temporary file in the destination folder, renamed into place by ``finish()``
/// once its structure is checked (an MP4 must have its `moov` box: ffmpeg exits 0 after failing
/// to write the trailer on a full disk). A missing ffmpeg, an encoder that exits early (its last
/// error lines are in the message), a full disk, an incomplete file or an unwritable folder give a
/// one-line ``RenderError`` and leave no file behind.
/// `SIGPIPE` is ignored so an early exit never kills the process.
///
/// A GIF is made in two passes (``FFmpegOptions/gifSideFiles(for:)``) so that memory stays
/// bounded however long it is: the frames stream into a palette and a losslessly compressed
/// frames file beside the output while they are drawn, and ``finish()`` runs the second pass,
/// which dithers them to the palette; both side files are removed on every path.
public final class VideoSink: FrameSink {
  /// The video file.
  public let path: String
  /// The video format.
  public let format: OutputFormat
  /// The encoder settings.
  public let options: FFmpegOptions
  /// The number of frames sent to the encoder.
  public private(set) var frameCount = 0

  private struct Session {
    var process: Process
    var input: Pipe
    /// Kept so its read end stays open while ``errors`` reads it.
    var errorPipe: Pipe
    var errors: ErrorTail
    var file: OutputFile
    var canvas: RasterCanvas
    var configuration: FrameConfiguration
    var executable: String
    /// The GIF's palette and frames between its passes (empty for other formats).
    var sideFiles: [String]

    /// Removes the side files (idempotent).
    func removeSideFiles() {
      for f in sideFiles {
        unlink(f)
        UnfinishedOutputs.remove(f)
      }
    }
  }
  private var session: Session?
  private var environment: [String: String]
  /// What the pipe carries: converted frames for an MP4.
  private var input: FFmpegOptions.InputPixels { format == .mp4 ? .yuv420p : .bgra }
  /// Room for one converted frame (MP4), allocated at ``begin(_:)``.
  private var converted: UnsafeMutableRawBufferPointer?

  /// Creates a video sink.
  ///
  /// - Parameters:
  ///   - path: The video file to create or replace.
  ///   - format: ``OutputFormat/mp4``, ``OutputFormat/gif``, ``OutputFormat/webp`` or
  ///     ``OutputFormat/apng``.
  ///   - options: The ffmpeg location and quality.
  ///   - environment: Where `SWELL_FFMPEG` and `PATH` are read (the process environment by
  ///     default).
  /// - Throws: ``RenderError`` (`unsupportedFormat`) for a non-video format.
  public init(
    path: String, format: OutputFormat, options: FFmpegOptions = FFmpegOptions(),
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(RenderError) {
    guard format.usesFFmpeg else {
      throw RenderError(
        .unsupportedFormat, path: path, reason: "\(format.rawValue) is not a video format")
    }
    self.path = path
    self.format = format
    self.options = options
    self.environment = environment
  }

  deinit {
    cancel()
    converted?.deallocate()
  }

  /// Finds ffmpeg, checks the folder and starts the encoder.
  ///
  /// - Parameter configuration: The frame size, scale and rate.
  /// - Throws: ``RenderError`` naming the video file.
  public func begin(_ configuration: FrameConfiguration) throws(RenderError) {
    guard session == nil else {
      throw RenderError(.invalidState, path: path, reason: "the output was already begun")
    }
    try configuration.validate(for: path)
    signal(SIGPIPE, SIG_IGN)
    let executable = try options.resolveExecutable(environment: environment, output: path)
    let canvas = try RasterCanvas(configuration, path: path)
    let file = try OutputFile(path: path)
    try file.closeDescriptor()

    // Starts: ffmpeg (or the executable SWELL_FFMPEG names)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = options.arguments(
      for: format, pixelWidth: configuration.pixelWidth, pixelHeight: configuration.pixelHeight,
      framesPerSecond: configuration.framesPerSecond, output: file.temporaryPath, input: input)
    if input == .yuv420p, converted == nil {
      converted = UnsafeMutableRawBufferPointer.allocate(
        byteCount: YUV420Converter.byteCount(
          pixelWidth: configuration.pixelWidth, pixelHeight: configuration.pixelHeight),
        alignment: 64)
    }
    var sideFiles: [String] = []
    if format == .gif {
      let side = FFmpegOptions.gifSideFiles(for: file.temporaryPath)
      sideFiles = [side.palette, side.frames]
      for f in sideFiles { UnfinishedOutputs.insert(f) }
    }
    let input = Pipe()
    let errorPipe = Pipe()
    // Keep our ends out of other children started meanwhile, so EOF reaches this encoder.
    _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
    Self.enlargePipe(input.fileHandleForWriting.fileDescriptor)
    _ = fcntl(errorPipe.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errorPipe
    do {
      try process.run()
    } catch {
      file.discard()
      for f in sideFiles { UnfinishedOutputs.remove(f) }
      throw RenderError(
        .encoderMissing, path: path,
        reason:
          "cannot start ffmpeg '\(executable)' (\(error)); install the Debian package 'ffmpeg'")
    }
    UnfinishedOutputs.insertEncoder(process.processIdentifier)
    // The child has its copies; close ours so EOF is seen when the child exits.
    try? input.fileHandleForReading.close()
    try? errorPipe.fileHandleForWriting.close()
    let errors = ErrorTail()
    errors.start(reading: errorPipe.fileHandleForReading.fileDescriptor)
    session = Session(
      process: process, input: input, errorPipe: errorPipe, errors: errors, file: file,
      canvas: canvas, configuration: configuration, executable: executable,
      sideFiles: sideFiles)
  }

  /// Draws the next frame at the configured scale and sends it to the encoder.
  ///
  /// - Parameter body: Draws in points.
  /// - Throws: What `body` throws, or ``RenderError`` naming the video file.
  public func draw(_ body: (CairoContext) throws -> Void) throws {
    guard let session else { throw notBegun() }
    try session.canvas.render(body, path: path)
    try session.canvas.image.withFramePixels { (frame) throws(RenderError) in try write(frame) }
  }

  /// Sends a frame of pixels to the encoder.
  ///
  /// - Parameter frame: The pixels, at the configured pixel size.
  /// - Throws: ``RenderError``; when the encoder has stopped, its last error lines.
  public func write(_ frame: FramePixels) throws(RenderError) {
    guard let session else { throw notBegun() }
    try checkFrame(
      frame, width: session.configuration.pixelWidth, height: session.configuration.pixelHeight,
      path: path)
    let descriptor = session.input.fileHandleForWriting.fileDescriptor
    let rowBytes = 4 * frame.pixelWidth
    guard let base = frame.bytes.baseAddress else { return }
    var failure: Int32 = 0
    if let converted {
      let count = YUV420Converter.byteCount(
        pixelWidth: frame.pixelWidth, pixelHeight: frame.pixelHeight)
      YUV420Converter.convert(frame, into: converted)
      failure = writeAll(descriptor, UnsafeRawBufferPointer(rebasing: converted[0..<count]))
    } else if frame.bytesPerRow == rowBytes {
      failure = writeAll(
        descriptor, UnsafeRawBufferPointer(start: base, count: rowBytes * frame.pixelHeight))
    } else {
      for row in 0..<frame.pixelHeight where failure == 0 {
        failure = writeAll(
          descriptor,
          UnsafeRawBufferPointer(start: base + row * frame.bytesPerRow, count: rowBytes))
      }
    }
    guard failure == 0 else {
      let error = stop(
        reason: "ffmpeg stopped reading frames (\(String(cString: strerror(failure))))")
      throw error
    }
    frameCount += 1
  }

  /// Ends the stream, waits for the encoder and moves the video into place.
  ///
  /// - Throws: ``RenderError`` naming the video file, with ffmpeg's last error lines when it
  ///   failed.
  public func finish() throws(RenderError) {
    guard let session else { throw notBegun() }
    guard frameCount > 0 else {
      cancel()
      throw RenderError(.invalidState, path: path, reason: "no frame was written")
    }
    try? session.input.fileHandleForWriting.close()
    session.process.waitUntilExit()
    UnfinishedOutputs.removeEncoder(session.process.processIdentifier)
    var tail = session.errors.finish()
    self.session = nil
    var process = session.process
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      session.removeSideFiles()
      session.file.discard()
      throw RenderError(.encoderFailed, path: path, reason: Self.describe(process, tail: tail))
    }
    if format == .gif {
      // ffmpeg 5 exits 0 after failing to write a file (a full disk): the first pass's side
      // files would be short.
      if tail.contains("Error writing trailer") || tail.contains("No space left on device") {
        session.removeSideFiles()
        session.file.discard()
        throw RenderError(.encoderFailed, path: path, reason: "ffmpeg could not finish: \(tail)")
      }
      // The second pass: the palette and the frames of the first, dithered into the GIF.
      do throws(RenderError) {
        (process, tail) = try runSecondPass(session)
      } catch {
        session.removeSideFiles()
        session.file.discard()
        throw error
      }
      session.removeSideFiles()
      guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        session.file.discard()
        throw RenderError(
          .encoderFailed, path: path,
          reason: "the GIF's second pass failed: " + Self.describe(process, tail: tail))
      }
    }
    var info = stat()
    guard stat(session.file.temporaryPath, &info) == 0, info.st_size > 0 else {
      session.file.discard()
      throw RenderError(
        .encoderFailed, path: path,
        reason: tail.isEmpty
          ? "ffmpeg finished but wrote no data" : "ffmpeg finished but wrote no data: \(tail)")
    }
    // ffmpeg 5 exits 0 after "Error writing trailer" (a full disk): check the file itself.
    if let problem = VideoFileCheck.problem(at: session.file.temporaryPath, format: format) {
      session.file.discard()
      throw RenderError(
        .encoderFailed, path: path,
        reason: "ffmpeg finished but the file is incomplete: \(problem)"
          + (tail.isEmpty ? "" : " (\(tail))"))
    }
    if tail.contains("Error writing trailer") || tail.contains("No space left on device") {
      session.file.discard()
      throw RenderError(.encoderFailed, path: path, reason: "ffmpeg could not finish: \(tail)")
    }
    try session.file.commit()
  }

  /// Linux's `F_SETPIPE_SZ` (`fcntl.h` defines it only under `_GNU_SOURCE`, which Swell's
  /// Glibc module does not see).
  private static let setPipeSize: Int32 = 1031

  /// Asks for a 1 MiB pipe buffer (the default `/proc/sys/fs/pipe-max-size`) instead of 64 KiB:
  /// a 1170×2532 frame is 11.8 MB, so the writer and ffmpeg take turns 11 times a frame instead
  /// of 180. A refusal (a lower limit) keeps the default, which works the same, only slower.
  private static func enlargePipe(_ descriptor: Int32) {
    _ = fcntl(descriptor, setPipeSize, Int32(1 << 20))
  }

  /// Runs the GIF's second pass (``FFmpegOptions/gifEncodeArguments(output:)``) to its end.
  private func runSecondPass(_ session: Session) throws(RenderError) -> (Process, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: session.executable)
    process.arguments = options.gifEncodeArguments(output: session.file.temporaryPath)
    let errorPipe = Pipe()
    _ = fcntl(errorPipe.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errorPipe
    do {
      try process.run()
    } catch {
      throw RenderError(
        .encoderFailed, path: path,
        reason: "cannot start ffmpeg '\(session.executable)' for the GIF's second pass (\(error))")
    }
    UnfinishedOutputs.insertEncoder(process.processIdentifier)
    try? errorPipe.fileHandleForWriting.close()
    let errors = ErrorTail()
    errors.start(reading: errorPipe.fileHandleForReading.fileDescriptor)
    process.waitUntilExit()
    UnfinishedOutputs.removeEncoder(process.processIdentifier)
    let tail = errors.finish()
    try? errorPipe.fileHandleForReading.close()
    return (process, tail)
  }

  /// Stops the encoder and removes its partial output.
  public func cancel() {
    guard session != nil else { return }
    _ = stop(reason: "cancelled", terminate: true)
  }

  private func notBegun() -> RenderError {
    RenderError(.invalidState, path: path, reason: "begin the output before adding frames")
  }

  /// Closes the pipe, waits for the encoder (terminating it first if asked), removes the
  /// temporary file and returns an error describing how the encoder ended.
  private func stop(reason: String, terminate: Bool = false) -> RenderError {
    guard let session else { return notBegun() }
    self.session = nil
    try? session.input.fileHandleForWriting.close()
    if terminate, session.process.isRunning { session.process.terminate() }
    session.process.waitUntilExit()
    UnfinishedOutputs.removeEncoder(session.process.processIdentifier)
    let tail = session.errors.finish()
    session.removeSideFiles()
    session.file.discard()
    let detail = Self.describe(session.process, tail: tail)
    return RenderError(.encoderFailed, path: path, reason: "\(reason); \(detail)")
  }

  private static func describe(_ process: Process, tail: String) -> String {
    let status =
      process.terminationReason == .exit
      ? "ffmpeg exited with status \(process.terminationStatus)"
      : "ffmpeg was killed by signal \(process.terminationStatus)"
    return tail.isEmpty ? status : "\(status): \(tail)"
  }
}
