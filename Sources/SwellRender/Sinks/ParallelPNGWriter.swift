import Dispatch
import Foundation
import SwellCairo
import SwellFiles
import Synchronization

/// Encodes and writes the frames of a PNG sequence on every core: ``submit(_:index:to:)`` copies
/// a frame and returns, and the frame is encoded (``PNGEncoder``) and written to its own file
/// (temporary name, renamed into place) on a worker thread while the caller draws the next one.
///
/// At most ``concurrency`` frames are in flight (each a copy of the pixels, 4 bytes a pixel, and
/// zlib's state: one per core, within 1 GiB of copies); ``submit(_:index:to:)`` waits for a free
/// slot. The first failure is kept: it names the frame's file,
/// the later submissions throw it, and the frames still queued are dropped. Every file written
/// stays in the registry of unfinished outputs until ``finish()``, so an interrupted run (a
/// signal) removes the frames already in place as well as the temporary files.
///
/// `@unchecked Sendable`: the mutable state (failure, files written, buffer pool) is behind
/// mutexes, and each submitted frame buffer belongs to the one worker encoding it until it is
/// returned to the pool.
final class ParallelPNGWriter: @unchecked Sendable {
  /// How many frames may be encoded at once: one per core, within ``memoryLimit``.
  let concurrency: Int
  private let encoder: PNGEncoder
  private let queue = DispatchQueue(label: "swell.render.png", attributes: .concurrent)
  private let group = DispatchGroup()
  private let slots: DispatchSemaphore
  private let failure = Mutex<RenderError?>(nil)
  private let stopped = Atomic<Bool>(false)
  /// The files renamed into place, with their frame numbers.
  private let written = Mutex<[(index: Int, path: String)]>([])
  /// Frame copies the workers are done with.
  private let pool = Mutex<[FrameBuffer]>([])

  /// The most bytes of frame copies in flight: 1 GiB (at least one frame is always allowed).
  static let memoryLimit = 1 << 30

  /// Creates a writer.
  ///
  /// - Parameters:
  ///   - encoder: The PNG settings.
  ///   - frameBytes: The size of one frame's pixels, bytes (4 × width × height).
  ///   - cores: The cores to encode on (default: the active cores); at most 16 frames, and at
  ///     most ``memoryLimit`` bytes of copies, are in flight, and at least one.
  init(
    encoder: PNGEncoder, frameBytes: Int,
    cores: Int = ProcessInfo.processInfo.activeProcessorCount
  ) {
    self.encoder = encoder
    concurrency = max(1, min(cores, 16, Self.memoryLimit / max(1, frameBytes)))
    slots = DispatchSemaphore(value: concurrency)
  }

  /// The files written so far, in frame order, once the frames in flight are done (waits for
  /// them).
  var writtenPaths: [String] {
    group.wait()
    return written.withLock { $0 }.sorted { $0.index < $1.index }.map(\.path)
  }

  /// Queues a frame for `path` (frame `index` of the sequence); returns once its pixels are
  /// copied.
  ///
  /// - Parameters:
  ///   - frame: The pixels (premultiplied ARGB32).
  ///   - index: The frame number.
  ///   - path: The frame's file.
  /// - Throws: ``RenderError``: the first failure of an earlier frame, naming its file.
  func submit(_ frame: FramePixels, index: Int, to path: String) throws(RenderError) {
    slots.wait()
    if let error = failure.withLock({ $0 }) {
      slots.signal()
      throw error
    }
    let buffer = takeBuffer(for: frame)
    buffer.copy(frame)
    group.enter()
    queue.async { [self] in
      defer {
        pool.withLock { $0.append(buffer) }
        slots.signal()
        group.leave()
      }
      guard !stopped.load(ordering: .relaxed), failure.withLock({ $0 }) == nil else { return }
      do throws(RenderError) {
        try write(buffer, index: index, to: path)
      } catch {
        failure.withLock { $0 = $0 ?? error }
      }
    }
  }

  /// Encodes one frame and renames its file into place.
  private func write(_ buffer: FrameBuffer, index: Int, to path: String) throws(RenderError) {
    let bytes: [UInt8]
    do {
      bytes = try buffer.withFramePixels { (frame) throws(PNGEncoder.Failure) in
        try encoder.encode(frame)
      }
    } catch {
      throw RenderError(.writeFailed, path: path, reason: "PNG encoding failed (\(error.reason))")
    }
    let file = try OutputFile(path: path)
    let result = bytes.withUnsafeBytes { raw in
      Result { () throws(RenderError) in try file.write(raw) }
    }
    try result.get()
    // Registered before the rename: a signal from here on removes the finished frame too. Once
    // a signal's clean-up has begun, the frame is not put in place at all.
    guard UnfinishedOutputs.insert(path) else {
      throw RenderError(.writeFailed, path: path, reason: "interrupted")
    }
    do {
      try file.commit()
    } catch {
      UnfinishedOutputs.remove(path)
      throw error
    }
    written.withLock { $0.append((index, path)) }
  }

  private func takeBuffer(for frame: FramePixels) -> FrameBuffer {
    let reused = pool.withLock { buffers in
      buffers.firstIndex { $0.fits(frame) }.map { buffers.remove(at: $0) }
    }
    return reused ?? FrameBuffer(pixelWidth: frame.pixelWidth, pixelHeight: frame.pixelHeight)
  }

  /// Waits for every queued frame; the files are then final (no longer removed by a signal).
  ///
  /// - Throws: ``RenderError``: the first failure, naming its file.
  func finish() throws(RenderError) {
    group.wait()
    if let error = failure.withLock({ $0 }) { throw error }
    for (_, path) in written.withLock({ $0 }) { UnfinishedOutputs.remove(path) }
  }

  /// Drops the queued frames, waits for the workers and removes every file written.
  func cancel() {
    stopped.store(true, ordering: .relaxed)
    group.wait()
    let files = written.withLock { files in
      defer { files = [] }
      return files
    }
    for (_, path) in files {
      unlink(path)
      UnfinishedOutputs.remove(path)
    }
  }
}

/// A copy of one frame's pixels, rows packed (`4 × width` bytes a row).
///
/// `@unchecked Sendable`: one thread at a time owns it (the submitting thread while it copies,
/// then the worker that encodes it, then the pool behind its mutex).
private final class FrameBuffer: @unchecked Sendable {
  let pixelWidth: Int
  let pixelHeight: Int
  private let bytes: UnsafeMutableRawPointer

  init(pixelWidth: Int, pixelHeight: Int) {
    self.pixelWidth = pixelWidth
    self.pixelHeight = pixelHeight
    bytes = .allocate(byteCount: max(4, 4 * pixelWidth * pixelHeight), alignment: 16)
  }

  deinit { bytes.deallocate() }

  func fits(_ frame: FramePixels) -> Bool {
    frame.pixelWidth == pixelWidth && frame.pixelHeight == pixelHeight
  }

  /// Copies the frame's rows (the caller checked its size with ``fits(_:)``).
  func copy(_ frame: FramePixels) {
    guard let source = frame.bytes.baseAddress else { return }
    let rowBytes = 4 * pixelWidth
    if frame.bytesPerRow == rowBytes {
      bytes.copyMemory(from: source, byteCount: rowBytes * pixelHeight)
    } else {
      for row in 0..<pixelHeight {
        (bytes + row * rowBytes).copyMemory(
          from: source + row * frame.bytesPerRow, byteCount: rowBytes)
      }
    }
  }

  func withFramePixels<R, E: Error>(_ body: (FramePixels) throws(E) -> R) throws(E) -> R {
    let rowBytes = 4 * pixelWidth
    return try body(
      FramePixels(
        pixelWidth: pixelWidth, pixelHeight: pixelHeight, bytesPerRow: rowBytes,
        bytes: UnsafeRawBufferPointer(start: bytes, count: rowBytes * pixelHeight)))
  }
}
